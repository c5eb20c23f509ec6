#!/bin/sh
# Not part of the suite: tests/vm/harness.sh runs it in the guest to show
# that a test in whose time the kernel reports fails by name, although it
# exits 0.  lkdtm's WARNING is a real WARN_ON, and taints the kernel (W).

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

lkdtm=/sys/kernel/debug/provoke-crash/DIRECT
grep -q ' /sys/kernel/debug ' /proc/mounts ||
  mount -t debugfs debugfs /sys/kernel/debug || exit 99
echo WARNING > $lkdtm || exit 99
echo "provoked a WARNING (tests/vm/warn-fixture.sh)"
exit 0
