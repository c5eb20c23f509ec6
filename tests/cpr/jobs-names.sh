#!/bin/sh
# cpr --jobs: a file whose copy is in flight, reached by another name,
# is copied as without --jobs.  An operand after a tree, where its
# destination, or its source, is such a file: "P/." copies P/f as T/./f,
# which is T/f; "P/d/.." as T/./f too; and a tree copied onto a mount
# point within the target makes T/srcdir/f, which the next operand
# names.  And within a tree, a destination directory that is another
# one, bind-mounted there.  (Those two have a mount below the target,
# which now makes the copy one file at a time: tests/cpr/jobs-bind.sh.)  Each copy is slowed down by the data mover's
# shim, so that the first file is still in flight when the second comes;
# each is compared with --jobs=1's: the same tree, the same -v lines and
# diagnostics, the same exit status.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

# init.sh, the shim and tree-state, in a mount namespace of the test's
# own where root can make one (CR_JOBS_NS).
. "${srcdir=.}/tests/cpr/jobs-lib.sh"

# slow_ CMD...: CMD with each data call 0.3 s long, of at most 1 MiB: a
# file of 3 MB takes about a second to copy.
slow_ ()
{
  env LD_PRELOAD="$shim_" CPR_SHIM_SLEEP_NS=300000000 CPR_CHUNK_SIZE=1048576 \
    CPR_JOBS_REPORT="$PWD/rep" "$@"
}

# run_ NAME JOBS ARG...: cpr --jobs=JOBS ARG..., T emptied first; its
# output, status and tree in NAME.JOBS.
run_ ()
{
  name_=$1 jobs_=$2; shift 2
  rm -rf T/* || framework_failure_
  slow_ cpr --jobs=$jobs_ "$@" > $name_.$jobs_ 2>&1
  echo "exit status $?" >> $name_.$jobs_
  "$tree_state" snapshot T >> $name_.$jobs_ || framework_failure_
}

# same_ NAME [serial]: --jobs=4 handed a file to a worker (or, with
# serial, none: a mount below the target makes the copy one file at a
# time), and did what --jobs=1 did.
same_ ()
{
  handed_=$(tail -n 1 rep | sed 's/.* jobs \([0-9]*\) .*/\1/')
  if test "${2-}" = serial; then
    test "$handed_" = 0 ||
      { echo "$1: $handed_ files handed to workers" >&2; fail=1; }
  else
    test "$handed_" -gt 0 ||
      { echo "$1: no file handed to a worker" >&2; fail=1; }
  fi
  compare $1.1 $1.4 || fail=1
}

mkdir -p P/d other T || framework_failure_
head -c 3000000 /dev/urandom > P/f && echo other > other/f ||
  framework_failure_
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
  : > P/g$i || framework_failure_
done

# The target on a file system of its own, where the namespace allows:
# the operand other/f is then on another file system than the target,
# which once let it be copied beside the copies in flight.
if test -n "${CR_JOBS_NS-}"; then
  mount -t tmpfs -o size=64m cr-jobs-target T || framework_failure_
fi
cleanup_ () { umount T/srcdir 2> /dev/null; umount T 2> /dev/null; }

# A directory's entries, then an operand with the name of one of them:
# GNU cp overwrites the copy of P/f with other/f.  (Without -v, whose
# lines change the timing so that it went right more often.)
for src in P/. P/d/..; do
  for jobs in 1 4; do
    run_ dot $jobs -r "$src" other/f T
  done
  same_ dot
  compare other/f T/f || fail=1
done

if test -z "${CR_JOBS_NS-}"; then
  echo "$ME_: not root, or no mount namespace: no mounts in the target" >&2
  Exit $fail
fi

# A tree copied onto a file system mounted within the target, then a file
# of that copy as an operand: on another file system than the target,
# which once let it be copied while its source was still being made.
mkdir srcdir || framework_failure_
head -c 3000000 /dev/urandom > srcdir/f || framework_failure_
for jobs in 1 4; do
  mkdir T/srcdir && mount -t tmpfs -o size=64m cr-jobs-inner T/srcdir ||
    framework_failure_
  slow_ cpr -rv --jobs=$jobs srcdir T/srcdir/f T/ > mnt.$jobs 2>&1
  echo "exit status $?" >> mnt.$jobs
  compare srcdir/f T/srcdir/f || fail=1
  compare srcdir/f T/f || fail=1
  umount T/srcdir && rm -rf T/* || framework_failure_
done
same_ mnt serial

# Within a tree: T/src/a is T/src/b, bind-mounted, so that src/a/x and
# src/b/x have one copy; the later one in the copy's order replaces it.
mkdir -p src/a src/b || framework_failure_
head -c 3000000 /dev/urandom > src/a/x && echo b > src/b/x ||
  framework_failure_
for jobs in 1 4; do
  mkdir -p T/src/a T/src/b && mount --bind T/src/b T/src/a ||
    framework_failure_
  slow_ cpr -rv --jobs=$jobs src T > bind.$jobs 2>&1
  echo "exit status $?" >> bind.$jobs
  umount T/src/a || framework_failure_
  "$tree_state" snapshot T >> bind.$jobs || framework_failure_
  rm -rf T/* || framework_failure_
done
same_ bind serial

Exit $fail
