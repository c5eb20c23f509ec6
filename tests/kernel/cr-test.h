/* Helpers shared by the copy_range(2) guest tests.
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

#ifndef CR_TEST_H
#define CR_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Exit statuses of the Automake test protocol.  */
enum { CR_EXIT_PASS = 0, CR_EXIT_FAIL = 1, CR_EXIT_SKIP = 77,
       CR_EXIT_ERROR = 99 };

/* The copy_range system call with FLAGS, or -1 with errno ENOSYS when
   this is not the copyrange kernel (whose number 451 may be another
   call); cr_copy_range passes no flags.  */
ssize_t cr_copy_range_flags (int fd_in, off_t *pos_in, int fd_out,
                             off_t *pos_out, size_t count,
                             unsigned int flags);
ssize_t cr_copy_range (int fd_in, off_t *pos_in, int fd_out, off_t *pos_out,
                       size_t count);

/* Seconds on the monotonic clock, for measuring how long a step took.  */
double cr_now (void);

/* Whether the running kernel is the copyrange kernel and implements the
   call; if not, store in *WHY a reason to skip.  */
bool cr_available (char const **why);

/* The start of a test program's main: check that the command line has
   the two operands that OPERANDS names (as "FSNAME DIR"), or print a
   usage message and exit 99; then cr_require_copy_range.  */
void cr_start (int argc, char **argv, char const *operands);

/* Unless cr_available, print "SKIP: " and the reason, and exit 77.  */
void cr_require_copy_range (void);

/* Deterministic pseudo-random bytes: a seed from CR_SEED in the
   environment, else from the clock; cr_seed returns it so that a
   failure can be reproduced.  */
uint64_t cr_seed (void);
void cr_random_fill (uint64_t *state, void *buf, size_t len);
uint64_t cr_random (uint64_t *state);

/* A number below N drawn from *STATE; 0, drawing nothing, when N is 0.  */
uint64_t cr_random_below (uint64_t *state, uint64_t n);

/* The random ranges of the tests that check a seeded sequence of
   operations against a model of the files (tests/nfs/model.c,
   tests/stress/fsx.c): a length from 1 to MAX, mostly small, sometimes
   whole pages; an offset below LIMIT (0, drawing nothing, when LIMIT is
   not positive), sometimes at a page's start.  Both are multiples of
   UNIT, which divides the page size (4096), as MAX does.  */
size_t cr_pick_len (uint64_t *state, size_t max, size_t unit);
off_t cr_pick_off (uint64_t *state, off_t limit, off_t unit);

/* Set the size of a model file, whose bytes DATA are zero past *SIZE:
   the bytes a truncation cuts off become zero.  */
void cr_model_set_size (unsigned char *data, off_t *size, off_t new_size);

/* How such a test copies and reports: CALL has the contract of
   cr_copy_range and NAME is its name in messages; NOTE adds to the log
   line of the operation under way; FAIL reports a mismatch and exits.  */
struct cr_model_hooks
{
  ssize_t (*call) (int fd_in, off_t *pos_in, int fd_out, off_t *pos_out,
                   size_t count);
  char const *name;
  void (*note) (char const *fmt, ...) __attribute__ ((format (printf, 1, 2)));
  void (*fail) (char const *fmt, ...)
    __attribute__ ((noreturn, format (printf, 1, 2)));
};

/* Copy LEN bytes of IN_FD at IN_OFF to OUT_FD at OUT_OFF (the same
   descriptor for a copy within one file), passing NULL for an offset
   where NULL_IN or NULL_OUT is set (the file position, set to the offset
   first), and check the copy against the model, which says that it
   takes WANT bytes: the source's bytes from IN_OFF, up to LEN.  The call
   is made again while it returns less than asked (a short count is
   progress); each call must move both offsets by what it returns, all
   of them WANT bytes, and across two files a copy that the source's end
   cut short must be followed by a call that returns 0.  Each call's
   result goes to the log.  The caller applies the copy to its model.  */
void cr_model_copy (struct cr_model_hooks const *h,
                    int in_fd, off_t in_off, bool null_in,
                    int out_fd, off_t out_off, bool null_out,
                    size_t len, off_t want);

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

/* The size of the file open as FD, or die.  */
off_t cr_file_size (int fd);

/* Make FD a sparse file of SIZE bytes with random data, drawn from
   *STATE, in islands: LEN bytes every STEP bytes from FIRST, as many as
   end at least 100 bytes before SIZE, and the last 100 bytes.  Return how many islands there are, and in *ISLANDS the
   islands themselves (sorted, allocated), for cr_compare_sparse.  */
size_t cr_write_islands (int fd, off_t size, off_t first, off_t step,
                         size_t len, uint64_t *state,
                         struct cr_island **islands);

/* Whether LEN bytes of FD at OFF all read as zero.  */
bool cr_zeros (int fd, off_t off, off_t len);

/* Open the file NAME in DIR with FLAGS (mode 0644 where it is created),
   or die.  cr_create creates it, or empties it, for reading and
   writing.  */
int cr_open_in (char const *dir, char const *name, int flags);
int cr_create (char const *dir, char const *name);

/* Make a fresh directory under BASE for one program's files; die on
   failure.  The caller frees the result after cr_remove_tree, which
   returns whether DIR and everything in it are gone.  */
char *cr_make_dir (char const *base, char const *prog);
bool cr_remove_tree (char const *dir);

/* Print "PROG: message: strerror" to stderr and exit 99.  */
_Noreturn void cr_die (char const *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));

#endif
