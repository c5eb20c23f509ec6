#!/bin/sh
# copy_range and read-only btrfs snapshots: a read-only snapshot is a fine
# source (the copy shares its extents); a file in one cannot be opened for
# writing; and a destination opened before its subvolume became read-only
# gets EROFS with its bytes untouched, never a partial clone.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/offload-lib.sh"
require_mnt_ CR_MNT_BTRFS

scratch_dir_ "$CR_MNT_BTRFS"
cd "$dir" || framework_failure_ "cd $dir"
M=1048576
btrfs -q subvolume create sv || framework_failure_ "subvolume create"
make_data_ sv/f $((4 * M))
make_data_ sv/g $((4 * M))
btrfs -q subvolume snapshot -r sv snap || framework_failure_ "snapshot -r"
cleanup_ () { btrfs property set "$dir/sv" ro false 2>/dev/null
              rm -rf $scratch_dirs_ 2>/dev/null; }

# Read-only source.
run_copy_ snap/f sv/copy || fail=1
$gnu_cmp snap/f sv/copy || fail=1
set -- $(btrfs_du_ sv/copy)
test "$2" = 0 || fail_ "$2 bytes of a copy of a read-only snapshot not shared"

# Destination in a read-only snapshot.
returns_ 1 "$crf" sv/f snap/g 2> err || fail=1
grep -q 'Read-only file system' err || { cat err; fail=1; }
$gnu_cmp sv/g snap/g || fail=1

# Destination made read-only while open: copy_range fails with EROFS.
cat sv/g > g.orig
exec 5<>sv/g
btrfs property set sv ro true || framework_failure_ "property set ro"
returns_ 1 "$crf" sv/f - >&5 2> err || fail=1
exec 5>&-
cat err
grep -q 'Read-only file system' err || fail=1
$gnu_cmp g.orig sv/g || fail=1
btrfs property set sv ro false

Exit $fail
