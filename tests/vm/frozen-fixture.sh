#!/bin/sh
# Not part of the suite: tests/vm/harness.sh runs it in the guest to show
# that a test stuck for good -- here a write to a frozen filesystem, an
# uninterruptible sleep that SIGKILL cannot end -- is abandoned within its
# limit, that the tests after it fail without running, and that the guest
# still powers off and reports it.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

set -e
dir=$(mktemp -d /tmp/frozen-fixture.XXXXXX)
truncate -s 64M "$dir/img"
loop=$(losetup -f --show "$dir/img")
mke2fs -q -t ext4 "$loop"
mkdir "$dir/mnt"
mount "$loop" "$dir/mnt"
xfs_io -x -c freeze "$dir/mnt"
echo "writing to the frozen $dir/mnt (tests/vm/frozen-fixture.sh)"
echo data > "$dir/mnt/file"
echo "the write to a frozen filesystem returned"
exit 1
