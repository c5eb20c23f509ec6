#!/bin/sh
# cpr --jobs and the limit on address space (ulimit -v): where GNU cp
# copies a tree, cpr --jobs=8 and --jobs=256 copy it too (a worker's
# stack is not the stack limit's 8 MiB, and the stacks take at most a
# sixteenth of the limit); and where GNU cp runs out of memory part-way
# ("memory exhausted", listing a large directory), cpr --jobs=8 says
# the -v lines of the files copied before it first, as GNU cp does,
# instead of losing those its workers held.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
require_gnu_cp_
fail=0

# A directory of 30000 entries with long names, whose listing (savedir)
# takes a few MiB at once, among small files made before and after it:
# in the order of the listing (by inode number, as both programs copy)
# some of them come before it, whichever way the file system gives out
# inode numbers.
long=$(printf 'n%.0s' $(seq 200))
mkdir small top T && echo x > small/f &&
for i in 1 2 3 4; do echo $i > top/f$i || exit 1; done &&
mkdir top/zbig && (cd top/zbig && seq -f "$long%06g" 30000 | xargs touch) &&
for i in 1 2 3 4; do echo $i > top/g$i || exit 1; done ||
  framework_failure_

# limited KIB CMD...: CMD under an address space limit of KIB KiB.
limited () { (ulimit -v "$1" && shift && exec "$@"); }

limited 60000 "$CR_REF" -r small top/zbig T/ > out 2>&1 ||
  skip_ "GNU cp cannot copy the tree under ulimit -v 60000: $(cat out)"
for j in 8 256; do
  rm -rf T/* && limited 60000 cpr --jobs=$j -r small top/zbig T/ > out 2>&1 || {
    echo "cpr --jobs=$j under ulimit -v 60000 failed:"; cat out; fail=1; }
  test "$(find T -type f | wc -l)" = 30001 || {
    echo "cpr --jobs=$j under ulimit -v 60000: not all copied"; fail=1; }
done

# The lowest limit from 8 MiB up at which GNU cp runs out of memory
# inside the copy, not before it starts.
found=
for kib in 8000 9000 10000 11000 12000 13000 14000 16000 18000 20000; do
  rm -rf T/* && limited $kib "$CR_REF" -rv top T/ > ref.out 2>&1
  test $? = 1 && grep -q 'memory exhausted' ref.out &&
    grep -q "^'top/[fg][1-4]' ->" ref.out && { found=$kib; break; }
done
if test -z "$found"; then
  echo "no address space limit made GNU cp run out of memory part-way:"
  echo "the -v lines before it are not compared"
  test $fail = 0 && skip_ "no limit makes GNU cp run out of memory part-way"
else
  sed "s|^$CR_REF:|cp:|" ref.out > ref
  rm -rf T/* && limited $found cpr --jobs=8 -rv top T/ > cpr.out 2>&1
  echo $? > rc
  sed 's|^[^ ]*cpr:|cp:|' cpr.out > got
  compare ref got || { echo "cpr --jobs=8 under ulimit -v $found"; fail=1; }
  test "$(cat rc)" = 1 || { echo "exit status $(cat rc), not 1"; fail=1; }
fi

Exit $fail
