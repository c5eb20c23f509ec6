#!/bin/sh
# Not part of the suite: tests/vm/harness.sh runs it in the guest (and
# through tests/guest-run on the host) to show that a skip the list of
# expected skips does not name fails.  With CR_FIXTURE_ROWS set it passes,
# skipping two rows instead.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

if test -n "$CR_FIXTURE_ROWS"; then
  echo "SKIP: fixture: a listed row"
  echo "SKIP: fixture: an unlisted row"
  exit 0
fi
echo "$0: skipped test: a reason tests/guest-skips does not list" >&2
exit 77
