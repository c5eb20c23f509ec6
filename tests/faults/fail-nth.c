/* cr-fail-nth -- copy_range(2) under injected allocation failures.
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

/* Usage: cr-fail-nth [-m MAX] [-r ROUNDS] [-s START] SOURCE DEST LEN

   Copies the first LEN bytes of SOURCE to DEST (emptied before each
   copy, SOURCE's clean pages dropped so that reading allocates) with one
   copy_range call, over and over, each time with an allocation failure
   injected into the call:

   - by default, through /proc/thread-self/fail-nth: the Nth allocation
     the call makes fails, for N = 1, 2, ... until a call makes fewer
     than N allocations (it then ran with no failure) or N passes MAX
     (default 5000).  Which allocations count is up to failslab's and
     fail_page_alloc's debugfs settings: the test script lets them fail
     allocations that may sleep, of any order;
   - with -r, ROUNDS times with /proc/thread-self/make-it-fail set
     around the call: failslab and fail_page_alloc, with task-filter set
     by the script, fail this thread's allocations at their probability.

   Each call must either fail, or return a positive count with both
   offsets advanced by it and the destination's first bytes equal to the
   source's.  After a failure, whatever the destination holds must still
   be a prefix of the source (nothing written that is not the source's).
   A failure must be ENOMEM.

   A filesystem may give up on an allocation failure in the middle of a
   transaction and go read-only (btrfs aborts the transaction): the next
   call then cannot even empty the destination.  The program then prints
   "read-only after call N" and exits with 3, for the caller to check and
   remount the filesystem and go on with -s N+1 (N, or the round, to
   start from; default 1).

   Prints a summary; exits with 0 when every call passed (and, for a
   sweep from N = 1, the Nth allocation was failed at least once), 1
   otherwise, 3 as above, 99 on a set-up error.  */

#include <config.h>

#include "cr-test.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

static char const *src_name, *dst_name;
static int src_fd, dst_fd;

/* Write the decimal N to the proc file FD.  */
static void
put_number (int fd, char const *name, unsigned long n)
{
  char buf[32];
  int len = snprintf (buf, sizeof buf, "%lu", n);
  if (pwrite (fd, buf, len, 0) != len)
    cr_die ("cr-fail-nth: cannot write %lu to %s", n, name);
}

/* The decimal number in the proc file FD, or -1 if it cannot be read.  */
static long
get_number (int fd)
{
  char buf[32];
  ssize_t n = pread (fd, buf, sizeof buf - 1, 0);
  if (n <= 0)
    return -1;
  buf[n] = '\0';
  return strtol (buf, NULL, 10);
}

enum { EXIT_READ_ONLY = 3 };

/* Empty the destination and drop the source's clean cached pages, before
   call N.  */
static void
reset (long n)
{
  if (ftruncate (dst_fd, 0) != 0)
    {
      if (errno == EROFS && n > 1)
        {
          printf ("read-only after call %ld\n", n - 1);
          exit (EXIT_READ_ONLY);
        }
      cr_die ("cr-fail-nth: cannot empty %s after the last call", dst_name);
    }
  int e = posix_fadvise (src_fd, 0, 0, POSIX_FADV_DONTNEED);
  if (e)
    {
      errno = e;
      cr_die ("cr-fail-nth: posix_fadvise %s", src_name);
    }
}

/* Counts of the outcomes.  */
static long full, partial, failed, bad;

/* Check the outcome R (errno E, offsets *IN and *OUT) of a copy of LEN
   bytes made under injection number TAG; count it.  */
static void
check (char const *tag, long tag_n, ssize_t r, int e, off_t in, off_t out,
       off_t len)
{
  struct stat st;
  if (fstat (dst_fd, &st) != 0)
    cr_die ("cr-fail-nth: fstat %s", dst_name);
  if (r < 0)
    {
      failed++;
      printf ("%s %ld: copy_range failed: %s; the destination has %jd"
              " bytes\n", tag, tag_n, strerror (e), (intmax_t) st.st_size);
      if (e != ENOMEM)
        {
          printf ("FAIL: %s %ld: copy_range failed with %s, not ENOMEM\n",
                  tag, tag_n, strerror (e));
          bad++;
        }
      if (st.st_size > len)
        {
          printf ("FAIL: %s %ld: after the failure the destination has %jd"
                  " bytes, more than the %jd copied\n",
                  tag, tag_n, (intmax_t) st.st_size, (intmax_t) len);
          bad++;
        }
      else
        {
          off_t d = cr_compare_ranges (src_fd, 0, dst_fd, 0, st.st_size);
          if (d >= 0)
            {
              printf ("FAIL: %s %ld: after the failure the destination's"
                      " byte %jd is not the source's\n",
                      tag, tag_n, (intmax_t) d);
              bad++;
            }
        }
      return;
    }
  if (r == 0 || r > len || in != r || out != r)
    {
      printf ("FAIL: %s %ld: copy_range returned %zd of %jd bytes, offsets"
              " %jd and %jd\n", tag, tag_n, r, (intmax_t) len,
              (intmax_t) in, (intmax_t) out);
      bad++;
      return;
    }
  off_t d = cr_compare_ranges (src_fd, 0, dst_fd, 0, r);
  if (d >= 0)
    {
      printf ("FAIL: %s %ld: copy_range returned %zd but the destination's"
              " byte %jd is not the source's\n", tag, tag_n, r,
              (intmax_t) d);
      bad++;
    }
  if (r == len)
    full++;
  else
    partial++;
}

int
main (int argc, char **argv)
{
  long max = 5000, rounds = 0, start = 1;
  int c;
  while ((c = getopt (argc, argv, "m:r:s:")) != -1)
    switch (c)
      {
      case 'm': max = atol (optarg); break;
      case 'r': rounds = atol (optarg); break;
      case 's': start = atol (optarg); break;
      default: return CR_EXIT_ERROR;
      }
  if (argc - optind != 3)
    {
      fprintf (stderr, "usage: cr-fail-nth [-m MAX] [-r ROUNDS] [-s START]"
               " SOURCE DEST LEN\n");
      return CR_EXIT_ERROR;
    }
  src_name = argv[optind];
  dst_name = argv[optind + 1];
  off_t len = atoll (argv[optind + 2]);

  cr_require_copy_range ();
  src_fd = open (src_name, O_RDONLY);
  if (src_fd < 0)
    cr_die ("cr-fail-nth: %s", src_name);
  dst_fd = open (dst_name, O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (dst_fd < 0)
    cr_die ("cr-fail-nth: %s", dst_name);
  struct stat st;
  if (fstat (src_fd, &st) != 0)
    cr_die ("cr-fail-nth: fstat %s", src_name);
  if (len <= 0 || st.st_size < len)
    {
      fprintf (stderr, "cr-fail-nth: %s has fewer than %jd bytes\n",
               src_name, (intmax_t) len);
      return CR_EXIT_ERROR;
    }

  char const *knob = (rounds ? "/proc/thread-self/make-it-fail"
                      : "/proc/thread-self/fail-nth");
  int knob_fd = open (knob, O_RDWR);
  if (knob_fd < 0)
    cr_die ("cr-fail-nth: %s", knob);

  long injected = 0, n;
  if (rounds)
    {
      for (n = start; n <= rounds; n++)
        {
          reset (n);
          off_t in = 0, out = 0;
          put_number (knob_fd, knob, 1);
          ssize_t r = cr_copy_range (src_fd, &in, dst_fd, &out, len);
          int e = errno;
          put_number (knob_fd, knob, 0);
          check ("round", n, r, e, in, out, len);
        }
      printf ("rounds %ld to %ld with make-it-fail: %ld full copies, %ld"
              " partial, %ld failed calls, %ld bad outcomes\n",
              start, rounds, full, partial, failed, bad);
      return bad ? CR_EXIT_FAIL : CR_EXIT_PASS;
    }

  bool ran_clean = false;
  for (n = start; n <= max; n++)
    {
      reset (n);
      off_t in = 0, out = 0;
      put_number (knob_fd, knob, n);
      ssize_t r = cr_copy_range (src_fd, &in, dst_fd, &out, len);
      int e = errno;
      long left = get_number (knob_fd);
      put_number (knob_fd, knob, 0);
      check ("allocation", n, r, e, in, out, len);
      if (left != 0)
        {
          /* The call made fewer than N allocations: it ran with none
             failed, and so would every later N.  */
          ran_clean = true;
          if (r != len)
            {
              printf ("FAIL: with no allocation failed, copy_range returned"
                      " %zd of %jd bytes\n", r, (intmax_t) len);
              bad++;
            }
          break;
        }
      injected++;
    }
  printf ("fail-nth from N = %ld: %ld calls with their Nth allocation"
          " failed%s: %ld full copies, %ld partial, %ld failed calls, %ld bad"
          " outcomes\n", start, injected,
          ran_clean ? " (up to the last allocation of the call)"
          : " (not up to the last)", full, partial, failed, bad);
  if (!injected && start == 1)
    {
      printf ("FAIL: no allocation of copy_range was failed: the fault"
              " injection settings let none through\n");
      bad++;
    }
  return bad ? CR_EXIT_FAIL : CR_EXIT_PASS;
}
