/* A signal that arrives before copy_range(2) has copied anything restarts
   the call unless a handler without SA_RESTART runs.
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

/* Usage: restart FSNAME DIR

   A loop copies a file of random data again and again with copy_range,
   mostly in small calls: a small call spends a good part of its time in
   the kernel before the first byte moves (the checks, the destination's
   inode lock and times), so a signal that comes at a random moment often
   finds the call with nothing copied.  Three cases:

   stop  another process stops and continues the copier (SIGSTOP, SIGCONT,
         no handler) many times: no call may fail, since a stopped and
         continued call is restarted;
   sa-restart  a timer sends SIGALRM every 2 ms to a handler installed with
         SA_RESTART: no call may fail with EINTR;
   no-restart  the same handler without SA_RESTART: each call returns a
         positive count, with both offsets advanced by exactly that, or
         fails with EINTR having moved nothing.  Some call must fail with
         EINTR: that shows signals do come while nothing is copied, which
         is what makes the two cases above mean something.

   Each case ends with the destination equal to the source.  */

#include <config.h>

#include "cr-test.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>

enum { PAGE = 4096 };

/* One pass copies this much; an odd size, so that the last call ends
   inside a page.  */
static off_t const pass_size = (24 << 20) + 3 * PAGE + 5;

/* The call sizes, in turn; a pass also makes one call of a little more
   than the kernel's 4 MiB page-cache piece, which a signal can stop after
   progress.  */
static size_t const small_counts[] = { PAGE, 1, 2 * PAGE, 3 * PAGE + 1,
                                       16 * PAGE, PAGE - 7, 8 * PAGE };
static size_t const big_count = (4 << 20) + PAGE + 1;

enum mode { STOP, SA_RESTART_HANDLER, NO_RESTART_HANDLER };
static char const *const mode_name[] = { "stop", "sa-restart",
                                         "no-restart" };

struct stats
{
  long calls, partial, eintr, passes;
  char detail[256];		/* the first thing that went wrong */
};

/* Set by another process (STOP) or by the loop itself: finish the pass
   and stop.  */
static volatile int *stop_flag;
static volatile sig_atomic_t alarms;

static void
on_alarm (int sig)
{
  alarms++;
}

static void note (struct stats *st, char const *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* Record the first thing that went wrong.  */
static void
note (struct stats *st, char const *fmt, ...)
{
  va_list ap;
  if (st->detail[0])
    return;
  va_start (ap, fmt);
  vsnprintf (st->detail, sizeof st->detail, fmt, ap);
  va_end (ap);
}

/* Copy the whole source to the destination once, checking every call.
   Return false if the copy cannot go on.  */
static bool
copy_pass (int src, int dst, enum mode mode, struct stats *st)
{
  off_t in = 0, out = 0;
  long k = 0;
  while (in < pass_size)
    {
      size_t count = small_counts[k % (sizeof small_counts
                                       / sizeof *small_counts)];
      if (k == 700)
        count = big_count;
      k++;
      off_t in0 = in, out0 = out;
      errno = 0;
      ssize_t r = cr_copy_range (src, &in, dst, &out, count);
      int e = errno;
      st->calls++;
      if (r < 0 && e == EINTR)
        {
          st->eintr++;
          if (mode != NO_RESTART_HANDLER)
            note (st, "call %ld at %lld, count %zu, failed with EINTR",
                  st->calls, (long long) in0, count);
          if (in != in0 || out != out0)
            {
              note (st, "EINTR moved the offsets to %lld, %lld from %lld",
                    (long long) in, (long long) out, (long long) in0);
              return false;
            }
        }
      else if (r <= 0)
        {
          note (st, "call %ld at %lld, count %zu: %s", st->calls,
                (long long) in0, count, r < 0 ? strerror (e) : "returned 0");
          return false;
        }
      else if ((size_t) r > count || in != in0 + r || out != out0 + r)
        {
          note (st, "returned %zd but the offsets moved by %lld, %lld", r,
                (long long) (in - in0), (long long) (out - out0));
          return false;
        }
      else if ((size_t) r < count && in < pass_size)
        st->partial++;
    }
  st->passes++;
  return true;
}

/* Copy in passes until *STOP_FLAG is set (and at least once), or until
   the time is up.  */
static void
copy_loop (int src, int dst, enum mode mode, struct stats *st,
           long want_alarms, double deadline)
{
  do
    {
      if (!copy_pass (src, dst, mode, st))
        break;
      if (want_alarms && alarms >= want_alarms)
        *stop_flag = 1;
      if (!*stop_flag && cr_now () > deadline)
        {
          note (st, "out of time after %ld passes (%ld calls, %d signals)",
                st->passes, st->calls, (int) alarms);
          break;
        }
    }
  while (!*stop_flag);
}

static void
set_timer (long usec)
{
  struct itimerval it = { { 0, usec }, { 0, usec } };
  if (setitimer (ITIMER_REAL, &it, NULL) != 0)
    cr_die ("setitimer");
}

/* Stop and continue PID N times, waiting each time until it is stopped;
   then set *STOP_FLAG.  Return how many times it stopped.  */
static long
stop_and_continue (pid_t pid, long n, uint64_t *rng)
{
  long stops = 0;
  for (long i = 0; i < n; i++)
    {
      int status;
      struct timespec pause = { 0, 300000 + cr_random (rng) % 3000000 };
      nanosleep (&pause, NULL);
      if (kill (pid, SIGSTOP) != 0)
        cr_die ("kill SIGSTOP");
      if (waitpid (pid, &status, WUNTRACED) != pid)
        cr_die ("waitpid");
      if (!WIFSTOPPED (status))
        {
          /* It exited: the caller's waitpid must not wait again.  */
          fprintf (stderr, "restart: the copier ended early (status %#x)\n",
                   status);
          return -1 - stops;
        }
      stops++;
      if (kill (pid, SIGCONT) != 0)
        cr_die ("kill SIGCONT");
    }
  *stop_flag = 1;
  return stops;
}

static bool
run_case (char const *fs, char const *dir, int src, enum mode mode,
          uint64_t *rng)
{
  char p[4096];
  snprintf (p, sizeof p, "%s/dst-%s", dir, mode_name[mode]);
  int dst = open (p, O_CREAT | O_TRUNC | O_RDWR, 0644);
  if (dst < 0)
    cr_die ("create %s", p);
  *stop_flag = 0;
  alarms = 0;
  double t0 = cr_now (), deadline = t0 + 40;
  struct stats st = { 0 };
  long stops = 0;
  int const cycles = 300, want_alarms = 600;

  if (mode == STOP)
    {
      /* The copier is a child, so that waitpid tells when it stopped;
         it reports back through shared memory.  */
      struct stats *shared = mmap (NULL, sizeof *shared,
                                   PROT_READ | PROT_WRITE,
                                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
      if (shared == MAP_FAILED)
        cr_die ("mmap");
      memset (shared, 0, sizeof *shared);
      fflush (stdout);
      pid_t pid = fork ();
      if (pid < 0)
        cr_die ("fork");
      if (pid == 0)
        {
          copy_loop (src, dst, mode, shared, 0, deadline);
          _exit (0);
        }
      stops = stop_and_continue (pid, cycles, rng);
      int status;
      if (stops >= 0 && waitpid (pid, &status, 0) != pid)
        cr_die ("waitpid");
      st = *shared;
      munmap (shared, sizeof *shared);
      if (stops < 0)
        {
          stops = -1 - stops;
          note (&st, "the copier ended after %ld of %d stops", stops,
                cycles);
        }
      else if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
        note (&st, "the copier ended with status %#x", status);
    }
  else
    {
      struct sigaction sa = { .sa_handler = on_alarm };
      sigemptyset (&sa.sa_mask);
      sa.sa_flags = mode == SA_RESTART_HANDLER ? SA_RESTART : 0;
      if (sigaction (SIGALRM, &sa, NULL) != 0)
        cr_die ("sigaction");
      set_timer (2000);
      copy_loop (src, dst, mode, &st, want_alarms, deadline);
      set_timer (0);
      if (mode == NO_RESTART_HANDLER && !st.detail[0] && st.eintr == 0)
        note (&st, "no call failed with EINTR in %ld calls and %d "
              "signals: no signal came before any progress, so this test "
              "cannot tell a restart from a lucky call", st.calls,
              (int) alarms);
    }

  if (!st.detail[0])
    {
      struct stat sb;
      off_t diff;
      if (fstat (dst, &sb) != 0)
        cr_die ("fstat");
      if (sb.st_size != pass_size)
        note (&st, "size %lld, expected %lld", (long long) sb.st_size,
              (long long) pass_size);
      else if ((diff = cr_compare_ranges (src, 0, dst, 0, pass_size)) >= 0)
        note (&st, "first wrong byte at %lld", (long long) diff);
    }
  printf ("# %s %s: %.1f s, %ld passes, %ld calls, %ld stopped early, "
          "%ld EINTR, %ld stops, %d SIGALRM\n", fs, mode_name[mode],
          cr_now () - t0, st.passes, st.calls, st.partial, st.eintr, stops,
          (int) alarms);
  printf ("%s: %s: %s%s%s\n", st.detail[0] ? "FAIL" : "PASS", fs,
          mode == STOP ? "stopped and continued: no call failed"
          : mode == SA_RESTART_HANDLER ? "SA_RESTART handler: no EINTR"
          : "handler without SA_RESTART: EINTR only with nothing copied",
          st.detail[0] ? ": " : "", st.detail);
  close (dst);
  return !st.detail[0];
}

int
main (int argc, char **argv)
{
  cr_start (argc, argv, "FSNAME DIR");
  char const *fs = argv[1];
  char *dir = cr_make_dir (argv[2], "cr-restart");
  uint64_t seed = cr_seed (), rng = seed;
  printf ("# %s on %s, seed %#llx\n", fs, dir, (unsigned long long) seed);

  stop_flag = mmap (NULL, sizeof *stop_flag, PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (stop_flag == MAP_FAILED)
    cr_die ("mmap");

  int src = cr_create (dir, "src");
  static unsigned char buf[1 << 20];
  for (off_t at = 0; at < pass_size; at += sizeof buf)
    {
      size_t n = pass_size - at < (off_t) sizeof buf ? pass_size - at
                 : sizeof buf;
      cr_random_fill (&rng, buf, n);
      cr_pwrite_all (src, buf, n, at);
    }

  bool ok = true;
  ok &= run_case (fs, dir, src, STOP, &rng);
  ok &= run_case (fs, dir, src, SA_RESTART_HANDLER, &rng);
  ok &= run_case (fs, dir, src, NO_RESTART_HANDLER, &rng);
  close (src);
  cr_remove_tree (dir);
  free (dir);
  return ok ? CR_EXIT_PASS : CR_EXIT_FAIL;
}
