#!/bin/sh
# A 32-bit program (static, through the ia32 entry) copies more than
# 2 GiB with copy_range(2): no call returns a count its ssize_t cannot
# hold.  On btrfs (the offload: clones) and tmpfs (the page cache), where
# a copy that big is quick.

# Copyright (C) 2026 The copyrange authors.
#
# This program is free software: you can redistribute it and/or modify
# it under the terms of the GNU General Public License as published by
# the Free Software Foundation, either version 3 of the License, or
# (at your option) any later version.
#
# This program is distributed in the hope that it will be useful,
# but WITHOUT ANY WARRANTY; without even the implied warranty of
# MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
# GNU General Public License for more details.
#
# You should have received a copy of the GNU General Public License
# along with this program.  If not, see <https://www.gnu.org/licenses/>.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/kernel
. "$abs_srcdir/tests/kernel/each-fs.sh"

# tests/local.mk writes a stand-in that fails when $CC cannot link a
# static 32-bit program: the host lacks gcc-multilib, which ./setup
# installs.  That is a set-up error, not a reason to skip.
run_on_each_fs_ cr-compat32 btrfs tmpfs

Exit $fail
