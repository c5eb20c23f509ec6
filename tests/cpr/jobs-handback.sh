#!/bin/sh
# cpr --jobs: a file that a worker hands back to the main thread for want
# of a descriptor (EMFILE, the shim's CPR_SHIM_THREAD_OPEN) is copied in
# its turn, after the jobs before it; the attributes of its directory
# must wait for that copy too.  src/big, slow, keeps a worker busy while
# the worker given src/sub/f hands it back: with -a, sub's old time must
# survive the copy of f into it, and a read-only sub (copied by a user
# other than root) must still take f.  Compared with --jobs=1: the same
# tree, -v lines, diagnostics and exit status.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0

tree_state=$abs_top_builddir/tests/cpr/tree-state
test -x "$tree_state" || framework_failure_ "tree-state not built"

# The entries of a directory are listed in the order of their inode
# numbers, which most file systems give in the order of creation: big
# first, then sub.
mkdir src || framework_failure_
head -c 4000000 /dev/urandom > src/big || framework_failure_
mkdir src/sub || framework_failure_
echo f > src/sub/f || framework_failure_
"$tree_state" times src || framework_failure_

# run_ NAME JOBS [CMD]...: CMD... cpr -av --jobs=JOBS src dst, with the
# copy of big slow and the first open of f on a worker failing; its
# output, status and tree in NAME.JOBS, its report in NAME.JOBS.rep.
run_ ()
{
  name_=$1 jobs_=$2; shift 2
  rm -rf dst || framework_failure_
  env LD_PRELOAD="$shim_" CPR_SHIM_SLEEP_NS=300000000 \
    CPR_CHUNK_SIZE=1048576 CPR_SHIM_THREAD_OPEN=EMFILE:1:f \
    CPR_JOBS_REPORT="$PWD/$name_.$jobs_.rep" \
    "$@" cpr -av --jobs=$jobs_ src dst > $name_.$jobs_ 2>&1
  echo "exit status $?" >> $name_.$jobs_
  "$tree_state" snapshot dst >> $name_.$jobs_ || framework_failure_
}

# back_ NAME.JOBS: succeed if the run handed a file back.
back_ ()
{
  test "$(tail -n 1 $1.rep | sed -n 's/.* back \([0-9]*\).*/\1/p')" -ge 1 ||
    { echo "$1: no file handed back" >&2; cat $1.rep >&2; return 1; }
}

run_ time 1
run_ time 2
compare time.1 time.2 || fail=1
back_ time.2 || fail=1

# A read-only directory: only a user other than root is kept out of it.
# nobody makes dst here.
as_nobody_="setpriv --reuid=nobody --regid=$(id -g nobody 2> /dev/null)"
as_nobody_="$as_nobody_ --clear-groups --"
if test "$(id -u)" = 0 && id nobody > /dev/null 2>&1 && chmod 1777 . &&
   $as_nobody_ test -x "$PWD" 2> /dev/null; then
  chmod 555 src/sub && "$tree_state" times src || framework_failure_
  run_ ro 1 $as_nobody_
  run_ ro 2 $as_nobody_
  compare ro.1 ro.2 || fail=1
  back_ ro.2 || fail=1
fi

Exit $fail
