#!/bin/sh
# Not part of the suite: tests/vm/harness.sh runs it in the guest with a
# short CR_TEST_TIMEOUT to show that a hung test fails alone, by name.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

echo "hanging on purpose (tests/vm/hang-fixture.sh)"
sleep 100000 &
wait
