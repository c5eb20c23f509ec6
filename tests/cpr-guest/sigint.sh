#!/bin/sh
# In the guest: SIGINT in the middle of a multi-GiB copy (the kernel's copy
# through the page cache on ext4, slow in the guest) stops cpr promptly,
# and cpr dies of the signal, as GNU cp does.

# Copyright (C) 2026 The copyrange authors.  GPL-3.0-or-later.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0
test -n "$COPYRANGE_GUEST" || skip_ "needs the patched kernel in the guest"

d=$(mktemp -d "${CR_MNT_EXT4?}/cpr-sigint.XXXXXX") || framework_failure_
cleanup_ () { rm -rf "$d"; }
# Allocated, not sparse-looking: one plain copy of 2 GiB.
fallocate -l 2G "$d/big" || framework_failure_

# interrupt_ PROG: run PROG big copy, SIGINT after 0.5 s; print its status
# and the milliseconds it took.
interrupt_ ()
{
  rm -f "$d/copy"
  start=$(date +%s%N)
  # Whatever the harness ignores, SIGINT has its default action here.
  /usr/bin/timeout --preserve-status -s INT 0.5 \
    /usr/bin/env --default-signal=INT "$@" "$d/big" "$d/copy"
  status=$?
  end=$(date +%s%N)
  echo "$status $(( (end - start) / 1000000 ))"
}

set -- $(interrupt_ /bin/cp) || framework_failure_
gnu_status=$1 gnu_ms=$2
test "$gnu_status" = 0 && skip_ "GNU cp copied 2 GiB in ${gnu_ms}ms: too fast to interrupt"

set -- $(interrupt_ cpr) || framework_failure_
echo "cp: status $gnu_status in ${gnu_ms}ms; cpr: status $1 in $2 ms"
test "$1" = "$gnu_status" || fail=1
test "$1" = $((128 + 2)) || fail=1
# Promptly: within 2.5 s of the signal, with the copy left partial.
test "$2" -lt 3000 || fail=1
test "$(stat -c %s "$d/copy")" -lt $((2 * 1024 * 1024 * 1024)) || fail=1

Exit $fail
