## tests/local.mk: the test suite.
## Copyright (C) 2026 The copyrange authors.
## SPDX-License-Identifier: GPL-3.0-or-later
##
## HOST_TESTS run on the build machine's own kernel.  GUEST_TESTS need the
## patched kernel and the scratch filesystems: 'make check' runs them inside
## the QEMU guest (vm/run), where COPYRANGE_GUEST is set; run anywhere else
## they skip.  The two lists write their .log and .trs files into the same
## tree (the guest sees it through a shared folder), so a test is in one of
## them only, and 'make -j check' can run the host tests beside the guest.
## DEBUG_GUEST_TESTS run in the guest too, but only under 'make
## check-debug' (vm/local.mk): too slow for every 'make check'.

HOST_TESTS =
GUEST_TESTS =
DEBUG_GUEST_TESTS =

# The guest proves the loop: the patched kernel, scratch filesystems and
# NFSv4.2 over loopback.
GUEST_TESTS += tests/guest/kernel.sh tests/guest/scratch-fs.sh tests/guest/nfs-loopback.sh \
  tests/guest/modes.sh

# cpr side by side with GNU cp (/bin/cp) on the host: every option,
# diagnostic and exit status, compared by running both on the same trees.
# tests/cpr/compare-lib.sh is their shared code; CPR=/bin/cp validates them.
CPR_COMPARE_TESTS =				\
  tests/cpr/backup.sh				\
  tests/cpr/symlinks.sh				\
  tests/cpr/recursive.sh			\
  tests/cpr/sparse.sh				\
  tests/cpr/sparse-zeros.sh			\
  tests/cpr/grow.sh				\
  tests/cpr/unprivileged.sh			\
  tests/cpr/reflink.sh				\
  tests/cpr/preserve.sh				\
  tests/cpr/quoting.sh				\
  tests/cpr/errors.sh				\
  tests/cpr/large.sh				\
  tests/cpr/links.sh				\
  tests/cpr/update-links.sh			\
  tests/cpr/interactive.sh			\
  tests/cpr/parents.sh				\
  tests/cpr/usage.sh				\
  tests/cpr/write-errors.sh			\
  tests/cpr/xdev.sh				\
  tests/cpr/basic.sh				\
  tests/cpr/proc.sh				\
  tests/cpr/debug.sh				\
  tests/cpr/progname.sh				\
  tests/cpr/help-version.sh			\
  tests/cpr/context.sh				\
  tests/cpr/samefile.sh				\
  tests/cpr/race.sh				\
  tests/cpr/inject.sh				\
  tests/cpr/coarse-time.sh			\
  tests/cpr/default-acl.sh			\
  tests/cpr/progress.sh				\
  tests/cpr/fifo-dst.sh				\
  tests/cpr/dangling-dst.sh			\
  tests/cpr/update-swap.sh			\
  tests/cpr/stale-mode.sh			\
  tests/cpr/link-dst.sh				\
  tests/cpr/xattr-conf.sh			\
  tests/cpr/xattr-errors.sh			\
  tests/cpr/preserve-others.sh			\
  tests/cpr/utf8-quotes.sh			\
  tests/cpr/translations.sh
# Comparisons not yet passing with this tree's cpr wait here, out of
# 'make check'; 'make check-pending' runs them.  None at present.
CPR_COMPARE_PENDING =
EXTRA_DIST += $(CPR_COMPARE_PENDING)
.PHONY: check-pending
check-pending: $(bin_PROGRAMS)
	$(MAKE) $(AM_MAKEFLAGS) check-TESTS TESTS='$(CPR_COMPARE_PENDING)' \
	  TEST_SUITE_LOG=tests/pending-suite.log
HOST_TESTS += $(CPR_COMPARE_TESTS)
EXTRA_DIST += tests/cpr/compare-lib.sh
# The same comparisons with cpr --jobs=4 (CR_CPR_JOBS, compare-lib.sh):
# regular files copied side by side must change nothing but the time.
# tests/cpr-jobs/NAME.jobs, made here, runs tests/cpr/NAME.sh so.  Only
# the new regular files of a tree are copied side by side: with --jobs
# a comparison runs again only its cases that copy a tree (cpr_case),
# and only the comparisons in which cpr hands files to its workers run
# so at all.  The others would run the very code that they run without
# --jobs, in about 540 of the 1290 seconds that all 40 took one at a
# time on a loaded machine (CPR_JOBS_REPORT=FILE counts the files handed
# over; 'make check TESTS=tests/cpr-jobs/NAME.jobs' runs any of them):
#   no tree copied, only files (with -r or -a in sparse-zeros, large,
#     update-links, proc): basic, grow, progname, help-version,
#     samefile, race, inject, coarse-time, fifo-dst, dangling-dst,
#     update-swap, link-dst, utf8-quotes, translations, sparse-zeros,
#     large, update-links, proc;
#   trees without a regular file: usage, stale-mode, xattr-conf;
#   write-errors, whose trees go to /dev/full or to a file system of
#     1 MiB, too small for copies side by side (cpr(1); jobs.sh fills
#     one up with --jobs).
# Written out: Automake rewrites TESTS for EXEEXT and loses a
# substitution reference ($(VAR:%=...)) on the way, leaving bare names.
CPR_JOBS_TESTS = \
  tests/cpr-jobs/backup.jobs \
  tests/cpr-jobs/symlinks.jobs \
  tests/cpr-jobs/recursive.jobs \
  tests/cpr-jobs/sparse.jobs \
  tests/cpr-jobs/unprivileged.jobs \
  tests/cpr-jobs/reflink.jobs \
  tests/cpr-jobs/preserve.jobs \
  tests/cpr-jobs/quoting.jobs \
  tests/cpr-jobs/errors.jobs \
  tests/cpr-jobs/links.jobs \
  tests/cpr-jobs/interactive.jobs \
  tests/cpr-jobs/parents.jobs \
  tests/cpr-jobs/xdev.jobs \
  tests/cpr-jobs/debug.jobs \
  tests/cpr-jobs/context.jobs \
  tests/cpr-jobs/default-acl.jobs \
  tests/cpr-jobs/progress.jobs \
  tests/cpr-jobs/preserve-others.jobs
HOST_TESTS += $(CPR_JOBS_TESTS)
# Any of them, those made on demand too.
CLEANFILES += $(CPR_COMPARE_TESTS:tests/cpr/%.sh=tests/cpr-jobs/%.jobs)
# Kept: made by a pattern rule, they would go as intermediate files.
.PRECIOUS: tests/cpr-jobs/%.jobs
tests/cpr-jobs/%.jobs: tests/cpr/%.sh
	$(AM_V_GEN)$(MKDIR_P) tests/cpr-jobs && \
	{ echo '#!/bin/sh'; \
	  echo '# tests/cpr/$*.sh with cpr --jobs=4 (made by tests/local.mk).'; \
	  echo 'CR_CPR_JOBS=4; export CR_CPR_JOBS'; \
	  echo 'exec "$${SHELL-/bin/sh}" "$${srcdir-.}/tests/cpr/$*.sh" "$$@"'; \
	} > $@-t && chmod +x $@-t && mv $@-t $@
# The same tree copied a hundred times with --jobs=8 and with --jobs=1;
# --jobs's own options and cases.
HOST_TESTS += tests/cpr/jobs-stress.sh tests/cpr/jobs.sh \
  tests/cpr/jobs-args.sh tests/cpr/jobs-auto.sh tests/cpr/jobs-names.sh \
  tests/cpr/jobs-backup.sh tests/cpr/jobs-nofile.sh tests/cpr/jobs-fold.sh \
  tests/cpr/jobs-memory.sh tests/cpr/jobs-handback.sh tests/cpr/jobs-inherited.sh \
  tests/cpr/jobs-into-self.sh tests/cpr/jobs-verbose.sh \
  tests/cpr/jobs-room.sh tests/cpr/jobs-report.sh tests/cpr/jobs-bind.sh \
  tests/cpr/jobs-closed.sh tests/cpr/jobs-oom.sh
# What jobs-oom.sh runs cpr with: memory that runs out at a chosen file.
check_PROGRAMS += tests/cpr/oom.so
tests_cpr_oom_so_SOURCES = tests/cpr/oom.c
# Not gnulib's headers: it wraps glibc's own functions.
tests_cpr_oom_so_CPPFLAGS = -I$(srcdir)/tests/cpr
tests_cpr_oom_so_CFLAGS = $(AM_CFLAGS) -fPIC
tests_cpr_oom_so_LDFLAGS = -shared
tests_cpr_oom_so_LDADD = -ldl
# What jobs-fold.sh checks: src/fold.c's decisions.
check_PROGRAMS += tests/cpr/fold-test
tests_cpr_fold_test_SOURCES = tests/cpr/fold-test.c src/fold.c src/fold.h
tests_cpr_fold_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/src
tests_cpr_fold_test_LDADD = lib/libgnu.a
# The opening of jobs.sh and jobs-names.sh: their mount namespace.
EXTRA_DIST += tests/cpr/jobs-lib.sh
# The diagnostics that utf8-quotes.sh and translations.sh compare.
EXTRA_DIST += tests/cpr/messages-lib.sh
# --progress on a terminal: cpr in a pseudo-terminal (script, from
# util-linux), slowed down by the data mover's shim.
HOST_TESTS += tests/cpr/progress-tty.sh
# --continue and the partial mark: copies killed by the data mover's
# shim, continued; and the cp -u trap, side by side with GNU cp.
HOST_TESTS += tests/cpr/continue.sh tests/cpr/update-trap.sh \
  tests/cpr/continue-trust.sh tests/cpr/kill-every-call.sh
# Their trees' timestamps and snapshots, without a process per file.
check_PROGRAMS += tests/cpr/tree-state
tests_cpr_tree_state_LDADD = lib/libgnu.a $(LIB_CRYPTO)
# The copy_range wrapper's probe, from threads at once, under
# ThreadSanitizer, which the test builds it with.
HOST_TESTS += tests/cpr/copy-range-race.sh
EXTRA_DIST += tests/cpr-data/copy-range-race.c
# System calls per file of a tree, against GNU cp's (strace).
HOST_TESTS += tests/cpr/calls.sh
# What the tests that trace cpr beside GNU cp check first.
EXTRA_DIST += tests/trace-lib.sh
# make install's masquerade directory: a makefile that runs plain cp with
# it first in PATH copies with cpr, and says what GNU cp says.
HOST_TESTS += tests/cpr/masquerade.sh
# What make install puts where the compiler and man look: a program built
# against the installed <copyrange.h> alone, and copy_range(2).
HOST_TESTS += tests/install/header.sh
# copy_range's number on each architecture, simulated by the preprocessor:
# <copyrange.h> and cpr's wrapper give the one kernel/*.patch gives.
HOST_TESTS += tests/install/nr-table.sh
# The Debian packages install and purge cleanly (dpkg --root): 'make deb'
# builds them, unless CR_DEBS names a directory that holds them already.
HOST_TESTS += tests/install/deb.sh
# DEB_BUILD_OPTIONS and KERNEL_DEB_CONFIG reach 'make deb' and 'make
# kernel-deb' from the environment too (make -n only).
HOST_TESTS += tests/install/make-vars.sh
# The installed cpr(1) names the masquerade directory as installed.
HOST_TESTS += tests/install/man-path.sh
# kernel/build-deb removes its old trees (kt_prune), on empty stand-ins.
HOST_TESTS += tests/install/kernel-deb-prune.sh
# kernel/build-deb refuses an option or a file for OUTDIR before it
# touches the cache.
HOST_TESTS += tests/install/kernel-deb-args.sh
# debian/copyright gives each file of the tarball its own notice's terms.
HOST_TESTS += tests/install/copyright.sh
# doc/cpr.1 is what 'make update-man' makes of --help and doc/cpr.h2m.
HOST_TESTS += tests/install/man-current.sh
# copy_range(2)'s SYNOPSIS and example build with <copyrange.h> and run.
HOST_TESTS += tests/install/man-example.sh

# copy_range offload: btrfs clones (kernel patches 0007-0008), the NFS
# client sends NFSv4.2 CLONE or COPY (0009), nfsd serves COPY (0010, 0001),
# xfs clones through the VFS's remap step (0005).
# CR_BTRFS_SIZE and CR_NFS_SIZE enlarge the copies.
check_PROGRAMS += tests/copy-range-file
tests_copy_range_file_SOURCES = tests/copy-range-file.c
GUEST_TESTS += tests/btrfs/clone-used-space.sh tests/btrfs/offsets.sh \
  tests/btrfs/sparse.sh tests/btrfs/compress.sh tests/btrfs/nodatasum.sh \
  tests/btrfs/ro-snapshot.sh tests/nfs/copy-btrfs-export.sh \
  tests/nfs/copy-ext4-export.sh tests/nfs/copy-v41.sh \
  tests/nfs/copy-large.sh \
  tests/xfs/clone.sh tests/nfs/abi-rules.sh
EXTRA_DIST += tests/offload-lib.sh

# COPY arguments the Linux NFS client never sends (offsets whose sum
# wraps loff_t), from a minimal NFSv4.2 client of its own: libc only.
check_PROGRAMS += tests/nfs/cr-raw-copy
tests_nfs_cr_raw_copy_SOURCES = tests/nfs/raw-copy.c
# Not gnulib's headers, which would want lib/libgnu.a.
tests_nfs_cr_raw_copy_CPPFLAGS =
GUEST_TESTS += tests/nfs/raw-copy.sh
# The same client asks nfsd for an inter-server COPY from itself.
GUEST_TESTS += tests/nfs/inter-ssc.sh
# And races OFFLOAD_CANCEL, and nfsd's shutdown, with copies ending on
# their own: kernel patch 2's pinned copy thread.  make check-debug runs
# them longer, under KASAN.
GUEST_TESTS += tests/nfs/offload-cancel.sh tests/nfs/restart-loop.sh

# What each step of copy_range costs on NFS, in CLONE, COPY and COMMIT
# requests.
GUEST_TESTS += tests/nfs/clone-steps.sh

# The tests of each half, one a line: .ci/run names their skips.
.PHONY: list-host-tests list-guest-tests
list-host-tests:
	@for t in $(HOST_TESTS); do echo $$t; done
list-guest-tests:
	@for t in $(GUEST_TESTS); do echo $$t; done

# The host runs HOST_TESTS; check-local boots the guest and runs
# GUEST_TESTS there (vm/local.mk), with a test-suite log of their own.
TESTS = $(HOST_TESTS)

TEST_EXTENSIONS = .sh .jobs
# Each host test runs under tests/host-run: past CR_HOST_TEST_TIMEOUT
# seconds (900 by default; 'make check CR_HOST_TEST_TIMEOUT=N' changes
# it) it is killed, with its processes, and fails by name.  The tests
# named here may take longer: tests/vm/harness.sh's boots wait for the
# kernel, which a parallel 'make check' may be building from cold.
HOST_TEST_LIMITS = tests/vm/harness.sh=3600 tests/vm/debug-reports.sh=5400
SH_LOG_COMPILER = $(SHELL) $(srcdir)/tests/host-run $(SHELL)
JOBS_LOG_COMPILER = $(SH_LOG_COMPILER)
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
    CR_HOST_TEST_LIMITS='$(HOST_TEST_LIMITS)'		\
    PATH='$(abs_top_builddir)/src$(PATH_SEPARATOR)'"$$PATH" \
    ;

# configure --disable-guest-tests: no test boots a guest, not even the
# small ones of tests/vm/harness.sh (make distcheck's check is so
# configured: Makefile.am).
if !GUEST_TESTS
AM_TESTS_ENVIRONMENT += CR_SKIP_GUEST=1; export CR_SKIP_GUEST;
endif

EXTRA_DIST += $(filter-out $(CPR_JOBS_TESTS),$(HOST_TESTS)) $(GUEST_TESTS) \
  $(DEBUG_GUEST_TESTS) tests/init.sh \
  init.cfg tests/host-run tests/guest-run tests/guest-skips \
  tests/vm/failing-fixture.sh tests/vm/hang-fixture.sh \
  tests/vm/skip-fixture.sh tests/vm/reports-fixture.sh \
  tests/vm/frozen-fixture.sh tests/vm/warn-fixture.sh \
  tests/vm/fserror-fixture.sh tests/vm/pass-fixture.sh \
  tests/vm/debug-reports.sh tests/vm/debug-reports-fixture.sh \
  tests/vm/lkdtm-lib.sh

## The copy_range(2) ABI, run in the guest on each scratch filesystem.
kernel_test_common = tests/kernel/cr-test.c tests/kernel/cr-test.h
check_PROGRAMS += tests/kernel/cr-abi tests/kernel/cr-data \
  tests/kernel/cr-interrupt tests/kernel/cr-compare tests/kernel/cr-contract
tests_kernel_cr_abi_SOURCES = tests/kernel/abi.c $(kernel_test_common)
tests_kernel_cr_data_SOURCES = tests/kernel/data.c $(kernel_test_common)
tests_kernel_cr_interrupt_SOURCES = tests/kernel/interrupt.c \
  $(kernel_test_common)
tests_kernel_cr_compare_SOURCES = tests/kernel/compare.c $(kernel_test_common)
tests_kernel_cr_contract_SOURCES = tests/kernel/contract.c \
  $(kernel_test_common)
tests_kernel_cr_abi_LDADD = lib/libgnu.a
tests_kernel_cr_data_LDADD = lib/libgnu.a
tests_kernel_cr_interrupt_LDADD = lib/libgnu.a
tests_kernel_cr_compare_LDADD = lib/libgnu.a
tests_kernel_cr_contract_LDADD = lib/libgnu.a
# compare.sh runs on the NFS mounts too, its random calls a few thousand
# per mount here and 100000 under 'make check-stress' (vm/local.mk).
GUEST_TESTS += tests/kernel/abi.sh tests/kernel/data.sh \
  tests/kernel/interrupt.sh tests/kernel/compare.sh tests/kernel/selftest.sh \
  tests/kernel/contract.sh
EXTRA_DIST += tests/kernel/each-fs.sh

# A signal that comes before a call has copied anything restarts it,
# unless a handler without SA_RESTART runs.
check_PROGRAMS += tests/kernel/cr-restart
tests_kernel_cr_restart_SOURCES = tests/kernel/restart.c $(kernel_test_common)
tests_kernel_cr_restart_LDADD = lib/libgnu.a
GUEST_TESTS += tests/kernel/restart.sh

# A call stops at MAX_RW_COUNT, so that a 32-bit caller's ssize_t holds
# its count.  cr-compat32 is a static i386 program: the guest has no
# 32-bit libraries and the suite's gnulib is 64-bit, so it is built here
# from its one file.  Where $(CC) cannot link a static 32-bit program (no
# gcc-multilib), the build goes on and writes a stand-in that makes
# compat32.sh fail, saying why; delete it to build again.  M32_CFLAGS
# adds flags to that build.
M32_CFLAGS =
check_SCRIPTS = tests/kernel/cr-compat32
CLEANFILES += tests/kernel/cr-compat32
EXTRA_DIST += tests/kernel/compat32.c
GUEST_TESTS += tests/kernel/compat32.sh
tests/kernel/cr-compat32: $(srcdir)/tests/kernel/compat32.c
	$(AM_V_GEN)$(MKDIR_P) tests/kernel; \
	probe=tests/kernel/m32-probe; \
	printf '#include <errno.h>\n#include <sys/syscall.h>\n%s\n' \
	  'int main (void) { return errno; }' > $$probe.c; \
	if $(CC) -m32 -static $(M32_CFLAGS) -o $$probe $$probe.c \
	     2> /dev/null; then \
	  rm -f $$probe $$probe.c; \
	  $(CC) -m32 -static -O2 $(WARN_CFLAGS) $(M32_CFLAGS) -o $@-t \
	    $(srcdir)/tests/kernel/compat32.c && mv $@-t $@; \
	else \
	  rm -f $$probe $$probe.c; \
	  echo "$@: $(CC) -m32 -static cannot link: writing a stand-in" \
	    "that fails (install gcc-multilib)" >&2; \
	  { echo '#!/bin/sh'; \
	    echo 'echo "FAIL: $$1: cr-compat32 was not built: the build' \
	      'host could not link a static 32-bit program (gcc-multilib)"'; \
	    echo 'exit 99'; } > $@-t && chmod +x $@-t && mv $@-t $@; \
	fi

# fsfreeze waits for one step of a copy, not for the whole copy.
check_PROGRAMS += tests/kernel/cr-freeze
tests_kernel_cr_freeze_SOURCES = tests/kernel/freeze.c $(kernel_test_common)
tests_kernel_cr_freeze_LDADD = lib/libgnu.a
GUEST_TESTS += tests/kernel/freeze.sh tests/kernel/overlay-freeze.sh

## copy_range(2) with NULL offsets under threads sharing the descriptors,
## and with one open file at both ends.
check_PROGRAMS += tests/kernel/cr-fpos
tests_kernel_cr_fpos_SOURCES = tests/kernel/fpos.c $(kernel_test_common)
tests_kernel_cr_fpos_CFLAGS = $(AM_CFLAGS) -pthread
tests_kernel_cr_fpos_LDFLAGS = -pthread
tests_kernel_cr_fpos_LDADD = lib/libgnu.a
GUEST_TESTS += tests/kernel/fpos.sh

## copy_range(2) offloads through ->copy_file_range where that is a
## filesystem's only offload: FUSE, served from memory by cr-fuse, a
## server of its own on /dev/fuse (libc only) that counts the requests.
check_PROGRAMS += tests/kernel/cr-fuse
tests_kernel_cr_fuse_SOURCES = tests/kernel/fuse-daemon.c
# Not gnulib's headers, which would want lib/libgnu.a.
tests_kernel_cr_fuse_CPPFLAGS =
GUEST_TESTS += tests/kernel/fuse.sh

## NFS: the client's state against the server's, on every NFS mount:
## a copy from a file a copy within it has grown, and a seeded random
## sequence of operations checked against a model of the files.
check_PROGRAMS += tests/nfs/cr-same-file tests/nfs/cr-model
tests_nfs_cr_same_file_SOURCES = tests/nfs/same-file.c $(kernel_test_common)
tests_nfs_cr_same_file_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tests/kernel
tests_nfs_cr_same_file_LDADD = lib/libgnu.a
tests_nfs_cr_model_SOURCES = tests/nfs/model.c $(kernel_test_common)
tests_nfs_cr_model_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tests/kernel
tests_nfs_cr_model_LDADD = lib/libgnu.a
GUEST_TESTS += tests/nfs/same-file.sh tests/nfs/model.sh

## NFS under a periodic timer: a copy finishes and keeps what the server
## copied; after SIGKILL the server stops copying for it.
check_PROGRAMS += tests/nfs/cr-signals
tests_nfs_cr_signals_SOURCES = tests/nfs/signals.c $(kernel_test_common)
tests_nfs_cr_signals_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tests/kernel
tests_nfs_cr_signals_LDADD = lib/libgnu.a
GUEST_TESTS += tests/nfs/signals.sh

## Random operations in the spirit of fsx, checked against a model and,
## with several processes on shared files, against an invariant, on every
## scratch filesystem.  'make check-stress' (vm/local.mk) runs long ones;
## on the host, cr-stress -C tries the model with copy_file_range(2).
check_PROGRAMS += tests/stress/cr-stress
tests_stress_cr_stress_SOURCES = tests/stress/fsx.c $(kernel_test_common)
tests_stress_cr_stress_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tests/kernel
tests_stress_cr_stress_LDADD = lib/libgnu.a
GUEST_TESTS += tests/stress/stress.sh
HOST_TESTS += tests/stress/host.sh

# The kernel series' own selftest: vm/build-kernel builds it with the
# series' uapi headers; copy it here, where the guest can run it.  Only
# the guest needs it (vm/local.mk's check-guest), so the host tests do
# not wait for the kernel build.
CLEANFILES += tests/kernel/copy_range_test
tests/kernel/copy_range_test: $(srcdir)/kernel/series \
  $(wildcard $(srcdir)/kernel/*.patch)
	$(AM_V_GEN)kdir=$$($(srcdir)/vm/build-kernel) \
	  && $(MKDIR_P) tests/kernel \
	  && cp "$$kdir/selftests/copy_range_test" $@-t && mv $@-t $@

## ---- The data mover (cpr-data) -----------------------------------------
## tests/cpr-data/shim.so is an LD_PRELOAD library that logs and fails the
## data calls (see shim.c); copy-range-test drives the copy_range wrapper.
check_PROGRAMS += tests/cpr-data/shim.so tests/cpr-data/copy-range-test
tests_cpr_data_shim_so_SOURCES = tests/cpr-data/shim.c
tests_cpr_data_shim_so_CPPFLAGS = -I$(top_srcdir)/gnulib-local/lib \
  -I$(top_srcdir)/include
# The shim takes copy-range.h from there, not lib/ (whose gnulib headers
# it must not see): a tarball needs it too.  It includes include/'s
# copyrange.h for the number.
EXTRA_DIST += gnulib-local/lib/copy-range.h
tests_cpr_data_shim_so_CFLAGS = $(AM_CFLAGS) -fPIC
tests_cpr_data_shim_so_LDFLAGS = -shared
tests_cpr_data_shim_so_LDADD = -ldl
tests_cpr_data_copy_range_test_LDADD = lib/libgnu.a
EXTRA_DIST += tests/cpr-data/lib.sh
HOST_TESTS += tests/cpr-data/fallback.sh tests/cpr-data/resume.sh \
  tests/cpr-data/errors.sh tests/cpr-data/enospc.sh tests/cpr-data/sparse.sh \
  tests/cpr-data/proc.sh tests/cpr-data/reflink.sh tests/cpr-data/chunk.sh \
  tests/cpr-data/readahead.sh tests/cpr-data/clock.sh \
  tests/cpr-data/unmarkable.sh
GUEST_TESTS += tests/cpr-guest/wrapper.sh tests/cpr-guest/offload.sh \
  tests/cpr-guest/resume.sh tests/cpr-guest/reflink.sh tests/cpr-guest/sigint.sh \
  tests/cpr-guest/unprivileged.sh
# cpr -a killed at several points, then cpr -a --continue, on btrfs, NFS
# and ext4; and killed at every system call in turn, on NFS.
GUEST_TESTS += tests/cpr-guest/continue.sh tests/cpr-guest/kill-every-call.sh
# cpr --jobs=8 against --jobs=1 on every scratch file system and NFS
# mount, and a copy killed with files in flight, continued with --jobs=8.
GUEST_TESTS += tests/cpr-guest/jobs.sh
# cpr's own copy shares the source's extents on btrfs and xfs, and on NFS
# over btrfs the client sends CLONE and the server shares them.
GUEST_TESTS += tests/cpr-guest/shares.sh

# The benchmark's own code (bench/): its report and the helpers of
# bench/lib.sh, on canned figures and small trees; 'make bench' measures.
HOST_TESTS += tests/bench/report.sh tests/bench/helpers.sh \
  tests/bench/jobs-report.sh

## ---- Faults (tests/faults) ----------------------------------------------
## copy_range(2) and cpr under faults, on small scratch filesystems on loop
## devices (tests/faults/lib.sh): ENOSPC mid-copy, I/O errors from
## device-mapper, allocation failures injected into the copying thread
## (cr-fail-nth), SIGKILL and fsfreeze mid-copy.  Each ends with an error
## or a correct copy, and the destination never holds more than a prefix
## of the source.
check_PROGRAMS += tests/faults/cr-fail-nth
tests_faults_cr_fail_nth_SOURCES = tests/faults/fail-nth.c \
  $(kernel_test_common)
tests_faults_cr_fail_nth_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/tests/kernel
tests_faults_cr_fail_nth_LDADD = lib/libgnu.a
GUEST_TESTS += tests/faults/enospc.sh tests/faults/eio.sh \
  tests/faults/alloc.sh tests/faults/sigkill.sh tests/faults/freeze-cpr.sh
EXTRA_DIST += tests/faults/lib.sh

# The NFS server restarted mid-COPY; the client takes about a minute to
# notice the restart and reclaim its state.  It is the test of kernel
# patch 2: without it, 6.1's nfsd oopses in nfsd4_run_cb() when the
# stopped copy thread sends CB_OFFLOAD.
GUEST_TESTS += tests/faults/nfsd-restart.sh

# tests/host-run, under which each host test runs: a test past its time
# limit is killed with its processes and fails by name.
HOST_TESTS += tests/harness/host-run.sh

# The guest's image holds each program configure chose on this host that
# the guest's make can call (vm/make-programs).  It builds the image, as
# the guest half does, but boots nothing.
HOST_TESTS += tests/vm/image-programs.sh

# Tests of the harness itself, run on the host.  Last in the list: they
# boot guests, so they wait for the kernel, which a parallel 'make check'
# is building meanwhile; the tests above need no kernel and go first.
HOST_TESTS += tests/vm/harness.sh
