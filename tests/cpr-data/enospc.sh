#!/bin/sh
# A full filesystem for real, a small tmpfs in a private mount namespace:
# ENOSPC from the kernel's copy (within the filesystem) and from write
# (into it from another) is diagnosed as GNU cp diagnoses it, with the same
# exit status.  Both programs run as "cp".  tests/cpr-data/errors.sh
# injects the same errors with the shim.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0
kernel_has_copy_range_ && skip_ "the running kernel has copy_range"
require_gnu_cp_
unshare -m true 2>/dev/null \
  || skip_ "cannot make a private mount namespace (unshare -m) to mount a full tmpfs in: needs root"

mkdir gnu ours mnt || framework_failure_
ln -s "$CR_REF" gnu/cp || framework_failure_
ln -s "$abs_top_builddir/src/cpr" ours/cp || framework_failure_
head -c 3000000 /dev/urandom > a || framework_failure_

for prog in gnu ours; do
  unshare -m sh -c '
    mount -t tmpfs -o size=2m none mnt || exit 99
    head -c 1500000 a > mnt/a &&
    PATH=$PWD/'$prog':$PATH cp mnt/a mnt/b 2> same.'$prog'.err
    echo $? > same.'$prog'.status
    PATH=$PWD/'$prog':$PATH cp a mnt/c 2> cross.'$prog'.err
    echo $? > cross.'$prog'.status' || framework_failure_
done
for f in same.err same.status cross.err cross.status; do
  compare ${f%.*}.gnu.${f##*.} ${f%.*}.ours.${f##*.} || fail=1
done
# Both copies did fail for want of space.
grep 'No space left' same.gnu.err || fail=1
grep 'No space left' cross.gnu.err || fail=1

Exit $fail
