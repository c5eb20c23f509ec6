#!/bin/sh
# fsfreeze in the middle of a copy by cpr, on a small ext4 and a small
# btrfs (the source NODATASUM, the destination not, so that btrfs copies
# through the page cache instead of sharing extents): the freeze returns
# within seconds while cpr is still copying, the destination then stands
# still, and after the thaw cpr finishes with status 0 and an exact copy.
# tests/kernel/freeze.sh covers copy_range itself on ext4.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$abs_srcdir/tests/faults/lib.sh"
fail=0
size=$(size_ "${CR_FREEZE_SIZE-384M}")
cpr=$(command -v cpr) || framework_failure_ "cpr not built"
uptime_ () { cut -d' ' -f1 /proc/uptime; }

frozen_=
cleanup_ ()
{
  test -z "$frozen_" || xfs_io -x -c thaw "$frozen_"
  faults_cleanup_
}

# freeze_on_ FS
freeze_on_ ()
{
  scratch_dir_ "$CR_MNT_XFS"
  mnt=$dir
  small_fs_ $1 $((size * 3)) "$mnt"
  src=$mnt/src
  if test $1 = btrfs; then
    mkdir "$mnt/nocow" && chattr +C "$mnt/nocow" \
      || framework_failure_ "chattr +C on btrfs"
    src=$mnt/nocow/src
  fi
  make_data_ "$src" $size
  drop_caches_

  "$cpr" "$src" "$mnt/dst" 2> cpr.err &
  pid=$!
  sleep 0.5
  t0=$(uptime_)
  frozen_=$mnt
  timeout 30 xfs_io -x -c freeze "$mnt" \
    || { frozen_=; framework_failure_ "$1: cannot freeze $mnt"; }
  t1=$(uptime_)
  took=$(awk "BEGIN { printf \"%.2f\", $t1 - $t0 }")
  running=no
  kill -0 $pid 2> /dev/null && running=yes
  a=$(stat -c %s "$mnt/dst")
  sleep 1
  b=$(stat -c %s "$mnt/dst")
  echo "$1: the freeze took $took s; cpr still running: $running;" \
       "destination $a bytes, a second later $b"
  xfs_io -x -c thaw "$mnt" || framework_failure_ "$1: cannot thaw $mnt"
  frozen_=
  wait $pid
  st=$?
  echo "$1: cpr: status $st" $(cat cpr.err)
  test $running = yes \
    || { echo "FAIL: $1: cpr finished before the freeze: enlarge CR_FREEZE_SIZE"; fail=1; }
  awk "BEGIN { exit !($took < 10) }" \
    || { echo "FAIL: $1: the freeze waited $took s for the copy"; fail=1; }
  test "$a" = "$b" \
    || { echo "FAIL: $1: the destination grew while frozen"; fail=1; }
  test $st = 0 || { echo "FAIL: $1: cpr failed after the thaw"; fail=1; }
  $gnu_cmp "$src" "$mnt/dst" \
    || { echo "FAIL: $1: the copy differs from the source"; fail=1; }
  umount "$mnt" || framework_failure_ "umount $mnt"
}

freeze_on_ ext4
freeze_on_ btrfs

Exit $fail
