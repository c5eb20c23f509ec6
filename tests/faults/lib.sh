# Shell functions for the fault tests (tests/faults): small scratch
# filesystems on loop devices, optionally behind device-mapper, that a
# test can fill, break or inject faults under without touching the
# guest's own scratch filesystems.  Sourced after tests/init.sh; runs only
# in the QEMU guest.  -*- sh -*-
#
# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "$abs_srcdir/tests/offload-lib.sh"

# In the guest every tool below is part of the image: a missing one is a
# failure there, not a reason to skip.
for prog_ in losetup mke2fs e2fsck mkfs.btrfs btrfs dmsetup xfs_io; do
  command -v $prog_ > /dev/null \
    || framework_failure_ "$prog_ is not in the guest image"
done

# The backing files live on the guest's xfs scratch disk, which no fault
# test uses otherwise: not on the shared build tree, not in memory.
require_mnt_ CR_MNT_XFS

faults_mnts_= faults_loops_= faults_dms_= faults_files_=
faults_cleanup_ ()
{
  for m_ in $faults_mnts_; do
    grep -q "^[^ ]* $m_ " /proc/mounts && umount "$m_"
  done
  for d_ in $faults_dms_; do
    dmsetup --noudevsync remove "$d_" 2> /dev/null
  done
  for l_ in $faults_loops_; do
    losetup -d "$l_" 2> /dev/null
  done
  test -z "$faults_files_" || rm -f $faults_files_
  test -z "$scratch_dirs_" || rm -rf $scratch_dirs_
}
cleanup_ () { faults_cleanup_; }

# loop_dev_ SIZE: set loop to a fresh loop device over a sparse file of
# SIZE (K, M or G suffix) on the xfs scratch disk.
loop_dev_ ()
{
  file_=$(mktemp "$CR_MNT_XFS/faults-disk.XXXXXX") \
    || framework_failure_ "mktemp on $CR_MNT_XFS"
  faults_files_="$faults_files_ $file_"
  truncate -s "$(size_ "$1")" "$file_" || framework_failure_ "truncate $file_"
  loop=$(losetup -f --show "$file_") || framework_failure_ "losetup $file_"
  faults_loops_="$faults_loops_ $loop"
}

# dm_create_ NAME TABLE: a device-mapper device NAME with TABLE; sets dm
# to its path.  dm_reload_ NAME TABLE swaps the table of a live device.
dm_create_ ()
{
  printf '%s\n' "$2" | dmsetup --noudevsync create "$1" \
    || framework_failure_ "dmsetup create $1: $2"
  faults_dms_="$1 $faults_dms_"
  dmsetup --noudevsync mknodes "$1" || framework_failure_ "dmsetup mknodes $1"
  dm=/dev/mapper/$1
  test -b "$dm" || framework_failure_ "$dm is not a block device"
}
dm_reload_ ()
{
  printf '%s\n' "$2" | dmsetup --noudevsync load "$1" \
    && dmsetup --noudevsync suspend --nolockfs "$1" \
    && dmsetup --noudevsync resume "$1" \
    || framework_failure_ "dmsetup reload $1: $2"
}

# sectors_ DEV: the size of the loop device DEV in 512-byte sectors.
sectors_ () { cat /sys/class/block/"${1##*/}"/size; }

# mkfs_mount_ FS DEV MNT [MKFS OPTION]...: make a FS (ext4 or btrfs) on
# DEV and mount it on a fresh folder MNT.
mkfs_mount_ ()
{
  fs_=$1 dev_=$2 mnt_=$3
  shift 3
  case $fs_ in
    ext4) mke2fs -q -F -t ext4 -b 4096 "$@" "$dev_" ;;
    btrfs) mkfs.btrfs -q -f "$@" "$dev_" ;;
    *) framework_failure_ "mkfs_mount_: unknown filesystem $fs_" ;;
  esac || framework_failure_ "mkfs $fs_ on $dev_"
  mkdir -p "$mnt_" && mount -t "$fs_" "$dev_" "$mnt_" \
    || framework_failure_ "mount $dev_ on $mnt_"
  faults_mnts_="$mnt_ $faults_mnts_"
}

# small_fs_ FS SIZE MNT [MKFS OPTION]...: a FS of SIZE on a loop device,
# mounted on MNT; sets loop.
small_fs_ ()
{
  loop_dev_ "$2"
  fs_=$1 mnt_=$3
  shift 3
  mkfs_mount_ $fs_ "$loop" "$mnt_" "$@"
}

# fs_sync_ MNT: write everything back and, on btrfs, commit, so that the
# space of removed files is free again.
fs_sync_ ()
{
  sync
  case $(stat -f -c %T "$1") in
    btrfs) btrfs filesystem sync "$1" > /dev/null ;;
  esac
}

# avail_ MNT: bytes df says are available on MNT.
avail_ () { $gnu_df -B1 --output=avail "$1" | tail -n 1 | tr -d ' '; }

# drop_caches_: drop clean page cache, so that reads go to the device.
drop_caches_ ()
{
  sync && echo 3 > /proc/sys/vm/drop_caches \
    || framework_failure_ "cannot drop caches"
}

# random_file_ FILE BYTES: FILE holds BYTES fresh random bytes, written in
# place (no larger temporary), so that it fits a nearly full filesystem.
random_file_ ()
{
  head -c "$2" /dev/urandom > "$1" && test "$(stat -c %s "$1")" = "$2" \
    || framework_failure_ "cannot write $2 random bytes to $1"
}

# crf_result_ FILE: "BYTES CALLS" from copy-range-file's report in FILE.
crf_result_ ()
{
  sed -n 's/.*copied \([0-9]*\) of [0-9]* bytes in \([0-9]*\) calls.*/\1 \2/p' \
    "$1" | tail -n 1
}

# prefix_ok_ SRC DST N: whether DST has at least N bytes, and its first N
# are those of SRC.
prefix_ok_ ()
{
  test "$(stat -c %s "$2")" -ge "$3" || {
    echo "$2 has $(stat -c %s "$2") bytes, fewer than $3"
    return 1
  }
  $gnu_cmp -n "$3" "$1" "$2"
}

# cp_vs_cpr_ SETUP SRC DST: run GNU cp (/bin/cp) and then cpr with SRC
# DST, each after running the shell command SETUP (which must recreate the
# same situation: remove DST, free its space, ...).  Each must exit with 1,
# their diagnostics must be the same text but for the program's name, and
# what each left in DST must be a prefix of SRC.  Sets fail on a
# mismatch; leaves the messages in err.cp and err.cpr.
cp_vs_cpr_ ()
{
  for prog_ in /bin/cp cpr; do
    b_=${prog_##*/}
    eval "$1"
    "$prog_" "$2" "$3" > out.$b_ 2> err.tmp
    st_=$?
    sed -e 's|^/bin/cp: |cp: |' -e 's|^cpr: |cp: |' err.tmp > err.$b_
    echo "$b_ $2 $3: status $st_: $(cat err.tmp)"
    test $st_ = 1 || { echo "FAIL: $b_ exited with $st_, not 1"; fail=1; }
    if test -e "$3"; then
      n_=$(stat -c %s "$3")
      prefix_ok_ "$2" "$3" $n_ \
        || { echo "FAIL: $b_ left $3 ($n_ bytes) that is not a prefix of $2"; fail=1; }
    fi
  done
  compare err.cp err.cpr \
    || { echo "FAIL: cpr's diagnostic differs from GNU cp's"; fail=1; }
  test -s err.cpr || { echo "FAIL: cpr said nothing"; fail=1; }
}
