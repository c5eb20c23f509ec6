#!/bin/sh
# Each scratch filesystem is mounted with the type its name says, is
# writable, and gives back what was written once the cache is dropped.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
fail=0
test -n "$COPYRANGE_GUEST" || skip_ "runs only inside the QEMU guest (make check boots it)"

head -c 1234567 /dev/urandom > data || framework_failure_

for fs in $CR_SCRATCH_FS; do
  eval mnt=\$CR_MNT_$(echo $fs | tr a-z A-Z)
  test -n "$mnt" || { echo "no mount point for $fs"; fail=1; continue; }
  type=$(stat -f -c %T "$mnt") || { fail=1; continue; }
  case $fs:$type in
    btrfs:btrfs|ext4:ext2/ext3|xfs:xfs|tmpfs:tmpfs) ;;
    *) echo "$mnt: expected $fs, found $type"; fail=1 ;;
  esac
  f=$mnt/scratch-fs.$$
  cp data "$f" && sync || { fail=1; continue; }
  echo 3 > /proc/sys/vm/drop_caches
  compare data "$f" || fail=1
  rm -f "$f"
done
test "$(echo $CR_SCRATCH_FS)" = "btrfs ext4 xfs tmpfs" \
  || { echo "unexpected scratch set: $CR_SCRATCH_FS"; fail=1; }

Exit $fail
