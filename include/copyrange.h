/* <copyrange.h>: call the copy_range(2) system call of the copyrange
   kernel series from C or C++.
   Copyright (C) 2026 The copyrange authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.

   This program is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
   GNU General Public License for more details.

   You should have received a copy of the GNU General Public License
   along with this program.  If not, see <https://www.gnu.org/licenses/>.  */

/* glibc has no wrapper for copy_range, and the kernel headers of a
   distribution (linux-libc-dev) do not know its number, since mainline
   Linux never merged it.  This header gives both, and nothing else: no
   library goes with it, so a program needs no -l option.

     SYS_copy_range, __NR_copy_range
        the system call's number on this architecture, for syscall(2):
        the kernel headers' own when they come from a kernel with the
        series (make headers_install), else the number the series gives
        it (copy_range(2), "SYSTEM CALL NUMBER").  Not defined where the
        series gives it none (a system other than Linux).

     copy_range (fd_in, pos_in, fd_out, pos_out, count, flags)
        the call, as copy_range(2) describes it, made safe to use on any
        kernel: the first call in each translation unit checks that the
        running kernel's SYS_copy_range is copy_range, and where it is
        not (a kernel without the series, or Linux 6.5 and later, where
        the number is cachestat's) every call fails with ENOSYS and
        copies nothing.  A program then falls back to copy_file_range(2)
        or read(2) and write(2), from the offsets reached.

   Like syscall(2) and loff_t, it needs _DEFAULT_SOURCE (or _GNU_SOURCE)
   under a strict ISO C mode such as -std=c11; GCC's default gnu modes and
   C++ have it.  */

#ifndef COPYRANGE_H
#define COPYRANGE_H 1

#include <errno.h>
#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef __linux__
# include <sys/syscall.h>
#endif

#if defined __GLIBC__ && !defined __USE_MISC
# error "<copyrange.h> needs _DEFAULT_SOURCE or _GNU_SOURCE, for syscall() and loff_t"
#endif

/* The number the series gives copy_range: the first free one in Linux
   6.1, 451, in the generic table and most others; the tables that start
   at an offset give it that offset plus 451 (alpha's run 110 higher).  */
#if !defined __NR_copy_range && defined __linux__
# if defined __alpha__
#  define __NR_copy_range 561
# elif defined __ia64__
#  define __NR_copy_range 1475
# elif defined __mips__
#  if _MIPS_SIM == _MIPS_SIM_ABI32
#   define __NR_copy_range 4451
#  elif _MIPS_SIM == _MIPS_SIM_ABI64
#   define __NR_copy_range 5451
#  elif _MIPS_SIM == _MIPS_SIM_NABI32
#   define __NR_copy_range 6451
#  endif
# elif defined __x86_64__ && defined __ILP32__
#  define __NR_copy_range (__X32_SYSCALL_BIT + 451)
# else
#  define __NR_copy_range 451
# endif
#endif
#if defined __NR_copy_range && !defined SYS_copy_range
# define SYS_copy_range __NR_copy_range
#endif

/* The O_PATH flag, which <fcntl.h> names only with _GNU_SOURCE.  */
#if defined O_PATH
# define COPYRANGE_O_PATH__ O_PATH
#elif defined __O_PATH
# define COPYRANGE_O_PATH__ __O_PATH
#else
# define COPYRANGE_O_PATH__ 0
#endif

/* Copy up to COUNT bytes from the file open on FD_IN to the file open on
   FD_OUT, within the kernel.  A null POS_IN or POS_OUT means the file
   offset, used and advanced; a non-null one gives the offset, advanced
   by the bytes copied, and leaves the file offset alone.  FLAGS must be
   0.  Return the bytes copied, maybe fewer than COUNT (call again for
   the rest), 0 at the source's end; or -1 with errno set, ENOSYS where
   the running kernel has no copy_range.  */
static inline ssize_t
copy_range (int fd_in, loff_t *pos_in, int fd_out, loff_t *pos_out,
            size_t count, unsigned int flags)
{
#ifdef SYS_copy_range
  /* Whether SYS_copy_range is copy_range: 0 not known yet, 1 yes, -1 no.
     The check is the one copy_range(2) describes: FD_IN valid, both
     offsets null, an invalid FD_OUT and a count of 0 fail with EBADF
     only from copy_range.  cachestat, which has the number from Linux
     6.5 on, fails with EFAULT on its null range, a kernel without the
     number with ENOSYS, and neither touches a file.  The answer means
     something only while FD_IN is open and not an O_PATH descriptor
     (both calls refuse those with EBADF), so those are told apart
     first.  Two threads that check at once get the same answer.  */
  static int known;

  if (known == 0)
    {
      int saved_errno = errno;
      int fl = fcntl (fd_in, F_GETFL);

      if (fl < 0 || (fl & COPYRANGE_O_PATH__) != 0)
        {
          errno = EBADF;
          return -1;
        }
      known = (syscall (SYS_copy_range, fd_in, (loff_t *) 0, -1,
                        (loff_t *) 0, (size_t) 0, 0U) < 0
               && errno == EBADF) ? 1 : -1;
      errno = saved_errno;
    }
  if (0 < known)
    return syscall (SYS_copy_range, fd_in, pos_in, fd_out, pos_out, count,
                    flags);
#else
  (void) fd_in; (void) pos_in; (void) fd_out; (void) pos_out;
  (void) count; (void) flags;
#endif
  errno = ENOSYS;
  return -1;
}

#endif /* COPYRANGE_H */
