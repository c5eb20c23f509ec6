#!/bin/sh
# -r/-R/--recursive: trees into new and existing directories, empty
# directories, symlinks, FIFOs and devices inside trees, --copy-contents,
# trailing slashes and --strip-trailing-slashes.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

setup_tree ()
{
  mkdir -p t/a/b/c t/empty t/x &&
  printf 'top\n' > t/top && printf 'abc\n' > t/a/b/c/leaf &&
  cr_random 100000 > t/a/data && chmod 700 t/a/b && chmod 751 t/x &&
  printf 'x\n' > t/x/file && chmod 604 t/x/file &&
  ln -s top t/rel-link && ln -s ../outside t/up-link &&
  ln -s nowhere t/dangling && ln -s a t/dir-link &&
  printf 'outside\n' > outside &&
  mkfifo t/fifo &&
  mkdir existing && printf 'keep\n' > existing/keep &&
  mkdir -p partial/t/a && printf 'old\n' > partial/t/top
}

# A socket, where perl can make one.
setup_socket ()
{
  setup_tree &&
  perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Local => "t/sock",
      Listen => 1) or exit 1' && test -S t/sock
}

# Devices, and no FIFO: --copy-contents would wait for a writer.
setup_devices ()
{
  setup_tree && rm t/fifo && mknod t/null c 1 3 && mknod t/zero-blk b 7 200
}

cpr_case -r t new
cpr_case -R t new
cpr_case --recursive t new
cpr_case -r t existing
cpr_case -r t/ new
cpr_case -r t/ existing/
cpr_case -r t/a t/x existing
cpr_case -r t/empty new
cpr_case -r t/a/b/c/ t/top new
cpr_case -r t partial
cpr_case -r t/. new
cpr_case -r t/a/.. new
cpr_case -rv t new
cpr_case -rv t existing
cpr_case -r --strip-trailing-slashes t/ new/
cpr_case -r --strip-trailing-slashes t// existing//
cpr_case --strip-trailing-slashes outside/ new
cpr_case -r t/dir-link new
cpr_case -r t/dir-link/ new
cpr_case -r t/dangling new
cpr_case -r -t existing t outside
cpr_case -r -T t existing
cpr_case -rT t new
cpr_case --cr-umask=077 -r t new
cpr_case --cr-umask=0 -r t new
cpr_case -r t t/a/b/c/leaf outside new
cpr_case -r t/fifo newfifo

mkdir socket-probe || framework_failure_
if (cd socket-probe && setup_socket) 2>/dev/null; then
  cpr_case --cr-setup=setup_socket -r t new
  cpr_case --cr-setup=setup_socket -a t/sock new
  cpr_case --cr-setup=setup_socket t/sock new
fi
rm -rf socket-probe

if test "$(id -u)" = 0; then
  cpr_case --cr-setup=setup_devices -r t new
  cpr_case --cr-setup=setup_devices -r --copy-contents t/null t/top existing
  cpr_case --cr-setup=setup_devices -r --copy-contents t/null new
  cpr_case --cr-setup=setup_devices -r --copy-contents t new
  cpr_case --cr-setup=setup_devices --copy-contents t/null new
  cpr_case --cr-setup=setup_devices t/null new
fi

Exit $fail
