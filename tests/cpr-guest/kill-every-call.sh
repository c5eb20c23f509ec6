#!/bin/sh
# In the guest: tests/cpr/kill-every-call.sh on the NFSv4.2 mount, where
# the destination's creation, its mode and its xattrs are each a round
# trip to the server, and a kill can fall between any two of them.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

# A kill at any other call leaves what a kill at the next of these does
# (close too: the kill closes the file just the same); killing at every
# call, as on the host, takes too long under emulation.

test -n "$COPYRANGE_GUEST" || { echo "needs the NFS mount in the guest"; exit 77; }
CR_KILL_CALLS="openat mkdirat symlinkat linkat renameat renameat2
  unlinkat fchmod fchmodat fchown fchownat utimensat fsetxattr lsetxattr
  setxattr fremovexattr lremovexattr removexattr ftruncate copy_file_range
  write pwrite64 ioctl fallocate exit_group"
CR_KILL_DIRS=$CR_MNT_NFS CR_KILL_CALLS=$(echo $CR_KILL_CALLS) \
  exec "${srcdir=.}/tests/cpr/kill-every-call.sh"
