#!/bin/sh
# cpr --jobs and descriptors open before it starts: with a limit on open
# files (RLIMIT_NOFILE) well above what --jobs=8 needs, but most of it
# taken by descriptors that cpr inherits, the workers must not take the
# few left, which the main thread needs to list directories and set
# their attributes.  Compared with --jobs=1, which copies the tree with
# a handful: the same tree, -v lines, diagnostics and exit status, and
# nothing out of descriptors.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0

tree_state=$abs_top_builddir/tests/cpr/tree-state
test -x "$tree_state" || framework_failure_ "tree-state not built"
perl -e 1 2> /dev/null || skip_ "no perl, which holds the descriptors"

# The limit, and the descriptors held open: 6 left, room for the copy
# of a tree one file at a time, or for the workers' copies of 3 files,
# but not for both.  1100 is more than the 1024 that cpr used to take
# for room enough without counting what is open.
limit=1100
held=$((limit - 3 - 6))
(ulimit -n $limit) 2> /dev/null ||
  skip_ "the shell cannot set ulimit -n $limit"

# Files that keep the workers busy, slow (below), then a directory: the
# main thread goes on with the files that the workers hand back, and
# lists the directory, while copies hold descriptors.
mkdir src || framework_failure_
for i in 1 2 3 4 5 6 7 8 9 10; do
  head -c 2000000 /dev/urandom > src/f$i || framework_failure_
done
mkdir src/sub || framework_failure_
for i in 1 2 3; do
  echo $i > src/sub/g$i || framework_failure_
done
"$tree_state" times src || framework_failure_

# run_ JOBS: cpr -av --jobs=JOBS src dst under the limit, with HELD
# descriptors open on /dev/null beyond 0, 1 and 2 ($^F: perl lets
# them through exec), and each data call of 1 MiB 100 ms long, so that
# copies overlap; its output, status and tree in out.JOBS, its report in
# out.JOBS.rep.
run_ ()
{
  rm -rf dst || framework_failure_
  (
    ulimit -n $limit || framework_failure_
    env LD_PRELOAD="$shim_" CPR_SHIM_SLEEP_NS=100000000 \
      CPR_CHUNK_SIZE=1048576 CPR_JOBS_REPORT="$PWD/out.$1.rep" \
      perl -e '$^F = 1 << 20; my @fds;
               for (1 .. shift) { open my $fh, "<", "/dev/null" or die;
                                  push @fds, $fh }
               exec @ARGV or die' \
      $held cpr -av --jobs=$1 src dst > out.$1 2>&1
    echo "exit status $?" >> out.$1
  )
  "$tree_state" snapshot dst >> out.$1 || framework_failure_
}

run_ 1
run_ 8
compare out.1 out.8 || fail=1
grep 'Too many open files' out.8 && fail=1
diff -r src dst || fail=1

Exit $fail
