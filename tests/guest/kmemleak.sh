#!/bin/sh
# After the whole guest suite has run under the debug kernel ('make
# check-debug' runs this test last), kmemleak finds no object that a
# process of the suite allocated and nothing references any more.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"
fail=0
test -n "$COPYRANGE_GUEST" || skip_ "runs only inside the QEMU guest (make check-debug boots it)"

grep -q ' /sys/kernel/debug ' /proc/mounts ||
  mount -t debugfs debugfs /sys/kernel/debug || framework_failure_
leaks=/sys/kernel/debug/kmemleak
test -w $leaks ||
  fail_ "no $leaks: 'make check-debug' boots a kernel with kmemleak (kernel/debug.config)"

# What the suite freed through RCU or deferred work must be gone before
# the scan, and kmemleak ignores objects younger than five seconds.
sync
echo 3 > /proc/sys/vm/drop_caches
sleep 6
# Two scans: an object only the first one misses a reference to (a
# pointer in flight between two lists) is found by the second.
echo scan > $leaks && echo scan > $leaks || framework_failure_
cat $leaks > all-leaks || framework_failure_

# Objects the boot itself left (comm "swapper/N", before any test ran)
# are not the suite's: counted apart, and listed only in all-leaks.
awk 'function done_() {
       if (obj == "") return
       if (obj ~ /comm "swapper/) boot++
       else { suite++; if (suite <= 5) print obj > "suite-leaks" }
       obj = ""
     }
     /^unreferenced object/ { done_(); obj = $0; next }
     obj != "" { obj = obj "\n" $0 }
     END { done_(); printf "%d %d\n", boot, suite }' all-leaks > counts ||
  framework_failure_
read boot suite < counts
echo "kmemleak: $suite objects leaked by the suite, $boot left by the boot"
if test "$suite" != 0; then
  echo "the first ones (all of them in all-leaks):"
  cat suite-leaks
  fail=1
fi

Exit $fail
