#!/bin/sh
# cpr --jobs=8, a hundred times, on a generated tree of hard links,
# symlinks, sparse files, read-only directories and files of many sizes,
# with several sets of options and into destinations that are partly
# there already (with entries in the way: errors); each copy is compared
# with cpr --jobs=1's with the same options: the same tree (contents,
# modes, owners, link counts, holes, xattrs, and access and modification
# times to the nanosecond), the same -v and --debug lines in the same
# order, the same diagnostics in the same order, the same exit status.
# As an unprivileged user too, with unreadable files and directories.
# JOBS_STRESS_RUNS=N changes the hundred.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
fail=0

tree_state=$abs_top_builddir/tests/cpr/tree-state
test -x "$tree_state" || framework_failure_ "tree-state not built"
runs=${JOBS_STRESS_RUNS-100}
xattrs=no
: > probe && setfattr -n user.probe -v 1 probe 2> /dev/null && xattrs=yes
# Unprivileged users must reach the trees.
chmod a+rx . || framework_failure_

# make_tree_: the source tree, in ./src.
make_tree_ ()
{
  mkdir src && cd src || return
  for d in a a/b a/b/c a/d e f f/g ro ro/in; do mkdir $d || return; done
  # Files of many sizes, empty ones too, in every directory.
  n=0
  for d in . a a/b a/b/c a/d e f f/g ro ro/in; do
    for k in 1 2 3 4 5 6 7 8 9 10 11 12; do
      n=$((n + 1))
      head -c $((n * 397 % 6000 * (k % 4))) /dev/urandom > $d/file$k || return
    done
  done
  head -c 300000 /dev/urandom > a/big1 && head -c 150001 /dev/urandom > e/big2 &&
  # Sparse: holes at the start, the middle and the end.
  truncate -s 4M a/sparse1 && printf data >> a/sparse1 &&
  printf head > e/sparse2 && truncate -s 3M e/sparse2 &&
  head -c 70000 /dev/urandom > f/sparse3 && truncate -s 2M f/sparse3 &&
  head -c 9000 /dev/urandom >> f/sparse3 && truncate -s 5M f/sparse3 &&
  # Hard links within a directory and across directories.
  ln a/file3 a/link3 && ln a/file3 e/link3 && ln a/file3 f/g/link3 &&
  ln file5 a/b/c/link5 && ln e/file7 ro/in/link7 && ln e/big2 f/big2-link &&
  ln a/sparse1 f/sparse1-link &&
  # Symlinks: relative, absolute, dangling, to directories, hard-linked.
  ln -s file1 sym1 && ln -s ../e/file2 a/sym2 && ln -s "$PWD/a/file4" abs4 &&
  ln -s nowhere e/dangling && ln -s b a/symdir && ln -s ../.. a/b/c/up &&
  ln sym1 e/sym1-hard &&
  # Modes: read-only and private files and directories, set-ID bits.
  chmod 444 a/file1 && chmod 600 e/file2 && chmod 700 e/file3 &&
  chmod 4755 f/file4 && chmod 2750 f/file5 && chmod 1777 f/g &&
  mkfifo e/fifo &&
  if test $xattrs = yes; then
    setfattr -n user.one -v 1 a/file2 && setfattr -n user.two -v 22 e/big2 &&
    setfattr -n user.dir -v d a/b
  fi &&
  chmod 555 ro && chmod 500 ro/in && cd ..
}

# make_dst_: a destination directory, into which src is copied as
# dst/src, that holds part of the copy already, with entries in the way
# of some of it.
make_dst_ ()
{
  mkdir -p dst/src/a/b dst/src/e dst/src/f && printf old > dst/src/a/file1 &&
  mkdir dst/src/a/file2 dst/src/a/file6 && printf old > dst/src/f/g &&
  printf old > dst/src/e/file9 && chmod 400 dst/src/e/file9
}

# clean_: remove what copies left.
clean_ ()
{
  chmod -R u+rwx dst 2> /dev/null
  rm -rf dst
}

# run_ NAME JOBS OPTION...: copy src to dst with OPTION..., as $as_, into
# $dst_ (empty or make_dst_), and record the outcome in NAME.*.
run_ ()
{
  name_=$1 jobs_=$2; shift 2
  clean_
  test -z "$dst_" || $dst_ || framework_failure_ "$dst_"
  # Reading the sources (-a, even as root) changes their access times.
  "$tree_state" times src || framework_failure_
  $as_ env CPR_JOBS_REPORT="$PWD/$name_.rep" \
    cpr --jobs=$jobs_ "$@" src dst > $name_.out 2> $name_.err
  echo $? > $name_.rc
  "$tree_state" -a -b snapshot dst > $name_.tree || framework_failure_
}

# same_ OPTION...: compare the run of --jobs=8 with --jobs=1's.
same_ ()
{
  for what_ in rc out err tree; do
    compare ref.$what_ j8.$what_ > diff.$what_ 2>&1 || {
      echo "cpr --jobs=8 $*${as_:+ (as $as_user_)}, run $i: $what_ differs" >&2
      cat diff.$what_ >&2
      fail=1
    }
  done
}

make_tree_ || framework_failure_
# cpr's report of the files it handed to workers (CPR_JOBS_REPORT).
: > j8.rep || framework_failure_

# The sets of options: the runs go through them in turn.
set_1='-av'
set_2='-av --debug'
set_3='-rv'
set_4='-R --preserve=mode,timestamps -v'
set_5='-av --sparse=always'
set_6='-av --reflink=never --sparse=never'
set_7='-rLv'
set_8='-av --no-preserve=mode'
n_sets=8

i=0 as_= as_user_=
while test $i -lt $runs; do
  s=$((i % n_sets + 1))
  eval "opts=\$set_$s"
  # Every other round of the sets, into a destination in the way.
  dst_= tag_=new
  test $((i / n_sets % 2)) = 1 && dst_=make_dst_ tag_=dst
  if test $i -lt $((2 * n_sets)); then
    run_ ref 1 $opts
    for what_ in rc out err tree; do
      cp ref.$what_ ref.$s.$tag_.$what_ || framework_failure_
    done
  else
    for what_ in rc out err tree; do
      cp ref.$s.$tag_.$what_ ref.$what_ || framework_failure_
    done
  fi
  run_ j8 8 $opts
  same_ $opts
  i=$((i + 1))
done

# Something must have been copied, and said: not only errors.
test "$(cat ref.1.new.rc)" = 0 || { cat ref.1.new.err; fail=1; }
grep -q "file12'\$" ref.1.new.out || fail=1
test "$(cat ref.5.dst.rc)" = 1 || fail=1
grep -q 'cannot overwrite' ref.5.dst.err || fail=1

# The runs with --jobs=8 copied files side by side, with every set of
# options but -L's, which reaches every file through symbolic links
# (cpr(1) says why those stay with the main thread): without the room
# that --jobs wants on the file system (32 MiB and 1% of it, at most 1
# GiB) they would copy one at a time, and compare --jobs=1 with itself.
if test $runs -ge $n_sets; then
  awk -v sets=$n_sets -v deref=7 '
    { set = (NR - 1) % sets + 1
      if (set == deref ? $4 != 0 : $4 == 0) {
        printf "run %d, set %d: %s files handed to workers\n", NR - 1, set, $4
        bad = 1 } }
    END { exit bad }' j8.rep >&2 || { df -k . >&2; fail=1; }
fi

# Unprivileged, files and directories that cannot be read.
if test "$(id -u)" = 0 && id nobody > /dev/null 2>&1 &&
   setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
     -- test -x "$PWD" 2> /dev/null; then
  chmod -R u+w src && chmod 000 src/a/file5 src/e/big2 src/f/file7 &&
    chmod 000 src/a/d && chmod 555 src/ro src && chmod 500 src/ro/in ||
    framework_failure_
  # nobody makes dst here, and a report of its own: cpr writes to no
  # other user's.
  chmod 1777 . && rm -f j8.rep || framework_failure_
  as_="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups --"
  as_user_=nobody
  make_dst_nobody_ () { make_dst_ && chown -R nobody dst; }
  i=0
  while test $i -lt 10; do
    dst_=
    test $((i % 2)) = 1 && dst_=make_dst_nobody_
    opts='-rv'
    test $((i % 3)) = 0 && opts='-av'
    run_ ref 1 $opts
    run_ j8 8 $opts
    same_ $opts
    grep -q 'Permission denied' ref.err || { cat ref.err; fail=1; }
    test "$(tail -n 1 j8.rep | sed 's/.* jobs \([0-9]*\) .*/\1/')" -gt 0 ||
      { echo "run $i as nobody: no file handed to workers" >&2; fail=1; }
    i=$((i + 1))
  done
fi

Exit $fail
