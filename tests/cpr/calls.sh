#!/bin/sh
# The system calls a copy makes per file of a tree, side by side with
# GNU cp: in a tree of many small files they are most of the cost, and
# cpr must not make more of them than GNU cp does, the two that set and
# remove the mark of a partial copy included.  Counted by strace -c, as
# the difference between a tree of 60 files and one of 10, so that what
# each program does once (start-up, locale) cancels out.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
fail=0

. "$srcdir/tests/trace-lib.sh"

# make_tree DIR N: N files of a few KiB, five to a folder.
make_tree ()
{
  i=0
  while test $i -lt $2; do
    mkdir -p $1/d$((i / 5)) &&
    head -c $((1000 + i * 37)) /dev/urandom > $1/d$((i / 5))/f$i || return 1
    i=$((i + 1))
  done
}
make_tree small 10 && make_tree big 60 || framework_failure_
# Where the file system clones, GNU cp's one FICLONE per file is all its
# data calls; the comparison is for copies that move the data.
"$CR_REF" --reflink=always small/d0/f0 clone-probe 2> /dev/null \
  && skip_ "the test directory's file system clones files (FICLONE)"

# strace -c's last line: "100.00 SECONDS USECS/CALL CALLS [ERRORS] total".
total_calls ()
{
  awk '$NF == "total" { print $4 }' calls.out
}

# per_file PROGRAM [STRACE-OPTION...]
per_file ()
{
  prog=$1; shift
  rm -rf copy && strace -f -c -o calls.out "$@" "$prog" -a small copy \
    || { echo "$prog -a small copy failed"; return 1; }
  a=$(total_calls) &&
  rm -rf copy && strace -f -c -o calls.out "$@" "$prog" -a big copy \
    || { echo "$prog -a big copy failed"; return 1; }
  b=$(total_calls) &&
  test -n "$a" && test -n "$b" &&
  echo $((b - a))
}

# The calls for the 50 more files of the big tree.
ref=$(per_file "$CR_REF") || framework_failure_
new=$(per_file cpr) || fail=1
each="GNU cp $(awk "BEGIN { print $ref / 50 }")"
each="$each, cpr $(awk "BEGIN { print $new / 50 }")"
echo "system calls per file of a tree, -a: $each"
test "$new" -le "$ref" || {
  echo "cpr makes more system calls per file than GNU cp: $each"
  fail=1
}

# Of those, the ones that change a file's metadata: each is a journal
# transaction (a round trip on NFS), the dearest calls of a small file.
# cpr's sticky bit of an unfinished copy must cost no more of them.
meta=trace=fchmod,fchmodat,fchown,fchownat,lchown,fsetxattr,setxattr
meta=$meta,lsetxattr,fremovexattr,removexattr,lremovexattr,utimensat
meta=$meta,ftruncate,truncate
ref=$(per_file "$CR_REF" -e "$meta") || framework_failure_
new=$(per_file cpr -e "$meta") || fail=1
each="GNU cp $(awk "BEGIN { print $ref / 50 }")"
each="$each, cpr $(awk "BEGIN { print $new / 50 }")"
echo "metadata updates per file of a tree, -a: $each"
test "$new" -le "$ref" || {
  echo "cpr updates metadata more often per file than GNU cp: $each"
  fail=1
}

# Reading a source's xattrs: one call for the list and one a value,
# where GNU cp (libattr) asks for each size first, a round trip more a
# file on NFS.  Each file of the trees has one user xattr.
have_xattr=yes
for f in $(find small big -type f); do
  setfattr -n user.t -v "$f" $f 2> /dev/null || { have_xattr=no; break; }
done
if test $have_xattr = yes; then
  xcalls=trace=flistxattr,llistxattr,listxattr,fgetxattr,lgetxattr,getxattr
  for prog in "$CR_REF" cpr; do
    for t in small big; do
      rm -rf copy && strace -f -o $t.xtrace -e "$xcalls" $prog -a $t copy \
        || { echo "$prog -a $t copy failed"; fail=1; }
    done
    # The calls for the 50 more files and 10 more folders: the lists,
    # the user.t values.
    lists=$(($(grep -c 'listxattr(' big.xtrace)
             - $(grep -c 'listxattr(' small.xtrace)))
    values=$(($(grep -c 'getxattr([^,]*, "user\.t"' big.xtrace)
              - $(grep -c 'getxattr([^,]*, "user\.t"' small.xtrace)))
    echo "$prog: $lists xattr lists, $values user.t reads for 60 files"
  done
  test "$lists" = 60 && test "$values" = 50 || {
    echo "cpr read a source's xattrs in more calls than one each"; fail=1; }
  for f in $(cd big && find . -type f); do
    test "$(getfattr --only-values -n user.t copy/$f)" = "big/${f#./}" \
      || { echo "copy/$f: user.t not copied"; fail=1; }
  done
else
  echo "no user xattrs here: their calls are not counted"
fi

Exit $fail
