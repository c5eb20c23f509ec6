# jobs-lib.sh: the opening of the --jobs tests that mount file systems
# of their own (tests/cpr/jobs.sh, jobs-names.sh).  -*- sh -*-
# Sourced first, in place of tests/init.sh: run by root where unshare
# can, the test re-runs itself in a private mount namespace, with
# CR_JOBS_NS set (without it, the test goes without its mounts); then
# init.sh, with ./src in PATH, the data mover's shim (tests/cpr-data/
# lib.sh), fail=0 and $tree_state.
#
# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

# Re-run in a mount namespace of our own (before init.sh makes a directory).
if test -z "${CR_JOBS_NS-}" && test "$(id -u)" = 0 &&
   unshare -m --propagation private true 2>/dev/null; then
  CR_JOBS_NS=1; export CR_JOBS_NS
  exec unshare -m --propagation private "${SHELL-/bin/sh}" "$0" "$@"
fi

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0

tree_state=$abs_top_builddir/tests/cpr/tree-state
test -x "$tree_state" || framework_failure_ "tree-state not built"
