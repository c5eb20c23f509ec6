#!/bin/sh
# In the guest: cpr run by a plain user, who reaches cpr and every file by
# its full path from /, copies with copy_range on every scratch filesystem
# (clone, NFS COPY or the kernel's copy) and the copy is the user's and
# byte-identical; a source the user cannot read and a folder it cannot
# write fail with GNU cp's message and status.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0
test -n "$COPYRANGE_GUEST" || skip_ "needs the patched kernel in the guest"

user=nobody
uid=$(id -u $user) && gid=$(id -g $user) || framework_failure_ "no user $user"
as_user_ () { setpriv --reuid=$uid --regid=$gid --clear-groups -- "$@"; }
cpr=$abs_top_builddir/src/cpr

# The build tree is reachable: cpr runs for the user at all.
as_user_ "$cpr" --version > /dev/null \
  || { echo "user $user cannot run $cpr"; fail=1; }

size=3000001
head -c $size /dev/urandom > src || framework_failure_

dirs=
cleanup_ () { test -z "$dirs" || rm -rf $dirs; }
for mnt in "$CR_MNT_BTRFS" "$CR_MNT_NFS" "$CR_MNT_NFS_EXT4" "$CR_MNT_NFS41" \
           "$CR_MNT_EXT4" "$CR_MNT_XFS" "$CR_MNT_TMPFS"; do
  d=$(mktemp -d "$mnt/cpr-unprivileged.XXXXXX") \
    || { echo "no $mnt"; fail=1; continue; }
  dirs="$dirs $d"
  # mktemp's folder is 0700; the user's is its own, the rest root's.
  { chmod 0755 "$d" && mkdir "$d/user" "$d/rodir" "$d/bin" "$d/gnu" \
    && /bin/cp src "$d/user/src" && chown -R $uid:$gid "$d/user" \
    && printf 'secret\n' > "$d/secret" && chmod 600 "$d/secret" \
    && ln -s "$cpr" "$d/bin/cp" && ln -s /bin/cp "$d/gnu/cp"; } \
    || framework_failure_ "set-up in $d"

  as_user_ "$cpr" --debug "$d/user/src" "$d/user/dst" > out 2> err \
    || { echo "$mnt: cpr as $user failed: $(cat err)"; fail=1; }
  cmp src "$d/user/dst" || fail=1
  test "$(method_ out)" = copy_range || { echo "$mnt: $(cat out)"; fail=1; }
  test "$(stat -c %u:%g "$d/user/dst")" = $uid:$gid \
    || { echo "$mnt: dst is $(stat -c %u:%g "$d/user/dst")"; fail=1; }

  # What the user may not do fails as GNU cp fails, message and status
  # (with the program's own name, as invoked, taken out).
  for args in "$d/secret $d/user/secret" "$d/user/src $d/rodir/x"; do
    for prog in gnu bin; do
      as_user_ "$d/$prog/cp" $args > out.$prog 2> err.$prog
      echo "status $?" >> out.$prog
      sed -i "s|^$d/$prog/cp: |cp: |" err.$prog
    done
    compare out.gnu out.bin || { echo "$mnt: cp $args"; fail=1; }
    compare err.gnu err.bin || { echo "$mnt: cp $args"; fail=1; }
    grep 'status 1' out.bin > /dev/null || fail=1
  done
done

Exit $fail
