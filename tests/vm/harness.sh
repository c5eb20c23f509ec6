#!/bin/sh
# vm/run passes only when the guest says so: a failing command, a kernel
# WARNING in the guest and a hung guest each fail the run; a passing
# command passes and its status comes back.

# Copyright (C) 2026 The copyrange authors.  GPL-3.0-or-later.

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
fail=0
test -n "$COPYRANGE_GUEST" && skip_ "boots a guest: runs only on the host"
test -n "$CR_SKIP_GUEST" && skip_ "guest boots disabled (CR_SKIP_GUEST)"
command -v ${QEMU:-qemu-system-x86_64} >/dev/null || skip_ "QEMU not installed"

run="$abs_top_srcdir/vm/run --builddir $PWD --srcdir $abs_top_srcdir --out $PWD/out --bare"

# A failing test in the guest's Automake harness fails the run.
returns_ 2 $run --builddir "$abs_top_builddir" -- \
  make check-TESTS TESTS=tests/vm/failing-fixture.sh \
    check_PROGRAMS= check_SCRIPTS= bin_PROGRAMS= \
    AM_COLOR_TESTS=no TEST_SUITE_LOG=tests/vm/failing-fixture-suite.log > out-fixture 2>&1 \
  || { cat out-fixture; fail=1; }
grep 'FAIL: tests/vm/failing-fixture.sh' out-fixture || { cat out-fixture; fail=1; }
rm -f "$abs_top_builddir"/tests/vm/failing-fixture*.log \
  "$abs_top_builddir"/tests/vm/failing-fixture.trs

# A command's exit status comes back from the guest.
$run -- sh -c 'exit 0' > out-ok 2>&1 || { cat out-ok; fail=1; }
returns_ 3 $run -- sh -c 'exit 3' > out-3 2>&1 || { cat out-3; fail=1; }

# A kernel warning fails the run although the command passed.
returns_ 1 $run -- sh -c 'echo "WARNING: CPU: 0 PID: 1 at injected by tests/vm/harness.sh" > /dev/kmsg' \
  > out-warn 2>&1 || { cat out-warn; fail=1; }
grep 'kernel report' out-warn || fail=1

# A guest that never finishes fails within the timeout.
returns_ 1 $run --timeout 15 -- sleep 100000 > out-hang 2>&1 || { cat out-hang; fail=1; }
grep 'timed out' out-hang || fail=1

Exit $fail
