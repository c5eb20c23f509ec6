#!/bin/sh
# cpr --jobs when memory runs out in the copy of one file, on a worker:
# what cpr says, its exit status and the -v lines before the failure are
# those of the same copy made one file at a time (--jobs=1), though a
# file before it is still being copied when memory runs out (the -v
# lines held behind it were once lost, the worker exiting at once); and
# once the worker has stopped, the main thread makes nothing more, where
# it once went on to make a directory of symlinks, unsaid.  (Before the
# worker stops, the main thread runs ahead of it as it always does.)

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
fail=0

oom=$abs_top_builddir/tests/cpr/oom.so
test -r "$oom" || framework_failure_ "no $oom"

# s/a/slow takes a second to open (oom.so), so its job is still running
# while the files after it are copied; memory runs out in the copy of
# s/b/f8, which reads the xattrs (-a) into memory.  s/b/z, which comes
# after it in most listings, takes a second to open too: the worker has
# stopped by the time the main thread makes z's symlinks.
mkdir -p s/a s/b && echo slow > s/a/slow &&
for i in $(seq 20); do echo $i > s/b/f$i || exit 1; done &&
mkdir s/b/z && for i in $(seq 300); do ln -s x$i s/b/z/l$i || exit 1; done ||
  framework_failure_

# run J: cpr --jobs=J -av into a new T, its output in out-J and err-J,
# with the exit status as the last line of err-J.
run ()
{
  rm -rf T && mkdir T || framework_failure_
  env CPR_OOM_SLOW=s/a/slow:s/b/z CPR_OOM_AT=s/b/f8 LD_PRELOAD="$oom" \
    cpr --jobs=$1 -av s/a s/b T/ > out-$1 2> err-$1
  echo $? >> err-$1
  sed -i 's|^[^ ]*cpr:|cpr:|' err-$1
}

run 1
printf '%s\n' 'cpr: memory exhausted' 1 > exp-err
compare exp-err err-1 ||
  framework_failure_ "oom.so did not make memory run out"
# The files come in the order of their inode numbers, which need not be
# that of their names: some files of s/b may come after s/b/f8.
grep -q "^'s/a/slow' -> 'T/a/slow'\$" out-1 &&
  grep -q "^'s/b/f8' -> 'T/b/f8'\$" out-1 ||
  framework_failure_ "--jobs=1 did not come to s/b/f8"
ref=$(find T | wc -l)

for j in 2 8; do
  for k in 1 2 3; do
    run $j
    compare out-1 out-$j || { echo "--jobs=$j, run $k: -v lines"; fail=1; }
    compare err-1 err-$j || { echo "--jobs=$j, run $k: diagnostics"; fail=1; }
    # At most the jobs the ring holds (4 for each worker, and 8), and z.
    made=$(find T | wc -l)
    test $made -le $((ref + 4 * j + 9)) || {
      echo "--jobs=$j, run $k: $made files made, against $ref"; fail=1; }
  done
done

Exit $fail
