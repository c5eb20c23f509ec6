## kernel/local.mk: the kernel series is data for vm/, shipped in the tarball.
## Copyright (C) 2026 The copyrange authors.  GPL-3.0-or-later.

EXTRA_DIST += kernel/series kernel/guest.config \
  $(wildcard $(srcdir)/kernel/*.patch) $(wildcard $(srcdir)/kernel/*.2)
