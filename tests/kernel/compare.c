/* Where copy_range(2) and copy_file_range(2) have the same contract, they
   give the same results and the same bytes.
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

/* Usage: compare FSNAME DIR
   Each call runs once with copy_range on one set of files and once with
   copy_file_range on an identical set, in a fresh directory under DIR (a
   mount of the scratch filesystem FSNAME); the two must agree in return
   value, errno, offset pointers, file offsets, sizes and contents:
   copy_range answers as copy_file_range does, negative offsets, ranges
   past LLONG_MAX and counts that wrap past 2^64 included.

   First a fixed table of cases, a line each.  Then CR_COMPARE_CALLS
   random calls (2000 if unset), each drawn from the seed (CR_SEED, or
   the clock; the first line prints it) and the call's number, and made
   by both calls from the same starting state: new files of the same
   bytes, the same file offsets.  A call draws from the whole input
   space: descriptors (a regular file open for reading and writing, for
   reading only, for writing only, with O_APPEND or O_PATH, made
   immutable or append-only after it was opened; a memfd, which is on
   another superblock; /dev/null, /dev/zero, the block device that
   CR_BLOCK_DEV names as the source, a FIFO, a pipe, a directory, a
   closed descriptor, -1; as the destination also the source's
   descriptor or another open file of the source's file), offsets (0,
   small, a page +-1, the end of the file +-1, past it, near the largest
   file size, near 2^63, negative, near 2^64; in one file, overlapping
   or not), offset pointers (to the offset, NULL for the file offset,
   read-only, invalid), counts (0, 1, a page +-1, what is left of the
   source, MAX_RW_COUNT +-1, up to 2^63, SIZE_MAX), flags (mostly 0) and
   sometimes an RLIMIT_FSIZE, under which both calls run in a child that
   ignores SIGXFSZ.  Files are a few pages at most; one that a copy far
   past its end made large is compared in its size, its first bytes,
   the ranges at the offsets and a few bytes drawn from the rest.

   A difference is allowed only where a row of ALLOWED below says so, one
   row per difference that copy_range(2)'s NOTES give, with its reason:
   those are counted.  Any other difference fails, on a line that gives
   the seed, the call's number and the call; CR_SEED and
   CR_COMPARE_ONLY=N make that call again, alone after the fixed table.
   A last line sums up: calls made, identical, allowed by row, failed.
   (The destination ranges near LLONG_MAX, whose bytes are not read back,
   are rows of abi.c as well.)  */

#include <config.h>

#include "cr-test.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

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

/* ---- Random calls ---- */

/* The most that one read or write moves, and that copy_range returns.  */
#define MAX_RW_COUNT ((size_t) (INT_MAX & ~(PAGE - 1)))

enum
{
  FILE_PAGES = 5,               /* files hold up to this many pages, +1 */
  HEAD = 64 * 1024,             /* a file's first bytes, always compared */
  CLOSED_FD = 999,              /* a descriptor that is never open */
  SHOWN_FAILURES = 20,          /* failures printed in full */
};

/* How a descriptor of a random call is made.  */
enum fd_kind
{
  FD_FILE,              /* a regular file in DIR, for reading and writing */
  FD_RDONLY,            /* the same, opened for reading only */
  FD_WRONLY,            /* for writing only */
  FD_APPEND,            /* for reading and writing with O_APPEND */
  FD_PATH,              /* with O_PATH */
  FD_IMMUTABLE,         /* for reading and writing, then made immutable */
  FD_APPEND_ONLY,       /* for reading and writing, then made append-only */
  FD_MEMFD,             /* a memfd, on another superblock than DIR */
  FD_DEV_NULL,          /* /dev/null */
  FD_DEV_ZERO,          /* /dev/zero */
  FD_BLOCK,             /* a block device, for reading; sources only */
  FD_FIFO,              /* a FIFO in DIR */
  FD_PIPE,              /* a pipe's read end or write end */
  FD_DIR,               /* a directory */
  FD_CLOSED,            /* a descriptor that is not open */
  FD_MINUS_1,           /* -1 */
  FD_SAME,              /* destinations only: the source's descriptor */
  FD_SAME_FILE,         /* destinations only: another open file of the
                           source's file */
  FD_KINDS
};

static char const *const kind_name[FD_KINDS] = {
  [FD_FILE] = "file",
  [FD_RDONLY] = "O_RDONLY file",
  [FD_WRONLY] = "O_WRONLY file",
  [FD_APPEND] = "O_APPEND file",
  [FD_PATH] = "O_PATH file",
  [FD_IMMUTABLE] = "immutable file",
  [FD_APPEND_ONLY] = "file made append-only",
  [FD_MEMFD] = "memfd",
  [FD_DEV_NULL] = "/dev/null",
  [FD_DEV_ZERO] = "/dev/zero",
  [FD_BLOCK] = "block device",
  [FD_FIFO] = "FIFO",
  [FD_PIPE] = "pipe",
  [FD_DIR] = "directory",
  [FD_CLOSED] = "closed descriptor",
  [FD_MINUS_1] = "descriptor -1",
  [FD_SAME] = "the source's descriptor",
  [FD_SAME_FILE] = "another open file of the source's file",
};

/* What an offset argument points to.  */
enum ptr_kind
{
  PTR_OFFSET,           /* the offset */
  PTR_NULL,             /* nothing: the file offset, set to the offset */
  PTR_READ_ONLY,        /* the offset, in read-only memory */
  PTR_BAD,              /* an address that is not mapped */
};

/* A random call, all drawn from the seed and its number.  */
struct call
{
  unsigned long number;
  enum fd_kind in_kind, out_kind;
  enum ptr_kind in_ptr, out_ptr;
  off_t in, out;                /* the offsets, or the file offsets */
  size_t count;
  unsigned int flags;
  size_t src_size, dst_size;    /* the files' sizes */
  bool limit;                   /* under RLIMIT_FSIZE of FSIZE */
  rlim_t fsize;
  uint64_t data;                /* the state that draws the files' bytes */
};

/* What one side's call did.  */
struct result
{
  ssize_t ret;
  int err;
  off_t in, out;                /* what the offset pointers hold after it */
  off_t pos_in, pos_out;        /* the file offsets before it */
  off_t end_in, end_out;        /* and after it */
  bool across;                  /* two regular files of two superblocks */
  int calls;                    /* the calls it took (see make_calls) */
};

/* One of the two sets of files, and the call made on it.  */
struct side
{
  char const *name;
  ssize_t (*call) (int fd_in, off_t *pos_in, int fd_out, off_t *pos_out,
                   size_t count, unsigned int flags);
  char *dir;                    /* its files' directory */
  int fd_in, fd_out;            /* the call's descriptors */
  int file_in, file_out;        /* their files or memfds, read back, or -1 */
  int peek_out;                 /* where to count what a pipe or FIFO
                                   destination holds, or -1 */
  int fds[8];                   /* what to close after the call */
  int n_fds;
  int flagged[2], flag[2];      /* the inode flags to set, then clear */
  int n_flagged;
  unsigned int made;            /* the names made in DIR, as bits */
};

static ssize_t
call_copy_range (int fd_in, off_t *pos_in, int fd_out, off_t *pos_out,
                 size_t count, unsigned int flags)
{
  return cr_copy_range_flags (fd_in, pos_in, fd_out, pos_out, count, flags);
}

static ssize_t
call_copy_file_range (int fd_in, off_t *pos_in, int fd_out, off_t *pos_out,
                      size_t count, unsigned int flags)
{
  return copy_file_range (fd_in, pos_in, fd_out, pos_out, count, flags);
}

static struct side sides[2] = {
  { .name = "copy_range", .call = call_copy_range },
  { .name = "copy_file_range", .call = call_copy_file_range },
};

/* The names a side makes in its directory, and their bits in MADE.  */
static char const *const made_name[] = { "src", "dst", "src-fifo",
                                         "dst-fifo" };

/* Memory that a child running the calls under RLIMIT_FSIZE shares with
   this process: the results and the offsets; and a page that is made
   read-only for the calls, for PTR_READ_ONLY.  */
struct shared
{
  struct result r[2];
  off_t offset[2][2];
};
static struct shared *shared;
static off_t (*read_only)[2];

/* What DIR's filesystem and this system offer: the largest file size on
   DIR and in a memfd; whether FS_IMMUTABLE_FL and FS_APPEND_FL can be
   set on DIR's files; a block device, or NULL.  */
static off_t dir_max, memfd_max;
static bool have_immutable, have_append_only;
static char const *block_device;

/* Whether a destination of OUT_KIND is the source's file.  */
static bool
same_file (enum fd_kind out_kind)
{
  return out_kind == FD_SAME || out_kind == FD_SAME_FILE;
}

/* A documented difference: one row of ALLOWED.  */
struct allowance
{
  char const *name;
  char const *reason;
  /* Whether the row covers what the two calls did differently; NULL
     where this program cannot make the difference happen.  */
  bool (*covers) (struct call const *c, struct result const *cr,
                  struct result const *cfr);
};

static bool
covers_exdev (struct call const *c, struct result const *cr,
              struct result const *cfr)
{
  return cr->across && cr->ret < 0 && cr->err == EXDEV && cfr->ret >= 0;
}

static bool
covers_max_rw_count (struct call const *c, struct result const *cr,
                     struct result const *cfr)
{
  return (cr->ret == (ssize_t) MAX_RW_COUNT
          && cfr->ret > (ssize_t) MAX_RW_COUNT);
}

/* random_calls counts a call under this row when copy_file_range had to
   be called again and the two sides then agreed in everything.  Where
   it cannot be called again, because the update of a read-only offset
   pointer failed (EFAULT) after the data moved, the row covers a copy
   that copy_range took further than copy_file_range: the file offsets
   that a NULL pointer moved show it.  */
static bool
covers_partial (struct call const *c, struct result const *cr,
                struct result const *cfr)
{
  return (cr->ret < 0 && cr->err == EFAULT && cfr->ret < 0
          && cfr->err == EFAULT
          && (c->in_ptr == PTR_READ_ONLY || c->out_ptr == PTR_READ_ONLY)
          && cr->end_in - cr->pos_in >= cfr->end_in - cfr->pos_in
          && cr->end_out - cr->pos_out >= cfr->end_out - cfr->pos_out);
}

static bool
covers_append_only (struct call const *c, struct result const *cr,
                    struct result const *cfr)
{
  enum fd_kind out = same_file (c->out_kind) ? c->in_kind : c->out_kind;
  return (out == FD_APPEND_ONLY && cr->ret < 0 && cr->err == EPERM
          && !(cfr->ret < 0 && cfr->err == EPERM));
}

/* copy_range(2)'s NOTES, a row each.  */
static struct allowance const allowed[] = {
  { "EXDEV across filesystems",
    "copy_range never copies between two filesystems: a caller that asked"
    " for an offload learns that there is none, where copy_file_range may"
    " copy", covers_exdev },
  { "at most MAX_RW_COUNT",
    "copy_range returns at most 0x7ffff000 bytes, so that a 32-bit caller"
    " can read the count; copy_file_range on NFS may return more",
    covers_max_rw_count },
  { "signals",
    "copy_range checks for signals during a long copy and returns the bytes"
    " copied so far; no signal comes here", NULL },
  { "partial progress",
    "copy_range copied in one call what copy_file_range copied in several:"
    " both may return short, and the state after copy_file_range's loop"
    " up to copy_range's count was identical", covers_partial },
  { "file-offset lock",
    "copy_range takes and advances the file offsets under the file's"
    " position lock; one thread here cannot tell", NULL },
  { "append-only after open",
    "copy_range refuses a destination that became append-only after it was"
    " opened (EPERM), as an immutable one; copy_file_range writes to it",
    covers_append_only },
};
enum { N_ALLOWED = sizeof allowed / sizeof *allowed };

/* ---- Drawing a call ---- */

/* The state that draws call NUMBER of SEED: splitmix64, so that a call
   can be made again alone.  */
static uint64_t
call_state (uint64_t seed, unsigned long number)
{
  uint64_t z = seed + (number + 1) * 0x9e3779b97f4a7c15u;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* -1, 0 or 1.  */
static int64_t
draw_nudge (uint64_t *r)
{
  return (int64_t) cr_random_below (r, 3) - 1;
}

static bool
kind_usable (enum fd_kind k, bool source)
{
  switch (k)
    {
    case FD_IMMUTABLE:
      return have_immutable;
    case FD_APPEND_ONLY:
      return have_append_only;
    case FD_BLOCK:
      return source && block_device;
    default:
      return k < FD_SAME;
    }
}

static enum fd_kind
draw_kind (uint64_t *r, bool source)
{
  uint64_t d = cr_random_below (r, 16);
  if (d < 10)
    return FD_FILE;
  if (!source && d < 12)
    return d == 10 ? FD_SAME : FD_SAME_FILE;
  for (;;)
    {
      enum fd_kind k = cr_random_below (r, FD_SAME);
      if (kind_usable (k, source))
        return k;
    }
}

static size_t
draw_size (uint64_t *r)
{
  switch (cr_random_below (r, 6))
    {
    case 0:
      return 0;
    case 1:
      return 1 + cr_random_below (r, 100);
    case 2:
      return (1 + cr_random_below (r, FILE_PAGES)) * PAGE + draw_nudge (r);
    default:
      return cr_random_below (r, FILE_PAGES * PAGE + 2);
    }
}

/* An offset in a file of SIZE bytes whose filesystem takes files of up
   to MAX bytes.  The sums wrap as unsigned numbers, as loff_t's bits.  */
static off_t
draw_offset (uint64_t *r, size_t size, off_t max)
{
  int64_t nudge = draw_nudge (r);
  uint64_t u;
  switch (cr_random_below (r, 20))
    {
    case 0: case 1: case 2:
      u = 0;
      break;
    case 3: case 4:
      u = 1 + cr_random_below (r, 100);
      break;
    case 5: case 6:             /* a page +-1 */
      u = (1 + cr_random_below (r, FILE_PAGES)) * PAGE + nudge;
      break;
    case 7: case 8: case 9:     /* the end of the file +-1 */
      u = size + nudge;
      break;
    case 10:                    /* past the end */
      u = size + 1 + cr_random_below (r, 4 * PAGE);
      break;
    case 11:                    /* near the largest file size */
      u = ((uint64_t) max + nudge
           - (cr_random_below (r, 2) ? 0 : cr_random_below (r, 2 * PAGE)));
      break;
    case 12:                    /* near 2^63 */
      u = (uint64_t) LLONG_MAX + 1 - cr_random_below (r, 2 * PAGE + 3);
      break;
    case 13:                    /* near 2^64: negative */
      u = -(1 + cr_random_below (r, 2 * PAGE));
      break;
    case 14:                    /* negative */
      u = cr_random (r) | (UINT64_C (1) << 63);
      break;
    case 15:                    /* of any magnitude */
      u = cr_random (r) >> cr_random_below (r, 64);
      break;
    default:                    /* within the file */
      u = cr_random_below (r, size + 1);
      break;
    }
  return u;
}

/* A count for a copy from IN, or REF, in a source of SIZE bytes.  */
static size_t
draw_count (uint64_t *r, off_t in, off_t ref, size_t size)
{
  int64_t nudge = draw_nudge (r);
  switch (cr_random_below (r, 20))
    {
    case 0:
      return 0;
    case 1:
      return 1;
    case 2: case 3:             /* a page +-1 */
      return (1 + cr_random_below (r, FILE_PAGES)) * PAGE + nudge;
    case 4: case 5:             /* what is left of the source, +-1 */
      return size - in + nudge;
    case 6:
      return MAX_RW_COUNT + nudge;
    case 7:                     /* up to 2^63 */
      return cr_random (r) >> (1 + cr_random_below (r, 63));
    case 8:
      return (size_t) LLONG_MAX + 1 + nudge;
    case 9:
      return SIZE_MAX - cr_random_below (r, 2);
    case 10:                    /* a range that ends at 2^64 +-1 */
      return -(uint64_t) ref + nudge;
    case 11:                    /* a range that ends at 2^63 +-1 */
      return (uint64_t) LLONG_MAX + 1 - ref + nudge;
    case 12:
      return cr_random (r);
    default:
      return 1 + cr_random_below (r, FILE_PAGES * PAGE + 2);
    }
}

/* A destination offset near IN, in the source's own file, for a copy of
   COUNT bytes: overlapping or not, by a byte or more.  */
static off_t
draw_near (uint64_t *r, off_t in, size_t count)
{
  uint64_t span = (count <= 8 * PAGE ? count
                   : cr_random_below (r, 8 * PAGE + 1));
  int64_t nudge = draw_nudge (r);
  switch (cr_random_below (r, 4))
    {
    case 0:
      return (uint64_t) in + span + nudge;
    case 1:
      return (uint64_t) in - span + nudge;
    case 2:
      return ((uint64_t) in + cr_random_below (r, span + 1)
              - cr_random_below (r, span + 1));
    default:
      return (uint64_t) in + nudge;
    }
}

static enum ptr_kind
draw_ptr (uint64_t *r)
{
  uint64_t d = cr_random_below (r, 32);
  return (d < 22 ? PTR_OFFSET : d < 30 ? PTR_NULL
          : d == 30 ? PTR_READ_ONLY : PTR_BAD);
}

static unsigned int
draw_flags (uint64_t *r)
{
  static unsigned int const some[] = { 1, 2, 1u << 31, ~0u };
  uint64_t d = cr_random_below (r, 5);
  return d < 4 ? some[d] : (unsigned int) cr_random (r) | 1;
}

static rlim_t
draw_fsize (uint64_t *r, struct call const *c)
{
  int64_t nudge = draw_nudge (r);
  switch (cr_random_below (r, 5))
    {
    case 0:
      return cr_random_below (r, 2);
    case 1:
      return PAGE;
    case 2:
      return c->dst_size;
    case 3:                     /* at the destination offset +-1 */
      if (0 <= c->out && c->out < 64 * PAGE)
        return c->out + 1 + nudge;
      return cr_random_below (r, 8 * PAGE);
    default:
      return cr_random_below (r, 8 * PAGE);
    }
}

static struct call
draw_call (uint64_t seed, unsigned long number)
{
  uint64_t r = call_state (seed, number);
  struct call c = { .number = number };
  c.in_kind = draw_kind (&r, true);
  c.out_kind = draw_kind (&r, false);
  c.src_size = draw_size (&r);
  c.dst_size = draw_size (&r);
  bool same = same_file (c.out_kind);
  off_t in_max = c.in_kind == FD_MEMFD ? memfd_max : dir_max;
  off_t out_max = (same ? in_max
                   : c.out_kind == FD_MEMFD ? memfd_max : dir_max);
  c.in = draw_offset (&r, c.src_size, in_max);
  c.out = draw_offset (&r, same ? c.src_size : c.dst_size, out_max);
  c.count = draw_count (&r, c.in, cr_random_below (&r, 2) ? c.in : c.out,
                        c.src_size);
  if (same && cr_random_below (&r, 2))
    c.out = draw_near (&r, c.in, c.count);
  c.in_ptr = draw_ptr (&r);
  c.out_ptr = draw_ptr (&r);
  c.flags = cr_random_below (&r, 16) ? 0 : draw_flags (&r);
  c.limit = cr_random_below (&r, 16) == 0;
  if (c.limit)
    c.fsize = draw_fsize (&r, &c);
  c.data = cr_random (&r);
  return c;
}

static void
describe_end (char *buf, size_t size, char const *what, enum fd_kind kind,
              size_t file_size, enum ptr_kind ptr, off_t off, off_t pos)
{
  char kind_buf[128];
  if (kind <= FD_MEMFD)
    snprintf (kind_buf, sizeof kind_buf, "%s of %zu bytes", kind_name[kind],
              file_size);
  else
    snprintf (kind_buf, sizeof kind_buf, "%s", kind_name[kind]);
  long long o = off;
  switch (ptr)
    {
    case PTR_OFFSET:
      snprintf (buf, size, "%s %s at &%lld", what, kind_buf, o);
      break;
    case PTR_NULL:
      snprintf (buf, size, "%s %s at NULL (lseek to %lld: file offset"
                " %lld)", what, kind_buf, o, (long long) pos);
      break;
    case PTR_READ_ONLY:
      snprintf (buf, size, "%s %s at read-only &%lld", what, kind_buf, o);
      break;
    case PTR_BAD:
      snprintf (buf, size, "%s %s at an unmapped pointer", what, kind_buf);
      break;
    }
}

/* The call C, whose first side's result is R, for a failure's line.  */
static void
describe (char *buf, size_t size, struct call const *c,
          struct result const *r)
{
  char in[256], out[256], limit[64] = "";
  describe_end (in, sizeof in, "from", c->in_kind, c->src_size, c->in_ptr,
                c->in, r->pos_in);
  describe_end (out, sizeof out, "to", c->out_kind,
                same_file (c->out_kind) ? c->src_size : c->dst_size,
                c->out_ptr, c->out, r->pos_out);
  if (c->limit)
    snprintf (limit, sizeof limit, ", RLIMIT_FSIZE %llu",
              (unsigned long long) c->fsize);
  snprintf (buf, size, "%s %s, count %zu (%#zx), flags %#x%s", in, out,
            c->count, c->count, c->flags, limit);
}

/* ---- Making a call on both sides ---- */

static char *
side_path (struct side const *s, char const *name)
{
  static char buf[PATH_MAX];
  snprintf (buf, sizeof buf, "%s/%s", s->dir, name);
  return buf;
}

static int
keep (struct side *s, int fd)
{
  if (fd < 0)
    cr_die ("open");
  if (s->n_fds == sizeof s->fds / sizeof *s->fds)
    cr_die ("too many descriptors");
  s->fds[s->n_fds++] = fd;
  return fd;
}

/* Make the name MADE_NAME[I] in S's directory, with FLAGS.  */
static int
make_name (struct side *s, int i, int flags)
{
  s->made |= 1u << i;
  return keep (s, cr_open_in (s->dir, made_name[i], flags));
}

/* Set FLAG in FD's inode flags, or clear it; return the errno on
   failure.  */
static int
set_iflag (int fd, int flag, bool on)
{
  int flags;
  if (ioctl (fd, FS_IOC_GETFLAGS, &flags) != 0)
    return errno;
  flags = on ? flags | flag : flags & ~flag;
  return ioctl (fd, FS_IOC_SETFLAGS, &flags) != 0 ? errno : 0;
}

/* Clear the inode flags that S set; return false if one stays.  Called at
   exit too: a file with them could not be removed.  */
static bool
clear_flags (struct side *s)
{
  bool ok = true;
  int n = s->n_flagged;
  s->n_flagged = 0;
  for (int i = 0; i < n; i++)
    ok &= set_iflag (s->flagged[i], s->flag[i], false) == 0;
  return ok;
}

static void
clear_flags_at_exit (void)
{
  clear_flags (&sides[0]);
  clear_flags (&sides[1]);
}

/* Open the descriptor of KIND as S's source (SOURCE) or destination, its
   file SIZE bytes of DATA where KIND has one.  Set *FILE to the
   descriptor of the file, to read it back, and *PEEK to one that tells
   what a pipe or FIFO holds; each is -1 where there is none.  */
static int
open_kind (struct side *s, enum fd_kind kind, bool source,
           unsigned char const *data, size_t size, int *file, int *peek)
{
  int name = source ? 0 : 1;
  int p[2];
  *file = *peek = -1;
  switch (kind)
    {
    case FD_FILE: case FD_RDONLY: case FD_WRONLY: case FD_APPEND:
    case FD_PATH: case FD_IMMUTABLE: case FD_APPEND_ONLY:
      *file = make_name (s, name, O_CREAT | O_EXCL | O_RDWR);
      cr_pwrite_all (*file, data, size, 0);
      switch (kind)
        {
        case FD_RDONLY:
          return keep (s, cr_open_in (s->dir, made_name[name], O_RDONLY));
        case FD_WRONLY:
          return keep (s, cr_open_in (s->dir, made_name[name], O_WRONLY));
        case FD_APPEND:
          return keep (s, cr_open_in (s->dir, made_name[name],
                                      O_RDWR | O_APPEND));
        case FD_PATH:
          return keep (s, cr_open_in (s->dir, made_name[name], O_PATH));
        case FD_IMMUTABLE: case FD_APPEND_ONLY:
          /* Set after the other descriptors are open.  */
          s->flagged[s->n_flagged] = *file;
          s->flag[s->n_flagged++] = (kind == FD_IMMUTABLE ? FS_IMMUTABLE_FL
                                     : FS_APPEND_FL);
          return *file;
        default:
          return *file;
        }
    case FD_MEMFD:
      *file = keep (s, memfd_create ("cr-compare", 0));
      cr_pwrite_all (*file, data, size, 0);
      return *file;
    case FD_DEV_NULL:
      return keep (s, open ("/dev/null", O_RDWR));
    case FD_DEV_ZERO:
      return keep (s, open ("/dev/zero", O_RDWR));
    case FD_BLOCK:
      return keep (s, open (block_device, O_RDONLY));
    case FD_FIFO:
      s->made |= 1u << (name + 2);
      if (mkfifo (side_path (s, made_name[name + 2]), 0644) != 0)
        cr_die ("mkfifo %s", side_path (s, made_name[name + 2]));
      *peek = keep (s, cr_open_in (s->dir, made_name[name + 2],
                                   O_RDWR | O_NONBLOCK));
      return *peek;
    case FD_PIPE:
      /* Nonblocking: a wrong call must not wait for data.  */
      if (pipe2 (p, O_NONBLOCK) != 0)
        cr_die ("pipe2");
      keep (s, p[0]);
      keep (s, p[1]);
      if (source)
        return p[0];
      *peek = p[0];
      return p[1];
    case FD_DIR:
      return keep (s, open (s->dir, O_RDONLY | O_DIRECTORY));
    case FD_CLOSED:
      return CLOSED_FD;
    case FD_MINUS_1:
      return -1;
    default:
      abort ();
    }
}

/* Whether FD_IN and FD_OUT are regular files of two superblocks.  */
static bool
across (int fd_in, int fd_out)
{
  struct stat a, b;
  return (fstat (fd_in, &a) == 0 && fstat (fd_out, &b) == 0
          && S_ISREG (a.st_mode) && S_ISREG (b.st_mode)
          && a.st_dev != b.st_dev);
}

/* Make side S's files and descriptors for call C, of the bytes SRC and
   DST, and record its starting state in R.  */
static void
set_up (struct side *s, struct call const *c, unsigned char const *src,
        unsigned char const *dst, struct result *r)
{
  int src_peek;
  s->n_fds = s->n_flagged = 0;
  s->made = 0;
  s->fd_in = open_kind (s, c->in_kind, true, src, c->src_size, &s->file_in,
                        &src_peek);
  s->fd_out = s->fd_in;
  s->file_out = s->file_in;
  s->peek_out = -1;
  if (c->out_kind == FD_SAME_FILE && s->file_in >= 0)
    {
      char p[64];
      snprintf (p, sizeof p, "/proc/self/fd/%d", s->file_in);
      s->fd_out = s->file_out = keep (s, open (p, O_RDWR));
    }
  else if (!same_file (c->out_kind))
    s->fd_out = open_kind (s, c->out_kind, false, dst, c->dst_size,
                           &s->file_out, &s->peek_out);
  for (int i = 0; i < s->n_flagged; i++)
    {
      int err = set_iflag (s->flagged[i], s->flag[i], true);
      if (err)
        {
          s->n_flagged = i;
          errno = err;
          cr_die ("set the inode flag %#x", s->flag[i]);
        }
    }
  if (c->in_ptr == PTR_NULL)
    lseek (s->fd_in, c->in, SEEK_SET);
  if (c->out_ptr == PTR_NULL)
    lseek (s->fd_out, c->out, SEEK_SET);
  r->pos_in = lseek (s->fd_in, 0, SEEK_CUR);
  r->pos_out = lseek (s->fd_out, 0, SEEK_CUR);
  r->across = across (s->fd_in, s->fd_out);
}

static void
tear_down (struct side *s)
{
  if (!clear_flags (s))
    cr_die ("clear an inode flag in %s", s->dir);
  for (int i = 0; i < s->n_fds; i++)
    close (s->fds[i]);
  s->n_fds = 0;
  for (size_t i = 0; i < sizeof made_name / sizeof *made_name; i++)
    if ((s->made & (1u << i))
        && unlink (side_path (s, made_name[i])) != 0)
      cr_die ("unlink %s", side_path (s, made_name[i]));
  s->made = 0;
}

static off_t *
pointer (enum ptr_kind ptr, off_t *slot, off_t *read_only_slot)
{
  switch (ptr)
    {
    case PTR_OFFSET:
      return slot;
    case PTR_READ_ONLY:
      return read_only_slot;
    case PTR_BAD:
      return (off_t *) 8;       /* the first page is never mapped */
    default:
      return NULL;
    }
}

/* Make call C on both sides, into SHARED.  */
static void
make_calls (struct call const *c)
{
  for (int i = 0; i < 2; i++)
    {
      struct side *s = &sides[i];
      struct result *r = &shared->r[i];
      errno = 0;
      off_t *in = pointer (c->in_ptr, &shared->offset[i][0],
                           &read_only[i][0]);
      off_t *out = pointer (c->out_ptr, &shared->offset[i][1],
                            &read_only[i][1]);
      r->ret = s->call (s->fd_in, in, s->fd_out, out, c->count, c->flags);
      r->err = r->ret < 0 ? errno : 0;
      r->calls = 1;
      /* copy_file_range may stop short where copy_range goes on (xfs and
         btrfs clone the whole blocks and return), and its caller calls
         again from the advanced offsets: that loop is what copy_range's
         one call must equal, up to copy_range's count.  */
      while (i == 1 && 0 < r->ret && r->ret < shared->r[0].ret)
        {
          ssize_t more = s->call (s->fd_in, in, s->fd_out, out,
                                  c->count - r->ret, c->flags);
          r->calls++;
          if (more <= 0)
            break;
          r->ret += more;
        }
    }
}

/* Make call C on both sides, under its RLIMIT_FSIZE in a child that
   ignores SIGXFSZ where it has one; return false if that child failed.  */
static bool
run_calls (struct call const *c)
{
  for (int i = 0; i < 2; i++)
    {
      shared->offset[i][0] = read_only[i][0] = c->in;
      shared->offset[i][1] = read_only[i][1] = c->out;
    }
  bool protect = c->in_ptr == PTR_READ_ONLY || c->out_ptr == PTR_READ_ONLY;
  if (protect && mprotect (read_only, PAGE, PROT_READ) != 0)
    cr_die ("mprotect");
  bool ok = true;
  if (!c->limit)
    make_calls (c);
  else
    {
      fflush (stdout);
      pid_t pid = fork ();
      if (pid < 0)
        cr_die ("fork");
      if (pid == 0)
        {
          struct rlimit rl = { c->fsize, RLIM_INFINITY };
          signal (SIGXFSZ, SIG_IGN);
          if (setrlimit (RLIMIT_FSIZE, &rl) != 0)
            _exit (CR_EXIT_ERROR);
          make_calls (c);
          _exit (CR_EXIT_PASS);
        }
      int status;
      ok = (waitpid (pid, &status, 0) == pid && WIFEXITED (status)
            && WEXITSTATUS (status) == CR_EXIT_PASS);
    }
  if (protect && mprotect (read_only, PAGE, PROT_READ | PROT_WRITE) != 0)
    cr_die ("mprotect");
  for (int i = 0; i < 2; i++)
    {
      struct side *s = &sides[i];
      struct result *r = &shared->r[i];
      r->in = (c->in_ptr == PTR_OFFSET ? shared->offset[i][0]
               : c->in_ptr == PTR_READ_ONLY ? read_only[i][0] : 0);
      r->out = (c->out_ptr == PTR_OFFSET ? shared->offset[i][1]
                : c->out_ptr == PTR_READ_ONLY ? read_only[i][1] : 0);
      r->end_in = lseek (s->fd_in, 0, SEEK_CUR);
      r->end_out = lseek (s->fd_out, 0, SEEK_CUR);
    }
  return ok;
}

/* ---- Comparing the two sides ---- */

/* Compare the file A of the first side with B of the second after call
   C, whose result is R: their sizes, their first HEAD bytes, the bytes
   at the offsets the call was given, the last page and a few bytes
   drawn with *STATE.  Describe a difference in DETAIL; return whether
   there was none.  */
static bool
compare_file (char const *what, int a, int b, struct call const *c,
              struct result const *r, uint64_t *state, char *detail,
              size_t size)
{
  off_t size_a = cr_file_size (a), size_b = cr_file_size (b);
  if (size_a != size_b)
    {
      snprintf (detail, size, "%s sizes %lld and %lld", what,
                (long long) size_a, (long long) size_b);
      return false;
    }
  uint64_t span = (r->ret > 0 ? r->ret : 0) + PAGE;
  uint64_t end = size_a;
  struct { uint64_t at, len; } range[10] = {
    { 0, HEAD }, { c->in, span }, { c->out, span }, { r->pos_in, span },
    { r->pos_out, span }, { end > PAGE ? end - PAGE : 0, PAGE },
  };
  int n = end <= HEAD ? 1 : 10;
  for (int i = 6; i < n; i++)
    range[i].at = cr_random_below (state, end), range[i].len = 1;
  for (int i = 0; i < n; i++)
    {
      if (range[i].at >= end)
        continue;
      off_t len = (range[i].len < end - range[i].at ? range[i].len
                   : end - range[i].at);
      off_t d = cr_compare_ranges (a, range[i].at, b, range[i].at, len);
      if (d >= 0)
        {
          snprintf (detail, size, "%s bytes differ at %lld", what,
                    (long long) (range[i].at + d));
          return false;
        }
    }
  return true;
}

static int
bytes_in (int fd)
{
  int n;
  if (ioctl (fd, FIONREAD, &n) != 0)
    cr_die ("FIONREAD");
  return n;
}

static char const *
errname (int err)
{
  return err ? strerrorname_np (err) : "-";
}

/* Compare what call C did on the two sides; describe a difference in
   DETAIL, or leave it empty.  */
static void
compare_sides (struct call const *c, uint64_t *state, char *detail,
               size_t size)
{
  struct result const *a = &shared->r[0], *b = &shared->r[1];
  struct side const *s = sides, *t = sides + 1;
  detail[0] = '\0';
  if (a->pos_in != b->pos_in || a->pos_out != b->pos_out)
    snprintf (detail, size, "the file offsets before the call differ:"
              " %lld, %lld and %lld, %lld", (long long) a->pos_in,
              (long long) a->pos_out, (long long) b->pos_in,
              (long long) b->pos_out);
  else if (a->ret != b->ret || a->err != b->err)
    snprintf (detail, size, "%s %zd (%s), %s %zd (%s)", s->name, a->ret,
              errname (a->err), t->name, b->ret, errname (b->err));
  else if (a->in != b->in || a->out != b->out)
    snprintf (detail, size, "offsets after %lld, %lld and %lld, %lld",
              (long long) a->in, (long long) a->out, (long long) b->in,
              (long long) b->out);
  else if (a->end_in != b->end_in || a->end_out != b->end_out)
    snprintf (detail, size, "file offsets after %lld, %lld and %lld, %lld",
              (long long) a->end_in, (long long) a->end_out,
              (long long) b->end_in, (long long) b->end_out);
  else if (s->file_in >= 0
           && !compare_file ("source", s->file_in, t->file_in, c, a, state,
                             detail, size))
    ;
  else if (s->file_out >= 0 && !same_file (c->out_kind)
           && !compare_file ("destination", s->file_out, t->file_out, c, a,
                             state, detail, size))
    ;
  else if (s->peek_out >= 0
           && bytes_in (s->peek_out) != bytes_in (t->peek_out))
    snprintf (detail, size, "the destination holds %d and %d bytes",
              bytes_in (s->peek_out), bytes_in (t->peek_out));
}

/* ---- The random calls ---- */

/* The largest size of FD's file, found with ftruncate, which fails with
   EFBIG beyond it; FD is empty after.  */
static off_t
max_file_size (int fd)
{
  off_t lo = 0, hi = LLONG_MAX;
  if (ftruncate (fd, hi) == 0)
    lo = hi;
  while (lo < hi)
    {
      off_t mid = lo + (hi - lo) / 2 + 1;   /* in (lo, hi], no overflow */
      if (ftruncate (fd, mid) == 0)
        lo = mid;
      else
        hi = mid - 1;
    }
  if (ftruncate (fd, 0) != 0)
    cr_die ("ftruncate");
  return lo;
}

/* Whether FLAG can be set on FD's inode; it is cleared again.  */
static bool
iflag_works (int fd, int flag)
{
  if (set_iflag (fd, flag, true) != 0)
    return false;
  if (set_iflag (fd, flag, false) != 0)
    cr_die ("clear the inode flag %#x", flag);
  return true;
}

/* Find what the calls may use: the largest file sizes, the inode flags,
   and the block device that CR_BLOCK_DEV names, if any: one set up for
   the test alone, which it opens for reading only.  */
static void
survey (char const *top)
{
  char probe[PATH_MAX];
  snprintf (probe, sizeof probe, "%s/probe", top);
  int fd = open (probe, O_CREAT | O_EXCL | O_RDWR, 0644);
  if (fd < 0)
    cr_die ("create %s", probe);
  dir_max = max_file_size (fd);
  have_immutable = iflag_works (fd, FS_IMMUTABLE_FL);
  have_append_only = iflag_works (fd, FS_APPEND_FL);
  close (fd);
  if (unlink (probe) != 0)
    cr_die ("unlink %s", probe);
  fd = memfd_create ("cr-compare", 0);
  if (fd < 0)
    cr_die ("memfd_create");
  memfd_max = max_file_size (fd);
  close (fd);
  char const *dev = getenv ("CR_BLOCK_DEV");
  if (dev && *dev)
    {
      struct stat st;
      fd = open (dev, O_RDONLY);
      if (fd < 0 || fstat (fd, &st) != 0 || !S_ISBLK (st.st_mode))
        cr_die ("CR_BLOCK_DEV=%s: not a block device", dev);
      close (fd);
      block_device = dev;
    }
}

/* The number in the environment variable NAME, or DEFAULT.  */
static unsigned long
env_number (char const *name, unsigned long fallback)
{
  char const *s = getenv (name);
  if (!s || !*s)
    return fallback;
  char *end;
  errno = 0;
  unsigned long n = strtoul (s, &end, 0);
  if (errno || *end || *s == '-')
    {
      fprintf (stderr, "%s=%s: not a number\n", name, s);
      exit (CR_EXIT_ERROR);
    }
  return n;
}

/* Make the random calls of SEED on FS, in TOP; return how many failed.  */
static unsigned long
random_calls (char const *fs, char const *top, uint64_t seed)
{
  unsigned long calls = env_number ("CR_COMPARE_CALLS", 2000);
  unsigned long only = env_number ("CR_COMPARE_ONLY", 0);
  unsigned long first = only ? only : 1, last = only ? only : calls;
  static unsigned char src[FILE_PAGES * PAGE + 2],
    dst[FILE_PAGES * PAGE + 2];

  shared = mmap (NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED)
    cr_die ("mmap");
  read_only = (off_t (*)[2]) ((char *) shared + PAGE);
  survey (top);
  for (int i = 0; i < 2; i++)
    {
      size_t len = strlen (top) + 3;
      sides[i].dir = malloc (len);
      if (!sides[i].dir)
        cr_die ("malloc");
      snprintf (sides[i].dir, len, "%s/%c", top, "ab"[i]);
      if (mkdir (sides[i].dir, 0755) != 0)
        cr_die ("mkdir %s", sides[i].dir);
    }
  atexit (clear_flags_at_exit);
  close (CLOSED_FD);
  printf ("# %s: random calls %lu to %lu; largest file %lld, memfd %lld;"
          " immutable %s, append-only %s; block device %s\n", fs, first,
          last, (long long) dir_max, (long long) memfd_max,
          have_immutable ? "yes" : "no", have_append_only ? "yes" : "no",
          block_device ? block_device : "none");
  fflush (stdout);

  unsigned long made = 0, identical = 0, failed = 0;
  unsigned long allowed_count[N_ALLOWED] = { 0 };
  double start = cr_now ();
  for (unsigned long n = first; n <= last; n++)
    {
      struct call c = draw_call (seed, n);
      uint64_t state = c.data;
      cr_random_fill (&state, src, c.src_size);
      cr_random_fill (&state, dst, c.dst_size);
      set_up (&sides[0], &c, src, dst, &shared->r[0]);
      set_up (&sides[1], &c, src, dst, &shared->r[1]);
      char detail[512];
      if (!run_calls (&c))
        snprintf (detail, sizeof detail, "the child that made the calls"
                  " under RLIMIT_FSIZE failed");
      else
        compare_sides (&c, &state, detail, sizeof detail);
      made++;
      size_t row = N_ALLOWED;
      if (!detail[0] && shared->r[1].calls > 1)
        {
          /* Identical, once copy_file_range was called again.  */
          for (row = 0; allowed[row].covers != covers_partial; row++)
            continue;
          allowed_count[row]++;
        }
      else if (!detail[0])
        identical++;
      else
        for (row = 0; row < N_ALLOWED; row++)
          if (allowed[row].covers
              && allowed[row].covers (&c, &shared->r[0], &shared->r[1]))
            {
              allowed_count[row]++;
              break;
            }
      if (detail[0] && row == N_ALLOWED && ++failed <= SHOWN_FAILURES)
        {
          char what[1024];
          describe (what, sizeof what, &c, &shared->r[0]);
          printf ("FAIL: %s: random call %lu (CR_SEED=%#llx"
                  " CR_COMPARE_ONLY=%lu): %s: %s\n", fs, n,
                  (unsigned long long) seed, n, what, detail);
          fflush (stdout);
        }
      tear_down (&sides[0]);
      tear_down (&sides[1]);
    }

  printf ("# %s: %lu random calls in %.1f s: %lu identical, %lu failed,"
          " allowed:", fs, made, cr_now () - start, identical, failed);
  for (size_t row = 0; row < N_ALLOWED; row++)
    printf ("%s %s %lu", row ? "," : "", allowed[row].name,
            allowed_count[row]);
  printf ("\n");
  for (size_t row = 0; row < N_ALLOWED; row++)
    if (allowed_count[row])
      printf ("#   %s: %s\n", allowed[row].name, allowed[row].reason);
  if (failed > SHOWN_FAILURES)
    printf ("# %s: %lu more failed calls not shown\n", fs,
            failed - SHOWN_FAILURES);
  fflush (stdout);
  free (sides[0].dir);
  free (sides[1].dir);
  return failed;
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
  unsigned long failed = 0;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    failed += !compare_case (argv[1], &cases[i]);
  failed += random_calls (argv[1], dir, seed);
  if (!cr_remove_tree (dir))
    {
      printf ("FAIL: %s: cannot remove %s\n", argv[1], dir);
      failed++;
    }
  free (dir);
  return failed ? CR_EXIT_FAIL : CR_EXIT_PASS;
}
