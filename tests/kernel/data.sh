#!/bin/sh
# copy_range(2) copies the right bytes: edge sizes and offsets, gaps past
# the destination's end and across 1 GiB, 2 GiB and the end of a 2 GiB
# sparse file, on each scratch filesystem.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/kernel
. "$abs_srcdir/tests/kernel/each-fs.sh"
fail=0

run_on_each_fs_ cr-data

Exit $fail
