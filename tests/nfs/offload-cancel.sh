#!/bin/sh
# OFFLOAD_CANCEL racing an asynchronous COPY that ends on its own, the
# race of kernel patch 2: nfsd stops the copy's thread while the thread
# may be exiting, so the thread's task must be pinned until then.  Each
# round sends an asynchronous intra-server COPY of 2 MiB + 1 bytes (twice
# the mount's rsize, plus one: the size at which the Linux client starts
# asking for asynchronous copies) and cancels it 0 to 31 ms later (the
# delay sweeps the copy's life: not yet started, copying, over), on the btrfs
# export (a clone: the thread is over almost at once) and on the ext4
# export (a page-cache copy that the cancel can stop in its loop).
# Without the pin the debug kernel (make check-debug, CR_CANCEL_ROUNDS
# larger) reports a use-after-free in kthread_stop(); here the server
# must answer every round with NFS4_OK or NFS4ERR_BAD_STATEID, leave no
# copy thread behind, keep what it wrote a prefix of the source, and go
# on serving COPY.

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
rounds=${CR_CANCEL_ROUNDS-200}
size=$((2 * 1048576 + 1))

# copy_threads_: how many of nfsd's copy threads exist now.
copy_threads_ () { grep -lx 'copy thread' /proc/[0-9]*/comm 2>/dev/null | wc -l; }

for export in "$CR_NFS_EXPORT_BTRFS" "$CR_NFS_EXPORT_EXT4"; do
  fs=$(stat -f -c %T "$export") || framework_failure_ "stat -f $export"
  scratch_dir_ "$export"
  make_data_ "$dir/src" $size

  "$raw" -a -c $rounds "$dir/src" "$dir/dst" 0 0 $size > raw-out 2> raw-err
  st=$?
  out=$(cat raw-out)
  echo "$fs: $out (exit $st)"
  cat raw-err
  test $st = 0 || fail_ "cr-raw-copy failed before its rounds"
  case $out in
    "CANCEL $rounds rounds: "*) ;;
    *) echo "FAIL: $fs: the rounds stopped: $out"; fail=1 ;;
  esac
  # Every round synchronous would leave the race untried.
  case $out in
    *": 0 cancelled, 0 over, "*)
      echo "FAIL: $fs: the server copied every round synchronously"
      fail=1 ;;
  esac

  n=0
  while test "$(copy_threads_)" -gt 0 && test $n -lt 30; do
    sleep 1
    n=$((n + 1))
  done
  left=$(copy_threads_)
  test "$left" = 0 \
    || { echo "FAIL: $fs: $left copy threads 30 s on"; fail=1; }

  got=$(stat -c %s "$dir/dst")
  test "$got" -le $size && $gnu_cmp -n "$got" "$dir/src" "$dir/dst" \
    || { echo "FAIL: $fs: dst ($got bytes) is not a prefix"; fail=1; }

  # The server still copies: a synchronous COPY after the rounds.
  "$raw" "$dir/src" "$dir/dst2" 4096 0 65536 > raw-out 2> raw-err
  out=$(cat raw-out)
  test "$out" = 'COPY NFS4_OK 65536' \
    || { echo "FAIL: $fs: the COPY after the rounds: $out"; cat raw-err; fail=1; }
  $gnu_cmp -n 65536 "$dir/src" "$dir/dst2" 4096 0 || fail=1
done

Exit $fail
