#!/bin/sh
# Random operations in the spirit of fsx (tests/stress/fsx.c): on every
# scratch filesystem, a seeded sequence of copy_range, writes, truncates,
# hole punches, mapped writes, clones, syncs and cache drops checked
# against a model of the files, then several processes racing the same
# kinds of operations on shared files, where no byte may appear that was
# never written.  The fixed seed and short runs fit 'make check';
# CR_STRESS_OPS=N makes each run N operations long and CR_STRESS_SEED
# changes the seed ('make check-stress' does a long run).  A failure
# prints the seed, the options and the last operations.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/stress
. "$abs_srcdir/tests/kernel/each-fs.sh"
fail=0

seed=${CR_STRESS_SEED-1}

# Operations per run, chosen to keep the whole test under a minute in
# the guest under TCG.  Measured there, 1000 operations took (seconds):
#                btrfs  ext4  xfs  tmpfs  nfs-btrfs  nfs-ext4  nfs41
#   model          9.9   2.7  3.6    1.0       33.4      26.2   28.7
#   4 processes    5.0   1.7  2.7    0.6       20.4      12.6   17.4
ops_ ()
{
  case $1 in
    nfs*) echo ${CR_STRESS_OPS-$2} ;;
    *) echo ${CR_STRESS_OPS-$3} ;;
  esac
}

# Where the filesystem must clone (-c) and punch holes (-h): the NFSv4.1
# mount has neither CLONE nor DEALLOCATE, ext4 and tmpfs do not clone,
# and the ext4 export passes that on.
must_ ()
{
  case $1 in
    btrfs | xfs | nfs-btrfs) echo -c -h ;;
    ext4 | tmpfs | nfs-ext4) echo -h ;;
  esac
}

stress_model_ ()
{
  cr-stress $(must_ $1) -s "$seed" -n $(ops_ $1 200 600) "$@"
}
stress_multi_ ()
{
  cr-stress $(must_ $1) -s "$seed" -n $(ops_ $1 300 1000) -p 4 "$@"
}

all='btrfs ext4 xfs tmpfs nfs-btrfs nfs-ext4 nfs41'
run_on_each_fs_ stress_model_ $all
run_on_each_fs_ stress_multi_ $all

Exit $fail
