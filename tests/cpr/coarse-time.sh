#!/bin/sh
# -u onto a file system with whole-second timestamps (ext4 with 128-byte
# inodes): the source's time is cut to the destination's resolution only
# when timestamps are preserved (-p, -a), as GNU cp does; otherwise a
# source a fraction of a second newer is copied.  The file system is
# mounted in a private mount namespace, so nothing outside sees it.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

# Re-run in a mount namespace of our own (before init.sh makes a directory).
if test -z "${CR_COARSE_NS-}" && test "$(id -u)" = 0 &&
   unshare -m --propagation private true 2>/dev/null; then
  CR_COARSE_NS=1; export CR_COARSE_NS
  exec unshare -m --propagation private "${SHELL-/bin/sh}" "$0" "$@"
fi

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

test -n "${CR_COARSE_NS-}" || skip_ "cannot make a private mount namespace"
command -v mkfs.ext4 > /dev/null || skip_ "mkfs.ext4 is not installed"
grep -qw ext4 /proc/filesystems || skip_ "the kernel has no ext4 loaded"
test -e /dev/loop-control || skip_ "no loop devices"
mkfs.ext4 -q -F -I 128 "$CR_TOP/ext4.img" 4M > /dev/null 2>&1 ||
  framework_failure_ "mkfs.ext4"

setup_tree ()
{
  mkdir ext && cat "$CR_TOP/ext4.img" > "$CR_TOP/run.img" &&
  mount -o loop "$CR_TOP/run.img" ext &&
  printf 'new\n' > src && printf 'old\n' > ext/dst &&
  printf 'old\n' > ext/same
}

unmount_tree ()
{
  if mountpoint -q ext; then umount ext || return 1; fi
}
CR_TEARDOWN=unmount_tree
cleanup_ () { test -d "$CR_WORK" && (cd "$CR_WORK" && unmount_tree); }

# ext/dst gets src's modification time cut to the second: older than src
# by the fraction, the same once src is cut too.  ext/same is a second
# older still.
truncated_dst ()
{
  s=$(stat -c %Y src) &&
  touch -d @$s ext/dst && touch -d @$((s - 1)) ext/same &&
  test "$(stat -c %y ext/dst)" != "$(stat -c %y src)"
}

for opt in -u '-u -p' '-u -a' '-u --preserve=timestamps' '-u --preserve=mode' \
    '-uv' '-uvp'; do
  cpr_case --cr-times=truncated_dst $opt src ext/dst
  cpr_case --cr-times=truncated_dst $opt src ext/same
done

Exit $fail
