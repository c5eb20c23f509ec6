#!/bin/sh
# A signal that comes before copy_range(2) has copied anything does not
# make it fail unless a handler without SA_RESTART runs: stopped and
# continued, or with an SA_RESTART handler, the call is restarted.  On
# the page-cache filesystems, where a call makes the most steps.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/kernel
. "$abs_srcdir/tests/kernel/each-fs.sh"

run_on_each_fs_ cr-restart ext4 tmpfs

Exit $fail
