## vm/local.mk: the QEMU guest that runs the guest half of the suite.
## Copyright (C) 2026 The copyrange authors.  GPL-3.0-or-later.

vm_scripts = vm/run vm/build-kernel vm/build-initramfs vm/guest-init \
  vm/report-classes vm/guest-setup vm/guest-packages vm/guest-programs vm/make-programs vm/demo
EXTRA_DIST += $(vm_scripts)

VM_RUN = $(srcdir)/vm/run --builddir '$(abs_top_builddir)' \
  --srcdir '$(abs_top_srcdir)'
# A bound on one boot of 'make check': the guest suite's own time (2,128 s
# in the clean-clone CI of 2026-12-07, with the host tests running beside
# it on the two cores) and 40% more, so that a guest that hangs is
# reported inside CI's 90 minutes even after a cold kernel build (twice
# the suite's time would not be).  A test stuck for good is abandoned
# within its own limit (tests/guest-run).
VM_TIMEOUT = 3000

# 'make check' on the host: after the host tests, boot the guest once and
# run the guest tests inside it; their .log/.trs files and
# tests/guest-suite.log land in this build tree through the shared folder.
# Without QEMU (configure found none) or with --disable-guest-tests, the
# guest suite is reported as skipped, with the reason.
if GUEST_TESTS
check-local: check-guest
else
check-local:
	@echo "SKIP: the guest suite (GUEST_TESTS): configure --disable-guest-tests"
endif

.PHONY: check-guest check-in-guest vm-shell
# The kselftest binary comes from the kernel build, so it is made only
# when the guest runs: 'make check TESTS=...' builds no kernel.
check-guest: $(check_PROGRAMS) $(check_SCRIPTS) $(bin_PROGRAMS)
	@if test -n "$$COPYRANGE_GUEST"; then exit 0; fi; \
	if test -z '$(QEMU)' || test ! -x '$(QEMU)'; then \
	  echo "SKIP: the guest suite (GUEST_TESTS): no QEMU to boot the" \
	       "guest in (configure found no qemu-system-x86_64: QEMU='$(QEMU)');" \
	       "install qemu-system-x86 and run configure again"; \
	  exit 0; \
	fi; \
	if test '$(origin TESTS)' = 'command line'; then \
	  echo "TESTS given: the guest suite is not run; run guest tests with" \
	       "vm/run -- make check-in-guest GUEST_TESTS='...'"; \
	  exit 0; \
	fi; \
	$(MAKE) $(AM_MAKEFLAGS) tests/kernel/copy_range_test && \
	$(VM_RUN) --timeout $(VM_TIMEOUT) -- $(MAKE) check-in-guest

# The guest tests are not in the host's TESTS, so the test driver's own
# clean rules do not know their logs; vm/out holds the last boot's logs.
mostlyclean-local: mostlyclean-guest
clean-local: clean-guest
.PHONY: mostlyclean-guest clean-guest
mostlyclean-guest:
	rm -f $(GUEST_TESTS:.sh=.log) $(GUEST_TESTS:.sh=.trs) \
	  $(DEBUG_GUEST_TESTS:.sh=.log) $(DEBUG_GUEST_TESTS:.sh=.trs) \
	  $(LEAK_TEST:.sh=.log) $(LEAK_TEST:.sh=.trs) tests/guest-suite.log
clean-guest:
	rm -rf vm/out

# What the guest runs: the guest tests, with a test-suite log of their own.
# The host built every program already; the guest has no compiler or
# /usr/include, so its make must not see them as prerequisites, and its
# tests get an empty CC rather than the host's compiler, which the image
# does not have.  Each test runs under tests/guest-run: a time limit of
# CR_TEST_TIMEOUT seconds, and only the skips tests/guest-skips lists; the
# skips are listed at the end.
GUEST_SUITE_LOG = tests/guest-suite.log
check-in-guest:
	$(MAKE) $(AM_MAKEFLAGS) check-TESTS TESTS='$(GUEST_TESTS)' \
	  check_PROGRAMS= check_SCRIPTS= bin_PROGRAMS= CC= \
	  SH_LOG_COMPILER='$(SHELL) $(abs_top_srcdir)/tests/guest-run $(SHELL)' \
	  TEST_SUITE_LOG='$(GUEST_SUITE_LOG)'; \
	status=$$?; \
	$(SHELL) $(srcdir)/tests/guest-run --summary \
	  $(patsubst %.sh,%.log,$(GUEST_TESTS)); \
	exit $$status

# A long run of the random tests alone: tests/stress/stress.sh with
# STRESS_OPS operations per filesystem, for the model run and for the
# multi-process run each, and tests/kernel/compare.sh with
# STRESS_COMPARE_CALLS random calls per mount; STRESS_TESTS='...' runs
# some of them only.  A test may take all of STRESS_TIMEOUT, not the 600 s
# of 'make check'.  STRESS_VM_OPTS='--kernel debug' runs them under the
# debug kernel.
STRESS_OPS = 100000
STRESS_COMPARE_CALLS = 100000
STRESS_TESTS = tests/stress/stress.sh tests/kernel/compare.sh
STRESS_TIMEOUT = 43200
STRESS_VM_OPTS =
.PHONY: check-stress
check-stress: $(check_PROGRAMS) $(check_SCRIPTS) $(bin_PROGRAMS)
	$(VM_RUN) $(STRESS_VM_OPTS) --timeout $(STRESS_TIMEOUT) -- \
	  $(MAKE) check-in-guest GUEST_TESTS='$(STRESS_TESTS)' \
	  CR_STRESS_OPS=$(STRESS_OPS) CR_COMPARE_CALLS=$(STRESS_COMPARE_CALLS) \
	  CR_TEST_TIMEOUT=$(STRESS_TIMEOUT)

# 'make check-debug': the debug kernel (kernel/debug.config: KASAN,
# lockdep, UBSAN, object and list debugging, kmemleak) runs the guest
# suite, the tests too slow for 'make check' and a longer stress run,
# then a leak scan; vm/run fails it on any kernel report.  Everything runs
# several times slower than under the plain kernel, hence the limits.
LEAK_TEST = tests/guest/kmemleak.sh
EXTRA_DIST += $(LEAK_TEST)
# The NFS server restarted in the middle of a multi-GiB COPY: the source
# and the copy need a larger ext4 disk than 'make check' gives.  The
# client waits 60 s for the stopped copy's CB_OFFLOAD, then sends the
# COPY again: at the debug kernel's 4.5 MB/s (measured), 2 GiB takes
# about 8 minutes more, past the test's default wait of 240 s.
DEBUG_STRESS_OPS = 1000
DEBUG_RESTART_SIZE = 2G
DEBUG_RESTART_WAIT = 900
# The races of kernel patch 2 (tests/nfs/offload-cancel.sh and
# restart-loop.sh), more rounds than make check affords.
DEBUG_CANCEL_ROUNDS = 2000
DEBUG_RESTART_ROUNDS = 40
# The whole suite takes hours under KASAN: 'make check-debug DEBUG_PART=K'
# boots once for the K-th of DEBUG_PARTS slices of the guest tests (the
# tests only check-debug runs go in the last), each ending with the leak
# scan, so that the suite can be covered in boots of an hour or so.
DEBUG_PARTS = 4
DEBUG_PART =
debug_all_tests = $(GUEST_TESTS) $(DEBUG_GUEST_TESTS)
debug_slice = $(shell expr $(words $(debug_all_tests)) \* $(1) / $(DEBUG_PARTS))
debug_first = $(shell expr $(call debug_slice,$(shell expr $(DEBUG_PART) - 1)) + 1)
debug_tests = $(if $(DEBUG_PART),$(wordlist $(debug_first),\
  $(call debug_slice,$(DEBUG_PART)),$(debug_all_tests)),$(debug_all_tests))
DEBUG_TIMEOUT = 10800
DEBUG_TEST_TIMEOUT = 2400
.PHONY: check-debug
check-debug: $(check_PROGRAMS) $(check_SCRIPTS) $(bin_PROGRAMS) \
  tests/kernel/copy_range_test
	$(VM_RUN) --kernel debug --timeout $(DEBUG_TIMEOUT) --disk ext4=8G -- \
	  $(MAKE) check-in-guest \
	  GUEST_TESTS='$(debug_tests) $(LEAK_TEST)' \
	  CR_STRESS_OPS=$(DEBUG_STRESS_OPS) CR_TEST_TIMEOUT=$(DEBUG_TEST_TIMEOUT) \
	  CR_RESTART_SIZE=$(DEBUG_RESTART_SIZE) CR_RESTART_WAIT=$(DEBUG_RESTART_WAIT) \
	  CR_CANCEL_ROUNDS=$(DEBUG_CANCEL_ROUNDS) \
	  CR_RESTART_ROUNDS=$(DEBUG_RESTART_ROUNDS)

# 'make check-debug-reports': tests/vm/debug-reports.sh boots the debug
# kernel twice to show that its checkers' reports (KASAN, UBSAN, lockdep,
# a general protection fault), provoked for real, fail a run.  A debug
# kernel build and two slow boots: not part of 'make check'.
.PHONY: check-debug-reports
check-debug-reports:
	$(MAKE) $(AM_MAKEFLAGS) check TESTS=tests/vm/debug-reports.sh

# The main job: boot the patched kernel and copy with cpr (vm/demo).
.PHONY: demo
demo: $(bin_PROGRAMS)
	$(VM_RUN) --timeout $(VM_TIMEOUT) -- $(abs_top_srcdir)/vm/demo

# An interactive shell in the guest, for debugging.
vm-shell:
	$(VM_RUN) --debug
