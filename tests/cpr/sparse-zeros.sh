#!/bin/sh
# Sparse sources whose data extents hold runs of zeros written out: GNU cp
# copies such a source with read and write and leaves a hole for each
# block of zeros, with --sparse=auto (the default) as with always, so its
# copy takes fewer blocks than the source.  On this filesystem, where an
# offloaded copy would go through the page cache and write the zeros,
# cpr's copy must take as many blocks as GNU cp's.  (Where copy_range
# clones or copies on a server, cpr keeps the offload: see data.c.)

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

CR_BLOCKS=yes
# The runs of zeros and the holes are MiBs; ext4 may add an extent-tree
# block to either copy.
CR_BLOCKS_UNIT=2048

require_sparse_files_

MiB=1048576

# put_ FILE OFFSET_MIB BYTES [zero]: write BYTES bytes of data (of zeros)
# into FILE at OFFSET_MIB MiB, keeping the rest.
put_ ()
{
  if test "${4-}" = zero; then
    head -c $3 /dev/zero
  else
    cr_random $3
  fi | dd of=$1 bs=1M seek=$2 conv=notrunc status=none
}

setup_tree ()
{
  # The example: 64 MiB, 1 MiB of data, 8 MiB of zeros written
  # between two MiBs of data, the rest holes.
  put_ big 0 $MiB && put_ big 20 $MiB && put_ big 21 $((8 * MiB)) zero &&
  put_ big 29 $MiB && truncate -s 64M big &&
  # Zeros starting and ending an extent, and 3 MiB + 5 bytes of zeros
  # (the partial block is data) after a hole.
  put_ edges 4 $((2 * MiB)) zero && put_ edges 6 $MiB &&
  put_ edges 7 $((2 * MiB)) zero && truncate -s 12M edges &&
  put_ edges 12 $((3 * MiB + 5)) zero &&
  truncate -s 20M edges &&
  # Zeros to the end of the file, which is not a hole.
  put_ tail 3 $MiB && put_ tail 4 $((4 * MiB)) zero &&
  mkdir d
}

for opt in '' --sparse=auto --sparse=always --sparse=never \
    --reflink=never --reflink=auto -p; do
  cpr_case $opt big new
  cpr_case $opt edges tail d
done
cpr_case -a big edges tail d

Exit $fail
