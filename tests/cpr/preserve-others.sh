#!/bin/sh
# Preserving attributes onto an existing destination that belongs to
# someone else but that the copier may write: by an unprivileged user
# (who may neither set its times nor change its mode or owner), by root,
# and by root in a user namespace that maps only root.  GNU cp sets the
# times first and stops at the first attribute it may not preserve;
# what it says (or does not say), its exit status and the files it
# leaves are compared.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

user=nobody
require_user_ $user
uid=$(id -u $user) gid=$(id -g $user)

# The destinations belong to 1234:5678 and are writable by all; the
# sources belong to the copier ('r' to root, the one user a user
# namespace of root's maps).  'pub' is a sticky world-writable
# directory, as /tmp is; 'odir' a world-writable directory of another
# user, as the destination of a recursive copy.
setup_tree ()
{
  printf 'new data\n' > a && chmod 640 a &&
  printf 'old\n' > b && chmod 666 b &&
  printf 's\n' > s4755 && chmod 4755 s4755 && printf 'r\n' > r &&
  mkdir pub src odir && chmod 1777 pub && chmod 777 odir &&
  printf 'old\n' > pub/b && chmod 666 pub/b &&
  printf 'sub\n' > src/f && chmod 644 src/f &&
  printf 'old\n' > odir/f && chmod 666 odir/f &&
  chown 1234:5678 b pub/b odir odir/f &&
  chown $uid:$gid . a s4755 src src/f
}

u=--cr-user=$user
for opt in -p -a --preserve=mode --preserve=ownership --preserve=timestamps \
    --preserve=mode,ownership --preserve=ownership,timestamps \
    --preserve=mode,timestamps --preserve=all --preserve=mode,xattr \
    '-p --no-preserve=mode' '-p --no-preserve=timestamps' \
    '-a --no-preserve=timestamps' '--preserve=ownership --no-preserve=mode'; do
  cpr_case $u $opt a b
  cpr_case $u $opt a pub/b
  cpr_case $u $opt s4755 b
  cpr_case $u -r $opt src odir-copy
  cpr_case $u -rT $opt src odir
  cpr_case $opt a b
  cpr_case -rT $opt src odir
  if have_userns_; then
    cpr_case --cr-userns $opt a b
    cpr_case --cr-userns $opt r b
    cpr_case --cr-userns -rT $opt src odir
  fi
done

Exit $fail
