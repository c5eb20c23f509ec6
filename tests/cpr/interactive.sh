#!/bin/sh
# Overwriting: -i with yes, no and no answer, -n, -u with newer, older and
# equal destinations, -f on unwritable destinations, --remove-destination,
# and which of -i, -n and -f wins when several are given.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

setup_tree ()
{
  printf 'source\n' > src && printf 'second\n' > src2 &&
  printf 'destination\n' > dst && printf 'readonly\n' > ro && chmod 444 ro &&
  mkdir d sd && printf 'in d\n' > d/src && printf 'in d 2\n' > d/src2 &&
  printf 'sd\n' > sd/src && mkdir sd/sub && printf 'sub\n' > sd/sub/f &&
  mkdir -p dd/sd/sub && printf 'old\n' > dd/sd/src && printf 'old f\n' > dd/sd/sub/f &&
  ln -s dst dstsym && printf 'hard\n' > h1 && ln h1 h2
}

# Destination times relative to the source's (the sources are older).
dst_newer () { touch -d @1400000000 dst d/src dd/sd/src; touch -d @1300000000 src sd/src; }
dst_older () { touch -d @1300000000 dst d/src dd/sd/src; touch -d @1400000000 src sd/src; }
dst_same () { touch -d @1300000000.5 dst src d/src sd/src dd/sd/src; }
dst_same_sec () { touch -d @1300000000.7 dst; touch -d @1300000000.2 src; }

for answer in y n yes no Y N '' ' y' x; do
  cpr_case "--cr-stdin=$answer
" -i src dst
done
cpr_case --cr-stdin=y -i src new
cpr_case --cr-stdin=y -i src dst
cpr_case --cr-stdin=n -i src dst
cpr_case -i src dst
cpr_case "--cr-stdin=y
n
" -i src src2 d
cpr_case "--cr-stdin=n
y
" -iv src src2 d
cpr_case "--cr-stdin=y
y
y
" -ri sd dd
cpr_case "--cr-stdin=n
n
" -ri sd dd
cpr_case --cr-stdin=y -i src ro
cpr_case --cr-stdin=y -if src ro
cpr_case --cr-stdin=y -i src dstsym
cpr_case --cr-stdin=y -i -b src dst
cpr_case --cr-stdin=y -i --remove-destination src dst
cpr_case --cr-stdin=y -i -l src dst
cpr_case --cr-stdin=y -i -s src dst
cpr_case --cr-stdin=y -i h1 h2
cpr_case --cr-stdin=y -i src src

# -n, -f and -i together: the last one given counts.
cpr_case -n src dst
cpr_case -nv src dst
cpr_case -n src new
cpr_case -n src src2 d
cpr_case -rn sd dd
cpr_case --cr-stdin=y -n -i src dst
cpr_case --cr-stdin=y -i -n src dst
cpr_case --cr-stdin=y -f -i src dst
cpr_case --cr-stdin=y -i -f src dst
cpr_case -n -f src dst
cpr_case -f -n src dst
cpr_case -n src ro
# The long forms.
cpr_case --cr-stdin=y --interactive src dst
cpr_case --cr-stdin=n --interactive src dst
cpr_case --no-clobber src dst
cpr_case --no-clobber --interactive src dst
cpr_case --force src ro
cpr_case --force --no-clobber src ro

# -u.
for t in dst_newer dst_older dst_same dst_same_sec; do
  cpr_case --cr-times=$t -u src dst
  cpr_case --cr-times=$t -uv src dst
  cpr_case --cr-times=$t -u src d/
  cpr_case --cr-times=$t -ru sd dd
  cpr_case --cr-times=$t -u -p src dst
  cpr_case --cr-times=$t -u -b src dst
  cpr_case --cr-times=$t --cr-stdin=y -u -i src dst
  cpr_case --cr-times=$t -u -n src dst
  cpr_case --cr-times=$t --update -d dst dstsym
done
cpr_case -u src new

# -f and --remove-destination.
cpr_case src ro
cpr_case -f src ro
cpr_case -fv src ro
cpr_case --remove-destination src ro
cpr_case --remove-destination -v src dst
cpr_case --remove-destination src dstsym
cpr_case -f src dstsym
cpr_case --remove-destination h1 h2
cpr_case -f h1 h2
cpr_case -f src d
cpr_case --remove-destination src new
cpr_case --remove-destination -r sd dd

# A file onto a directory: -u and -i come first, as in GNU cp, and only
# a copy they let through fails with "cannot overwrite directory"; a
# directory onto a file fails without a question.
setup_file_dir ()
{
  mkdir -p a/dir b/a/c b/a/dir && printf 'c\n' > a/c &&
  printf 'file\n' > b/a/dir/f && printf 'f\n' > a/dir/f && mkdir a/dir/f2 &&
  printf 'f2\n' > b/a/dir/f2
}
for answer in y n; do
  cpr_case --cr-setup=setup_file_dir --cr-stdin=$answer -iR a b
  cpr_case --cr-setup=setup_file_dir --cr-stdin=$answer -i a/c b/a
  cpr_case --cr-setup=setup_file_dir --cr-stdin=$answer -iu a/c b/a
  cpr_case --cr-setup=setup_file_dir --cr-stdin=$answer -iR a/dir b/a
done
cpr_case --cr-setup=setup_file_dir -u a/c b/a
cpr_case --cr-setup=setup_file_dir -n a/c b/a

Exit $fail
