#!/bin/sh
# copy_range on xfs, which has no ->copy_range method but can share
# extents: the VFS clones through ->remap_file_range, so a whole-file copy
# adds no data and its extents are shared; a range xfs cannot clone (not
# block-aligned) is copied through the page cache instead.  Either way
# the bytes are identical.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/offload-lib.sh"
require_mnt_ CR_MNT_XFS
dev=$(awk -v m="$CR_MNT_XFS" '$2 == m { print $1 }' /proc/mounts)
xfs_db -r -c version "$dev" | grep -q REFLINK \
  || skip_ "the xfs scratch filesystem $dev was made without reflink"

# A size that ends inside a block: the last partial block is cloned too,
# as it ends at the source's end.
size=$((64 * 1048576 + 13))
scratch_dir_ "$CR_MNT_XFS"
make_data_ "$dir/src" $size
sync

df0=$(df_used_ "$CR_MNT_XFS")
run_copy_ "$dir/src" "$dir/dst" || fail=1
sync
df1=$(df_used_ "$CR_MNT_XFS")
echo "copied $size bytes on xfs: df used $df0 -> $df1 (+$((df1 - df0)))"
filefrag -v "$dir/dst" | sed -n '1p;$p'

test $((df1 - df0)) -le $((size / 64)) \
  || fail_ "df used grew by $((df1 - df0)) bytes for a $size byte copy"
filefrag -v "$dir/dst" | grep -q shared \
  || fail_ "FIEMAP reports no shared extent in the copy"
$gnu_cmp "$dir/src" "$dir/dst" || fail=1

# Unaligned offsets: xfs refuses the clone, the page cache copies.
len=$((3 * 1048576 + 5))
run_copy_ -s 1 -d 7 -n $len "$dir/src" "$dir/unaligned" || fail=1
$gnu_cmp -n $len -i 1:7 "$dir/src" "$dir/unaligned" || fail=1
filefrag -v "$dir/unaligned" | grep -q shared \
  && fail_ "an unaligned copy shares extents with its source"

# Aligned offsets into an existing file: cloned, and the bytes around the
# range are the destination's own.
head -c $((8 * 1048576)) /dev/zero | tr '\0' 'z' > "$dir/mid" \
  || framework_failure_ "cannot write $dir/mid"
run_copy_ -s 1048576 -d 2097152 -n 4194304 "$dir/src" "$dir/mid" || fail=1
$gnu_cmp -n 4194304 -i 1048576:2097152 "$dir/src" "$dir/mid" || fail=1
head -c 2097152 "$dir/mid" | tr -d z | $gnu_cmp - /dev/null \
  || fail_ "bytes before the range changed"
tail -c 2097152 "$dir/mid" | tr -d z | $gnu_cmp - /dev/null \
  || fail_ "bytes after the range changed"
filefrag -v "$dir/mid" | grep -q shared \
  || fail_ "an aligned copy into an existing file shares no extent"

Exit $fail
