# copy-range.m4 serial 1
dnl Copyright (C) 2026 The copyrange authors.
dnl This file is free software; the copyrange authors give unlimited
dnl permission to copy and/or distribute it, with or without
dnl modifications, as long as this notice is preserved.

dnl The copy_range system call has no libc wrapper: lib/copy-range.c calls
dnl syscall(2) with the number from the kernel headers when they define
dnl __NR_copy_range, else the number the patched kernel uses on x86.
AC_DEFUN([gl_FUNC_COPY_RANGE],
[
  AC_REQUIRE([AC_CANONICAL_HOST])
  AC_CHECK_HEADERS_ONCE([sys/syscall.h])
  AC_CHECK_FUNCS_ONCE([syscall])
  AC_CACHE_CHECK([whether the kernel headers define __NR_copy_range],
    [gl_cv_have_nr_copy_range],
    [AC_COMPILE_IFELSE(
       [AC_LANG_PROGRAM(
          [[#include <sys/syscall.h>
          ]],
          [[int nr = __NR_copy_range; return nr == 0;]])],
       [gl_cv_have_nr_copy_range=yes],
       [gl_cv_have_nr_copy_range=no])])
  AS_IF([test "$gl_cv_have_nr_copy_range" = no],
    [AS_CASE([$host_cpu],
       [x86_64 | i?86], [],
       [AC_MSG_WARN([copy_range has no known system call number on $host_cpu; cpr will always fall back])])])
])
