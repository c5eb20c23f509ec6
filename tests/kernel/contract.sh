#!/bin/sh
# copy_range(2) against the cases LTP's copy_file_range01-02 and
# xfstests' copy_range group check for copy_file_range(2): every length
# and offset pair at both ends, overwrite and extend, a source beyond
# 8 TiB, the maximum file size, and a block device at either end.  On
# each scratch filesystem and NFS mount.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/kernel
. "$abs_srcdir/tests/kernel/each-fs.sh"

# A loop device of its own, so that a write to it would harm nothing
# and would show.
loop=
cleanup_ () { test -z "$loop" || losetup -d "$loop"; }
dd if=/dev/urandom of=bdev.img bs=64k count=4 status=none \
  || framework_failure_ "cannot make bdev.img"
loop=$(losetup -f --show bdev.img) || framework_failure_ "losetup"
CR_BLOCK_DEV=$loop
export CR_BLOCK_DEV

fail=0
run_on_each_fs_ cr-contract ext4 xfs tmpfs btrfs nfs-btrfs nfs-ext4 nfs41

Exit $fail
