#!/bin/sh
# --help, --version and the set of options.  cpr's --help is its own text,
# so only what must match GNU cp is compared: both succeed and write only
# to standard output; every option GNU cp's --help lists (read from it
# here, at run time) is accepted by cpr with the same kind of argument and
# is documented in cpr's --help; unknown options get the same diagnostics;
# --version's first line names the program as invoked, and write errors on
# standard output fail as GNU cp's do.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

setup_tree ()
{
  printf 'a\n' > a
}

# The options a --help text documents: the "-x, --long[=ARG]" lists at the
# start of its indented lines, up to the description.
help_options ()
{
  sed -n 's/^ \{1,\}\(-[^ ].*\)$/\1/p' "$1" | sed 's/   *[^ ].*//' |
    tr ',' '\n' | sed -n 's/^ *\(-[^=[ ]*\).*/\1/p' | LC_ALL=C sort -u
}

for name in cp cpr; do
  cr_bin_ $name
  for impl in ref cpr; do
    env PATH="$PWD/bin.$impl:$PATH" $name --help > help.$impl 2> help-err.$impl
    echo $? > help-rc.$impl
    env PATH="$PWD/bin.$impl:$PATH" $name --version > version.$impl \
      2> version-err.$impl
    echo $? > version-rc.$impl
  done
  # Both succeed, with something on standard output and nothing else.
  for impl in ref cpr; do
    for what in help version; do
      test "$(cat $what-rc.$impl)" = 0 || {
        echo "$impl $name --$what exits $(cat $what-rc.$impl)"; fail=1; } >&2
      compare /dev/null $what-err.$impl || fail=1
      test -s $what.$impl || {
        echo "$impl $name --$what prints nothing"; fail=1; } >&2
    done
  done

  # Every long option of GNU cp is named in cpr's --help.
  help_options help.ref > opts.ref
  test $(grep -c '^--' opts.ref) -gt 25 ||
    framework_failure_ "few long options in GNU cp's --help"
  for opt in $(grep '^--' opts.ref); do
    grep -e "$opt\([^a-z-]\|\$\)" help.cpr > /dev/null || {
      echo "$name --help does not mention $opt"; fail=1; } >&2
  done

  # --version's first line begins with the name it was invoked as; cpr's
  # does not claim to be GNU cp (which always says cp, so none of this is
  # asked of it when it stands in for cpr).
  if test "$CPR" -ef "$CR_REF"; then
    test "$(sed -n '1s/ .*//p' version.cpr)" = cp || fail=1
  else
    test "$(sed -n '1s/ .*//p' version.cpr)" = $name || {
      echo "cpr invoked as $name: --version says:"; cat version.cpr
      fail=1; } >&2
    if test "$(sed -n 1p version.cpr)" = "$(sed -n 1p version.ref)"; then
      echo "cpr --version says it is GNU cp: $(sed -n 1p version.cpr)" >&2
      fail=1
    fi
    # The copyright notice is the project's, of the year its sources say
    # (not gnulib's year).
    year=$(sed -n 's/^ *Copyright (C) \([0-9]*\) The copyrange authors\..*/\1/p' \
      "$abs_top_srcdir/src/cp.c")
    grep -x "Copyright (C) $year The copyrange authors." version.cpr \
      > /dev/null || {
      echo "cpr --version's copyright is not of $year:"; cat version.cpr
      fail=1; } >&2
  fi
done

# Every option GNU cp documents is accepted the same way: alone (an
# option that needs an argument says so; the others lead to "missing
# file operand"), with an argument attached to a long one (refused by
# those that take none), and on a real copy.  The help texts themselves
# differ, so --help and --version are left to the cases further down.
test $(wc -l < opts.ref) -gt 30 || framework_failure_ "few options in help"
for opt in $(cat opts.ref); do
  case $opt in
    --help|--version) continue ;;
    --*) cpr_case $opt
         cpr_case $opt=zz
         cpr_case $opt= ;;
    *) cpr_case $opt ;;
  esac
done

# Which of --help and --version wins, with what else: the filter reduces
# a help text to "help" and a version text to "version" (the name in it
# is checked above).
help_or_version ()
{
  if sed -n 1p "$1" | grep '^Usage: ' > /dev/null; then
    echo help > "$1.tmp"
  elif test -s "$1"; then
    echo version > "$1.tmp"
  else
    : > "$1.tmp"
  fi && mv "$1.tmp" "$1"
}
for args in '--help a' '--version a' '-v --help' '--help --version' \
    '--version --help' '--bogus --help' '--he' '--vers' '--help -Q' \
    '--version --backup=bad' '--help=x' '--version=1' '-Q' '--bogus' \
    '-h' '-V' '--h' '--v'; do
  cpr_case --cr-outfilter=help_or_version $args
  cpr_case --cr-outfilter=help_or_version --cr-name=cpr $args
done

# Write errors.
cpr_case --cr-stdout=/dev/full --help
cpr_case --cr-stdout=/dev/full --version
cpr_case --cr-stdout=- --help
cpr_case --cr-stdout=- --version
cpr_case --cr-stdout=/dev/full -v a new
cpr_case --cr-stdout=- -v a new
cpr_case --cr-stdout=/dev/full a new
cpr_case --cr-stdout=/dev/full --cr-stdin=y -iv a a2

Exit $fail
