/* copy_range(2) on NFS under a periodic timer: it finishes, keeps what
   the server copied, and fails with EINTR only when nothing changed.
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

/* Usage: signals MODE SRC DST

   SRC is a file on an NFS mount; DST is created (or emptied) beside it.
   A timer sends SIGALRM every 20 ms to a handler that counts it, while:

   sa-restart  the handler has SA_RESTART, and SRC is copied whole into
               DST, each call asking for all that is left; no call may
               fail, and the copy must be done within 240 s.  Once a
               signal made the call give up what the server had copied and
               start again, and a server copy longer than the timer's
               period never finished.
   no-restart  the handler has no SA_RESTART, and eight times DST is
               emptied and one call asks for the first 64 MiB + 1 of SRC
               (more than one asynchronous COPY takes).  A call returns a
               count with both offsets moved by exactly that, or fails
               with EINTR; after EINTR DST must still be empty, as seen
               by a new open of it (close-to-open: the server's size).
   plain       no timer: copy SRC whole, as sa-restart does.

   Prints "calls N, signals S, T s" and exits 0, or prints what went
   wrong and exits 1.  The bytes are checked by the caller.  */

#include <config.h>

#include "cr-test.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/time.h>

enum { PERIOD_US = 20000, DEADLINE_S = 240, ROUNDS = 8 };
static size_t const round_count = ((size_t) 64 << 20) + 1;

static volatile sig_atomic_t signals;
static char const *src_name, *dst_name;

static void
on_alarm (int sig)
{
  (void) sig;
  signals++;
}

static void
die (char const *what)
{
  fprintf (stderr, "FAIL: %s: %s\n", what, strerror (errno));
  exit (CR_EXIT_FAIL);
}

static void
start_timer (bool restart)
{
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sa.sa_flags = restart ? SA_RESTART : 0;
  sigemptyset (&sa.sa_mask);
  struct itimerval it = { { 0, PERIOD_US }, { 0, PERIOD_US } };
  if (sigaction (SIGALRM, &sa, NULL) != 0
      || setitimer (ITIMER_REAL, &it, NULL) != 0)
    die ("timer");
}

static void
stop_timer (void)
{
  struct itimerval it = { { 0, 0 }, { 0, 0 } };
  setitimer (ITIMER_REAL, &it, NULL);
}

/* Copy all of IN (SIZE bytes) into OUT; return the number of calls.  */
static long
copy_whole (int in, int out, off_t size, double t0)
{
  off_t pi = 0, po = 0;
  long calls = 0;
  while (pi < size)
    {
      if (cr_now () - t0 > DEADLINE_S)
        {
          fprintf (stderr, "FAIL: %lld of %lld bytes copied after %d s,"
                   " %ld calls, %ld signals\n", (long long) pi,
                   (long long) size, DEADLINE_S, calls, (long) signals);
          exit (CR_EXIT_FAIL);
        }
      off_t before = pi;
      ssize_t n = cr_copy_range (in, &pi, out, &po, size - pi);
      calls++;
      if (n < 0)
        die ("copy_range");
      if (n == 0 || pi != before + n || po != pi)
        {
          fprintf (stderr, "FAIL: call %ld at %lld returned %zd, offsets"
                   " now %lld and %lld\n", calls, (long long) before, n,
                   (long long) pi, (long long) po);
          exit (CR_EXIT_FAIL);
        }
    }
  return calls;
}

static off_t
size_now (void)
{
  int fd = open (dst_name, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat (fd, &st) != 0)
    die (dst_name);
  close (fd);
  return st.st_size;
}

/* One call of ROUND_COUNT bytes into the emptied OUT; return whether it
   failed with EINTR.  */
static bool
one_round (int in, int out, int round)
{
  off_t pi = 0, po = 0;
  if (ftruncate (out, 0) != 0 || fsync (out) != 0)
    die ("emptying the destination");
  ssize_t n = cr_copy_range (in, &pi, out, &po, round_count);
  if (n < 0 && errno == EINTR)
    {
      off_t size = size_now ();
      if (size != 0)
        {
          fprintf (stderr, "FAIL: round %d: EINTR after the destination"
                   " changed: it has %lld bytes\n", round, (long long) size);
          exit (CR_EXIT_FAIL);
        }
      return true;
    }
  if (n < 0)
    die ("copy_range");
  if (n == 0 || pi != n || po != n)
    {
      fprintf (stderr, "FAIL: round %d returned %zd, offsets %lld and"
               " %lld\n", round, n, (long long) pi, (long long) po);
      exit (CR_EXIT_FAIL);
    }
  return false;
}

int
main (int argc, char **argv)
{
  if (argc != 4)
    {
      fprintf (stderr, "usage: %s sa-restart|no-restart|plain SRC DST\n",
               argv[0]);
      return CR_EXIT_ERROR;
    }
  cr_require_copy_range ();
  char const *mode = argv[1];
  src_name = argv[2];
  dst_name = argv[3];
  int in = open (src_name, O_RDONLY);
  int out = open (dst_name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  struct stat st;
  if (in < 0 || out < 0 || fstat (in, &st) != 0)
    die ("opening the files");

  double t0 = cr_now ();
  long calls;
  if (strcmp (mode, "no-restart") == 0)
    {
      start_timer (false);
      int eintr = 0;
      for (int r = 0; r < ROUNDS; r++)
        eintr += one_round (in, out, r);
      stop_timer ();
      calls = ROUNDS;
      printf ("%d of %d calls failed with EINTR, the destination empty\n",
              eintr, ROUNDS);
    }
  else if (strcmp (mode, "sa-restart") == 0 || strcmp (mode, "plain") == 0)
    {
      if (mode[0] == 's')
        start_timer (true);
      calls = copy_whole (in, out, st.st_size, t0);
      stop_timer ();
    }
  else
    {
      fprintf (stderr, "%s: unknown mode %s\n", argv[0], mode);
      return CR_EXIT_ERROR;
    }
  if (fsync (out) != 0 || close (out) != 0)
    die ("closing the destination");
  printf ("calls %ld, signals %ld, %.2f s\n", calls, (long) signals,
          cr_now () - t0);
  return CR_EXIT_PASS;
}
