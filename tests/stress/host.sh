#!/bin/sh
# The stress program's model and invariant on the build machine's own
# kernel, with copy_file_range(2) standing in for copy_range(2): a short
# seeded run of each kind in the test's directory.  The guest runs the
# real thing (tests/stress/stress.sh).

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/stress
fail=0

cr-stress -C -s 1 -n 3000 host . || fail=1
cr-stress -C -s 1 -n 3000 -p 3 host . || fail=1

Exit $fail
