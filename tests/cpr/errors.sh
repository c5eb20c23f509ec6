#!/bin/sh
# Failures while copying: missing sources, directories without -r, the same
# file as source and destination (also through links), a directory into
# itself, directory/non-directory clashes, just-created destinations, and
# the exit status when only some operands fail.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

setup_tree ()
{
  printf 'a\n' > a && printf 'b\n' > b &&
  ln a hard && ln -s a sym && ln -s nowhere dangling && ln -s d dsym &&
  mkdir d d2 e && printf 'f\n' > d/f && mkdir d/sub && printf 'g\n' > d/sub/g &&
  mkdir e/a && printf 'x\n' > e/x && mkdir d2/a && mkdir d2/d &&
  printf 'd2a\n' > d2/d/a &&
  mkdir -p deep/d && printf 'df\n' > deep/d/a
}

# Sources that are not there.
cpr_case nonexistent new
cpr_case nonexistent d
cpr_case a nonexistent b d
cpr_case nonexistent1 nonexistent2 d
cpr_case a nodir/new
cpr_case a a/new
cpr_case a/ new
cpr_case d/nonexistent/ new
cpr_case -r nonexistent new
cpr_case dangling new
cpr_case -L dangling new
cpr_case -H dangling new

cpr_case a nonexistent/
cpr_case a b/
cpr_case a dangling/
cpr_case -r d nonexistent/sub/
cpr_case -r d b/

# Directories without -r.
cpr_case d new
cpr_case d e
cpr_case a d b e
cpr_case d/ new
cpr_case dsym new

# Same file.
cpr_case a a
cpr_case a ./a
cpr_case a hard
cpr_case a sym
cpr_case sym a
cpr_case -P sym a
cpr_case -d sym sym
cpr_case -f a a
cpr_case -f a hard
cpr_case --remove-destination a hard
cpr_case -b a a
cpr_case -b a hard
cpr_case -fb a a
cpr_case --backup=numbered -f a hard
cpr_case d/f d
cpr_case -r d .
cpr_case -r d/sub d/
cpr_case a .

# A directory into itself.  How much is copied before the copy meets itself
# depends on the order GNU cp reads entries in (it sorts them by inode
# number, and the inode numbers of the two runs' trees need not be in the
# same order), so the partial copies are left out of the comparison.
prune_self_copies ()
{
  rm -rf d/sub/d d/new d/sub/sub d/d
}
# 'cp -r . d' copies the entries of . into d until it meets d: keep only
# what d held before.
prune_dot_copy ()
{
  find d -mindepth 1 -maxdepth 1 ! -name f ! -name sub -exec rm -rf {} +
}
cpr_case --cr-after=prune_self_copies -r d d
cpr_case --cr-after=prune_dot_copy -r . d
cpr_case --cr-after=prune_self_copies -r d d/sub
cpr_case --cr-after=prune_self_copies -r d d/new
cpr_case --cr-after=prune_self_copies -r d/ d/sub/
cpr_case --cr-after=prune_self_copies -r d dsym/new
# A directory that an earlier operand's copy made is met again as a source:
# a copy into itself if it was made in a directory that was there before
# (t/m/c, made in the existing t/m after t/m/a), a directory like any
# other if the directory it was made in was made too (u/m/c, in u/m).
setup_made ()
{
  mkdir -p m/a/b m/c t/m u
}
cpr_case --cr-setup=setup_made -r m t/m/c t
cpr_case --cr-setup=setup_made -r m t/m/a t
cpr_case --cr-setup=setup_made -r m u/m/c u
cpr_case -r d/sub d e

# Directory and non-directory clashes.
cpr_case -r d a
cpr_case -r d e/x
cpr_case a e
cpr_case -r d d2
cpr_case -r e d2
cpr_case -r a e d2
cpr_case -rT d a
cpr_case -T d new

# Two sources with one destination name.  Only a file an operand's copy
# made is "just-created": one made inside a directory's copy may be
# overwritten by a later operand, or by a file of a later directory.
cpr_case a deep/d/a e
cpr_case -r deep/d d2/d e
cpr_case -r --parents deep deep/d/a e
cpr_case -r --parents deep/d/a deep e
cpr_case -r a deep/d e
cpr_case -r deep/d deep/d d2
cpr_case a a d
cpr_case --backup=numbered a deep/d/a e

# Symlinks a directory's copy made are not "just-created" for a later
# operand, which may overwrite or back them up; one met as the destination
# of a file is refused for what GNU cp refuses it for, where it does: as
# dangling, or as the same file.
setup_made_links ()
{
  mkdir d s t && printf 'a\n' > a && ln -s ../a d/l && ln -s ../a s/a
}
cpr_case --cr-setup=setup_made_links -rb --parents d d/l t
cpr_case --cr-setup=setup_made_links -r --parents d d/l t
cpr_case --cr-setup=setup_made_links -rH --parents d d/l t
cpr_case --cr-setup=setup_made_links -a s/a a t

# --parents, once it made a leading directory, takes the copy of every
# later operand without leading directories for a new file, as GNU cp 9.1
# does, until an operand's leading directories are all there.
cpr_case -r --parents d/sub d e
cpr_case -r --parents d/sub d/ e
cpr_case --parents d/sub/g a e
cpr_case --parents d/sub/g deep/d/a a e
cpr_case -v --parents d/ e
# What goes by is whether the last leading directory was missing: a '.'
# or '..' after one made is not.  A symlink where the new file would go
# is refused as a dangling one, or written through with POSIXLY_CORRECT
# if it dangles.  The copy's leading directories are checked before their
# sources, which are read only to make one or to preserve attributes.
setup_parents ()
{
  mkdir x y t && printf 'new\n' > a && printf 'F\n' > x/f &&
  printf 'old\n' > t/a && ln -s nowhere t/dl && printf 'A\n' > dl &&
  printf 'z\n' > t/file && ln -s ../y/g t/l && printf 'y\n' > y/g &&
  mkdir t/dd t/sub t/q && ln -s dd t/da && printf 'x\n' > da &&
  ln -s a sl && printf 'old\n' > t/sl && printf 'z\n' > t/q/file
}
cpr_case --cr-setup=setup_parents --parents x/../a t
cpr_case --cr-setup=setup_parents --parents x/./f a t
cpr_case --cr-setup=setup_parents --parents x/f y/../a t
cpr_case --cr-setup=setup_parents --parents x/f dl t
cpr_case --cr-setup=setup_parents --cr-env=POSIXLY_CORRECT=1 --parents x/f dl t
cpr_case --cr-setup=setup_parents --parents x/f l t
cpr_case --cr-setup=setup_parents --cr-env=POSIXLY_CORRECT=1 --parents x/f l t
cpr_case --cr-setup=setup_parents --parents file/f t
cpr_case --cr-setup=setup_parents -p --parents file/f t
cpr_case --cr-setup=setup_parents --parents nosuch/y/f t
cpr_case --cr-setup=setup_parents -p --parents x/nosuch/f t
cpr_case --cr-setup=setup_parents --parents y/g q/file/g a t
cpr_case --cr-setup=setup_parents --preserve=xattr --parents y/g sub/y/f a t
cpr_case --cr-setup=setup_parents -df --parents y/g sl t
cpr_case --cr-setup=setup_parents --cr-env=POSIXLY_CORRECT=1 --parents y/g da t

# Some operands fail, others are copied.
cpr_case a nonexistent b e
cpr_case d a e
cpr_case -v a nonexistent b e
cpr_case -v a d e

Exit $fail
