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

/* COPY_RANGE_SYSCALL is the system call number copy_range() uses, when
   one is known: the kernel headers' own, else the one the kernel series
   gives it on this architecture (451 on most).  The installed header,
   include/copyrange.h, holds the table, and this takes it from there,
   so that cpr and the programs built against <copyrange.h> use the same
   number; that needs -I$(top_srcdir)/include.  Mainline Linux 6.5 and
   later give 451 to cachestat, which is why copy_range() probes before
   trusting it.  */
#define COPYRANGE_NR_ONLY 1
#include <copyrange.h>
#undef COPYRANGE_NR_ONLY
#if defined SYS_copy_range
# define COPY_RANGE_SYSCALL SYS_copy_range
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
