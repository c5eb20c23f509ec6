#!/bin/sh
# --help and --version: the usage lines name the program as invoked, every
# option GNU cp documents is documented, --version names the program as
# invoked, and write errors on standard output fail as GNU cp's do.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"

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

# The synopsis: "Usage: NAME ..." and its "  or:  NAME ..." lines.
usage_lines ()
{
  sed -n '/^Usage: /p; /^  or:  /p' "$1"
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
  compare help-rc.ref help-rc.cpr || fail=1
  compare help-err.ref help-err.cpr || fail=1
  compare version-rc.ref version-rc.cpr || fail=1
  compare version-err.ref version-err.cpr || fail=1

  # The usage lines are GNU cp's.
  usage_lines help.ref > usage.ref
  usage_lines help.cpr > usage.cpr
  compare usage.ref usage.cpr || fail=1

  # Every option of GNU cp is in cpr's --help.
  help_options help.ref > opts.ref
  help_options help.cpr > opts.cpr
  test $(wc -l < opts.ref) -gt 30 || framework_failure_ "few options in help"
  LC_ALL=C comm -23 opts.ref opts.cpr > opts.missing
  compare /dev/null opts.missing || fail=1

  # cpr's --version begins with the name it was invoked as (GNU cp always
  # says cp, so this is not asked of it when it stands in for cpr).
  if test "$CPR" -ef "$CR_REF"; then
    test "$(sed -n '1s/ .*//p' version.cpr)" = cp || fail=1
  else
    test "$(sed -n '1s/ .*//p' version.cpr)" = $name || {
      echo "cpr invoked as $name: --version says:"; cat version.cpr
      fail=1; } >&2
  fi
done

# Which of --help and --version wins, with what else: of --help's output
# the usage lines must be the same, of --version's the program name.
help_or_version ()
{
  if sed -n 1p "$1" | grep '^Usage: ' > /dev/null; then
    usage_lines "$1" > "$1.tmp"
  else
    sed -n '1s/ .*//p' "$1" > "$1.tmp"
  fi && mv "$1.tmp" "$1"
}
for args in '--help a' '--version a' '-v --help' '--help --version' \
    '--version --help' '--bogus --help' '--he' '--vers' '--help -Q' \
    '--version --backup=bad'; do
  cpr_case --cr-outfilter=help_or_version $args
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
