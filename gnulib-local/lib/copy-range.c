/* Offload a copy between two files with the copy_range system call.
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

#include <config.h>

#include "copy-range.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>

#if defined COPY_RANGE_SYSCALL && HAVE_SYSCALL

/* The kernel's loff_t, whatever the width of this program's off_t.  */
typedef int64_t kernel_loff_t;

static ssize_t
sys_copy_range (int fd_in, kernel_loff_t *pos_in, int fd_out,
                kernel_loff_t *pos_out, size_t count, unsigned int flags)
{
  return syscall (COPY_RANGE_SYSCALL, (long) fd_in, pos_in, (long) fd_out,
                  pos_out, count, flags);
}

/* Whether the running kernel's COPY_RANGE_SYSCALL is copy_range: 0 not
   known yet, 1 yes, -1 no.  Probing twice from two threads is harmless,
   but they share the answer: atomic, for cpr --jobs's workers.  */
static atomic_int kernel_has_copy_range;

/* Find out once whether COPY_RANGE_SYSCALL is copy_range, given FD, a
   descriptor known to be open, and not with O_PATH.  The probe passes FD
   and a bad output descriptor: copy_range validates both descriptors
   before anything else and fails with EBADF.  cachestat, which has the
   same number on Linux 6.5 and later, takes (fd, range, cstat, flags)
   and checks, in this order: FD (EBADF when it is not open, or open
   with O_PATH), then reads the range (EFAULT on the null one), and only
   then whether FD is on hugetlbfs (EOPNOTSUPP), may be examined (EPERM,
   in later kernels) and FLAGS (EINVAL).  So with such an FD it fails
   with EFAULT, never EBADF.  Neither touches a file, a
   kernel without the number fails with ENOSYS, and a seccomp filter with
   its own errno; all but EBADF mean that copy_range is not usable.  */
static bool
probe_copy_range (int fd)
{
  if (kernel_has_copy_range == 0)
    {
      int saved_errno = errno;
      bool yes = (sys_copy_range (fd, NULL, -1, NULL, 0, 0) < 0
                  && errno == EBADF);
      kernel_has_copy_range = yes ? 1 : -1;
      errno = saved_errno;
    }
  return 0 < kernel_has_copy_range;
}

ssize_t
copy_range (int fd_in, off_t *pos_in, int fd_out, off_t *pos_out,
            size_t count, unsigned int flags)
{
  /* The probe is only conclusive with FD_IN open, and not with O_PATH
     (which copy_range refuses with EBADF, as cachestat does).  */
  if (kernel_has_copy_range == 0)
    {
      int flags = fcntl (fd_in, F_GETFL);
      if (flags < 0)
        return -1;
      if (flags & O_PATH)
        {
          errno = EBADF;
          return -1;
        }
    }
  if (!probe_copy_range (fd_in))
    {
      errno = ENOSYS;
      return -1;
    }

  kernel_loff_t in, out;
  if (pos_in)
    in = *pos_in;
  if (pos_out)
    out = *pos_out;
  ssize_t n = sys_copy_range (fd_in, pos_in ? &in : NULL,
                              fd_out, pos_out ? &out : NULL, count, flags);
  if (0 < n)
    {
      if (pos_in)
        *pos_in = in;
      if (pos_out)
        *pos_out = out;
    }
  return n;
}

#else /* no known system call number */

ssize_t
copy_range (int fd_in, off_t *pos_in, int fd_out, off_t *pos_out,
            size_t count, unsigned int flags)
{
  (void) fd_in; (void) pos_in; (void) fd_out; (void) pos_out; (void) count;
  (void) flags;
  errno = ENOSYS;
  return -1;
}

#endif
