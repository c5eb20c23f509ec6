#!/bin/sh
# File names that need quoting in diagnostics and -v output: spaces,
# quotes, backslashes, control characters, newlines, bytes that are not
# valid UTF-8, non-ASCII letters, and names that look like options; in the
# C locale and, where there is one, a UTF-8 locale.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

nl='
'
tab='	'
names="with space|it's|say \"hi\"|back\\slash|tab${tab}here|line${nl}break|$(printf 'bad\377byte')|$(printf 'caf\303\251')|-dash|\$dollar|star*|ctrl$(printf '\001')x"

setup_tree ()
{
  ( IFS='|'
    for n in $names; do
      printf '%s\n' "$n" > "src-$n" || exit 1
    done
    mkdir "dir with space" && printf 'x\n' > "dir with space/it's" ) &&
  printf 'plain\n' > plain && mkdir d
}

locales=C
for l in C.UTF-8 C.utf8 en_US.UTF-8; do
  if test "$(LC_ALL=$l locale charmap 2>/dev/null)" = UTF-8; then
    locales="C $l"; break
  fi
done

IFS='|'
set -f
for n in $names; do
  IFS=' '
  for l in $locales; do
    e=--cr-env=LC_ALL=$l
    cpr_case $e -v "src-$n" "new-$n"
    cpr_case $e "src-$n" "nodir/$n"
    cpr_case $e "missing-$n" d
    cpr_case $e "src-$n" "src-$n"
    cpr_case $e -bv "src-$n" plain
    cpr_case $e -v "src-$n" "./src-$n" d
    cpr_case $e "--cr-stdin=n" -i plain "src-$n"
    cpr_case $e -s "src-$n" "d/$n"
    cpr_case $e -v --parents "dir with space/it's" "src-$n" d
  done
  IFS='|'
done
IFS=' '
cpr_case -rv "dir with space" d
cpr_case -r "dir with space" "dir with space/it's"
cpr_case --backup=numbered -S "$nl" plain "src-it's"

Exit $fail
