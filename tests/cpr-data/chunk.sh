#!/bin/sh
# The offload chunk adapts to how long each call takes: it starts at
# 16 MiB, doubles while a full chunk takes under 50 ms and halves when it
# takes over 250 ms, within 1 MiB .. 1 GiB.  The shim makes each call seem
# to take a set time, so the sequence of lengths asked for is exact.

# Copyright (C) 2026 The copyrange authors.  GPL-3.0-or-later.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0

emulate=
kernel_has_copy_range_ || emulate=emulate
M=1048576

# lengths_ NS SIZE: copy a SIZE-byte file with calls that seem to take NS
# nanoseconds; print the lengths the calls that moved data asked for.
lengths_ ()
{
  rm -f log dst
  head -c $2 /dev/zero > src || framework_failure_
  with_shim_ CPR_SHIM_COPY_RANGE=$emulate CPR_SHIM_LOG=log \
    CPR_SHIM_CALL_NS=$1 cpr src dst || fail=1
  cmp src dst || fail=1
  tiles_ log $2 || fail=1
  awk '$1 == "copy_range" && 0 < $5 { printf "%s ", $4 / '$M' } END { print "" }' log
}

# Fast calls (1 ms): 16, 32, 64 (which gets the last 12 MiB).
echo '16 32 64 ' > exp || framework_failure_
lengths_ 1000000 $((60 * M)) > out
compare exp out || fail=1

# Slow calls (300 ms): halved down to 1 MiB, and no lower.
echo '16 8 4 2 1 1 1 ' > exp || framework_failure_
lengths_ 300000000 $((33 * M)) > out
compare exp out || fail=1

# In between (100 ms): kept.
echo '16 16 16 ' > exp || framework_failure_
lengths_ 100000000 $((40 * M)) > out
compare exp out || fail=1

Exit $fail
