#!/bin/sh
# Not part of the suite: tests/vm/debug-reports.sh runs it as the guest's
# command under the debug kernel (kernel/debug.config), where the kernel's
# test module lkdtm can provoke the reports of the checkers the plain
# kernel lacks.
#
#   untainted: only a UBSAN report (an array index out of bounds), which
#     does not taint the kernel: the run must fail on the report alone.
#   tainting: KASAN (a write past a slab object), then a general
#     protection fault (lkdtm's NULL pointer write, which in the debug
#     kernel faults as "general protection fault, maybe for address ...").
#
# lockdep is not among them: lkdtm's one lock test, SPINLOCKUP, returns
# to user space holding a spinlock, and whether lockdep reports it first
# or "scheduling while atomic" comes first and it never does varied from
# boot to boot (2026-12-07: one of two).

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

# $lkdtm and wait_for ERE, whose messages start with this name.
me=debug-reports-fixture
. "$(dirname "$0")/lkdtm-lib.sh"

# provoke WHAT ERE: have lkdtm do WHAT in a process of its own, which an
# oops may kill, then wait (60 s at most) for a kernel log line matching
# ERE, and show it.
provoke ()
{
  sh -c "echo $1 > $lkdtm"
  wait_for "$2" "after $1" || return 1
  echo "$me: $1: $(dmesg | grep -E -m 1 "$2")"
}

case $1 in
  untainted)
    provoke ARRAY_BOUNDS 'UBSAN: array-index-out-of-bounds' || exit 1
    echo "debug-reports-fixture: tainted $(cat /proc/sys/kernel/tainted)" ;;
  tainting)
    provoke SLAB_LINEAR_OVERFLOW 'BUG: KASAN: slab-out-of-bounds' || exit 1
    provoke EXCEPTION 'general protection fault' || exit 1 ;;
  *) echo "usage: $0 untainted|tainting"; exit 2 ;;
esac
exit 0
