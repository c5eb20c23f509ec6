#!/bin/sh
# vm/run passes only when the guest says so: a failing guest test, a guest
# test that hangs (alone, by name) or skips for an unlisted reason, each
# class of kernel report, a tainted kernel and a hung guest each fail the
# run, and a test in whose time the kernel reported fails by name; a test
# stuck for good is abandoned and the guest still reports; a passing
# command passes and its status comes back; a signal to vm/run stops its
# guest.  Five boots.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
fail=0
test -n "$COPYRANGE_GUEST" && skip_ "boots a guest: runs only on the host"
test -n "$CR_SKIP_GUEST" && skip_ "guest boots disabled (CR_SKIP_GUEST)"
command -v ${QEMU:-qemu-system-x86_64} >/dev/null || skip_ "QEMU not installed"

run="$abs_top_srcdir/vm/run --builddir $PWD --srcdir $abs_top_srcdir --out $PWD/out --bare"
guest_run="$abs_top_srcdir/tests/guest-run"

# tests/guest-run on the host first, where it costs no boot: a skip the
# list names passes as a skip, one it does not name fails, a row's skip
# counts as much as the whole test's, a hung test is cut short by name.
fixture=$abs_top_srcdir/tests/vm/skip-fixture.sh
echo "tests/vm/skip-fixture.sh a reason tests/guest-skips does not *" > listed
echo "tests/vm/skip-fixture.sh fixture: a listed row" >> listed
returns_ 77 env CR_GUEST_SKIPS=listed srcdir=$abs_top_srcdir \
  "$guest_run" sh "$fixture" > out-listed 2>&1 || { cat out-listed; fail=1; }
grep '^guest-run: expected skip: a reason' out-listed || fail=1
returns_ 1 env srcdir=$abs_top_srcdir \
  "$guest_run" sh "$fixture" > out-unlisted 2>&1 || { cat out-unlisted; fail=1; }
grep '^guest-run: FAIL: tests/vm/skip-fixture.sh: 1 skip' out-unlisted || fail=1
returns_ 1 env CR_GUEST_SKIPS=listed CR_FIXTURE_ROWS=1 srcdir=$abs_top_srcdir \
  "$guest_run" sh "$fixture" > out-rows 2>&1 || { cat out-rows; fail=1; }
grep '^guest-run: expected skip: fixture: a listed row' out-rows || fail=1
grep '^guest-run: unexpected skip: fixture: an unlisted row' out-rows || fail=1
returns_ 1 env CR_TEST_TIMEOUT=1 srcdir=$abs_top_srcdir \
  "$guest_run" sh "$abs_top_srcdir/tests/vm/hang-fixture.sh" > out-slow 2>&1 \
  || { cat out-slow; fail=1; }
grep '^guest-run: FAIL: tests/vm/hang-fixture.sh: timed out after 1s' out-slow \
  || fail=1
# Before the kill, the log shows where the test is stuck: its processes.
returns_ 1 env CR_TEST_TIMEOUT=3 srcdir=$abs_top_srcdir \
  "$guest_run" sh "$abs_top_srcdir/tests/vm/hang-fixture.sh" > out-dump 2>&1 \
  || { cat out-dump; fail=1; }
grep '^guest-run: tests/vm/hang-fixture.sh: still running after 2s' out-dump \
  && grep '^== [0-9]* (S (sleeping)) sleep 100000' out-dump \
  || { cat out-dump; fail=1; }

# vm/run stopped by a signal stops its guest, which would otherwise run
# on (timeout keeps it in a process group of its own) and hold the lock
# that a killed "make bench" took: a QEMU that sleeps, no kernel needed.
printf '%s\n' '#!/bin/sh' 'echo $$ > qemu-pid' 'exec sleep 600' > fake-qemu &&
  chmod +x fake-qemu || framework_failure_
env QEMU=$PWD/fake-qemu COPYRANGE_BZIMAGE=/dev/null $run -- true \
  > out-term 2>&1 &
vm_pid=$!
for i in $(seq 120); do test -s qemu-pid && break; sleep 1; done
test -s qemu-pid || { cat out-term; framework_failure_ "no fake QEMU"; }
kill -TERM $vm_pid
for i in $(seq 20); do kill -0 "$(cat qemu-pid)" 2> /dev/null || break; sleep 1; done
if kill -0 "$(cat qemu-pid)" 2> /dev/null; then
  echo "vm/run stopped by SIGTERM left its guest running"; fail=1
  kill -KILL "$(cat qemu-pid)"
fi
wait $vm_pid
grep '^vm/run: stopped by a signal; the guest was stopped too$' out-term ||
  { cat out-term; fail=1; }

# What a test leaves running in its session when it ends is killed, and
# the test passes: a command under a timeout of its own (in another
# process group), a loop still forking while it is killed, a chain of
# processes each of which forks the next and exits at once (faster than
# a look at /proc), and a process whose name holds a newline -- the last
# two in a process group of their own (set -m).  The guest boot below
# shows a process that SIGKILL cannot end (on a frozen filesystem),
# which only a kernel can make.
printf '%s\n' '#!/bin/sh' 'while :; do touch alive; sleep 0.1; done' > 'nl
x' && chmod +x 'nl
x' || framework_failure_
printf '%s\n' 'touch alive; sleep 0.01; sh ./hop.sh & exit 0' > hop.sh
cat > leaver.sh <<'EOF'
timeout 1000 sleep 1001 &
sleep 1002 &
i=0; while [ $i -lt 300 ]; do sleep 1003 & i=$((i + 1)); done &
set -m
sh ./hop.sh &
./'nl
x' &
exit 0
EOF
env srcdir=$abs_top_srcdir CR_HUNG_MARK="$PWD/hung-mark" CR_HUNG_GRACE=10 \
  "$guest_run" sh ./leaver.sh > out-leaver 2>&1 || { cat out-leaver; fail=1; }
sleep 1
ps -eo args | grep -E '^(timeout 1000 )?sleep 100[123]$' && fail=1
rm -f alive && sleep 1 && test -e alive && { echo "a leftover still runs"; fail=1; }
test -e hung-mark && fail=1
# The mark of an abandoned test makes the next one fail without running.
echo tests/vm/hang-fixture.sh > hung-mark
returns_ 1 env CR_HUNG_MARK="$PWD/hung-mark" srcdir=$abs_top_srcdir \
  "$guest_run" sh "$abs_top_srcdir/tests/vm/failing-fixture.sh" > out-unrun 2>&1 \
  || { cat out-unrun; fail=1; }
grep '^guest-run: FAIL: tests/vm/failing-fixture.sh: not run: tests/vm/hang-fixture.sh hung' \
  out-unrun || fail=1
grep 'failing on purpose' out-unrun && fail=1

# In the guest's Automake harness (make check-in-guest), a failing test,
# a hung one and one skipping for an unlisted reason each fail alone, by
# name; the others still run; make's status comes back.
fixtures='tests/vm/failing-fixture.sh tests/vm/hang-fixture.sh tests/vm/skip-fixture.sh'
returns_ 2 $run --builddir "$abs_top_builddir" -- \
  make check-in-guest GUEST_TESTS="$fixtures" CR_TEST_TIMEOUT=5 \
    AM_COLOR_TESTS=no GUEST_SUITE_LOG=tests/vm/fixture-suite.log > out-fixture 2>&1 \
  || { cat out-fixture; fail=1; }
for t in $fixtures; do
  grep "^FAIL: $t" out-fixture || { cat out-fixture; fail=1; }
done
grep 'hang-fixture.sh: timed out after 5s' "$abs_top_builddir"/tests/vm/hang-fixture.log \
  || fail=1
grep 'skip-fixture.sh: unexpected skip: a reason tests/guest-skips' out-fixture || fail=1
rm -f "$abs_top_builddir"/tests/vm/*-fixture.log \
  "$abs_top_builddir"/tests/vm/*-fixture.trs "$abs_top_builddir"/tests/vm/fixture-suite.log

# One boot for the per-test checks.  A test in whose time the kernel
# WARNs (lkdtm) or a filesystem reports an error (ext4's own
# trigger_fs_error) fails by name although it exits 0, and a test after
# it is not blamed.  A test stuck for good on a frozen filesystem is
# abandoned within its limit and the grace, the test after it fails
# unrun, and the guest powers off and says which test it abandoned, long
# before vm/run's timeout.
fixtures='tests/vm/warn-fixture.sh tests/vm/pass-fixture.sh
  tests/vm/fserror-fixture.sh tests/vm/frozen-fixture.sh
  tests/vm/failing-fixture.sh'
returns_ 1 $run --builddir "$abs_top_builddir" --timeout 600 -- \
  make check-in-guest GUEST_TESTS="$(echo $fixtures)" CR_TEST_TIMEOUT=5 \
    CR_HUNG_GRACE=5 AM_COLOR_TESTS=no \
    GUEST_SUITE_LOG=tests/vm/fixture-suite.log > out-pertest 2>&1 \
  || { cat out-pertest; fail=1; }
logs=$abs_top_builddir/tests/vm
grep '^FAIL: tests/vm/warn-fixture.sh' out-pertest || fail=1
grep '^guest-run: FAIL: tests/vm/warn-fixture.sh: the kernel reported while it ran: WARNING taint$' \
  "$logs"/warn-fixture.log || fail=1
grep '^PASS: tests/vm/pass-fixture.sh' out-pertest || fail=1
grep '^guest-run: FAIL: tests/vm/fserror-fixture.sh: the kernel reported while it ran: ext4-error$' \
  "$logs"/fserror-fixture.log || fail=1
grep '^vm/run: FAIL: the guest abandoned tests/vm/frozen-fixture.sh' out-pertest \
  || fail=1
grep 'frozen-fixture.sh: processes of it still there 5s after SIGKILL' \
  "$logs"/frozen-fixture.log || fail=1
grep '^== [0-9]* (D (disk sleep))' "$logs"/frozen-fixture.log || fail=1
grep 'failing-fixture.sh: not run: tests/vm/frozen-fixture.sh hung' \
  "$logs"/failing-fixture.log || fail=1
grep 'failing on purpose' "$logs"/failing-fixture.log && fail=1
# vm/run reads the whole log too, and its ring reaches back to the boot.
grep '^vm/run: FAIL: kernel reports in [^ ]*: WARNING ' out-pertest || fail=1
grep 'timed out' out-pertest && fail=1
rm -f "$logs"/*-fixture.log "$logs"/*-fixture.trs "$logs"/fixture-suite.log

# A clean run passes, untainted, and its command's status comes back.
$run -- sh -c 'exit 0' > out-ok 2>&1 || { cat out-ok; fail=1; }
test "$(cat out/tainted)" = 0 || fail=1

# Each class of kernel report fails the run although the command passed,
# and the run names it: lkdtm provokes what it can, the fixture writes the
# rest to the kernel log (tests/vm/reports-fixture.sh).
returns_ 1 $run --timeout 300 -- sh "$abs_top_srcdir/tests/vm/reports-fixture.sh" \
  > out-reports 2>&1 || { cat out-reports; fail=1; }
classes=$(sed -n 's/^vm\/run: FAIL: kernel reports in [^ ]*: //p' out-reports)
echo "reported: $classes"
for c in kernel-BUG invalid-opcode BUG WARNING Oops general-protection KASAN \
         UBSAN lockdep RCU-stall soft-lockup hard-lockup hung-task taint; do
  case " $classes " in
    *" $c "*) ;;
    *) echo "vm/run did not report $c"; fail=1 ;;
  esac
done
# The fixture's own checks passed: each lkdtm report showed in time.
grep 'reports-fixture: no' out-reports && fail=1
# The taint comes from the guest: D (oops), W (warning), L (soft lockup).
grep -E '^vm/run:   taint: .*\([A-Z]*D[A-Z]*W[A-Z]*L[A-Z]*\)$' out-reports || fail=1

# A guest that never finishes fails within the timeout.
returns_ 1 $run --timeout 15 -- sleep 100000 > out-hang 2>&1 || { cat out-hang; fail=1; }
grep 'timed out' out-hang || fail=1

Exit $fail
