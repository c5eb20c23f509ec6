/* Helpers shared by the copy_range(2) guest tests.
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

#include <config.h>

#include "cr-test.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#ifndef __NR_copy_range
# if defined __x86_64__ || defined __i386__
#  define __NR_copy_range 451
# endif
#endif

static_assert (sizeof (off_t) == 8, "the offsets are 64-bit loff_t");

/* Number 451 is copy_range only on the copyrange kernel: elsewhere it may
   be cachestat (Linux 6.5 and later), which must not be called with these
   arguments.  */
static bool
copyrange_kernel (void)
{
  struct utsname u;
  return uname (&u) == 0 && strstr (u.release, "-copyrange") != NULL;
}

ssize_t
cr_copy_range_flags (int fd_in, off_t *pos_in, int fd_out, off_t *pos_out,
                     size_t count, unsigned int flags)
{
#ifdef __NR_copy_range
  static int known;
  if (!known)
    known = copyrange_kernel () ? 1 : -1;
  if (known > 0)
    return syscall (__NR_copy_range, fd_in, pos_in, fd_out, pos_out, count,
                    flags);
#endif
  errno = ENOSYS;
  return -1;
}

ssize_t
cr_copy_range (int fd_in, off_t *pos_in, int fd_out, off_t *pos_out,
               size_t count)
{
  return cr_copy_range_flags (fd_in, pos_in, fd_out, pos_out, count, 0);
}

double
cr_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

bool
cr_available (char const **why)
{
  off_t zero = 0;
  if (!getenv ("COPYRANGE_GUEST"))
    {
      *why = "not in the copyrange guest";
      return false;
    }
  if (cr_copy_range (-1, &zero, -1, &zero, 0) < 0 && errno == ENOSYS)
    {
      *why = "the kernel has no copy_range";
      return false;
    }
  return true;
}

void
cr_require_copy_range (void)
{
  char const *why;
  if (!cr_available (&why))
    {
      printf ("SKIP: %s\n", why);
      exit (CR_EXIT_SKIP);
    }
}

void
cr_start (int argc, char **argv, char const *operands)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: %s %s\n", argv[0], operands);
      exit (CR_EXIT_ERROR);
    }
  cr_require_copy_range ();
}

_Noreturn void
cr_die (char const *fmt, ...)
{
  int err = errno;
  va_list ap;
  fflush (stdout);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fprintf (stderr, ": %s\n", strerror (err));
  exit (CR_EXIT_ERROR);
}

uint64_t
cr_seed (void)
{
  char const *s = getenv ("CR_SEED");
  if (s && *s)
    return strtoull (s, NULL, 0);
  struct timespec ts;
  clock_gettime (CLOCK_REALTIME, &ts);
  return ((uint64_t) ts.tv_sec << 20) ^ ts.tv_nsec ^ getpid ();
}

/* xorshift64*: plenty for test data, and reproducible from the seed.  */
uint64_t
cr_random (uint64_t *state)
{
  uint64_t x = *state ? *state : 0x9e3779b97f4a7c15u;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 0x2545f4914f6cdd1du;
}

void
cr_random_fill (uint64_t *state, void *buf, size_t len)
{
  unsigned char *p = buf;
  while (len)
    {
      uint64_t r = cr_random (state);
      size_t n = len < sizeof r ? len : sizeof r;
      memcpy (p, &r, n);
      p += n;
      len -= n;
    }
}

uint64_t
cr_random_below (uint64_t *state, uint64_t n)
{
  return n ? cr_random (state) % n : 0;
}

enum { PAGE = 4096 };

size_t
cr_pick_len (uint64_t *state, size_t max, size_t unit)
{
  size_t len;
  switch (cr_random_below (state, 8))
    {
    case 0:
      len = 1 + cr_random_below (state, 16);
      break;
    case 1: case 2:
      len = 1 + cr_random_below (state, PAGE);
      break;
    case 3: case 4: case 5:
      len = 1 + cr_random_below (state, max < 65536 ? max : 65536);
      break;
    default:
      len = 1 + cr_random_below (state, max);
      break;
    }
  if (cr_random_below (state, 4) == 0)
    len = (len + PAGE - 1) / PAGE * PAGE;
  len = (len + unit - 1) / unit * unit;
  return len < max ? len : max;
}

off_t
cr_pick_off (uint64_t *state, off_t limit, off_t unit)
{
  if (limit <= 0)
    return 0;
  off_t off = cr_random_below (state, limit);
  if (cr_random_below (state, 4) == 0)
    off -= off % PAGE;
  return off - off % unit;
}

void
cr_model_set_size (unsigned char *data, off_t *size, off_t new_size)
{
  if (new_size < *size)
    memset (data + new_size, 0, *size - new_size);
  *size = new_size;
}

void
cr_model_copy (struct cr_model_hooks const *h,
               int in_fd, off_t in_off, bool null_in,
               int out_fd, off_t out_off, bool null_out,
               size_t len, off_t want)
{
  if (null_in && lseek (in_fd, in_off, SEEK_SET) != in_off)
    cr_die ("lseek");
  if (null_out && lseek (out_fd, out_off, SEEK_SET) != out_off)
    cr_die ("lseek");
  /* Across two files, a copy that the source's end cut short is followed
     by one more call, which must find that end and return 0.  Within one
     file the copy may itself have moved the end, so there is none.  The
     loop ends at a call that returns 0, or when WANT bytes are done and
     no such call is due.  */
  bool one_more = want < (off_t) len && in_fd != out_fd;
  off_t pin = in_off, pout = out_off, done = 0;
  for (long calls = 1; done < want || one_more; calls++)
    {
      off_t before_in = pin, before_out = pout;
      ssize_t r = h->call (in_fd, null_in ? NULL : &pin,
                           out_fd, null_out ? NULL : &pout,
                           len - done);
      int e = errno;
      h->note ("%s%zd", calls == 1 ? "; returned " : ", ", r);
      if (r < 0)
        h->fail ("%s failed after %lld of %lld bytes: %s", h->name,
                 (long long) done, (long long) want, strerror (e));
      if (null_in)
        pin = lseek (in_fd, 0, SEEK_CUR);
      if (null_out)
        pout = lseek (out_fd, 0, SEEK_CUR);
      if (pin != before_in + r || pout != before_out + r)
        h->fail ("%s returned %zd, but the offsets moved by %lld and %lld",
                 h->name, r, (long long) (pin - before_in),
                 (long long) (pout - before_out));
      if (r == 0)
        break;
      done += r;
      if (done > want)
        h->fail ("%s copied %lld bytes in all, the model %lld", h->name,
                 (long long) done, (long long) want);
      if (calls == 10000)
        h->fail ("%s: no end after %ld calls", h->name, calls);
    }
  if (done != want)
    h->fail ("%s returned 0 after %lld bytes, %lld before the source's end",
             h->name, (long long) done, (long long) want);
}

void
cr_pwrite_all (int fd, void const *buf, size_t len, off_t off)
{
  char const *p = buf;
  while (len)
    {
      ssize_t n = pwrite (fd, p, len, off);
      if (n <= 0)
        cr_die ("pwrite at %lld", (long long) off);
      p += n;
      len -= n;
      off += n;
    }
}

enum { BLOCK = 1 << 20 };

/* Read exactly LEN bytes (less only at end of file).  */
static ssize_t
pread_full (int fd, char *buf, size_t len, off_t off)
{
  size_t got = 0;
  while (got < len)
    {
      ssize_t n = pread (fd, buf + got, len - got, off + got);
      if (n < 0)
        return -1;
      if (n == 0)
        break;
      got += n;
    }
  return got;
}

static off_t
first_difference (char const *a, char const *b, size_t len)
{
  for (size_t i = 0; i < len; i++)
    if (a[i] != b[i])
      return i;
  return -1;
}

off_t
cr_compare_ranges (int fd_a, off_t off_a, int fd_b, off_t off_b, off_t len)
{
  static char a[BLOCK], b[BLOCK];
  for (off_t done = 0; done < len; )
    {
      size_t want = len - done < BLOCK ? len - done : BLOCK;
      ssize_t na = pread_full (fd_a, a, want, off_a + done);
      ssize_t nb = pread_full (fd_b, b, want, off_b + done);
      if (na < 0 || nb < 0)
        cr_die ("read while comparing");
      size_t n = na < nb ? na : nb;
      if (memcmp (a, b, n) != 0)
        return done + first_difference (a, b, n);
      if (n < want)
        return done + n;
      done += want;
    }
  return -1;
}

off_t
cr_compare_buf (int fd, off_t off, void const *buf, size_t len)
{
  static char a[BLOCK];
  char const *want_buf = buf;
  for (size_t done = 0; done < len; )
    {
      size_t want = len - done < BLOCK ? len - done : BLOCK;
      ssize_t n = pread_full (fd, a, want, off + done);
      if (n < 0)
        cr_die ("read while comparing");
      if (memcmp (a, want_buf + done, n) != 0)
        return done + first_difference (a, want_buf + done, n);
      if ((size_t) n < want)
        return done + n;
      done += want;
    }
  return -1;
}

off_t
cr_compare_sparse (int fd, off_t off, off_t len,
                   struct cr_island const *islands, size_t n)
{
  static char a[BLOCK], want[BLOCK];
  size_t first = 0;
  for (off_t done = 0; done < len; )
    {
      size_t size = len - done < BLOCK ? len - done : BLOCK;
      memset (want, 0, size);
      while (first < n && islands[first].at + (off_t) islands[first].len
                          <= done)
        first++;
      for (size_t i = first; i < n && islands[i].at < done + (off_t) size;
           i++)
        {
          off_t from = islands[i].at > done ? islands[i].at : done;
          off_t to = islands[i].at + (off_t) islands[i].len;
          if (to > done + (off_t) size)
            to = done + size;
          memcpy (want + (from - done),
                  islands[i].data + (from - islands[i].at), to - from);
        }
      ssize_t got = pread_full (fd, a, size, off + done);
      if (got < 0)
        cr_die ("read while comparing");
      if (memcmp (a, want, got) != 0)
        return done + first_difference (a, want, got);
      if ((size_t) got < size)
        return done + got;
      done += size;
    }
  return -1;
}

off_t
cr_file_size (int fd)
{
  struct stat st;
  if (fstat (fd, &st) != 0)
    cr_die ("fstat");
  return st.st_size;
}

size_t
cr_write_islands (int fd, off_t size, off_t first, off_t step, size_t len,
                  uint64_t *state, struct cr_island **islands)
{
  enum { TAIL = 100 };
  if (ftruncate (fd, size) != 0)
    cr_die ("ftruncate");
  size_t n = 1;
  for (off_t at = first; at + (off_t) len < size - TAIL; at += step)
    n++;
  struct cr_island *is = malloc (n * sizeof *is);
  if (!is)
    cr_die ("malloc");
  for (size_t i = 0; i < n; i++)
    {
      is[i].at = i < n - 1 ? first + (off_t) i * step : size - TAIL;
      is[i].len = i < n - 1 ? len : TAIL;
      is[i].data = malloc (is[i].len);
      if (!is[i].data)
        cr_die ("malloc");
      cr_random_fill (state, is[i].data, is[i].len);
      cr_pwrite_all (fd, is[i].data, is[i].len, is[i].at);
    }
  *islands = is;
  return n;
}

bool
cr_zeros (int fd, off_t off, off_t len)
{
  static char a[BLOCK];
  for (off_t done = 0; done < len; )
    {
      size_t want = len - done < BLOCK ? len - done : BLOCK;
      ssize_t n = pread_full (fd, a, want, off + done);
      if (n < 0)
        cr_die ("read while checking for zeros");
      if ((size_t) n < want)
        return false;
      for (size_t i = 0; i < want; i++)
        if (a[i])
          return false;
      done += want;
    }
  return true;
}

int
cr_open_in (char const *dir, char const *name, int flags)
{
  char p[4096];
  snprintf (p, sizeof p, "%s/%s", dir, name);
  int fd = open (p, flags, 0644);
  if (fd < 0)
    cr_die ("open %s", p);
  return fd;
}

int
cr_create (char const *dir, char const *name)
{
  return cr_open_in (dir, name, O_CREAT | O_TRUNC | O_RDWR);
}

char *
cr_make_dir (char const *base, char const *prog)
{
  size_t len = strlen (base) + strlen (prog) + sizeof "/.XXXXXX";
  char *dir = malloc (len);
  if (!dir)
    cr_die ("malloc");
  snprintf (dir, len, "%s/%s.XXXXXX", base, prog);
  if (!mkdtemp (dir))
    cr_die ("mkdtemp %s", dir);
  return dir;
}

bool
cr_remove_tree (char const *dir)
{
  char const *argv[] = { "rm", "-rf", "--", dir, NULL };
  pid_t pid = fork ();
  if (pid == 0)
    {
      execv ("/bin/rm", (char **) argv);
      _exit (127);
    }
  int status;
  return (pid > 0 && waitpid (pid, &status, 0) == pid
          && WIFEXITED (status) && WEXITSTATUS (status) == 0
          && access (dir, F_OK) != 0 && errno == ENOENT);
}
