#!/bin/sh
# New copies in a directory with a default ACL: the kernel applies the
# default ACL instead of the umask to the mode a copy is created with, so
# it must be the source's mode, unmasked, as GNU cp passes it; and
# --no-preserve=mode sets the default mode, dropping the inherited ACL.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

command -v setfacl > /dev/null || skip_ "setfacl is not installed"
command -v getfattr > /dev/null || skip_ "getfattr is not installed"
mkdir acl-probe && setfacl -d -m u::rwx acl-probe 2>/dev/null ||
  skip_ "no ACLs on this file system"

setup_tree ()
{
  mkdir t tu src &&
  setfacl -d -m u::rwx,g::rwx,o::r-x t &&
  setfacl -d -m u::rwx,u:nobody:rwx,g::r-x,m::rwx,o::--- tu &&
  printf 'f\n' > src/f && chmod 664 src/f &&
  printf 'x\n' > src/x && chmod 775 src/x &&
  mkdir src/d src/sticky && chmod 777 src/d && chmod 1777 src/sticky &&
  printf 'g\n' > src/d/g && chmod 666 src/d/g &&
  mkfifo src/p && chmod 666 src/p
}

for mask in 077 022 0; do
  for opt in '' -r --no-preserve=mode '-r --no-preserve=mode' -p \
      --preserve=ownership --preserve=mode -a; do
    cpr_case --cr-umask=$mask $opt src/f src/x t
    cpr_case --cr-umask=$mask $opt src/f src/x tu
    cpr_case --cr-umask=$mask -R $opt src/d src/sticky src/p t
    cpr_case --cr-umask=$mask -R $opt src/d src/sticky src/p tu
  done
done

Exit $fail
