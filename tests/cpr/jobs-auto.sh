#!/bin/sh
# --jobs=auto where the destination is a local file system: one file at
# a time, with nothing that --jobs=1 would not do.  It settles on a
# number once, from the destination's file system, before the copy
# starts, and then makes the very calls of --jobs=1 and one statfs more
# (strace, the calls that are not about memory, counted by name); the
# copy is the same, and no file is handed to a worker (CPR_JOBS_REPORT).
# Before, it settled on the first file that could be handed over, and
# until then, and after it, made the probes that copies side by side
# need: the mounts read, each destination directory opened, its flags
# and file system asked for (on btrfs in the guest, 6% slower than
# --jobs=1 on a tree of 2,000 files).  What it picks on a network file
# system, tests/cpr-guest/jobs.sh checks on the guest's NFS mounts.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
fail=0

strace -V > /dev/null 2>&1 || skip_ "strace is needed to count the calls"
case $(stat -f -c %T .) in
  nfs*|smb*|cifs|ceph|afs|lustre|gpfs|v9fs)
    skip_ "the build tree is on a network file system" ;;
esac

tree_state=$abs_top_builddir/tests/cpr/tree-state
test -x "$tree_state" || framework_failure_ "tree-state not built"

mkdir src src/a src/a/b src/c || framework_failure_
for d in src src/a src/a/b src/c; do
  for i in 1 2 3 4 5; do
    printf '%s %s\n' $d $i > $d/f$i || framework_failure_
  done
done
ln -s f1 src/c/sym && "$tree_state" times src || framework_failure_

# calls_ JOBS NAME ARG...: cpr -a --jobs=JOBS ARG... under strace; the
# names of the calls made, with their counts, in NAME.calls, and the
# report in NAME.rep.
calls_ ()
{
  j_=$1 n_=$2; shift 2
  CPR_JOBS_REPORT=$PWD/$n_.rep strace -f -qq -e 'trace=!%memory' \
    -o $n_.strace cpr -a --jobs=$j_ "$@" || fail=1
  sed -n 's/^[0-9]* *\([a-z_0-9]*\)(.*/\1/p' $n_.strace | sort | uniq -c \
    > $n_.calls || framework_failure_
}

# same_calls_ A B N: B's calls are A's, and N statfs more.
same_calls_ ()
{
  awk -v n=$3 '$2 == "statfs" { $1 += n; seen = 1 } { print $1, $2 }
       END { if (!seen) print n, "statfs" }' $1.calls | sort -k2 > exp ||
    framework_failure_
  awk '{ print $1, $2 }' $2.calls | sort -k2 > out || framework_failure_
  compare exp out || fail=1
}

# The destinations' names have the same length, for the same calls.
# Onto a new name: statfs fails on it, and asks its directory.  Into a
# directory: statfs asks it.
calls_ 1 one src one
calls_ auto aut src aut
same_calls_ one aut 2
mkdir dir1 dir2 || framework_failure_
calls_ 1 in1 src dir1
calls_ auto in2 src dir2
same_calls_ in1 in2 1

for r in aut in2; do
  grep '^workers 0 jobs 0 ' $r.rep > /dev/null ||
    { echo "--jobs=auto: $(cat $r.rep)" >&2; fail=1; }
done
"$tree_state" snapshot one > one.snap || framework_failure_
for d in aut dir1/src dir2/src; do
  "$tree_state" snapshot $d > snap || framework_failure_
  compare one.snap snap || fail=1
done

Exit $fail
