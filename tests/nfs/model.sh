#!/bin/sh
# A seeded random sequence of copy_range(2), pwrite and ftruncate calls
# on two files, checked after every call against a model in memory, on
# every NFS mount and, being cheap there, on the ext4 and tmpfs scratch
# filesystems.  CR_SEED and CR_OPS change the seed and the length of the
# sequence; a failure prints both and the operations that led to it.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/nfs
. "$abs_srcdir/tests/kernel/each-fs.sh"

run_on_each_fs_ cr-model nfs-btrfs nfs-ext4 nfs41 ext4 tmpfs

Exit $fail
