#!/bin/sh
# fsfreeze during a long copy_range(2) through the page cache returns
# within seconds, while the copy is still running, and the copy finishes
# after the thaw with no call failing.  On ext4.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/kernel
. "$abs_srcdir/tests/kernel/each-fs.sh"

run_on_each_fs_ cr-freeze ext4

Exit $fail
