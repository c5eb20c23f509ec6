#!/bin/sh
# The kernel NFS server exports the btrfs and ext4 scratch filesystems and
# the kernel client mounts them over loopback with NFSv4.2 (and 4.1);
# a file written through a mount reads back identical on the server side.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
fail=0
test -n "$COPYRANGE_GUEST" || skip_ "runs only inside the QEMU guest (make check boots it)"

mount_opts() { awk -v m="$1" '$2 == m && $3 == "nfs4" {print $4}' /proc/mounts; }

check_mount() {
  # check_mount MOUNTPOINT VERSION SERVER_DIR
  opts=$(mount_opts "$1")
  case ,$opts, in
    *,vers=$2,*) ;;
    *) echo "$1: not an NFSv$2 mount: '$opts'"; fail=1; return ;;
  esac
  head -c 3000001 /dev/urandom > data.$$ || framework_failure_
  cp data.$$ "$1/nfs-loopback.$$" || { fail=1; return; }
  sync
  compare data.$$ "$3/nfs-loopback.$$" || fail=1
  # And the other way round, past the client's cache.
  head -c 65537 /dev/urandom > "$3/server.$$" || framework_failure_
  echo 3 > /proc/sys/vm/drop_caches
  compare "$3/server.$$" "$1/server.$$" || fail=1
  rm -f "$1/nfs-loopback.$$" "$1/server.$$" data.$$
}

check_mount "$CR_MNT_NFS" 4.2 "$CR_NFS_EXPORT_BTRFS"
check_mount "$CR_MNT_NFS_EXT4" 4.2 "$CR_NFS_EXPORT_EXT4"
check_mount "$CR_MNT_NFS41" 4.1 "$CR_NFS_EXPORT_BTRFS"

# The traffic went over the wire: the client counted WRITE operations.
grep -q 'WRITE:' /proc/self/mountstats || { echo "no NFS op statistics"; fail=1; }

Exit $fail
