#!/bin/sh
# Sources and destinations that are, or lead to, the same file: symlinks
# to the source replaced with --remove-destination, two symlinks to one
# file, hard links to one symlink (with -d, -f, --remove-destination and
# backups), a symlink named as both source and destination with -f and a
# backup, and a symlink this same run created met again as the
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
for opt in -d -df --remove-destination -bd -P -R -a; do
  cpr_case $opt s1 s1
done
# A file named twice with -f and a backup: GNU cp leaves it alone and
# copies it to the backup's name, a symlink to a regular file too (as a
# symlink with -d, as the file it points to without), even over an
# existing backup; not a symlink that dangles.
setup_backup ()
{
  setup_tree && ln -s foo s1~ && ln -s nowhere dangling
}
for opt in -bdf -bf -bfa -bdfR -bdfl -bdfs -bdfv '-bdf --backup=numbered' \
    '-bdf --remove-destination' '-bf -L' -bfH; do
  cpr_case $opt s1 s1
  cpr_case $opt h h
  cpr_case --cr-setup=setup_backup $opt s1 s1
  cpr_case --cr-setup=setup_backup $opt dangling dangling
done

# Writing through a symlink made by the same run.
for opt in -dR -dRf -a -R -d '-dR -n' '-dR --remove-destination' '-dR -b' \
    '-dR -l' '-dR -s'; do
  cpr_case $opt a/1 b/1 c
  cpr_case $opt e/1 b/1 c
  cpr_case $opt a/2 b/2 c
done

Exit $fail
