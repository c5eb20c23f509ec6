## tests/local.mk: the test suite.
## Copyright (C) 2026 The copyrange authors.  GPL-3.0-or-later.
##
## HOST_TESTS run on the build machine's own kernel.  GUEST_TESTS need the
## patched kernel and the scratch filesystems: 'make check' runs them inside
## the QEMU guest (vm/run), where COPYRANGE_GUEST is set; run anywhere else
## they skip.

HOST_TESTS =
GUEST_TESTS =

# Tests of the harness itself, run on the host.
HOST_TESTS += tests/vm/harness.sh

# The guest proves the loop: the patched kernel, scratch filesystems and
# NFSv4.2 over loopback.
GUEST_TESTS += tests/guest/kernel.sh tests/guest/scratch-fs.sh tests/guest/nfs-loopback.sh

# cpr side by side with GNU cp (/bin/cp) on the host: every option,
# diagnostic and exit status, compared by running both on the same trees.
# tests/cpr/compare-lib.sh is their shared code; CPR=/bin/cp validates them.
CPR_COMPARE_TESTS =				\
  tests/cpr/preserve.sh				\
  tests/cpr/backup.sh				\
  tests/cpr/symlinks.sh				\
  tests/cpr/quoting.sh				\
  tests/cpr/errors.sh				\
  tests/cpr/large.sh				\
  tests/cpr/links.sh				\
  tests/cpr/interactive.sh			\
  tests/cpr/parents.sh				\
  tests/cpr/usage.sh				\
  tests/cpr/recursive.sh			\
  tests/cpr/sparse.sh				\
  tests/cpr/write-errors.sh			\
  tests/cpr/unprivileged.sh			\
  tests/cpr/xdev.sh				\
  tests/cpr/basic.sh				\
  tests/cpr/proc.sh				\
  tests/cpr/reflink.sh				\
  tests/cpr/debug.sh				\
  tests/cpr/progname.sh				\
  tests/cpr/help-version.sh
HOST_TESTS += $(CPR_COMPARE_TESTS)
EXTRA_DIST += tests/cpr/compare-lib.sh

# On the host the guest tests skip (they need the patched kernel), and
# check-local then boots the guest and runs them there (vm/local.mk).
TESTS = $(HOST_TESTS) $(GUEST_TESTS)

TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT =					\
  LC_ALL=C; export LC_ALL;				\
  unset LANGUAGE VERSION_CONTROL SIMPLE_BACKUP_SUFFIX POSIXLY_CORRECT; \
  tmp__=$${TMPDIR-/tmp};				\
  test -d "$$tmp__" && test -w "$$tmp__" || tmp__=.;	\
  TMPDIR=$$tmp__; export TMPDIR;			\
  export						\
    VERSION='$(VERSION)'				\
    abs_top_builddir='$(abs_top_builddir)'		\
    abs_top_srcdir='$(abs_top_srcdir)'			\
    abs_srcdir='$(abs_srcdir)'				\
    built_programs='$(bin_PROGRAMS)'			\
    srcdir='$(srcdir)'					\
    top_srcdir='$(top_srcdir)'				\
    CC='$(CC)'						\
    MAKE=$(MAKE)					\
    PATH='$(abs_top_builddir)/src$(PATH_SEPARATOR)'"$$PATH" \
    ;

EXTRA_DIST += $(HOST_TESTS) $(GUEST_TESTS) tests/init.sh \
  tests/vm/failing-fixture.sh
