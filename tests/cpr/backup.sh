#!/bin/sh
# Backups: -b, --backup with every CONTROL value and abbreviation, -S and
# --suffix, VERSION_CONTROL and SIMPLE_BACKUP_SUFFIX, existing numbered
# backups, backups of directories and symlinks, and -v's backup notes.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

setup_tree ()
{
  printf 'new contents\n' > src && printf 'old contents\n' > dst &&
  printf 'plain\n' > plain &&
  printf 'numbered\n' > num && printf 'n1\n' > num.~1~ && printf 'n7\n' > num.~7~ &&
  printf 'n\n' > num.~x~ && printf 'simple\n' > num~ &&
  mkdir sd dd && printf 'sd\n' > sd/f && printf 'dd\n' > dd/f &&
  printf 'old f\n' > dd/src && printf 'g\n' > sd/g && printf 'old g\n' > dd/g~ &&
  ln -s dst dstlink && ln -s src srclink &&
  printf 'bak\n' > src~
}

for control in none off numbered t existing nil simple never \
               n nu numb e ex s si ne of; do
  cpr_case --backup=$control src dst
  cpr_case --backup=$control src num
  cpr_case --backup=$control src new
  cpr_case --backup=$control -v src num
done

cpr_case -b src dst
cpr_case -b src num
cpr_case -bv src dst
cpr_case --backup src dst
cpr_case -b -S .bak src dst
cpr_case -b --suffix=.orig src num
cpr_case -S .bak src dst
cpr_case --suffix=.bak --backup=numbered src dst
cpr_case --suffix=.bak --backup=existing src dst
cpr_case -b -S '' src dst
cpr_case -b -S / src dst
cpr_case -b -S a/b src dst
cpr_case -b -S .x -S .y src dst

# The environment.
for vc in none off numbered t existing nil simple never bogus ''; do
  cpr_case --cr-env=VERSION_CONTROL=$vc -b src dst
  cpr_case --cr-env=VERSION_CONTROL=$vc -b src num
  cpr_case --cr-env=VERSION_CONTROL=$vc --backup=simple src num
done
cpr_case --cr-env=SIMPLE_BACKUP_SUFFIX=.env -b src dst
cpr_case --cr-env=SIMPLE_BACKUP_SUFFIX=.env -b -S .opt src dst
cpr_case --cr-env=SIMPLE_BACKUP_SUFFIX=.env --backup=numbered src dst
cpr_case --cr-env=SIMPLE_BACKUP_SUFFIX=a/b -b src dst
cpr_case --cr-env=SIMPLE_BACKUP_SUFFIX=.env --cr-env=VERSION_CONTROL=t -b src num

# What gets backed up.
cpr_case -b src src~
cpr_case -b dst~ dst
cpr_case -b src~ src
cpr_case -b src dstlink
cpr_case -b -d srclink dstlink
cpr_case -b --remove-destination src dst
cpr_case -bf src dst
cpr_case -b -r sd dd
cpr_case -bv -r sd dd
cpr_case --backup=numbered -r sd dd
cpr_case -b -r sd/ plain
cpr_case -b -T -r sd dd
cpr_case -b src plain sd
cpr_case -b src src
cpr_case --backup=numbered num num
cpr_case -b num num~
cpr_case -b -l src dst
cpr_case -b -s src dst
cpr_case -b src num dd
cpr_case --backup=numbered src src dd

# A copy that fails after its backup was made puts the backup back, and
# -v says so: "'g.~1~' -> 'g' (unbackup)".  As nobody, for whom the
# source (root's, mode 000) cannot be read.
setup_unbackup () { printf 'a\n' > f && printf 'b\n' > g && chmod 000 f; }
cpr_case --cr-setup=setup_unbackup --cr-user=nobody -v --backup=numbered f g
cpr_case --cr-setup=setup_unbackup --cr-user=nobody -v -b f g
cpr_case --cr-setup=setup_unbackup --cr-user=nobody -b f g

Exit $fail
