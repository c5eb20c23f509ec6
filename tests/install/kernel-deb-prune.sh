#!/bin/sh
# kernel/build-deb's trees do not pile up: kt_prune (kernel/tree-lib.sh),
# which it calls once it has made its tree, removes the trees of its cache
# directory but the one being made and the newest other, and never one
# that another run holds locked, nor a directory that is not named as a
# tree (a user's OUTDIR put there, say).  Empty directories stand for the
# trees: nothing is unpacked or built.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"
fail=0
for p in bash flock; do
  command -v $p > /dev/null || skip_ "$p not found"
done

# tree-lib.sh wants a linux-source tarball to exist; it is not read here.
: > fake-linux-source.tar.xz || framework_failure_
dir=$PWD/cache/kernel-deb
mkdir -p "$dir" || framework_failure_
# Four trees, a the oldest and d the newest: d is being made, a is held
# by another run; and debs, older than all, and new, newer, not trees.
a=aaaaaaaaaaaaaaaa b=bbbbbbbbbbbbbbbb c=cccccccccccccccc d=dddddddddddddddd
t=2
for k in $a $b $c $d; do
  mkdir "$dir/$k" && touch "$dir/$k/build.log" \
    && touch -d "2026-01-0$t 00:00" "$dir/$k" || framework_failure_
  t=$((t + 1))
done
mkdir "$dir/debs" "$dir/new" && touch -d "2026-01-01 00:00" "$dir/debs" \
  || framework_failure_
cat > prune <<'EOF' || framework_failure_
set -euo pipefail
me=kernel-deb-prune top=$1
. "$top/kernel/tree-lib.sh"
kt_prune "$2" 1 "$2/dddddddddddddddd"
EOF
exec 8> "$dir/$a.lock" && flock 8 || framework_failure_
LINUX_SOURCE_TARBALL=$PWD/fake-linux-source.tar.xz \
  COPYRANGE_CACHE=$PWD/cache bash prune "$abs_top_srcdir" "$dir" \
  > prune.out 2>&1 || fail=1
exec 8>&-
cat prune.out

(cd "$dir" && ls -1d */ | sed 's|/$||') > left || framework_failure_
printf '%s\n' $a $c $d debs new > left.exp || framework_failure_
compare left.exp left || fail=1

Exit $fail
