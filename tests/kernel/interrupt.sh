#!/bin/sh
# A signal interrupts a 256 MiB copy_range(2) with partial progress; the
# resumed loop gives an identical file.  On each scratch filesystem, and
# on the NFSv4.1 mount, where the step goes through the NFS client's
# ->copy_file_range, which copies through the page cache itself: the
# step must be bounded there too, or one call copies everything.

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
fail=0

run_on_each_fs_ cr-interrupt ext4 xfs tmpfs btrfs nfs41

Exit $fail
