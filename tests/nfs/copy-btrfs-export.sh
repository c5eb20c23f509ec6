#!/bin/sh
# copy_range on an NFSv4.2 mount of a btrfs export is offloaded end to end:
# the client sends one CLONE, as FICLONE would, no COPY and no file data,
# and the server clones, so the copy's extents are shared with the source.
# CR_NFS_SIZE sets the size (default 32M; the figure is 256M).

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/offload-lib.sh"
require_mnt_ CR_MNT_NFS
size=$(size_ "${CR_NFS_SIZE-32M}")

nfs_copy_ "$CR_MNT_NFS" "$CR_NFS_EXPORT_BTRFS" $size
test $nfs_copy_status = 0 || fail=1
# A server that shares extents is asked to CLONE, as FICLONE does: one
# CLONE for an aligned range that ends at the source's end, and no COPY.
test $clones = 1 || fail_ "$clones CLONE ops where one should clone the file"
test $copies = 0 || fail_ "$copies COPY ops beside the CLONE"
test $payload -le $((size / 64)) \
  || fail_ "$payload bytes of file data crossed the wire"

set -- $(btrfs_du_ "$dir/dst")
echo "on the server: dst total $1 exclusive $2 shared $3"
test "$2" = 0 || fail_ "$2 bytes of the server's copy are not shared"
$gnu_cmp "$dir/src" "$dir/dst" || fail=1
$gnu_cmp "$cdir/src" "$cdir/dst" || fail=1

Exit $fail
