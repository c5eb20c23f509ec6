/* copy-range-file -- copy a file, or a range of it, with copy_range(2)

   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

/* A test helper: loops copy_range over a range of SOURCE and reports
   how many calls it took, so that tests can tell a copy that went
   through from one that came back short.

   Usage: copy-range-file [-s SRC_OFF] [-d DST_OFF] [-n LEN] [-c CHUNK]
                          SOURCE DEST
   LEN defaults to the rest of SOURCE; CHUNK bounds the count of each
   call.  DEST is created if missing and never truncated; "-" means
   standard output, so that a test can pass a descriptor opened before
   the destination became read-only.  Prints
   "copied BYTES of LEN bytes in CALLS calls" and exits with 0 when the
   whole range was copied, 1 on an error and 2 when copy_range returned
   0 before the end.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_copy_range
# if defined __x86_64__ && !defined __ILP32__
#  define __NR_copy_range 451
# else
#  error "no syscall number for copy_range on this architecture"
# endif
#endif

static char const *program_name = "copy-range-file";

static void
die (int status, int errnum, char const *what, char const *name)
{
  fprintf (stderr, "%s: %s%s%s%s%s\n", program_name, what,
           name ? " " : "", name ? name : "",
           errnum ? ": " : "", errnum ? strerror (errnum) : "");
  exit (status);
}

static long long
number (char const *arg)
{
  char *end;
  errno = 0;
  long long n = strtoll (arg, &end, 0);
  if (errno || end == arg || *end || n < 0)
    die (1, 0, "invalid number", arg);
  return n;
}

int
main (int argc, char **argv)
{
  long long src_off = 0, dst_off = 0, len = -1, chunk = 0;
  int c;

  while ((c = getopt (argc, argv, "s:d:n:c:")) != -1)
    switch (c)
      {
      case 's': src_off = number (optarg); break;
      case 'd': dst_off = number (optarg); break;
      case 'n': len = number (optarg); break;
      case 'c': chunk = number (optarg); break;
      default: exit (1);
      }
  if (argc - optind != 2)
    die (1, 0, "usage: copy-range-file [-s OFF] [-d OFF] [-n LEN]"
         " [-c CHUNK] SOURCE DEST", NULL);
  char const *src = argv[optind], *dst = argv[optind + 1];

  int in = open (src, O_RDONLY);
  if (in < 0)
    die (1, errno, "cannot open", src);
  int out = (strcmp (dst, "-") == 0 ? STDOUT_FILENO
             : open (dst, O_WRONLY | O_CREAT, 0644));
  if (out < 0)
    die (1, errno, "cannot open", dst);
  if (len < 0)
    {
      struct stat st;
      if (fstat (in, &st) != 0)
        die (1, errno, "cannot stat", src);
      len = st.st_size > src_off ? st.st_size - src_off : 0;
    }

  /* The kernel advances the offsets; the loop only counts.  */
  int64_t pos_in = src_off, pos_out = dst_off;
  long long done = 0, calls = 0;
  int status = 0;
  while (done < len)
    {
      long long want = len - done;
      if (chunk && want > chunk)
        want = chunk;
      long r = syscall (__NR_copy_range, in, &pos_in, out, &pos_out,
                        (size_t) want, 0);
      calls++;
      if (r < 0)
        {
          int e = errno;
          fprintf (stderr, "%s: copied %lld of %lld bytes in %lld calls\n",
                   program_name, done, len, calls);
          die (1, e, "copy_range", src);
        }
      if (r == 0)
        {
          status = 2;
          break;
        }
      done += r;
      if (pos_in != src_off + done || pos_out != dst_off + done)
        die (1, 0, "copy_range did not advance the offsets by its result",
             src);
    }

  /* stdout may be the destination: report on stderr then.  */
  FILE *report = out == STDOUT_FILENO ? stderr : stdout;
  fprintf (report, "copied %lld of %lld bytes in %lld calls\n",
           done, len, calls);
  if (out != STDOUT_FILENO && close (out) != 0)
    die (1, errno, "cannot close", dst);
  return status;
}
