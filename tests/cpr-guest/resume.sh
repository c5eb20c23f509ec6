#!/bin/sh
# In the guest: tests/cpr-data/resume.sh against the patched kernel's own
# copy_range (the shim only cuts calls short and fails them, no emulation).

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

if test -z "$COPYRANGE_GUEST"; then
  echo "$0: skipped test: needs the patched kernel in the guest"
  exit 77
fi
exec "${SHELL-/bin/sh}" "${srcdir=.}/tests/cpr-data/resume.sh"
