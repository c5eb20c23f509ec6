#!/bin/sh
# A copy stopped at any system call is known to be unfinished: 'cpr -a' of
# a small tree is killed (SIGKILL, injected by strace) at every system
# call it makes from its first look at the destination on, each name at
# each of its occurrences in turn; then 'cpr -aTu' and, from a second
# killed run, 'cpr -aT --continue' must each leave the tree the same as
# the source, by data and attributes (tree-state snapshots, the mark's
# xattr included).  A file killed between its creation and its first mark
# would be empty and newer than its source, and -u would skip it.
# In the guest the same runs go on an NFS mount (CR_KILL_DIRS), at the
# calls that change the destination (CR_KILL_CALLS).

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
# FIFO, a user xattr, and a directory inside.
make_src_ ()
{
  mkdir $1 $1/sub &&
  head -c 5000 /dev/urandom > $1/small && head -c 70000 /dev/urandom > $1/big &&
  : > $1/empty && printf 'ro\n' > $1/sub/ro && chmod 0444 $1/sub/ro &&
  printf 'linked\n' > $1/sub/two && ln $1/sub/two $1/two &&
  ln -s small $1/sym && mkfifo $1/sub/pipe &&
  { setfattr -n user.colour -v blue $1/small 2> /dev/null || :; } &&
  "$tree_state" times $1
}

# points_ DIR: the kill points of a whole run, "NAME K" lines, K counting
# the calls of NAME from the start: every call from the first one that
# names the destination on (a kill at any call before it leaves what a
# kill there does: nothing); with CR_KILL_CALLS, only the calls it names,
# which should be those that change the destination or end the run (a
# kill at any other call leaves what a kill at the next of those leaves).
# strace cannot inject a call it has no name for (copy_range in the
# guest, "syscall_0x1c3"); kills at its neighbours leave what it can.
points_ ()
{
  rm -rf "$1/dst" &&
  strace -qq -o "$1/trace" env CPR_CHUNK_SIZE=32768 "$cpr" -aT "$1/src" "$1/dst" &&
  awk -v only=" ${CR_KILL_CALLS-} " '
    { name = $0; sub(/\(.*/, "", name) }
    name !~ /^[a-z0-9_]+$/ || name ~ /^syscall_/ { next }
    { n[name]++ }
    !started && name != "execve" && index($0, "/dst") { started = 1 }
    started && (only == "  " || index(only, " " name " ")) { print name, n[name] }
  ' "$1/trace"
}

# killed_ DIR NAME K: cpr -aT DIR/src DIR/dst killed at the K-th NAME; fail
# if it was not.
killed_ ()
{
  rm -rf "$1/dst"
  (strace -qq -o /dev/null -e trace=$2 \
     -e inject=$2:signal=SIGKILL:when=$3 \
     env CPR_CHUNK_SIZE=32768 "$cpr" -aT "$1/src" "$1/dst") 2> /dev/null
  test $? = 137 && return
  echo "not killed at $2 #$3"
  return 1
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
  points_ "$d" > points || framework_failure_
  runs=0 bad=0
  while read name k; do
    runs=$((runs + 1))
    killed_ "$d" $name $k || bad=$((bad + 1))
    "$cpr" -aTu "$d/src" "$d/dst" 2> err || { cat err; bad=$((bad + 1)); }
    same_ "$d" "killed at $name #$k, then cpr -aTu" || bad=$((bad + 1))
    killed_ "$d" $name $k || bad=$((bad + 1))
    "$cpr" -aT --continue "$d/src" "$d/dst" 2> err \
      || { cat err; bad=$((bad + 1)); }
    same_ "$d" "killed at $name #$k, then cpr -aT --continue" \
      || bad=$((bad + 1))
  done < points
  echo "$d: killed at each of $runs calls: $bad failures"
  test $bad = 0 && test $runs -gt 40 || fail=1
  rm -rf "$d"
done

Exit $fail
