#!/bin/sh
# cpr --jobs and the limit on open files (RLIMIT_NOFILE): with
# "ulimit -n 16", GNU cp copies a tree of 100 files, and so must cpr
# --jobs=8, which takes as many workers as the limit leaves room for;
# and a worker that runs out of descriptors anyway (EMFILE, ENFILE: the
# shim's CPR_SHIM_THREAD_OPEN) hands its file back to the main thread,
# which copies it in its turn, and every file after it.  Each compared
# with --jobs=1: the same tree, -v lines, diagnostics and exit status.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0

tree_state=$abs_top_builddir/tests/cpr/tree-state
test -x "$tree_state" || framework_failure_ "tree-state not built"

mkdir src src/d || framework_failure_
i=0
while test $i -lt 100; do
  i=$((i + 1))
  head -c $((i * 2000)) /dev/urandom > src/f$i || framework_failure_
done
for i in 1 2 3 4 5 6 7 8; do
  echo $i > src/d/g$i || framework_failure_
done

# Descriptors the test inherits (make's jobserver under 'make -j', a CI
# script's) would take the room that "ulimit -n 16" leaves: cpr runs with
# 0, 1 and 2 only, as from a shell.  bash, as dash cannot close 10 and up.
close_inherited_='for fd in /proc/$$/fd/*; do
  fd=${fd##*/}; test "$fd" -gt 2 && eval "exec $fd<&-"; done; exec "$@"'

# run_ NAME JOBS [VAR=VALUE]...: cpr -rv --jobs=JOBS src dst, with each
# data call 20 ms long, so that copies overlap, and VAR=VALUE...; its
# output, status and tree in NAME.JOBS, its report in NAME.JOBS.rep.
run_ ()
{
  name_=$1 jobs_=$2; shift 2
  rm -rf dst || framework_failure_
  bash -c "$close_inherited_" sh \
  env LD_PRELOAD="$shim_" CPR_SHIM_SLEEP_NS=20000000 \
    CPR_JOBS_REPORT="$PWD/$name_.$jobs_.rep" "$@" \
    cpr -rv --jobs=$jobs_ src dst > $name_.$jobs_ 2>&1
  echo "exit status $?" >> $name_.$jobs_
  "$tree_state" snapshot dst >> $name_.$jobs_ || framework_failure_
}

# field_ FILE WORD: the number after WORD on the last line of FILE.
field_ ()
{
  tail -n 1 "$1" | sed -n "s/.*$2 \\([0-9]*\\).*/\\1/p"
}

# The limit: cpr's own descriptors and a few workers.  In a subshell,
# which keeps it.
(ulimit -n 16) 2> /dev/null || skip_ "the shell cannot set ulimit -n 16"
(
  ulimit -n 16 || framework_failure_
  run_ limit 1
  run_ limit 8
) || fail=1
compare limit.1 limit.8 || fail=1
grep 'Too many open files' limit.8 && fail=1
test "$(field_ limit.8.rep workers)" -ge 1 &&
  test "$(field_ limit.8.rep workers)" -le 2 &&
  test "$(field_ limit.8.rep jobs)" -gt 0 ||
  { echo "ulimit -n 16:" >&2; cat limit.8.rep >&2; fail=1; }
diff -r src dst || fail=1

# Workers that find no descriptor: the main thread copies their files.
for err in EMFILE ENFILE; do
  run_ $err 1
  run_ $err 4 CPR_SHIM_THREAD_OPEN=$err:3
  compare $err.1 $err.4 || fail=1
  # One of the first three handed over failed, at least; the main thread
  # copies the files after it once it comes to it.
  test "$(field_ $err.4.rep back)" -ge 1 ||
    { echo "$err:" >&2; cat $err.4.rep >&2; fail=1; }
  diff -r src dst || fail=1
done

Exit $fail
