#!/bin/sh
# --reflink[=WHEN] on a file system that cannot clone (as this host's are
# for its tests): always fails the way GNU cp fails, and what is left
# behind is the same; auto and never copy.  (-Z/--context: context.sh.)

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

setup_tree ()
{
  printf 'a\n' > a && cr_random 300000 > big && : > empty &&
  mkdir d && printf 'f\n' > d/f && printf 'existing\n' > existing
}

# Only where the test directory's file system cannot clone: btrfs and xfs
# would clone, and GNU cp would succeed.
touch clone-probe-src clone-probe-dst
if "$CR_REF" --reflink=always clone-probe-src clone-probe-dst 2>/dev/null; then
  can_clone=yes
else
  can_clone=no
fi
rm -f clone-probe-src clone-probe-dst
test $can_clone = yes && skip_ "this file system can clone"

for opt in --reflink --reflink=auto --reflink=never --reflink=always \
    --reflink=al --reflink=n '--reflink=always --reflink=never' \
    '--reflink=never --reflink=always' '--reflink=always -a' \
    '--reflink=always --attributes-only'; do
  cpr_case $opt a new
  cpr_case $opt big existing
  cpr_case $opt empty new
  cpr_case $opt a big empty d
  cpr_case -r $opt d new
  cpr_case -v $opt a new
done

Exit $fail
