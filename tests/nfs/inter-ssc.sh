#!/bin/sh
# An inter-server COPY writes the destination as the client's user: an
# unprivileged user's copy into a set-user-ID and set-group-ID file of
# theirs clears both bits, as their write(2) would.  nfsd runs such a
# copy in a kernel thread, which has CAP_FSETID unless it takes the
# credentials of the request (kernel patch 0001).
#
# The Linux NFS client asks for an inter-server copy only between two
# servers, and the guest has one; but nfsd takes a COPY as inter-server
# when its arguments name a source server, and then reads the source as
# an NFS client of the server named.  So tests/nfs/cr-raw-copy, with the
# credential of uid 1000, sends COPY_NOTIFY on the source and an
# asynchronous COPY naming the server it returned (this server, on
# 127.0.0.1), and waits for the copy with OFFLOAD_STATUS; on the ext4
# and the btrfs export.  Then the destination must hold the source's
# bytes and mode 0755, and nfsd must have served READs of the source
# (the bytes it read, in /proc/net/rpc/nfsd): an intra-server copy
# reads nothing through nfsd.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/offload-lib.sh"
raw=${abs_top_builddir-$PWD/..}/tests/nfs/cr-raw-copy
test -x "$raw" || framework_failure_ "$raw not built"
test -n "${CR_NFS_EXPORT_BTRFS-}" && test -n "${CR_NFS_EXPORT_EXT4-}" \
  || skip_ "no NFS exports"
test "$(cat /proc/fs/nfsd/threads 2>/dev/null)" -gt 0 2>/dev/null \
  || skip_ "nfsd is not running"

# nfsd refuses inter-server copies (NFS4ERR_NOTSUPP) unless told.  The
# user looks the files up from the pseudo-root, the guest's /, which the
# initramfs makes mode 700; the test opens it for the time it runs.
param=/sys/module/nfsd/parameters/inter_copy_offload_enable
param_was=$(cat "$param") || framework_failure_ "no $param"
root_mode=$(stat -c %a /) || framework_failure_ "stat /"
cleanup_ ()
{
  echo "$param_was" > "$param"
  chmod "$root_mode" /
  test -z "$scratch_dirs_" || rm -rf $scratch_dirs_
}
echo Y > "$param" || framework_failure_ "cannot set $param"
chmod go+x / || framework_failure_ "chmod /"

fail=0
user=1000
size=$((3 * 1048576 + 13))
# nfsd_read_bytes_: the bytes of file data nfsd has read for clients.
nfsd_read_bytes_ () { awk '$1 == "io" { print $2 }' /proc/net/rpc/nfsd; }

for export in "$CR_NFS_EXPORT_EXT4" "$CR_NFS_EXPORT_BTRFS"; do
  scratch_dir_ "$export"
  # The user looks the files up from the pseudo-root.
  chmod 755 "$dir" || framework_failure_ "chmod $dir"
  make_data_ "$dir/src" $size
  chmod 644 "$dir/src" || framework_failure_ "chmod $dir/src"
  : > "$dir/dst" && chown $user:$user "$dir/dst" \
    && chmod 6755 "$dir/dst" || framework_failure_ "cannot make $dir/dst"
  test "$(stat -c %a "$dir/dst")" = 6755 \
    || framework_failure_ "$dir/dst is not mode 6755"
  sync

  read_before=$(nfsd_read_bytes_)
  "$raw" -u $user -g $user -i "$dir/src" "$dir/dst" 0 0 $size \
    > raw-out 2> raw-err
  st=$?
  read_after=$(nfsd_read_bytes_)
  echo "cr-raw-copy -i on $export (exit $st):"
  cat raw-out raw-err
  if test $st != 0; then
    echo "FAIL: cr-raw-copy failed on $export"
    fail=1
    continue
  fi
  sed -n 1p raw-out | grep '^COPY_NOTIFY NFS4_OK ' > /dev/null \
    || { echo "FAIL: COPY_NOTIFY was refused on $export"; fail=1; continue; }
  test "$(sed -n 2p raw-out)" = 'COPY NFS4_OK async' \
    || { echo "FAIL: no asynchronous COPY on $export"; fail=1; continue; }
  case $(sed -n 3p raw-out) in
    'OFFLOAD_STATUS done' | "OFFLOAD_STATUS done NFS4_OK $size") ;;
    *) echo "FAIL: the copy on $export did not end well"; fail=1; continue ;;
  esac

  # The control: the copy went through nfsd's READ, so it was an
  # inter-server one.
  read_bytes=$((read_after - read_before))
  echo "nfsd read $read_bytes bytes during the copy"
  if test $read_bytes -lt $size; then
    echo "FAIL: nfsd read $read_bytes bytes, not the source's $size:" \
         "the copy on $export was not inter-server"
    fail=1
  fi

  got=$(stat -c %s "$dir/dst") || framework_failure_ "stat $dir/dst"
  if test "$got" != $size; then
    echo "FAIL: the destination on $export has $got bytes, not $size"
    fail=1
  else
    $gnu_cmp "$dir/src" "$dir/dst" \
      || { echo "FAIL: the copy on $export has other bytes"; fail=1; }
  fi
  mode=$(stat -c '%a %u' "$dir/dst") || framework_failure_ "stat $dir/dst"
  if test "$mode" != "755 $user"; then
    echo "FAIL: after uid $user's inter-server copy on $export the" \
         "destination has mode and owner $mode, not 755 $user:" \
         "the set-ID bits were not cleared as write(2) clears them"
    fail=1
  fi
done

# An inter-server COPY whose destination range wraps past 2^64: the
# copy's vfs_copy_file_range() answers -EOVERFLOW, which nfsd must map to
# NFS4ERR_INVAL as on the intra-server path, not log as a non-standard
# errno (a WARN) and answer NFS4ERR_IO.
scratch_dir_ "$CR_NFS_EXPORT_EXT4"
chmod 755 "$dir" || framework_failure_ "chmod $dir"
make_data_ "$dir/src" 65536
chmod 644 "$dir/src" || framework_failure_ "chmod $dir/src"
"$raw" -i "$dir/src" "$dir/dst-wrap" 0 18446744073709547520 1048576 \
  > raw-out 2> raw-err
st=$?
echo "cr-raw-copy -i of a range that wraps past 2^64 (exit $st):"
cat raw-out raw-err
if test $st != 0; then
  echo "FAIL: cr-raw-copy of the wrapping range failed"
  fail=1
else
  case $(sed -n 2p raw-out) in
    'COPY NFS4ERR_INVAL') ;;
    'COPY NFS4_OK async')
      case $(sed -n 3p raw-out) in
        'OFFLOAD_STATUS done' | 'OFFLOAD_STATUS done NFS4ERR_INVAL 0') ;;
        *) echo "FAIL: the wrapping copy did not end in NFS4ERR_INVAL"
           fail=1 ;;
      esac ;;
    *) echo "FAIL: the wrapping copy was answered otherwise"; fail=1 ;;
  esac
fi
got=$(stat -c %s "$dir/dst-wrap") || framework_failure_ "stat $dir/dst-wrap"
test "$got" = 0 \
  || { echo "FAIL: the wrapping copy wrote $got bytes"; fail=1; }

# nfserrno()'s WARN for an errno it cannot map fails this test in
# tests/guest-run, which reads the kernel log after each test.

Exit $fail
