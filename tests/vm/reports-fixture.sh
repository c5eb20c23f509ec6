#!/bin/sh
# Not part of the suite: tests/vm/harness.sh runs it as the guest's
# command to show that vm/run fails on every class of kernel report.  The
# kernel's own test module lkdtm provokes what it can (a BUG(), a WARN_ON,
# a NULL pointer write, a hung task, a soft lockup and with it an RCU
# stall); the classes no option of this kernel can produce (KASAN, UBSAN,
# lockdep, a general protection fault, a hard lockup) are written to the
# kernel log as the lines their reports start with (tests/vm/debug-
# reports.sh provokes the first four under the debug kernel).  Leaves one CPU
# spinning and a task blocked for good: only a power-off ends this guest.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

# $lkdtm and wait_for ERE, whose messages start with this name.
me=reports-fixture
. "$(dirname "$0")/lkdtm-lib.sh"

# provoke WHAT: have lkdtm do WHAT, in a process of its own that an oops
# may kill.
provoke () { sh -c "echo $1 > $lkdtm"; }

# Short thresholds: a task blocked for 2 s, a CPU stuck for 2 s and an RCU
# grace period held up for 3 s (the least the kernel takes) get reported.
echo 2 > /proc/sys/kernel/hung_task_timeout_secs
echo 1 > /proc/sys/kernel/watchdog_thresh
echo 3 > /sys/module/rcupdate/parameters/rcu_cpu_stall_timeout

# First the hung task: after an oops (taint D) the kernel stops looking.
provoke HUNG_TASK &   # INFO: task sh:PID blocked for more than 2 seconds.
wait_for 'blocked for more than'
provoke WARNING       # WARNING: CPU: ...
provoke BUG           # kernel BUG at ..., invalid opcode: ...
provoke EXCEPTION     # BUG: kernel NULL pointer dereference, Oops: ...

for line in \
  'general protection fault, probably for non-canonical address 0xdead000000000100: 0000 [#9]' \
  'BUG: KASAN: slab-out-of-bounds in reports_fixture+0x0/0x0' \
  'UBSAN: shift-out-of-bounds in tests/vm/reports-fixture.sh:1:1' \
  'WARNING: possible circular locking dependency detected' \
  'Watchdog detected hard LOCKUP on cpu 1'
do
  echo "<4>$line (written by tests/vm/reports-fixture.sh)" > /dev/kmsg
done

# Last: a soft lockup, for good, on CPU 1.  /init (PID 1), which powers
# off, and this script keep to CPU 0, where the kernel powers off from.
taskset -p 1 1 > /dev/null && taskset -p 1 $$ > /dev/null || exit 1
echo 0 > /sys/kernel/reboot/cpu
taskset 2 sh -c "echo SOFTLOCKUP > $lkdtm" &  # watchdog: BUG: soft lockup - CPU#1 stuck
wait_for 'soft lockup'
wait_for 'rcu: INFO|self-detected stall|detected stalls on CPU'
dmesg | grep -E 'lkdtm|BUG|WARNING|Oops|blocked|stall|lockup|KASAN|UBSAN|protection'
exit 0
