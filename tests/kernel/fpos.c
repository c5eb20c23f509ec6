/* copy_range(2) with NULL offsets uses and advances the file positions
   atomically: threads sharing the descriptors never copy a byte twice or
   lose an update, and one open file at both ends does not deadlock.
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

/* Usage: fpos FSNAME DIR

   1. Threads: THREADS threads share one descriptor of a source and one of
      a destination, both opened once, and each loops copy_range with NULL
      offsets and small counts until it returns 0.  Every 8-byte word of
      the source holds its own offset, so a byte copied to the wrong place
      is seen.  The returns must add up to the source's size, the copy
      must equal the source and both positions must end at its size.
      Rounds repeat for a few seconds, since a race may need many tries.

   2. One open file: a descriptor and its dup() are both ends of a copy
      within one file, one offset NULL and the other a pointer, both ways
      round; then both NULL, which is a copy onto itself and fails with
      EINVAL.  Run in a child that must finish within a time limit: a
      kernel that takes the file's position lock twice hangs there.  */

#include <config.h>

#include "cr-test.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

enum { THREADS = 4, MIN_COUNT = 4 << 10, MAX_COUNT = 64 << 10 };

/* The size of the threads' source: not a multiple of the page size, so
   that the last call is a short one.  */
static off_t const race_size = (16 << 20) + 1234;

/* Seconds the threads' rounds go on for (at least two rounds), and the
   limit for the one-file case.  */
enum { RACE_SECONDS = 8, SAME_FILE_SECONDS = 60 };

static char const *fs;
static uint64_t seed;

/* Fill LEN bytes of FD from offset 0 with words that name their offset.  */
static void
write_positions (int fd, off_t len)
{
  enum { BUF = 1 << 20 };
  static uint64_t buf[BUF / 8];
  for (off_t at = 0; at < len; at += BUF)
    {
      size_t n = len - at < BUF ? len - at : BUF;
      for (size_t i = 0; i < BUF / 8; i++)
        buf[i] = (uint64_t) (at + 8 * i) ^ 0x5a5a000000000000u;
      cr_pwrite_all (fd, buf, n, at);
    }
}

/* ---- 1. Threads sharing the descriptors ------------------------------ */

struct worker
{
  pthread_t id;
  int in, out;
  uint64_t rng;
  long long bytes;              /* sum of the returns */
  long calls;
  int err;                      /* errno of a failed call, or 0 */
};

static pthread_barrier_t start;

static void *
work (void *arg)
{
  struct worker *w = arg;
  pthread_barrier_wait (&start);
  for (;;)
    {
      size_t count = MIN_COUNT + cr_random (&w->rng) % (MAX_COUNT - MIN_COUNT
                                                         + 1);
      ssize_t r = cr_copy_range (w->in, NULL, w->out, NULL, count);
      w->calls++;
      if (r < 0)
        {
          w->err = errno;
          break;
        }
      if (r == 0)
        break;
      w->bytes += r;
    }
  return NULL;
}

/* One round: copy SRC into a fresh DST_NAME with THREADS threads.  Return
   0, or 1 with DETAIL filled in.  */
static int
race_round (char const *dir, int round, char *detail, size_t size)
{
  int in = cr_open_in (dir, "src", O_RDONLY);
  int out = cr_open_in (dir, "dst", O_WRONLY | O_CREAT | O_TRUNC);
  struct worker w[THREADS];
  long long total = 0;
  long calls = 0;

  if (pthread_barrier_init (&start, NULL, THREADS) != 0)
    cr_die ("pthread_barrier_init");
  for (int i = 0; i < THREADS; i++)
    {
      w[i] = (struct worker) { .in = in, .out = out,
                               .rng = seed + 1000 * round + i };
      errno = pthread_create (&w[i].id, NULL, work, &w[i]);
      if (errno)
        cr_die ("pthread_create");
    }
  for (int i = 0; i < THREADS; i++)
    {
      pthread_join (w[i].id, NULL);
      total += w[i].bytes;
      calls += w[i].calls;
    }
  pthread_barrier_destroy (&start);

  int bad = 1;
  struct stat st;
  off_t pos_in = lseek (in, 0, SEEK_CUR);
  off_t pos_out = lseek (out, 0, SEEK_CUR);
  if (fstat (out, &st) != 0)
    cr_die ("fstat dst");
  for (int i = 0; i < THREADS; i++)
    if (w[i].err)
      {
        snprintf (detail, size, "round %d: a call failed: %s", round,
                  strerror (w[i].err));
        goto done;
      }
  if (total != race_size)
    {
      snprintf (detail, size,
                "round %d: the calls returned %lld bytes in all for a"
                " %lld-byte source (bytes copied twice or skipped)",
                round, total, (long long) race_size);
      goto done;
    }
  if (pos_in != race_size || pos_out != race_size)
    {
      snprintf (detail, size,
                "round %d: positions end at %lld and %lld, expected %lld",
                round, (long long) pos_in, (long long) pos_out,
                (long long) race_size);
      goto done;
    }
  if (st.st_size != race_size)
    {
      snprintf (detail, size, "round %d: copy's size %lld, expected %lld",
                round, (long long) st.st_size, (long long) race_size);
      goto done;
    }
  int check = cr_open_in (dir, "dst", O_RDONLY);
  off_t diff = cr_compare_ranges (in, 0, check, 0, race_size);
  close (check);
  if (diff >= 0)
    {
      snprintf (detail, size, "round %d: first wrong byte of the copy at"
                " %lld", round, (long long) diff);
      goto done;
    }
  bad = 0;
done:
  if (bad)
    printf ("# round %d: %ld calls, %lld bytes returned\n", round, calls,
            total);
  close (in);
  close (out);
  return bad;
}

static int
race (char const *dir)
{
  char detail[256] = "";
  int src = cr_open_in (dir, "src", O_WRONLY | O_CREAT | O_TRUNC);
  write_positions (src, race_size);
  if (fsync (src) != 0)
    cr_die ("fsync src");
  close (src);

  struct timespec t0, t;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  int round = 0, bad = 0;
  do
    {
      bad = race_round (dir, round++, detail, sizeof detail);
      clock_gettime (CLOCK_MONOTONIC, &t);
    }
  while (!bad && (round < 2 || t.tv_sec - t0.tv_sec < RACE_SECONDS));
  printf ("%s: %s: %d threads sharing NULL offsets, %d rounds%s%s\n",
          bad ? "FAIL" : "PASS", fs, THREADS, round, bad ? ": " : "",
          detail);
  return bad;
}

/* ---- 2. One open file at both ends ---------------------------------- */

enum { HALF = (1 << 20) + 777 };

/* In the child: copy within one file through FD and a dup of it, and
   print what went wrong, if anything.  Return the exit status.  */
static int
same_file_child (char const *dir)
{
  int fd = cr_open_in (dir, "one", O_RDWR | O_CREAT | O_TRUNC);
  int fd2 = dup (fd);
  if (fd2 < 0)
    cr_die ("dup");
  write_positions (fd, HALF);

  /* The position as the source, a pointer for the destination.  */
  off_t out = HALF + 5;
  if (lseek (fd, 0, SEEK_SET) != 0)
    cr_die ("lseek");
  for (off_t done = 0; done < HALF; )
    {
      ssize_t r = cr_copy_range (fd, NULL, fd2, &out, HALF - done);
      if (r <= 0)
        {
          printf ("FAIL: %s: dup()ed file, NULL source offset: returned"
                  " %zd (%s) after %lld bytes\n", fs, r,
                  r < 0 ? strerror (errno) : "no error", (long long) done);
          return CR_EXIT_FAIL;
        }
      done += r;
    }
  off_t pos = lseek (fd, 0, SEEK_CUR);
  off_t diff = cr_compare_ranges (fd, 0, fd, HALF + 5, HALF);
  if (pos != HALF || out != 2 * HALF + 5 || diff >= 0)
    {
      printf ("FAIL: %s: dup()ed file, NULL source offset: position %lld,"
              " offset %lld, first wrong byte %lld\n", fs, (long long) pos,
              (long long) out, (long long) diff);
      return CR_EXIT_FAIL;
    }

  /* A pointer for the source, the position as the destination.  */
  off_t in = HALF + 5;
  off_t const to = 3 * HALF;
  if (lseek (fd2, to, SEEK_SET) != to)
    cr_die ("lseek");
  for (off_t done = 0; done < HALF; )
    {
      ssize_t r = cr_copy_range (fd2, &in, fd, NULL, HALF - done);
      if (r <= 0)
        {
          printf ("FAIL: %s: dup()ed file, NULL destination offset:"
                  " returned %zd (%s) after %lld bytes\n", fs, r,
                  r < 0 ? strerror (errno) : "no error", (long long) done);
          return CR_EXIT_FAIL;
        }
      done += r;
    }
  pos = lseek (fd, 0, SEEK_CUR);
  diff = cr_compare_ranges (fd, 0, fd, to, HALF);
  if (pos != to + HALF || in != 2 * HALF + 5 || diff >= 0)
    {
      printf ("FAIL: %s: dup()ed file, NULL destination offset: position"
              " %lld, offset %lld, first wrong byte %lld\n", fs,
              (long long) pos, (long long) in, (long long) diff);
      return CR_EXIT_FAIL;
    }

  /* Both NULL: one position for both ends, a copy onto itself.  */
  if (lseek (fd, 0, SEEK_SET) != 0)
    cr_die ("lseek");
  errno = 0;
  ssize_t r = cr_copy_range (fd, NULL, fd2, NULL, 4096);
  if (!(r < 0 && errno == EINVAL) || lseek (fd, 0, SEEK_CUR) != 0)
    {
      printf ("FAIL: %s: dup()ed file, both offsets NULL: returned %zd"
              " (%s), position %lld; expected EINVAL, position 0\n", fs, r,
              r < 0 ? strerror (errno) : "no error",
              (long long) lseek (fd, 0, SEEK_CUR));
      return CR_EXIT_FAIL;
    }
  printf ("PASS: %s: dup()ed file at both ends, one offset NULL\n", fs);
  return CR_EXIT_PASS;
}

static void
on_alarm (int sig)
{
}

static int
same_file (char const *dir)
{
  fflush (stdout);
  pid_t pid = fork ();
  if (pid < 0)
    cr_die ("fork");
  if (pid == 0)
    {
      int st = same_file_child (dir);
      fflush (stdout);
      _exit (st);
    }
  /* Wait for the child, for SAME_FILE_SECONDS at most: the alarm's
     handler, without SA_RESTART, makes waitpid fail with EINTR.  */
  struct sigaction sa = { .sa_handler = on_alarm };
  sigemptyset (&sa.sa_mask);
  if (sigaction (SIGALRM, &sa, NULL) != 0)
    cr_die ("sigaction");
  int status;
  alarm (SAME_FILE_SECONDS);
  pid_t w = waitpid (pid, &status, 0);
  int e = errno;
  alarm (0);
  if (w == pid)
    {
      if (WIFEXITED (status) && WEXITSTATUS (status) == CR_EXIT_PASS)
        return 0;
      if (!WIFEXITED (status) || WEXITSTATUS (status) == CR_EXIT_ERROR)
        {
          printf ("FAIL: %s: dup()ed file: the child ended with status"
                  " %#x\n", fs, status);
        }
      return 1;
    }
  if (!(w < 0 && e == EINTR))
    {
      errno = e;
      cr_die ("waitpid");
    }
  /* A child stuck on a lock in the kernel does not die of SIGKILL;
     leave it.  */
  kill (pid, SIGKILL);
  printf ("FAIL: %s: dup()ed file at both ends: no result within %d s"
          " (a deadlock?)\n", fs, SAME_FILE_SECONDS);
  return 1;
}

int
main (int argc, char **argv)
{
  cr_start (argc, argv, "FSNAME DIR");
  fs = argv[1];
  seed = cr_seed ();
  char *dir = cr_make_dir (argv[2], "cr-fpos");
  printf ("# %s on %s, seed %#llx\n", fs, dir, (unsigned long long) seed);

  int bad = race (dir);
  bad |= same_file (dir);

  cr_remove_tree (dir);
  free (dir);
  return bad ? CR_EXIT_FAIL : CR_EXIT_PASS;
}
