#!/bin/sh
# copy_range on btrfs at any offset: whole blocks are cloned, an unaligned
# head and tail are copied, a range ending at the source's EOF clones its
# last partial block unless that would clobber the destination, offsets
# that differ modulo the block size fall back to a plain copy.  Every
# result is compared with the same copy made by dd.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/offload-lib.sh"
require_mnt_ CR_MNT_BTRFS

scratch_dir_ "$CR_MNT_BTRFS"
cd "$dir" || framework_failure_ "cd $dir"
bs=$(stat -f -c %S .)
test "$bs" = 4096 || skip_ "the cases assume 4096-byte blocks, not $bs"
M=1048576
S=$((2 * M + 1000))		# source size: the EOF block is partial
make_data_ src $S
make_data_ other $((3 * M))	# earlier contents of some destinations

# case NAME SRC_OFF DST_OFF LEN DST_INIT MIN_SHARED MAX_SHARED
# DST_INIT is "empty", "short" (1000 bytes) or "other" (3 MiB); the
# bytes of the copy's extents that are shared must lie in the bounds.
case_ ()
{
  name=$1 so=$2 dof=$3 n=$4 init=$5 min=$6 max=$7
  case $init in
    empty) : > "dst-$name" ;;
    short) head -c 1000 other > "dst-$name" ;;
    other) plain_copy_ other "dst-$name" ;;
  esac
  plain_copy_ "dst-$name" "ref-$name"
  $gnu_dd if=src of="ref-$name" bs=$M skip=$so seek=$dof count=$n \
    iflag=skip_bytes,count_bytes oflag=seek_bytes conv=notrunc status=none \
    || framework_failure_ "dd for $name"
  run_copy_ -s $so -d $dof -n $n src "dst-$name" || { fail=1; return; }
  $gnu_cmp "ref-$name" "dst-$name" || { fail=1; return; }
  set -- $(btrfs_du_ "dst-$name")
  echo "$name: shared $3 bytes (expected $min..$max)"
  test "$3" -ge $min && test "$3" -le $max \
    || { echo "$name: FAIL: $3 shared bytes not in $min..$max"; fail=1; }
}

ALIGNED_S=$(( (S + bs - 1) / bs * bs))
DOWN_S=$((S / bs * bs))
case_ aligned		0	0	$M	empty	$M		$M
case_ unaligned-head	1000	1000	$M	empty	$((M - bs))	$((M - bs))
case_ eof-tail		8192	8192	$((S - 8192)) empty \
			$((ALIGNED_S - 8192)) $((ALIGNED_S - 8192))
case_ eof-into-data	8192	8192	$((S - 8192)) other \
			$((DOWN_S - 8192)) $((DOWN_S - 8192))
case_ past-eof		0	$((3 * M)) $M	short	$M		$M
case_ incongruent	1000	2000	$M	empty	0		0
case_ within-block	100	100	200	other	0		0

# One file, two ranges that do not overlap: the copy shares with itself.
plain_copy_ src self
plain_copy_ self ref-self
$gnu_dd if=src of=ref-self bs=$M count=$M seek=$M oflag=seek_bytes \
  iflag=count_bytes conv=notrunc status=none || framework_failure_ dd
run_copy_ -s 0 -d $M -n $M self self || fail=1
$gnu_cmp ref-self self || fail=1
set -- $(btrfs_du_ self)
test "$3" -ge $((2 * M)) || fail_ "self copy: only $3 bytes shared"

Exit $fail
