#!/bin/sh
# copy_range on btrfs of a sparse source: the copy is identical, its holes
# stay holes (the clone adds no data) and its data extents are shared.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/offload-lib.sh"
require_mnt_ CR_MNT_BTRFS

scratch_dir_ "$CR_MNT_BTRFS"
cd "$dir" || framework_failure_ "cd $dir"
M=1048576
make_data_ piece $M
: > src
for at in 0 10 63; do
  $gnu_dd if=piece of=src bs=$M seek=$at conv=notrunc status=none \
    || framework_failure_ dd
done
truncate -s $((64 * M + 5)) src || framework_failure_ truncate
sync

data0=$(btrfs_data_used_ "$CR_MNT_BTRFS")
run_copy_ src dst || fail=1
data1=$(btrfs_data_used_ "$CR_MNT_BTRFS")
$gnu_cmp src dst || fail=1
set -- $(btrfs_du_ dst)
echo "sparse copy: data used $data0 -> $data1, dst total $1 exclusive $2" \
     "shared $3, $(du -B1 dst)"
test $((data1 - data0)) -le $M || fail_ "data used grew by $((data1 - data0))"
test "$1" = $((3 * M)) || fail_ "dst has $1 bytes of extents, not $((3 * M))"
test "$2" = 0 || fail_ "$2 bytes of dst are not shared"

Exit $fail
