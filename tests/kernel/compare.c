/* Where copy_range(2) and copy_file_range(2) have the same contract, they
   give the same results and the same bytes.
   Copyright (C) 2026 The copyrange authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.

   This program is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
   GNU General Public License for more details.

   You should have received a copy of the GNU General Public License
   along with this program.  If not, see <https://www.gnu.org/licenses/>.  */

/* Usage: compare FSNAME DIR
   Each case runs once with copy_range on one pair of files and once with
   copy_file_range (flags 0) on an identical pair, then compares the return
   values, errno, offset pointers, file offsets, sizes and contents, which
   must all agree: copy_range answers as copy_file_range does, negative
   offsets, ranges past LLONG_MAX and counts that wrap past 2^64
   included.  (They differ by design across filesystems, where copy_range
   fails with EXDEV; in the count returned above MAX_RW_COUNT, which
   copy_range never exceeds; on a destination made append-only after it
   was opened (EPERM); and when a signal arrives during a long copy:
   copy_range(2)'s NOTES give the reasons.  The destination ranges near
   LLONG_MAX are in abi.c, which does not read the files back.)  */

#include <config.h>

#include "cr-test.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

enum { PAGE = 4096 };

/* How the case's descriptors are made.  */
enum kind
{
  NORMAL,               /* a source and a destination */
  SAME_FILE,            /* one file for both */
  SRC_WRONLY,           /* source open for writing only */
  DST_RDONLY,           /* destination open for reading only */
  DST_APPEND,           /* destination open with O_APPEND */
  SRC_DIR,              /* source is a directory */
  DST_PIPE,             /* destination is a pipe */
  BAD_FD,               /* source is not a descriptor */
};

struct test_case
{
  char const *name;
  enum kind kind;
  size_t src_size, dst_size;
  off_t in, out;
  size_t count;
  bool null_in, null_out;       /* use the file offsets */
};

static struct test_case const cases[] = {
  { "whole file", NORMAL, 3 * PAGE + 5, 0, 0, 0, 3 * PAGE + 5, false, false },
  { "one byte", NORMAL, 10, 0, 3, 4, 1, false, false },
  { "page-1 at page-1", NORMAL, 3 * PAGE, 0, PAGE - 1, PAGE - 1,
    PAGE - 1, false, false },
  { "page+1 at page+1", NORMAL, 3 * PAGE, 0, PAGE + 1, PAGE + 1,
    PAGE + 1, false, false },
  { "into the middle", NORMAL, 3 * PAGE, 3 * PAGE, 100, PAGE,
    2 * PAGE, false, false },
  { "past the destination's end", NORMAL, PAGE, 10, 0, 5 * PAGE + 3,
    PAGE, false, false },
  { "across the source's end", NORMAL, PAGE + 7, 0, PAGE, 0, 100,
    false, false },
  { "at the source's end", NORMAL, PAGE, 0, PAGE, 0, 100, false, false },
  { "past the source's end", NORMAL, PAGE, 0, 2 * PAGE, 0, 100, false, false },
  { "zero count", NORMAL, PAGE, 7, 1, 1, 0, false, false },
  { "1 MiB + 1", NORMAL, (1 << 20) + 1, 0, 0, 0, (1 << 20) + 1, false, false },
  { "file offsets", NORMAL, 3 * PAGE, PAGE, 5, 9, PAGE, true, true },
  { "source file offset", NORMAL, 3 * PAGE, 0, 5, 9, PAGE, true, false },
  { "destination file offset", NORMAL, 3 * PAGE, 0, 5, 9, PAGE, false,
    true },
  { "same file forward", SAME_FILE, 2 * PAGE, 0, 0, 2 * PAGE,
    2 * PAGE, false, false },
  { "same file backward", SAME_FILE, 3 * PAGE, 0, PAGE, 0, PAGE,
    false, false },
  { "same file overlap", SAME_FILE, 3 * PAGE, 0, 0, 100, PAGE, false, false },
  { "source write-only", SRC_WRONLY, PAGE, 0, 0, 0, 10, false, false },
  { "destination read-only", DST_RDONLY, PAGE, 0, 0, 0, 10, false, false },
  { "destination O_APPEND", DST_APPEND, PAGE, 0, 0, 0, 10, false, false },
  { "source directory", SRC_DIR, PAGE, 0, 0, 0, 10, false, false },
  { "destination pipe", DST_PIPE, PAGE, 0, 0, 0, 10, false, false },
  { "bad descriptor", BAD_FD, PAGE, 0, 0, 0, 10, false, false },
  { "source offset -1", NORMAL, PAGE, 0, -1, 0, 1, false, false },
  { "source offset -page", NORMAL, PAGE, 0, -PAGE, 0, 1, false, false },
  { "destination offset -page", NORMAL, PAGE, 0, 0, -PAGE, 1, false,
    false },
  { "source past LLONG_MAX", NORMAL, 2 * PAGE, 0, LLONG_MAX - 65536, 0,
    65537, false, false },
  { "count SIZE_MAX", NORMAL, 2 * PAGE, 0, 0, 0, SIZE_MAX, false, false },
  { "count wrapping from the source", NORMAL, 2 * PAGE, 0, 1, 0, SIZE_MAX,
    false, false },
  { "count wrapping from the destination", NORMAL, 2 * PAGE, 0, 0, 1,
    SIZE_MAX, false, false },
  { "count LLONG_MAX + 1", NORMAL, 2 * PAGE, 0, 0, 0,
    (size_t) LLONG_MAX + 1, false, false },
};

static char *dir;
static uint64_t rng;

/* What a call did.  */
struct outcome
{
  ssize_t ret;
  int err;
  off_t in, out;                /* the offsets after the call */
  off_t pos_in, pos_out;        /* the file offsets after the call */
  int dst;                      /* the destination, for its contents */
};

/* Run case C with copy_range (USE_CR) or copy_file_range on files whose
   names end in SUFFIX, filled from SRC_DATA and DST_DATA.  */
static struct outcome
run_case (struct test_case const *c, bool use_cr, char const *suffix,
          unsigned char const *src_data, unsigned char const *dst_data)
{
  char src_name[64], dst_name[64];
  snprintf (src_name, sizeof src_name, "src%s", suffix);
  snprintf (dst_name, sizeof dst_name, "dst%s", suffix);
  int src = cr_open_in (dir, src_name, O_CREAT | O_TRUNC | O_RDWR);
  int dst = cr_open_in (dir, dst_name, O_CREAT | O_TRUNC | O_RDWR);
  cr_pwrite_all (src, src_data, c->src_size, 0);
  cr_pwrite_all (dst, dst_data, c->dst_size, 0);

  int fd_in = src, fd_out = dst, extra = -1, pipefd[2] = { -1, -1 };
  switch (c->kind)
    {
    case NORMAL:
      break;
    case SAME_FILE:
      fd_out = src;
      break;
    case SRC_WRONLY:
      fd_in = extra = cr_open_in (dir, src_name, O_WRONLY);
      break;
    case DST_RDONLY:
      fd_out = extra = cr_open_in (dir, dst_name, O_RDONLY);
      break;
    case DST_APPEND:
      fd_out = extra = cr_open_in (dir, dst_name, O_WRONLY | O_APPEND);
      break;
    case SRC_DIR:
      fd_in = extra = open (dir, O_RDONLY | O_DIRECTORY);
      break;
    case DST_PIPE:
      if (pipe (pipefd) != 0)
        cr_die ("pipe");
      fd_out = pipefd[1];
      break;
    case BAD_FD:
      fd_in = 1000;
      break;
    }
  if (c->null_in)
    lseek (fd_in, c->in, SEEK_SET);
  if (c->null_out)
    lseek (fd_out, c->out, SEEK_SET);

  struct outcome o = { .in = c->in, .out = c->out };
  off_t *pin = c->null_in ? NULL : &o.in, *pout = c->null_out ? NULL : &o.out;
  errno = 0;
  o.ret = (use_cr ? cr_copy_range (fd_in, pin, fd_out, pout, c->count)
           : copy_file_range (fd_in, pin, fd_out, pout, c->count, 0));
  o.err = o.ret < 0 ? errno : 0;
  o.pos_in = lseek (fd_in, 0, SEEK_CUR);
  o.pos_out = lseek (fd_out, 0, SEEK_CUR);

  if (extra >= 0)
    close (extra);
  if (pipefd[0] >= 0)
    {
      close (pipefd[0]);
      close (pipefd[1]);
    }
  if (c->kind == SAME_FILE)
    {
      close (dst);
      o.dst = src;
    }
  else
    {
      close (src);
      o.dst = dst;
    }
  return o;
}

/* Compare the two outcomes of case C; print its line; return true if
   they agree.  */
static bool
compare_case (char const *fs, struct test_case const *c)
{
  size_t max = (c->src_size > c->dst_size ? c->src_size : c->dst_size);
  unsigned char *src_data = malloc (max + 1), *dst_data = malloc (max + 1);
  if (!src_data || !dst_data)
    cr_die ("malloc");
  cr_random_fill (&rng, src_data, c->src_size);
  cr_random_fill (&rng, dst_data, c->dst_size);
  struct outcome a = run_case (c, true, ".cr", src_data, dst_data);
  struct outcome b = run_case (c, false, ".cfr", src_data, dst_data);
  char detail[256] = "";
  off_t diff;

  if (a.ret != b.ret || a.err != b.err)
    snprintf (detail, sizeof detail, "copy_range %zd (%s), "
              "copy_file_range %zd (%s)", a.ret,
              a.err ? strerrorname_np (a.err) : "-", b.ret,
              b.err ? strerrorname_np (b.err) : "-");
  else if (a.in != b.in || a.out != b.out)
    snprintf (detail, sizeof detail, "offsets %lld, %lld vs %lld, %lld",
              (long long) a.in, (long long) a.out, (long long) b.in,
              (long long) b.out);
  else if (a.pos_in != b.pos_in || a.pos_out != b.pos_out)
    snprintf (detail, sizeof detail,
              "file offsets %lld, %lld vs %lld, %lld",
              (long long) a.pos_in, (long long) a.pos_out,
              (long long) b.pos_in, (long long) b.pos_out);
  else if (cr_file_size (a.dst) != cr_file_size (b.dst))
    snprintf (detail, sizeof detail, "sizes %lld vs %lld",
              (long long) cr_file_size (a.dst),
              (long long) cr_file_size (b.dst));
  else if ((diff = cr_compare_ranges (a.dst, 0, b.dst, 0,
                                      cr_file_size (a.dst))) >= 0)
    snprintf (detail, sizeof detail, "contents differ at %lld",
              (long long) diff);

  printf ("%s: %s: %s (%zd%s%s)%s%s\n", detail[0] ? "FAIL" : "PASS", fs,
          c->name, a.ret, a.err ? " " : "",
          a.err ? strerrorname_np (a.err) : "", detail[0] ? ": " : "",
          detail);
  fflush (stdout);
  close (a.dst);
  close (b.dst);
  free (src_data);
  free (dst_data);
  return !detail[0];
}

int
main (int argc, char **argv)
{
  cr_start (argc, argv, "FSNAME DIR");
  dir = cr_make_dir (argv[2], "cr-cmp");
  uint64_t seed = cr_seed ();
  rng = seed;
  printf ("# %s on %s, seed %#llx\n", argv[1], dir,
          (unsigned long long) seed);
  int failed = 0;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    failed += !compare_case (argv[1], &cases[i]);
  cr_remove_tree (dir);
  return failed ? CR_EXIT_FAIL : CR_EXIT_PASS;
}
