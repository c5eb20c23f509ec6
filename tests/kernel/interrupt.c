/* A signal interrupts a long copy_range(2) with partial progress, and the
   resumed loop finishes an identical copy.
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

/* Usage: interrupt FSNAME DIR
   A timer sends SIGALRM every 10 ms, to a handler installed without
   SA_RESTART, while a loop copies a 256 MiB sparse file with copy_range:
   through the page cache (the destination offset is unaligned), which
   takes many timer periods even on a fast machine.  The file is smaller
   than MAX_RW_COUNT, so only a signal can stop a call early.  Every call
   must either copy something and return how much, with both offsets
   advanced by exactly that, or fail with EINTR having copied and moved
   nothing.  At least one call must stop early, and the result must equal
   the source.  */

#include <config.h>

#include "cr-test.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>

enum { PAGE = 4096 };

static volatile sig_atomic_t alarms;

static void
on_alarm (int sig)
{
  alarms++;
}

static void
set_timer (long usec)
{
  struct itimerval it = { { 0, usec }, { 0, usec } };
  if (setitimer (ITIMER_REAL, &it, NULL) != 0)
    cr_die ("setitimer");
}

int
main (int argc, char **argv)
{
  cr_start (argc, argv, "FSNAME DIR");
  char const *fs = argv[1];
  char *dir = cr_make_dir (argv[2], "cr-intr");
  off_t const size = (256 << 20) + 5 * PAGE + 3;
  off_t const out0 = 3;

  struct statvfs sv;
  if (statvfs (dir, &sv) == 0
      && (unsigned long long) sv.f_bavail * sv.f_frsize < size + (256 << 20))
    {
      printf ("SKIP: %s: interrupted copy: only %llu MiB free\n", fs,
              (unsigned long long) sv.f_bavail * sv.f_frsize >> 20);
      cr_remove_tree (dir);
      return CR_EXIT_SKIP;
    }

  /* Random data scattered over a sparse source, so that every chunk of
     the copy has something to get wrong.  */
  uint64_t seed = cr_seed (), rng = seed;
  printf ("# %s on %s, seed %#llx\n", fs, dir, (unsigned long long) seed);
  int src = cr_create (dir, "src");
  int dst = cr_create (dir, "dst");
  struct cr_island *islands;
  size_t n = cr_write_islands (src, size, 12345, 8 << 20, 3 * PAGE, &rng,
                               &islands);

  struct sigaction sa = { .sa_handler = on_alarm };
  sigemptyset (&sa.sa_mask);
  if (sigaction (SIGALRM, &sa, NULL) != 0)
    cr_die ("sigaction");

  off_t in = 0, out = out0;
  long calls = 0, partial = 0, eintr = 0;
  char detail[256] = "";
  set_timer (10000);
  while (in < size && !detail[0])
    {
      off_t in0 = in, outb = out;
      errno = 0;
      ssize_t r = cr_copy_range (src, &in, dst, &out, size - in);
      int e = errno;
      calls++;
      if (r < 0 && e == EINTR)
        {
          eintr++;
          if (in != in0 || out != outb)
            snprintf (detail, sizeof detail,
                      "EINTR moved the offsets to %lld, %lld",
                      (long long) in, (long long) out);
        }
      else if (r <= 0)
        snprintf (detail, sizeof detail, "at %lld: returned %zd (%s)",
                  (long long) in0, r, r < 0 ? strerror (e) : "no error");
      else if (in != in0 + r || out != outb + r)
        snprintf (detail, sizeof detail,
                  "returned %zd but the offsets moved by %lld, %lld", r,
                  (long long) (in - in0), (long long) (out - outb));
      else if (r < size - in0)
        partial++;
      if (calls > 1000000)
        snprintf (detail, sizeof detail, "no progress after %ld calls",
                  calls);
    }
  set_timer (0);
  printf ("# %ld calls, %ld stopped early, %ld EINTR, %d signals\n", calls,
          partial, (long) eintr, (int) alarms);

  if (!detail[0] && partial == 0)
    snprintf (detail, sizeof detail,
              "no call stopped early although %d signals arrived",
              (int) alarms);
  if (!detail[0])
    {
      struct stat st;
      off_t diff;
      if (fstat (dst, &st) != 0)
        cr_die ("fstat");
      if (lseek (src, 0, SEEK_CUR) != 0 || lseek (dst, 0, SEEK_CUR) != 0)
        snprintf (detail, sizeof detail, "the file offsets moved");
      else if (st.st_size != out0 + size)
        snprintf (detail, sizeof detail, "size %lld, expected %lld",
                  (long long) st.st_size, (long long) (out0 + size));
      else if (!cr_zeros (dst, 0, out0))
        snprintf (detail, sizeof detail, "the leading gap is not zeros");
      else if ((diff = cr_compare_sparse (dst, out0, size, islands, n)) >= 0)
        snprintf (detail, sizeof detail, "first wrong byte at %lld",
                  (long long) diff);
    }
  printf ("%s: %s: 256 MiB copy interrupted and resumed%s%s\n",
          detail[0] ? "FAIL" : "PASS", fs, detail[0] ? ": " : "", detail);
  close (src);
  close (dst);
  cr_remove_tree (dir);
  return detail[0] ? CR_EXIT_FAIL : CR_EXIT_PASS;
}
