#!/bin/sh
# The memory of a copy of many symbolic links into a directory: cpr's
# peak resident size stays within a tenth (and 512 KiB) of GNU cp's.
# cpr remembered every symlink it made, a hundred bytes each, where
# only a later operand could come upon one (through_new_symlink); the
# one operand here has none after it.  With two operands, the first
# one's symlinks are still remembered, and refused as a way through.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
require_gnu_cp_
test -x /usr/bin/time || skip_ "no /usr/bin/time (Debian's time package)"
fail=0

n=100000
mkdir -p s/d && (cd s/d && seq -f 'l%06g' $n |
  xargs sh -c 'for f; do ln -s "target-$f" "$f" || exit 255; done' sh) ||
  framework_failure_

# peak CMD...: CMD's peak resident size in KiB, copying s into a new T.
peak ()
{
  rm -rf T && mkdir T || framework_failure_
  /usr/bin/time -f %M -o rss "$@" -r s T/ || fail=1
  test "$(find T/s/d -type l | wc -l)" = $n || {
    echo "$1 did not copy the $n symlinks"; fail=1; }
  cat rss
}

ref=$(peak "$CR_REF") || framework_failure_
got=$(peak cpr) || framework_failure_
test "$got" -le $((ref + ref / 10 + 512)) || {
  echo "cpr's peak resident size, $got KiB, against GNU cp's $ref KiB"
  fail=1; }

# Two operands: a file of the second is not written through a symlink
# that the first one's copy made.
mkdir -p a/x b/x && ln -s ../../victim a/x/f && echo new > b/x/f &&
  echo old > victim || framework_failure_
rm -rf t && mkdir t || framework_failure_
returns_ 1 cpr -r a/x b/x t 2> err || fail=1
echo "cpr: will not copy 'b/x/f' through just-created symlink 't/x/f'" > exp
sed 's|^[^ ]*cpr:|cpr:|' err > got-err
compare exp got-err || fail=1
test "$(cat victim)" = old || { echo "written through t/x/f"; fail=1; }

Exit $fail
