#!/bin/sh
# Holes: --sparse=auto (the default), always and never on files with holes
# at the start, middle and end, all-hole files, and files with runs of
# zeros that are not holes.  Allocated blocks are compared too.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

CR_BLOCKS=yes

require_sparse_files_

setup_tree ()
{
  # 1 MiB of data, a 4 MiB hole, 1 MiB of data, then a 2 MiB hole at the end.
  cr_random 1048576 > middle &&
  cr_random 1048576 | dd of=middle bs=1M seek=5 conv=notrunc status=none &&
  truncate -s 8M middle &&
  # A hole first.
  cr_random 65536 | dd of=leading bs=64k seek=40 status=none &&
  truncate -s 16M empty-hole &&
  truncate -s 0 zero-length &&
  # Zeros written out, no holes, and data around them.
  { cr_random 4096; head -c 2097152 /dev/zero; cr_random 4096; } > zeros &&
  head -c 1048576 /dev/zero > all-zeros &&
  # Small files, a partial block and a trailing hole smaller than a block.
  printf 'short' > short && truncate -s 10000 short &&
  mkdir d && printf 'existing\n' > d/middle
}

for sparse in '' --sparse=auto --sparse=always --sparse=never \
    --sparse=al --sparse=n; do
  cpr_case $sparse middle new
  cpr_case $sparse leading new
  cpr_case $sparse empty-hole new
  cpr_case $sparse zero-length new
  cpr_case $sparse zeros new
  cpr_case $sparse all-zeros new
  cpr_case $sparse short new
  cpr_case $sparse middle leading zeros d
  cpr_case -r $sparse d new
done
cpr_case --sparse=always --reflink=never middle new
cpr_case --sparse=never --reflink=never middle new
cpr_case --reflink=never middle new
cpr_case --reflink=never zeros new
cpr_case --reflink=auto middle new
cpr_case --reflink middle new

Exit $fail
