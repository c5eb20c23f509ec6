#!/bin/sh
# Real errors while moving data (EIO, ENOSPC) are diagnosed as GNU cp
# diagnoses them, with the same exit status, whatever the method that met
# them: a fallback never hides one.  Both programs run as "cp" with the same
# failure injected by the shim (tests/cpr-data/enospc.sh fills a tmpfs).

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0
kernel_has_copy_range_ && skip_ "the running kernel has copy_range"
require_gnu_cp_

mkdir gnu ours || framework_failure_
ln -s "$CR_REF" gnu/cp || framework_failure_
ln -s "$abs_top_builddir/src/cpr" ours/cp || framework_failure_
head -c 3000000 /dev/urandom > a || framework_failure_

# same_ NAME RULES [OPTION]...: cp and cpr, as cp, fail alike under RULES.
same_ ()
{
  name=$1 rules=$2; shift 2
  for prog in gnu ours; do
    rm -f b
    (PATH=$PWD/$prog:$PATH; export PATH
     with_shim_ CPR_SHIM_FAIL="$rules" cp "$@" a b > $name.$prog.out \
       2> $name.$prog.err; echo $? > $name.$prog.status)
    stat -c %s b > $name.$prog.size 2>&1
  done
  for f in out err status size; do
    compare $name.gnu.$f $name.ours.$f || fail=1
  done
  grep . $name.gnu.err || fail=1  # it did fail
}

# In the kernel's copy, after partial progress: "error copying".
same_ copy-eio copy_file_range:1048576:EIO
# In read/write: "error reading", "error writing".
same_ read-eio read:1048576:EIO --reflink=never
same_ write-enospc write:1048576:ENOSPC --reflink=never
same_ write-edquot write:0:EDQUOT --reflink=never

Exit $fail
