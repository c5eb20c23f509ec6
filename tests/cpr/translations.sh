#!/bin/sh
# Diagnostics in translated locales: GNU cp's words come from its own
# catalog (the "coreutils" text domain) and glibc's getopt's from glibc's
# ("libc"); cpr asks the same catalogs, so that they read the same.
# The locales are made here, in a directory of the test's own (LOCPATH),
# which needs glibc's locale sources but not root's rights over the
# system's locales.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
. "$srcdir/tests/cpr/messages-lib.sh"
fail=0

require_root_
command -v localedef > /dev/null || skip_ "no localedef"
mkdir locales || framework_failure_
chmod a+rx locales || framework_failure_
locales=
for loc in de_DE fr_FR; do
  lang=${loc%_*}
  test -f /usr/share/locale/$lang/LC_MESSAGES/coreutils.mo || continue
  localedef -i $loc -f UTF-8 locales/$loc.UTF-8 2>/dev/null || continue
  locales="$locales $loc.UTF-8"
done
test -n "$locales" ||
  skip_ "cannot make a de_DE or fr_FR locale with coreutils' catalog"

# The locale really translates GNU cp's messages, or this proves nothing.
for loc in $locales; do
  LOCPATH=$PWD/locales LC_ALL=$loc "$CR_REF" 2> err-$loc
  grep 'missing file operand' err-$loc > /dev/null &&
    skip_ "GNU cp's messages are not translated in $loc"
done

for loc in $locales; do
  msg_cases --cr-env=LOCPATH=$PWD/locales --cr-env=LC_ALL=$loc
done

Exit $fail
