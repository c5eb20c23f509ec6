#!/bin/sh
# Copy files to files and into directories as GNU cp does: contents, modes of
# new and existing destinations, -t, -T, -v, and several sources at once.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

setup_tree ()
{
  printf 'alpha\n' > a &&
  printf 'a longer second file\n' > b &&
  : > empty &&
  printf 'mode 640\n' > m640 && chmod 640 m640 &&
  printf 'exec\n' > x && chmod 755 x &&
  printf 'old contents, longer than the new ones\n' > existing &&
  chmod 600 existing &&
  mkdir d e &&
  printf 'in d\n' > d/f &&
  cr_random 2621440 > big &&
  printf 'tail' >> big
}

cpr_case a new
cpr_case a existing
cpr_case b a
cpr_case empty new
cpr_case empty a
cpr_case big big.copy
cpr_case m640 new
cpr_case x new
cpr_case x existing
cpr_case --cr-umask=077 x new
cpr_case --cr-umask=0 m640 new
cpr_case a d
cpr_case a d/
cpr_case a b x d
cpr_case a b e/
cpr_case -t d a b
cpr_case --target-directory=e a big
cpr_case -td a
cpr_case -T a new
cpr_case -T a existing
cpr_case --no-target-directory a b
cpr_case -v a new
cpr_case -v a b d
cpr_case --verbose a existing
cpr_case -v -t e a x
cpr_case -- a new
cpr_case a -- new
cpr_case a ./d/./
cpr_case ./a ./new
cpr_case "$CR_WORK/a" new
cpr_case -v "$CR_WORK/a" "$CR_WORK/d"

Exit $fail
