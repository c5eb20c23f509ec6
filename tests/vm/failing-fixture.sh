#!/bin/sh
# Not part of the suite: tests/vm/harness.sh runs it in the guest through
# the Automake harness to show that a failing guest test fails the run.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

echo "failing on purpose (tests/vm/failing-fixture.sh)"
exit 1
