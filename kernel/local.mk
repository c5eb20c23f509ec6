## kernel/local.mk: the kernel series is data for vm/, shipped in the tarball.
## Copyright (C) 2026 The copyrange authors.  GPL-3.0-or-later.

EXTRA_DIST += kernel/series kernel/guest.config kernel/debug.config \
  $(wildcard $(srcdir)/kernel/*.patch)

# The series' interface for programs, installed where man and the
# compiler look: copy_range(2), and <copyrange.h>, which gives the call's
# number (SYS_copy_range, where the system's kernel headers lack it) and
# a copy_range() that checks the running kernel once (README, "Installing").
# notrans_: the page is the call's, named as the call is, whatever name
# --program-prefix and the like give cpr.
notrans_dist_man_MANS += kernel/copy_range.2
include_HEADERS += include/copyrange.h
# 'make installcheck' builds a program against the installed header alone
# and runs it, and runs the installed cpr and its masquerade link.
EXTRA_DIST += tests/install/use-header.c tests/install/use-header-race.c
CLEANFILES += tests/install/use-header$(EXEEXT)
installcheck-local:
	$(AM_V_CC)$(MKDIR_P) tests/install && \
	  $(CC) $(CPPFLAGS) -I'$(DESTDIR)$(includedir)' $(CFLAGS) $(LDFLAGS) \
	    -o tests/install/use-header$(EXEEXT) \
	    $(srcdir)/tests/install/use-header.c
	./tests/install/use-header$(EXEEXT)
	test -f '$(DESTDIR)$(man2dir)/copy_range.2'
	@cpr=`printf '%s\n' cpr | sed '$(transform)'`$(EXEEXT); \
	echo "'$(DESTDIR)$(bindir)/$$cpr' --version"; \
	'$(DESTDIR)$(bindir)'/"$$cpr" --version | sed 1q | \
	  grep '^'"$$cpr"' (copyrange) $(VERSION)$$'
	'$(DESTDIR)$(masqdir)/cp$(EXEEXT)' --version | sed 1q | \
	  grep '^cp (copyrange) $(VERSION)$$'

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

# kernel/prove-patches: each patch is needed -- the tests kernel/patch-tests
# names for it fail with the series built without it (one kernel build and
# one boot per row: run it on its own).  'make kernel-prove-patches
# PROVE_ROWS=0008' runs some rows only.
EXTRA_DIST += kernel/prove-patches kernel/patch-tests
PROVE_ROWS =
.PHONY: kernel-prove-patches
kernel-prove-patches: $(check_PROGRAMS) $(check_SCRIPTS) $(bin_PROGRAMS)
	$(srcdir)/kernel/prove-patches --builddir '$(abs_top_builddir)' \
	  --srcdir '$(abs_top_srcdir)' $(PROVE_ROWS)

# How vm/build-kernel and kernel/build-deb prepare the patched tree.
EXTRA_DIST += kernel/tree-lib.sh

# The patched kernel as Debian packages (bindeb-pkg), for a test machine:
# kernel/build-deb prepares the tree as vm/build-kernel does (both source
# kernel/tree-lib.sh) and leaves the packages in kernel-deb/.
# KERNEL_DEB_CONFIG=FILE, on make's command line or in the environment,
# builds a whole configuration (a machine's /boot/config-*, or Debian's
# from linux-config-6.1) instead of the guest's.  A kernel build, not
# part of any check: run it on its own.
KERNEL_DEB_CONFIG ?=
EXTRA_DIST += kernel/build-deb
.PHONY: kernel-deb
kernel-deb:
	KERNEL_DEB_CONFIG='$(KERNEL_DEB_CONFIG)' \
	  $(srcdir)/kernel/build-deb '$(abs_top_builddir)/kernel-deb'
clean-local: clean-kernel-deb
.PHONY: clean-kernel-deb
clean-kernel-deb:
	rm -rf kernel-deb
