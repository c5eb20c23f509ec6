#!/bin/sh
# The program name in diagnostics is the one it was invoked by: cp, cpr, or
# an absolute file name, as GNU cp's is.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

setup_tree ()
{
  printf 'a\n' > a && mkdir d && printf 'b\n' > b
}

for how in --cr-name=cp --cr-name=cpr --cr-abs '--cr-abs --cr-name=cpr'; do
  cpr_case $how
  cpr_case $how a
  cpr_case $how --bogus a b
  cpr_case $how -Q a b
  cpr_case $how --backup=bad a b
  cpr_case $how nonexistent new
  cpr_case $how d new
  cpr_case $how a a
  cpr_case $how -l -s a b
  cpr_case $how --cr-stdin=n -i a b
  cpr_case $how -v a new
  cpr_case $how --cr-stdout=/dev/full -v a new
done

Exit $fail
