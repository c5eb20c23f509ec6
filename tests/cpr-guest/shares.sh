#!/bin/sh
# A file that cpr itself copies with copy_range shares its extents with
# the source where the filesystem can share them: on btrfs and on xfs
# made with reflink, FIEMAP marks the copy's extents shared and it adds
# no data; on NFSv4.2 over a btrfs export, the client sends CLONE (no
# COPY, no file data on the wire) and the server's copy shares every
# extent.  The sizes end inside a block, so the tail is shared too.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/offload-lib.sh"
. "$srcdir/tests/cpr-data/lib.sh"
fail=0
require_mnt_ CR_MNT_BTRFS
require_mnt_ CR_MNT_XFS
require_mnt_ CR_MNT_NFS

size=$((16 * 1048576 + 13))

# shared_ FILE: succeed if FIEMAP marks every extent of FILE shared.
shared_ ()
{
  filefrag -v "$1" > fiemap.out || framework_failure_ "filefrag $1"
  awk '$1 ~ /^[0-9]+:$/ { n++; if ($0 !~ /shared/) bad++ }
       END { exit !(n > 0 && bad == 0) }' fiemap.out
}

# copy_ SRC DST: cpr SRC DST, which must say it copied with copy_range.
copy_ ()
{
  cpr --debug "$1" "$2" > out || { cat out; fail=1; return; }
  test "$(method_ out)" = copy_range || { echo "$2: $(cat out)"; fail=1; }
}

# btrfs: the copy's extents are shared, and none of its bytes exclusive.
scratch_dir_ "$CR_MNT_BTRFS"
make_data_ "$dir/src" $size
sync
copy_ "$dir/src" "$dir/dst"
$gnu_cmp "$dir/src" "$dir/dst" || fail=1
shared_ "$dir/dst" || { cat fiemap.out; fail_ "btrfs: the copy's extents are not all shared"; }
set -- $(btrfs_du_ "$dir/dst")
echo "btrfs: dst total $1 exclusive $2 shared $3"
test "$2" = 0 || fail_ "btrfs: $2 bytes of cpr's copy are not shared"

# xfs: shared where the filesystem was made with reflink; df unchanged.
dev=$(awk -v m="$CR_MNT_XFS" '$2 == m { print $1 }' /proc/mounts)
xfs_db -r -c version "$dev" | grep -q REFLINK \
  || fail_ "the xfs scratch filesystem $dev was made without reflink"
scratch_dir_ "$CR_MNT_XFS"
make_data_ "$dir/src" $size
sync
df0=$(df_used_ "$CR_MNT_XFS")
copy_ "$dir/src" "$dir/dst"
sync
df1=$(df_used_ "$CR_MNT_XFS")
echo "xfs: df used $df0 -> $df1"
$gnu_cmp "$dir/src" "$dir/dst" || fail=1
shared_ "$dir/dst" || { cat fiemap.out; fail_ "xfs: the copy's extents are not all shared"; }
test $((df1 - df0)) -le $((size / 64)) \
  || fail_ "xfs: df used grew by $((df1 - df0)) bytes"

# NFSv4.2 over btrfs: CLONE on the wire, shared extents on the server.
scratch_dir_ "$CR_NFS_EXPORT_BTRFS"
cdir=$CR_MNT_NFS/${dir##*/}
make_data_ "$dir/src" $size
sync
set -- $(mountstat_ "$CR_MNT_NFS")
copy_ "$cdir/src" "$cdir/dst"
set -- "$@" $(mountstat_ "$CR_MNT_NFS")
copies=$(($7 - $1)) clones=$((${12} - $6)) payload=$((${10} - $4 + ${11} - $5))
echo "nfs over btrfs: COPY +$copies, CLONE +$clones, data bytes +$payload"
test $clones -ge 1 || fail_ "cpr's copy sent no CLONE"
test $copies = 0 || fail_ "cpr's copy sent $copies COPY ops"
test $payload -le $((size / 64)) || fail_ "$payload bytes of data crossed the wire"
$gnu_cmp "$cdir/src" "$cdir/dst" || fail=1
shared_ "$dir/dst" || { cat fiemap.out; fail_ "nfs: the server's copy is not all shared"; }
set -- $(btrfs_du_ "$dir/dst")
echo "on the server: dst total $1 exclusive $2 shared $3"
test "$2" = 0 || fail_ "nfs: $2 bytes of the server's copy are not shared"

Exit $fail
