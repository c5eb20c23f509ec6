#!/bin/sh
# The kernel's own copy_range selftest (tools/testing/selftests/copy_range,
# added by the kernel series), run in the guest.  Its TAP output is kept in
# this test's log.

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
fail=0

test -n "$COPYRANGE_GUEST" || skip_ 'needs the copyrange guest kernel'

# Built on the host by vm/build-kernel against the series' headers and
# copied into the build tree (tests/local.mk), which the guest shares.
sel=$abs_top_builddir/tests/kernel/copy_range_test
test -x "$sel" || framework_failure_ "$sel was not built"

"$sel" > tap 2>&1
st=$?
cat tap
grep '^ok ' tap > /dev/null || fail=1
grep '^not ok ' tap && fail=1
case $st in
  0) ;;
  4) skip_ 'the selftest skipped' ;;
  *) fail=1 ;;
esac

Exit $fail
