/* copy_range(2) copies the right bytes: random contents at the edges of
   pages, past the destination's end, and across 1 GiB, 2 GiB and the end
   of a multi-GiB sparse file.
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

/* Usage: data FSNAME DIR
   Prints a PASS, FAIL or SKIP line per group of cases; exits 1 if any
   failed, 77 if all were skipped.  */

#include <config.h>

#include "cr-test.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

enum { PAGE = 4096 };

static char const *fs;
static char *dir;
static uint64_t rng;
static int failures;

static void
report (bool ok, char const *what, char const *detail)
{
  printf ("%s: %s: %s%s%s\n", ok ? "PASS" : "FAIL", fs, what,
          ok ? "" : ": ", ok ? "" : detail);
  fflush (stdout);
  failures += !ok;
}

/* Copy SIZE bytes at IN of a random source to OUT of a destination that
   held DST_SIZE random bytes; compare the whole destination with what
   it must hold.  Return NULL if right, else a description.  */
static char const *
one_case (int src, unsigned char const *src_buf, off_t in, size_t size,
          off_t out, size_t dst_size)
{
  static char msg[256];
  /* Copying nothing extends nothing.  */
  size_t want_size = size && out + size > dst_size ? out + size : dst_size;
  unsigned char *want = calloc (want_size ? want_size : 1, 1);
  if (!want)
    cr_die ("calloc");
  cr_random_fill (&rng, want, dst_size);
  int dst = cr_create (dir, "dst");
  cr_pwrite_all (dst, want, dst_size, 0);
  memcpy (want + out, src_buf + in, size);

  off_t pin = in, pout = out;
  ssize_t r = cr_copy_range (src, &pin, dst, &pout, size);
  struct stat st;
  if (fstat (dst, &st) != 0)
    cr_die ("fstat");
  off_t diff = cr_compare_buf (dst, 0, want, want_size);
  char const *bad = NULL;
  if (r != (ssize_t) size)
    snprintf (msg, sizeof msg, "returned %zd (%s), expected %zu", r,
              r < 0 ? strerror (errno) : "short", size), bad = msg;
  else if (pin != in + (off_t) size || pout != out + (off_t) size)
    snprintf (msg, sizeof msg, "offsets advanced to %lld, %lld",
              (long long) pin, (long long) pout), bad = msg;
  else if (st.st_size != (off_t) want_size)
    snprintf (msg, sizeof msg, "size %lld, expected %zu",
              (long long) st.st_size, want_size), bad = msg;
  else if (diff >= 0)
    snprintf (msg, sizeof msg, "first wrong byte at %lld", (long long) diff),
      bad = msg;
  close (dst);
  free (want);
  return bad;
}

/* Every combination of the edge sizes and offsets, for one size.  */
static void
edge_cases (int src, unsigned char const *src_buf, size_t size)
{
  static off_t const ins[] = { 0, 1, PAGE - 1, PAGE, PAGE + 1 };
  enum { DST_SIZE = 2 * PAGE + 7 };
  /* Inside, at the end of, and past the end of the destination.  */
  static off_t const outs[] = { 0, 1, PAGE - 1, PAGE, PAGE + 1, DST_SIZE,
                                DST_SIZE + PAGE + 1, 5 * PAGE };
  char what[64], detail[512] = "";
  int bad = 0, n = 0;
  for (size_t i = 0; i < sizeof ins / sizeof *ins; i++)
    for (size_t o = 0; o < sizeof outs / sizeof *outs; o++)
      for (int empty = 0; empty <= 1; empty++)
        {
          char const *m = one_case (src, src_buf, ins[i], size, outs[o],
                                    empty ? 0 : DST_SIZE);
          n++;
          if (m && !bad++)
            snprintf (detail, sizeof detail,
                      "in %lld, out %lld, %s destination: %s",
                      (long long) ins[i], (long long) outs[o],
                      empty ? "empty" : "non-empty", m);
        }
  snprintf (what, sizeof what, "%zu bytes, %d offset pairs", size, n);
  if (bad > 1)
    snprintf (detail + strlen (detail), sizeof detail - strlen (detail),
              " (and %d more)", bad - 1);
  report (!bad, what, detail);
}

/* A sparse source of SIZE bytes with random islands at awkward places:
   the first page, across the 1 GiB chunk boundary, across 2 GiB and at
   the end.  Their places and contents are left in ISLANDS.  */
enum { N_ISLANDS = 5, ISLAND = 64 * 1024 };
static struct cr_island islands[N_ISLANDS];

static int
sparse_source (off_t size)
{
  static off_t const at[N_ISLANDS] = { 0, 2 * ISLAND - 1, (1 << 30) - 7,
                                       (1LL << 31) - 100, -5000 };
  static unsigned char data[N_ISLANDS][ISLAND];
  int fd = cr_create (dir, "big-src");
  if (ftruncate (fd, size) != 0)
    cr_die ("ftruncate");
  for (size_t i = 0; i < N_ISLANDS; i++)
    {
      off_t where = at[i] < 0 ? size + at[i] : at[i];
      size_t len = size - where < ISLAND ? size - where : ISLAND;
      islands[i] = (struct cr_island) { where, len, data[i] };
      cr_random_fill (&rng, data[i], len);
      cr_pwrite_all (fd, data[i], len, where);
    }
  return fd;
}

/* Whether [FROM, TO) of FD reads as zeros.  Only what SEEK_DATA calls
   data is read: a hole reads as zeros.  */
static bool
zeros_past_holes (int fd, off_t from, off_t to)
{
  while (from < to)
    {
      off_t data = lseek (fd, from, SEEK_DATA);
      if (data < 0 && errno == ENXIO)
        return true;
      if (data < 0)
        cr_die ("SEEK_DATA");
      if (data >= to)
        return true;
      off_t hole = lseek (fd, data, SEEK_HOLE);
      if (hole < 0)
        cr_die ("SEEK_HOLE");
      if (hole > to)
        hole = to;
      if (!cr_zeros (fd, data, hole - data))
        return false;
      from = hole;
    }
  return true;
}

/* Copy the parts of the sparse source around its islands to OUT0 plus
   the same offsets, each part by a loop of calls: the one across 1 GiB,
   the one across 2 GiB (offsets past INT_MAX at both ends) and the one
   to the source's end, asked for with a count of the whole file, more
   than MAX_RW_COUNT, which the source's end cuts short.  Copying the
   parts and not the whole file keeps the page cache from writing and
   reading back 2 GiB of zeros; the destination's gaps must then read as
   zeros, and its size must be the whole copy's.  */
static void
multi_gib (void)
{
  off_t const size = (2LL << 30) + 3 * PAGE + 1;
  off_t const out0 = PAGE + 1;
  enum { N_PARTS = 3 };
  struct { off_t start, end; } const parts[N_PARTS] =
    { { 0, (4 << 20) + 5 },
      { (1 << 30) - (3 << 20) - 1, (1 << 30) + (5 << 20) },
      { (1LL << 31) - (6 << 20) - 3, size } };
  char const *what = "2 GiB sparse source across 1 GiB, 2 GiB and its end"
                     " to unaligned offsets";
  off_t need = 0;
  for (int p = 0; p < N_PARTS; p++)
    need += parts[p].end - parts[p].start;
  struct statvfs sv;
  /* The page-cache copy fills holes: make sure the parts fit.  */
  if (statvfs (dir, &sv) == 0
      && (unsigned long long) sv.f_bavail * sv.f_frsize < need + (256 << 20))
    {
      printf ("SKIP: %s: %s: only %llu MiB free\n", fs, what,
              (unsigned long long) sv.f_bavail * sv.f_frsize >> 20);
      return;
    }
  int src = sparse_source (size);
  int dst = cr_create (dir, "big-dst");
  off_t in = 0, out = out0;
  char detail[256] = "";
  for (int p = 0; p < N_PARTS && !detail[0]; p++)
    {
      in = parts[p].start;
      out = out0 + in;
      while (in < parts[p].end)
        {
          size_t count = parts[p].end == size ? size : parts[p].end - in;
          ssize_t r = cr_copy_range (src, &in, dst, &out, count);
          if (r <= 0)
            {
              snprintf (detail, sizeof detail, "stopped at %lld: %s",
                        (long long) in,
                        r < 0 ? strerror (errno) : "returned 0");
              break;
            }
        }
      if (!detail[0] && (in != parts[p].end || out != out0 + in))
        snprintf (detail, sizeof detail,
                  "part %d ended at offsets %lld, %lld, not %lld, %lld", p,
                  (long long) in, (long long) out,
                  (long long) parts[p].end,
                  (long long) (out0 + parts[p].end));
    }
  if (!detail[0])
    {
      struct stat st;
      if (fstat (dst, &st) != 0)
        cr_die ("fstat");
      if (st.st_size != out0 + size)
        snprintf (detail, sizeof detail, "size %lld, expected %lld",
                  (long long) st.st_size, (long long) (out0 + size));
      else if (!cr_zeros (dst, 0, out0))
        snprintf (detail, sizeof detail, "the gap is not zeros");
    }
  for (int p = 0; p < N_PARTS && !detail[0]; p++)
    {
      off_t start = parts[p].start, len = parts[p].end - start, diff;
      off_t gap = p ? parts[p - 1].end : 0;
      struct cr_island shifted[N_ISLANDS];
      for (int i = 0; i < N_ISLANDS; i++)
        shifted[i] = (struct cr_island) { islands[i].at - start,
                                          islands[i].len, islands[i].data };
      if (!zeros_past_holes (dst, out0 + gap, out0 + start))
        snprintf (detail, sizeof detail,
                  "bytes between %lld and %lld are not zeros",
                  (long long) gap, (long long) start);
      else if ((diff = cr_compare_sparse (dst, out0 + start, len, shifted,
                                          N_ISLANDS)) >= 0)
        snprintf (detail, sizeof detail, "first wrong byte at %lld",
                  (long long) (start + diff));
    }
  report (!detail[0], what, detail);
  close (src);
  close (dst);
}

int
main (int argc, char **argv)
{
  cr_start (argc, argv, "FSNAME DIR");
  fs = argv[1];
  dir = cr_make_dir (argv[2], "cr-data");
  uint64_t seed = cr_seed ();
  rng = seed;
  printf ("# %s on %s, seed %#llx\n", fs, dir, (unsigned long long) seed);

  static size_t const sizes[] = { 0, 1, PAGE - 1, PAGE, PAGE + 1,
                                  3 * PAGE + 17 };
  enum { SRC_SIZE = 2 * PAGE + 3 * PAGE + 17 };
  static unsigned char src_buf[SRC_SIZE];
  cr_random_fill (&rng, src_buf, SRC_SIZE);
  int src = cr_create (dir, "src");
  cr_pwrite_all (src, src_buf, SRC_SIZE, 0);
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
    edge_cases (src, src_buf, sizes[i]);
  close (src);

  if (getenv ("CR_QUICK"))
    printf ("SKIP: %s: multi-GiB copy: CR_QUICK is set\n", fs);
  else
    multi_gib ();

  cr_remove_tree (dir);
  return failures ? CR_EXIT_FAIL : CR_EXIT_PASS;
}
