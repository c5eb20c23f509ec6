#!/bin/sh
# --debug, which GNU cp 9.1 lacks: it implies -v, so apart from its
# "copy offload:" lines cpr --debug must do and print what GNU cp -v does;
# each regular file copied gets one such line, right after its verbose
# line; and on this kernel, which has no copy_range, no line may claim
# copy_range, nor any offload with --reflink=never.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

test -n "${COPYRANGE_GUEST-}" && skip_ "a host test: in the guest copy_range works"
test "$CPR" -ef "$CR_REF" && skip_ "GNU cp 9.1 has no --debug to test"

setup_tree ()
{
  printf 'a\n' > a && cr_random 1000000 > big && : > empty &&
  truncate -s 4M holes && printf 'x' >> holes &&
  mkdir -p d/sub d2 && printf 'f\n' > d/f && printf 'g\n' > d/sub/g &&
  ln -s a sym && printf 'existing\n' > existing
}

# 'check_debug FILE': FILE (cpr's stdout) has $offloads "copy offload:"
# lines, each right after a verbose line, none matching the ERE $forbidden.
# Remove them so that the rest compares with GNU cp -v's output.
check_debug ()
{
  cd_ok_=0
  n=$(grep -c '^copy offload: ' "$1")
  test "$n" = "$offloads" ||
    { echo "$n copy offload lines, not $offloads"; cd_ok_=1; }
  awk '/^copy offload: / && prev !~ / -> / { bad = 1 } { prev = $0 }
       END { exit bad }' "$1" ||
    { echo "a copy offload line not after a verbose line"; cd_ok_=1; }
  if grep '^copy offload: ' "$1" | grep -E "$forbidden"; then
    echo "the lines above claim what cannot be: /$forbidden/"; cd_ok_=1
  fi
  test $cd_ok_ = 0 || { echo "in:"; cat "$1"; } >&2
  grep -v '^copy offload: ' "$1" > "$1.tmp"; mv "$1.tmp" "$1"
  return $cd_ok_
}

# OFFLOADS FORBIDDEN ARG...: compare 'cp -v ARG...' and 'cpr --debug ARG...'.
debug_case ()
{
  offloads=$1 forbidden=$2; shift 2
  cpr_case --cr-ref-opt=-v --cr-cpr-opt=--debug --cr-outcheck=check_debug "$@"
}

# Neither copy_range (not in this kernel) nor, with --reflink=never, any
# offload.
no_cr='(^|[^_])copy_range'
no_offload='copy_range|copy_file_range'

debug_case 1 "$no_cr" a new
debug_case 1 "$no_cr" big new
debug_case 1 "$no_cr" empty new
debug_case 1 "$no_cr" holes new
debug_case 1 "$no_cr" big existing
debug_case 4 "$no_cr" a big empty holes d
debug_case 1 "$no_cr" -L sym new
debug_case 0 "$no_cr" -P sym new
debug_case 2 "$no_cr" -r d new
debug_case 3 "$no_cr" -r a d d2
debug_case 1 "$no_cr" -p big new
debug_case 1 "$no_cr" --sparse=always holes new
debug_case 1 "$no_cr" --sparse=never holes new
debug_case 1 "$no_cr" -b a existing
debug_case 0 "$no_cr" -n a existing
debug_case 0 "$no_cr" -l a new
debug_case 0 "$no_cr" -s a new
debug_case 1 "$no_cr" --reflink=auto big new
for f in a big empty holes; do
  debug_case 1 "$no_offload" --reflink=never $f new
done
debug_case 2 "$no_offload" -r --reflink=never d new
debug_case 0 "$no_cr" nonexistent new
debug_case 1 "$no_cr" nonexistent a d2
debug_case 1 "$no_cr" /proc/version new

Exit $fail
