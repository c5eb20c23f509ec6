/* The copy_range(2) ABI, one rule per row, on one filesystem.
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

/* Usage: abi FSNAME DIR
   Runs every row in a fresh directory under DIR (a mount of the scratch
   filesystem FSNAME) and prints one line per row:
     PASS: FSNAME: ROW
     FAIL: FSNAME: ROW: what differed
     SKIP: FSNAME: ROW: why the row does not apply
   Exits 1 if a row failed, 77 if every row was skipped, else 0.  */

#include <config.h>

#include "cr-test.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/swap.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>

enum result { PASS, FAIL, SKIP };

struct ctx
{
  char const *fs;       /* the filesystem's name, for the report */
  char *dir;            /* this run's directory on it */
  long fs_type;         /* its statfs f_type */
  char *why;            /* a row's FAIL or SKIP reason; shared with
                           the rows that run in a child process */
};

enum { WHY_SIZE = 512, PAGE = 4096, SRC_SIZE = 3 * PAGE + 5 };

static enum result
say (struct ctx *c, enum result r, char const *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (c->why, WHY_SIZE, fmt, ap);
  va_end (ap);
  return r;
}

/* Fail the row unless COND.  */
#define CHECK(cond, ...) \
  do { if (!(cond)) return say (c, FAIL, __VA_ARGS__); } while (0)

/* Fail the row unless CALL fails with errno ERR.  */
#define CHECK_ERRNO(call, err)                                          \
  do {                                                                  \
    errno = 0;                                                          \
    ssize_t r_ = (call);                                                \
    if (!(r_ == -1 && errno == (err)))                                  \
      return say (c, FAIL, "%s returned %zd (%s), expected %s", #call,  \
                  r_, r_ < 0 ? strerrorname_np (errno) : "no error",    \
                  strerrorname_np (err));                               \
  } while (0)

/* Fail the row unless CALL returns WANT.  */
#define CHECK_RET(call, want)                                           \
  do {                                                                  \
    errno = 0;                                                          \
    ssize_t r_ = (call);                                                \
    if (r_ != (ssize_t) (want))                                         \
      return say (c, FAIL, "%s returned %zd (%s), expected %zd", #call, \
                  r_, r_ < 0 ? strerrorname_np (errno) : "no error",    \
                  (ssize_t) (want));                                    \
  } while (0)

static char *
path (struct ctx *c, char const *name)
{
  static char buf[2][PATH_MAX];
  static int i;
  i ^= 1;
  snprintf (buf[i], sizeof buf[i], "%s/%s", c->dir, name);
  return buf[i];
}

static uint64_t seed_state;

/* A new file NAME of SIZE random bytes, opened with FLAGS.  */
static int
new_file (struct ctx *c, char const *name, size_t size, int flags)
{
  char const *p = path (c, name);
  unlink (p);
  int fd = open (p, O_CREAT | O_EXCL | O_RDWR, 0644);
  if (fd < 0)
    cr_die ("create %s", p);
  if (size)
    {
      char *buf = malloc (size);
      if (!buf)
        cr_die ("malloc");
      cr_random_fill (&seed_state, buf, size);
      cr_pwrite_all (fd, buf, size, 0);
      free (buf);
    }
  if (flags != O_RDWR)
    {
      close (fd);
      fd = open (p, flags);
      if (fd < 0)
        cr_die ("open %s", p);
    }
  return fd;
}

static int
reopen (struct ctx *c, char const *name, int flags)
{
  int fd = open (path (c, name), flags);
  if (fd < 0)
    cr_die ("open %s", path (c, name));
  return fd;
}

/* Run ROW in a child process, so that it may change limits, signal
   dispositions and capabilities without affecting the other rows.  */
static enum result
in_child (struct ctx *c, enum result (*row) (struct ctx *))
{
  fflush (stdout);
  pid_t pid = fork ();
  if (pid < 0)
    cr_die ("fork");
  if (pid == 0)
    _exit (row (c));
  int status;
  if (waitpid (pid, &status, 0) != pid)
    cr_die ("waitpid");
  if (WIFEXITED (status) && WEXITSTATUS (status) <= SKIP)
    return WEXITSTATUS (status);
  return say (c, FAIL, "the row's process died with status %#x", status);
}

/* ---- descriptors and file types ---- */

static enum result
row_bad_descriptors (struct ctx *c)
{
  int src = new_file (c, "src", SRC_SIZE, O_RDWR);
  int dst = new_file (c, "dst", 0, O_RDWR);
  int closed = dup (dst);
  int opath = reopen (c, "dst", O_PATH);
  off_t in = 0, out = 0;
  close (closed);
  CHECK_ERRNO (cr_copy_range (-1, &in, dst, &out, 1), EBADF);
  CHECK_ERRNO (cr_copy_range (src, &in, -1, &out, 1), EBADF);
  CHECK_ERRNO (cr_copy_range (closed, &in, dst, &out, 1), EBADF);
  CHECK_ERRNO (cr_copy_range (src, &in, closed, &out, 1), EBADF);
  CHECK_ERRNO (cr_copy_range (src, &in, opath, &out, 1), EBADF);
  CHECK_ERRNO (cr_copy_range (opath, &in, src, &out, 1), EBADF);
  /* A zero count still checks the descriptors.  */
  CHECK_ERRNO (cr_copy_range (src, &in, closed, &out, 0), EBADF);
  close (src);
  close (dst);
  close (opath);
  return PASS;
}

static enum result
row_access_modes (struct ctx *c)
{
  close (new_file (c, "src", SRC_SIZE, O_RDWR));
  close (new_file (c, "dst", 0, O_RDWR));
  int src_w = reopen (c, "src", O_WRONLY);
  int src_r = reopen (c, "src", O_RDONLY);
  int dst_r = reopen (c, "dst", O_RDONLY);
  int dst_w = reopen (c, "dst", O_WRONLY);
  off_t in = 0, out = 0;
  CHECK_ERRNO (cr_copy_range (src_w, &in, dst_w, &out, 10), EBADF);
  CHECK_ERRNO (cr_copy_range (src_r, &in, dst_r, &out, 10), EBADF);
  CHECK_ERRNO (cr_copy_range (src_r, &in, dst_r, &out, 0), EBADF);
  CHECK (in == 0 && out == 0, "a failed call moved the offsets");
  CHECK_RET (cr_copy_range (src_r, &in, dst_w, &out, 10), 10);
  close (src_w);
  close (src_r);
  close (dst_r);
  close (dst_w);
  return PASS;
}

static enum result
row_o_append (struct ctx *c)
{
  int src = new_file (c, "src", SRC_SIZE, O_RDONLY);
  close (new_file (c, "dst", 100, O_RDWR));
  int dst = reopen (c, "dst", O_WRONLY | O_APPEND);
  off_t in = 0, out = 0;
  CHECK_ERRNO (cr_copy_range (src, &in, dst, &out, 10), EBADF);
  CHECK_ERRNO (cr_copy_range (src, NULL, dst, NULL, 10), EBADF);
  CHECK (cr_file_size (dst) == 100, "the O_APPEND destination changed size");
  close (src);
  close (dst);
  return PASS;
}

static enum result
row_directory (struct ctx *c)
{
  int src = new_file (c, "src", SRC_SIZE, O_RDWR);
  mkdir (path (c, "subdir"), 0755);
  int dir = reopen (c, "subdir", O_RDONLY | O_DIRECTORY);
  off_t in = 0, out = 0;
  CHECK_ERRNO (cr_copy_range (dir, &in, src, &out, 1), EISDIR);
  CHECK_ERRNO (cr_copy_range (src, &in, dir, &out, 1), EISDIR);
  close (src);
  close (dir);
  return PASS;
}

static enum result
row_pipe (struct ctx *c)
{
  int src = new_file (c, "src", SRC_SIZE, O_RDWR);
  int p[2];
  off_t in = 0, out = 0;
  if (pipe (p) != 0)
    cr_die ("pipe");
  CHECK_ERRNO (cr_copy_range (src, &in, p[1], &out, 1), EINVAL);
  CHECK_ERRNO (cr_copy_range (p[0], &in, src, &out, 1), EINVAL);
  CHECK_ERRNO (cr_copy_range (src, NULL, p[1], NULL, 1), EINVAL);
  close (p[0]);
  close (p[1]);
  close (src);
  return PASS;
}

static enum result
row_fifo (struct ctx *c)
{
  int src = new_file (c, "src", SRC_SIZE, O_RDWR);
  if (mkfifo (path (c, "fifo"), 0644) != 0)
    cr_die ("mkfifo");
  int fifo = reopen (c, "fifo", O_RDWR | O_NONBLOCK);
  off_t in = 0, out = 0;
  CHECK_ERRNO (cr_copy_range (src, &in, fifo, &out, 1), EINVAL);
  CHECK_ERRNO (cr_copy_range (fifo, &in, src, &out, 1), EINVAL);
  close (fifo);
  close (src);
  return PASS;
}

static enum result
row_character_device (struct ctx *c)
{
  int src = new_file (c, "src", SRC_SIZE, O_RDWR);
  int null = open ("/dev/null", O_WRONLY);
  int zero = open ("/dev/zero", O_RDONLY);
  off_t in = 0, out = 0;
  if (null < 0 || zero < 0)
    return say (c, SKIP, "no /dev/null or /dev/zero");
  CHECK_ERRNO (cr_copy_range (src, &in, null, &out, 1), EINVAL);
  CHECK_ERRNO (cr_copy_range (zero, &in, src, &out, 1), EINVAL);
  close (null);
  close (zero);
  close (src);
  return PASS;
}

static enum result
row_other_filesystem (struct ctx *c)
{
  int src = new_file (c, "src", SRC_SIZE, O_RDWR);
  int mem = memfd_create ("copy_range-abi", 0);
  off_t in = 0, out = 0;
  if (mem < 0)
    cr_die ("memfd_create");
  cr_pwrite_all (mem, "data", 4, 0);
  CHECK_ERRNO (cr_copy_range (src, &in, mem, &out, 1), EXDEV);
  CHECK_ERRNO (cr_copy_range (mem, &in, src, &out, 1), EXDEV);
  close (mem);
  close (src);
  return PASS;
}

/* ---- offsets ---- */

static enum result
row_pointer_offsets (struct ctx *c)
{
  int src = new_file (c, "src", SRC_SIZE, O_RDWR);
  int dst = new_file (c, "dst", 0, O_RDWR);
  off_t in = 100, out = 200;
  lseek (src, 7, SEEK_SET);
  lseek (dst, 11, SEEK_SET);
  CHECK_RET (cr_copy_range (src, &in, dst, &out, 1000), 1000);
  CHECK (in == 1100 && out == 1200, "offsets became %lld, %lld",
         (long long) in, (long long) out);
  CHECK (lseek (src, 0, SEEK_CUR) == 7 && lseek (dst, 0, SEEK_CUR) == 11,
         "the file offsets moved");
  CHECK (cr_compare_ranges (src, 100, dst, 200, 1000) < 0,
         "the copied bytes differ");
  close (src);
  close (dst);
  return PASS;
}

static enum result
row_null_offsets (struct ctx *c)
{
  int src = new_file (c, "src", SRC_SIZE, O_RDWR);
  int dst = new_file (c, "dst", 0, O_RDWR);
  off_t out = 3000;
  lseek (src, 7, SEEK_SET);
  lseek (dst, 11, SEEK_SET);
  CHECK_RET (cr_copy_range (src, NULL, dst, NULL, 500), 500);
  CHECK (lseek (src, 0, SEEK_CUR) == 507 && lseek (dst, 0, SEEK_CUR) == 511,
         "the file offsets are not 507, 511");
  CHECK (cr_compare_ranges (src, 7, dst, 11, 500) < 0,
         "the copied bytes differ");
  /* One of each: only the NULL side's file offset moves.  */
  CHECK_RET (cr_copy_range (src, NULL, dst, &out, 100), 100);
  CHECK (lseek (src, 0, SEEK_CUR) == 607 && out == 3100
         && lseek (dst, 0, SEEK_CUR) == 511, "mixed offsets misbehaved");
  CHECK (cr_compare_ranges (src, 507, dst, 3000, 100) < 0,
         "the copied bytes differ");
  close (src);
  close (dst);
  return PASS;
}

static enum result
row_count_zero (struct ctx *c)
{
  int src = new_file (c, "src", SRC_SIZE, O_RDWR);
  int dst = new_file (c, "dst", 10, O_RDWR);
  off_t in = 1, out = 2;
  CHECK_RET (cr_copy_range (src, &in, dst, &out, 0), 0);
  CHECK (in == 1 && out == 2 && cr_file_size (dst) == 10,
         "a zero count changed something");
  close (src);
  close (dst);
  return PASS;
}

static enum result
row_source_eof (struct ctx *c)
{
  int src = new_file (c, "src", SRC_SIZE, O_RDWR);
  int dst = new_file (c, "dst", 0, O_RDWR);
  off_t in = SRC_SIZE - 5, out = 0;
  CHECK_RET (cr_copy_range (src, &in, dst, &out, 100), 5);
  CHECK (in == SRC_SIZE && out == 5, "offsets became %lld, %lld",
         (long long) in, (long long) out);
  CHECK_RET (cr_copy_range (src, &in, dst, &out, 100), 0);
  in = SRC_SIZE + 12345;
  CHECK_RET (cr_copy_range (src, &in, dst, &out, 100), 0);
  CHECK (in == SRC_SIZE + 12345 && out == 5, "a copy of 0 moved offsets");
  CHECK (cr_file_size (dst) == 5, "the destination has size %lld, not 5",
         (long long) cr_file_size (dst));
  close (src);
  close (dst);
  return PASS;
}

static enum result
row_negative_offset (struct ctx *c)
{
  int src = new_file (c, "src", SRC_SIZE, O_RDWR);
  int dst = new_file (c, "dst", 0, O_RDWR);
  off_t in = -PAGE, out = 0;
  CHECK_ERRNO (cr_copy_range (src, &in, dst, &out, 1), EINVAL);
  in = 0;
  out = -PAGE;
  CHECK_ERRNO (cr_copy_range (src, &in, dst, &out, 1), EINVAL);
  /* -1 plus 1 wraps past 2^64 first, as copy_file_range(2) finds.  */
  in = -1;
  CHECK_ERRNO (cr_copy_range (src, &in, dst, &out, 1), EOVERFLOW);
  close (src);
  close (dst);
  return PASS;
}

static enum result
row_bad_offset_pointer (struct ctx *c)
{
  int src = new_file (c, "src", SRC_SIZE, O_RDWR);
  int dst = new_file (c, "dst", 0, O_RDWR);
  off_t in = 0, out = 0;
  off_t *ro = mmap (NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
                    -1, 0);
  if (ro == MAP_FAILED)
    cr_die ("mmap");
  CHECK_ERRNO (cr_copy_range (src, (off_t *) 8, dst, &out, 1), EFAULT);
  CHECK_ERRNO (cr_copy_range (src, &in, dst, (off_t *) 8, 1), EFAULT);
  /* Readable, so the copy happens; the offset's update then faults.  */
  CHECK_ERRNO (cr_copy_range (src, &in, dst, ro, 1), EFAULT);
  munmap (ro, PAGE);
  close (src);
  close (dst);
  return PASS;
}

static enum result
row_same_file_overlap (struct ctx *c)
{
  int fd = new_file (c, "src", SRC_SIZE, O_RDWR);
  int other = reopen (c, "src", O_RDWR);
  off_t in = 0, out = 100;
  CHECK_ERRNO (cr_copy_range (fd, &in, fd, &out, 200), EINVAL);
  in = 200, out = 100;
  CHECK_ERRNO (cr_copy_range (fd, &in, fd, &out, 200), EINVAL);
  in = 50, out = 50;
  CHECK_ERRNO (cr_copy_range (fd, &in, fd, &out, 1), EINVAL);
  /* Another open file of the same inode is the same file.  */
  in = 0, out = 100;
  CHECK_ERRNO (cr_copy_range (fd, &in, other, &out, 200), EINVAL);
  if (link (path (c, "src"), path (c, "link")) == 0)
    {
      int linked = reopen (c, "link", O_RDWR);
      CHECK_ERRNO (cr_copy_range (fd, &in, linked, &out, 200), EINVAL);
      close (linked);
    }
  close (fd);
  close (other);
  return PASS;
}

static enum result
row_same_file_no_overlap (struct ctx *c)
{
  int fd = new_file (c, "src", SRC_SIZE, O_RDWR);
  int ref = new_file (c, "ref", 0, O_RDWR);
  char buf[SRC_SIZE];
  if (pread (fd, buf, SRC_SIZE, 0) != SRC_SIZE)
    cr_die ("pread");
  /* Forward, past the end: the file doubles.  */
  off_t in = 0, out = SRC_SIZE;
  CHECK_RET (cr_copy_range (fd, &in, fd, &out, SRC_SIZE), SRC_SIZE);
  CHECK (cr_compare_buf (fd, SRC_SIZE, buf, SRC_SIZE) < 0
         && cr_compare_buf (fd, 0, buf, SRC_SIZE) < 0,
         "the doubled file is wrong");
  /* Backward, adjacent ranges: page 1 onto page 0.  */
  in = PAGE, out = 0;
  CHECK_RET (cr_copy_range (fd, &in, fd, &out, PAGE), PAGE);
  CHECK (cr_compare_buf (fd, 0, buf + PAGE, PAGE) < 0
         && cr_compare_buf (fd, PAGE, buf + PAGE, PAGE) < 0,
         "the backward copy is wrong");
  close (fd);
  close (ref);
  return PASS;
}

static enum result
row_wraparound (struct ctx *c)
{
  /* Only a range that wraps past 2^64 from either offset, whatever
     MAX_RW_COUNT and the source's end would make of it.  */
  int src = new_file (c, "src", SRC_SIZE, O_RDWR);
  int dst = new_file (c, "dst", 0, O_RDWR);
  off_t in = 0, out = LLONG_MAX - 10;
  CHECK_ERRNO (cr_copy_range (src, &in, dst, &out, SIZE_MAX), EOVERFLOW);
  in = 1, out = 0;
  CHECK_ERRNO (cr_copy_range (src, &in, dst, &out, SIZE_MAX), EOVERFLOW);
  in = LLONG_MAX, out = 0;
  CHECK_ERRNO (cr_copy_range (src, &in, dst, &out, SIZE_MAX), EOVERFLOW);
  CHECK (in == LLONG_MAX && out == 0 && cr_file_size (dst) == 0,
         "a refused range moved an offset or wrote");
  /* Counts that do not wrap are clamped, then cut at the source's end,
     as copy_file_range(2) does.  */
  in = 0, out = 0;
  CHECK_RET (cr_copy_range (src, &in, dst, &out, SIZE_MAX), SRC_SIZE);
  in = 0, out = 0;
  CHECK_RET (cr_copy_range (src, &in, dst, &out, (size_t) LLONG_MAX + 1),
             SRC_SIZE);
  close (src);
  close (dst);
  return PASS;
}

/* What copy_file_range(2) answers to IN, OUT and COUNT on a fresh pair of
   files named NAME-src, of SRC_BYTES, and NAME-dst: its return value or
   minus its errno; *SIZE gets the destination's size after the call.
   COPY_RANGE_CALL asks copy_range(2) the same instead.  */
static long long
answer (struct ctx *c, char const *name, size_t src_bytes, off_t in,
        off_t out, size_t count, bool copy_range_call, off_t *size)
{
  char sname[64], dname[64];
  snprintf (sname, sizeof sname, "%s-src", name);
  snprintf (dname, sizeof dname, "%s-dst", name);
  int src = new_file (c, sname, src_bytes, O_RDWR);
  int dst = new_file (c, dname, 0, O_RDWR);
  errno = 0;
  long long r = (copy_range_call
                 ? cr_copy_range (src, &in, dst, &out, count)
                 : copy_file_range (src, &in, dst, &out, count, 0));
  if (r < 0)
    r = -errno;
  *size = cr_file_size (dst);
  close (src);
  close (dst);
  return r;
}

/* The two calls answer alike near LLONG_MAX: past the source's end
   nothing is copied, and a destination at the largest file size fails;
   in between, what copy_file_range does (some filesystems copy a small
   source to just below LLONG_MAX, some refuse).  EOVERFLOW is only for
   ranges that wrap past 2^64.  The first and third rows are the two that
   the peer suites check, with their 128 KiB source.  */
static enum result
row_like_copy_file_range (struct ctx *c)
{
  static struct {
    size_t src; off_t in, out; size_t count;
    int want;   /* 0 for 0 bytes, -1 for an error, 1 for any answer */
  } const t[] = {
    { 131072, LLONG_MAX - 65536, 0, 65537, 0 },
    { SRC_SIZE, LLONG_MAX - 10, 0, 100, 0 },
    { 131072, 0, LLONG_MAX - 65536, 65537, 1 },
    { SRC_SIZE, 0, LLONG_MAX - 65536, 65537, 1 },
    { SRC_SIZE, 0, LLONG_MAX - 10, 100, 1 },
    { SRC_SIZE, 0, LLONG_MAX, 1, -1 },
  };
  signal (SIGXFSZ, SIG_IGN);
  for (size_t i = 0; i < sizeof t / sizeof *t; i++)
    {
      off_t cfr_size, cr_size;
      long long cfr = answer (c, "cfr", t[i].src, t[i].in, t[i].out,
                              t[i].count, false, &cfr_size);
      long long cr = answer (c, "cr", t[i].src, t[i].in, t[i].out,
                             t[i].count, true, &cr_size);
      CHECK (cfr == cr && cfr_size == cr_size,
             "in %lld, out %lld, count %zu: copy_file_range gave %lld (%s),"
             " size %lld; copy_range %lld (%s), size %lld",
             (long long) t[i].in, (long long) t[i].out, t[i].count, cfr,
             cfr < 0 ? strerrorname_np (-cfr) : "-", (long long) cfr_size,
             cr, cr < 0 ? strerrorname_np (-cr) : "-", (long long) cr_size);
      CHECK (t[i].want == 1 || (t[i].want == 0 ? cr == 0 : cr < 0),
             "in %lld, out %lld, count %zu: copy_range gave %lld",
             (long long) t[i].in, (long long) t[i].out, t[i].count, cr);
    }
  return PASS;
}

/* No flag is defined: any is EINVAL, before anything is done.  */
static enum result
row_unknown_flags (struct ctx *c)
{
  static unsigned int const flags[] = { 1, 2, 1u << 31, ~0u };
  int src = new_file (c, "src", SRC_SIZE, O_RDWR);
  int dst = new_file (c, "dst", 0, O_RDWR);
  for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
    {
      off_t in = 0, out = 0;
      CHECK_ERRNO (cr_copy_range_flags (src, &in, dst, &out, SRC_SIZE,
                                        flags[i]), EINVAL);
      CHECK (in == 0 && out == 0, "flags %#x moved the offsets", flags[i]);
      CHECK_ERRNO (cr_copy_range_flags (src, NULL, dst, NULL, SRC_SIZE,
                                        flags[i]), EINVAL);
    }
  CHECK (cr_file_size (dst) == 0 && lseek (src, 0, SEEK_CUR) == 0
         && lseek (dst, 0, SEEK_CUR) == 0,
         "a call with unknown flags wrote or moved a file offset");
  close (src);
  close (dst);
  return PASS;
}

/* ---- size limits ---- */

/* The filesystem's largest file size, found with ftruncate, which fails
   with EFBIG beyond it.  */
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

static volatile sig_atomic_t xfsz_signals;

static void
on_xfsz (int sig)
{
  xfsz_signals++;
}

static enum result
row_s_maxbytes (struct ctx *c)
{
  int src = new_file (c, "src", SRC_SIZE, O_RDWR);
  int dst = new_file (c, "dst", 0, O_RDWR);
  off_t max = max_file_size (dst);
  if (max == LLONG_MAX)
    return say (c, SKIP, "the maximum file size is LLONG_MAX here, "
                "so the row near LLONG_MAX covers it");
  signal (SIGXFSZ, on_xfsz);
  off_t in = 0, out = max;
  CHECK_ERRNO (cr_copy_range (src, &in, dst, &out, 10), EFBIG);
  out = max - 5;
  CHECK_RET (cr_copy_range (src, &in, dst, &out, 10), 5);
  CHECK (out == max && cr_file_size (dst) == max,
         "the copy did not stop at the maximum size %lld", (long long) max);
  CHECK (xfsz_signals == 0, "SIGXFSZ was sent for s_maxbytes");
  close (src);
  close (dst);
  return PASS;
}

static enum result
rlimit_fsize (struct ctx *c)
{
  int src = new_file (c, "src", SRC_SIZE, O_RDWR);
  int dst = new_file (c, "dst", 0, O_RDWR);
  struct rlimit rl = { 2 * PAGE, RLIM_INFINITY };
  signal (SIGXFSZ, on_xfsz);
  if (setrlimit (RLIMIT_FSIZE, &rl) != 0)
    cr_die ("setrlimit");
  off_t in = 0, out = 2 * PAGE;
  CHECK_ERRNO (cr_copy_range (src, &in, dst, &out, 10), EFBIG);
  CHECK (xfsz_signals == 1, "%d SIGXFSZ signals, expected 1",
         (int) xfsz_signals);
  /* Straddling the limit copies up to it, as write(2) does.  */
  out = 2 * PAGE - 6;
  CHECK_RET (cr_copy_range (src, &in, dst, &out, 100), 6);
  CHECK (out == 2 * PAGE && xfsz_signals == 1,
         "the straddling copy misbehaved");
  /* Without a handler the signal's default action ends the process.  */
  signal (SIGXFSZ, SIG_DFL);
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    {
      out = 3 * PAGE;
      cr_copy_range (src, &in, dst, &out, 10);
      _exit (0);
    }
  int status;
  waitpid (pid, &status, 0);
  CHECK (WIFSIGNALED (status) && WTERMSIG (status) == SIGXFSZ,
         "SIGXFSZ did not end the process (status %#x)", status);
  return PASS;
}

static enum result
row_rlimit_fsize (struct ctx *c)
{
  return in_child (c, rlimit_fsize);
}

/* ---- inode flags and swap ---- */

/* Set (or clear) FLAG in FD's inode flags; return the errno on failure.  */
static int
set_iflag (int fd, int flag, bool on)
{
  int flags;
  if (ioctl (fd, FS_IOC_GETFLAGS, &flags) != 0)
    return errno;
  flags = on ? flags | flag : flags & ~flag;
  return ioctl (fd, FS_IOC_SETFLAGS, &flags) != 0 ? errno : 0;
}

static enum result
flagged_destination (struct ctx *c, int flag)
{
  int src = new_file (c, "src", SRC_SIZE, O_RDWR);
  int dst = new_file (c, "dst", 100, O_RDWR);
  int err = set_iflag (dst, flag, true);
  if (err)
    return say (c, FAIL, "cannot set the inode flag: %s",
                strerrorname_np (err));
  off_t in = 0, out = 0;
  errno = 0;
  ssize_t r = cr_copy_range (src, &in, dst, &out, 10);
  int copy_errno = errno;
  off_t size = cr_file_size (dst);
  if (set_iflag (dst, flag, false))
    cr_die ("clear the inode flag");
  CHECK (r == -1 && copy_errno == EPERM, "returned %zd (%s), expected EPERM",
         r, r < 0 ? strerrorname_np (copy_errno) : "no error");
  CHECK (size == 100, "the destination changed size");
  close (src);
  close (dst);
  return PASS;
}

static enum result
row_immutable (struct ctx *c)
{
  return flagged_destination (c, FS_IMMUTABLE_FL);
}

static enum result
row_append_only (struct ctx *c)
{
  return flagged_destination (c, FS_APPEND_FL);
}

/* A swap file of 1 MiB: zeros with a version 1 swap header.  */
static int
new_swap_file (struct ctx *c, char const *name)
{
  enum { SIZE = 1 << 20 };
  int fd = new_file (c, name, 0, O_RDWR);
  set_iflag (fd, FS_NOCOW_FL, true); /* btrfs wants it; others refuse */
  static char buf[SIZE];
  memset (buf, 0, sizeof buf);
  uint32_t version = 1, last_page = SIZE / PAGE - 1;
  memcpy (buf + 1024, &version, 4);
  memcpy (buf + 1028, &last_page, 4);
  memcpy (buf + PAGE - 10, "SWAPSPACE2", 10);
  cr_pwrite_all (fd, buf, SIZE, 0);
  if (fsync (fd) != 0)
    cr_die ("fsync");
  return fd;
}

static enum result
row_swap_file (struct ctx *c)
{
  int swap = new_swap_file (c, "swap");
  int other = new_file (c, "other", SRC_SIZE, O_RDWR);
  if (swapon (path (c, "swap"), 0) != 0)
    {
      if (c->fs_type == TMPFS_MAGIC && errno == EINVAL)
        return say (c, SKIP, "tmpfs cannot hold a swap file");
      return say (c, FAIL, "swapon: %s", strerrorname_np (errno));
    }
  off_t in = 0, out = 0;
  errno = 0;
  ssize_t from = cr_copy_range (swap, &in, other, &out, 10);
  int from_errno = errno;
  errno = 0;
  ssize_t to = cr_copy_range (other, &in, swap, &out, 10);
  int to_errno = errno;
  if (swapoff (path (c, "swap")) != 0)
    cr_die ("swapoff");
  CHECK (from == -1 && from_errno == ETXTBSY,
         "from the swap file: %zd (%s), expected ETXTBSY", from,
         strerrorname_np (from_errno));
  CHECK (to == -1 && to_errno == ETXTBSY,
         "to the swap file: %zd (%s), expected ETXTBSY", to,
         strerrorname_np (to_errno));
  close (swap);
  close (other);
  return PASS;
}

/* ---- read-only mount ---- */

/* A read-only mount can never be a copy_range destination: a file cannot
   be opened for writing through it (EROFS), and a file opened for writing
   keeps its mount writable (remounting gives EBUSY).  In this kernel no
   scratch filesystem turns read-only under an open writer either (ext4's
   errors=remount-ro no longer sets SB_RDONLY), so the EROFS check in
   copy_range, which only such a change or an emergency remount reaches,
   is not exercised here.  What the row checks is that only the
   destination's mount must be writable: a source read through a
   read-only bind mount of the same filesystem is copied, not refused
   with EROFS or EXDEV.  */
static enum result
row_read_only_mount (struct ctx *c)
{
  char ro[PATH_MAX];
  snprintf (ro, sizeof ro, "%s", path (c, "ro"));
  close (new_file (c, "src", SRC_SIZE, O_RDWR));
  int dst = new_file (c, "dst", 0, O_RDWR);
  mkdir (ro, 0755);
  if (mount (c->dir, ro, NULL, MS_BIND, NULL) != 0)
    cr_die ("bind mount %s", c->dir);
  if (mount (NULL, ro, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) != 0)
    cr_die ("remount %s read-only", ro);

  char src_p[PATH_MAX + 8], dst_p[PATH_MAX + 8];
  snprintf (src_p, sizeof src_p, "%s/src", ro);
  snprintf (dst_p, sizeof dst_p, "%s/dst", ro);
  int src = open (src_p, O_RDONLY);
  errno = 0;
  int dst_ro = open (dst_p, O_WRONLY);
  int open_errno = errno;
  off_t in = 0, out = 0;
  errno = 0;
  ssize_t r = src < 0 ? -2 : cr_copy_range (src, &in, dst, &out, SRC_SIZE);
  int copy_errno = errno;
  int src_rw = reopen (c, "src", O_RDONLY);
  bool same = r == SRC_SIZE
              && cr_compare_ranges (src_rw, 0, dst, 0, SRC_SIZE) < 0;
  if (src >= 0)
    close (src);
  if (dst_ro >= 0)
    close (dst_ro);
  close (src_rw);
  close (dst);
  if (umount (ro) != 0)
    cr_die ("umount %s", ro);
  CHECK (dst_ro < 0 && open_errno == EROFS,
         "opening for writing through the read-only mount gave %s",
         dst_ro < 0 ? strerrorname_np (open_errno) : "a descriptor");
  CHECK (src >= 0, "cannot open the source through the read-only mount");
  CHECK (r == SRC_SIZE, "returned %zd (%s), expected %d", r,
         r < 0 ? strerrorname_np (copy_errno) : "short", SRC_SIZE);
  CHECK (same, "the copied bytes differ");
  return PASS;
}

/* ---- side effects ---- */

/* Drop CAP_FSETID, which keeps the set-ID bits across writes.  */
static void
drop_fsetid (void)
{
  struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
  struct __user_cap_data_struct data[2];
  if (syscall (SYS_capget, &hdr, data) != 0)
    cr_die ("capget");
  data[CAP_TO_INDEX (CAP_FSETID)].effective &= ~CAP_TO_MASK (CAP_FSETID);
  if (syscall (SYS_capset, &hdr, data) != 0)
    cr_die ("capset");
}

/* The mode a file of MODE in the folder SUB of the run's directory has
   after a write(2) or a copy_range of SIZE bytes.  */
static mode_t
mode_after (struct ctx *c, char const *sub, mode_t mode, bool use_copy_range,
            size_t size)
{
  char src_name[64], dst_name[64];
  snprintf (src_name, sizeof src_name, "%s/src", sub);
  snprintf (dst_name, sizeof dst_name, "%s/dst", sub);
  int src = new_file (c, src_name, size, O_RDWR);
  int dst = new_file (c, dst_name, 10, O_RDWR);
  if (fchmod (dst, mode) != 0)
    cr_die ("fchmod");
  off_t in = 0, out = 0;
  if (use_copy_range)
    {
      while (out < (off_t) size)
        if (cr_copy_range (src, &in, dst, &out, size - out) <= 0)
          cr_die ("copy_range");
    }
  else
    {
      char *buf = calloc (size, 1);
      if (!buf)
        cr_die ("calloc");
      cr_pwrite_all (dst, buf, size, 0);
      free (buf);
    }
  struct stat st;
  if (fstat (dst, &st) != 0)
    cr_die ("fstat");
  close (src);
  close (dst);
  return st.st_mode & 07777;
}

/* Check the set-ID bits of files in SUB after a copy_range and after a
   write(2) of SIZE bytes, for a process that lacks CAP_FSETID.  Every
   mismatch is reported, and which rule it breaks: copy_range must leave
   the mode that write(2) leaves, and both must clear the bits.  */
static enum result
setid_bits_in (struct ctx *c, char const *sub, size_t size)
{
  static struct { mode_t before, after; } const cases[] = {
    { 04755, 0755 },            /* set-user-ID goes */
    { 02775, 0775 },            /* set-group-ID with group exec goes */
    { 06775, 0775 },
    { 02765, 02765 },           /* without group exec, it stays */
  };
  char unlike_write[WHY_SIZE / 2] = "", kept[WHY_SIZE / 2] = "";
  size_t n_unlike = 0, n_kept = 0;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    {
      unsigned before = cases[i].before;
      unsigned got = mode_after (c, sub, before, true, size);
      unsigned by_write = mode_after (c, sub, before, false, size);
      if (got != by_write)
        n_unlike += snprintf (unlike_write + n_unlike,
                              sizeof unlike_write - n_unlike,
                              " %04o became %04o (by write(2) %04o);",
                              before, got, by_write);
      else if (got != cases[i].after)
        n_kept += snprintf (kept + n_kept, sizeof kept - n_kept,
                            " %04o became %04o;", before, got);
      if (n_unlike >= sizeof unlike_write || n_kept >= sizeof kept)
        cr_die ("set-ID report too long");
    }
  CHECK (!n_unlike, "%zu bytes, unlike write(2):%s", size, unlike_write);
  CHECK (!n_kept, "%zu bytes, as write(2) leaves them, but not cleared:%s",
         size, kept);
  return PASS;
}

static enum result
setid_bits (struct ctx *c)
{
  drop_fsetid ();
  return setid_bits_in (c, ".", 5);
}

static enum result
row_setid_cleared (struct ctx *c)
{
  return in_child (c, setid_bits);
}

/* The same for an unprivileged user owning the files, which on NFS is
   also unprivileged on the server (root's requests keep CAP_FSETID
   there), for a small copy and a large one.  The user reaches its folder
   by its full path, as any program does: every folder from / down must be
   searchable by others, as on a real system (the guest's image makes /
   so), and only the run's own folder, which mkdtemp made 0700, is opened
   up here.  */
enum { NOBODY = 65534 };

static enum result
setid_bits_unprivileged (struct ctx *c)
{
  char *sub = strdup (path (c, "unprivileged"));
  if (!sub || chmod (c->dir, 0755) != 0 || mkdir (sub, 0755) != 0
      || chown (sub, NOBODY, NOBODY) != 0)
    cr_die ("prepare %s", sub ? sub : "a folder");
  c->dir = sub;                 /* this process's copy of the context */
  if (setgroups (0, NULL) != 0 || setgid (NOBODY) != 0
      || setuid (NOBODY) != 0)
    cr_die ("become user %d", NOBODY);
  if (access (sub, W_OK | X_OK) != 0)
    return say (c, FAIL, "user %d cannot reach %s by its path: %s", NOBODY,
                sub, strerrorname_np (errno));
  /* Large enough for the NFS client to ask for an asynchronous COPY,
     which nfsd runs in a thread of its own.  */
  enum result r = setid_bits_in (c, ".", 5);
  return r != PASS ? r : setid_bits_in (c, ".", 8 << 20);
}

static enum result
row_setid_unprivileged (struct ctx *c)
{
  return in_child (c, setid_bits_unprivileged);
}

/* Wait until the clock that stamps inodes (the kernel's coarse clock) is
   past T, so that a change made from now on gets a later ctime than T.  */
static void
wait_for_clock_past (struct timespec t)
{
  for (;;)
    {
      struct timespec now;
      if (clock_gettime (CLOCK_REALTIME_COARSE, &now) != 0)
        cr_die ("clock_gettime");
      if (now.tv_sec > t.tv_sec
          || (now.tv_sec == t.tv_sec && now.tv_nsec > t.tv_nsec))
        return;
      nanosleep (&(struct timespec) { 0, 1000 * 1000 }, NULL);
    }
}

static enum result
row_times (struct ctx *c)
{
  int src = new_file (c, "src", SRC_SIZE, O_RDWR);
  int dst = new_file (c, "dst", 0, O_RDWR);
  struct timespec past[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
  struct stat before, after;
  if (futimens (dst, past) != 0 || fstat (dst, &before) != 0)
    cr_die ("futimens");
  wait_for_clock_past (before.st_ctim);
  off_t in = 0, out = 0;
  CHECK_RET (cr_copy_range (src, &in, dst, &out, 100), 100);
  if (fstat (dst, &after) != 0)
    cr_die ("fstat");
  CHECK (after.st_mtim.tv_sec > 1000000000, "mtime was not updated");
  CHECK (after.st_ctim.tv_sec > before.st_ctim.tv_sec
         || (after.st_ctim.tv_sec == before.st_ctim.tv_sec
             && after.st_ctim.tv_nsec > before.st_ctim.tv_nsec),
         "ctime was not updated");
  close (src);
  close (dst);
  return PASS;
}

static enum result
row_inotify (struct ctx *c)
{
  int src = new_file (c, "src", SRC_SIZE, O_RDWR);
  int dst = new_file (c, "dst", 0, O_RDWR);
  int ino = inotify_init1 (IN_NONBLOCK);
  if (ino < 0)
    cr_die ("inotify_init1");
  int wd_src = inotify_add_watch (ino, path (c, "src"), IN_ACCESS);
  int wd_dst = inotify_add_watch (ino, path (c, "dst"), IN_MODIFY);
  if (wd_src < 0 || wd_dst < 0)
    cr_die ("inotify_add_watch");
  off_t in = 0, out = 0;
  CHECK_RET (cr_copy_range (src, &in, dst, &out, 100), 100);
  char buf[4096] __attribute__ ((aligned (8)));
  ssize_t n = read (ino, buf, sizeof buf);
  bool access = false, modify = false;
  for (ssize_t i = 0; i < n; )
    {
      struct inotify_event *ev = (struct inotify_event *) (buf + i);
      access |= ev->wd == wd_src && (ev->mask & IN_ACCESS);
      modify |= ev->wd == wd_dst && (ev->mask & IN_MODIFY);
      i += sizeof *ev + ev->len;
    }
  CHECK (access, "no IN_ACCESS on the source");
  CHECK (modify, "no IN_MODIFY on the destination");
  close (ino);
  close (src);
  close (dst);
  return PASS;
}

/* rchar, wchar, syscr, syscw of this process.  */
static bool
read_io (unsigned long long v[4])
{
  FILE *f = fopen ("/proc/self/io", "r");
  if (!f)
    return false;
  int n = fscanf (f, "rchar: %llu wchar: %llu syscr: %llu syscw: %llu",
                  &v[0], &v[1], &v[2], &v[3]);
  fclose (f);
  return n == 4;
}

static enum result
row_io_accounting (struct ctx *c)
{
  int src = new_file (c, "src", SRC_SIZE, O_RDWR);
  int dst = new_file (c, "dst", 0, O_RDWR);
  unsigned long long b0[4], b[4], a[4];
  if (!read_io (b0))
    return say (c, SKIP, "no /proc/self/io");
  /* Reading /proc/self/io is itself counted: B - B0 measures that, so
     that A - B minus it is what the copy added.  */
  if (!read_io (b))
    cr_die ("/proc/self/io");
  off_t in = 0, out = 0;
  CHECK_RET (cr_copy_range (src, &in, dst, &out, SRC_SIZE), SRC_SIZE);
  if (!read_io (a))
    cr_die ("/proc/self/io");
  long long d[4];
  for (int i = 0; i < 4; i++)
    d[i] = (long long) (a[i] - b[i]) - (long long) (b[i] - b0[i]);
  /* rchar's baseline varies with the length of the numbers printed.  */
  CHECK (d[0] >= SRC_SIZE - 8 && d[0] <= SRC_SIZE + 8,
         "rchar grew by %lld more than the baseline, expected %d", d[0],
         SRC_SIZE);
  CHECK (d[1] == SRC_SIZE, "wchar grew by %lld, expected %d", d[1],
         SRC_SIZE);
  CHECK (d[2] == 1, "syscr grew by %lld more than the baseline, "
         "expected 1", d[2]);
  CHECK (d[3] == 1, "syscw grew by %lld, expected 1", d[3]);
  close (src);
  close (dst);
  return PASS;
}

static struct
{
  char const *name;
  enum result (*run) (struct ctx *);
} const rows[] = {
  { "bad descriptor is EBADF", row_bad_descriptors },
  { "wrong access mode is EBADF", row_access_modes },
  { "O_APPEND destination is EBADF", row_o_append },
  { "directory is EISDIR", row_directory },
  { "pipe is EINVAL", row_pipe },
  { "FIFO is EINVAL", row_fifo },
  { "character device is EINVAL", row_character_device },
  { "other filesystem is EXDEV", row_other_filesystem },
  { "offset pointers advance, file offsets stay", row_pointer_offsets },
  { "NULL offsets use and advance file offsets", row_null_offsets },
  { "zero count copies nothing", row_count_zero },
  { "source EOF shortens the copy", row_source_eof },
  { "negative offset is EINVAL", row_negative_offset },
  { "bad offset pointer is EFAULT", row_bad_offset_pointer },
  { "same-file overlap is EINVAL", row_same_file_overlap },
  { "same-file copy without overlap", row_same_file_no_overlap },
  { "range wrapping past 2^64 is EOVERFLOW", row_wraparound },
  { "near LLONG_MAX as copy_file_range", row_like_copy_file_range },
  { "unknown flags are EINVAL", row_unknown_flags },
  { "past s_maxbytes is EFBIG", row_s_maxbytes },
  { "RLIMIT_FSIZE is EFBIG with SIGXFSZ", row_rlimit_fsize },
  { "immutable destination is EPERM", row_immutable },
  { "append-only destination is EPERM", row_append_only },
  { "active swap file is ETXTBSY", row_swap_file },
  { "source on a read-only mount is copied", row_read_only_mount },
  { "suid and sgid cleared as by write", row_setid_cleared },
  { "suid and sgid cleared for an unprivileged owner",
    row_setid_unprivileged },
  { "mtime and ctime updated", row_times },
  { "inotify IN_ACCESS and IN_MODIFY", row_inotify },
  { "rchar, wchar, syscr, syscw accounted", row_io_accounting },
};

int
main (int argc, char **argv)
{
  static char const *const label[] = { "PASS", "FAIL", "SKIP" };
  cr_start (argc, argv, "FSNAME DIR");

  struct ctx c = { .fs = argv[1] };
  c.dir = cr_make_dir (argv[2], "cr-abi");
  c.why = mmap (NULL, WHY_SIZE, PROT_READ | PROT_WRITE,
                MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (c.why == MAP_FAILED)
    cr_die ("mmap");
  struct statfs sf;
  if (statfs (c.dir, &sf) != 0)
    cr_die ("statfs %s", c.dir);
  c.fs_type = sf.f_type;
  uint64_t seed = cr_seed ();
  seed_state = seed;
  printf ("# %s on %s, seed %#llx\n", c.fs, c.dir, (unsigned long long) seed);

  int count[3] = { 0 };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
    {
      c.why[0] = '\0';
      enum result r = rows[i].run (&c);
      /* Close what the row left open (a failing row returns early), so
         that no later unlink meets an open file: on NFS that would leave
         a busy .nfs* file behind and the directory could not go.  */
      if (close_range (3, ~0U, 0) != 0)
        cr_die ("close_range");
      count[r]++;
      printf ("%s: %s: %s%s%s\n", label[r], c.fs, rows[i].name,
              c.why[0] ? ": " : "", c.why);
      fflush (stdout);
    }
  printf ("# %s: %d passed, %d failed, %d skipped\n", c.fs, count[PASS],
          count[FAIL], count[SKIP]);
  if (!cr_remove_tree (c.dir))
    {
      printf ("FAIL: %s: cannot remove %s after the rows\n", c.fs, c.dir);
      count[FAIL]++;
    }
  free (c.dir);
  return (count[FAIL] ? CR_EXIT_FAIL
          : count[PASS] ? CR_EXIT_PASS : CR_EXIT_SKIP);
}
