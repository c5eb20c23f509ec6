#!/bin/sh
# SIGKILL of cpr in the middle of a copy, on ext4 (the kernel's copy
# through the page cache) and on the NFSv4.2 mount of the ext4 export
# (an asynchronous COPY on the server): cpr dies at once, and what the
# destination holds, once the server has stopped too, is a prefix of the
# source.  A task stuck in the kernel would show as a hung task, which
# fails the whole guest run.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$abs_srcdir/tests/faults/lib.sh"
fail=0
require_mnt_ CR_MNT_EXT4
require_mnt_ CR_MNT_NFS_EXT4
size=$(size_ "${CR_KILL_SIZE-256M}")
cpr=$(command -v cpr) || framework_failure_ "cpr not built"

uptime_ () { cut -d' ' -f1 /proc/uptime; }
# seconds_ T0 T1: T1 - T0, to the hundredth.
seconds_ () { awk "BEGIN { printf \"%.2f\", $2 - $1 }"; }

# kill_on_ NAME SRC DST SERVER_DST: cpr SRC DST, killed after a moment;
# SERVER_DST is the destination as the server side sees it.
kill_on_ ()
{
  "$cpr" "$2" "$3" 2> cpr.err &
  pid=$!
  sleep 0.3
  if ! kill -0 $pid 2> /dev/null; then
    wait $pid
    echo "FAIL: $1: cpr finished the $size-byte copy before the kill" \
         "(status $?): enlarge CR_KILL_SIZE"
    fail=1
    return
  fi
  t0=$(uptime_)
  kill -KILL $pid
  wait $pid
  st=$?
  t1=$(uptime_)
  took=$(seconds_ $t0 $t1)
  echo "$1: cpr killed: status $st after $took s:" $(cat cpr.err)
  test $st = 137 || { echo "FAIL: $1: cpr's status is $st, not 137"; fail=1; }
  awk "BEGIN { exit !($took < 5) }" \
    || { echo "FAIL: $1: cpr took $took s to die"; fail=1; }
  # A server may go on for a moment: wait until the size stands still.
  prev=-1 n=0
  while n=$((n + 1)); test $n -le 60; do
    now=$(stat -c %s "$4") || break
    test "$now" = "$prev" && break
    prev=$now
    sleep 1
  done
  got=$(stat -c %s "$4")
  echo "$1: the destination has $got of $size bytes"
  test "$got" -le "$size" \
    || { echo "FAIL: $1: the destination is larger than the source"; fail=1; }
  prefix_ok_ "$2" "$4" "$got" \
    || { echo "FAIL: $1: the destination is not a prefix of the source"; fail=1; }
}

scratch_dir_ "$CR_MNT_EXT4"
make_data_ "$dir/src" $size
drop_caches_
kill_on_ ext4 "$dir/src" "$dir/dst" "$dir/dst"

scratch_dir_ "$CR_NFS_EXPORT_EXT4"
cdir=$CR_MNT_NFS_EXT4/${dir##*/}
make_data_ "$dir/src" $size
drop_caches_
test "$(stat -c %s "$cdir/src")" = $size \
  || framework_failure_ "the client does not see $cdir/src"
kill_on_ nfs-ext4 "$cdir/src" "$cdir/dst" "$dir/dst"

Exit $fail
