#!/bin/sh
# cpr reads the clock to time a call that a next call follows, and to
# space the updates of a partial copy's mark once the copy has made
# progress and is not done; a file copied in one call reads it not at
# all.  Where the clock is a system call (under some hypervisors, with
# an HPET clock source) a tree of small files paid three per file.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0

# reads_ CPR-ARG...: how many times cpr CPR-ARG... reads CLOCK_MONOTONIC.
# The data calls are copy_range's, or copy_file_range's where the kernel
# has no copy_range: the mover times both alike.
reads_ ()
{
  rm -f clocks
  touch clocks || framework_failure_
  with_shim_ CPR_SHIM_CLOCK_LOG="$PWD/clocks" "$@" \
    || { echo "$* failed" >&2; fail=1; }
  wc -l < clocks
}

# A tree of small files, marked while they are copied (-a): no reads.
mkdir -p src/d || framework_failure_
for i in 1 2 3 4 5 6 7 8; do
  head -c $((i * 3000)) /dev/urandom > src/d/f$i || framework_failure_
done
n=$(reads_ cpr -a src dst)
diff -r src dst || fail=1
test "$n" = 0 || { echo "a tree of 8 small files read the clock $n times"; fail=1; }

# A file of exactly one chunk (16 MiB) needs no timing either.
head -c 16777216 /dev/zero > one || framework_failure_
n=$(reads_ cpr one one.copy)
cmp one one.copy || fail=1
test "$n" = 0 || { echo "a file of one chunk read the clock $n times"; fail=1; }

# A file of three chunks is timed: the count sees the reads there are.
head -c 41943040 /dev/zero > three || framework_failure_
n=$(reads_ cpr three three.copy)
cmp three three.copy || fail=1
test "$n" -ge 2 || { echo "a file of three chunks read the clock $n times"; fail=1; }

Exit $fail
