#!/bin/sh
# A FIFO copied onto an existing file: a FIFO named as it is (-R, -P, -d,
# or met inside a tree with -H) replaces the file; one reached by
# following symlinks (-L, and -H on the command line) is made with
# mkfifo over the file, which fails, as GNU cp has it; and a symlink
# to a FIFO, followed or not.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
# A FIFO opened for reading would wait for a writer forever.
CR_TIMEOUT=30
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

setup_tree ()
{
  mkfifo p && printf 'q\n' > q && ln -s p lp &&
  mkdir -p d dest/d && mkfifo d/p && ln -s p d/lp &&
  printf 'x\n' > dest/d/p && printf 'y\n' > dest/d/lp
}

# Without -R, a FIFO is read as a regular file: not here.
for opt in -R -r -rL -rH -rP -a -rd '-rL -f' '-rL --remove-destination' \
    '-rH -b'; do
  cpr_case $opt p q
  cpr_case $opt lp q
  cpr_case $opt d dest
done

Exit $fail
