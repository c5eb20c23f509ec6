#!/bin/sh
# cpr --jobs --backup: the backup's name is chosen, and the existing file
# renamed to it, once the copies in flight are done: one of them may be
# about to make a file of that name.  src/f.~1~ is copied beside two
# slow copies while dst/src/f is backed up: a numbered backup must not
# take f.~1~ for a free name, nor a simple one rename f to an f~ in
# flight.  Compared with --jobs=1: the same tree, -v lines, diagnostics
# and exit status.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0

tree_state=$abs_top_builddir/tests/cpr/tree-state
test -x "$tree_state" || framework_failure_ "tree-state not built"

# The order of a directory's entries is that of their inode numbers,
# which most file systems give in the order of creation: s1 and s2 first,
# which keep two workers busy, then the backup-like name, then f.
for b in '.~1~' '~'; do
  mkdir src$b || framework_failure_
  head -c 4000000 /dev/urandom > "src$b/s1" &&
  head -c 4000000 /dev/urandom > "src$b/s2" &&
  echo 'new, named like a backup' > "src$b/f$b" &&
  echo 'new f' > "src$b/f" || framework_failure_
done

for b in '.~1~' '~'; do
  case $b in '~') opt=--backup=simple ;; *) opt=--backup=numbered ;; esac
  for jobs in 1 2 4; do
    rm -rf dst && mkdir -p "dst/src$b" && echo 'old f' > "dst/src$b/f" ||
      framework_failure_
    env LD_PRELOAD="$shim_" CPR_SHIM_SLEEP_NS=300000000 \
      CPR_CHUNK_SIZE=1048576 CPR_JOBS_REPORT="$PWD/rep" \
      cpr -rv $opt --jobs=$jobs "src$b" dst > out.$jobs 2>&1
    echo "exit status $?" >> out.$jobs
    "$tree_state" snapshot dst >> out.$jobs || framework_failure_
  done
  for jobs in 2 4; do
    compare out.1 out.$jobs || fail=1
  done
  test "$(tail -n 1 rep | sed 's/.* jobs \([0-9]*\) .*/\1/')" -gt 0 ||
    { echo "$opt: no file handed to a worker" >&2; fail=1; }
done

Exit $fail
