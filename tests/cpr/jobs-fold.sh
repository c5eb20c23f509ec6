#!/bin/sh
# cpr --jobs: the names that a directory may take for one file, whose
# copies are then not made side by side (src/fold.c, by tests/cpr/
# fold-test): in a casefolding directory (FS_CASEFOLD_FL), and on a file
# system with rules of its own, names outside ASCII of different lengths
# ("é" and "e" with a combining accent, "ß" and "ss"), ASCII letters of
# either case everywhere.  The decision is tested, not a casefolding
# directory itself: mounting one takes a kernel built with
# CONFIG_UNICODE, and a file system made for it.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"
fail=0

fold_test=$abs_top_builddir/tests/cpr/fold-test
test -x "$fold_test" || framework_failure_ "fold-test not built"
"$fold_test" || fail=1

Exit $fail
