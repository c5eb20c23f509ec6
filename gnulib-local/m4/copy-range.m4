# copy-range.m4 serial 2
dnl Copyright (C) 2026 The copyrange authors.
dnl This file is free software; the copyrange authors give unlimited
dnl permission to copy and/or distribute it, with or without
dnl modifications, as long as this notice is preserved.

dnl The copy_range system call has no libc wrapper: lib/copy-range.c calls
dnl syscall(2) with the number from the kernel headers when they define
dnl __NR_copy_range, else the one that include/copyrange.h, the table
dnl shared with the installed header, gives for this architecture.
AC_DEFUN([gl_FUNC_COPY_RANGE],
[
  AC_REQUIRE([AC_CANONICAL_HOST])
  AC_CHECK_HEADERS_ONCE([sys/syscall.h])
  AC_CHECK_FUNCS_ONCE([syscall])
  AC_CACHE_CHECK([whether copy_range has a system call number here],
    [gl_cv_copy_range_nr],
    [gl_save_CPPFLAGS=$CPPFLAGS
     CPPFLAGS="$CPPFLAGS -I$srcdir/include"
     AC_COMPILE_IFELSE(
       [AC_LANG_PROGRAM(
          [[#define COPYRANGE_NR_ONLY 1
            #include <copyrange.h>
            #ifndef SYS_copy_range
            #error "no number"
            #endif
          ]],
          [[long nr = SYS_copy_range; return nr == 0;]])],
       [gl_cv_copy_range_nr=yes],
       [gl_cv_copy_range_nr=no])
     CPPFLAGS=$gl_save_CPPFLAGS])
  AS_IF([test "$gl_cv_copy_range_nr" = no],
    [AC_MSG_WARN([copy_range has no known system call number on $host; cpr will always fall back])])
])
