#!/bin/sh
# The guest's folders carry the modes a real system has: / and the folders
# down to the build tree and the scratch filesystems are root's and
# searchable by every user, /tmp is sticky and world-writable, /root is
# root's alone; a plain user reaches the build tree and each scratch
# filesystem by path.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
fail=0
test -n "$COPYRANGE_GUEST" || skip_ "runs only inside the QEMU guest (make check boots it)"

# want_mode_ MODE PATH: PATH has MODE (octal, as stat prints it) and root's.
want_mode_ ()
{
  got=$(stat -c '%a %u:%g' "$2") || { fail=1; return; }
  test "$got" = "$1 0:0" || { echo "$2: mode and owner $got, not $1 0:0"; fail=1; }
}
want_mode_ 755 /
want_mode_ 1777 /tmp
want_mode_ 700 /root
for d in /usr /usr/bin /usr/lib /etc /mnt /run /var /var/lib; do
  want_mode_ 755 $d
done
# The folders above the shared build tree, which the guest made.
d=$abs_top_builddir
while d=$(dirname "$d"); test "$d" != /; do
  case $d in
    /tmp) ;;  # a build tree under /tmp: checked above, 1777
    *) want_mode_ 755 "$d" ;;
  esac
done

for p in "$abs_top_builddir/src" "$abs_top_srcdir/tests/init.sh" \
         "$CR_MNT_BTRFS" "$CR_MNT_EXT4" "$CR_MNT_XFS" "$CR_MNT_TMPFS" \
         "$CR_MNT_NFS" "$CR_MNT_NFS_EXT4" "$CR_MNT_NFS41"; do
  setpriv --reuid=65534 --regid=65534 --clear-groups -- stat "$p" > /dev/null \
    || { echo "a plain user cannot reach $p"; fail=1; }
done

Exit $fail
