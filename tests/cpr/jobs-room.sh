#!/bin/sh
# cpr --jobs, the room on the destination's file system for the copies
# side by side (src/copy.c, room_take), in numbers past 64 bits: a file
# of 2^63 - 1 bytes (sparse, on a tmpfs, whose files may be that long)
# does not fit on any file system, and is copied by the main thread in
# its turn; a file system that says it has 2^44 free blocks of a
# megabyte (the shim's CPR_SHIM_STATVFS) has room for any number of
# files, which workers copy.  Overflowing, the first became a file that
# takes no room, the second one with none.  Each compared with
# --jobs=1: the same tree, -v lines, diagnostics and exit status.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0

tree_state=$abs_top_builddir/tests/cpr/tree-state
test -x "$tree_state" || framework_failure_ "tree-state not built"

# run_ NAME JOBS DIR [VAR=VALUE]...: in DIR, cpr -rv --jobs=JOBS src
# dst with VAR=VALUE...; its output, status and tree in NAME.JOBS here
# (of a copy of huge, its size and mode: its data would take centuries
# to read), and the number of files it handed to workers in
# NAME.JOBS.jobs.
run_ ()
{
  name_=$1 jobs_=$2 dir_=$3; shift 3
  here_=$PWD
  rm -rf "$dir_/dst" "$dir_/huge" || framework_failure_
  (cd "$dir_" && env LD_PRELOAD="$shim_" CPR_JOBS_REPORT="$here_/rep" "$@" \
     cpr -rv --jobs=$jobs_ src dst > "$here_/$name_.$jobs_" 2>&1
   echo "exit status $?" >> "$here_/$name_.$jobs_")
  if test -e "$dir_/dst/huge"; then
    mv "$dir_/dst/huge" "$dir_/huge" &&
    stat -c 'huge %s %a' "$dir_/huge" >> $name_.$jobs_ || framework_failure_
  fi
  "$tree_state" snapshot "$dir_/dst" >> $name_.$jobs_ || framework_failure_
  tail -n 1 rep | sed 's/.* jobs \([0-9]*\) .*/\1/' > $name_.$jobs_.jobs
}

# Three small files, and a huge one among them.
mkdir src || framework_failure_
for f in a b c; do
  echo $f > src/$f || framework_failure_
done

# A file system of 2^64 bytes free, and as many in all.
huge=CPR_SHIM_STATVFS=1048576:0x100000000000:0x100000000000
run_ fs 1 . $huge
run_ fs 4 . $huge
compare fs.1 fs.4 || fail=1
test "$(cat fs.4.jobs)" = 3 ||
  { echo "2^64 bytes free: $(cat fs.4.jobs) files handed over" >&2; fail=1; }

# A file of 2^63 - 1 bytes, on a tmpfs.
if test "$(stat -f -c %T /dev/shm 2> /dev/null)" = tmpfs &&
   tree=$(mktemp -d /dev/shm/cpr-jobs-room.XXXXXX); then
  cleanup_ () { rm -rf "$tree"; }
  cp -R src "$tree/src" &&
  truncate -s 9223372036854775807 "$tree/src/huge" || framework_failure_
  run_ file 1 "$tree"
  run_ file 4 "$tree"
  compare file.1 file.4 || fail=1
  test "$(cat file.4.jobs)" = 3 ||
    { echo "2^63 - 1 bytes: $(cat file.4.jobs) files handed over" >&2;
      fail=1; }
fi

Exit $fail
