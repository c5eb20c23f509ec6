#!/bin/sh
# A copy stopped at any system call is known to be unfinished: 'cpr -a' of
# a small tree is killed (SIGKILL, injected by strace) at every system
# call it makes, each name at each of its occurrences in turn; then
# 'cpr -aTu' and, from a second killed run, 'cpr -aT --continue' must each
# leave the tree the same as the source, by data and attributes
# (tree-state snapshots, the mark's xattr included).  A file killed
# between its creation and its first mark would be empty and newer than
# its source, and -u would skip it.
# In the guest the same runs go on an NFS mount too (CR_KILL_DIRS).

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
fail=0

tree_state=$abs_top_builddir/tests/cpr/tree-state
test -x "$tree_state" || framework_failure_ "tree-state not built"
strace -V > /dev/null 2>&1 || skip_ "strace is needed"
cpr=$abs_top_builddir/src/cpr

# The tree: data in one call and in three (CPR_CHUNK_SIZE below), an
# empty file, a read-only file, a file with two names, a symlink, a
# user xattr, and a directory inside.
make_src_ ()
{
  mkdir $1 $1/sub &&
  head -c 5000 /dev/urandom > $1/small && head -c 70000 /dev/urandom > $1/big &&
  : > $1/empty && printf 'ro\n' > $1/sub/ro && chmod 0444 $1/sub/ro &&
  printf 'linked\n' > $1/sub/two && ln $1/sub/two $1/two &&
  ln -s small $1/sym &&
  { setfattr -n user.colour -v blue $1/small 2> /dev/null || :; } &&
  "$tree_state" times $1
}

# The calls of a whole run, by name and count: "NAME COUNT" lines.
calls_ ()
{
  rm -rf "$1/dst" &&
  strace -qq -o "$1/trace" env CPR_CHUNK_SIZE=32768 "$cpr" -aT "$1/src" "$1/dst" &&
  sed -n 's/^\([a-z0-9_]*\)(.*/\1/p' "$1/trace" | sort | uniq -c |
    awk '{ print $2, $1 }'
}

# killed_ DIR NAME K: cpr -a DIR/src DIR/dst killed at the K-th NAME.
killed_ ()
{
  rm -rf "$1/dst"
  (strace -qq -o /dev/null -e trace=$2 -e inject=$2:signal=SIGKILL:when=$3 \
    env CPR_CHUNK_SIZE=32768 "$cpr" -aT "$1/src" "$1/dst") 2> /dev/null
}

# same_ DIR WHAT: DIR/dst is DIR/src, else say WHAT and fail.
same_ ()
{
  "$tree_state" snapshot "$1/src" > "$1/snap.src" &&
  "$tree_state" snapshot "$1/dst" > "$1/snap.dst" || framework_failure_
  cmp -s "$1/snap.src" "$1/snap.dst" && return 0
  echo "$2:"; diff "$1/snap.src" "$1/snap.dst" | head -5
  return 1
}

dirs=${CR_KILL_DIRS-$PWD/here}
for d in $dirs; do
  d=$d/cr-kill.$$
  rm -rf "$d"; mkdir -p "$d" && make_src_ "$d/src" || framework_failure_
  calls_ "$d" > calls || framework_failure_
  runs=0 bad=0
  while read name count; do
    k=1
    while test $k -le $count; do
      runs=$((runs + 1))
      killed_ "$d" $name $k
      "$cpr" -aTu "$d/src" "$d/dst" 2> err || { cat err; bad=$((bad + 1)); }
      same_ "$d" "killed at $name #$k, then cpr -au" || bad=$((bad + 1))
      killed_ "$d" $name $k
      "$cpr" -aT --continue "$d/src" "$d/dst" 2> err \
        || { cat err; bad=$((bad + 1)); }
      same_ "$d" "killed at $name #$k, then cpr -a --continue" \
        || bad=$((bad + 1))
      k=$((k + 1))
    done
  done < calls
  echo "$d: killed at each of $runs calls: $bad failures"
  test $bad = 0 && test $runs -gt 50 || fail=1
  rm -rf "$d"
done

Exit $fail
