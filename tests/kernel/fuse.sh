#!/bin/sh
# copy_range offloads through a filesystem's ->copy_file_range when that
# is its only offload (no ->copy_range, no ->remap_file_range): FUSE,
# served by tests/kernel/cr-fuse from memory, gets FUSE_COPY_FILE_RANGE
# requests and no FUSE_WRITE for the bytes copied, and the bytes are
# right, for a whole file, for an unaligned range into an existing file,
# and when the server copies less than asked each time.  The control: a
# server that answers COPY_FILE_RANGE with ENOSYS still gets the right
# bytes, written through the page cache.  On that server, where FUSE's
# ->copy_file_range copies through the page cache itself, the programs
# of interrupt.sh and restart.sh show (their "fuse" rows) that signals
# act as on the other filesystems: a timer's signal stops a 256 MiB copy
# early with partial progress, since the step is bounded there too, and
# the resumed loop gives an identical file; a SIGSTOP and SIGCONT, or a
# handler with SA_RESTART, make no call fail; a handler without
# SA_RESTART makes a call fail with EINTR only when it has copied
# nothing.  No kernel warning meanwhile (tests/guest-run checks).

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/offload-lib.sh"
kbin=${abs_top_builddir-$PWD/..}/tests/kernel
crfuse=$kbin/cr-fuse
for prog_ in cr-fuse cr-interrupt cr-restart; do
  test -x "$kbin/$prog_" || framework_failure_ "$kbin/$prog_ not built"
done
# The guest kernel has FUSE (kernel/guest.config): its absence is a failure.
test -c /dev/fuse || fail_ "no /dev/fuse: the guest kernel has no FUSE"
require_mnt_ CR_MNT_TMPFS

scratch_dir_ "$CR_MNT_TMPFS"
M=1048576
S=$((6 * M + 4099))		# the source: its last page is partial
make_data_ "$dir/ref" $S


# Unmount whatever a failure leaves mounted before the files go.
mounts=
cleanup_ ()
{
  for m in $mounts; do
    umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
  done
  test -z "$scratch_dirs_" || rm -rf $scratch_dirs_
}

# start_ NAME [OPTION...]: mount cr-fuse with OPTIONs on $dir/NAME; set
# mnt, pid (the server's), stats (its counts) and dump (where it leaves
# its files when unmounted).
start_ ()
{
  name=$1; shift
  mnt=$dir/$name stats=$dir/$name.stats dump=$dir/$name.dump
  mkdir "$mnt" "$dump" || framework_failure_ "mkdir $mnt"
  pid=$("$crfuse" "$@" -s "$stats" -d "$dump" "$mnt" 2> "server-$name.err")
  st_=$?
  cat "server-$name.err" >&2
  test $st_ = 0 && test -n "$pid" \
    || framework_failure_ "cr-fuse $* $mnt did not start"
  mounts="$mounts $mnt"
  echo "$name: cr-fuse $* serving $mnt as process $pid"
}

# wait_for_ SECONDS COMMAND...: run COMMAND every tenth of a second until
# it succeeds; fail if it has not within SECONDS.
wait_for_ ()
{
  tries_=$(($1 * 10)); shift
  until "$@"; do
    tries_=$((tries_ - 1))
    test $tries_ -gt 0 || return 1
    sleep 0.1
  done
}

# counts_ TAG: have the server write its counts now; set TAG_write,
# TAG_wbytes, TAG_copy and TAG_cbytes (WRITE and COPY_FILE_RANGE
# requests and the bytes they moved) and log them.
counts_ ()
{
  rm -f "$stats"
  kill -USR1 $pid || framework_failure_ "the server $pid is gone"
  wait_for_ 30 test -f "$stats" \
    || framework_failure_ "the server wrote no counts to $stats"
  count_set_ $1
}
count_set_ ()
{
  eval "$(awk -v t=$1 '
    $1 == "WRITE" { w = $2 }
    $1 == "WRITE_BYTES" { wb = $2 }
    $1 == "COPY_FILE_RANGE" { c = $2 }
    $1 == "COPY_FILE_RANGE_BYTES" { cb = $2 }
    END { printf "%s_write=%d %s_wbytes=%d %s_copy=%d %s_cbytes=%d\n",
                 t, w, t, wb, t, c, t, cb }' "$stats")"
  echo "$name $1: $(tr '\n' ' ' < "$stats")"
}

# copied_ BEFORE AFTER: print "COPY_REQUESTS COPY_BYTES WRITE_REQUESTS
# WRITE_BYTES" between two counts_.
copied_ ()
{
  eval "echo \$((\$${2}_copy - \$${1}_copy)) \$((\$${2}_cbytes - \$${1}_cbytes))" \
    "\$((\$${2}_write - \$${1}_write)) \$((\$${2}_wbytes - \$${1}_wbytes))"
}

# offloaded_ BEFORE AFTER BYTES: the server copied BYTES itself between
# the two counts, and wrote nothing.
offloaded_ ()
{
  set -- $(copied_ $1 $2) $3
  echo "$name: COPY_FILE_RANGE +$1 (+$2 bytes), WRITE +$3 (+$4 bytes)"
  if test $1 -lt 1 || test $2 != $5 || test $3 != 0; then
    echo "FAIL: $name: copy_range did not offload through" \
         "->copy_file_range: the server copied $2 of $5 bytes in $1" \
         "requests and got $3 WRITE requests ($4 bytes)"
    fail=1
  fi
}

# stop_: unmount, wait for the server to leave its files in $dump and
# its last counts in $stats.
stop_ ()
{
  umount "$mnt" || { echo "FAIL: $name: umount $mnt"; fail=1; return 1; }
  mounts=$(echo $mounts | tr ' ' '\n' | grep -vxF "$mnt")
  wait_for_ 60 eval '! kill -0 $pid 2>/dev/null' \
    || framework_failure_ "the server $pid did not end after the unmount"
  test -s "server-$name.err" && { cat "server-$name.err"; fail=1; }
  count_set_ end
}

# same_ EXPECTED FILE: FILE holds EXPECTED's bytes.
same_ ()
{
  $gnu_cmp "$1" "$2" \
    || { echo "FAIL: $name: $2 differs from $1"; fail=1; }
}

# 1. A whole file, then an unaligned range into the middle of it.
start_ offload
plain_copy_ "$dir/ref" "$mnt/src"
counts_ a
run_copy_ "$mnt/src" "$mnt/dst" || fail=1
counts_ b
offloaded_ a b $S
same_ "$dir/ref" "$mnt/dst"

so=4097 doff=1000001 n=$((2 * M + 3))
cp "$dir/ref" "$dir/expect" || framework_failure_ "cp"
$gnu_dd if="$dir/ref" of="$dir/expect" bs=$M skip=$so seek=$doff count=$n \
  iflag=skip_bytes,count_bytes oflag=seek_bytes conv=notrunc status=none \
  || framework_failure_ "dd"
run_copy_ -s $so -d $doff -n $n "$mnt/src" "$mnt/dst" || fail=1
counts_ c
offloaded_ b c $n
same_ "$dir/expect" "$mnt/dst"
stop_
# What the server holds, not only what the kernel reads back.
same_ "$dir/ref" "$dump/src"
same_ "$dir/expect" "$dump/dst"

# 2. The server copies at most 1 MiB per request: copy_range goes on
# offloading the rest.
start_ short -m $M
plain_copy_ "$dir/ref" "$mnt/src"
counts_ a
run_copy_ "$mnt/src" "$mnt/dst" || fail=1
counts_ b
offloaded_ a b $S
set -- $(copied_ a b)
test $1 -ge $(((S + M - 1) / M)) \
  || { echo "FAIL: $name: $1 COPY_FILE_RANGE requests for $S bytes"; fail=1; }
same_ "$dir/ref" "$mnt/dst"
stop_
same_ "$dir/ref" "$dump/dst"

# 3. The control: a server without COPY_FILE_RANGE.  FUSE then copies
# through the page cache itself, and copy_range gets the same bytes.
start_ nocopy -n
plain_copy_ "$dir/ref" "$mnt/src"
counts_ a
run_copy_ "$mnt/src" "$mnt/dst" || fail=1
counts_ b
set -- $(copied_ a b)
echo "$name: COPY_FILE_RANGE +$1 (+$2 bytes), WRITE +$3 (+$4 bytes)"
# One request at most: ENOSYS is remembered for the mount.
if test $1 -gt 1 || test $2 != 0 || test $3 -lt 1 || test $4 != $S; then
  echo "FAIL: $name: expected at most one COPY_FILE_RANGE, copying nothing," \
       "and $S bytes written with WRITE"
  fail=1
fi
same_ "$dir/ref" "$mnt/dst"
stop_
same_ "$dir/ref" "$dump/dst"

# 4. Signals, on the server without COPY_FILE_RANGE: the programs of
# interrupt.sh and restart.sh, each in a directory of its own on the
# mount.  A skip is a failure: the guest has FUSE and copy_range.
start_ signals -n
for prog_ in cr-interrupt cr-restart; do
  "$kbin/$prog_" fuse "$mnt" > out-$prog_ 2> err-$prog_
  st_=$?
  cat out-$prog_
  cat err-$prog_ >&2
  test $st_ = 0 \
    || { echo "FAIL: fuse: $prog_ exited with status $st_"; fail=1; }
done
stop_

# A kernel report while this ran fails it in tests/guest-run.

Exit $fail
