/* A seeded random sequence of copy_range(2), pwrite and ftruncate calls on
   two files, each checked against a model of the files in memory.
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

/* Usage: model FSNAME DIR

   Two files, A and B, each opened once for reading and writing, go
   through a sequence of operations drawn from a seeded generator:
   copy_range across the files and within one file (ranges that do not
   overlap), each offset NULL (the file position, set with lseek first)
   or a pointer, from anywhere in the source or past its end; pwrite
   inside a file and past its end; ftruncate up and down; and fstat,
   which on NFS also writes the client's dirty pages back.  Files stay
   under MAX_SIZE bytes.

   After every operation both files are compared with the model: the
   size the kernel holds (statx with AT_STATX_DONT_SYNC, which does not
   write anything back, so that a client's cached state survives to the
   next operation), every byte read with pread, and the end of file.  A
   copy_range must return what the model says, in one or more calls,
   each advancing its offsets by exactly its result, and must return 0
   at the source's end.

   CR_SEED sets the seed (default DEFAULT_SEED) and CR_OPS the number of
   operations (default DEFAULT_OPS).  On a mismatch the program prints
   the seed, the operation and the log of all operations so far, and
   exits with status 1.  */

#include <config.h>

#include "cr-test.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

enum { MAX_SIZE = 1 << 20, MAX_LEN = MAX_SIZE / 4, DEFAULT_OPS = 300 };
/* Its sequence grows a file by a copy within it and copies from the
   hole so made into the other file (operations 48 and 49): the case of
   tests/nfs/same-file.sh, reached by way of the model.  */
#define DEFAULT_SEED 12

struct mfile
{
  char name;                    /* 'A' or 'B' */
  int fd;
  unsigned char *data;          /* MAX_SIZE bytes, zero past size */
  off_t size;
};

static struct mfile files[2];
static char const *fs;
static uint64_t seed, rng;
static long op;

/* The operations so far, one line each.  */
static char **oplog;
static long nops;

static _Noreturn void mismatch (char const *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));
static void log_op (char const *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));
static void log_more (char const *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));

/* How cr_model_copy copies and reports.  */
static struct cr_model_hooks const hooks =
  { .call = cr_copy_range, .name = "copy_range", .note = log_more,
    .fail = mismatch };

static _Noreturn void
mismatch (char const *fmt, ...)
{
  va_list ap;
  printf ("FAIL: %s: seed %#llx, op %ld: ", fs, (unsigned long long) seed,
          op);
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  printf ("\n# the operations (CR_SEED=%#llx CR_OPS=%ld replays them):\n",
          (unsigned long long) seed, op + 1);
  for (long i = 0; i <= op && i < nops; i++)
    if (oplog[i])
      printf ("#   %ld: %s\n", i, oplog[i]);
  exit (CR_EXIT_FAIL);
}

static void
log_op (char const *fmt, ...)
{
  char buf[256];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (buf, sizeof buf, fmt, ap);
  va_end (ap);
  free (oplog[op]);
  oplog[op] = strdup (buf);
  if (!oplog[op])
    cr_die ("strdup");
}

/* Append to the current operation's log line.  */
static void
log_more (char const *fmt, ...)
{
  char buf[256];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (buf, sizeof buf, fmt, ap);
  va_end (ap);
  size_t n = strlen (oplog[op]);
  char *p = realloc (oplog[op], n + strlen (buf) + 1);
  if (!p)
    cr_die ("realloc");
  strcpy (p + n, buf);
  oplog[op] = p;
}

/* The sequence's random choices (cr-test.h).  */
static uint64_t
rnd (uint64_t n)
{
  return cr_random_below (&rng, n);
}

static off_t
pick_off (off_t limit)
{
  return cr_pick_off (&rng, limit, 1);
}

/* ---- Checking the files against the model --------------------------- */

static void
check_file (struct mfile *f)
{
  static unsigned char buf[MAX_SIZE + 4096];
  struct statx stx;
  if (statx (f->fd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC, STATX_SIZE,
             &stx) != 0)
    cr_die ("statx %c", f->name);
  if ((off_t) stx.stx_size != f->size)
    mismatch ("%c: size %lld, the model's %lld", f->name,
              (long long) stx.stx_size, (long long) f->size);

  size_t got = 0, want = f->size + 1;
  while (got < want)
    {
      ssize_t n = pread (f->fd, buf + got, want - got, got);
      if (n < 0)
        cr_die ("pread %c", f->name);
      if (n == 0)
        break;
      got += n;
    }
  if ((off_t) got != f->size)
    mismatch ("%c: pread found %zu bytes, the model %lld", f->name, got,
              (long long) f->size);
  if (memcmp (buf, f->data, got) != 0)
    {
      size_t i = 0;
      while (buf[i] == f->data[i])
        i++;
      mismatch ("%c: byte %zu is %#x, the model's %#x", f->name, i, buf[i],
                f->data[i]);
    }
}

/* ---- The operations -------------------------------------------------- */

static void
op_pwrite (struct mfile *f, bool past_eof)
{
  static unsigned char buf[MAX_LEN];
  size_t len = cr_pick_len (&rng, MAX_LEN, 1);
  off_t off;
  if (past_eof && f->size + 1 < MAX_SIZE - (off_t) len)
    off = f->size + 1 + pick_off (MAX_SIZE - len - f->size - 1);
  else
    off = pick_off (f->size < MAX_SIZE - (off_t) len
                    ? f->size + 1 : (off_t) (MAX_SIZE - len));
  cr_random_fill (&rng, buf, len);
  log_op ("pwrite %c@%lld len %zu (size %lld)", f->name, (long long) off,
          len, (long long) f->size);
  ssize_t n = pwrite (f->fd, buf, len, off);
  if (n != (ssize_t) len)
    mismatch ("pwrite returned %zd (%s), expected %zu", n,
              n < 0 ? strerror (errno) : "short", len);
  memcpy (f->data + off, buf, len);
  if (off + (off_t) len > f->size)
    f->size = off + len;
}

static void
op_truncate (struct mfile *f, bool up)
{
  off_t size;
  if (up && f->size < MAX_SIZE - 1)
    size = f->size + 1 + pick_off (MAX_SIZE - 1 - f->size);
  else
    size = pick_off (f->size + 1);
  log_op ("ftruncate %c from %lld to %lld", f->name, (long long) f->size,
          (long long) size);
  if (ftruncate (f->fd, size) != 0)
    mismatch ("ftruncate failed: %s", strerror (errno));
  cr_model_set_size (f->data, &f->size, size);
}

static void
op_fstat (struct mfile *f)
{
  struct stat st;
  log_op ("fstat %c", f->name);
  if (fstat (f->fd, &st) != 0)
    cr_die ("fstat %c", f->name);
  if (st.st_size != f->size)
    mismatch ("fstat: %c has size %lld, the model %lld", f->name,
              (long long) st.st_size, (long long) f->size);
}

/* Copy LEN bytes from IN at IN_OFF to OUT at OUT_OFF, each offset through
   the file position if its NULL_* is set, and check the copy.  */
static void
do_copy (struct mfile *in, off_t in_off, bool null_in,
         struct mfile *out, off_t out_off, bool null_out, size_t len)
{
  off_t n = in_off < in->size ? in->size - in_off : 0;
  if (n > (off_t) len)
    n = len;
  log_op ("copy_range %c@%lld%s -> %c@%lld%s len %zu (sizes %lld, %lld):"
          " expect %lld", in->name, (long long) in_off,
          null_in ? " (NULL)" : "", out->name, (long long) out_off,
          null_out ? " (NULL)" : "", len, (long long) in->size,
          (long long) out->size, (long long) n);
  cr_model_copy (&hooks, in->fd, in_off, null_in, out->fd, out_off, null_out,
                 len, n);
  memmove (out->data + out_off, in->data + in_off, n);
  if (n && out_off + n > out->size)
    out->size = out_off + n;
}

static void
op_copy (bool same)
{
  struct mfile *in = &files[rnd (2)];
  struct mfile *out = same ? in : &files[in == &files[0]];
  size_t len = cr_pick_len (&rng, MAX_LEN, 1);
  off_t in_off = (in->size && rnd (8)
                  ? pick_off (in->size) : pick_off (MAX_SIZE - 1));
  off_t out_off = pick_off (MAX_SIZE - len);
  bool null_in = rnd (2), null_out = rnd (2);

  if (same)
    {
      /* Ranges that do not overlap, at most one offset NULL: both would
         be the one position, a copy onto itself.  */
      for (int tries = 0;
           in_off < out_off + (off_t) len && out_off < in_off + (off_t) len;
           tries++)
        {
          if (tries == 20)
            {
              op_pwrite (in, false);
              return;
            }
          out_off = pick_off (MAX_SIZE - len);
        }
      if (null_in && null_out)
        null_out = false;
    }
  do_copy (in, in_off, null_in, out, out_off, null_out, len);
}

static void
step (void)
{
  struct mfile *f = &files[rnd (2)];
  unsigned k = rnd (100);
  if (k < 30)
    op_copy (false);
  else if (k < 45)
    op_copy (true);
  else if (k < 58)
    op_pwrite (f, false);
  else if (k < 70)
    op_pwrite (f, true);
  else if (k < 78)
    op_truncate (f, true);
  else if (k < 86)
    op_truncate (f, false);
  else
    op_fstat (f);
}

int
main (int argc, char **argv)
{
  cr_start (argc, argv, "FSNAME DIR");
  fs = argv[1];
  char const *s = getenv ("CR_SEED");
  seed = s && *s ? cr_seed () : DEFAULT_SEED;
  rng = seed;
  s = getenv ("CR_OPS");
  nops = s && *s ? strtol (s, NULL, 0) : DEFAULT_OPS;
  if (nops <= 0)
    nops = DEFAULT_OPS;
  oplog = calloc (nops, sizeof *oplog);
  if (!oplog)
    cr_die ("calloc");

  char *dir = cr_make_dir (argv[2], "cr-model");
  printf ("# %s on %s, seed %#llx, %ld operations\n", fs, dir,
          (unsigned long long) seed, nops);
  for (int i = 0; i < 2; i++)
    {
      char p[4096];
      files[i].name = 'A' + i;
      snprintf (p, sizeof p, "%s/%c", dir, files[i].name);
      files[i].fd = open (p, O_RDWR | O_CREAT | O_TRUNC, 0644);
      if (files[i].fd < 0)
        cr_die ("open %s", p);
      files[i].data = calloc (MAX_SIZE, 1);
      if (!files[i].data)
        cr_die ("calloc");
    }

  struct timespec t0, t1;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  long counts[2] = { 0, 0 };
  for (op = 0; op < nops; op++)
    {
      step ();
      counts[strncmp (oplog[op], "copy_range", 10) == 0]++;
      check_file (&files[0]);
      check_file (&files[1]);
    }
  op = nops - 1;
  for (int i = 0; i < 2; i++)
    {
      struct stat st;
      if (fstat (files[i].fd, &st) != 0)
        cr_die ("fstat");
      if (st.st_size != files[i].size)
        mismatch ("at the end: fstat: %c has size %lld, the model %lld",
                  files[i].name, (long long) st.st_size,
                  (long long) files[i].size);
      if (close (files[i].fd) != 0)
        mismatch ("close %c: %s", files[i].name, strerror (errno));
    }
  clock_gettime (CLOCK_MONOTONIC, &t1);
  printf ("PASS: %s: %ld operations (%ld copy_range) match the model,"
          " seed %#llx (%.1f s)\n", fs, nops, counts[1],
          (unsigned long long) seed,
          (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
  cr_remove_tree (dir);
  return CR_EXIT_PASS;
}
