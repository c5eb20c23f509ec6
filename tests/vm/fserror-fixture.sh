#!/bin/sh
# Not part of the suite: tests/vm/harness.sh runs it in the guest to show
# that a filesystem's own error report, which neither WARNs nor taints,
# fails the test it came in.  ext4 reports a real ext4_error() on request
# (/sys/fs/ext4/DEV/trigger_fs_error), here on a loop device, which only
# the fault tests may break on purpose.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

set -e
dir=$(mktemp -d /tmp/fserror-fixture.XXXXXX)
truncate -s 64M "$dir/img"
loop=$(losetup -f --show "$dir/img")
mke2fs -q -t ext4 "$loop"
mkdir "$dir/mnt"
mount -o errors=continue "$loop" "$dir/mnt"
echo "tests/vm/fserror-fixture.sh" > "/sys/fs/ext4/${loop#/dev/}/trigger_fs_error"
umount "$dir/mnt"
losetup -d "$loop"
echo "provoked an ext4 error on $loop (tests/vm/fserror-fixture.sh)"
exit 0
