#!/bin/sh
# ENOSPC in the middle of a copy, on a small ext4 and a small btrfs: the
# copy has to allocate (ext4 copies through the page cache; on btrfs the
# source is NODATASUM and the destination is not, so no extent can be
# shared).  copy_range returns the bytes it copied, a later call fails
# with ENOSPC, and the destination holds the source's first bytes; cpr
# reports what GNU cp reports in the same place and exits with 1.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$abs_srcdir/tests/faults/lib.sh"
fail=0
M=1048576

# enospc_on_ FS SIZE [MKFS OPTION]...
enospc_on_ ()
{
  fs=$1 size=$2
  shift 2
  scratch_dir_ "$CR_MNT_XFS"
  mnt=$dir
  small_fs_ $fs $size "$mnt" "$@"
  src=$mnt/src
  if test $fs = btrfs; then
    mkdir "$mnt/nocow" && chattr +C "$mnt/nocow" \
      || framework_failure_ "chattr +C on btrfs"
    src=$mnt/nocow/src
  fi
  # Two thirds of the space for the source: the copy runs out half way.
  avail=$(avail_ "$mnt")
  random_file_ "$src" $((avail * 2 / 3 / M * M))
  fs_sync_ "$mnt"
  len=$(stat -c %s "$src")
  echo "$fs: $avail bytes available, source $len bytes"

  "$crf" "$src" "$mnt/dst" > crf.out 2> crf.err
  st=$?
  set -- $(crf_result_ crf.err) 0 0
  copied=$1 calls=$2
  echo "$fs: copy_range: status $st, $copied of $len bytes in $calls calls:" \
    $(cat crf.err)
  if test $st != 1 || ! grep -q 'No space left on device' crf.err; then
    echo "FAIL: $fs: copy_range did not fail with ENOSPC"; fail=1
  elif test "$copied" -le 0 || test "$calls" -lt 2; then
    echo "FAIL: $fs: copy_range failed before it returned the bytes it copied"
    fail=1
  fi
  test "$copied" -lt "$len" \
    || { echo "FAIL: $fs: the whole source fit, so nothing was tested"; fail=1; }
  prefix_ok_ "$src" "$mnt/dst" "$copied" \
    || { echo "FAIL: $fs: the destination's first $copied bytes are wrong"; fail=1; }

  cp_vs_cpr_ "rm -f '$mnt/dst'; fs_sync_ '$mnt'" "$src" "$mnt/dst"
  grep -q 'No space left on device' err.cpr \
    || { echo "FAIL: $fs: cpr did not report ENOSPC"; fail=1; }
  umount "$mnt" || framework_failure_ "umount $mnt"
}

enospc_on_ ext4 64M -m 0
enospc_on_ btrfs 160M

Exit $fail
