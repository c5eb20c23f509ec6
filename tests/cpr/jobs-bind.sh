#!/bin/sh
# cpr --jobs, a copy into its own source by way of a bind mount, which
# ".." does not lead through: the copy then lists, as a source, a
# directory that its workers fill, as in jobs-into-self.sh.
#
#   m, a bind mount of s/sub: "cp -rv s/. m" copies s's files into s/sub,
#   then lists s/sub, and copies what it finds there into s/sub/sub, up
#   to the directory it made there (s/sub/sub), which it would copy into
#   itself.  A copy between two mounts of one file system is made one
#   file at a time (CPR_JOBS_REPORT says no file was handed over).
#
#   t, mounted on s/x: "cp -rv s/. t" copies s/a into t, then meets t
#   again as s/x, lists it and copies what it finds there into t/x.  The
#   operands are on one mount and hold each other in no way ".." shows:
#   s/a goes to a worker, and the listing of s/x waits for it.
#
# Before, a file still being written was copied half (the reviewer saw
# s/sub/sub/a at 4194304 of 20000000 bytes in 7 runs of 10), or the
# copy of the directory was made before the worker created the file,
# which the listing then met after it, too late.  Each case runs ten
# times, each in a fresh tree, against GNU cp and --jobs=1: the same
# tree, -v lines, diagnostics and exit status.  On a tmpfs of our own,
# which numbers inodes in the order of creation, the order in which
# GNU cp lists a directory is that in which it made its files.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

# Re-run in a mount namespace of our own (before init.sh makes a directory).
if test -z "${CR_JOBS_NS-}" && test "$(id -u)" = 0 &&
   unshare -m --propagation private true 2>/dev/null; then
  CR_JOBS_NS=1; export CR_JOBS_NS
  exec unshare -m --propagation private "${SHELL-/bin/sh}" "$0" "$@"
fi

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
require_gnu_cp_
fail=0

test "$(id -u)" = 0 || skip_ "bind mounts need root"
test -n "${CR_JOBS_NS-}" || skip_ "no mount namespace of our own (unshare -m)"

tree_state=$abs_top_builddir/tests/cpr/tree-state
test -x "$tree_state" || framework_failure_ "tree-state not built"

mkdir fs && mount -t tmpfs -o size=256m tmpfs fs ||
  skip_ "cannot mount a tmpfs"
cleanup_ () { umount -R "$PWD/fs" 2> /dev/null; }
mkdir fs/x fs/y && mount --bind fs/x fs/y ||
  skip_ "cannot make a bind mount"
umount fs/y || framework_failure_

# Both programs run as "cp", for the same diagnostics.
mkdir ref new && ln -s "$CR_REF" ref/cp && ln -s "$(command -v cpr)" new/cp ||
  framework_failure_

# The source, in fs/w: s/a of 20,000,000 bytes (a worker's for a while),
# small files, and then the directory that the destination is, or is
# mounted on (made last, so that the listing meets it last).
mkdir fs/w fs/w/s || framework_failure_
big=$PWD/big
head -c 20000000 /dev/urandom > "$big" || framework_failure_

# sub_: m, a bind mount of s/sub.
sub_ ()
{
  cat "$big" > s/a && echo 1 > s/b1 && echo 2 > s/b2 && echo 3 > s/b3 &&
    mkdir s/sub m && mount --bind s/sub m
}
# inside_: t mounted on s/x.
inside_ ()
{
  cat "$big" > s/a && mkdir t s/x && mount --bind t s/x
}

# run_ NAME SETUP BIN ARG...: in a fresh fs/w set up by SETUP, BIN/cp -rv
# ARG...; its output and exit status in NAME, and then the tree as
# tree-state sees it.
run_ ()
{
  name_=$1 setup_=$2 bin_=$3; shift 3
  umount -R fs/w 2> /dev/null
  rm -rf fs/w && mkdir fs/w && mount --bind fs/w fs/w || framework_failure_
  (cd fs/w && mkdir s && $setup_) || framework_failure_
  (cd fs/w && PATH="$OLDPWD/$bin_:$PATH" \
     CPR_JOBS_REPORT="$OLDPWD/$name_.rep" cp -rv "$@" > ../../$name_ 2>&1
   echo "exit status $?" >> ../../$name_) || framework_failure_
  umount -R fs/w || framework_failure_
  "$tree_state" snapshot fs/w >> $name_ || framework_failure_
}

# case_ NAME SETUP HANDED ARG...: cp -rv ARG... by GNU cp, by --jobs=1
# and ten times by --jobs=4, which must all do the same.  HANDED: whether
# --jobs=4 hands files to workers (yes), or copies one file at a time.
case_ ()
{
  n_=$1 s_=$2 h_=$3; shift 3
  run_ $n_.ref $s_ ref "$@"
  run_ $n_.1 $s_ new --jobs=1 "$@"
  compare $n_.ref $n_.1 || fail=1
  for i_ in 1 2 3 4 5 6 7 8 9 10; do
    run_ $n_.4.$i_ $s_ new --jobs=4 "$@"
    compare $n_.ref $n_.4.$i_ || { fail=1; continue; }
    jobs_=$(sed -n 's/.* jobs \([0-9]*\) .*/\1/p' $n_.4.$i_.rep)
    if test $h_ = yes; then
      test "$jobs_" -gt 0 ||
        { echo "$n_: no file handed to a worker" >&2; fail=1; }
    else
      test "$jobs_" = 0 ||
        { echo "$n_: $jobs_ files handed to workers" >&2; fail=1; }
    fi
  done
  # The copy of the copy is whole, as GNU cp makes it.
  grep "^'s/./sub/a' -> \|^'s/./x/a' -> " $n_.ref > /dev/null ||
    { echo "$n_: GNU cp did not copy the copy" >&2; cat $n_.ref; fail=1; }
}

case_ sub sub_ no s/. m
case_ inside inside_ yes s/. t

Exit $fail
