/* A 32-bit program copies a file bigger than 2 GiB with copy_range(2):
   every call's count fits its ssize_t.
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

/* Usage: cr-compat32 FSNAME DIR

   Built alone with -m32 -static (tests/local.mk), without the suite's
   gnulib and helpers, which are 64-bit: the guest has no 32-bit shared
   libraries.  It runs through the kernel's ia32 entry, where the count is
   a 32-bit size_t and the result a 32-bit ssize_t, so a call that copied
   2 GiB or more would return a negative number.  The kernel must stop
   each call at MAX_RW_COUNT (INT_MAX rounded down to a page: 0x7ffff000
   with 4 KiB pages), as read(2) and write(2) do.

   The source is 3 GiB (less where the filesystem has no room for the
   copy, but always well over 2 GiB), sparse with random data every
   64 MiB.  A loop asks for all that is left each time; every call must
   return a positive count no bigger than asked nor than MAX_RW_COUNT,
   with both offsets advanced by exactly that, and the copy must equal
   the source.  */

#ifndef __i386__
# error "this test is built with -m32"
#endif

#define _GNU_SOURCE 1
#define _FILE_OFFSET_BITS 64

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>

_Static_assert (sizeof (long) == 4, "a 32-bit program");
_Static_assert (sizeof (off_t) == 8, "64-bit file offsets");

enum { NR_COPY_RANGE_I386 = 451, PAGE = 4096, BLOCK = 1 << 20 };
enum { EXIT_PASS = 0, EXIT_FAIL = 1, EXIT_SKIP = 77, EXIT_ERROR = 99 };
#define MAX_RW_COUNT 0x7ffff000L

static char const *prog = "cr-compat32";

static _Noreturn void
die (char const *what)
{
  int e = errno;
  fflush (stdout);
  fprintf (stderr, "%s: %s: %s\n", prog, what, strerror (e));
  exit (EXIT_ERROR);
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* xorshift64*, for the islands' data.  */
static uint64_t
next_random (uint64_t *s)
{
  uint64_t x = *s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *s = x;
  return x * 0x2545f4914f6cdd1dULL;
}

/* Number 451 is copy_range only on the copyrange kernel (elsewhere it
   may be cachestat): look at the release before calling it.  */
static long
copy_range (int fd_in, off_t *pos_in, int fd_out, off_t *pos_out,
            size_t count)
{
  return syscall (NR_COPY_RANGE_I386, fd_in, pos_in, fd_out, pos_out,
                  count, 0);
}

static void
pwrite_all (int fd, void const *buf, size_t len, off_t off)
{
  if (pwrite (fd, buf, len, off) != (ssize_t) len)
    die ("pwrite");
}

/* Data islands in a sparse file: ISLAND bytes every STEP, and a last one
   of TAIL bytes ending at the file's end.  */
enum { ISLAND = 3 * PAGE, TAIL = 100 };
#define STEP (64LL << 20)
#define FIRST 12345LL

static unsigned char *island_data;
static long n_islands;

static off_t
island_at (long i, off_t size)
{
  return i < n_islands - 1 ? FIRST + i * STEP : size - TAIL;
}

static size_t
island_len (long i)
{
  return i < n_islands - 1 ? ISLAND : TAIL;
}

/* Fill BUF with what LEN bytes at OFF of the source hold.  */
static void
expected (unsigned char *buf, off_t off, size_t len, off_t size)
{
  memset (buf, 0, len);
  for (long i = 0; i < n_islands; i++)
    {
      off_t a = island_at (i, size), b = a + island_len (i);
      off_t from = a > off ? a : off;
      off_t to = b < off + (off_t) len ? b : off + (off_t) len;
      if (from < to)
        memcpy (buf + (from - off), island_data + i * ISLAND + (from - a),
                to - from);
    }
}

/* The first offset in [FROM, TO) where the source has a nonzero byte,
   or -1.  */
static off_t
first_data (off_t from, off_t to, off_t size)
{
  for (long i = 0; i < n_islands; i++)
    {
      off_t a = island_at (i, size), b = a + island_len (i);
      for (off_t o = a > from ? a : from; o < b && o < to; o++)
        if (island_data[i * ISLAND + (o - a)])
          return o;
    }
  return -1;
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: %s FSNAME DIR\n", prog);
      return EXIT_ERROR;
    }
  char const *fs = argv[1];
  struct utsname u;
  if (!getenv ("COPYRANGE_GUEST"))
    {
      printf ("SKIP: not in the copyrange guest\n");
      return EXIT_SKIP;
    }
  if (uname (&u) != 0 || !strstr (u.release, "-copyrange"))
    {
      printf ("FAIL: %s: not the copyrange kernel\n", fs);
      return EXIT_FAIL;
    }

  char dir[4096], p[4200];
  snprintf (dir, sizeof dir, "%s/cr-compat32.XXXXXX", argv[2]);
  if (!mkdtemp (dir))
    die ("mkdtemp");

  /* 3 GiB and a bit, or what fits with 512 MiB to spare, but never less
     than 2 GiB and 64 MiB: well past MAX_RW_COUNT.  */
  off_t size = (3LL << 30) + 5 * PAGE + 3;
  struct statvfs sv;
  if (statvfs (dir, &sv) != 0)
    die ("statvfs");
  off_t room = (off_t) sv.f_bavail * sv.f_frsize - (512LL << 20);
  if (room < size)
    size = room & ~(off_t) (PAGE - 1);
  if (size < (2LL << 30) + (64 << 20))
    {
      printf ("FAIL: %s: only %lld MiB free, not enough for a copy past "
              "2 GiB\n", fs, (long long) (room >> 20) + 512);
      rmdir (dir);
      return EXIT_FAIL;
    }

  uint64_t seed = 0x5eed32, rng = seed;
  n_islands = (size - TAIL - FIRST - ISLAND) / STEP + 2;
  island_data = malloc ((size_t) n_islands * ISLAND);
  if (!island_data)
    die ("malloc");
  for (long i = 0; i < n_islands * ISLAND; i += 8)
    {
      uint64_t r = next_random (&rng);
      memcpy (island_data + i, &r, 8);
    }
  snprintf (p, sizeof p, "%s/src", dir);
  int src = open (p, O_CREAT | O_TRUNC | O_RDWR, 0644);
  if (src < 0)
    die ("create src");
  snprintf (p, sizeof p, "%s/dst", dir);
  int dst = open (p, O_CREAT | O_TRUNC | O_RDWR, 0644);
  if (dst < 0)
    die ("create dst");
  if (ftruncate (src, size) != 0)
    die ("ftruncate");
  for (long i = 0; i < n_islands; i++)
    pwrite_all (src, island_data + i * ISLAND, island_len (i),
                island_at (i, size));
  printf ("# %s on %s: a %lld-byte source, %ld islands\n", fs, dir,
          (long long) size, n_islands);

  char detail[300] = "";
  off_t in = 0, out = 0;
  long calls = 0;
  double t0 = now ();
  while (in < size && !detail[0])
    {
      size_t want = size - in;
      off_t in0 = in, out0 = out;
      errno = 0;
      long r = copy_range (src, &in, dst, &out, want);
      int e = errno;
      calls++;
      printf ("# call %ld at %lld: asked %zu, returned %ld\n", calls,
              (long long) in0, want, r);
      if (r == -1)
        snprintf (detail, sizeof detail, "call %ld at %lld failed: %s",
                  calls, (long long) in0, strerror (e));
      else if (r < 0)
        snprintf (detail, sizeof detail,
                  "call %ld at %lld returned %ld, a count that does not "
                  "fit a 32-bit ssize_t (the offsets moved by %lld)",
                  calls, (long long) in0, r, (long long) (in - in0));
      else if (r == 0)
        snprintf (detail, sizeof detail, "call %ld at %lld returned 0",
                  calls, (long long) in0);
      else if ((size_t) r > want || r > MAX_RW_COUNT)
        snprintf (detail, sizeof detail,
                  "call %ld returned %ld, more than asked (%zu) or than "
                  "MAX_RW_COUNT", calls, r, want);
      else if (in != in0 + r || out != out0 + r)
        snprintf (detail, sizeof detail,
                  "call %ld returned %ld but the offsets moved by %lld, "
                  "%lld", calls, r, (long long) (in - in0),
                  (long long) (out - out0));
    }
  printf ("# %ld calls in %.1f s\n", calls, now () - t0);

  if (!detail[0])
    {
      struct stat st;
      if (fstat (dst, &st) != 0)
        die ("fstat");
      if (st.st_size != size)
        snprintf (detail, sizeof detail, "the copy has %lld bytes, not %lld",
                  (long long) st.st_size, (long long) size);
    }
  /* Compare the data the copy holds; its holes must be where the
     source has zeros.  */
  static unsigned char got[BLOCK], want[BLOCK];
  for (off_t at = 0; at < size && !detail[0]; )
    {
      off_t data = lseek (dst, at, SEEK_DATA);
      if (data < 0 && errno == ENXIO)
        data = size;
      else if (data < 0)
        die ("lseek SEEK_DATA");
      off_t bad = first_data (at, data, size);
      if (bad >= 0)
        {
          snprintf (detail, sizeof detail, "the copy has a hole at byte "
                    "%lld, which is data in the source", (long long) bad);
          break;
        }
      if (data >= size)
        break;
      off_t hole = lseek (dst, data, SEEK_HOLE);
      if (hole < 0)
        die ("lseek SEEK_HOLE");
      for (at = data; at < hole && !detail[0]; at += BLOCK)
        {
          size_t len = hole - at < BLOCK ? hole - at : BLOCK;
          ssize_t n = pread (dst, got, len, at);
          if (n < 0)
            die ("pread");
          expected (want, at, len, size);
          if ((size_t) n != len || memcmp (got, want, len) != 0)
            {
              size_t i = 0;
              while (i < (size_t) n && got[i] == want[i])
                i++;
              snprintf (detail, sizeof detail,
                        "the copy differs at byte %lld",
                        (long long) (at + i));
            }
        }
      at = hole;
    }
  printf ("%s: %s: a 32-bit caller copies %lld MiB%s%s\n",
          detail[0] ? "FAIL" : "PASS", fs, (long long) (size >> 20),
          detail[0] ? ": " : "", detail);
  close (src);
  close (dst);
  snprintf (p, sizeof p, "%s/src", dir);
  unlink (p);
  snprintf (p, sizeof p, "%s/dst", dir);
  unlink (p);
  rmdir (dir);
  return detail[0] ? EXIT_FAIL : EXIT_PASS;
}
