#!/bin/sh
# cpr --jobs -v: the lines of what the main thread copies meanwhile wait
# behind a file that a worker copies, to come out in order; but only so
# many of them (a megabyte), lest a tree of millions of symlinks behind
# one large file be held in memory whole.  Past that, the main thread
# waits for the copy before it goes on.  Here 20000 symlinks of long
# names (some 8 megabytes of -v lines) come after a large file whose
# copy takes some seconds: while that copy goes on, the main thread must
# stop well short of the last symlink.  And the whole compared with
# --jobs=1: the same tree, -v lines, diagnostics and exit status.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0

tree_state=$abs_top_builddir/tests/cpr/tree-state
test -x "$tree_state" || framework_failure_ "tree-state not built"

# big, then the symlinks, dangling (ln -s -t names each after its
# target).  The copy takes them in the order of their inode numbers,
# which the file system chooses: ext4 gives a symlink the number of a
# file removed a while ago, before big's.  A tmpfs mounted by a user
# (/dev/shm) gives them in the order of creation, since Linux 5.9: the
# tree is made there if it can be.  Those after big wait for it, and
# must be well over a megabyte of -v lines (4500 of some 410 bytes).
tree=.
if test "$(stat -f -c %T /dev/shm 2> /dev/null)" = tmpfs &&
   tree=$(mktemp -d /dev/shm/cpr-jobs-verbose.XXXXXX); then
  cleanup_ () { rm -rf "$tree"; }
else
  tree=.
fi
mkdir $tree/src || framework_failure_
head -c 4000000 /dev/urandom > $tree/src/big || framework_failure_
long=$(printf '%0190d' 0 | tr 0 x)
seq -f "/nowhere/$long%06.0f" 20000 | (cd $tree/src && xargs ln -s -t .) ||
  framework_failure_
test "$(ls $tree/src | wc -l)" = 20001 || framework_failure_
after=$(ls -i $tree/src | sort -n | awk 'f; $2 == "big" { f = 1 }' | wc -l)
test $after -ge 4500 ||
  skip_ "only $after symlinks after big in the order of inode numbers"

# cpr_ JOBS: cpr -rv --jobs=JOBS src dst in TREE, in the background,
# with the copy of big 4 seconds long; its output and status in out.JOBS
# here.
cpr_ ()
{
  rm -rf $tree/dst || framework_failure_
  here_=$PWD
  (cd $tree && env LD_PRELOAD="$shim_" CPR_SHIM_SLEEP_NS=1000000000 \
     CPR_CHUNK_SIZE=1048576 CPR_JOBS_REPORT="$here_/out.$1.rep" \
     cpr -rv --jobs=$1 src dst > "$here_/out.$1" 2>&1
   echo "exit status $?" >> "$here_/out.$1") &
  pid=$!
}

# settled_: wait until the number of entries in TREE/dst stays the same for
# a second, or cpr is done; print it, and succeed if cpr is not done.
settled_ ()
{
  n_=-1
  while :; do
    sleep 1
    m_=$(ls -U $tree/dst 2> /dev/null | wc -l)
    kill -0 $pid 2> /dev/null || { echo $m_; return 1; }
    test $m_ -gt 1 && test $m_ = $n_ && { echo $m_; return 0; }
    n_=$m_
  done
}

cpr_ 2
if n=$(settled_); then
  # The entries before big, big, and the symlinks of a megabyte of
  # lines after it (2560), give or take a few hundred.
  test $n -le $((20001 - after + 1 + 3000)) ||
    { echo "--jobs=2: $n entries copied behind big" >&2; fail=1; }
else
  echo "--jobs=2: done before the copies were seen (load?)" >&2
fi
wait $pid
"$tree_state" snapshot $tree/dst >> out.2 || framework_failure_
cpr_ 1
wait $pid
"$tree_state" snapshot $tree/dst >> out.1 || framework_failure_
compare out.1 out.2 || fail=1
test "$(sed -n 's/.* jobs \([0-9]*\) .*/\1/p' out.2.rep)" -gt 0 ||
  { echo "big not handed to a worker" >&2; fail=1; }

Exit $fail
