#!/bin/sh
# On NFSv4.2, a copy_range within one file grows it in the client's page
# cache; a copy from that file to another, which the server does, must
# still see the grown file: the client writes it back first.  On the
# mounts of the btrfs and the ext4 export.

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

run_on_each_fs_ cr-same-file nfs-btrfs nfs-ext4

Exit $fail
