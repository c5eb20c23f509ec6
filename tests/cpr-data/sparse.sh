#!/bin/sh
# Sparse sources: with every --sparse mode cpr makes the same file as GNU
# cp, byte for byte and block for block: holes found with SEEK_DATA and
# SEEK_HOLE and kept (auto), filled (never), or also made from runs of
# zeros (always).

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0
require_gnu_cp_

# Sources: holes at the start, middle and end; all hole; no hole; data
# with blocks of zeros; an empty file.
blk=65536
data_ () { head -c $1 /dev/urandom; }
{ truncate -s 1M lead && data_ 100000 >> lead; } || framework_failure_
{ data_ 70000 > mid && truncate -s 3M mid && data_ 5000 >> mid; } \
  || framework_failure_
{ data_ 12345 > tail && truncate -s 5M tail; } || framework_failure_
truncate -s 7M hole || framework_failure_
data_ 300000 > dense || framework_failure_
{ data_ 200000 > zeros && head -c $((4 * blk)) /dev/zero >> zeros \
  && data_ 99999 >> zeros; } || framework_failure_
: > empty || framework_failure_

for f in lead mid tail hole dense zeros empty; do
  for mode in '' --sparse=auto --sparse=never --sparse=always; do
    rm -f gnu ours
    "$CR_REF" $mode $f gnu || framework_failure_
    cpr --debug $mode $f ours > out || fail=1
    cmp $f ours || fail=1
    stat -c '%s %b' gnu > gnu.st && stat -c '%s %b' ours > ours.st \
      || framework_failure_
    compare gnu.st ours.st || { echo "$f $mode"; fail=1; }
    case $f in
      lead|mid|tail|hole) grep -q 'sparse detection: SEEK_HOLE' out || fail=1;;
    esac
  done
done

# With --sparse=always the zeros became a hole: fewer blocks than the data.
cpr --sparse=always zeros z || fail=1
test $(stat -c %b z) -lt $(stat -c %b zeros) || fail=1

Exit $fail
