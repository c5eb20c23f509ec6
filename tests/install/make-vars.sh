#!/bin/sh
# The variables that README documents for 'make deb' and 'make kernel-deb'
# are taken from the environment as from make's command line:
# DEB_BUILD_OPTIONS (nocheck when set in neither) and KERNEL_DEB_CONFIG
# (the guest's configuration when empty); and a variable on make's
# command line (CC=...) does not reach the package's build.  Only
# 'make -n' runs: nothing is built, no package and no kernel.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"
fail=0
: "${MAKE=make}"
# A make of its own: none of the flags or level of the 'make check' that
# runs this test, nor a DEB_BUILD_OPTIONS of a package build that runs it.
unset MAKEFLAGS MFLAGS GNUMAKEFLAGS MAKELEVEL DEB_BUILD_OPTIONS \
  KERNEL_DEB_CONFIG

# dry_ NAME TARGET [VAR=VALUE...]: 'make -n TARGET', its output in NAME.
dry_ ()
{
  name=$1 target=$2; shift 2
  $MAKE -n -C "$abs_top_builddir" $target "$@" > $name 2>&1 \
    || { echo "make -n $target $* failed:"; cat $name; fail=1; }
}
# expect_ NAME STRING: the recipe that NAME shows holds STRING.
expect_ ()
{
  if grep -F -- "$2" "$1" > /dev/null; then
    echo "$1: $2"
  else
    echo "$1 has no $2:"; grep -F -e DEB_BUILD_OPTIONS -e KERNEL_DEB "$1"
    fail=1
  fi
}

cfg=/nonexistent/cr-marker.config
dry_ kd-default kernel-deb
expect_ kd-default "KERNEL_DEB_CONFIG=''"
KERNEL_DEB_CONFIG=$cfg; export KERNEL_DEB_CONFIG
dry_ kd-env kernel-deb
expect_ kd-env "KERNEL_DEB_CONFIG='$cfg'"
unset KERNEL_DEB_CONFIG
dry_ kd-arg kernel-deb KERNEL_DEB_CONFIG=$cfg
expect_ kd-arg "KERNEL_DEB_CONFIG='$cfg'"

dry_ deb-default deb
expect_ deb-default "DEB_BUILD_OPTIONS='nocheck'"
DEB_BUILD_OPTIONS='nocheck cr-marker'; export DEB_BUILD_OPTIONS
dry_ deb-env deb
expect_ deb-env "DEB_BUILD_OPTIONS='nocheck cr-marker'"
dry_ deb-arg deb DEB_BUILD_OPTIONS=
expect_ deb-arg "DEB_BUILD_OPTIONS=''"
unset DEB_BUILD_OPTIONS

# A variable of make's command line, which make exports to the recipe,
# is taken out of the package build's environment: CC, LIBS.
dry_ deb-cc deb CC=cr-marker-cc LIBS=-lcr-marker
sed -n 's/.*for v in `dpkg-buildflags --list` \([^;]*\);.*/\1/p' deb-cc \
  | tr ' ' '\n' | grep -x -e CC -e LIBS | sort > deb-cc.unset
printf '%s\n' CC LIBS > deb-cc.exp || framework_failure_
compare deb-cc.exp deb-cc.unset || fail=1

Exit $fail
