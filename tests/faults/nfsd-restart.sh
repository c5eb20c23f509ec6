#!/bin/sh
# The NFS server restarted (rpc.nfsd 0, then started again) in the middle
# of a large copy_range on the NFSv4.2 mount of the ext4 export, an
# asynchronous COPY on the server: the client's call ends -- with the
# whole copy or an error -- within CR_RESTART_WAIT seconds of the
# restart, and what the destination holds is a prefix of the source.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$abs_srcdir/tests/faults/lib.sh"
fail=0
require_mnt_ CR_MNT_NFS_EXT4
size=$(size_ "${CR_RESTART_SIZE-512M}")
wait_limit=${CR_RESTART_WAIT-240}
uptime_ () { cut -d' ' -f1 /proc/uptime; }

# The server as vm/guest-setup starts it.
nfsd_start_ () { rpc.nfsd -N 3 -V 4.2 --no-udp 4; }
server_up_=1
cleanup_ ()
{
  test $server_up_ = 1 || nfsd_start_
  faults_cleanup_
}

scratch_dir_ "$CR_NFS_EXPORT_EXT4"
cdir=$CR_MNT_NFS_EXT4/${dir##*/}
make_data_ "$dir/src" $size
drop_caches_
test "$(stat -c %s "$cdir/src")" = $size \
  || framework_failure_ "the client does not see $cdir/src"

"$crf" "$cdir/src" "$cdir/dst" > crf.out 2> crf.err &
pid=$!
sleep 1
kill -0 $pid 2> /dev/null \
  || fail_ "the copy ended before the restart: enlarge CR_RESTART_SIZE"
t0=$(uptime_)
server_up_=0
rpc.nfsd 0 || framework_failure_ "rpc.nfsd 0 failed"
t1=$(uptime_)
echo "rpc.nfsd 0 took $(awk "BEGIN { print $t1 - $t0 }") s;" \
     "the server's destination has $(stat -c %s "$dir/dst") bytes"
sleep 1
nfsd_start_ || framework_failure_ "cannot start nfsd again"
server_up_=1

n=0
while kill -0 $pid 2> /dev/null && test $n -lt $wait_limit; do
  sleep 1
  n=$((n + 1))
done
if kill -0 $pid 2> /dev/null; then
  echo "FAIL: the client's copy_range has not returned ${wait_limit}s" \
       "after the restart; its stack:"
  cat /proc/$pid/stack 2> /dev/null
  kill -KILL $pid
  fail=1
fi
wait $pid
st=$?
t2=$(uptime_)
echo "the copy ended $(awk "BEGIN { print $t2 - $t1 }") s after the restart:" \
     "status $st:" $(cat crf.out crf.err)
got=$(stat -c %s "$dir/dst")
echo "the destination has $got of $size bytes"
case $st in
  0) $gnu_cmp "$dir/src" "$dir/dst" \
       || { echo "FAIL: the copy succeeded, but the destination differs"; fail=1; } ;;
  1|137) test "$got" -le $size && prefix_ok_ "$dir/src" "$dir/dst" "$got" \
       || { echo "FAIL: the destination is not a prefix of the source"; fail=1; } ;;
  *) echo "FAIL: copy-range-file exited with $st"; fail=1 ;;
esac

Exit $fail
