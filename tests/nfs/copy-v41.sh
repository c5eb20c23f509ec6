#!/bin/sh
# copy_range on an NFSv4.1 mount, which has no COPY: the client's method
# declines and the kernel copies through READ and WRITE; still identical.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/offload-lib.sh"
require_mnt_ CR_MNT_NFS41
size=$(size_ "${CR_NFS41_SIZE-8M}")

nfs_copy_ "$CR_MNT_NFS41" "$CR_NFS_EXPORT_BTRFS" $size
test $nfs_copy_status = 0 || fail=1
test $copies = 0 || fail_ "$copies COPY ops on an NFSv4.1 mount"
test $reads -ge $size || fail_ "only $reads bytes were read"
test $writes -ge $size || fail_ "only $writes bytes were written"
$gnu_cmp "$dir/src" "$dir/dst" || fail=1

Exit $fail
