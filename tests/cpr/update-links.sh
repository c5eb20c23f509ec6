#!/bin/sh
# -u and --preserve=links together, side by side with GNU cp: a name that
# -u skips, because its copy is not older, still takes part in the links
# among the copies (an earlier copy's link wins over -u), so that five
# names of one source file end as five names of one copy.  A copy killed
# between linking two names leaves just this for 'cpr -au' to finish.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

setup_tree ()
{
  mkdir -p s t/s &&
  printf 'linked\n' > s/f && ln s/f s/linkm && ln s/f s/linke &&
  ln s/f s/fileo && ln s/f s/fileu &&
  printf 'linked\n' > t/s/f && ln t/s/f t/s/linke &&
  printf 'old\n' > t/s/fileo && printf 'new\n' > t/s/fileu
}

# The copies of f and fileu newer than the source, fileo older.
times_ ()
{
  touch -d '2001-01-01' t/s/fileo && touch -d '2030-01-01' t/s/f t/s/fileu
}

for opt in -au -auv '-u --preserve=links' -aun; do
  cpr_case --cr-times=times_ $opt s t
done
# Two links in the copy already, and a third name to link.
cpr_case --cr-times=times_ -au s/f s/linke s/linkm t/s

Exit $fail
