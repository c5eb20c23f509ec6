#!/bin/sh
# /proc and /sys files claim sizes that are not their contents' (0, or a
# page): cpr copies what reading them gives, as GNU cp does.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0
require_gnu_cp_

n=0
for f in /proc/version /proc/sys/kernel/ostype /proc/sys/kernel/osrelease \
         /sys/kernel/mm/transparent_hugepage/enabled /sys/power/state \
         /sys/kernel/profiling; do
  test -r $f || continue
  "$CR_REF" $f gnu || framework_failure_
  test -s gnu || continue
  n=$((n + 1))
  cpr --debug $f ours > out || fail=1
  compare gnu ours || fail=1
  grep -q 'method: read/write$' out || { cat out; fail=1; }
done
test $n -ge 2 || skip_ "too few readable /proc and /sys files"

Exit $fail
