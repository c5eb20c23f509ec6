## kernel/local.mk: the kernel series is data for vm/, shipped in the tarball.
## Copyright (C) 2026 The copyrange authors.  GPL-3.0-or-later.

EXTRA_DIST += kernel/series kernel/guest.config kernel/debug.config \
  $(wildcard $(srcdir)/kernel/*.patch) $(wildcard $(srcdir)/kernel/*.2)

# kernel/check-series: the series applies to a fresh unpack and builds
# (bzImage, and the kselftest once added) after each patch, with
# checkpatch --strict run on each.  A kernel build: on a shared machine,
# run it on its own, not beside another build or a guest.
EXTRA_DIST += kernel/check-series
# The series is generated from a git tree of linux-source-6.1 with
# git format-patch (kernel/export-series), the cover letter's text from
# kernel/cover-letter.txt.
EXTRA_DIST += kernel/export-series kernel/cover-letter.txt
.PHONY: kernel-check-series
kernel-check-series:
	$(srcdir)/kernel/check-series
