/* Helpers shared by the copy_range(2) guest tests.
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

#ifndef CR_TEST_H
#define CR_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Exit statuses of the Automake test protocol.  */
enum { CR_EXIT_PASS = 0, CR_EXIT_FAIL = 1, CR_EXIT_SKIP = 77,
       CR_EXIT_ERROR = 99 };

/* The copy_range system call, or -1 with errno ENOSYS when this is not
   the copyrange kernel (whose number 451 may be another call).  */
ssize_t cr_copy_range (int fd_in, off_t *pos_in, int fd_out, off_t *pos_out,
                       size_t count);

/* Whether the running kernel is the copyrange kernel and implements the
   call; if not, store in *WHY a reason to skip.  */
bool cr_available (char const **why);

/* Deterministic pseudo-random bytes: a seed from CR_SEED in the
   environment, else from the clock; cr_seed returns it so that a
   failure can be reproduced.  */
uint64_t cr_seed (void);
void cr_random_fill (uint64_t *state, void *buf, size_t len);
uint64_t cr_random (uint64_t *state);

/* Write LEN bytes of BUF at OFF, or die.  */
void cr_pwrite_all (int fd, void const *buf, size_t len, off_t off);

/* Compare LEN bytes of FD_A at OFF_A with FD_B at OFF_B, reading in
   blocks.  Return -1 if equal, else the offset (relative to the range)
   of the first difference; a short read counts as a difference.  */
off_t cr_compare_ranges (int fd_a, off_t off_a, int fd_b, off_t off_b,
                         off_t len);

/* Compare LEN bytes of FD at OFF with BUF; same result convention.  */
off_t cr_compare_buf (int fd, off_t off, void const *buf, size_t len);

/* A piece of data in an otherwise sparse (zero) file.  */
struct cr_island
{
  off_t at;
  size_t len;
  unsigned char *data;
};

/* Compare LEN bytes of FD at OFF with a file of LEN bytes that is zero
   except for the N ISLANDS (sorted, not overlapping), reading FD in
   blocks.  Same result convention as cr_compare_ranges.  */
off_t cr_compare_sparse (int fd, off_t off, off_t len,
                         struct cr_island const *islands, size_t n);

/* Whether LEN bytes of FD at OFF all read as zero.  */
bool cr_zeros (int fd, off_t off, off_t len);

/* Make a fresh directory under BASE for one program's files; die on
   failure.  The caller frees the result after cr_remove_tree, which
   returns whether DIR and everything in it are gone.  */
char *cr_make_dir (char const *base, char const *prog);
bool cr_remove_tree (char const *dir);

/* Print "PROG: message: strerror" to stderr and exit 99.  */
_Noreturn void cr_die (char const *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));

#endif
