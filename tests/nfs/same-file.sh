#!/bin/sh
# On NFSv4.2, a copy_range within one file grows it in the client's page
# cache; a copy from that file to another, which the server does, must
# still see the grown file: the client writes it back first.  On the
# mounts of the btrfs and the ext4 export.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/nfs
. "$abs_srcdir/tests/kernel/each-fs.sh"

run_on_each_fs_ cr-same-file nfs-btrfs nfs-ext4

Exit $fail
