#!/bin/sh
# The installed cpr(1) names the masquerade directory where 'make install'
# put it, not the default's /usr/local/libexec/copyrange/bin that
# doc/cpr.1 was generated with: with Debian's layout (prefix=/usr,
# libexecdir=/usr/lib) and with pkglibexecdir given alone, each time
# into a DESTDIR.

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

Exit $fail
