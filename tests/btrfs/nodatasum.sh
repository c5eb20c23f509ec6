#!/bin/sh
# btrfs refuses to clone between a NODATASUM file (chattr +C) and a
# checksummed one; copy_range then copies through the page cache: it
# succeeds, the bytes are identical and no extent is shared.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/offload-lib.sh"
require_mnt_ CR_MNT_BTRFS

scratch_dir_ "$CR_MNT_BTRFS"
cd "$dir" || framework_failure_ "cd $dir"
M=1048576
mkdir nocow && chattr +C nocow || framework_failure_ "chattr +C"
make_data_ sum $((4 * M))
make_data_ nocow/nosum $((4 * M))
lsattr nocow/nosum | grep -q C || framework_failure_ "nosum is not +C"

for pair in "sum nocow/to-nosum" "nocow/nosum to-sum"; do
  set -- $pair
  run_copy_ "$1" "$2" || { fail=1; continue; }
  $gnu_cmp "$1" "$2" || fail=1
  set -- $(btrfs_du_ "$2")
  echo "$pair: shared $3"
  test "$3" = 0 || { echo "$pair: FAIL: $3 bytes shared"; fail=1; }
done

Exit $fail
