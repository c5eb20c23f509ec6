#!/bin/sh
# A signal interrupts a 256 MiB copy_range(2) with partial progress; the
# resumed loop gives an identical file.  On each scratch filesystem, and
# on the NFSv4.1 mount, where the step goes through the NFS client's
# ->copy_file_range, which copies through the page cache itself: the
# step must be bounded there too, or one call copies everything.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/kernel
. "$abs_srcdir/tests/kernel/each-fs.sh"
fail=0

run_on_each_fs_ cr-interrupt ext4 xfs tmpfs btrfs nfs41

Exit $fail
