#!/bin/sh
# A seeded random sequence of copy_range(2), pwrite and ftruncate calls
# on two files, checked after every call against a model in memory, on
# every NFS mount and, being cheap there, on the ext4 and tmpfs scratch
# filesystems.  CR_SEED and CR_OPS change the seed and the length of the
# sequence; a failure prints both and the operations that led to it.

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

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/nfs
. "$abs_srcdir/tests/kernel/each-fs.sh"

run_on_each_fs_ cr-model nfs-btrfs nfs-ext4 nfs41 ext4 tmpfs

Exit $fail
