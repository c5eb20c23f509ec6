#!/bin/sh
# Diagnostics in a UTF-8 locale, where gnulib's quote (option arguments,
# and the file names of its ACL diagnostics) gives curly quotes while
# quoteaf still gives 'x'; and the same in the C locale.  Compared with
# GNU cp's.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
. "$srcdir/tests/cpr/messages-lib.sh"
fail=0

require_root_
test "$(LC_ALL=C.UTF-8 locale charmap 2>/dev/null)" = UTF-8 ||
  skip_ "no C.UTF-8 locale"

for loc in C.UTF-8 C; do
  msg_cases --cr-env=LC_ALL=$loc
done

Exit $fail
