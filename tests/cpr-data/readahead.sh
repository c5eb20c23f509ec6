#!/bin/sh
# cpr reads a source longer than the kernel's default readahead window
# (128 KiB) with POSIX_FADV_SEQUENTIAL advice, as GNU cp reads every
# source: without it a copy through the page cache reads ahead half as
# far, in twice as many requests.  A smaller source gets no advice, which
# would only add a system call to it.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
fail=0

. "$srcdir/tests/trace-lib.sh"

# advice_ PROG SRC: the advice PROG gives on SRC when it copies it to dst,
# one line per call: "OFFSET LEN ADVICE".  strace -y names each descriptor
# by its file, so a call on any other file does not count.
advice_ ()
{
  rm -f dst trace
  strace -f -y -e trace=/fadvise64 -o trace "$1" "$2" dst \
    || { echo "$1 $2 dst failed" >&2; return 1; }
  cmp "$2" dst || return 1
  sed -n 's/^.*fadvise64[_0-9]*([0-9]*<[^>]*\/'"$2"'>, \([^)]*\)).*/\1/p' trace \
    | tr -d ,
}

head -c $((1024 * 1024)) /dev/urandom > big || framework_failure_
head -c $((64 * 1024)) /dev/urandom > small || framework_failure_

# GNU cp advises sequential reading of its source, the reference here.
echo '0 0 POSIX_FADV_SEQUENTIAL' > exp || framework_failure_
advice_ "$CR_REF" big > out-ref || framework_failure_
compare exp out-ref || framework_failure_

advice_ cpr big > out || fail=1
compare exp out || fail=1

# Below the window: no advice, where GNU cp still gives it.
advice_ cpr small > out || fail=1
compare /dev/null out || fail=1

Exit $fail
