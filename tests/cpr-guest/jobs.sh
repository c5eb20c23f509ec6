#!/bin/sh
# In the guest, on every scratch file system and NFS mount: cpr -av
# --jobs=8 makes the copy that --jobs=1 makes (tree-state snapshots, and
# the same -v lines in the same order), and so does --jobs=auto, which
# copies 8 files at once onto the NFS mounts and one at a time onto the
# others (CPR_JOBS_REPORT); and a copy killed with SIGKILL
# while files are in flight, then 'cpr -a --continue --jobs=8', leaves
# that same copy.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0
test -n "$COPYRANGE_GUEST" || skip_ "needs the patched kernel in the guest"

tree_state=$abs_top_builddir/tests/cpr/tree-state
test -x "$tree_state" || framework_failure_ "tree-state not built"

# same_tree_ A B: A and B have the same contents and attributes.
same_tree_ ()
{
  "$tree_state" snapshot "$1" > snap.a && "$tree_state" snapshot "$2" > snap.b \
    || framework_failure_
  compare snap.a snap.b
}

# alive_ PID: whether process PID runs (a zombie does not).
alive_ ()
{
  read -r _ _ st_ _ < /proc/$1/stat 2> /dev/null && test "$st_" != Z
}

# The source: files of up to 3 chunks of 1 MiB in three directories, a
# hard link, a symlink, a read-only directory.
mkdir src src/ro || framework_failure_
for d in 1 2 3; do
  mkdir src/d$d || framework_failure_
  for i in 1 2 3 4 5 6 7 8; do
    head -c $((i * 350000 + d)) /dev/urandom > src/d$d/f$i || framework_failure_
  done
done
printf 'small\n' > src/small && : > src/empty && ln src/d1/f1 src/hard &&
  ln -s d1/f2 src/sym && chmod 0640 src/d2/f3 && printf 'ro\n' > src/ro/f &&
  chmod 0555 src/ro && "$tree_state" times src || framework_failure_

dirs=
cleanup_ () { test -z "$dirs" || { chmod -R u+w $dirs; rm -rf $dirs; }; }
for mnt in "$CR_MNT_BTRFS" "$CR_MNT_NFS" "$CR_MNT_NFS_EXT4" "$CR_MNT_NFS41" \
           "$CR_MNT_EXT4" "$CR_MNT_XFS" "$CR_MNT_TMPFS"; do
  d=$(mktemp -d "$mnt/cpr-jobs.XXXXXX") || { echo "no $mnt"; fail=1; continue; }
  dirs="$dirs $d"

  cpr -av --jobs=1 src "$d/one" > one.out 2>&1 || { cat one.out; fail=1; }
  cpr -av --jobs=8 src "$d/eight" > eight.out 2>&1 || { cat eight.out; fail=1; }
  sed "s|$d/eight|$d/one|" eight.out > eight.s || framework_failure_
  compare one.out eight.s || { echo "$mnt: -v differs"; fail=1; }
  same_tree_ "$d/one" "$d/eight" || { echo "$mnt: copies differ"; fail=1; }

  # --jobs=auto: 8 at once onto an NFS mount, one at a time elsewhere;
  # the copy is the same.
  rm -f auto.rep
  CPR_JOBS_REPORT=$PWD/auto.rep cpr -a --jobs=auto src "$d/auto" || fail=1
  same_tree_ "$d/one" "$d/auto" || { echo "$mnt: auto's copy differs"; fail=1; }
  case $mnt in
    "$CR_MNT_NFS"|"$CR_MNT_NFS_EXT4"|"$CR_MNT_NFS41")
      grep '^workers 8 jobs [1-9]' auto.rep > /dev/null ;;
    *) grep '^workers 0 jobs 0 ' auto.rep > /dev/null ;;
  esac || { echo "$mnt: --jobs=auto: $(cat auto.rep)"; fail=1; }

  # Every data call 0.3 s slower: kill -9 once a copy is seen unfinished
  # (the sticky bit of a file cpr made), a second into the copy at the
  # latest.  env execs cpr: $! is cpr.
  env LD_PRELOAD="$shim_" CPR_CHUNK_SIZE=1048576 CPR_SHIM_SLEEP_NS=300000000 \
    cpr -aT --jobs=8 src "$d/killed" &
  pid=$!
  i=0
  until test -n "$($find_ "$d/killed" -type f -perm -1000 2> /dev/null)" \
        || ! alive_ $pid || test $i -ge 10; do
    sleep 0.1 2> /dev/null || sleep 1
    i=$((i + 1))
  done
  kill -KILL $pid
  wait $pid
  rc=$?
  test $rc = 137 || { echo "$mnt: status $rc, not killed"; fail=1; }
  cpr -aT --continue --jobs=8 src "$d/killed" || fail=1
  same_tree_ "$d/one" "$d/killed" || { echo "$mnt: continued copy differs"; fail=1; }
done

Exit $fail
