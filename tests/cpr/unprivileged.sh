#!/bin/sh
# Copies by an unprivileged user: unreadable sources and directories,
# unwritable destinations and directories, -f and --remove-destination on
# unwritable files, and ownership that cannot be preserved.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"

user=nobody
require_user_ $user
uid=$(id -u $user) gid=$(id -g $user)

setup_tree ()
{
  printf 'readable\n' > mine && chmod 644 mine &&
  printf 'secret\n' > secret && chmod 600 secret &&
  printf 'ro\n' > ro && chmod 444 ro &&
  printf 'other\n' > others && chmod 644 others &&
  mkdir -p src/sub locked/inner noexec wdir rodir &&
  printf 'one\n' > src/one && printf 'two\n' > src/sub/two &&
  printf 'hidden\n' > src/hidden && chmod 600 src/hidden &&
  printf 'no read\n' > locked/inner/f && chmod 0 locked/inner &&
  printf 'x\n' > noexec/f && chmod 644 noexec &&
  printf 'w\n' > wdir/ro && chmod 444 wdir/ro &&
  printf 'keep\n' > rodir/f && chmod 555 rodir &&
  ln -s secret secretlink &&
  chown $uid:$gid . mine ro wdir wdir/ro src src/sub src/one src/sub/two \
    locked noexec rodir rodir/f &&
  chown 0:0 others secret src/hidden
}

u=--cr-user=$user
cpr_case $u secret new
cpr_case $u secretlink new
cpr_case $u -d secretlink new
cpr_case $u mine secret new
cpr_case $u mine secret wdir
cpr_case $u -r src new
cpr_case $u -r locked new
cpr_case $u -r noexec new
cpr_case $u noexec/f new
cpr_case $u mine rodir
cpr_case $u mine rodir/f
cpr_case $u mine rodir/new
cpr_case $u -r src rodir
cpr_case $u mine /proc/cannot-create
cpr_case $u mine ro
cpr_case $u -f mine ro
cpr_case $u -fv mine ro
cpr_case $u --remove-destination mine ro
cpr_case $u mine wdir/ro
cpr_case $u -f mine wdir/ro
cpr_case $u --remove-destination mine rodir/f
cpr_case $u -f mine rodir/f
cpr_case $u -b mine rodir/f
cpr_case $u -b mine ro
cpr_case $u --cr-stdin=y -i mine ro
cpr_case $u --cr-stdin=n -i mine ro
cpr_case $u -l others new
cpr_case $u -s secret new
cpr_case $u -s mine rodir/new

# Ownership and modes that the user may not set.
cpr_case $u -p others new
cpr_case $u --preserve=ownership others new
cpr_case $u -a others new
cpr_case $u --preserve=mode others new
cpr_case $u -a mine new
cpr_case $u -p -r src new
cpr_case $u --preserve=all mine new
cpr_case $u --preserve=xattr others new
cpr_case $u --attributes-only -p others mine
cpr_case $u -p others mine

Exit $fail
