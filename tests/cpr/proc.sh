#!/bin/sh
# Files whose size does not tell their length: procfs files that claim to
# be empty, sysfs files that claim a page, and procfs files that cannot be
# read.  The copies must hold what reading the file gives, as GNU cp's do.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

test -r /proc/version || skip_ "no /proc"

setup_tree ()
{
  mkdir d
}

# Each of these reads the same for both programs: /proc/self is the copying
# process, invoked under the same name with the same arguments.  Every one
# is compared: where one cannot be read, the test says which and skips.
files='/proc/version /proc/sys/kernel/osrelease /proc/sys/kernel/ostype
  /proc/self/cmdline /proc/self/comm /proc/self/limits
  /sys/devices/system/cpu/online /sys/devices/system/cpu/possible
  /sys/kernel/mm/transparent_hugepage/enabled'
for f in $files; do
  test -r $f || skip_ "$f is not readable here"
done
for f in $files; do
  # --jobs=N (CR_CPR_JOBS) is in cpr's command line, not in GNU cp's.
  test $f = /proc/self/cmdline && test -n "${CR_CPR_JOBS-}" && continue
  cpr_case $f new
  cpr_case -p $f new
  cpr_case --sparse=always $f new
  cpr_case --reflink=never $f new
  cpr_case $f d
done
cpr_case /proc/version /proc/sys/kernel/osrelease d
cpr_case /proc/self/mem new
cpr_case -r /proc/self/mem /proc/version d
cpr_case /proc/nonexistent new

Exit $fail
