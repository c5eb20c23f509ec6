#!/bin/sh
# cpr --jobs with a standard descriptor closed at the start: the next
# file opened gets its number, and a worker's copy must not be the file
# that the main thread's -v lines (or diagnostics) then go to.  With
# standard output closed (">&-"), GNU cp's -v lines fail to be written
# ("cp: write error: Bad file descriptor", exit status 1); with standard
# input closed too, a worker's source took 0 and its copy 1, and the -v
# lines went into the copies.
#
# Each of 0, 1, 2, and 0 and 1 together, closed: GNU cp -av and, three
# times, cpr -av --jobs=8 (both as "cp") must give the same output on
# what is open, the same exit status and the same tree, and no copy may
# hold a -v line.  cpr copies one file at a time then (CPR_JOBS_REPORT
# says no worker ran), which is what makes that sure: whether a copy
# gets a -v line depends on timing.  1500 files of long names make some
# 100 KB of -v lines, a dozen flushes of stdout's buffer while workers
# have files open.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
require_gnu_cp_
fail=0

tree_state=$abs_top_builddir/tests/cpr/tree-state
test -x "$tree_state" || framework_failure_ "tree-state not built"

# Both programs run as "cp", for the same diagnostics.
mkdir ref new && ln -s "$CR_REF" ref/cp && ln -s "$(command -v cpr)" new/cp ||
  framework_failure_

mkdir src src/d || framework_failure_
(cd src && for i in $(seq 1 1500); do
   head -c $((i % 7 * 3000 + 10)) /dev/urandom > file-with-a-longer-name-$i
 done) || framework_failure_
echo g > src/d/g || framework_failure_
"$tree_state" times src || framework_failure_

# run_ NAME BIN CLOSED [OPTION]: BIN/cp -av OPTION src dst with the
# descriptors CLOSED (digits) closed; what goes to those still open, the
# exit status and the tree dst in NAME.
run_ ()
{
  rm -rf dst || framework_failure_
  (PATH=$PWD/$2:$PATH CPR_JOBS_REPORT=$PWD/$1.rep
   export PATH CPR_JOBS_REPORT
   case $3 in
     0) cp -av $4 src dst <&- > $1.out 2> $1.err ;;
     1) cp -av $4 src dst >&- 2> $1.err ;;
     2) cp -av $4 src dst > $1.out 2>&- ;;
     01) cp -av $4 src dst <&- >&- 2> $1.err ;;
   esac
   echo "exit status $?" > $1) || framework_failure_
  for f_ in out err; do
    test -f $1.$f_ && { echo "== $f_"; cat $1.$f_; }
  done >> $1
  "$tree_state" snapshot dst >> $1 || framework_failure_
}

for closed in 0 1 2 01; do
  run_ ref.$closed ref $closed
  for i in 1 2 3; do
    n=new.$closed.$i
    run_ $n new $closed --jobs=8
    # The -v lines end up on stdout, or nowhere.
    if grep -rl -e "' -> '" dst > $n.held; then
      echo "closed $closed: -v lines in copies:" >&2; head $n.held >&2; fail=1
    fi
    compare ref.$closed $n || fail=1
    test "$(cat $n.rep)" = "workers 0 jobs 0 back 0" ||
      { echo "closed $closed: side by side: $(cat $n.rep)" >&2; fail=1; }
  done
done
# GNU cp says what it could not write.
grep '^cp: write error: Bad file descriptor$' ref.1 > /dev/null ||
  { cat ref.1; fail=1; }

Exit $fail
