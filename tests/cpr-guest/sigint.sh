#!/bin/sh
# In the guest: SIGINT in the middle of a multi-GiB copy (the kernel's copy
# through the page cache on ext4, slow in the guest) stops cpr promptly,
# and cpr dies of the signal, as GNU cp does.  So does SIGINT in the
# middle of one long NFS COPY (from the ext4 export, which copies on the
# server): cpr's calls there aim at a second, and one call of the whole
# file must not make it wait for the server either.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0
test -n "$COPYRANGE_GUEST" || skip_ "needs the patched kernel in the guest"

d=$(mktemp -d "${CR_MNT_EXT4?}/cpr-sigint.XXXXXX") || framework_failure_
n=
cleanup_ () { rm -rf "$d" ${n:+"$CR_NFS_EXPORT_EXT4/${n##*/}"}; }
# Allocated, not sparse-looking: one plain copy of 2 GiB.
fallocate -l 2G "$d/big" || framework_failure_

# interrupt_ PROG [DIR]: run PROG (split into words) DIR/big DIR/copy,
# DIR $d by default, SIGINT after 0.5 s; print its status and the
# milliseconds it took.
interrupt_ ()
{
  dir=${2-$d}
  rm -f "$dir/copy"
  start=$(date +%s%N)
  # Whatever the harness ignores, SIGINT has its default action here.
  /usr/bin/timeout --preserve-status -s INT 0.5 \
    /usr/bin/env --default-signal=INT $1 "$dir/big" "$dir/copy"
  status=$?
  end=$(date +%s%N)
  echo "$status $(( (end - start) / 1000000 ))"
}

set -- $(interrupt_ /bin/cp) || framework_failure_
gnu_status=$1 gnu_ms=$2
test "$gnu_status" = 0 && skip_ "GNU cp copied 2 GiB in ${gnu_ms}ms: too fast to interrupt"

set -- $(interrupt_ cpr) || framework_failure_
echo "cp: status $gnu_status in ${gnu_ms}ms; cpr: status $1 in $2 ms"
test "$1" = "$gnu_status" || fail=1
test "$1" = $((128 + 2)) || fail=1
# Promptly: within 2.5 s of the signal, with the copy left partial.
test "$2" -lt 3000 || fail=1
test "$(stat -c %s "$d/copy")" -lt $((2 * 1024 * 1024 * 1024)) || fail=1

# NFS: a file made on the server's side (the export shares the ext4
# disk: the files above make room), copied over the mount with one call
# for the whole of it (CPR_CHUNK_SIZE), seconds of the server's work, as
# GNU cp's one copy_file_range is.
rm -f "$d/big" "$d/copy"
n=$(mktemp -d "$CR_NFS_EXPORT_EXT4/cpr-sigint.XXXXXX") || framework_failure_
fallocate -l 1G "$n/big" || framework_failure_
n=$CR_MNT_NFS_EXT4/${n##*/}
set -- $(interrupt_ /bin/cp "$n") || framework_failure_
gnu_status=$1 gnu_ms=$2
if test "$gnu_status" = 0; then
  # A row skipped, not passed: tests/guest-run checks the reason.
  echo "SKIP: NFS: GNU cp copied 1 GiB in ${gnu_ms}ms: too fast to interrupt"
else
  set -- $(interrupt_ "env CPR_CHUNK_SIZE=1073741824 cpr" "$n") || framework_failure_
  echo "NFS: cp: status $gnu_status in ${gnu_ms}ms; cpr: status $1 in $2 ms"
  test "$1" = "$gnu_status" || fail=1
  test "$1" = $((128 + 2)) || fail=1
  test "$2" -lt 3000 || fail=1
fi

Exit $fail
