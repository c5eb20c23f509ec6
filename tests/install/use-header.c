/* A program that copies with copy_range(), built against the installed
   <copyrange.h> alone: 'make installcheck' and tests/install/header.sh
   compile it with only the installed include directory added.
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later

   It prints SYS_copy_range's value, then copies 100000 bytes from one
   temporary file to another with copy_range() and checks the copy; on a
   kernel without copy_range (ENOSYS) it says so instead, and that passes
   too.  It exits 0 when every check passes, 1 otherwise.  */

#include <copyrange.h>

#include <stdio.h>
#include <string.h>

#define SIZE 100000

static char data[SIZE], back[SIZE];

int
main (void)
{
  FILE *in = tmpfile (), *out = tmpfile ();
  loff_t pos_in = 0, pos_out = 0, done = 0;
  ssize_t n;
  int i;

  printf ("SYS_copy_range %ld\n", (long) SYS_copy_range);
  if (!in || !out)
    {
      perror ("tmpfile");
      return 1;
    }
  for (i = 0; i < SIZE; i++)
    data[i] = (char) (i * 7 + i / 251);
  if (fwrite (data, 1, SIZE, in) != SIZE || fflush (in) != 0)
    {
      perror ("write");
      return 1;
    }

  /* A bad descriptor fails with EBADF, before any probe of the kernel.  */
  errno = 0;
  if (copy_range (-1, &pos_in, fileno (out), &pos_out, 1, 0) != -1
      || errno != EBADF)
    {
      printf ("copy_range from fd -1: errno %d, not EBADF\n", errno);
      return 1;
    }

  while (done < SIZE)
    {
      n = copy_range (fileno (in), &pos_in, fileno (out), &pos_out,
                      SIZE - done, 0);
      if (n < 0 && errno == ENOSYS && done == 0)
        {
          printf ("copy_range: ENOSYS: this kernel has no copy_range\n");
          return 0;
        }
      if (n <= 0)
        {
          perror ("copy_range");
          return 1;
        }
      done += n;
      if (pos_in != done || pos_out != done)
        {
          printf ("offsets %lld and %lld after %lld bytes\n",
                  (long long) pos_in, (long long) pos_out, (long long) done);
          return 1;
        }
    }
  if (pread (fileno (out), back, SIZE, 0) != SIZE
      || memcmp (data, back, SIZE) != 0)
    {
      printf ("copy_range: the copy differs from its source\n");
      return 1;
    }
  printf ("copy_range: copied %d bytes\n", SIZE);
  return 0;
}
