#!/bin/sh
# -l and -s onto existing destinations: a symlink copied with -dl onto
# the file it points to is already there (after -i's question, and not
# even -f or --remove-destination replaces it, unless -b backs it up),
# as is a hard link onto its own file; a destination that is a symlink
# or is replaced by a non-regular source is removed first when the
# source is not followed, and otherwise the link fails with EEXIST; and
# a device read with -P or --copy-contents onto a file with two links.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

setup_tree ()
{
  printf 'foo\n' > foo && ln foo h && ln -s foo symlink &&
  ln -s foo s1 && ln -s foo s2 && ln s1 hs1 && ln -s h sh &&
  printf 'reg\n' > reg && printf 'reg2\n' > reg2 && mkfifo fifo &&
  mkdir d && ln -s ../foo d/s
}

for opt in -dl -l -Pl -Ll -al -dlf '-dl --remove-destination' -dlb -dlv \
    -dlu -dlR -ds -dsf; do
  cpr_case $opt symlink foo
  cpr_case $opt sh foo
  cpr_case $opt d/s foo
  cpr_case $opt s1 s2
  cpr_case $opt s1 reg
  cpr_case $opt reg2 s1
  cpr_case $opt reg2 reg
done
for answer in y n; do
  cpr_case --cr-stdin=$answer -dli symlink foo
  cpr_case --cr-stdin=$answer -dliv symlink foo
  cpr_case --cr-stdin=$answer -li foo h
  cpr_case --cr-stdin=$answer -dli s1 hs1
  cpr_case --cr-stdin=$answer -di s1 hs1
done
# Not followed, a FIFO's link replaces the file; followed (-l's default
# without -R dereferences), it fails.  Neither reads the FIFO.
for opt in -dl -Rl -l -dRl -Rls; do
  cpr_case $opt fifo reg
done
# A device, not followed, read as a regular file still replaces the
# destination rather than writing into it and its other names.
for opt in -P -d '-R --copy-contents' -L; do
  cpr_case $opt /dev/null foo
done

Exit $fail
