#!/bin/sh
# Command-line errors: missing and extra operands, unknown, ambiguous and
# conflicting options, bad option arguments; accepted abbreviations of long
# options; POSIXLY_CORRECT option ordering.  Diagnostics, exit status and
# tree are compared with GNU cp's.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

setup_tree ()
{
  printf 'a\n' > a && printf 'b\n' > b && mkdir d && printf 'f\n' > file &&
  ln -s a sym
}

# Operands.
cpr_case
cpr_case a
cpr_case -r
cpr_case -t d
cpr_case a b file
cpr_case a b nonexistent
cpr_case a b nonexistent/
cpr_case -T a b d
cpr_case -T a d
cpr_case -t nonexistent a
cpr_case -t file a
cpr_case -t d -T a b
cpr_case --target-directory=d --target-directory=d a
cpr_case --target-directory d a
cpr_case -t '' a

# Unknown, ambiguous and malformed options.
cpr_case -W a b
cpr_case -Q a b
cpr_case --frobnicate a b
cpr_case --no a b
cpr_case --re a b
cpr_case --p a b
# cpr's own --debug and --progress are no options of GNU cp 9.1: their
# abbreviations are refused as unknown, and --p and --pr keep the
# meanings they have there.
for opt in --a --c --n --r --s --v --ver --d=x --de=x --d= --dere=x \
    --no-p --t --deb --debu --deb=x --debu= --p=x --p= --pr=x --pro \
    --prog=x --progres --progres=; do
  cpr_case $opt a b
done
cpr_case --verbose=yes a b
cpr_case --help=x
cpr_case --strip-trailing-slashes=1 a b
cpr_case -S
cpr_case --suffix
cpr_case --target-directory

# Option arguments.
for opt in --backup=bad --backup= --backup=nu --backup=n \
           --reflink=bad --reflink= --reflink=a \
           --sparse=bad --sparse --sparse= --sparse=al \
           --preserve=bad --preserve=mode,bad --preserve= --preserve=, \
           --no-preserve=bad --no-preserve --no-preserve=mode,,all \
           --context=x -Zx; do
  cpr_case $opt a b
done

# Conflicting options.
cpr_case -l -s a b
cpr_case -s -l a b
cpr_case -b -n a b
cpr_case --backup=numbered --no-clobber a b
cpr_case -n --backup a b
cpr_case --reflink --sparse=always a b
cpr_case --reflink=always --sparse=never a b
cpr_case --reflink=never --sparse=always a b
cpr_case --attributes-only --reflink a b
cpr_case --attributes-only --reflink=always a b
cpr_case -Z --context=ctx a b
cpr_case --parents a file

# Abbreviations of long options that are unambiguous.
cpr_case --verb a new
cpr_case --recur d new
cpr_case --no-clob a b
cpr_case --remove a b
cpr_case --back=t a b
cpr_case --backup=nil a b
cpr_case --backup=exist a b
cpr_case --suf=.s --backup a b
cpr_case --target=d a
cpr_case --no-target a new
cpr_case --spar=always a new
cpr_case --refl=never a new
cpr_case --attr a b
cpr_case --preserve=mo,own,time a new
cpr_case --no-preserve=mo a new
cpr_case --strip a new
cpr_case --d sym new
cpr_case --de sym new
cpr_case --der sym new
cpr_case --i a b
cpr_case --l a new
cpr_case --u a b
cpr_case --pr a new
cpr_case --pa a d
cpr_case --cop a new
cpr_case --con a new
cpr_case --sy a new
cpr_case --su=.x -b a b

# Options after operands, and what POSIXLY_CORRECT makes of them.
cpr_case a new -v
cpr_case a d --verbose
cpr_case --cr-env=POSIXLY_CORRECT=1 a new -v
cpr_case --cr-env=POSIXLY_CORRECT=1 a d -v
cpr_case --cr-env=POSIXLY_CORRECT=1 -v a new
cpr_case -- -v a
cpr_case a -- -v

Exit $fail
