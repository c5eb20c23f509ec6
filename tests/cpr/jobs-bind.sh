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
#   operands are on one mount and hold each other in no way ".." shows,
#   and the listing of s/x meets t's entries in the order they were
#   made: with s/f1 to s/f4 large, s/f5 to s/f8 small and s/d after
#   them, workers would make t/d's copy before the copies of f5 to f8,
#   and GNU cp, which stops at t/x/d (a directory into itself), copies
#   those that come before it.  A mount below a source is taken as a
#   way back into the copy: one file at a time.
#
#   An overlay shows its upper directory U/a as M/a, under a device
#   number of its own: "cp -rv M/a/. U/a/B" lists M/a/B, which is the
#   copy, as it fills, until the names grow past PATH_MAX (GNU cp
#   cannot see it either).  No identity says so: a copy from or onto
#   an overlay (or FUSE) is made one file at a time.  Each data call
#   sleeps 100 ms a MiB (the shim), so that a worker's file would be
#   listed while it is written, as the reviewer saw it: 0 bytes.
#
# Found by review (the reviewer's scripts, made cases here; each failed
# in all of its ten runs):
#
#   below_both: a tmpfs of its own on s/z, bound on d/q too: the copy
#   of s/q/f writes, through d/q/f, the file s/z/f that a worker reads.
#   below_dst: s/b bound on d/x: the copy of s/x fills s/b, which the
#   walk lists next.  moved: d, a bind mount of y moved onto a tmpfs
#   mounted after it, and y/q bound on s/z (mountinfo lists the tmpfs
#   last: the mount that shows a name is asked of statx, by its ID).
#   A mount below the source or the destination, or two mounts of one
#   file system, make the copy one file at a time, whatever they show.
#
#   born_later: "cp -rv l t/l/. t", l a symlink to sub: t/l/. is not
#   there when the copy starts, and is t/sub, within t, once l is
#   copied.  An operand not there is taken as within the destination.
#
#   dst_symlink: d/g, a symlink to ../s/f, the source of a copy in
#   flight; and dst_inflight: d/p, a symlink to a/f, the copy in flight
#   of s/a/f.  The main thread waits for every copy in flight before it
#   looks through, or writes, a file that is there already.  No mounts;
#   files are handed to workers.
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

mkdir fs && mount -t tmpfs -o size=768m tmpfs fs ||
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
# order_: t mounted on s/x, after four large files, four small ones and
# a directory.
order_ ()
{
  for i in 1 2 3 4; do cat "$big" > s/f$i || return; done
  for i in 5 6 7 8; do echo $i > s/f$i || return; done
  mkdir s/d t s/x && mount --bind t s/x
}
# into_: as order_, but the copy is "cp -rv s t" into the directory t,
# that is into t/s, on which s/sub is mounted: the check must look at
# t/s, where the copy goes, not at t.
into_ ()
{
  for i in 1 2 3 4; do cat "$big" > s/f$i || return; done
  for i in 5 6 7 8; do echo $i > s/f$i || return; done
  mkdir s/d s/sub t t/s && mount --bind s/sub t/s
}
# below_both_: a tmpfs on s/z, bound on d/q too.
below_both_ ()
{
  mkdir s/z s/q d d/z d/q && echo A > s/q/f &&
    mount -t tmpfs -o size=100m tmpfs s/z && cat "$big" > s/z/f &&
    mount --bind s/z d/q
}
# below_dst_: s/b bound on d/x; s/x holds large files, small ones and a
# directory.
below_dst_ ()
{
  mkdir s/x && for i in 1 2 3 4; do cat "$big" > s/x/f$i || return; done &&
    for i in 5 6 7 8; do echo $i > s/x/f$i || return; done &&
    mkdir s/x/dd s/b d d/x && mount --bind s/b d/x
}
# moved_: d, a bind mount of y moved onto a tmpfs mounted after it; y/q
# bound on s/z.
moved_ ()
{
  mkdir s/z s/q y y/q y/z stage d && cat "$big" > y/q/f && echo A > s/q/f &&
    mount --bind y/q s/z && mount --bind y stage &&
    mount -t tmpfs -o size=1m tmpfs d && mount --move stage d
}
# born_later_: l, a symlink to sub; t/sub/sub/x full, t/sub/x empty.
born_later_ ()
{
  ln -s sub l && mkdir t t/sub t/sub/sub t/sub/sub/x &&
    for i in 1 2 3 4; do cat "$big" > t/sub/sub/x/f$i || return; done &&
    for i in 5 6 7 8; do echo $i > t/sub/sub/x/f$i || return; done &&
    mkdir t/sub/sub/x/dd t/sub/x
}
# dst_symlink_: d/g, a symlink to ../s/f.
dst_symlink_ ()
{
  mkdir d && cat "$big" > s/f && echo P > s/g && ln -s ../s/f d/g
}
# dst_inflight_: d/p, a symlink to a/f, which the copy of s/a/f makes.
dst_inflight_ ()
{
  mkdir s/a d d/a && cat "$big" > s/a/f && echo P > s/p && ln -s a/f d/p
}
# overlay_: an overlay on M of upper directory U, a file in U/a and the
# destination U/a/B with a long name (B, 200 bytes), so that the copy's
# names pass PATH_MAX after a score of levels.
long_=$(printf '%0200d' 0 | tr 0 b)
overlay_ ()
{
  mkdir L U W M U/a && head -c 3000000 "$big" > U/a/f && mkdir U/a/$long_ &&
    mount -t overlay overlay -o lowerdir=L,upperdir=U,workdir=W M
}
overlay_ok_=yes
(mkdir fs/o fs/o/L fs/o/U fs/o/W fs/o/M &&
 mount -t overlay overlay -o lowerdir=fs/o/L,upperdir=fs/o/U,workdir=fs/o/W \
   fs/o/M && umount fs/o/M) 2> /dev/null || overlay_ok_=no
rm -rf fs/o

# run_ NAME SETUP BIN ARG...: in a fresh fs/w set up by SETUP, BIN/cp -rv
# ARG...; its output and exit status in NAME, and then the tree as
# tree-state sees it.
run_ ()
{
  name_=$1 setup_=$2 bin_=$3; shift 3
  umount -R fs/w 2> /dev/null
  rm -rf fs/w && mkdir fs/w && mount --bind fs/w fs/w || framework_failure_
  (cd fs/w && mkdir s && $setup_) || framework_failure_
  (cd fs/w && PATH="$OLDPWD/$bin_:$PATH" LD_PRELOAD="$preload_" \
     CPR_SHIM_SLEEP_NS=$sleep_ CPR_CHUNK_SIZE=1048576 \
     CPR_JOBS_REPORT="$OLDPWD/$name_.rep" cp -rv "$@" 2>&1
   echo "exit status $?") | sed "s/$long_/B/g" > $name_ || framework_failure_
  umount -R fs/w || framework_failure_
  if test -n "$deep_"; then
    # Past PATH_MAX for tree-state: the depth and size of each copy.
    find fs/w -name f -printf '%d %s\n' | sort -n >> $name_ ||
      framework_failure_
  else
    "$tree_state" snapshot fs/w >> $name_ || framework_failure_
  fi
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
  test -z "$witness_" ||
  grep "^'s/./sub/a' -> \|^'s/./x/a' -> \|^'s/./x/f5' -> \|^'M/a/./B/f' -> \|^'s/sub/f5' -> " \
    $n_.ref > /dev/null ||
    { echo "$n_: GNU cp did not copy the copy" >&2; cat $n_.ref; fail=1; }
}

preload_= sleep_=0 deep_= witness_=yes
case_ sub sub_ no s/. m
case_ inside inside_ no s/. t
case_ order order_ no s/. t
case_ into into_ no s t
witness_=
case_ below_both below_both_ no s/. d
case_ below_dst below_dst_ no s/. d
case_ moved moved_ no s/. d
case_ born_later born_later_ no l t/l/. t
case_ dst_symlink dst_symlink_ yes s/. d
case_ dst_inflight dst_inflight_ yes s/. d
if test $overlay_ok_ = yes; then
  preload_=$shim_ sleep_=100000000 deep_=yes witness_=yes
  case_ overlay overlay_ no M/a/. U/a/$long_
else
  echo "SKIP: overlay: cannot mount an overlay here"
fi

Exit $fail
