#!/bin/sh
# kernel/build-deb refuses what is no OUTDIR before it touches anything:
# an option ('--help', which it took for OUTDIR and then pruned the
# cache's trees and began to unpack a kernel), and a file that is no
# directory, nor one inside the cache's kernel-deb/, whose trees would be
# pruned with it; and a run refused for its configuration makes no
# OUTDIR.  Empty directories stand for the cache's trees: nothing is
# unpacked or built.  And on a run that fails, the trees stay: they go
# only once the run's own tree is made.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"
fail=0
for p in bash flock; do
  command -v $p > /dev/null || skip_ "$p not found"
done

# A linux-source "tarball" that does not unpack: a run that gets that
# far fails there.
: > fake-linux-source.tar.xz || framework_failure_
dir=$PWD/cache/kernel-deb
a=aaaaaaaaaaaaaaaa b=bbbbbbbbbbbbbbbb
mkdir -p "$dir/$a" "$dir/$b" && touch -d '2026-01-01 00:00' "$dir/$a" ||
  framework_failure_
: > not-a-dir || framework_failure_

# run_ NAME ARG...: kernel/build-deb ARG..., which must fail, and leave
# both trees.
run_ ()
{
  name_=$1; shift
  LINUX_SOURCE_TARBALL=$PWD/fake-linux-source.tar.xz \
    COPYRANGE_CACHE=$PWD/cache KERNEL_DEB_CONFIG=${kconf_-} \
    bash "$abs_top_srcdir/kernel/build-deb" "$@" > $name_.out 2>&1 &&
    { echo "$name_: kernel/build-deb $* succeeded"; fail=1; }
  sed "s|^|$name_: |" $name_.out
  # (The failed run's own tree may be there too.)
  (cd "$dir" && ls -1d */ | sed 's|/$||' | grep -x -e $a -e $b) > $name_.left
  printf '%s\n' $a $b > left.exp || framework_failure_
  compare left.exp $name_.left || fail=1
}

run_ help --help
grep 'usage: kernel/build-deb \[--prepare-only\] OUTDIR' help.out > /dev/null ||
  fail=1
run_ dash --prepare-only -x
run_ file not-a-dir
grep 'not-a-dir: not a directory this run can write' file.out > /dev/null ||
  fail=1
run_ incache "$dir/debs"
grep "debs: inside .*/cache/kernel-deb, where the trees are" incache.out \
  > /dev/null || fail=1
test -e "$dir/debs" && { echo "incache: OUTDIR made"; fail=1; }
kconf_=$PWD/nonexistent run_ noconfig new/deep/outdir
grep 'KERNEL_DEB_CONFIG=.*nonexistent: no such file' noconfig.out > /dev/null ||
  fail=1
test -e new && { echo "noconfig: OUTDIR made"; fail=1; }
# A real OUTDIR, and a tarball that does not unpack: the run fails
# before its tree is made, and prunes nothing.
run_ unpack out

Exit $fail
