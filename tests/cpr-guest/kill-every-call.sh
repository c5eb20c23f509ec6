#!/bin/sh
# In the guest: tests/cpr/kill-every-call.sh on the NFSv4.2 mount, where
# the destination's creation, its mode and its xattrs are each a round
# trip to the server, and a kill can fall between any two of them.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

test -n "$COPYRANGE_GUEST" || { echo "needs the NFS mount in the guest"; exit 77; }
CR_KILL_DIRS=$CR_MNT_NFS exec "${srcdir=.}/tests/cpr/kill-every-call.sh"
