#!/bin/sh
# What each step of copy_range costs on NFS, counted in RPCs: on the
# NFSv4.2 mount of the btrfs export a copy at unaligned offsets sends no
# CLONE (Linux nfsd reports no clone block size, and a CLONE that cannot
# succeed costs a round trip and a flush of both files per step), while an
# aligned one is cloned; on the NFSv4.1 mount, which cannot clone or COPY,
# the steps go through READ and WRITE without flushing and COMMITting
# both files each time.  Both copied in 1 MiB calls, so that every call
# is a step.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/offload-lib.sh"
require_mnt_ CR_MNT_NFS
require_mnt_ CR_MNT_NFS41
crf=${abs_top_builddir-$PWD/..}/tests/copy-range-file
test -x "$crf" || framework_failure_ "$crf not built"

# 8 MiB in whole pages, and 5 bytes more at the source's end.
size=$((8 * 1048576 + 5))

# copy_ MNT OFFSET: copy the source at OFFSET to the same offset of a new
# file, 1 MiB a call, through MNT; set clones, copies and commits to the
# RPCs it took, and fail unless the bytes arrived.
copy_ ()
{
  c0=$(nfs_ops_ "$1" CLONE) p0=$(nfs_ops_ "$1" COPY)
  m0=$(nfs_ops_ "$1" COMMIT)
  run_copy_ -s $2 -d $2 -c 1048576 "$cdir/src" "$cdir/dst$2" \
    || fail_ "copy-range-file at $2 through $1 failed"
  clones=$(($(nfs_ops_ "$1" CLONE) - c0))
  copies=$(($(nfs_ops_ "$1" COPY) - p0))
  commits=$(($(nfs_ops_ "$1" COMMIT) - m0))
  echo "at offset $2 through $1: CLONE +$clones, COPY +$copies," \
       "COMMIT +$commits"
  $gnu_cmp -i $2:$2 "$cdir/src" "$cdir/dst$2" \
    || fail_ "the copy at $2 through $1 differs"
}

scratch_dir_ "$CR_NFS_EXPORT_BTRFS"
cdir=$CR_MNT_NFS/${dir##*/}
make_data_ "$dir/src" $size
sync

# Unaligned: no CLONE could succeed, so none may be sent.
copy_ "$CR_MNT_NFS" 1
test $clones = 0 \
  || fail_ "$clones CLONEs for a copy at unaligned offsets, none can succeed"
test $copies -ge 1 || fail_ "the unaligned copy sent no COPY"

# Aligned: the control; each whole MiB is one CLONE, and the 5 bytes at
# the source's end another (or, should the server refuse that, a COPY).
copy_ "$CR_MNT_NFS" 0
test $clones -ge 8 || fail_ "$clones CLONEs for 8 aligned calls"
test $((clones + copies)) = 9 \
  || fail_ "$clones CLONEs and $copies COPYs for 9 calls"

# NFSv4.1: no CLONE or COPY capability, so nothing to flush for.
cdir=$CR_MNT_NFS41/${dir##*/}
copy_ "$CR_MNT_NFS41" 3
test $((clones + copies)) = 0 \
  || fail_ "CLONE or COPY sent on an NFSv4.1 mount"
test $commits -le 2 \
  || fail_ "$commits COMMITs for 9 calls: each step flushed the files"

Exit $fail
