#!/bin/sh
# A regular file copied onto a dangling symlink: the copy would be
# written through it, so GNU cp takes the destination for one that does
# not exist yet.  -u and -n do not skip it, -i does not ask, and the
# copy then refuses to write through the symlink (rc 1), unless the
# symlink itself is replaced (--remove-destination, --backup) or
# POSIXLY_CORRECT asks for its target to be made.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

setup_tree ()
{
  printf 'data\n' > f && ln -s nowhere d && mkdir t && ln -s ../nowhere t/f &&
  ln -s loop l && ln -s l loop
}

# The symlinks are newer than the file, so that -u would skip them if it
# compared the symlinks' own times.
newer_links ()
{
  touch -h -d '2030-01-01' d t/f l loop
}

for opt in '' -u -au -n -un -i -f -fi -if -ui -uf -uP -ud -a -R \
    '-u --remove-destination' '-u -b'; do
  cpr_case --cr-times=newer_links --cr-stdin=y $opt f d
  cpr_case --cr-times=newer_links --cr-stdin=y $opt f t
  cpr_case --cr-times=newer_links --cr-stdin=y $opt f l
done
cpr_case --cr-times=newer_links --cr-env=POSIXLY_CORRECT=1 -u f d

Exit $fail
