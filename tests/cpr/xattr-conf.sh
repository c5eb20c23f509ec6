#!/bin/sh
# --preserve=xattr and -a leave out the xattrs that /etc/xattr.conf says
# to skip (XFS's trusted.SGI_* names, Beagle's index data), as GNU cp
# does through libattr, and copy the others.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

test -r /etc/xattr.conf || skip_ "no /etc/xattr.conf"
grep '^user\.Beagle\.\*[	 ]*skip' /etc/xattr.conf > /dev/null ||
  skip_ "/etc/xattr.conf does not skip user.Beagle.*"
command -v setfattr > /dev/null || skip_ "no setfattr"
touch probe && setfattr -n user.probe -v 1 probe 2>/dev/null ||
  skip_ "no user xattrs here"
have_trusted=no
setfattr -n trusted.probe -v 1 probe 2>/dev/null && have_trusted=yes
rm -f probe

setup_tree ()
{
  printf 'data\n' > f && setfattr -n user.keep -v kept f &&
  setfattr -n user.Beagle.AttrTime -v 1 f &&
  mkdir d && setfattr -n user.Beagle.Fingerprint -v 2 d &&
  setfattr -n user.dir -v yes d && printf 'e\n' > existing &&
  if test $have_trusted = yes; then
    setfattr -n trusted.SGI_ACL_FILE -v 3 f &&
    setfattr -n trusted.other -v 4 f
  fi
}

for opt in --preserve=xattr -a --preserve=all '--preserve=xattr -R'; do
  cpr_case $opt f new
  cpr_case $opt f existing
  cpr_case -r $opt d new
done

Exit $fail
