#!/bin/sh
# copy_range(2) with NULL offsets: threads sharing the descriptors copy
# every byte once and the positions add up; one open file at both ends
# (a dup) does not deadlock.  On the page-cache scratch filesystems, where
# each call is slowest and a race most likely.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/kernel
. "$abs_srcdir/tests/kernel/each-fs.sh"

run_on_each_fs_ cr-fpos ext4 tmpfs

Exit $fail
