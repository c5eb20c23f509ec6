#!/bin/sh
# In the guest, cpr moves the bytes with copy_range on every scratch
# filesystem -- a clone on btrfs, an NFSv4.2 COPY (over btrfs and ext4
# exports), the kernel's own copy on NFSv4.1, ext4, xfs and tmpfs -- and
# the copies are byte-identical, sparse sources included (those go by
# read and write, leaving holes for zeros, on ext4 and tmpfs).  Across two
# filesystems copy_range is refused and read/write takes over.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0
test -n "$COPYRANGE_GUEST" || skip_ "needs the patched kernel in the guest"

size=5242883    # 5 MiB + 3: not block-aligned
head -c $size /dev/urandom > src || framework_failure_
{ head -c 70000 /dev/urandom > sparse && truncate -s 9M sparse \
  && head -c 4096 /dev/urandom >> sparse && truncate -s +2M sparse; } \
  || framework_failure_

dirs=
cleanup_ () { test -z "$dirs" || rm -rf $dirs; }
for mnt in "$CR_MNT_BTRFS" "$CR_MNT_NFS" "$CR_MNT_NFS_EXT4" "$CR_MNT_NFS41" \
           "$CR_MNT_EXT4" "$CR_MNT_XFS" "$CR_MNT_TMPFS"; do
  d=$(mktemp -d "$mnt/cpr-offload.XXXXXX") || { echo "no $mnt"; fail=1; continue; }
  dirs="$dirs $d"
  /bin/cp src sparse "$d" || framework_failure_

  cpr --debug "$d/src" "$d/dst" > out || fail=1
  cmp src "$d/dst" || fail=1
  test "$(method_ out)" = copy_range || { echo "$mnt: $(cat out)"; fail=1; }
  grep -q '^copy offload: yes, ' out || fail=1

  # Sparse: extent by extent, holes kept.  Where copy_range would copy
  # through the page cache (ext4, tmpfs), read and write copy the data
  # and leave holes for its blocks of zeros too, as GNU cp does.
  cpr --debug "$d/sparse" "$d/sparse.dst" > out || fail=1
  cmp sparse "$d/sparse.dst" || fail=1
  case $mnt in
    "$CR_MNT_EXT4"|"$CR_MNT_TMPFS")
      want='avoided, .*sparse detection: SEEK_HOLE + zeros, method: read/write$' ;;
    *) want='sparse detection: SEEK_HOLE, method: copy_range$' ;;
  esac
  grep -q "$want" out || { echo "$mnt: $(cat out)"; fail=1; }
  # NFSv4.1 has no SEEK operation: the client sees one data extent, and
  # cpr copies the holes as zeros.  GNU cp's copy there came out sparse
  # (1024 blocks for 9 MiB holding 70000 bytes; cpr: 22536 blocks for this
  # 11 MiB file, all of it written): a known difference, not yet
  # understood, so an expected failure there, which fails the test the
  # day cpr's copy comes out sparse, to be checked as on the others.
  blocks=$(stat -c %b "$d/sparse.dst") || fail=1
  if test "$mnt" != "$CR_MNT_NFS41"; then
    test "$blocks" -lt $((9 * 1024 * 2)) || { echo "$mnt: $blocks blocks"; fail=1; }
  elif test "$blocks" -lt $((9 * 1024 * 2)); then
    echo "FAIL: $mnt: unexpectedly sparse ($blocks blocks): the expected failure on NFSv4.1 is gone"
    fail=1
  else
    echo "$mnt: expected failure: not sparse ($blocks blocks): NFSv4.1 has no SEEK, cpr writes the holes as zeros (GNU cp's copy is sparse there)"
  fi
done

# Across filesystems (ext4 to xfs, NFS to btrfs): refused, read/write.
test -n "$dirs" || framework_failure_
set -- $dirs   # btrfs nfs nfs-ext4 nfs41 ext4 xfs tmpfs
for pair in "$5 $6" "$2 $1"; do
  set -- $pair
  cpr --debug "$1/src" "$2/cross" > out || fail=1
  cmp src "$2/cross" || fail=1
  case $(method_ out) in
    *read/write) ;;
    *) echo "$pair: $(cat out)"; fail=1;;
  esac
done

Exit $fail
