#!/bin/sh
# copy_range on btrfs of a compressed file (a folder with chattr +c, as a
# compress mount would do): the compressed extents are shared, not
# decompressed and written again, and the copy reads back identical.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/offload-lib.sh"
require_mnt_ CR_MNT_BTRFS

scratch_dir_ "$CR_MNT_BTRFS"
cd "$dir" || framework_failure_ "cd $dir"
mkdir z && chattr +c z || framework_failure_ "chattr +c"
seq 1 3000000 > z/src || framework_failure_ seq
sync
filefrag -v z/src | grep -q encoded \
  || framework_failure_ "z/src was not compressed"

data0=$(btrfs_data_used_ "$CR_MNT_BTRFS")
run_copy_ -s 4096 -d 4096 z/src z/dst || fail=1
data1=$(btrfs_data_used_ "$CR_MNT_BTRFS")
# dst starts with a hole; compare what was copied.
$gnu_cmp -i 4096 z/src z/dst || fail=1
set -- $(btrfs_du_ z/dst)
echo "compressed copy of $(stat -c %s z/src) bytes: data used $data0 ->" \
     "$data1, dst exclusive $2 shared $3"
test $((data1 - data0)) -le 65536 || fail_ "data grew by $((data1 - data0))"
test "$2" = 0 || fail_ "$2 bytes of dst are not shared"
filefrag -v z/dst | grep -q encoded || fail_ "dst's extents are not encoded"

Exit $fail
