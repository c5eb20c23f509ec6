#!/bin/sh
# Files larger than any sensible copy chunk, of sizes that are not multiples
# of a page or of a power of two, with data that never repeats (so that data
# copied to the wrong offset shows), and with holes between data.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

CR_BLOCKS=yes
# Holes are MiBs here; ext4 may add an extent-tree block to either copy.
CR_BLOCKS_UNIT=2048

setup_tree ()
{
  cr_random 71303171 > big &&
  { cr_random 1048577; } > odd &&
  # 3 MiB + 5 of data, 20 MiB of hole, then 9 MiB - 3 of data, 7 MiB of hole.
  cr_random 3145733 > holey &&
  cr_random 9437181 | dd of=holey bs=1M seek=23 conv=notrunc status=none &&
  truncate -s 41M holey &&
  mkdir d
}

for opt in '' --reflink=never --sparse=always --sparse=never -p; do
  cpr_case $opt big new
  cpr_case $opt odd holey d
done
cpr_case -r big odd holey d

Exit $fail
