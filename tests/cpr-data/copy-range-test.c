/* copy-range-test -- exercise the copy_range() wrapper module alone.
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

/* Usage: copy-range-test SRC DST COUNT
   First call copy_range with a closed input descriptor (which must not
   decide the one-time probe), and with COPY_RANGE_TEST_PATH set in the
   environment with an O_PATH descriptor of SRC (nor must that), then copy COUNT bytes of SRC from offset 0
   to DST (created or truncated) at offset 0, and print for each call
   "RESULT ERRNO POS_IN POS_OUT", ERRNO the name, or 0.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "copy-range.h"

static void
show (char const *what, ssize_t n, int err, off_t in, off_t out)
{
  char const *name = n < 0 ? strerrorname_np (err) : "0";
  printf ("%s: %zd %s %lld %lld\n", what, n, name ? name : "?",
          (long long) in, (long long) out);
}

int
main (int argc, char **argv)
{
  if (argc != 4)
    {
      fprintf (stderr, "usage: %s SRC DST COUNT\n", argv[0]);
      return 2;
    }
  int src = open (argv[1], O_RDONLY);
  int dst = open (argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (src < 0 || dst < 0)
    {
      perror ("open");
      return 2;
    }
  size_t count = strtoull (argv[3], NULL, 10);

  off_t in = 0, out = 0;
  int closed = dup (src);
  close (closed);
  ssize_t n = copy_range (closed, &in, dst, &out, count, 0);
  show ("closed", n, errno, in, out);

  if (getenv ("COPY_RANGE_TEST_PATH"))
    {
      int path = open (argv[1], O_PATH);
      if (path < 0)
        {
          perror ("open");
          return 2;
        }
      in = out = 0;
      n = copy_range (path, &in, dst, &out, count, 0);
      show ("path", n, errno, in, out);
      close (path);
    }

  in = out = 0;
  n = copy_range (src, &in, dst, &out, count, 0);
  show ("copy", n, errno, in, out);
  return close (dst) == 0 ? 0 : 2;
}
