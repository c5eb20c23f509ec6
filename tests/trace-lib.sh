# trace-lib.sh: for the tests that watch cpr's system calls under strace
# beside GNU cp's; source it after tests/init.sh.
#
# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

# GNU cp is the reference for which calls a copy makes; without it, or
# without an strace that may trace (a container can forbid ptrace), there
# is nothing to compare.
require_gnu_cp_
command -v strace > /dev/null || skip_ "strace is needed"
strace -o /dev/null true 2> /dev/null || skip_ "strace cannot trace here"
