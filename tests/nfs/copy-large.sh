#!/bin/sh
# A copy_range larger than the kernel offloads in one step is split across
# several CLONE or COPY operations, each resumed where the last one
# stopped, and the caller sees calls that stop only at MAX_RW_COUNT: the
# file on the server is identical and shares all its extents.  The source is sparse, 2 GiB
# and a bit, so that the test stays quick.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/offload-lib.sh"
require_mnt_ CR_MNT_NFS

M=1048576
scratch_dir_ "$CR_NFS_EXPORT_BTRFS"
cdir=$CR_MNT_NFS/${dir##*/}
make_data_ "$dir/piece" $M
: > "$dir/src"
for at in 0 1023 1024 2048; do
  $gnu_dd if="$dir/piece" of="$dir/src" bs=$M seek=$at conv=notrunc \
    status=none || framework_failure_ dd
done
size=$(stat -c %s "$dir/src")
sync

set -- $(mountstat_ "$CR_MNT_NFS")
run_copy_ "$cdir/src" "$cdir/dst" || fail=1
# One call copies at most MAX_RW_COUNT (0x7ffff000 with 4 KiB pages), so
# that a 32-bit caller can read its count: no call may stop earlier.
max_rw=$((0x7ffff000))
calls=$(( (size + max_rw - 1) / max_rw ))
grep -q "copied $size of $size bytes in $calls calls" crf.out \
  || fail_ "the copy took more than $calls calls"
set -- "$@" $(mountstat_ "$CR_MNT_NFS")
offloads=$((${7} - $1 + ${12} - $6))
echo "copy of $size bytes: COPY ops +$((${7} - $1))," \
     "CLONE ops +$((${12} - $6))," \
     "READ bytes +$((${10} - $4)), WRITE bytes +$((${11} - $5))"
test $offloads -ge 2 || fail_ "the copy went out in $offloads COPY or CLONE"
test $((${10} - $4 + ${11} - $5)) -le $M || fail_ "file data crossed the wire"

set -- $(btrfs_du_ "$dir/dst")
echo "on the server: dst total $1 exclusive $2 shared $3"
test "$2" = 0 || fail_ "$2 bytes of the server's copy are not shared"
sparse_cmp_ "$dir/src" "$dir/dst" || fail=1

Exit $fail
