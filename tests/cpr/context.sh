#!/bin/sh
# -Z and --context[=CTX], --preserve=context and --no-preserve=context, alone
# and with the options they interact with.  Without SELinux (as on these
# hosts) GNU cp ignores -Z, warns about an explicit context and refuses an
# explicit --preserve=context; with SELinux the same comparisons hold for
# whatever it does.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

setup_tree ()
{
  printf 'a\n' > a && printf 'existing\n' > existing &&
  mkdir -p d/sub dest && printf 'f\n' > d/f && printf 'g\n' > d/sub/g &&
  ln -s a sym
}

for opt in -Z --context --context= --context=system_u:object_r:tmp_t:s0 \
    --preserve=context --no-preserve=context --preserve=all \
    '-a --preserve=context' '-a --no-preserve=context' \
    '--preserve=context --no-preserve=context' \
    '--no-preserve=context --preserve=context' \
    '-Z --preserve=context' '--preserve=context -Z' '-Z -a' '-a -Z' \
    '--context=x --preserve=context' '-Z --context=x' '--context=x -Z' \
    '-Z -p' '-Z -v' '-Z -l' '-Z -s' '-Z -b' '-Z -n' '-Z -u' \
    '-Z --attributes-only' '-Z --preserve=all' '--context=x --no-preserve=all'
do
  cpr_case $opt a new
  cpr_case $opt a existing
  cpr_case $opt a sym dest
  cpr_case -r $opt d new
  cpr_case -r $opt d dest
done
cpr_case -Z --parents d/sub/g dest
cpr_case --context=x --parents -r d/sub dest
cpr_case -Z -d sym new
cpr_case -Z nonexistent new
cpr_case --context=x nonexistent new
cpr_case --context=x
# The warning comes as --context=CTX is parsed: before the errors of
# later options, once for each CTX.
cpr_case --context=x --bogus a new
cpr_case --context=x --preserve=bogus a new
cpr_case --context=x -b --backup=bogus a new
cpr_case --bogus --context=x a new
cpr_case --context=x --context=y a new
cpr_case -Z --context=x -T a b c

Exit $fail
