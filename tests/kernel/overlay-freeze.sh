#!/bin/sh
# overlayfs offloads copy_range through its ->copy_file_range, which
# copies on the real files under the real filesystem's freeze protection:
# fsfreeze of the ext4 below an overlay during a 1 GiB copy_range in the
# overlay returns within seconds, while the copy is still running, and
# the copy finishes after the thaw, identical, with no call failing.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./tests/kernel
test -n "$COPYRANGE_GUEST" || skip_ 'needs the copyrange guest kernel'
# The guest kernel has overlayfs (kernel/guest.config): its absence fails.
grep -qw overlay /proc/filesystems \
  || fail_ "no overlayfs in /proc/filesystems: the guest kernel lacks it"
test -n "$CR_MNT_EXT4" && test -d "$CR_MNT_EXT4" \
  || fail_ "no ext4 scratch filesystem (CR_MNT_EXT4 unset)"

base=$(mktemp -d "$CR_MNT_EXT4/cr-ovl.XXXXXX") \
  || framework_failure_ "mktemp in $CR_MNT_EXT4"
cleanup_ ()
{
  umount "$base/merged" 2> /dev/null || umount -l "$base/merged" 2> /dev/null
  rm -rf "$base"
}
mkdir "$base/lower" "$base/upper" "$base/work" "$base/merged" \
  || framework_failure_ "mkdir in $base"
mount -t overlay overlay \
  -o "lowerdir=$base/lower,upperdir=$base/upper,workdir=$base/work" \
  "$base/merged" || fail_ "mount -t overlay on $base/merged failed"

cr-freeze overlay-ext4 "$base/merged" "$CR_MNT_EXT4" || fail=1

Exit $fail
