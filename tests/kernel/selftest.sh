#!/bin/sh
# The kernel's own copy_range selftest (tools/testing/selftests/copy_range,
# added by the kernel series), run in the guest from the build tree and
# from each scratch filesystem and NFS mount, where its cases on files in
# the current directory take that filesystem's offload.  Its TAP output
# is kept in this test's log.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/kernel
. "$abs_srcdir/tests/kernel/each-fs.sh"
fail=0

sel=$abs_top_builddir/tests/kernel/copy_range_test
test -x "$sel" || framework_failure_ "$sel was not built"

# selftest_in_ FSNAME DIR: run the kselftest from a fresh folder in DIR,
# so that its cases on files in the current directory copy on that
# filesystem (a clone, a server-side copy); 77 if it skipped.
selftest_in_ ()
{
  d_=$(mktemp -d "$2/cr-selftest.XXXXXX") || return 99
  (cd "$d_" && "$sel") > tap-$1 2>&1
  st_=$?
  rm -rf "$d_"
  cat tap-$1
  # The one timing-dependent case, signal_stops_copy_with_progress,
  # needs a 100 us timer to land inside a copy; on the NFS mount of
  # btrfs a whole copy can be one CLONE, so now and then every signal
  # lands between calls (2026-12-06 CI: "11 calls, 0 stopped early, 66
  # signals").  If it is the only failure, it runs once more, in the
  # log; a second failure fails the test.
  if test "$(grep -c '^not ok ' tap-$1)" = 1 &&
     grep '^not ok [0-9]* cr\.signal_stops_copy_with_progress$' tap-$1 \
       > /dev/null; then
    echo "# $1: signal_stops_copy_with_progress failed once: run again"
    d_=$(mktemp -d "$2/cr-selftest.XXXXXX") || return 99
    (cd "$d_" && "$sel") > tap-$1 2>&1
    st_=$?
    rm -rf "$d_"
    cat tap-$1
  fi
  grep '^not ok ' tap-$1 > /dev/null && return 1
  grep '^ok ' tap-$1 > /dev/null || return 1
  case $st_ in
    0) return 0 ;;
    4) return 77 ;;
    *) return 1 ;;
  esac
}

# The build tree first (the guest's shared folder), then every scratch
# filesystem and NFS mount.
selftest_in_ build . || fail=1
run_on_each_fs_ selftest_in_ ext4 xfs tmpfs btrfs nfs-btrfs nfs-ext4 nfs41

Exit $fail
