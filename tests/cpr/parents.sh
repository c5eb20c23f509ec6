#!/bin/sh
# --parents: the source's directories recreated under the target, with -v,
# -p, -r and -t, existing and conflicting intermediate directories, and its
# diagnostics.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

setup_tree ()
{
  mkdir -p a/b/c dest dest2/a x/y && chmod 750 a/b && chmod 700 a/b/c &&
  printf 'deep\n' > a/b/c/f && printf 'mid\n' > a/b/m && printf 'top\n' > top &&
  printf 'clash\n' > dest2/a/b && mkdir dest2/a/c && printf 'y\n' > x/y/z &&
  ln -s a/b blink &&
  mkdir -p sticky/sgid && chmod 1777 sticky && chmod 2775 sticky/sgid &&
  printf 's\n' > sticky/sgid/f
}

for opt in '' -v -p -a -r -rv --preserve=mode --preserve=timestamps; do
  cpr_case --parents $opt a/b/c/f dest
  cpr_case --parents $opt a/b/c/f a/b/m top dest
  cpr_case --parents $opt a/b/c/f dest2
  cpr_case --parents $opt a/b dest
  cpr_case --parents $opt ./a/b/m dest
  cpr_case --parents $opt a/b/../b/m dest
  cpr_case --parents $opt blink/m dest
  cpr_case --parents $opt -t dest x/y/z a/b/m
done
for opt in '' -p --no-preserve=mode -v; do
  cpr_case --parents $opt sticky/sgid/f dest
  cpr_case --cr-umask=077 --parents $opt sticky/sgid/f dest
done
cpr_case --parents top new
cpr_case --parents a/b/m top
cpr_case --parents a/b/c/f
cpr_case --parents -T a/b/m dest
cpr_case --parents "$CR_WORK/a/b/m" dest
cpr_case --parents -r a dest/a
cpr_case --parents -r a/ dest
cpr_case --parents --cr-umask=077 -v a/b/c/f dest
cpr_case --parents -b a/b/m dest2
cpr_case --parents a/nonexistent/f dest
cpr_case --parents -s a/b/m dest
cpr_case --parents -l a/b/m dest

# Run by a user who cannot give the copies away: the leading directories
# keep the set-group-ID bit of their sources, as with GNU cp.
if test "$(id -u)" = 0 && id nobody > /dev/null 2>&1 &&
   setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups -- \
     test -x "$PWD" 2>/dev/null; then
  setup_open ()
  {
    setup_tree && chmod 777 dest && chmod 2755 a/b
  }
  for opt in -a -p --preserve=mode,ownership --preserve=mode; do
    cpr_case --cr-setup=setup_open --cr-user=nobody --parents $opt \
      sticky/sgid/f dest
    cpr_case --cr-setup=setup_open --cr-user=nobody --parents $opt a/b/m dest
  done
fi

Exit $fail
