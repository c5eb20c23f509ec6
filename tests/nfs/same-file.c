/* After a copy_range(2) within one file has grown it on the client, a
   copy from that file to another sees the grown file.
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

/* Usage: same-file FSNAME DIR

   In one process, with both files open throughout (closing a file on
   NFS writes its dirty pages back, which would hide the defect):
   A gets data and is truncated to 84118 bytes; a copy within A of 47074
   bytes from 1998 to 711313 grows it to 758387 bytes, through the page
   cache: NFS does not ask the server to copy within one file.  Then
   224375 bytes are copied from A at 205485 into B, which on NFS is a
   COPY on the server.  The server's A is still 84118 bytes long unless
   the client wrote the grown file back first, in which case the whole
   range is copied; otherwise the copy returns 0 at once.  The range lies
   in A's hole, so B must be 224375 zero bytes, and A must be intact.  */

#include <config.h>

#include "cr-test.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

enum
{
  FIRST_SIZE = 300000,          /* A's data before the truncation */
  TRUNCATED = 84118,
  IN1 = 1998, OUT1 = 711313, LEN1 = 47074,      /* within A */
  IN2 = 205485, LEN2 = 224375                   /* from A to B at 0 */
};

static char const *fs;

/* Copy LEN bytes with copy_range, looping over short results.  Return
   the bytes copied; on an error or an early 0, print why and set *BAD.  */
static off_t
copy (char const *what, int in, off_t pos_in, int out, off_t pos_out,
      off_t len, bool *bad)
{
  off_t done = 0;
  long calls = 0;
  while (done < len)
    {
      ssize_t r = cr_copy_range (in, &pos_in, out, &pos_out, len - done);
      calls++;
      if (r <= 0)
        {
          printf ("FAIL: %s: %s: returned %zd (%s) after %lld of %lld"
                  " bytes\n", fs, what, r,
                  r < 0 ? strerror (errno) : "no error", (long long) done,
                  (long long) len);
          *bad = true;
          break;
        }
      done += r;
    }
  printf ("# %s: %lld of %lld bytes in %ld calls\n", what, (long long) done,
          (long long) len, calls);
  return done;
}

int
main (int argc, char **argv)
{
  cr_start (argc, argv, "FSNAME DIR");
  fs = argv[1];
  char *dir = cr_make_dir (argv[2], "cr-same-file");
  printf ("# %s on %s\n", fs, dir);

  static unsigned char data[FIRST_SIZE];
  uint64_t rng = 0x5a3e;
  cr_random_fill (&rng, data, sizeof data);
  int a = cr_create (dir, "A");
  int b = cr_create (dir, "B");
  cr_pwrite_all (a, data, sizeof data, 0);
  if (ftruncate (a, TRUNCATED) != 0)
    cr_die ("ftruncate A");

  bool bad = false;
  copy ("within A", a, IN1, a, OUT1, LEN1, &bad);
  if (!bad)
    copy ("from A to B", a, IN2, b, 0, LEN2, &bad);

  /* Only now stat, which on NFS writes the dirty pages back.  */
  struct stat sa, sb;
  if (fstat (a, &sa) != 0 || fstat (b, &sb) != 0)
    cr_die ("fstat");
  off_t diff;
  if (!bad && sa.st_size != OUT1 + LEN1)
    {
      printf ("FAIL: %s: A has %lld bytes, expected %d\n", fs,
              (long long) sa.st_size, OUT1 + LEN1);
      bad = true;
    }
  if (!bad && sb.st_size != LEN2)
    {
      printf ("FAIL: %s: B has %lld bytes, expected %d\n", fs,
              (long long) sb.st_size, LEN2);
      bad = true;
    }
  if (!bad && (diff = cr_compare_buf (a, 0, data, TRUNCATED)) >= 0)
    {
      printf ("FAIL: %s: A's first %d bytes differ at %lld\n", fs,
              TRUNCATED, (long long) diff);
      bad = true;
    }
  if (!bad && !cr_zeros (a, TRUNCATED, OUT1 - TRUNCATED))
    {
      printf ("FAIL: %s: A's hole is not zeros\n", fs);
      bad = true;
    }
  if (!bad && (diff = cr_compare_buf (a, OUT1, data + IN1, LEN1)) >= 0)
    {
      printf ("FAIL: %s: A's copy at %d differs at %lld\n", fs, OUT1,
              (long long) diff);
      bad = true;
    }
  if (!bad && (diff = cr_compare_ranges (a, IN2, b, 0, LEN2)) >= 0)
    {
      printf ("FAIL: %s: B differs from A's bytes from %d at %lld\n", fs,
              IN2, (long long) diff);
      bad = true;
    }
  if (!bad && !cr_zeros (b, 0, LEN2))
    {
      printf ("FAIL: %s: B is not all zeros\n", fs);
      bad = true;
    }
  if (!bad)
    printf ("PASS: %s: a copy from a file that a copy within it grew\n",
            fs);
  close (a);
  close (b);
  cr_remove_tree (dir);
  free (dir);
  return bad ? CR_EXIT_FAIL : CR_EXIT_PASS;
}
