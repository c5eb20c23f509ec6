#!/bin/sh
# -x/--one-file-system: trees with other file systems mounted inside them,
# with -r, -a, -L and as the source itself.  The mounts are tmpfs in a
# private mount namespace, so nothing outside this test sees them.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

# Re-run in a mount namespace of our own (before init.sh makes a directory).
if test -z "${CR_XDEV_NS-}" && test "$(id -u)" = 0 &&
   unshare -m --propagation private true 2>/dev/null; then
  CR_XDEV_NS=1; export CR_XDEV_NS
  exec unshare -m --propagation private "${SHELL-/bin/sh}" "$0" "$@"
fi

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

test -n "${CR_XDEV_NS-}" || skip_ "cannot make a private mount namespace"

setup_tree ()
{
  mkdir -p t/mnt t/sub/mnt2 t/plain && printf 'top\n' > t/top &&
  printf 'plain\n' > t/plain/f &&
  mount -t tmpfs -o size=1m,mode=750 cr-xdev t/mnt &&
  mount -t tmpfs -o size=1m,mode=755 cr-xdev t/sub/mnt2 &&
  mkdir t/mnt/inner && printf 'on tmpfs\n' > t/mnt/inner/f &&
  printf 'also\n' > t/sub/mnt2/g && ln -s mnt t/mntlink
}

unmount_tree ()
{
  for m in t/mnt t/sub/mnt2; do
    if mountpoint -q $m; then umount $m || return 1; fi
  done
}
CR_TEARDOWN=unmount_tree
cleanup_ () { test -d "$CR_WORK" && (cd "$CR_WORK" && unmount_tree); }

for opt in -rx '-r --one-file-system' -ax '-a --one-file-system' \
    '-rx -L' '-rx -H' -r -x; do
  cpr_case $opt t new
  cpr_case $opt t/mnt new
  cpr_case $opt t/mntlink new
  cpr_case $opt t/sub t/plain new
  cpr_case $opt t/top new
done
cpr_case -rxv t new
cpr_case -rx --parents t/sub/mnt2 t/mnt/inner/f t/plain
cpr_case -rx t t/mnt
cpr_case -rxl t new

Exit $fail
