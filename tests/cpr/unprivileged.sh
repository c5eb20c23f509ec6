#!/bin/sh
# Copies by an unprivileged user: unreadable sources and directories,
# unwritable destinations and directories, -f and --remove-destination on
# unwritable files, and ownership that cannot be preserved: set-user-ID,
# set-group-ID and sticky files and directories of others.  Also root that
# cannot give files away (in a user namespace that maps only root).

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

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
  mkdir setid rdest && for m in 1755 2755 4755 6755 7755 2750; do
    printf '%s\n' $m > setid/f$m && chmod $m setid/f$m &&
    mkdir setid/d$m && chmod $m setid/d$m || exit 1
  done &&
  printf 'x\n' > setid/d2755/x && chown 0:$gid setid/f6755 setid/d6755 &&
  chown $uid:0 setid/f7755 && mkdir -p others-dir/sub &&
  printf 'o\n' > others-dir/sub/f && chmod 644 others-dir/sub/f &&
  chmod 751 others-dir/sub && chown -R 1234:5678 others-dir &&
  chmod 2755 others-dir &&
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
for ans in y n; do
  cpr_case $u --cr-stdin=$ans -if mine ro
  cpr_case $u --cr-stdin=$ans -fi mine ro
  cpr_case $u --cr-stdin=$ans -i --remove-destination mine ro
  cpr_case $u --cr-stdin=$ans -if mine wdir/ro
done
cpr_case $u -l others new
cpr_case $u -s secret new
cpr_case $u -s mine rodir/new

# Extended attributes of a read-only file: the copy is writable by its
# owner until they are set.
printf x > xattr-probe || framework_failure_
if command -v setfattr > /dev/null &&
   setfattr -n user.probe -v 1 xattr-probe 2>/dev/null; then
  setup_xattr ()
  {
    setup_tree && setfattr -n user.foo -v bar ro mine
  }
  for opt in --preserve=xattr -a --preserve=xattr,mode \
      '--preserve=xattr --no-preserve=mode' --preserve=all; do
    cpr_case $u --cr-setup=setup_xattr $opt ro new
    cpr_case $u --cr-setup=setup_xattr $opt mine new
  done
fi

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

# Set-ID bits of files that cannot be given their source's owner.
for opt in -p -a --preserve=mode --preserve=ownership \
    --preserve=mode,ownership '-p --no-preserve=ownership' -r; do
  cpr_case $u -r $opt setid new
  cpr_case $u $opt setid/f4755 setid/f6755 setid/f7755 setid/d6755 wdir
done

# Root that may not give files away: what it keeps of modes, times and
# contents, and what it says.
if have_userns_; then
  for opt in -p -a --preserve=ownership --preserve=ownership,timestamps \
      --preserve=mode --preserve=all --no-preserve=ownership \
      --preserve=mode,ownership '--preserve=ownership --no-preserve=mode' \
      '-a --no-preserve=mode'; do
    cpr_case --cr-userns -r $opt others-dir new
    cpr_case --cr-userns -r $opt setid new
    cpr_case --cr-userns $opt mine setid/f6755 setid/f2750 rdest
    cpr_case --cr-userns --parents $opt others-dir/sub/f rdest
    cpr_case --cr-userns --parents -r $opt others-dir/sub setid/d2750 rdest
  done
  cpr_case --cr-userns -rp others-dir src/hidden
fi

Exit $fail
