# Sourced by the copy_range guest tests: run a test program on every
# scratch filesystem of the guest.  -*- sh -*-

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

test -n "$COPYRANGE_GUEST" || skip_ 'needs the copyrange guest kernel'

# run_on_each_fs_ PROG [FS...]: run "PROG FSNAME MOUNTPOINT" for each FS
# (default: ext4, xfs, tmpfs and btrfs; nfs-btrfs, nfs-ext4 and nfs41 name
# the NFS mounts of vm/guest-setup), showing its per-row lines; set fail=1
# if it fails anywhere or a filesystem is missing.  Skips the test if PROG
# skipped on every filesystem.
run_on_each_fs_ ()
{
  prog_=$1
  shift
  test $# -gt 0 || set -- ext4 xfs tmpfs btrfs
  ran_=0
  for fs_ in "$@"; do
    case $fs_ in
      ext4) mnt_=$CR_MNT_EXT4 ;;
      xfs) mnt_=$CR_MNT_XFS ;;
      tmpfs) mnt_=$CR_MNT_TMPFS ;;
      btrfs) mnt_=$CR_MNT_BTRFS ;;
      nfs-btrfs) mnt_=$CR_MNT_NFS ;;
      nfs-ext4) mnt_=$CR_MNT_NFS_EXT4 ;;
      nfs41) mnt_=$CR_MNT_NFS41 ;;
      *) framework_failure_ "run_on_each_fs_: unknown filesystem $fs_" ;;
    esac
    if test -z "$mnt_" || ! test -d "$mnt_"; then
      echo "FAIL: $fs_: no such filesystem (CR_MNT_* unset)"
      fail=1
      continue
    fi
    "$prog_" $fs_ "$mnt_" > out-$fs_ 2> err-$fs_
    st_=$?
    cat out-$fs_
    cat err-$fs_ >&2
    case $st_ in
      0) ran_=1 ;;
      77) ;;
      *) echo "FAIL: $fs_: $prog_ exited with status $st_"; ran_=1; fail=1 ;;
    esac
  done
  test $ran_ = 1 || skip_ "$prog_ skipped on every filesystem"
}
