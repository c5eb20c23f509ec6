#!/bin/sh
# --reflink: =always clones with FICLONE or fails as GNU cp fails (on a
# filesystem that cannot clone); =never moves the bytes with read/write;
# =auto offloads.  Run where the test directory is (ext4 on the build host;
# the guest tests cover btrfs).

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0
require_gnu_cp_

mkdir gnu ours || framework_failure_
ln -s "$CR_REF" gnu/cp || framework_failure_
ln -s "$abs_top_builddir/src/cpr" ours/cp || framework_failure_
head -c 1000000 /dev/urandom > a || framework_failure_

for prog in gnu ours; do
  rm -f b
  (PATH=$PWD/$prog:$PATH cp --reflink=always a b > $prog.out 2> $prog.err
   echo $? > $prog.status)
done
compare gnu.err ours.err || fail=1
compare gnu.status ours.status || fail=1
if test "$(cat gnu.status)" = 0; then
  cmp a b || fail=1
  cpr --debug --reflink=always a c > out || fail=1
  grep -q 'reflink: yes, .*method: FICLONE$' out || fail=1
else
  grep 'failed to clone' ours.err || fail=1
fi

cpr --debug --reflink=never a d > out || fail=1
cmp a d || fail=1
grep -q '^copy offload: avoided, reflink: no, .*method: read/write$' out \
  || fail=1

cpr --debug --reflink=auto a e > out || fail=1
cmp a e || fail=1
grep -q '^copy offload: yes, reflink: no, ' out || fail=1

Exit $fail
