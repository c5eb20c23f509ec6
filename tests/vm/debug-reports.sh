#!/bin/sh
# Under the debug kernel, the reports of its checkers fail a run for real:
# lkdtm provokes a UBSAN report, a KASAN report and a general protection
# fault, and vm/run names each class.  A UBSAN report
# does not taint the kernel: in a boot of its own, the run fails on the
# report alone, with the kernel untainted.  Two boots of the debug kernel
# (building it first if needed): 'make check-debug-reports' runs it; it
# is not part of 'make check', whose tests/vm/harness.sh writes these
# classes' first lines instead (the plain kernel has none of the checkers;
# lockdep's stays written: tests/vm/debug-reports-fixture.sh says why).

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
fail=0
test -n "$COPYRANGE_GUEST" && skip_ "boots a guest: runs only on the host"
command -v ${QEMU:-qemu-system-x86_64} >/dev/null || skip_ "QEMU not installed"

run="$abs_top_srcdir/vm/run --kernel debug --builddir $PWD --srcdir $abs_top_srcdir --out $PWD/out --bare --timeout 900"
fixture=$abs_top_srcdir/tests/vm/debug-reports-fixture.sh

# classes_ OUT: the classes vm/run named in OUT, one line.
classes_ () { sed -n 's/^vm\/run: FAIL: kernel reports in [^ ]*: //p' "$1"; }

# UBSAN alone, untainted: the report is what fails the run.
returns_ 1 $run -- sh "$fixture" untainted > out-untainted 2>&1 \
  || { cat out-untainted; fail=1; }
grep '^debug-reports-fixture: ARRAY_BOUNDS: .*UBSAN: array-index-out-of-bounds' \
  out-untainted || fail=1
test "$(cat out/tainted)" = 0 || { echo "tainted: $(cat out/tainted)"; fail=1; }
c=$(classes_ out-untainted)
echo "reported alone: $c"
test "$c" = UBSAN || fail=1

# KASAN and a general protection fault, each provoked.
returns_ 1 $run -- sh "$fixture" tainting > out-tainting 2>&1 \
  || { cat out-tainting; fail=1; }
grep 'debug-reports-fixture: no ' out-tainting && fail=1
c=$(classes_ out-tainting)
echo "reported: $c"
# A general protection fault says so, not "Oops".
for want in KASAN general-protection taint; do
  case " $c " in
    *" $want "*) ;;
    *) echo "vm/run did not report $want"; fail=1 ;;
  esac
done

Exit $fail
