#!/bin/sh
# copy_range on NFS under a 20 ms timer, on the NFSv4.2 mounts of the
# btrfs and the ext4 export and on the NFSv4.1 mount: with an SA_RESTART
# handler a 256 MiB copy finishes, in a bounded number of COPYs (at
# least 4 MiB each, the size of the synchronous COPYs Linux nfsd makes);
# without SA_RESTART a call fails with EINTR only if the destination is
# unchanged.  Then SIGKILL in the middle of a copy: the server's copy
# threads end and the destination stops changing, and the next copy is
# not slowed by copies the server still runs for the killed one.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/nfs
. "$srcdir/tests/offload-lib.sh"
require_mnt_ CR_MNT_NFS
require_mnt_ CR_MNT_NFS_EXT4
require_mnt_ CR_MNT_NFS41

size=$((256 * 1048576 + 5))
max_copies=$((size / 4194304 + 1))
# How long the copy under the timer may take (a copy takes seconds).
deadline=${CR_SIGNALS_DEADLINE-240}

# bad_ MESSAGE: report a failure and go on with the other rows.
bad_ () { echo "FAIL: $*"; fail=1; }

uptime_ () { cut -d' ' -f1 /proc/uptime; }
copy_threads_ () { grep -lx 'copy thread' /proc/[0-9]*/comm 2>/dev/null | wc -l; }

# settle_ FILE: wait until no nfsd copy thread runs and FILE (server
# side) keeps its size for a second; fail after 60 s.
settle_ ()
{
  last_=-1 i_=0
  while test $i_ -lt 60; do
    s_=$(stat -c %s "$1" 2>/dev/null || echo none)
    test "$(copy_threads_)" = 0 && test "$s_" = "$last_" && return 0
    last_=$s_
    sleep 1
    i_=$((i_ + 1))
  done
  return 1
}

# row_ NAME MNT EXPORT
row_ ()
{
  scratch_dir_ "$3"
  c=$2/${dir##*/}
  make_data_ "$dir/src" $size
  sync

  # The control: how long the copy takes with no signal.
  t0=$(uptime_)
  cr-signals plain "$c/src" "$c/plain" || { bad_ "$1: the plain copy"; return; }
  plain_s=$(awk "BEGIN { print $(uptime_) - $t0 }")
  $gnu_cmp "$dir/src" "$dir/plain" || bad_ "$1: the plain copy differs"

  p0=$(nfs_ops_ "$2" COPY)
  timeout -s KILL $deadline cr-signals sa-restart "$c/src" "$c/timer" \
    || bad_ "$1: the copy under an SA_RESTART timer failed or was killed" \
            "after $deadline s, with $(stat -c %s "$dir/timer") of $size" \
            "bytes copied"
  copies=$(($(nfs_ops_ "$2" COPY) - p0))
  echo "$1: $copies COPYs under the timer"
  test $copies -le $max_copies \
    || bad_ "$1: $copies COPYs for 256 MiB, over $max_copies"
  $gnu_cmp "$dir/src" "$dir/timer" || bad_ "$1: the copy under the timer differs"

  timeout -s KILL 300 cr-signals no-restart "$c/src" "$c/eintr" \
    || bad_ "$1: EINTR without SA_RESTART"

  # SIGKILL once the server has started copying.
  cr-signals plain "$c/src" "$c/killed" & pid=$!
  i=0
  while test $i -lt 100 && test "$(stat -c %s "$dir/killed" 2>/dev/null \
                                   || echo 0)" = 0; do
    sleep 0.05; i=$((i + 1))
  done
  kill -KILL $pid; wait $pid
  settle_ "$dir/killed" \
    || bad_ "$1: 60 s after SIGKILL, $(copy_threads_) copy threads," \
            "the destination still growing"
  t0=$(uptime_)
  cr-signals plain "$c/src" "$c/after" || bad_ "$1: the copy after SIGKILL"
  after_s=$(awk "BEGIN { print $(uptime_) - $t0 }")
  echo "$1: a copy took $plain_s s before SIGKILL, $after_s s after"
  # A bound for a hang, not a measurement: the server still running
  # copies for the killed process made the next one take minutes.
  awk "BEGIN { exit !($after_s <= 4 * $plain_s + 20) }" \
    || bad_ "$1: the copy after SIGKILL took $after_s s"
  $gnu_cmp "$dir/src" "$dir/after" || bad_ "$1: the copy after SIGKILL differs"
  rm -rf "$dir"
}

row_ nfs-ext4 "$CR_MNT_NFS_EXT4" "$CR_NFS_EXPORT_EXT4"
row_ nfs-btrfs "$CR_MNT_NFS" "$CR_NFS_EXPORT_BTRFS"
row_ nfs41 "$CR_MNT_NFS41" "$CR_NFS_EXPORT_BTRFS"

Exit $fail
