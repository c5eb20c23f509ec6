#!/bin/sh
# The system calls a copy makes per file of a tree, side by side with
# GNU cp: in a tree of many small files they are most of the cost, and
# cpr must not make more of them than GNU cp does, the two that set and
# remove the mark of a partial copy included.  Counted by strace -c, as
# the difference between a tree of 60 files and one of 10, so that what
# each program does once (start-up, locale) cancels out.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
fail=0

. "$srcdir/tests/trace-lib.sh"

# make_tree DIR N: N files of a few KiB, five to a folder.
make_tree ()
{
  i=0
  while test $i -lt $2; do
    mkdir -p $1/d$((i / 5)) &&
    head -c $((1000 + i * 37)) /dev/urandom > $1/d$((i / 5))/f$i || return 1
    i=$((i + 1))
  done
}
make_tree small 10 && make_tree big 60 || framework_failure_
# Where the file system clones, GNU cp's one FICLONE per file is all its
# data calls; the comparison is for copies that move the data.
"$CR_REF" --reflink=always small/d0/f0 clone-probe 2> /dev/null \
  && skip_ "the test directory's file system clones files (FICLONE)"

# strace -c's last line: "100.00 SECONDS USECS/CALL CALLS [ERRORS] total".
total_calls ()
{
  awk '$NF == "total" { print $4 }' calls.out
}

per_file ()
{
  rm -rf copy && strace -f -c -o calls.out "$1" -a small copy \
    || { echo "$1 -a small copy failed"; return 1; }
  a=$(total_calls) &&
  rm -rf copy && strace -f -c -o calls.out "$1" -a big copy \
    || { echo "$1 -a big copy failed"; return 1; }
  b=$(total_calls) &&
  test -n "$a" && test -n "$b" &&
  echo $((b - a))
}

# The calls for the 50 more files of the big tree.
ref=$(per_file "$CR_REF") || framework_failure_
new=$(per_file cpr) || fail=1
each="GNU cp $(awk "BEGIN { print $ref / 50 }")"
each="$each, cpr $(awk "BEGIN { print $new / 50 }")"
echo "system calls per file of a tree, -a: $each"
test "$new" -le "$ref" || {
  echo "cpr makes more system calls per file than GNU cp: $each"
  fail=1
}

Exit $fail
