
## The copy_range(2) ABI, run in the guest on each scratch filesystem.
kernel_test_common = tests/kernel/cr-test.c tests/kernel/cr-test.h
check_PROGRAMS += tests/kernel/cr-abi tests/kernel/cr-data \
  tests/kernel/cr-interrupt tests/kernel/cr-compare
tests_kernel_cr_abi_SOURCES = tests/kernel/abi.c $(kernel_test_common)
tests_kernel_cr_data_SOURCES = tests/kernel/data.c $(kernel_test_common)
tests_kernel_cr_interrupt_SOURCES = tests/kernel/interrupt.c \
  $(kernel_test_common)
tests_kernel_cr_compare_SOURCES = tests/kernel/compare.c $(kernel_test_common)
tests_kernel_cr_abi_LDADD = lib/libgnu.a
tests_kernel_cr_data_LDADD = lib/libgnu.a
tests_kernel_cr_interrupt_LDADD = lib/libgnu.a
tests_kernel_cr_compare_LDADD = lib/libgnu.a
GUEST_TESTS += tests/kernel/abi.sh tests/kernel/data.sh \
  tests/kernel/interrupt.sh tests/kernel/compare.sh tests/kernel/selftest.sh
EXTRA_DIST += tests/kernel/each-fs.sh

# The kernel series' own selftest: vm/build-kernel builds it with the
# series' uapi headers; copy it here, where the guest can run it.
if GUEST_TESTS
check_SCRIPTS = tests/kernel/copy_range_test
endif
CLEANFILES += tests/kernel/copy_range_test
tests/kernel/copy_range_test: $(srcdir)/kernel/series \
  $(wildcard $(srcdir)/kernel/*.patch)
	$(AM_V_GEN)kdir=$$($(srcdir)/vm/build-kernel) \
	  && $(MKDIR_P) tests/kernel \
	  && cp "$$kdir/selftests/copy_range_test" $@-t && mv $@-t $@
