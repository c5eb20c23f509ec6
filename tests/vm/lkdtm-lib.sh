# lkdtm-lib.sh: the kernel's test module lkdtm, for the guest commands
# that provoke kernel reports (tests/vm/reports-fixture.sh,
# debug-reports-fixture.sh).  -*- sh -*-
# Sourced first, from the fixture's own folder, with $me set to the
# fixture's name: its messages start with it, and tests/vm/harness.sh
# and debug-reports.sh look for them.  Mounts debugfs where it is not;
# without lkdtm, exits 1.
#
# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

lkdtm=/sys/kernel/debug/provoke-crash/DIRECT
grep -q ' /sys/kernel/debug ' /proc/mounts ||
  mount -t debugfs debugfs /sys/kernel/debug || exit 1
test -w $lkdtm || { echo "$me: no $lkdtm (CONFIG_LKDTM?)"; exit 1; }

# wait_for ERE [WHEN]: until the kernel log has a line matching ERE (60 s
# at most); then, without one, say that there is none WHEN ("in 60 s"
# if not given) and fail.
wait_for ()
{
  n=0
  until dmesg | grep -Eq "$1"; do
    n=$((n + 1))
    test $n -le 120 || { echo "$me: no '$1' ${2-in 60 s}"; return 1; }
    sleep 0.5
  done
}
