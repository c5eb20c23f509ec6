#!/bin/sh
# Allocation failures injected into copy_range(2) alone (failslab and
# fail_page_alloc, through the copying thread's fail-nth and make-it-fail):
# on a small ext4 (the copy through the page cache), a small btrfs (a
# clone) and tmpfs.  Every call fails with ENOMEM or copies correctly,
# nothing but the source's bytes lands in the destination, the kernel
# reports nothing (vm/run fails the run on any report), and the
# filesystems check clean afterwards.  Where a failure makes btrfs abort
# its transaction (and go read-only, as it does for FICLONE), the
# filesystem must check clean, and the test goes on after a remount.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/faults
. "$abs_srcdir/tests/faults/lib.sh"
fail=0
require_mnt_ CR_MNT_TMPFS
# Bytes per copy: 32 pages, so that a sweep over every allocation of the
# call stays short.
len=$((128 * 1024))

dbg=/sys/kernel/debug
grep -q " $dbg debugfs " /proc/mounts || mount -t debugfs debugfs $dbg \
  || framework_failure_ "cannot mount debugfs"
test -d $dbg/failslab && test -d $dbg/fail_page_alloc \
  || framework_failure_ "the kernel has no failslab or fail_page_alloc"

# fi_set_ ATTR VALUE...: set debugfs fault attribute ATTR (failslab/...)
# to VALUE, remembering the old value for cleanup_.
fi_saved_=
fi_set_ ()
{
  f_=$dbg/$1
  test -w "$f_" || framework_failure_ "no $f_"
  fi_saved_="$1=$(cat "$f_") $fi_saved_"
  echo "$2" > "$f_" || framework_failure_ "cannot write $2 to $f_"
}
cleanup_ ()
{
  for a_ in $fi_saved_; do echo "${a_#*=}" > "$dbg/${a_%%=*}"; done
  faults_cleanup_
}

# Fail nothing at random, say nothing (verbose=2 prints a stack dump per
# failure), and let sleeping allocations of any order and zone fail: the
# page cache's pages are highmem-capable, order 0 and may sleep.
for fi in failslab fail_page_alloc; do
  fi_set_ $fi/probability 0
  fi_set_ $fi/verbose 0
  fi_set_ $fi/task-filter Y
  fi_set_ $fi/interval 1
  fi_set_ $fi/times -1
  fi_set_ $fi/space 0
  fi_set_ $fi/ignore-gfp-wait N
done
fi_set_ fail_page_alloc/ignore-gfp-highmem N
fi_set_ fail_page_alloc/min-order 0

# fsck_ FS DEV: whether the unmounted FS on DEV checks clean.
fsck_ ()
{
  case $1 in
    ext4) e2fsck -fn "$2" ;;
    btrfs) btrfs check "$2" ;;
  esac > fsck.out 2>&1 && return 0
  cat fsck.out
  echo "FAIL: $1: the filesystem on $2 does not check clean"
  return 1
}

# run_ FS MNT DEV MAX ARGS...: cr-fail-nth ARGS..., resumed after each
# time the filesystem went read-only (btrfs aborts its transaction when
# an allocation in it fails, and the next call cannot even empty the
# destination): the filesystem must then check clean, and the run goes
# on from the next call after a remount, at most MAX times (a remount is
# slow).  The random rounds (-r) stop there; the sweep fails there, as
# the allocations after that call would go untried.  DEV is empty for
# tmpfs, which has no transaction to abort.
run_ ()
{
  fs_=$1 mnt_=$2 dev_=$3 max_=$4
  shift 4
  start_=1 aborts_=0
  while :; do
    cr-fail-nth -s $start_ "$@" > nth.out 2>&1
    st_=$?
    sed "s/^/$fs_: /" nth.out
    # A bad outcome before the filesystem went read-only is counted by
    # cr-fail-nth, whose exit status then says read-only (3), not bad.
    grep -q '^FAIL: ' nth.out && fail=1
    test $st_ = 3 && test -n "$dev_" || break
    aborts_=$((aborts_ + 1))
    start_=$(sed -n 's/^read-only after call \([0-9]*\)$/\1/p' nth.out)
    start_=$((start_ + 1))
    umount "$mnt_" || framework_failure_ "umount $mnt_"
    fsck_ $fs_ "$dev_" || fail=1
    mount -t $fs_ "$dev_" "$mnt_" || framework_failure_ "mount $dev_"
    if test $aborts_ -ge $max_; then
      echo "$fs_: stopping at call $start_ after $aborts_ remounts"
      test "$1" = -r || {
        echo "FAIL: $fs_: the sweep stopped before its end: calls from $start_ on were not tried"
        fail=1; }
      st_=0
      break
    fi
  done
  test $aborts_ = 0 || echo "$fs_: the filesystem went read-only $aborts_ times"
  test $st_ = 0 || { echo "FAIL: $fs_: cr-fail-nth $* exited with $st_"; fail=1; }
}

# alloc_on_ FS MNT [DEV]: the sweep and the random rounds on MNT.
alloc_on_ ()
{
  scratch_dir_ "$2"
  random_file_ "$dir/src" $len
  fs_sync_ "$2"
  run_ $1 "$2" "$3" 50 "$dir/src" "$dir/dst" $len

  # At random: one allocation in ten of the copying thread fails.
  for fi in failslab fail_page_alloc; do
    echo 10 > $dbg/$fi/probability && echo 100000 > $dbg/$fi/times \
      || framework_failure_
  done
  run_ $1 "$2" "$3" 3 -r 100 "$dir/src" "$dir/dst" $len
  left=$(( $(cat $dbg/failslab/times) + $(cat $dbg/fail_page_alloc/times) ))
  for fi in failslab fail_page_alloc; do
    echo 0 > $dbg/$fi/probability && echo -1 > $dbg/$fi/times \
      || framework_failure_
  done
  echo "$1: $((200000 - left)) allocations failed at random"
  test $left -lt 200000 \
    || { echo "FAIL: $1: no allocation failed at random"; fail=1; }
}

scratch_dir_ "$CR_MNT_XFS"
ext4=$dir
small_fs_ ext4 64M "$ext4"
alloc_on_ ext4 "$ext4" "$loop"
umount "$ext4" || framework_failure_
fsck_ ext4 "$loop" || fail=1

scratch_dir_ "$CR_MNT_XFS"
btrfs=$dir
small_fs_ btrfs 160M "$btrfs"
alloc_on_ btrfs "$btrfs" "$loop"
umount "$btrfs" || framework_failure_
fsck_ btrfs "$loop" || fail=1

alloc_on_ tmpfs "$CR_MNT_TMPFS" ""

Exit $fail
