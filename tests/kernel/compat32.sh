#!/bin/sh
# A 32-bit program (static, through the ia32 entry) copies more than
# 2 GiB with copy_range(2): no call returns a count its ssize_t cannot
# hold.  On btrfs (the offload: clones) and tmpfs (the page cache), where
# a copy that big is quick.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/kernel
. "$abs_srcdir/tests/kernel/each-fs.sh"

# tests/local.mk writes a stand-in that fails when $CC cannot link a
# static 32-bit program: the host lacks gcc-multilib, which ./setup
# installs.  That is a set-up error, not a reason to skip.
run_on_each_fs_ cr-compat32 btrfs tmpfs

Exit $fail
