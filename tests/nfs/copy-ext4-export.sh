#!/bin/sh
# copy_range on an NFSv4.2 mount of an ext4 export: ext4 cannot share
# extents, so the server copies in the kernel, but the client still sends
# COPY and no file data crosses the wire.  NFS's own copy_range (kernel
# patch 9) asks for up to 32 MiB in one asynchronous COPY, where the VFS's
# generic steps would send one COPY per 4 MiB.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/offload-lib.sh"
require_mnt_ CR_MNT_NFS_EXT4
size=$(size_ "${CR_NFS_SIZE-32M}")

nfs_copy_ "$CR_MNT_NFS_EXT4" "$CR_NFS_EXPORT_EXT4" $size
test $nfs_copy_status = 0 || fail=1
test $copies -ge 1 || fail_ "no COPY went to the server"
per_copy=33554432
test $copies -le $(((size + per_copy - 1) / per_copy)) \
  || fail_ "$copies COPY ops for $size bytes: more than one per 32 MiB"
test $payload -le $((size / 64)) \
  || fail_ "$payload bytes of file data crossed the wire"
$gnu_cmp "$dir/src" "$dir/dst" || fail=1
$gnu_cmp "$cdir/src" "$cdir/dst" || fail=1

Exit $fail
