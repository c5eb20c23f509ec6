#!/bin/sh
# I/O errors under a copy, from device-mapper under a small ext4.
#  - A read error in the middle of the source (one block mapped to
#    dm-error): copy_range returns the bytes before it, the next call
#    fails with EIO, and the destination holds the source's first bytes;
#    cpr fails with GNU cp's diagnostic and status 1, never leaving a
#    short file in silence.
#  - Every write failing (dm-flakey with error_writes): the copy goes to
#    the page cache, and the error reaches fsync of the destination.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$abs_srcdir/tests/faults/lib.sh"
fail=0
M=1048576
name=cr-faults-eio.$$

loop_dev_ 64M
total=$(sectors_ "$loop")
linear="0 $total linear $loop 0"
dm_create_ $name "$linear"
scratch_dir_ "$CR_MNT_XFS"
mnt=$dir
# No journal: failed writes then touch the file's data and inode only.
mkfs_mount_ ext4 "$dm" "$mnt" -O ^has_journal -m 0
src=$mnt/src
random_file_ "$src" $((8 * M))
fs_sync_ "$mnt"

# The device's sector that holds the source's byte 4 MiB (block 1024).
bad_at=$((4 * M))
blk=$(filefrag -v -b4096 "$src" | sed 's/\.\./ /g; s/:/ /g' \
      | awk -v l=$((bad_at / 4096)) '
          $1 ~ /^[0-9]+$/ && $2 <= l && l <= $3 { print $4 + l - $2; exit }')
test -n "$blk" || framework_failure_ "no extent of $src holds block $((bad_at / 4096))"
bad=$((blk * 8))
echo "source byte $bad_at is at sector $bad of $dm"
# CR_EIO_SECTORS=0 leaves the source whole, to check that the test then
# fails.
nbad=${CR_EIO_SECTORS-8}
test "$nbad" = 0 || dm_reload_ $name "0 $bad linear $loop 0
$bad $nbad error
$((bad + nbad)) $((total - bad - nbad)) linear $loop $((bad + nbad))"

# Read errors.
drop_caches_
"$crf" "$src" "$mnt/dst" > crf.out 2> crf.err
st=$?
set -- $(crf_result_ crf.err) 0 0
copied=$1 calls=$2
echo "read error: copy_range: status $st, $copied bytes in $calls calls:" \
  $(cat crf.err)
if test $st != 1 || ! grep -q 'Input/output error' crf.err; then
  echo "FAIL: copy_range did not fail with EIO"; fail=1
elif test "$copied" -le 0 || test "$calls" -lt 2; then
  echo "FAIL: copy_range failed before it returned the bytes it copied"; fail=1
fi
test "$copied" -le $bad_at \
  || { echo "FAIL: copy_range copied $copied bytes, past the bad block at $bad_at"; fail=1; }
prefix_ok_ "$src" "$mnt/dst" "$copied" \
  || { echo "FAIL: the destination's first $copied bytes are wrong"; fail=1; }

cp_vs_cpr_ "rm -f '$mnt/dst'; drop_caches_" "$src" "$mnt/dst"
grep -q 'Input/output error' err.cpr \
  || { echo "FAIL: cpr did not report EIO"; fail=1; }
rm -f "$mnt/dst"

# Write errors.  The destination exists on disk before the writes fail.
: > "$mnt/wdst" && fs_sync_ "$mnt" || framework_failure_
dm_reload_ $name "0 $total flakey $loop 0 0 1 1 error_writes"
"$crf" "$src" "$mnt/wdst" > crf.out 2> crf.err
st=$?
echo "write errors: copy_range: status $st:" $(cat crf.out crf.err)
test $st = 0 || { echo "FAIL: copy_range into the page cache failed"; fail=1; }
xfs_io -c fsync "$mnt/wdst" > fsync.out 2>&1
st=$?
echo "write errors: fsync: status $st:" $(cat fsync.out)
grep -q 'Input/output error' fsync.out \
  || { echo "FAIL: fsync did not report the failed writes"; fail=1; }
# Let the unmount write what it wants.
dm_reload_ $name "$linear"
umount "$mnt" || framework_failure_ "umount $mnt"

Exit $fail
