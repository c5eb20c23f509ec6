#!/bin/sh
# The offload chunk adapts to how long each call takes: it starts at
# 16 MiB; after a full chunk that took under 50 ms the next is what the
# measured rate moves in 100 ms (at least twice the chunk), or 1 GiB if
# the rate is a clone's (16 MiB in 5 ms or less); a chunk that took over
# 250 ms is halved; all within 1 MiB .. 1 GiB.  On a file server the
# times are ten times as long (500 ms, a second, 2.5 s).  The shim makes
# each call seem to take a set time, and the destination seem to be on
# NFS where asked, so the sequence of lengths asked for is exact.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0

M=1048576
fstype=         # the f_type the shim reports: the real one

# lengths_ NS SIZE: copy a SIZE-byte file with calls that seem to take NS
# nanoseconds; print the lengths the calls that moved data asked for.
lengths_ ()
{
  rm -f log dst
  head -c $2 /dev/zero > src || framework_failure_
  with_shim_ CPR_SHIM_COPY_RANGE=$emulate_ CPR_SHIM_LOG=log \
    CPR_SHIM_CALL_NS=$1 CPR_SHIM_FSTYPE=$fstype cpr src dst || fail=1
  cmp src dst || fail=1
  tiles_ log $2 || fail=1
  awk '$1 == "copy_range" && 0 < $5 { printf "%s ", $4 / '$M' } END { print "" }' log
}

# expect_ 'LENGTHS' NS SIZE: the calls of lengths_ NS SIZE ask for
# LENGTHS, in MiB.
expect_ ()
{
  echo "$1 " > exp || framework_failure_
  lengths_ $2 $3 > out
  compare exp out || fail=1
}

# A clone's speed (1 ms a call): the second call asks for 1 GiB, the
# most, and gets the rest.
expect_ '16 1024' 1000000 $((60 * M))

# 5 ms a call, as a clone under strace or on a busy host: 16 MiB at that
# rate is a clone's, and the second call asks for 1 GiB (100 ms at that
# rate would be 320 MiB, and a third call).
expect_ '16 1024' 5000000 $((600 * M))

# 6 ms: a page-cache copy could be that fast: 16, then 266 (100 ms),
# then 1 GiB.
expect_ '16 266 1024' 6000000 $((600 * M))

# 10 ms a call: 16, then 160 (100 ms at that rate), then 1 GiB, which
# gets the last 24 MiB.
expect_ '16 160 1024' 10000000 $((200 * M))

# 40 ms a call: 16, 40 (100 ms at that rate), 100, 250 (the last 44).
expect_ '16 40 100 250' 40000000 $((200 * M))

# 45 ms: 35 MiB (whole MiB of the 35.6 that 100 ms moves), then 77.
expect_ '16 35 77' 45000000 $((119 * M))

# Slow calls (300 ms): halved down to 1 MiB, and no lower.
expect_ '16 8 4 2 1 1 1' 300000000 $((33 * M))

# In between (100 ms): kept.
expect_ '16 16 16' 100000000 $((40 * M))

# On NFS (statfs's f_type 0x6969), a server-side copy.
fstype=0x6969

# 120 ms a call, as a 16 MiB COPY from an ext4 export took in the guest
# (a local copy that slow keeps its 16 MiB): 16, then 133 (a second at
# that rate), then 1 GiB for the rest.
expect_ '16 133 1024' 120000000 $((256 * M))

# A clone on the server (1 ms a call) is still a clone.
expect_ '16 1024' 1000000 $((60 * M))

# In between (1 s): kept.  Over 2.5 s: halved.
expect_ '16 16 16' 1000000000 $((40 * M))
expect_ '16 8 4' 3000000000 $((28 * M))

Exit $fail
