#!/bin/sh
# The cp -u trap, side by side: a copy killed in the middle (SIGKILL, from
# the data mover's shim, which serves GNU cp's data calls as well as
# cpr's) leaves a truncated destination newer than its source.  A later
# 'cp -u' (or 'cp -au') takes it for up to date and skips it, run after
# run: GNU cp keeps the truncated file.  cpr marked it as partial, so
# 'cpr -u' copies it again, whole.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0

require_gnu_cp_
command -v setfattr > /dev/null || skip_ "setfattr (attr) is needed"
: > probe && setfattr -n user.probe -v 1 probe 2> /dev/null \
  || skip_ "the test directory's file system has no user xattrs"

size=3145729
head -c $size /dev/urandom > src || framework_failure_
touch -m -d '2020-01-02 03:04:05.123456789' src || framework_failure_

# Whichever call moves bytes from 1 MiB on kills the copy.
at=1048576
kill=copy_range:$at:KILL,copy_file_range:$at:KILL,read:$at:KILL

for opt in "" " -a"; do
  for impl in ref cpr; do
    if test $impl = ref; then prog=$CR_REF; else prog=cpr; fi
    dst=dst${opt# }.$impl
    with_shim_ CPR_SHIM_COPY_RANGE=$emulate_ CPR_SHIM_FAIL=$kill \
      $prog $opt src $dst
    rc=$?
    test $rc = 137 || { echo "$prog $opt: status $rc, not killed"; fail=1; }
    test $(stat -c %s $dst) = $at && test $dst -nt src \
      || framework_failure_ "$prog $opt left no truncated, newer $dst"
    # Twice: a script run again does no better.
    $prog -u $opt src $dst && $prog -u $opt src $dst || fail=1
    if cmp -s src $dst; then state=whole; else state=truncated; fi
    echo "$prog$opt, killed, then twice $prog -u$opt: $dst is $state" \
         "($(stat -c %s $dst) of $size bytes)"
    eval state_$impl=$state
  done
  # GNU cp falls into the trap (were it not, the case would show nothing);
  # cpr does not.
  test $state_ref = truncated \
    || echo "note: $CR_REF -u $opt copied the file again"
  test $state_cpr = whole || fail=1
  test -z "$(getfattr -n user.cpr.partial dst${opt# }.cpr 2> /dev/null)" || fail=1
done

Exit $fail
