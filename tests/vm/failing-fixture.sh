#!/bin/sh
# Not part of the suite: tests/vm/harness.sh runs it in the guest through
# the Automake harness to show that a failing guest test fails the run.
echo "failing on purpose (tests/vm/failing-fixture.sh)"
exit 1
