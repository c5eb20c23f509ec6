/* copy_range(2) against the cases the peer suites check for
   copy_file_range(2): LTP's copy_file_range01-02 and xfstests' copy_range
   group.
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

/* Usage: contract FSNAME DIR
   Prints a PASS, FAIL or SKIP line per group; exits 1 if any failed, 77
   if all were skipped.  The groups:
     - lengths {11, page-1, page, page+1} x offsets {NULL, 0, 17, page-1,
       page, page+1} at both ends: the bytes, the gap before the
       destination offset, and both descriptors' offsets (the pointer's
       or the file's) after the call;
     - overwrite and extend: a copy that starts inside the destination
       and ends past its end keeps the bytes before it;
     - a source range beyond 8 TiB (a sparse source of that size): the
       copy reads its holes as zeros, or the filesystem refuses the size;
     - a destination at and just below the maximum file size: EFBIG at
       it, a copy cut at it below;
     - the block device named by CR_BLOCK_DEV (a loop device the caller
       set up for this alone) as the source and as the destination:
       EINVAL, as copy_file_range(2) gives, and the device is not
       written.  */

#include <config.h>

#include "cr-test.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

enum { PAGE = 4096 };

/* An offset of the matrix; NO_PTR passes NULL and uses the file's own.  */
#define NO_PTR (-1)

static char const *fs;
static char *dir;
static uint64_t rng;
static unsigned char src_data[4 * PAGE];
static char detail[256];

static bool
failed (char const *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (detail, sizeof detail, fmt, ap);
  va_end (ap);
  return false;
}

static int
report (char const *group, bool ok)
{
  printf ("%s: %s: %s%s%s\n", ok ? "PASS" : "FAIL", fs, group,
          ok ? "" : ": ", ok ? "" : detail);
  fflush (stdout);
  return ok ? 0 : 1;
}

/* One call of the matrix: LEN bytes from IN to OUT, each an offset or
   NO_PTR, into an empty destination.  The file offsets start at 5 and 9,
   so that a NULL pointer reads from and writes to those.  */
static bool
matrix_call (int src, size_t len, off_t in, off_t out)
{
  int dst = cr_create (dir, "dst");
  off_t const fpos_in = 5, fpos_out = 9;
  if (lseek (src, fpos_in, SEEK_SET) != fpos_in
      || lseek (dst, fpos_out, SEEK_SET) != fpos_out)
    cr_die ("lseek");
  off_t pin = in, pout = out;
  ssize_t r = cr_copy_range (src, in == NO_PTR ? NULL : &pin,
                             dst, out == NO_PTR ? NULL : &pout, len);
  off_t from = in == NO_PTR ? fpos_in : in;
  off_t to = out == NO_PTR ? fpos_out : out;
  off_t want_in = in == NO_PTR ? in : in + len;
  off_t want_out = out == NO_PTR ? out : out + len;
  off_t want_fin = in == NO_PTR ? fpos_in + (off_t) len : fpos_in;
  off_t want_fout = out == NO_PTR ? fpos_out + (off_t) len : fpos_out;
  bool ok = true;
  if (r != (ssize_t) len)
    ok = failed ("%zu bytes from %lld to %lld returned %zd (%s)", len,
                 (long long) in, (long long) out, r,
                 r < 0 ? strerror (errno) : "short");
  else if ((in != NO_PTR && pin != want_in)
           || (out != NO_PTR && pout != want_out))
    ok = failed ("%zu bytes from %lld to %lld: offsets %lld, %lld", len,
                 (long long) in, (long long) out, (long long) pin,
                 (long long) pout);
  else if (lseek (src, 0, SEEK_CUR) != want_fin
           || lseek (dst, 0, SEEK_CUR) != want_fout)
    ok = failed ("%zu bytes from %lld to %lld: file offsets %lld, %lld,"
                 " expected %lld, %lld", len, (long long) in,
                 (long long) out, (long long) lseek (src, 0, SEEK_CUR),
                 (long long) lseek (dst, 0, SEEK_CUR),
                 (long long) want_fin, (long long) want_fout);
  else if (cr_file_size (dst) != to + (off_t) len)
    ok = failed ("%zu bytes from %lld to %lld: size %lld", len,
                 (long long) in, (long long) out,
                 (long long) cr_file_size (dst));
  else if (!cr_zeros (dst, 0, to)
           || cr_compare_buf (dst, to, src_data + from, len) >= 0)
    ok = failed ("%zu bytes from %lld to %lld: wrong bytes", len,
                 (long long) in, (long long) out);
  close (dst);
  return ok;
}

static bool
group_matrix (void)
{
  static size_t const lens[] = { 11, PAGE - 1, PAGE, PAGE + 1 };
  static off_t const offs[] = { NO_PTR, 0, 17, PAGE - 1, PAGE, PAGE + 1 };
  int src = cr_create (dir, "src");
  cr_pwrite_all (src, src_data, sizeof src_data, 0);
  bool ok = true;
  for (size_t l = 0; ok && l < sizeof lens / sizeof *lens; l++)
    for (size_t i = 0; ok && i < sizeof offs / sizeof *offs; i++)
      for (size_t o = 0; ok && o < sizeof offs / sizeof *offs; o++)
        ok = matrix_call (src, lens[l], offs[i], offs[o]);
  close (src);
  return ok;
}

/* A destination of 3 pages gets 2 pages at page + 100 from the source:
   its first page + 100 bytes stay, the rest is the source's.  */
static bool
group_overwrite_extend (void)
{
  int src = cr_create (dir, "src");
  int dst = cr_create (dir, "dst");
  unsigned char old[3 * PAGE];
  cr_random_fill (&rng, old, sizeof old);
  cr_pwrite_all (src, src_data, sizeof src_data, 0);
  cr_pwrite_all (dst, old, sizeof old, 0);
  off_t in = 7, out = PAGE + 100;
  size_t len = 2 * PAGE + 50;
  ssize_t r = cr_copy_range (src, &in, dst, &out, len);
  bool ok = true;
  if (r != (ssize_t) len)
    ok = failed ("returned %zd (%s)", r, r < 0 ? strerror (errno) : "-");
  else if (cr_file_size (dst) != PAGE + 100 + (off_t) len)
    ok = failed ("size %lld", (long long) cr_file_size (dst));
  else if (cr_compare_buf (dst, 0, old, PAGE + 100) >= 0)
    ok = failed ("the bytes before the range changed");
  else if (cr_compare_buf (dst, PAGE + 100, src_data + 7, len) >= 0)
    ok = failed ("the range holds other bytes");
  close (src);
  close (dst);
  return ok;
}

/* A source of 8 TiB + 3 pages, its data in the last pages: a copy from
   past 8 TiB reads them, and one across a hole reads zeros.  */
static int
group_beyond_8tib (void)
{
  off_t const base = (off_t) 8 << 40;
  int src = cr_create (dir, "src");
  if (ftruncate (src, base + 3 * PAGE) != 0)
    {
      printf ("SKIP: %s: source beyond 8 TiB: %s\n", fs, strerror (errno));
      close (src);
      return 77;
    }
  cr_pwrite_all (src, src_data, 2 * PAGE, base + PAGE);
  int dst = cr_create (dir, "dst");
  off_t in = base + PAGE + 3, out = 0;
  ssize_t r = cr_copy_range (src, &in, dst, &out, PAGE);
  bool ok = true;
  if (r != PAGE)
    ok = failed ("from 8 TiB + 1 page: returned %zd (%s)", r,
                 r < 0 ? strerror (errno) : "short");
  else if (cr_compare_buf (dst, 0, src_data + 3, PAGE) >= 0)
    ok = failed ("from 8 TiB + 1 page: wrong bytes");
  else
    {
      in = base - 100, out = 0;
      r = cr_copy_range (src, &in, dst, &out, 200);
      if (r != 200)
        ok = failed ("across the hole before 8 TiB: returned %zd (%s)", r,
                     r < 0 ? strerror (errno) : "short");
      else if (!cr_zeros (dst, 0, 200))
        ok = failed ("the hole before 8 TiB did not read as zeros");
    }
  close (src);
  close (dst);
  return report ("source beyond 8 TiB", ok);
}

/* The largest size the filesystem takes, found with ftruncate.  */
static off_t
max_file_size (int fd)
{
  off_t lo = 0, hi = LLONG_MAX;
  if (ftruncate (fd, hi) == 0)
    lo = hi;
  while (lo < hi)
    {
      off_t mid = lo + (hi - lo) / 2 + 1;
      if (ftruncate (fd, mid) == 0)
        lo = mid;
      else
        hi = mid - 1;
    }
  if (ftruncate (fd, 0) != 0)
    cr_die ("ftruncate");
  return lo;
}

static int
group_s_maxbytes (void)
{
  int src = cr_create (dir, "src");
  int dst = cr_create (dir, "dst");
  cr_pwrite_all (src, src_data, sizeof src_data, 0);
  off_t max = max_file_size (dst);
  if (max == LLONG_MAX)
    {
      printf ("SKIP: %s: destination past s_maxbytes: it is LLONG_MAX\n",
              fs);
      close (src);
      close (dst);
      return 77;
    }
  off_t in = 0, out = max;
  errno = 0;
  ssize_t r = cr_copy_range (src, &in, dst, &out, 10);
  bool ok = true;
  if (!(r == -1 && errno == EFBIG))
    ok = failed ("at the maximum %lld: returned %zd (%s), expected EFBIG",
                 (long long) max, r, r < 0 ? strerror (errno) : "-");
  else
    {
      out = max - 3;
      r = cr_copy_range (src, &in, dst, &out, 10);
      if (r != 3 || cr_file_size (dst) != max)
        ok = failed ("3 bytes below the maximum: returned %zd, size %lld",
                     r, (long long) cr_file_size (dst));
    }
  close (src);
  close (dst);
  return report ("destination past s_maxbytes", ok);
}

/* A block device is not a regular file, at either end, and is left as
   it was.  */
static int
group_block_device (char const *dev)
{
  if (!dev)
    {
      printf ("SKIP: %s: block device: CR_BLOCK_DEV is not set\n", fs);
      return 77;
    }
  int src = cr_create (dir, "src");
  cr_pwrite_all (src, src_data, sizeof src_data, 0);
  int bdev = open (dev, O_RDWR);
  if (bdev < 0)
    cr_die ("open %s", dev);
  unsigned char before[PAGE], after[PAGE];
  if (pread (bdev, before, PAGE, 0) != PAGE)
    cr_die ("read %s", dev);
  off_t in = 0, out = 0;
  bool ok = true;
  errno = 0;
  ssize_t r = cr_copy_range (src, &in, bdev, &out, PAGE);
  if (!(r == -1 && errno == EINVAL))
    ok = failed ("to %s: returned %zd (%s), expected EINVAL", dev, r,
                 r < 0 ? strerror (errno) : "-");
  int dst = cr_create (dir, "dst");
  in = 0, out = 0;
  errno = 0;
  r = cr_copy_range (bdev, &in, dst, &out, PAGE);
  if (ok && !(r == -1 && errno == EINVAL))
    ok = failed ("from %s: returned %zd (%s), expected EINVAL", dev, r,
                 r < 0 ? strerror (errno) : "-");
  if (pread (bdev, after, PAGE, 0) != PAGE)
    cr_die ("read %s", dev);
  if (ok && memcmp (before, after, PAGE) != 0)
    ok = failed ("%s was written", dev);
  if (ok && cr_file_size (dst) != 0)
    ok = failed ("the destination was written from %s", dev);
  close (bdev);
  close (src);
  close (dst);
  return report ("block device at either end is EINVAL", ok);
}

int
main (int argc, char **argv)
{
  cr_start (argc, argv, "FSNAME DIR");
  fs = argv[1];
  dir = cr_make_dir (argv[2], "cr-contract");
  uint64_t seed = cr_seed ();
  rng = seed;
  printf ("# %s on %s, seed %#llx\n", fs, dir, (unsigned long long) seed);
  cr_random_fill (&rng, src_data, sizeof src_data);
  /* A copy at the size limit would otherwise end the process.  */
  signal (SIGXFSZ, SIG_IGN);

  int failures = 0, skips = 0, groups = 0;
  failures += report ("lengths x offsets at both ends", group_matrix ());
  failures += report ("overwrite and extend", group_overwrite_extend ());
  groups += 2;
  int const results[] = { group_beyond_8tib (), group_s_maxbytes (),
                          group_block_device (getenv ("CR_BLOCK_DEV")) };
  for (size_t i = 0; i < sizeof results / sizeof *results; i++)
    {
      groups++;
      if (results[i] == 77)
        skips++;
      else
        failures += results[i];
    }
  cr_remove_tree (dir);
  free (dir);
  if (failures)
    return CR_EXIT_FAIL;
  return skips == groups ? CR_EXIT_SKIP : CR_EXIT_PASS;
}
