#!/bin/sh
# doc/cpr.1 is what 'make update-man' makes of cpr's --help and
# --version and doc/cpr.h2m: a change made to the generated page alone
# would be lost at the next update, and one made to --help or to
# doc/cpr.h2m alone would not reach the page the tarball ships.  The
# date on the .TH line is the month the page was made, and not compared.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"
fail=0
help2man --version > /dev/null 2>&1 || skip_ "help2man is not installed"
cpr=$abs_top_builddir/src/cpr
test -x "$cpr" || framework_failure_ "cpr not built"

help2man --no-info --source=copyrange \
  --include="$abs_top_srcdir/doc/cpr.h2m" \
  --name='copy files and directories, moving the data with copy_range' \
  --output=made.1 "$cpr" || framework_failure_
undated_ () { sed '/^\.TH /s/"[A-Z][a-z]* [0-9]*"/"DATE"/' "$1"; }
undated_ "$abs_top_srcdir/doc/cpr.1" > shipped || framework_failure_
undated_ made.1 > made || framework_failure_
compare shipped made ||
  { echo "doc/cpr.1 is not what 'make update-man' makes: run it" >&2; fail=1; }

Exit $fail
