#!/bin/sh
# copy_range on btrfs is a clone: after copying a file, the data in use
# on the filesystem has not grown, every extent of the copy is shared
# with the source, and the bytes are identical.
# CR_BTRFS_SIZE sets the size (default 64M; the figure is 1G).

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/offload-lib.sh"
require_mnt_ CR_MNT_BTRFS

size=$(size_ "${CR_BTRFS_SIZE-64M}")
scratch_dir_ "$CR_MNT_BTRFS"
make_data_ "$dir/src" $size
sync

data0=$(btrfs_data_used_ "$CR_MNT_BTRFS") || framework_failure_ "btrfs fi df"
df0=$(df_used_ "$CR_MNT_BTRFS")
run_copy_ "$dir/src" "$dir/dst" || fail=1
sync
data1=$(btrfs_data_used_ "$CR_MNT_BTRFS") || framework_failure_ "btrfs fi df"
df1=$(df_used_ "$CR_MNT_BTRFS")

echo "copied $size bytes on btrfs:" \
     "data used $data0 -> $data1 (+$((data1 - data0)))," \
     "df used $df0 -> $df1 (+$((df1 - df0)))"
set -- $(btrfs_du_ "$dir/dst")
echo "btrfs filesystem du dst: total $1 exclusive $2 set-shared $3"
filefrag -v "$dir/dst" | sed -n '1p;$p'

# A clone adds no data; allow a 64th of the size for other activity.
test $((data1 - data0)) -le $((size / 64)) \
  || fail_ "data used grew by $((data1 - data0)) bytes for a $size byte copy"
test "$2" = 0 || fail_ "$2 bytes of the copy are not shared"
test "$1" = $size || fail_ "the copy's extents cover $1 bytes, not $size"
filefrag -v "$dir/dst" | grep -q shared \
  || fail_ "FIEMAP reports no shared extent in the copy"
$gnu_cmp "$dir/src" "$dir/dst" || fail=1

Exit $fail
