#!/bin/sh
# Errors while writing data: /dev/full as the destination, and a full file
# system (a small tmpfs in a private mount namespace), for single files and
# trees; cpr must report them as GNU cp does and carry on the same way.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

# Re-run in a mount namespace of our own (before init.sh makes a directory).
if test -z "${CR_WERR_NS-}" && test "$(id -u)" = 0 &&
   unshare -m --propagation private true 2>/dev/null; then
  CR_WERR_NS=1; export CR_WERR_NS
  exec unshare -m --propagation private "${SHELL-/bin/sh}" "$0" "$@"
fi

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

setup_tree ()
{
  printf 'small\n' > small && cr_random 3000000 > big && : > empty &&
  mkdir -p t/sub t/empty && cr_random 2500000 > t/sub/big &&
  mkdir -p u && printf 'one\n' > u/one && printf 'two\n' > u/two &&
  truncate -s 8M holes && printf 'x' >> holes &&
  cr_random 100000 > dhole && truncate -s 8M dhole && printf 'y' >> dhole &&
  if test -n "${CR_WERR_NS-}"; then
    mkdir full && mount -t tmpfs -o size=1m,mode=755 cr-werr full
  fi
}

# Which files of a tree are copied before the file system is full depends
# on the order GNU cp reads directories in (by inode number), so t holds
# only one file.  How much of a file fits before ENOSPC depends on the sizes of the writes,
# which are cpr's to choose: keep only whether something was written.
trim_partial ()
{
  find full -type f -size +0 -exec truncate -s 1 {} +
}

unmount_full ()
{
  if mountpoint -q full; then umount full || return 1; fi
}

if test -n "${CR_WERR_NS-}"; then
  CR_TEARDOWN=unmount_full
  cleanup_ () { test -d "$CR_WORK" && (cd "$CR_WORK" && unmount_full); }
fi

cpr_case small /dev/full
cpr_case big /dev/full
cpr_case empty /dev/full
cpr_case holes /dev/full
cpr_case --sparse=always holes /dev/full
cpr_case --sparse=never holes /dev/full
cpr_case --reflink=never big /dev/full
cpr_case -v small /dev/full
cpr_case /proc/version /dev/full
# A hole's zeros that cannot be written are worded differently from data.
cpr_case dhole /dev/full
cpr_case --sparse=never dhole /dev/full

if test -n "${CR_WERR_NS-}"; then
  for opt in '' -v -p --sparse=always --sparse=never --reflink=never; do
    cpr_case --cr-after=trim_partial $opt big full
    cpr_case --cr-after=trim_partial $opt big small empty full
    cpr_case --cr-after=trim_partial $opt holes full
    cpr_case --cr-after=trim_partial $opt dhole full
    cpr_case --cr-after=trim_partial -r $opt t full
    cpr_case --cr-after=trim_partial -r $opt t big small full
    cpr_case --cr-after=trim_partial -r $opt big u full
  done
fi

Exit $fail
