#!/bin/sh
# cpr --jobs, a copy into its own source: "cpr -r s/. s/sub" with s/sub
# there lists s/sub as a source after it copied files into it, and
# copies what it lists into s/sub/sub, in the order of the inode numbers
# (as GNU cp lists a directory), until it meets a directory that it made
# (s/sub/d, s/sub/sub), which it would copy into itself.  What it lists
# must be the files whole, and made in the order of a copy one file at a
# time: a file still being written, or made after a directory that came
# after it, would change the copy of the copy.
#
# Which inode numbers the files get is up to the file system (ext4 gives
# one freed a moment ago later on), and so, in GNU cp too, which of them
# come before the first directory.  So each run is checked against its
# own listing: the -v lines of what it copied from the directory that
# it listed after filling it are those of its files in the order of
# their inode numbers, up to the first directory, and their copies are
# whole.  The rest is compared with GNU cp and with --jobs=1: the same
# tree, -v lines, diagnostics and exit status.  Whether a worker's file
# was listed too soon depends on timing, and which inode numbers come
# first on the file system: so such a copy must be made one file at a
# time, as CPR_JOBS_REPORT tells, while one into a new directory, which
# is never listed, still hands its files to workers.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/cpr/jobs-lib.sh"
require_gnu_cp_

# Where it can (root, in a mount namespace of its own), each run's w is
# a tmpfs of its own, which numbers its inodes in the order it makes
# them: every run then lists its source in one order, GNU cp's too.  On
# the build tree's file system a run may list the new s/sub before s/a,
# stop there (a directory into itself) and copy none of the files.
own_tmpfs_=
if test -n "${CR_JOBS_NS-}"; then
  mkdir w && mount -t tmpfs -o size=64m tmpfs w && umount w && own_tmpfs_=yes
  rmdir w
fi
cleanup_ () { test -z "$own_tmpfs_" || umount w 2> /dev/null; }

# Both programs run as "cp", for the same diagnostics.
mkdir ref new && ln -s "$CR_REF" ref/cp && ln -s "$(command -v cpr)" new/cp ||
  framework_failure_
head -c 3000000 /dev/urandom > big || framework_failure_

# The source, made afresh in w for each run: a large file first, which
# keeps a worker busy (its data calls of 1 MiB take 100 ms each), small
# files and a directory after it.  SETUP makes the rest.
make_w_ ()
{
  test -z "$own_tmpfs_" || umount w 2> /dev/null
  rm -rf w && mkdir w || framework_failure_
  test -z "$own_tmpfs_" || mount -t tmpfs -o size=64m tmpfs w ||
    framework_failure_
  mkdir w/s || framework_failure_
  cat big > w/s/a || framework_failure_
  for i in 1 2 3; do
    echo $i > w/s/b$i || framework_failure_
  done
  mkdir w/s/d && echo c > w/s/d/c || framework_failure_
  $1
}

# listed_ NAME DIR COPY: check the run NAME against its own listing of
# w/DIR, a directory that it filled, whose copy is w/COPY: the -v lines
# of the entries copied from DIR ("'DIR/X' -> 'COPY/X'", as the run
# names them) are those of DIR's files in the order of their inode
# numbers, up to its first directory (one the copy made, which it would
# copy into itself); and those copies are whole.
listed_ ()
{
  ls -i w/$2 | sort -n | while read ino_ e_; do
    test -d "w/$2/$e_" && break
    echo "'$2/$e_' -> '$3/$e_'"
  done > $1.want
  grep "^'$2/" $1 > $1.got
  compare $1.want $1.got || return 1
  for e_ in $(sed "s|^'$2/\([^']*\)'.*|\1|" $1.got); do
    cmp "w/$2/$e_" "w/$3/$e_" || return 1
  done
}

# ordered_ NAME OPERAND: the -v lines of OPERAND's own entries in the
# run NAME come in the order of their inode numbers, as the run's
# listing of OPERAND met them.  Each run's source is made afresh, and
# its inode numbers with it, which the file system may hand out in
# another order each time (ext4 gives a number freed a moment ago): so
# this order is checked against each run's own source, and the rest of
# the lines is compared with GNU cp's with the operand's entries put in
# the order of their names (grouped_).
ordered_ ()
{
  ls -i w/$2 | sort -n | while read ino_ e_; do echo "$e_"; done > $1.inodes
  sed -n "s|^'$2/\([^/']*\)' -> .*|\1|p" $1 > $1.order
  grep -x -F -f $1.order $1.inodes > $1.inorder
  compare $1.inorder $1.order || { echo "$1: not in inode order" >&2; return 1; }
}

# grouped_ OPERAND < LINES: LINES with the output of each of OPERAND's
# own entries -- its -v line, and all that comes after it up to the next
# entry's: the lines of its own entries, its diagnostics -- moved as one
# block into the order of the entries' names.  What comes before the
# first entry, and from "exit status" on, stays where it is; the order
# within a block is kept.
grouped_ ()
{
  awk -v op="'$1/" '
    /^exit status / { tail = 1 }
    tail { print "~\t" NR "\t" $0; next }
    index($0, op) == 1 {
      e = substr($0, length(op) + 1)
      k = index(e, "'"'"' -> ")
      if (k > 1 && index(substr(e, 1, k - 1), "/") == 0) key = "1" substr(e, 1, k - 1)
    }
    { print (key == "" ? "0" : key) "\t" NR "\t" $0 }' |
    LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2n | cut -f3-
}

# run_ NAME SETUP BIN LISTED COPY [ARG]...: in a fresh w set up by
# SETUP, BIN/cp -rv ARG..., with the shim; output, status and tree in
# NAME; then checked against the listing of w/LISTED, copied to COPY
# (listed_; not with LISTED -), and what is left of it, once those
# lines are out, in NAME.rest.
run_ ()
{
  name_=$1 setup_=$2 bin_=$3 listed_=$4 copy_=$5; shift 5
  make_w_ $setup_
  (cd w && PATH="$OLDPWD/$bin_:$PATH" LD_PRELOAD="$shim_" \
     CPR_SHIM_SLEEP_NS=100000000 CPR_CHUNK_SIZE=1048576 \
     CPR_JOBS_REPORT="$OLDPWD/$name_.rep" cp -rv "$@" > ../$name_ 2>&1
   echo "exit status $?" >> ../$name_) || framework_failure_
  "$tree_state" snapshot w >> $name_ || framework_failure_
  ordered_ $name_ "$op_" || fail=1
  if test "x$listed_" = x-; then
    grouped_ "$op_" < $name_ > $name_.rest || framework_failure_
    return
  fi
  listed_ $name_ "$listed_" "$copy_" || fail=1
  # Out: the -v lines of the entries of the copy of LISTED, and their
  # snapshot lines (whose names are relative to w, without "/./").
  grep -v -e "^'$listed_/" -e "^$(echo "$copy_" | sed 's|/\./|/|')/" \
    $name_ | grouped_ "$op_" > $name_.rest
}

# case_ NAME SETUP LISTED COPY ARG...: ARG... copied by GNU cp,
# --jobs=1, --jobs=4; the last hands files to workers only if nothing
# that it fills is listed (LISTED -).
case_ ()
{
  n_=$1 s_=$2 l_=$3 c_=$4; shift 4
  op_=$1
  run_ $n_.ref "$s_" ref "$l_" "$c_" "$@"
  run_ $n_.1 "$s_" new "$l_" "$c_" --jobs=1 "$@"
  run_ $n_.4 "$s_" new "$l_" "$c_" --jobs=4 "$@"
  compare $n_.ref.rest $n_.1.rest || fail=1
  compare $n_.ref.rest $n_.4.rest || fail=1
  jobs_=$(sed -n 's/.* jobs \([0-9]*\) .*/\1/p' $n_.4.rep)
  if test "x$l_" = x-; then
    test "$jobs_" -gt 0 ||
      { echo "$*: no file handed to a worker" >&2; fail=1; }
  else
    test "$jobs_" = 0 ||
      { echo "$*: $jobs_ files handed to workers" >&2; fail=1; }
  fi
}

sub_ () { mkdir w/s/sub || framework_failure_; }
sub_s_ () { mkdir w/s/sub w/s/sub/s || framework_failure_; }

# Into s/sub, there already: s/sub is listed after its copies.
case_ dot sub_ s/./sub s/sub/./sub s/. s/sub
# Into s/sub/s, there already, through the target directory s/sub.
case_ merge sub_s_ s/sub/s s/sub/s/sub/s s s/sub
# Into a new s/sub: only s is listed, before any copy.
case_ new : - - s s/sub

Exit $fail
