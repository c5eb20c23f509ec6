#!/bin/sh
# The guest runs the patched kernel this tree's series built.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
fail=0
test -n "$COPYRANGE_GUEST" || skip_ "runs only inside the QEMU guest (make check boots it)"

release=$(uname -r) || fail=1
echo "guest kernel: $release"
case $release in
  6.1.*-copyrange|6.1.*-copyrange+|6.1.*-copyrange-debug) ;;
  *) fail_ "expected a 6.1 kernel with the -copyrange local version, got $release" ;;
esac

# Exactly one virtual machine's worth of devices: the three scratch disks.
for d in vda vdb vdc; do
  test -b /dev/$d || { echo "missing scratch disk /dev/$d"; fail=1; }
done

Exit $fail
