#!/bin/sh
# The core's table of copy_range rules (tests/kernel/cr-abi), run on the
# NFSv4.2 mount, where the copy goes to the server as COPY.  Rows that
# NFS semantics rule out are listed below with the reason; any other row
# that fails, fails this test.

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

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/offload-lib.sh"
require_mnt_ CR_MNT_NFS
abi=${abs_top_builddir-$PWD/..}/tests/kernel/cr-abi
test -x "$abi" || framework_failure_ "$abi not built"

# ROW NAME<TAB>why NFS cannot follow it.
printf '%s\t%s\n' > exceptions \
  'immutable destination is EPERM' \
    'NFS has no inode flags: FS_IOC_SETFLAGS is ENOTTY' \
  'append-only destination is EPERM' \
    'NFS has no inode flags: FS_IOC_SETFLAGS is ENOTTY' \
  'active swap file is ETXTBSY' \
    'no swap over NFS in the guest kernel (CONFIG_NFS_SWAP is off)' \
  'suid and sgid cleared as by write' \
    'the server decides; for root it keeps them, and write(2) keeps them too'

"$abi" nfs "$CR_MNT_NFS" > out 2> err
echo "cr-abi exited with status $?"
cat out err
while IFS= read -r line; do
  case $line in
    FAIL:*) ;;
    *) continue ;;
  esac
  row=${line#FAIL: nfs: }
  row=${row%%: *}
  why=$(awk -F '\t' -v r="$row" '$1 == r { print $2 }' exceptions)
  if test -n "$why"; then
    echo "expected on NFS: $row ($why)"
  else
    echo "unexpected failure on NFS: $row"
    fail=1
  fi
done < out
grep -q '^PASS: nfs:' out || fail_ "no row passed"

Exit $fail
