#!/bin/sh
# On a kernel without copy_range (a stock kernel; on Linux 6.5 and later
# its number is cachestat's), cpr probes once per process, takes the
# probe's answer without a side effect, and copies with copy_file_range.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0
kernel_has_copy_range_ && skip_ "the running kernel has copy_range"

head -c 3000001 /dev/urandom > a || framework_failure_
head -c 70000 /dev/urandom > b || framework_failure_
cp a a.orig || framework_failure_
mkdir d || framework_failure_
# What a write to the source would change: its data (compared with
# a.orig), and its modification and status change times.  Not its access
# time: copying reads it, and so does cmp under relatime.
changed=$(stat -c "%y %z" a) || framework_failure_

with_shim_ CPR_SHIM_LOG=log cpr --debug a b d > out || fail=1
cmp a d/a || fail=1
cmp b d/b || fail=1

# One probe for the process however many files, refused, and the source
# left as it was.
test "$(grep -c '^copy_range ' log)" = 1 || { cat log; fail=1; }
grep '^copy_range [0-9]* - 0 -1 [1-9][0-9]*$' log || { cat log; fail=1; }
cmp a a.orig || fail=1
test "$(stat -c "%y %z" a)" = "$changed" || fail=1

# Both files moved by copy_file_range alone.
test "$(grep -c 'method: copy_file_range$' out)" = 2 || { cat out; fail=1; }
grep -q '^copy offload: yes, ' out || fail=1

# The same through the copy_range wrapper directly: ENOSYS, nothing moved;
# neither a closed nor an O_PATH descriptor (for which cachestat fails
# with EBADF, as copy_range does) settles the probe.
path_prepend_ ./tests/cpr-data
COPY_RANGE_TEST_PATH=1 copy-range-test a c 3000001 > wrapper || fail=1
cat > exp <<'EOT'
closed: -1 EBADF 0 0
path: -1 EBADF 0 0
copy: -1 ENOSYS 0 0
EOT
compare exp wrapper || fail=1
test -s c && fail=1

Exit $fail
