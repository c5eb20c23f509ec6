#!/bin/sh
# On a file system that cannot hold user xattrs, cpr asks once whether
# it can record a partial copy's progress, not once per file: the first
# ENOTSUP holds for the rest of that file system.  Any other failure is
# the file's own, and the next file asks again; the file itself asks no
# more.  (The files are of a few chunks each: a file copied in one call
# records no progress, and is never marked with the xattr.)

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0

mkdir -p src/d || framework_failure_
for i in 1 2 3 4 5; do
  head -c $((i * 1000 + 2000)) /dev/urandom > src/d/f$i || framework_failure_
done

# tries_ ERR: how many times cpr -a tries to mark a copy of the tree when
# every try fails with ERR.
tries_ ()
{
  rm -rf dst log
  with_shim_ CPR_SHIM_LOG=log CPR_SHIM_XATTR=fsetxattr:$1 CPR_CHUNK_SIZE=1024 \
    cpr -a src dst \
    || { echo "cpr failed with $1" >&2; fail=1; }
  diff -r src dst || fail=1
  grep -c '^fsetxattr user\.' log
}

test "$(tries_ ENOTSUP)" = 1 || { cat log; fail=1; }
test "$(tries_ EOPNOTSUPP)" = 1 || { cat log; fail=1; }
test "$(tries_ EIO)" = 5 || { cat log; fail=1; }

# With --continue the warning is still given, once.
rm -rf dst
with_shim_ CPR_SHIM_XATTR=fsetxattr:ENOTSUP CPR_CHUNK_SIZE=1024 \
  cpr -a --continue src dst 2> err \
  || fail=1
test "$(grep -c 'cannot mark partial copies' err)" = 1 || { cat err; fail=1; }

Exit $fail
