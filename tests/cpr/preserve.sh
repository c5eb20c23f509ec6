#!/bin/sh
# Attributes: -p, --preserve=ATTR_LIST with each attribute, --no-preserve,
# -a, modes with set-id and sticky bits under different umasks, ownership,
# timestamps (modification and access), xattrs and ACLs, directories and
# symlinks, existing destinations, and --attributes-only.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

# Access times are set by the copy only where they are preserved, and the
# sources' own are not read before the snapshot, so they compare too.
CR_ATIME=yes

have_xattr=no
if command -v setfattr > /dev/null && command -v setfacl > /dev/null; then
  touch xattr-probe && setfattr -n user.probe -v 1 xattr-probe 2>/dev/null &&
    setfacl -m u:nobody:r xattr-probe 2>/dev/null && have_xattr=yes
  rm -f xattr-probe
fi

setup_tree ()
{
  printf 'plain\n' > f644 &&
  printf 'private\n' > f600 && chmod 600 f600 &&
  printf 'setuid\n' > suid && chmod 4755 suid &&
  printf 'setgid\n' > sgid && chmod 2750 sgid &&
  printf 'all\n' > f777 && chmod 777 f777 &&
  printf 'none\n' > f000 && chmod 000 f000 &&
  mkdir -p d/sub && printf 'in d\n' > d/file && chmod 700 d/sub &&
  mkdir sticky && chmod 1777 sticky &&
  mkdir sgdir && chmod 2775 sgdir && printf 'x\n' > sgdir/x &&
  ln -s f644 sym && ln f644 hard &&
  printf 'existing\n' > existing && chmod 604 existing &&
  printf 'mine\n' > mine &&
  printf 'set-user-ID\n' > suid-dest && chmod 4755 suid-dest &&
  mkdir dest && chmod 750 dest &&
  if test "$(id -u)" = 0; then
    chown 1234:5678 f644 f600 d d/file sym &&
    chown -h 4321:8765 sym && chown 1234:5678 suid sgid sgdir
  fi &&
  if test $have_xattr = yes; then
    setfattr -n user.colour -v blue f644 &&
    setfattr -n user.empty f600 &&
    setfattr -n user.dir -v yes d &&
    setfattr -n user.long -v "$(printf %3000s '' | tr ' ' v)" f600 &&
    for i in $(seq 100 199); do
      setfattr -n user.name$i -v $i d/file || exit 1
    done &&
    setfacl -m u:nobody:rw,g::r,m::rwx f600 &&
    setfacl -d -m u:nobody:rx d/sub &&
    setfacl -m u:nobody:x d/sub
  fi
}

set_dest_times ()
{
  touch -d @1200000000 existing
}

files='f644 f600 suid sgid f777 f000 sym hard'
for opt in '' -p -a --preserve --preserve=mode --preserve=ownership \
    --preserve=timestamps --preserve=links --preserve=xattr \
    --preserve=context --preserve=all --preserve=mode,timestamps \
    --preserve=mode,ownership,timestamps,links,xattr \
    --no-preserve=mode --no-preserve=ownership --no-preserve=timestamps \
    --no-preserve=xattr --no-preserve=all --no-preserve=links \
    '-p --no-preserve=mode' '-a --no-preserve=ownership' \
    '-a --no-preserve=timestamps' '-a --no-preserve=all' \
    '--no-preserve=mode --preserve=mode' '--preserve=all --no-preserve=xattr'
do
  cpr_case $opt $files dest
  cpr_case -r $opt d sticky sgdir dest
  cpr_case --cr-times=set_dest_times $opt f600 existing
  cpr_case --cr-times=set_dest_times $opt -r d existing
  cpr_case --cr-umask=077 $opt suid f777 d sgdir dest
done

for mask in 000 002 022 027 077 777; do
  cpr_case --cr-umask=$mask f777 suid sgid f000 dest
  cpr_case --cr-umask=$mask -r d sticky sgdir new
  cpr_case --cr-umask=$mask -p suid sgid f777 dest
  cpr_case --cr-umask=$mask f777 existing
done

# An existing set-user-ID destination that already has its source's
# owner and group.  GNU cp 9.1 leaves its owner alone and so keeps the
# set-user-ID bit: -a gives a copy of a mode 644 file mode 4644.  cpr
# sets the owner all the same, which clears the set-ID bits: -a gives
# the source's 644, and a copy that keeps the old mode keeps it without
# them.  Checked on its own, not against GNU cp.
check_setid_ ()
{
  rm -rf setid && mkdir setid && (cd setid && setup_tree) \
    || framework_failure_
  (cd setid && cpr $1 mine suid-dest) || fail=1
  got=$(stat -c %a setid/suid-dest) || fail=1
  ref=$(cd setid && chmod 4755 suid-dest && "$CR_REF" $1 mine suid-dest \
        && stat -c %a suid-dest)
  test "$got" = "$2" || {
    echo "cpr $1 onto a set-user-ID file: mode $got, not $2 (GNU cp: $ref)"
    fail=1
  }
}
check_setid_ -a 644
check_setid_ --preserve=ownership,timestamps 755
check_setid_ --preserve=ownership 755
check_setid_ '-a --no-preserve=mode' 755

# New directories created inside a set-group-ID one.
cpr_case -r d sgdir
cpr_case -rp d sgdir
cpr_case f644 sgdir

# --attributes-only.
cpr_case --attributes-only f644 new
cpr_case --attributes-only f644 existing
cpr_case --attributes-only -p f644 existing
cpr_case --attributes-only -a f600 suid dest
cpr_case --attributes-only -r d new
cpr_case --attributes-only --preserve=xattr f644 existing
cpr_case --attributes-only -p -r d dest
cpr_case --attributes-only sym new
cpr_case --attributes-only -d sym new
# It leaves an existing destination's data and its other names alone:
# a file with a second link is not replaced by a new one (as a full copy
# with --preserve=links does), nor is any file by a copy of a FIFO.
setup_fifo ()
{
  setup_tree && mkfifo fifo
}
cpr_case --attributes-only -a f600 hard
cpr_case --attributes-only --preserve=links f777 hard
cpr_case --attributes-only -d f000 hard
cpr_case --cr-setup=setup_fifo --attributes-only -a fifo existing
cpr_case --cr-setup=setup_fifo --attributes-only -R fifo existing

Exit $fail
