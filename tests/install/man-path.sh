#!/bin/sh
# The installed cpr(1) names the masquerade directory where 'make install'
# put it, not the default's /usr/local/libexec/copyrange/bin that
# doc/cpr.1 was generated with: with Debian's layout (prefix=/usr,
# libexecdir=/usr/lib) and with pkglibexecdir given alone, each time
# into a DESTDIR; under a transformed name; from a read-only build tree.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"
fail=0
test -n "$COPYRANGE_GUEST" && skip_ "runs make install: only on the host"
: "${MAKE=make}"
unset MAKEFLAGS MFLAGS GNUMAKEFLAGS MAKELEVEL

# check_ NAME MASQDIR MAKE-ARGS...: install into NAME with MAKE-ARGS; the
# page there names MASQDIR and no other masquerade directory.
check_ ()
{
  name=$1 masq=$2; shift 2
  $MAKE -C "$abs_top_builddir" install DESTDIR="$PWD/$name" \
    transform=s,x,x, "$@" > $name.log 2>&1 \
    || { cat $name.log; framework_failure_ "make install $* failed"; }
  page=$(find "$PWD/$name" -name cpr.1 -path '*/man1/*')
  test -f "$page" || { echo "$name: no cpr.1 installed"; fail=1; return; }
  test -L "$PWD/$name$masq/cp" \
    || { echo "$name: no masquerade link in $masq"; fail=1; }
  grep -F -e "$masq" "$page" > $name.names
  sed "s|^|$name: |" $name.names
  grep -F "PATH=$masq:\$PATH make" "$page" > /dev/null \
    || { echo "$name: cpr.1's example does not use $masq"; fail=1; }
  if grep -n -e '/copyrange/bin' "$page" | grep -v -F -e "$masq"; then
    echo "$name: cpr.1 names another masquerade directory"; fail=1
  fi
  $MAKE -C "$abs_top_builddir" uninstall DESTDIR="$PWD/$name" \
    transform=s,x,x, "$@" > $name-uninstall.log 2>&1 \
    || { cat $name-uninstall.log; fail=1; }
  test -e "$page" && { echo "$name: make uninstall left $page"; fail=1; }
}

check_ debian /usr/lib/copyrange/bin prefix=/usr exec_prefix=/usr \
  bindir=/usr/bin libexecdir=/usr/lib
check_ own /opt/cr/bin pkglibexecdir=/opt/cr

# A transform of the program's name (--program-prefix=g and the like)
# names cpr's page as cpr, gcpr.1; copy_range(2) is the call's, and
# keeps its name (it was installed as gcopy_range.2, where
# 'man 2 copy_range' did not find it).
$MAKE -C "$abs_top_builddir" install DESTDIR="$PWD/tr" \
  program_transform_name='s,^,g,' > tr.log 2>&1 \
  || { cat tr.log; framework_failure_ "make install with a transform failed"; }
find tr -path '*/man*/*' -type f | sed 's|.*/||' | sort > tr.pages
printf '%s\n' copy_range.2 gcpr.1 > tr.exp || framework_failure_
compare tr.exp tr.pages || fail=1
$MAKE -C "$abs_top_builddir" uninstall DESTDIR="$PWD/tr" \
  program_transform_name='s,^,g,' > tr-uninstall.log 2>&1 \
  || { cat tr-uninstall.log; fail=1; }
find tr -type f -o -type l > tr.left
compare /dev/null tr.left || fail=1

# make install writes nothing into the build tree (which may be another
# user's, or read-only): it installs from one made read-only, with this
# directory writable on it.  It wrote the page there before, and failed.
if test "$(id -u)" = 0 && unshare -m true 2> /dev/null; then
  unshare -m --propagation private sh -c '
    mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" &&
    mount --bind "$2" "$2" && mount -o remount,bind,rw "$2" &&
    "$3" -C "$1" install DESTDIR="$2/ro"' sh \
    "$abs_top_builddir" "$PWD" "$MAKE" > ro.log 2>&1 \
    || { cat ro.log; echo "make install from a read-only build tree failed"; fail=1; }
  find ro -name cpr.1 -path '*/man1/*' | grep . > /dev/null \
    || { echo "no cpr.1 installed from a read-only build tree"; fail=1; }
else
  echo "SKIP: the read-only build tree needs root and unshare -m"
fi

Exit $fail
