#!/bin/sh
# xattrs that cannot be copied, as GNU cp treats them: --preserve=xattr
# (or with --attributes-only) tells of each and fails; --preserve=all
# tells of each but ENOTSUP and ENODATA and succeeds; -a says nothing;
# in every case the xattrs that can be copied still are.  And a
# symlink's xattrs (trusted.*) are copied as GNU cp copies them.  The
# destinations: ext4 with 1 KiB blocks, which cannot keep a 3000-byte
# value (ENOSPC), and ramfs, which keeps no user xattrs (ENOTSUP); the
# sources on ext4 with 4 KiB blocks.  All mounted in a private mount
# namespace, so nothing outside sees them.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

# Re-run in a mount namespace of our own (before init.sh makes a directory).
if test -z "${CR_XATTR_NS-}" && test "$(id -u)" = 0 &&
   unshare -m --propagation private true 2>/dev/null; then
  CR_XATTR_NS=1; export CR_XATTR_NS
  exec unshare -m --propagation private "${SHELL-/bin/sh}" "$0" "$@"
fi

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

test -n "${CR_XATTR_NS-}" || skip_ "cannot make a private mount namespace"
command -v mkfs.ext4 > /dev/null || skip_ "mkfs.ext4 is not installed"
command -v setfattr > /dev/null || skip_ "setfattr is not installed"
grep -qw ext4 /proc/filesystems || skip_ "the kernel has no ext4 loaded"
test -e /dev/loop-control || skip_ "no loop devices"
mkfs.ext4 -q -F -b 4096 "$CR_TOP/src.img" 8M > /dev/null 2>&1 &&
mkfs.ext4 -q -F -b 1024 "$CR_TOP/dst.img" 8M > /dev/null 2>&1 ||
  framework_failure_ "mkfs.ext4"

big=$(printf %3000s '' | tr ' ' v)
setup_tree ()
{
  mkdir s d r && cat "$CR_TOP/src.img" > "$CR_TOP/s.img" &&
  cat "$CR_TOP/dst.img" > "$CR_TOP/d.img" &&
  mount -o loop "$CR_TOP/s.img" s && mount -o loop "$CR_TOP/d.img" d &&
  mount -t ramfs ramfs r &&
  printf 'data\n' > s/f && setfattr -n user.a -v a s/f &&
  setfattr -n user.big -v "$big" s/f && setfattr -n user.z -v z s/f &&
  mkdir s/dir && setfattr -n user.big -v "$big" s/dir &&
  setfattr -n user.b -v b s/dir &&
  ln -s f s/link && setfattr -h -n trusted.l -v l s/link &&
  printf 'old\n' > d/old && printf 'old\n' > r/old
}

unmount_tree ()
{
  for m in s d r; do
    if mountpoint -q $m; then umount $m || return 1; fi
  done
}
CR_TEARDOWN=unmount_tree
cleanup_ () { test -d "$CR_WORK" && (cd "$CR_WORK" && unmount_tree); }

for opt in --preserve=xattr --preserve=all -a '-a --preserve=xattr' \
    '--preserve=all -a' '--attributes-only --preserve=all' \
    '--attributes-only -a' '--attributes-only --preserve=xattr' \
    '--preserve=all --no-preserve=xattr'
do
  cpr_case $opt s/f d/new
  cpr_case $opt s/f r/new
  cpr_case $opt s/f d/old
  cpr_case -r $opt s/dir d
  cpr_case -r $opt s/dir r
  cpr_case -r $opt s/dir s/f d
done
# Symlinks: trusted.* needs root, which the namespace above has.
cpr_case -a s/link s/new
cpr_case -P --preserve=xattr s/link s/new
cpr_case -rP --preserve=all s s/sub

Exit $fail
