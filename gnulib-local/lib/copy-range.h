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

#ifndef COPY_RANGE_H
#define COPY_RANGE_H

#include <sys/types.h>
#if defined __linux__
# include <sys/syscall.h>
#endif

/* COPY_RANGE_SYSCALL is the system call number copy_range() uses, when
   one is known: the kernel headers' own, else 451, the number the patched
   kernel gives it on x86_64 and i386.  Mainline Linux 6.5 and later give
   451 to cachestat, which is why copy_range() probes before trusting it.  */
#if defined __NR_copy_range
# define COPY_RANGE_SYSCALL __NR_copy_range
#elif defined __linux__ && defined __x86_64__ && defined __ILP32__
# define COPY_RANGE_SYSCALL (__X32_SYSCALL_BIT + 451)
#elif defined __linux__ && (defined __x86_64__ || defined __i386__)
# define COPY_RANGE_SYSCALL 451
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Copy up to COUNT bytes from the file open on FD_IN to the file open on
   FD_OUT, within the kernel (a filesystem may clone or copy on its server).
   As for splice(2), a non-null POS_IN or POS_OUT gives the offset to use
   and is advanced by the bytes copied, leaving the file offset alone; a
   null one means the file offset, which is used and advanced.  FLAGS
   must be 0: no flag is defined yet, and the kernel fails others with
   EINVAL, as copy_file_range does.

   Return the number of bytes copied, which may be less than COUNT (call
   again from the advanced offsets for the rest), or 0 at the source's
   end of file.  On failure return -1 and set errno; ENOSYS means that the
   running kernel has no copy_range, including kernels where its number
   belongs to another system call.  */
extern ssize_t copy_range (int fd_in, off_t *pos_in, int fd_out,
                           off_t *pos_out, size_t count, unsigned int flags);

#ifdef __cplusplus
}
#endif

#endif /* COPY_RANGE_H */
