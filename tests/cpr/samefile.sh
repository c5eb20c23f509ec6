#!/bin/sh
# Sources and destinations that are, or lead to, the same file: symlinks
# to the source replaced with --remove-destination, two symlinks to one
# file, hard links to one symlink (with -d, -f, --remove-destination and
# backups), and a symlink this same run created met again as the
# destination of a file ("will not copy through just-created symlink").

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

setup_tree ()
{
  printf 'foo\n' > foo && ln -s foo symlink &&
  ln -s foo s1 && ln -s foo s2 && ln s1 h &&
  mkdir a b c e && ln -s x a/1 && printf 'b1\n' > b/1 &&
  ln -s ../foo e/1 && printf 'f\n' > a/2 && ln -s ../foo b/2
}

cpr_case --remove-destination foo symlink
cpr_case -dl foo symlink
cpr_case -f foo symlink
for opt in -d -df --remove-destination -bd -bdf -P -R -a '-d --remove-destination'; do
  cpr_case $opt s1 s2
  cpr_case $opt s1 h
  cpr_case $opt h s1
done
# (GNU cp -bdf s1 s1 backs up the symlink s1 and makes it anew; cpr
# refuses, as for the other options.)
for opt in -d -df --remove-destination -bd -P -R -a; do
  cpr_case $opt s1 s1
done

# Writing through a symlink made by the same run.
for opt in -dR -dRf -a -R -d '-dR -n' '-dR --remove-destination' '-dR -b' \
    '-dR -l' '-dR -s'; do
  cpr_case $opt a/1 b/1 c
  cpr_case $opt e/1 b/1 c
  cpr_case $opt a/2 b/2 c
done

Exit $fail
