#!/bin/sh
# In the guest: --reflink=always clones with FICLONE where the filesystem
# can (btrfs, xfs with reflink) and fails as GNU cp fails where it cannot;
# cpr and GNU cp agree on every scratch filesystem.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0
test -n "$COPYRANGE_GUEST" || skip_ "needs the patched kernel in the guest"

mkdir gnu ours || framework_failure_
ln -s /bin/cp gnu/cp || framework_failure_
ln -s "$abs_top_builddir/src/cpr" ours/cp || framework_failure_
head -c 3000000 /dev/urandom > src || framework_failure_

dirs=
cleanup_ () { test -z "$dirs" || rm -rf $dirs; }
for mnt in "$CR_MNT_BTRFS" "$CR_MNT_NFS" "$CR_MNT_EXT4" "$CR_MNT_XFS" \
           "$CR_MNT_TMPFS"; do
  d=$(mktemp -d "$mnt/cpr-reflink.XXXXXX") || { echo "no $mnt"; fail=1; continue; }
  dirs="$dirs $d"
  /bin/cp src "$d/src" || framework_failure_
  for prog in gnu ours; do
    rm -f "$d/dst"
    (cd "$d" && PATH=$OLDPWD/$prog:$PATH cp --reflink=always src dst \
       > "$OLDPWD/$prog.out" 2> "$OLDPWD/$prog.err"
     echo $? > "$OLDPWD/$prog.status")
  done
  compare gnu.err ours.err || fail=1
  compare gnu.status ours.status || fail=1
  if test "$(cat ours.status)" = 0; then
    cmp src "$d/dst" || fail=1
    cpr --debug --reflink=always "$d/src" "$d/dst2" > out || fail=1
    grep -q 'reflink: yes, .*method: FICLONE$' out || fail=1
  fi
  case $mnt in
    "$CR_MNT_BTRFS") test "$(cat ours.status)" = 0 || fail=1;;
  esac
done

Exit $fail
