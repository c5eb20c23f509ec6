#!/bin/sh
# A signal that comes before copy_range(2) has copied anything does not
# make it fail unless a handler without SA_RESTART runs: stopped and
# continued, or with an SA_RESTART handler, the call is restarted.  On
# the page-cache filesystems, where a call makes the most steps.

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

run_on_each_fs_ cr-restart ext4 tmpfs

Exit $fail
