#!/bin/sh
# --jobs's argument: a number from 1 to 256, in digits alone, or auto.
# Whatever else, a number out of that range included, is refused as an
# invalid number, with exit status 1: taken as some other number, it
# would hide a typo.  And --j to --job, which GNU cp 9.1 does not know,
# are no abbreviations of it.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
fail=0

printf 'x\n' > a || framework_failure_
for arg in 0 -1 x 2x '' +3 ' 3' 3' ' 257 1000 18446744073709551617 0x10; do
  rm -f b
  returns_ 1 cpr --jobs="$arg" a b > out 2> err || fail=1
  printf "cpr: invalid number of jobs: '%s'\n%s\n" "$arg" \
    "Try 'cpr --help' for more information." > exp || framework_failure_
  compare exp err || fail=1
  compare /dev/null out || fail=1
  test -e b && { echo "--jobs='$arg' copied" >&2; fail=1; }
  returns_ 1 cpr -j "$arg" a b 2> err || fail=1
  compare exp err || fail=1
done
for arg in 1 2 04 256 auto; do
  rm -f b
  cpr --jobs=$arg a b && compare a b || fail=1
  rm -f b
  cpr -j $arg a b && compare a b || fail=1
done
for opt in --j=2 --jo=2 --job=2 --job; do
  returns_ 1 cpr $opt a b 2> err || fail=1
  printf "cpr: unrecognized option '%s'\n%s\n" "$opt" \
    "Try 'cpr --help' for more information." > exp || framework_failure_
  compare exp err || fail=1
done
# What --help says the range is.
cpr --help | grep -- '-j, --jobs=N' > /dev/null || fail=1
cpr --help | grep -- 'a number from 1 .* to 256,' > /dev/null || fail=1

Exit $fail
