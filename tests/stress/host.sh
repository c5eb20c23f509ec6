#!/bin/sh
# The stress program's model and invariant on the build machine's own
# kernel, with copy_file_range(2) standing in for copy_range(2): a short
# seeded run of each kind in the test's directory.  The guest runs the
# real thing (tests/stress/stress.sh).

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

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/stress
fail=0

cr-stress -C -s 1 -n 3000 host . || fail=1
cr-stress -C -s 1 -n 3000 -p 3 host . || fail=1

Exit $fail
