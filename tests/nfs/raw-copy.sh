#!/bin/sh
# A COPY whose offset plus count wraps past 2^64 (COPY's offsets are
# 64-bit unsigned on the wire) is the client's error: nfsd must answer
# NFS4ERR_INVAL, not log "non-standard errno" for the -EOVERFLOW of
# vfs_copy_range() and answer NFS4ERR_IO.  The Linux NFS client refuses
# such a copy itself, so tests/nfs/cr-raw-copy sends it: a wrapping
# destination offset, a wrapping source offset, and a count of 0 (to the
# source's end, which nfsd bounds at 4 MiB) at a wrapping destination
# offset, on the btrfs and the ext4 export.  Then a small copy that must
# go through with the right bytes, and on the btrfs export one that the
# server clones.  (tests/nfs/inter-ssc.sh sends the wrapping copy between
# servers.)

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/offload-lib.sh"
raw=${abs_top_builddir-$PWD/..}/tests/nfs/cr-raw-copy
test -x "$raw" || framework_failure_ "$raw not built"
test -n "${CR_NFS_EXPORT_BTRFS-}" && test -n "${CR_NFS_EXPORT_EXT4-}" \
  || skip_ "no NFS exports"
test "$(cat /proc/fs/nfsd/threads 2>/dev/null)" -gt 0 2>/dev/null \
  || skip_ "nfsd is not running"

# 2^64 - 4096: 1 MiB (or nfsd's 4 MiB for a count of 0) from here wraps.
wrap=18446744073709547520
warning='nfsd: non-standard errno'

# nfserrno()'s WARN for an errno it cannot map fails this test in
# tests/guest-run, which reads the kernel log after each test; but it is
# a WARN_ONCE: one from before this test would hide this test's own.
dmesg > dmesg-before || framework_failure_ "dmesg"
if grep "$warning: -75" dmesg-before; then
  fail_ "-EOVERFLOW reached nfserrno() before this test"
fi

# expect_ WANT SOURCE DEST SRC_OFF DST_OFF COUNT: the COPY's answer is WANT.
expect_ ()
{
  want_=$1; shift
  "$raw" "$@" > raw-out 2> raw-err
  st_=$?
  got_=$(cat raw-out)
  echo "cr-raw-copy $*: $got_ (exit $st_)"
  cat raw-err
  if test $st_ != 0; then
    fail_ "cr-raw-copy $* failed before the COPY"
  elif test "$got_" != "COPY $want_"; then
    echo "FAIL: COPY $3 $4 $5 answered '$got_', not 'COPY $want_'"
    fail=1
  fi
}

# size_is_ FILE BYTES
size_is_ ()
{
  sz_=$(stat -c %s "$1") || framework_failure_ "stat $1"
  test "$sz_" = "$2" || { echo "FAIL: $1 has $sz_ bytes, not $2"; fail=1; }
}

for export in "$CR_NFS_EXPORT_BTRFS" "$CR_NFS_EXPORT_EXT4"; do
  scratch_dir_ "$export"
  make_data_ "$dir/src" $((1048576 + 13))

  expect_ NFS4ERR_INVAL "$dir/src" "$dir/dst-a" 0 $wrap 1048576
  expect_ NFS4ERR_INVAL "$dir/src" "$dir/dst-b" $wrap 0 1048576
  expect_ NFS4ERR_INVAL "$dir/src" "$dir/dst-d" 0 $wrap 0
  for d in a b d; do
    size_is_ "$dir/dst-$d" 0
  done

  # The control: bytes 4096..69631 of the source land at 8192.
  expect_ 'NFS4_OK 65536' "$dir/src" "$dir/dst-c" 4096 8192 65536
  size_is_ "$dir/dst-c" $((8192 + 65536))
  $gnu_cmp -n 65536 "$dir/src" "$dir/dst-c" 4096 8192 || fail=1
  $gnu_cmp -n 8192 "$dir/dst-c" /dev/zero || fail=1

  # On the btrfs export, a COPY at one unaligned offset in both files is
  # a clone of every whole block between (nfsd's copy_range reaches
  # btrfs's, kernel patches 8 and 10); 6.1's nfsd spliced it, sharing
  # nothing.  Bytes 1000..1047575: whole blocks from 4096 to 1044480.
  test "$export" = "$CR_NFS_EXPORT_BTRFS" || continue
  expect_ 'NFS4_OK 1046576' "$dir/src" "$dir/dst-u" 1000 1000 1046576
  $gnu_cmp -n 1046576 "$dir/src" "$dir/dst-u" 1000 1000 || fail=1
  set -- $(btrfs_du_ "$dir/dst-u")
  echo "dst-u on the server: total $1 exclusive $2 shared $3"
  test "$3" = $((1044480 - 4096)) \
    || { echo "FAIL: the server's copy shares $3 bytes, not $((1044480 - 4096))"; fail=1; }
done

Exit $fail
