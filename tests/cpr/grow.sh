#!/bin/sh
# A source that grows while it is being copied: GNU cp copies it to its
# real end, not to the size fstat gave, whether it copies a sparse source
# extent by extent or a dense one to the end of file; data that arrives
# after a hole comes with the hole, and a hole alone leaves the copy at
# the size it had.  The LD_PRELOAD shim of tests/cpr-data makes the source
# grow on the first read or copy call that reads it (CPR_SHIM_GROW), the
# same moment for both programs, so the outcome is deterministic.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

shim=$abs_top_builddir/tests/cpr-data/shim.so
test -f "$shim" || framework_failure_ "$shim not built"
case $shim in
  *[[:space:]]*) skip_ "the shim's name has white space: $shim" ;;
esac

CR_BLOCKS=yes
# Holes and data are MiBs; ext4 may add an extent-tree block to either.
CR_BLOCKS_UNIT=2048

require_sparse_files_

MiB=1048576

setup_tree ()
{
  # Sparse: 1 MiB of data, a hole, 1 MiB of data at 8 MiB, and a trailing
  # hole to 12 MiB; the same ending with its data at 9 MiB.
  for f_ in sparse sparse-end; do
    cr_random $MiB > $f_ &&
    cr_random $MiB | dd of=$f_ bs=1M seek=8 conv=notrunc status=none ||
      return 1
  done &&
  truncate -s 12M sparse &&
  # Dense, 3 MiB + 7.
  cr_random $((3 * MiB + 7)) > dense
}

# grow_case FILE HOLE DATA [OPTION]...: copy FILE to new while it grows by
# HOLE bytes of hole and DATA bytes of data.
grow_case ()
{
  g_file=$1 g_hole=$2 g_data=$3; shift 3
  cpr_case --cr-env=LD_PRELOAD=$shim \
    --cr-env=CPR_SHIM_GROW=$g_file:$g_hole:$g_data "$@" $g_file new
}

for opt in '' --sparse=always --sparse=never --reflink=never; do
  for f in sparse sparse-end dense; do
    grow_case $f 0 $MiB $opt
    grow_case $f $((2 * MiB)) $MiB $opt
    grow_case $f 0 100 $opt
    grow_case $f 4096 0 $opt
  done
done

Exit $fail
