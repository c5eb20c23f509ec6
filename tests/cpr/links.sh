#!/bin/sh
# Hard links among the sources: kept with -d, -a and --preserve=links, within
# one tree and across operands, and broken otherwise; hard links to
# symlinks; -l and -L with links.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

setup_tree ()
{
  mkdir -p t/sub t/other dest &&
  printf 'shared\n' > t/a && ln t/a t/sub/b && ln t/a t/other/c &&
  printf 'pair\n' > t/p1 && ln t/p1 t/p2 &&
  printf 'single\n' > t/single &&
  ln -s a t/sym && ln t/sym t/symhard &&
  printf 'outside\n' > out1 && ln out1 t/in-tree && ln out1 out2 &&
  ln -s t/a abs-sym && ln -s t tsym
}

for opt in '' -d -a -p --preserve=links --no-preserve=links '-a --no-preserve=links' \
    -P -L -H '-L --preserve=links' '-d -L' '-a -L'; do
  cpr_case -r $opt t new
  cpr_case -r $opt t out1 out2 dest
  cpr_case $opt out1 out2 t/in-tree dest
  cpr_case $opt t/a t/sub/b t/p1 t/single dest
  cpr_case -r $opt t/sym t/symhard dest
  cpr_case -r $opt t/a abs-sym dest
  cpr_case -r $opt tsym t dest
done
cpr_case -r --preserve=links t t dest
cpr_case --preserve=links out1 out1 dest
cpr_case -a t/a t/sub t/other dest
cpr_case --archive t new
cpr_case --archive --verbose t out1 out2 dest
cpr_case -rl t new
cpr_case -rl --preserve=links t new
cpr_case -al t new
cpr_case -rs "$CR_WORK/t" new
cpr_case -a --cr-umask=077 t dest

# -u with five links to one file, of which the destination has two
# linked up to date (so left alone), one older and one newer by itself:
# the copy that -u skips still stands for the source file, so that the
# names after it are linked to it, even the newer one that -u alone
# would skip too.
setup_update ()
{
  mkdir -p s t/s && printf 'five\n' > s/f &&
  for n in linkm linke fileo fileu; do ln s/f s/$n || return; done &&
  printf 'kept\n' > t/s/f && ln t/s/f t/s/linke &&
  printf 'older\n' > t/s/fileo && printf 'newer\n' > t/s/fileu
}
update_times ()
{
  touch -d @1300000000 s/f && touch -d @1400000000 t/s/f &&
  touch -d @1200000000 t/s/fileo && touch -d @1500000000 t/s/fileu
}
for opt in -au -auv '-ru --preserve=links' -ru -aun; do
  cpr_case --cr-setup=setup_update --cr-times=update_times $opt s t
done

Exit $fail
