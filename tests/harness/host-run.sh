#!/bin/sh
# tests/host-run, under which every host test runs: a test that runs past
# its time limit is killed, with the processes it started, and fails by
# name, its processes listed in its log first; HOST_TEST_LIMITS can give
# a test longer; a test that ends in time keeps its exit status.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"
fail=0
host_run=$abs_top_srcdir/tests/host-run

# A test that hangs, with a child that would hang on after it.
cat > hang.sh <<'EOF' || framework_failure_
echo "hanging on purpose"
sleep 100000 &
echo $! > sleep.pid
wait
EOF
returns_ 1 env CR_HOST_TEST_TIMEOUT=3 CR_HOST_TEST_LIMITS= \
  "$host_run" sh ./hang.sh > out-hang 2>&1 || { cat out-hang; fail=1; }
cat out-hang
grep '^host-run: FAIL: hang.sh: timed out after 3s' out-hang || fail=1
grep '^host-run: hang.sh: still running after 2s; its processes:' out-hang \
  || fail=1
grep ' sleep 100000$' out-hang > /dev/null || fail=1
# The child is gone (or a zombie) soon after.
read pid < sleep.pid || framework_failure_
alive_ () { st_=$(ps -o stat= -p $1) && case $st_ in Z*) false ;; esac; }
for i in 1 2 3 4 5 6 7 8 9 10; do alive_ $pid || break; sleep .5; done
alive_ $pid && { echo "its child $pid was left running"; fail=1; }

# HOST_TEST_LIMITS gives one test more than CR_HOST_TEST_TIMEOUT.
printf 'sleep 2\necho done\n' > slow.sh || framework_failure_
env CR_HOST_TEST_TIMEOUT=1 CR_HOST_TEST_LIMITS='other.sh=1 slow.sh=5' \
  "$host_run" sh ./slow.sh > out-slow 2>&1 || { cat out-slow; fail=1; }
grep '^done$' out-slow || fail=1

# In time, the test's own status comes back: a pass, a skip, a failure.
for st in 0 77 1 99; do
  returns_ $st "$host_run" sh -c "exit $st" || fail=1
done

# A limit that is not a number of seconds is a hard error.
returns_ 99 env CR_HOST_TEST_TIMEOUT=soon "$host_run" true 2> out-bad || fail=1
grep 'CR_HOST_TEST_TIMEOUT must be a positive number' out-bad || fail=1

Exit $fail
