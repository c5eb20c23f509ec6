#!/bin/sh
# The copy_range(2) ABI, one row per rule, on each scratch filesystem.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/kernel
. "$abs_srcdir/tests/kernel/each-fs.sh"
fail=0

run_on_each_fs_ cr-abi

Exit $fail
