#!/bin/sh
# nfsd stopped (rpc.nfsd 0) and started again, over and over, while short
# asynchronous COPYs are under way or just ending: the shutdown half of
# the race of kernel patch 2.  nfsd4_shutdown_copy() stops each copy's
# thread as it destroys the client, and a copy that ends on its own at
# that moment must neither send CB_OFFLOAD to a freed client nor leave
# kthread_stop() a reaped task; the debug kernel (make check-debug,
# CR_RESTART_ROUNDS larger) reports either.  Here: every stop returns
# within the test's limit with no copy thread left, the server comes back
# each time, and a COPY after the last round copies the right bytes.
# tests/faults/nfsd-restart.sh restarts the server once under the Linux
# client's own large copy.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/offload-lib.sh"
raw=${abs_top_builddir-$PWD/..}/tests/nfs/cr-raw-copy
test -x "$raw" || framework_failure_ "$raw not built"
test -n "${CR_NFS_EXPORT_EXT4-}" || skip_ "no NFS export"
test "$(cat /proc/fs/nfsd/threads 2>/dev/null)" -gt 0 2>/dev/null \
  || skip_ "nfsd is not running"
rounds=${CR_RESTART_ROUNDS-8}

# The server as vm/guest-setup starts it, its grace period ended.
nfsd_start_ ()
{
  rpc.nfsd -N 3 -V 4.2 --no-udp 4 || return 1
  echo Y 2> /dev/null > /proc/fs/nfsd/v4_end_grace
  return 0
}
server_up_=1
cleanup_ () { test $server_up_ = 1 || nfsd_start_; }
copy_threads_ () { grep -lx 'copy thread' /proc/[0-9]*/comm 2>/dev/null | wc -l; }

scratch_dir_ "$CR_NFS_EXPORT_EXT4"
make_data_ "$dir/small" $((2 * 1048576 + 1))
make_data_ "$dir/large" $((32 * 1048576))

i=0
while test $i -lt $rounds; do
  # Cycle through a copy that is over at once, one that ends about when
  # the stop comes, and one the stop interrupts, and vary the moment of
  # the stop.
  case $((i % 3)) in
    0) src=small sz=$((2 * 1048576 + 1)) ;;
    1) src=large sz=$((8 * 1048576)) ;;
    2) src=large sz=$((32 * 1048576)) ;;
  esac
  case $((i % 5)) in
    0) delay=0 ;; 1) delay=0.02 ;; 2) delay=0.05 ;; 3) delay=0.1 ;; 4) delay=0.3 ;;
  esac
  : > raw-out-$i
  timeout 120 "$raw" -a "$dir/$src" "$dir/dst-$i" 0 0 $sz > raw-out-$i 2>&1 &
  pid=$!
  # Wait until the COPY went out (or the client gave up), then stop.
  n=0
  while ! grep -q '^COPY' raw-out-$i && kill -0 $pid 2>/dev/null \
        && test $n -lt 600; do
    sleep 0.05
    n=$((n + 1))
  done
  sleep $delay
  server_up_=0
  timeout 120 rpc.nfsd 0 \
    || { echo "FAIL: round $i: rpc.nfsd 0 failed or hung"; fail=1; break; }
  left=$(copy_threads_)
  test "$left" = 0 \
    || { echo "FAIL: round $i: $left copy threads outlive the server"; fail=1; }
  nfsd_start_ || framework_failure_ "cannot start nfsd again"
  server_up_=1
  wait $pid
  st=$?
  echo "round $i: $src, stopped ${delay}s after its COPY:" $(cat raw-out-$i) \
       "(exit $st)"
  test $st != 124 || { echo "FAIL: round $i: the client hung"; fail=1; }
  i=$((i + 1))
done

out=$("$raw" "$dir/large" "$dir/dst-last" 4096 0 65536 2>&1)
test "$out" = 'COPY NFS4_OK 65536' \
  || { echo "FAIL: the COPY after the restarts: $out"; fail=1; }
$gnu_cmp -n 65536 "$dir/large" "$dir/dst-last" 4096 0 || fail=1

Exit $fail
