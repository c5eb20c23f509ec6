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
   C++ have it.

   A program with a wrapper of its own can take the number alone: with
   COPYRANGE_NR_ONLY defined before the #include, the header gives
   SYS_copy_range and __NR_copy_range and nothing else, and needs no
   feature macro.  cpr's wrapper (gnulib-local/lib/copy-range.h in the
   copyrange sources) does, so that the two never disagree.  */

/* The number.  This is the copyrange project's one table of them,
   checked against the kernel series by tests/install/nr-table.sh.  */
#ifndef COPYRANGE_NR_H
#define COPYRANGE_NR_H 1

#ifdef __linux__
# include <sys/syscall.h>
#endif

/* The number the series gives copy_range (its patch "arch: wire up the
   copy_range syscall"): the first free one in Linux 6.1, 451, in the
   generic table (arm64, riscv, loongarch...) and in each architecture's
   own, alpha's excepted, whose numbers for these calls run 110 higher.
   Where the kernel adds a base to its table's numbers, so does this:
   ia64's 1024; mips' 4000, 5000 and 6000 for o32, n64 and n32 (GCC gives
   _MIPS_SIM as 1, 3 and 2 for them, the values of <sgidefs.h>'s
   _MIPS_SIM_ABI32, _MIPS_SIM_ABI64 and _MIPS_SIM_NABI32); arm's old ABI,
   0x900000 (EABI and Thumb have none); and x32's __X32_SYSCALL_BIT,
   0x40000000.  */
#if !defined __NR_copy_range && defined __linux__
# if defined __alpha__
#  define __NR_copy_range 561
# elif defined __ia64__
#  define __NR_copy_range (1024 + 451)
# elif defined __mips__
#  if defined _MIPS_SIM && _MIPS_SIM == 1
#   define __NR_copy_range (4000 + 451)
#  elif defined _MIPS_SIM && _MIPS_SIM == 3
#   define __NR_copy_range (5000 + 451)
#  elif defined _MIPS_SIM && _MIPS_SIM == 2
#   define __NR_copy_range (6000 + 451)
#  endif
# elif defined __arm__ && !defined __ARM_EABI__ && !defined __thumb__
#  define __NR_copy_range (0x900000 + 451)
# elif defined __x86_64__ && defined __ILP32__
#  define __NR_copy_range (0x40000000 + 451)
# else
#  define __NR_copy_range 451
# endif
#endif
#if defined __NR_copy_range && !defined SYS_copy_range
# define SYS_copy_range __NR_copy_range
#endif

#endif /* COPYRANGE_NR_H */

/* The function.  */
#if !defined COPYRANGE_H && !defined COPYRANGE_NR_ONLY
#define COPYRANGE_H 1

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/types.h>
#include <unistd.h>

#if defined __GLIBC__ && !defined __USE_MISC
# error "<copyrange.h> needs _DEFAULT_SOURCE or _GNU_SOURCE, for syscall() and loff_t"
#endif

/* The O_PATH flag, which <fcntl.h> names only with _GNU_SOURCE.  */
#if defined O_PATH
# define COPYRANGE_O_PATH_ O_PATH
#elif defined __O_PATH
# define COPYRANGE_O_PATH_ __O_PATH
#else
# define COPYRANGE_O_PATH_ 0
#endif

/* inline is C99's and C++'s; GCC and clang know __inline__ in C89 too.
   The names of the parameters and locals below end in '_', so that a
   program's own globals (a 'count', an 'fd') are not shadowed.  */
#if defined __cplusplus || (defined __STDC_VERSION__ \
                            && 199901L <= __STDC_VERSION__)
# define COPYRANGE_INLINE_ inline
#elif defined __GNUC__
# define COPYRANGE_INLINE_ __inline__
#else
# define COPYRANGE_INLINE_
#endif

/* Copy up to COUNT bytes from the file open on FD_IN to the file open on
   FD_OUT, within the kernel.  A null POS_IN or POS_OUT means the file
   offset, used and advanced; a non-null one gives the offset, advanced
   by the bytes copied, and leaves the file offset alone.  FLAGS must be
   0.  Return the bytes copied, maybe fewer than COUNT (call again for
   the rest), 0 at the source's end; or -1 with errno set, ENOSYS where
   the running kernel has no copy_range.  Safe to call from several
   threads at once, the first calls included.  */
static COPYRANGE_INLINE_ ssize_t
copy_range (int fd_in_, loff_t *pos_in_, int fd_out_, loff_t *pos_out_,
            size_t count_, unsigned int flags_)
{
#ifdef SYS_copy_range
  /* Whether SYS_copy_range is copy_range: 0 not known yet, 1 yes, -1 no.
     The check is the one copy_range(2) describes: FD_IN valid, both
     offsets null, an invalid FD_OUT and a count of 0 fail with EBADF
     only from copy_range.  cachestat, which has the number from Linux
     6.5 on, fails with EFAULT on its null range, a kernel without the
     number with ENOSYS, and neither touches a file.  The answer means
     something only while the descriptor checked is open and not an
     O_PATH one (both calls refuse those with EBADF): the check is made
     on a duplicate of FD_IN, which no other thread knows of and so
     cannot close meanwhile, and first told apart from those.  When no
     descriptor is left for the duplicate, FD_IN itself is checked, and
     the answer serves that call alone.

     Every thread that checks gets the same answer and stores the same
     value, so that KNOWN needs no lock; its loads and stores are atomic
     (relaxed: nothing else is published with it) where the compiler
     has GCC's atomic built-ins, as GCC 4.7 and later and clang have,
     in C89 and C++ too.  */
  static int known_;
  int answer_;

# ifdef __ATOMIC_RELAXED
  answer_ = __atomic_load_n (&known_, __ATOMIC_RELAXED);
# else
  answer_ = known_;
# endif
  if (answer_ == 0)
    {
      int saved_errno_ = errno;
      loff_t *const no_pos_ = NULL;
      size_t const no_count_ = 0;
# ifdef F_DUPFD_CLOEXEC
      int dup_fd_ = fcntl (fd_in_, F_DUPFD_CLOEXEC, 0);
# else
      int dup_fd_ = fcntl (fd_in_, F_DUPFD, 0);
# endif
      int fd_ = dup_fd_ < 0 ? fd_in_ : dup_fd_;
      int fl_ = fcntl (fd_, F_GETFL);

      if (fl_ < 0 || (fl_ & COPYRANGE_O_PATH_) != 0)
        {
          if (0 <= dup_fd_)
            close (dup_fd_);
          errno = EBADF;
          return -1;
        }
      answer_ = (syscall (SYS_copy_range, fd_, no_pos_, -1, no_pos_,
                          no_count_, 0U) < 0
                 && errno == EBADF) ? 1 : -1;
      if (0 <= dup_fd_)
        {
          close (dup_fd_);
# ifdef __ATOMIC_RELAXED
          __atomic_store_n (&known_, answer_, __ATOMIC_RELAXED);
# else
          known_ = answer_;
# endif
        }
      errno = saved_errno_;
    }
  if (0 < answer_)
    return syscall (SYS_copy_range, fd_in_, pos_in_, fd_out_, pos_out_, count_,
                    flags_);
#else
  (void) fd_in_; (void) pos_in_; (void) fd_out_; (void) pos_out_;
  (void) count_; (void) flags_;
#endif
  errno = ENOSYS;
  return -1;
}

#undef COPYRANGE_O_PATH_
#undef COPYRANGE_INLINE_

#endif /* COPYRANGE_H */
