#!/bin/sh
# Symbolic links as sources and destinations: -P, -L, -H, -d, -R's default,
# dangling links, writing through destination links, and making links with
# -s and -l.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

setup_tree ()
{
  printf 'file\n' > file && printf 'other\n' > other &&
  ln -s file sym && ln -s sym sym2 && ln -s nowhere dangling &&
  ln -s loop2 loop1 && ln -s loop1 loop2 &&
  mkdir d dest && printf 'in d\n' > d/f && ln -s f d/rel && ln -s ../file d/up &&
  ln -s d dsym && ln -s nowhere d/dangling &&
  ln -s other dest/file && ln -s missing dest/dang && ln -s d destdir &&
  printf 'existing\n' > existing && ln -s existing exsym
}

for opt in '' -P -L -H -d --no-dereference --dereference; do
  cpr_case $opt sym new
  cpr_case $opt sym2 new
  cpr_case $opt dangling new
  cpr_case $opt loop1 new
  cpr_case $opt sym dest
  cpr_case $opt dsym new
  cpr_case -r $opt dsym new
  cpr_case -r $opt d new
  cpr_case -r $opt dsym d sym dest
done
cpr_case -R -H dsym new
cpr_case -R -L d new
cpr_case -R -P --dereference d new
cpr_case -R -L -P dsym new
cpr_case -R -H -L dsym new

# Destinations that are symlinks.
cpr_case file exsym
cpr_case file dest/file
cpr_case file dest/dang
cpr_case -f file dest/dang
cpr_case --remove-destination file dest/dang
cpr_case --remove-destination file exsym
cpr_case -P sym exsym
cpr_case -d sym exsym
cpr_case -d dangling exsym
cpr_case file destdir
cpr_case -T file destdir
# d into itself: the partial copy depends on GNU cp's inode-ordered reads.
prune_self_copy () { rm -rf d/d; }
cpr_case --cr-after=prune_self_copy -r d destdir
cpr_case --cr-env=POSIXLY_CORRECT=1 file dest/dang
cpr_case file other dest
cpr_case -d sym dangling dest

# Making symbolic links.
cpr_case -s file new
cpr_case -s "$CR_WORK/file" new
cpr_case -s file d/new
cpr_case -s "$CR_WORK/file" d/new
cpr_case -s file d
cpr_case -s d/f new
cpr_case -s file existing
cpr_case -sf file existing
cpr_case -s --remove-destination file existing
cpr_case -sb file existing
cpr_case -sv file new
cpr_case -s dangling new
cpr_case -s nonexistent new
cpr_case -s file file
cpr_case -sf file file
cpr_case -s file sym
cpr_case -sf file sym
cpr_case -s d new
cpr_case -rs d new
cpr_case -rs "$CR_WORK/d" new
cpr_case -s file other dest
cpr_case -s "$CR_WORK/file" "$CR_WORK/other" dest
cpr_case --symbolic-link file new
cpr_case --symbolic-link --force file existing

# Making hard links.
cpr_case -l file new
cpr_case -l file existing
cpr_case -lf file existing
cpr_case -l file file
cpr_case -l sym new
cpr_case -lP sym new
cpr_case -lL sym new
cpr_case -l dangling new
cpr_case -lP dangling new
cpr_case -l d new
cpr_case -rl d new
cpr_case -rlv d new
cpr_case -rl dsym new
cpr_case -l file other dest
cpr_case -lb file existing
cpr_case -l --remove-destination file existing
cpr_case --link file new
cpr_case --link --force file existing
cpr_case --link --recursive d new

Exit $fail
