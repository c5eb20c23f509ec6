/* Random-operation stress of copy_range(2), in the spirit of fsx: a
   seeded sequence of operations on a few files, checked against a model.
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

/* Usage: cr-stress [-s SEED] [-n OPS] [-f FILES] [-p PROCS] [-m MAXSIZE]
                    [-l LOGLEN] [-C] [-c] [-h] FSNAME DIR

   Makes a fresh directory under DIR with FILES files (default 3) and runs
   OPS operations (default 2000) on them, drawn from a generator seeded
   with SEED (default 1).  Files stay under MAXSIZE bytes (default 1 MiB,
   a multiple of 4096).  -C calls copy_file_range(2) where copy_range(2)
   would be called: the same contract for what this program checks, so
   that the model can be run on a kernel without copy_range.  -c and -h
   say that this filesystem clones and punches holes: the run fails if
   it does not, or if no clone was accepted.

   One process (-p 1, the default): every operation is applied to a copy
   of each file in memory too.  The operations: copy_range across two
   files and within one file (ranges that do not overlap), each offset
   NULL (the file position, set with lseek first) or a pointer, from
   inside the source or past its end, looped while it returns less than
   asked (a short count is progress, and the model takes exactly what
   was returned; 0 is allowed only at the source's end); write at the
   file position; pwrite inside a file and past its end; ftruncate up and
   down; fallocate punching a hole (skipped where the filesystem says
   EOPNOTSUPP); a write through a shared mapping; FICLONERANGE with
   block-aligned ranges (EOPNOTSUPP, EXDEV and ENOTTY turn clones off for
   the run; EINVAL is a refusal, after which the files must be as the
   model has them; an accepted clone must match the model); fsync and
   fdatasync; reads of a range; and a cycle that closes and reopens every
   file (always on NFS), drops the page cache when root in the guest, and
   compares every file with the model.  After every copy and clone the
   destination's size and the range written, with a margin, are compared
   with the model; at the end each file is read back whole, before and
   after a cache drop.  On a mismatch the program prints the seed, the
   operation's index and the last LOGLEN (default 50) operations, with
   the command line that replays the run, and exits with status 1.

   PROCS processes (-p K, K > 1): the files are shared, and each process
   runs its own seeded sequence of the same kinds of operations (without
   the model), so that copies race writes, truncates, hole punches,
   mapped writes and clones.  The operations run in rounds; between two
   rounds no process runs, every file is read whole, written back
   (fsync), the page cache is dropped (when root in the guest; on NFS the
   file is opened afresh in any case), and it is read again.  OPS counts
   the operations of all processes together.

   The invariant, checked by every read in a round and by the reads
   between rounds: every byte ever read is one that some process wrote.
   Every offset and length is a multiple of 8 (clones: of 4096), so that
   writes, copies and clones move whole 8-byte words from one aligned
   place to another.  Each word a process writes is a tag: byte K of the
   word (K = 0..7) is K << 5 | (5 bits of a 40-bit payload), and the
   payload holds the writer (1..PROCS), the file and the word's offset
   where it was written, and 11 check bits, a hash of those and of a salt
   made from the seed.  A word read back, at any offset of any file, must
   then be one of:
     - all zero (a hole, a truncated tail grown again, a punched range);
     - a tag whose check bits are right (a word some process wrote,
       wherever the copies have taken it since);
     - a torn word: every byte zero or carrying its own position K in its
       top 3 bits.  Linux does not make a buffered read atomic against a
       write of the same bytes, nor a store through a mapping atomic
       against either, so a copy that reads a word while it is written can
       carry away half of each; such words are counted, not failed.
   Anything else (a byte in the wrong position within its word, as a copy
   that lands off by a few bytes leaves; data from other files or from
   earlier users of the disk's blocks, which is neither zero nor tags;
   a hole that is not zero) is a failure.  Between rounds, with no writer
   running, the second read must also equal the first: what the page
   cache held is what the filesystem wrote.  The processes' interleaving
   is not reproducible, but each process's sequence is, from the seed.  */

#include <config.h>

#include "cr-test.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>

enum
{
  BS = 4096,                    /* clone alignment, and "a page" */
  MAX_FILES = 16,
  MAX_PROCS = 31,               /* writer numbers fit in 5 bits */
  LOG_LINE = 256,
  ROUND_OPS = 250,              /* operations per process per round */
  MARGIN = 64                   /* bytes checked beside a written range */
};

struct sfile
{
  int id;
  int fd;
  char *path;
  unsigned char *data;          /* the model: zero past size */
  off_t size;
};

/* The options.  */
static char const *fsname;
static char const *dirarg;
static uint64_t seed = 1;
static long nops = 2000;
static int nfiles = 3;
static int nprocs = 1;
static int loglen = 50;
static off_t max_size = 1 << 20;
static size_t max_len;
static bool use_cfr;
static bool need_clone, need_punch;

/* What the filesystem and the process may do.  */
static bool is_nfs;
static bool can_drop;
static bool punch_ok = true;
static bool clone_ok = true;

static char *dir;
static struct sfile files[MAX_FILES];
static unsigned char *iobuf;    /* max_size + BS bytes */
static unsigned char *wbuf;     /* data to write, max_len bytes */

/* The running sequence: its generator and the index of the operation.
   ME is 0 in the model run and in the parent, 1..PROCS in a child.  */
static uint64_t rng;
static long op;
static int me;

/* ---- The log of the last operations ----------------------------------- */

/* A ring of the last LOGLEN operations' lines.  In a multi-process run
   the rings live in memory shared with the parent, one per process, so
   that the parent can print them when a check between rounds fails.  */
struct ring
{
  long last;                    /* the newest line's operation, or -1 */
  char lines[];                 /* loglen lines of LOG_LINE bytes */
};

static struct ring *rings;      /* nprocs + 1 rings, ring 0 the parent's */
static size_t ring_bytes;

static struct ring *
ring_of (int who)
{
  return (struct ring *) ((char *) rings + who * ring_bytes);
}

static char *
ring_line (struct ring *r, long n)
{
  return r->lines + (n % loglen) * LOG_LINE;
}

static void log_op (char const *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));
static void log_more (char const *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));
static _Noreturn void fail (char const *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));

/* Start the current operation's line.  */
static void
log_op (char const *fmt, ...)
{
  struct ring *r = ring_of (me);
  char *line = ring_line (r, op);
  int n = snprintf (line, LOG_LINE, "%ld: ", op);
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (line + n, LOG_LINE - n, fmt, ap);
  va_end (ap);
  r->last = op;
}

/* Add to the current operation's line.  */
static void
log_more (char const *fmt, ...)
{
  char *line = ring_line (ring_of (me), op);
  size_t n = strlen (line);
  if (n + 1 >= LOG_LINE)
    return;
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (line + n, LOG_LINE - n, fmt, ap);
  va_end (ap);
}

static void
print_ring (int who)
{
  struct ring *r = ring_of (who);
  if (r->last < 0)
    return;
  long first = r->last - loglen + 1 > 0 ? r->last - loglen + 1 : 0;
  if (nprocs > 1)
    printf ("# process %d, operations %ld to %ld:\n", who, first, r->last);
  else
    printf ("# the last operations:\n");
  for (long i = first; i <= r->last; i++)
    printf ("#   %s\n", ring_line (r, i));
}

static void
print_replay (void)
{
  printf ("# replay: cr-stress -s %#llx -n %ld -f %d -p %d -m %lld -l %d%s"
          " %s DIR\n", (unsigned long long) seed,
          nprocs > 1 ? nops : op + 1, nfiles, nprocs,
          (long long) max_size, loglen, use_cfr ? " -C" : "", fsname);
  if (nprocs > 1)
    printf ("# (each process's sequence is the same again; the"
            " interleaving is not)\n");
}

/* Report a mismatch or an unexpected error of the kernel, and exit 1.  */
static _Noreturn void
fail (char const *fmt, ...)
{
  va_list ap;
  fflush (stdout);
  printf ("FAIL: %s: seed %#llx, ", fsname, (unsigned long long) seed);
  if (me)
    printf ("process %d, op %ld: ", me, op);
  else if (nprocs > 1)
    printf ("after round %ld: ", op / ROUND_OPS);
  else
    printf ("op %ld: ", op);
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  putchar ('\n');
  print_replay ();
  if (me || nprocs == 1)
    print_ring (me);
  else
    for (int i = 1; i <= nprocs; i++)
      print_ring (i);
  fflush (stdout);
  exit (CR_EXIT_FAIL);
}

/* ---- Random choices ----------------------------------------------------- */

static uint64_t
rnd (uint64_t n)
{
  return cr_random_below (&rng, n);
}

/* A well-mixed function of X (the finalizer of splitmix64).  */
static uint64_t
mix (uint64_t x)
{
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9u;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebu;
  x ^= x >> 31;
  return x;
}

/* The unit of every offset and length: 1 in the model run, a word in a
   multi-process run.  */
static off_t
unit (void)
{
  return nprocs > 1 ? 8 : 1;
}

static off_t
round_up (off_t x, off_t to)
{
  return (x + to - 1) / to * to;
}

/* A length from 1 to MAX_LEN, and an offset below LIMIT (cr-test.h).  */
static size_t
pick_len (void)
{
  return cr_pick_len (&rng, max_len, unit ());
}

static off_t
pick_off (off_t limit)
{
  return cr_pick_off (&rng, limit, unit ());
}

static struct sfile *
pick_file (void)
{
  return &files[rnd (nfiles)];
}

/* A file other than F, or F itself when there is only one.  */
static struct sfile *
other_file (struct sfile *f)
{
  if (nfiles < 2)
    return f;
  int i = rnd (nfiles - 1);
  return &files[i < f->id ? i : i + 1];
}

static bool
overlap (off_t a, off_t b, off_t len)
{
  return a < b + len && b < a + len;
}

/* ---- System calls ----------------------------------------------------- */

static ssize_t
call_copy (int fd_in, off_t *pos_in, int fd_out, off_t *pos_out, size_t len)
{
  if (use_cfr)
    return copy_file_range (fd_in, pos_in, fd_out, pos_out, len, 0);
  return cr_copy_range (fd_in, pos_in, fd_out, pos_out, len);
}

static char const *
copy_name (void)
{
  return use_cfr ? "copy_file_range" : "copy_range";
}

/* How cr_model_copy copies and reports; main sets the name.  */
static struct cr_model_hooks hooks =
  { .call = call_copy, .note = log_more, .fail = fail };

/* Read up to LEN bytes of FD at OFF into BUF, stopping only at the end of
   the file; return the count.  */
static size_t
read_at (int fd, unsigned char *buf, size_t len, off_t off)
{
  size_t got = 0;
  while (got < len)
    {
      ssize_t n = pread (fd, buf + got, len - got, off + got);
      if (n < 0)
        fail ("pread at %lld: %s", (long long) (off + got),
              strerror (errno));
      if (n == 0)
        break;
      got += n;
    }
  return got;
}

static off_t
size_of (int fd, bool dont_sync)
{
  struct statx stx;
  if (statx (fd, "", AT_EMPTY_PATH | (dont_sync ? AT_STATX_DONT_SYNC : 0),
             STATX_SIZE, &stx) != 0)
    fail ("statx: %s", strerror (errno));
  return stx.stx_size;
}

static void
open_file (struct sfile *f, int flags)
{
  f->fd = open (f->path, O_RDWR | flags, 0644);
  if (f->fd < 0)
    fail ("open %s: %s", f->path, strerror (errno));
}

static void
close_file (struct sfile *f)
{
  if (close (f->fd) != 0)
    fail ("close file %d: %s", f->id, strerror (errno));
  f->fd = -1;
}

/* Close and reopen every file.  */
static void
reopen_all (void)
{
  for (int i = 0; i < nfiles; i++)
    {
      close_file (&files[i]);
      open_file (&files[i], 0);
    }
}

/* Drop the clean pages of the page cache, where allowed.  */
static void
drop_caches (void)
{
  if (!can_drop)
    return;
  int fd = open ("/proc/sys/vm/drop_caches", O_WRONLY);
  if (fd < 0 || write (fd, "3\n", 2) != 2 || close (fd) != 0)
    cr_die ("/proc/sys/vm/drop_caches");
}

/* Fail if the filesystem was to clone or punch holes and did not.  */
static void
require (bool clones, long cloned, bool punches)
{
  if (need_clone && !clones)
    fail ("FICLONERANGE is not supported here, but it should be (-c)");
  if (need_clone && !cloned)
    fail ("no FICLONERANGE was accepted (-c)");
  if (need_punch && !punches)
    fail ("punching a hole is not supported here, but it should be (-h)");
}

/* ---- The model run: checking the files ---------------------------------- */

/* Compare file F's size, and its bytes in [FROM, TO), with the model.  */
static void
check_range (struct sfile *f, off_t from, off_t to, bool dont_sync)
{
  off_t size = size_of (f->fd, dont_sync);
  if (size != f->size)
    fail ("file %d has size %lld, the model %lld", f->id, (long long) size,
          (long long) f->size);
  if (from < 0)
    from = 0;
  if (to > f->size)
    to = f->size;
  if (from >= to)
    return;
  size_t len = to - from;
  size_t got = read_at (f->fd, iobuf, len, from);
  if (got != len)
    fail ("file %d: read %zu bytes at %lld, the model has %zu", f->id, got,
          (long long) from, len);
  if (memcmp (iobuf, f->data + from, len) == 0)
    return;
  size_t i = 0, differ = 0, last = 0;
  while (iobuf[i] == f->data[from + i])
    i++;
  for (size_t j = i; j < len; j++)
    if (iobuf[j] != f->data[from + j])
      {
        differ++;
        last = j;
      }
  fail ("file %d: byte %lld is %#x, the model's %#x; %zu bytes differ"
        " in %lld..%lld", f->id, (long long) (from + i), iobuf[i],
        f->data[from + i], differ, (long long) (from + i),
        (long long) (from + last));
}

/* Compare all of file F with the model, and see that it ends there.  */
static void
check_whole (struct sfile *f, bool dont_sync)
{
  check_range (f, 0, f->size, dont_sync);
  unsigned char c;
  if (read_at (f->fd, &c, 1, f->size) != 0)
    fail ("file %d: a byte can be read at %lld, the model's end",
          f->id, (long long) f->size);
}

/* ---- The operations --------------------------------------------------- */

/* Each run draws its operations from a table of them (see step), whose
   entries give a function some of these flags.  Functions named op_*
   serve both kinds of run; model_* and multi_* the one kind.  */
enum
{
  SAME_FILE = 1,                /* copy within one file */
  AT_POS = 2,                   /* write(2) at the file position */
  PAST_EOF = 4,                 /* write starting past the end of file */
  GROW = 8,                     /* ftruncate to a larger size */
  MAYBE_MSYNC = 16,             /* mapped write: msync at times */
  MAYBE_DATASYNC = 32           /* fdatasync at times, not fsync */
};

/* The size an operation's choices start from: the model's, or in a
   multi-process run the file's as it is now.  */
static off_t
current_size (struct sfile *f)
{
  return nprocs > 1 ? size_of (f->fd, true) : f->size;
}

/* ---- The model run: the operations ------------------------------------ */

/* Copy LEN bytes of IN at IN_OFF to OUT at OUT_OFF (through the file
   position where NULL_IN or NULL_OUT is set), and check the result.  */
static void
model_copy (struct sfile *in, off_t in_off, bool null_in,
            struct sfile *out, off_t out_off, bool null_out, size_t len)
{
  off_t avail = in_off < in->size ? in->size - in_off : 0;
  off_t want = avail < (off_t) len ? avail : (off_t) len;
  log_op ("%s %d@%lld%s -> %d@%lld%s len %zu (sizes %lld, %lld),"
          " expect %lld", copy_name (), in->id, (long long) in_off,
          null_in ? " (NULL)" : "", out->id, (long long) out_off,
          null_out ? " (NULL)" : "", len, (long long) in->size,
          (long long) out->size, (long long) want);
  cr_model_copy (&hooks, in->fd, in_off, null_in, out->fd, out_off, null_out,
                 len, want);
  /* Apply exactly what the calls reported done.  */
  memmove (out->data + out_off, in->data + in_off, want);
  if (want && out_off + want > out->size)
    out->size = out_off + want;
  check_range (out, out_off - MARGIN, out_off + want + MARGIN, true);
  if (in == out)
    check_range (in, in_off, in_off + want, true);
}

static void
model_truncate (unsigned how)
{
  struct sfile *f = pick_file ();
  off_t size;
  if (how & GROW && f->size < max_size)
    size = f->size + 1 + pick_off (max_size - f->size);
  else
    size = pick_off (f->size + 1);
  log_op ("ftruncate %d from %lld to %lld", f->id, (long long) f->size,
          (long long) size);
  if (ftruncate (f->fd, size) != 0)
    fail ("ftruncate: %s", strerror (errno));
  cr_model_set_size (f->data, &f->size, size);
}

static void
model_punch (unsigned how)
{
  struct sfile *f = pick_file ();
  off_t off = pick_off (f->size + BS < max_size ? f->size + BS : max_size);
  size_t len = pick_len ();
  if (off + (off_t) len > max_size)
    len = max_size - off;
  log_op ("punch hole %d@%lld len %zu (size %lld)", f->id, (long long) off,
          len, (long long) f->size);
  if (!punch_ok)
    {
      log_more (": not supported here");
      return;
    }
  if (fallocate (f->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off,
                 len) != 0)
    {
      if (errno == EOPNOTSUPP)
        {
          punch_ok = false;
          log_more (": not supported here");
          printf ("# %s: punching holes is not supported\n", fsname);
          return;
        }
      fail ("fallocate (punch hole): %s", strerror (errno));
    }
  if (off < f->size)
    memset (f->data + off, 0,
            (off + (off_t) len < f->size ? off + (off_t) len : f->size) - off);
  check_range (f, off - MARGIN, off + len + MARGIN, true);
}

/* Whether ERR from FICLONERANGE says that this filesystem, or this pair
   of files, does not clone at all.  */
static bool
clone_unsupported (int err)
{
  return err == EOPNOTSUPP || err == EXDEV || err == ENOTTY;
}

static void
model_clone (unsigned how)
{
  struct sfile *in = pick_file ();
  struct sfile *out = nfiles > 1 && rnd (4) ? other_file (in) : in;
  bool to_eof = rnd (4) == 0;
  off_t src = rnd (in->size / BS + 1) * BS;
  off_t len;
  if (to_eof)
    len = in->size - src;
  else
    {
      len = (1 + rnd (max_len / BS)) * BS;
      if (src + len > in->size)
        len = (in->size - src) / BS * BS;
    }
  off_t alen = round_up (len, BS);
  off_t lo = 0, hi = max_size - alen;
  if (to_eof)
    {
      /* The source's partial last block may not land inside the
         destination: the range must reach the destination's end.  */
      lo = out->size > len ? round_up (out->size - len, BS) : 0;
    }
  else if (round_up (out->size, BS) + 4 * BS < hi)
    hi = round_up (out->size, BS) + 4 * BS;
  off_t dst = lo <= hi ? lo + rnd ((hi - lo) / BS + 1) * BS : -1;
  for (int tries = 0;
       in == out && dst >= 0 && overlap (src, dst, alen) && tries < 20;
       tries++)
    dst = lo + rnd ((hi - lo) / BS + 1) * BS;
  if (len <= 0 || dst < 0 || (in == out && overlap (src, dst, alen)))
    {
      log_op ("clone from file %d: no range to clone", in->id);
      return;
    }
  log_op ("FICLONERANGE %d@%lld -> %d@%lld len %lld%s (sizes %lld, %lld)",
          in->id, (long long) src, out->id, (long long) dst, (long long) len,
          to_eof ? " (to EOF)" : "", (long long) in->size,
          (long long) out->size);
  if (!clone_ok)
    {
      log_more (": not supported here");
      return;
    }
  struct file_clone_range arg = { .src_fd = in->fd, .src_offset = src,
                                  .src_length = len, .dest_offset = dst };
  if (ioctl (out->fd, FICLONERANGE, &arg) != 0)
    {
      int e = errno;
      if (clone_unsupported (e))
        {
          clone_ok = false;
          log_more (": not supported here (%s)", strerror (e));
          printf ("# %s: FICLONERANGE is not supported: %s\n", fsname,
                  strerror (e));
          return;
        }
      if (e != EINVAL)
        fail ("FICLONERANGE: %s", strerror (e));
      /* Refused: nothing may have changed.  */
      log_more (": refused (EINVAL)");
      check_range (out, dst - MARGIN, dst + alen + MARGIN, true);
      return;
    }
  log_more (": cloned");
  memmove (out->data + dst, in->data + src, len);
  if (dst + len > out->size)
    out->size = dst + len;
  check_range (out, dst - MARGIN, dst + alen + MARGIN, true);
  if (in == out)
    check_range (in, src, src + len, true);
}

static void
model_read (unsigned how)
{
  struct sfile *f = pick_file ();
  off_t off = pick_off (f->size + 1);
  size_t len = pick_len ();
  log_op ("read %d@%lld len %zu (size %lld)", f->id, (long long) off, len,
          (long long) f->size);
  check_range (f, off, off + len, true);
}

/* Close and reopen the files (always on NFS, whose client looks at the
   server again on open), drop the page cache, and check every file.  */
static void
model_cycle (unsigned how)
{
  bool reopen = rnd (2) || is_nfs;
  log_op ("%s%s, check every file", reopen ? "close and reopen" : "stay open",
          can_drop ? ", drop caches" : "");
  if (reopen)
    reopen_all ();
  drop_caches ();
  for (int i = 0; i < nfiles; i++)
    check_whole (&files[i], false);
}

/* ---- The multi-process run: the invariant, the operations ------------ */

static uint64_t salt;

/* Per-process counts, in shared memory.  */
struct counts
{
  long copies, copied_bytes, clones, refused, sigbus, torn;
  bool no_clone, no_punch;
};
static struct counts *counts;   /* nprocs + 1 of them */

enum { CHECK_BITS = 11, PAYLOAD_BITS = 29 };

static uint64_t
check_bits (uint64_t payload)
{
  return mix (salt ^ payload) & ((1u << CHECK_BITS) - 1);
}

/* The tag WRITER writes in file FILE at offset OFF (a multiple of 8).  */
static uint64_t
make_tag (int writer, int file, off_t off)
{
  uint64_t v = (uint64_t) writer | (uint64_t) file << 5
               | (uint64_t) ((off / 8) & 0xfffff) << 9;
  v |= check_bits (v) << PAYLOAD_BITS;
  unsigned char b[8];
  for (int k = 0; k < 8; k++)
    b[k] = k << 5 | ((v >> (5 * k)) & 31);
  uint64_t w;
  memcpy (&w, b, 8);
  return w;
}

enum word_kind { WORD_ZERO, WORD_TAG, WORD_TORN, WORD_BAD };

/* Classify the N bytes (N <= 8) of a word starting at an aligned offset.  */
static enum word_kind
classify (unsigned char const *b, int n)
{
  bool zero = true, formed = n == 8;
  for (int k = 0; k < n; k++)
    {
      if (b[k])
        zero = false;
      if (b[k] >> 5 != k)
        formed = false;
    }
  if (zero)
    return WORD_ZERO;
  if (formed)
    {
      uint64_t v = 0;
      for (int k = 0; k < 8; k++)
        v |= (uint64_t) (b[k] & 31) << (5 * k);
      uint64_t payload = v & ((1u << PAYLOAD_BITS) - 1);
      int writer = v & 31, file = (v >> 5) & 15;
      if (writer >= 1 && writer <= nprocs && file < nfiles
          && v >> PAYLOAD_BITS == check_bits (payload))
        return WORD_TAG;
    }
  for (int k = 0; k < n; k++)
    if (b[k] && b[k] >> 5 != k)
      return WORD_BAD;
  return WORD_TORN;
}

/* Check the LEN bytes in BUF, read from file F at OFF (a multiple of 8),
   against the invariant; count the words of each kind in COUNT.  */
static void
check_words (struct sfile *f, unsigned char const *buf, size_t len, off_t off,
             long count[4])
{
  for (size_t i = 0; i < len; i += 8)
    {
      int n = len - i < 8 ? len - i : 8;
      enum word_kind kind = classify (buf + i, n);
      count[kind]++;
      if (kind == WORD_BAD)
        {
          char hex[3 * 8 + 1] = "";
          for (int k = 0; k < n; k++)
            sprintf (hex + 3 * k, " %02x", buf[i + k]);
          fail ("file %d: the word at %lld was never written:%s", f->id,
                (long long) (off + i), hex);
        }
    }
}

static void
write_tags (struct sfile *f, off_t off, size_t len)
{
  for (size_t i = 0; i < len; i += 8)
    {
      uint64_t w = make_tag (me, f->id, off + i);
      memcpy (wbuf + i, &w, 8);
    }
}

/* Copy LEN bytes of IN at IN_OFF to OUT at OUT_OFF (through the file
   position where NULL_IN or NULL_OUT is set) with one call, and check
   that the offsets moved by what it returns.  */
static void
multi_copy (struct sfile *in, off_t in_off, bool null_in,
            struct sfile *out, off_t out_off, bool null_out, size_t len)
{
  log_op ("%s %d@%lld%s -> %d@%lld%s len %zu", copy_name (), in->id,
          (long long) in_off, null_in ? " (NULL)" : "", out->id,
          (long long) out_off, null_out ? " (NULL)" : "", len);
  if (null_in && lseek (in->fd, in_off, SEEK_SET) != in_off)
    cr_die ("lseek");
  if (null_out && lseek (out->fd, out_off, SEEK_SET) != out_off)
    cr_die ("lseek");
  off_t pin = in_off, pout = out_off;
  ssize_t r = call_copy (in->fd, null_in ? NULL : &pin,
                         out->fd, null_out ? NULL : &pout, len);
  log_more ("; returned %zd", r);
  if (r < 0)
    fail ("%s: %s", copy_name (), strerror (errno));
  if (null_in)
    pin = lseek (in->fd, 0, SEEK_CUR);
  if (null_out)
    pout = lseek (out->fd, 0, SEEK_CUR);
  if (r > (ssize_t) len || pin != in_off + r || pout != out_off + r)
    fail ("%s returned %zd of %zu, and the offsets moved by %lld and %lld",
          copy_name (), r, len, (long long) (pin - in_off),
          (long long) (pout - out_off));
  if (r > 0)
    {
      counts[me].copies++;
      counts[me].copied_bytes += r;
    }
}

static void
multi_truncate (unsigned how)
{
  struct sfile *f = pick_file ();
  off_t size = pick_off (max_size + 1);
  log_op ("ftruncate %d to %lld", f->id, (long long) size);
  if (ftruncate (f->fd, size) != 0)
    fail ("ftruncate: %s", strerror (errno));
}

static void
multi_punch (unsigned how)
{
  struct sfile *f = pick_file ();
  off_t off = pick_off (max_size);
  size_t len = pick_len ();
  if (off + (off_t) len > max_size)
    len = max_size - off;
  log_op ("punch hole %d@%lld len %zu", f->id, (long long) off, len);
  if (punch_ok
      && fallocate (f->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off,
                    len) != 0)
    {
      if (errno != EOPNOTSUPP)
        fail ("fallocate (punch hole): %s", strerror (errno));
      punch_ok = false;
      counts[me].no_punch = true;
    }
  if (!punch_ok)
    log_more (": not supported here");
}

static sigjmp_buf bus_jump;
static volatile sig_atomic_t bus_armed;

static void
on_sigbus (int sig)
{
  if (!bus_armed)
    {
      signal (sig, SIG_DFL);
      raise (sig);
    }
  siglongjmp (bus_jump, 1);
}

/* Store the LEN / 8 words of WBUF at P, a shared mapping, one aligned
   8-byte store each; return false if a SIGBUS (the file cut short
   meanwhile) stopped it.  */
static bool
store_words (unsigned char *p, size_t len)
{
  if (sigsetjmp (bus_jump, 1) != 0)
    {
      bus_armed = 0;
      return false;
    }
  bus_armed = 1;
  volatile uint64_t *words = (volatile uint64_t *) p;
  uint64_t const *src = (uint64_t const *) wbuf;
  for (size_t i = 0; i < len / 8; i++)
    words[i] = src[i];
  bus_armed = 0;
  return true;
}

static void
multi_clone (unsigned how)
{
  struct sfile *in = pick_file ();
  struct sfile *out = nfiles > 1 && rnd (4) ? other_file (in) : in;
  off_t size = size_of (in->fd, true);
  off_t src = rnd (size / BS + 1) * BS;
  off_t len = (1 + rnd (max_len / BS)) * BS;
  if (rnd (4) == 0)
    len = size - src;           /* to the end, maybe a partial block */
  off_t alen = round_up (len, BS);
  off_t dst = rnd ((max_size - alen) / BS + 1) * BS;
  log_op ("FICLONERANGE %d@%lld -> %d@%lld len %lld", in->id,
          (long long) src, out->id, (long long) dst, (long long) len);
  if (len <= 0 || (in == out && overlap (src, dst, alen)))
    {
      log_more (": skipped");
      return;
    }
  if (!clone_ok)
    {
      log_more (": not supported here");
      return;
    }
  struct file_clone_range arg = { .src_fd = in->fd, .src_offset = src,
                                  .src_length = len, .dest_offset = dst };
  if (ioctl (out->fd, FICLONERANGE, &arg) == 0)
    {
      counts[me].clones++;
      log_more (": cloned");
      return;
    }
  int e = errno;
  if (clone_unsupported (e))
    {
      clone_ok = false;
      counts[me].no_clone = true;
      log_more (": not supported here (%s)", strerror (e));
    }
  else if (e == EINVAL)
    {
      /* The racing sizes make many requests invalid by the time the
         filesystem looks at them.  */
      counts[me].refused++;
      log_more (": refused (EINVAL)");
    }
  else
    fail ("FICLONERANGE: %s", strerror (e));
}

static void
multi_read (unsigned how)
{
  struct sfile *f = pick_file ();
  off_t off = pick_off (max_size);
  size_t len = pick_len ();
  log_op ("read %d@%lld len %zu", f->id, (long long) off, len);
  size_t got = read_at (f->fd, iobuf, len, off);
  long count[4] = { 0 };
  check_words (f, iobuf, got, off, count);
  counts[me].torn += count[WORD_TORN];
  log_more (": %zu bytes, %ld tags, %ld torn", got, count[WORD_TAG],
            count[WORD_TORN]);
}

static void
multi_reopen (unsigned how)
{
  log_op ("close and reopen every file");
  reopen_all ();
}

/* ---- Operations of both runs ------------------------------------------ */

/* Copy a range to another file or, without overlap, within one file.  */
static void
op_copy (unsigned how)
{
  struct sfile *in = pick_file ();
  struct sfile *out = how & SAME_FILE ? in : other_file (in);
  size_t len = pick_len ();
  off_t in_size = current_size (in);
  off_t in_off = (in_size && rnd (8)
                  ? pick_off (in_size) : pick_off (max_size));
  off_t out_off = pick_off (max_size - len + 1);
  bool null_in = rnd (3) == 0, null_out = rnd (3) == 0;
  if (in == out)
    {
      /* Not overlapping; not both NULL, which would be one position.  */
      for (int tries = 0; overlap (in_off, out_off, len); tries++)
        {
          if (tries == 20)
            {
              log_op ("%s within file %d: no room for %zu bytes",
                      copy_name (), in->id, len);
              return;
            }
          out_off = pick_off (max_size - len + 1);
        }
      if (null_in && null_out)
        null_out = false;
    }
  if (nprocs > 1)
    multi_copy (in, in_off, null_in, out, out_off, null_out, len);
  else
    model_copy (in, in_off, null_in, out, out_off, null_out, len);
}

/* Fill WBUF with the LEN bytes to write to F at OFF: random bytes in the
   model run, tags in a multi-process run.  */
static void
fill (struct sfile *f, off_t off, size_t len)
{
  if (nprocs > 1)
    write_tags (f, off, len);
  else
    cr_random_fill (&rng, wbuf, len);
}

/* Write data to F with write(2) or pwrite, inside the file or past its
   end, and apply it to the model.  */
static void
op_write (unsigned how)
{
  bool at_pos = how & AT_POS;
  struct sfile *f = pick_file ();
  size_t len = pick_len ();
  off_t room = max_size - len;
  off_t size = current_size (f);
  off_t end = size - size % unit ();
  off_t off;
  if (how & PAST_EOF && end + unit () <= room)
    off = end + unit () + pick_off (room - end - unit () + 1);
  else
    off = pick_off ((end < room ? end : room) + 1);
  fill (f, off, len);
  log_op ("%s %d@%lld len %zu (size %lld)", at_pos ? "write" : "pwrite",
          f->id, (long long) off, len, (long long) size);
  ssize_t n;
  if (at_pos)
    {
      if (lseek (f->fd, off, SEEK_SET) != off)
        cr_die ("lseek");
      n = write (f->fd, wbuf, len);
    }
  else
    n = pwrite (f->fd, wbuf, len, off);
  if (n != (ssize_t) len)
    fail ("%s returned %zd (%s), not %zu", at_pos ? "write" : "pwrite", n,
          n < 0 ? strerror (errno) : "short", len);
  if (at_pos && lseek (f->fd, 0, SEEK_CUR) != off + (off_t) len)
    fail ("write left the file position at %lld, not %lld",
          (long long) lseek (f->fd, 0, SEEK_CUR),
          (long long) (off + len));
  if (nprocs > 1)
    return;
  memcpy (f->data + off, wbuf, len);
  if (off + (off_t) len > f->size)
    f->size = off + len;
}

/* Write data to F through a shared mapping.  In a multi-process run the
   data goes one aligned word at a time, and where a truncation meanwhile
   has cut the mapping short, SIGBUS stops it and is counted.  */
static void
op_mmap (unsigned how)
{
  struct sfile *f = pick_file ();
  off_t size = current_size (f);
  off_t end = size - size % unit ();
  if (end == 0)
    {
      op_write (0);
      return;
    }
  off_t off = pick_off (end);
  size_t len = pick_len ();
  if (off + (off_t) len > end)
    len = end - off;
  bool sync = how & MAYBE_MSYNC && rnd (4) == 0;
  fill (f, off, len);
  log_op ("mmap write %d@%lld len %zu (size %lld)%s", f->id,
          (long long) off, len, (long long) size, sync ? ", msync" : "");
  off_t start = off - off % BS;
  size_t map_len = off + len - start;
  unsigned char *p = mmap (NULL, map_len, PROT_READ | PROT_WRITE,
                           MAP_SHARED, f->fd, start);
  if (p == MAP_FAILED)
    fail ("mmap: %s", strerror (errno));
  if (nprocs == 1)
    memcpy (p + (off - start), wbuf, len);
  else if (!store_words (p + (off - start), len))
    {
      counts[me].sigbus++;
      log_more (": SIGBUS (truncated meanwhile)");
    }
  if (sync && msync (p, map_len, MS_SYNC) != 0)
    fail ("msync: %s", strerror (errno));
  if (munmap (p, map_len) != 0)
    cr_die ("munmap");
  if (nprocs == 1)
    memcpy (f->data + off, wbuf, len);
}

static void
op_fsync (unsigned how)
{
  struct sfile *f = pick_file ();
  bool data = how & MAYBE_DATASYNC && rnd (2);
  log_op ("%s %d", data ? "fdatasync" : "fsync", f->id);
  if ((data ? fdatasync (f->fd) : fsync (f->fd)) != 0)
    fail ("%s: %s", data ? "fdatasync" : "fsync", strerror (errno));
}

static void
op_drop (unsigned how)
{
  log_op ("drop caches%s", can_drop ? "" : " (not allowed: no-op)");
  drop_caches ();
}

/* ---- The mix of operations -------------------------------------------- */

/* An entry of a run's table: the share of the draws, in per cent, that
   run FN with FLAGS.  */
struct op_share
{
  unsigned percent;
  void (*fn) (unsigned flags);
  unsigned flags;
};

/* The model run checks each operation against the model.  */
static struct op_share const model_ops[] =
{
  { 22, op_copy, 0 },
  { 10, op_copy, SAME_FILE },
  { 8, op_write, AT_POS },
  { 8, op_write, 0 },
  { 6, op_write, PAST_EOF },
  { 5, model_truncate, GROW },
  { 5, model_truncate, 0 },
  { 7, model_punch, 0 },
  { 7, op_mmap, MAYBE_MSYNC },
  { 8, model_clone, 0 },
  { 4, op_fsync, MAYBE_DATASYNC },
  { 9, model_read, 0 },
  { 1, model_cycle, 0 },
};

/* The processes of a multi-process run race these; their reads check
   the invariant.  */
static struct op_share const multi_ops[] =
{
  { 18, op_copy, 0 },
  { 8, op_copy, SAME_FILE },
  { 8, op_write, 0 },
  { 6, op_write, AT_POS },
  { 4, op_write, PAST_EOF },
  { 8, multi_truncate, 0 },
  { 7, multi_punch, 0 },
  { 7, op_mmap, 0 },
  { 8, multi_clone, 0 },
  { 4, op_fsync, 0 },
  { 20, multi_read, 0 },
  { 1, multi_reopen, 0 },
  { 1, op_drop, 0 },
};

/* Whether the shares of the N entries of TABLE add up to 100.  */
static bool
whole (struct op_share const *table, size_t n)
{
  unsigned sum = 0;
  for (size_t i = 0; i < n; i++)
    sum += table[i].percent;
  return sum == 100;
}

/* Run the next operation: a number below 100 falls in the share of one
   entry of TABLE, the shares laid end to end from 0.  A seed's sequence
   of operations rests on this order and on every draw an operation
   makes: a change to either makes a logged seed replay other
   operations.  */
static void
step (struct op_share const *table)
{
  unsigned k = rnd (100);
  while (k >= table->percent)
    k -= table++->percent;
  table->fn (table->flags);
}

/* ---- The model run ---------------------------------------------------- */

/* Counts for the summary line.  */
static long n_copies, n_clones, n_refused;

static int
run_model (void)
{
  for (op = 0; op < nops; op++)
    {
      step (model_ops);
      char const *line = strchr (ring_line (ring_of (0), op), ' ') + 1;
      if (strncmp (line, copy_name (), strlen (copy_name ())) == 0
          && strstr (line, "returned"))
        n_copies++;
      else if (strstr (line, ": cloned"))
        n_clones++;
      else if (strstr (line, ": refused"))
        n_refused++;
    }
  op = nops;
  log_op ("the end: read every file, then again after a cache drop");
  for (int i = 0; i < nfiles; i++)
    check_whole (&files[i], false);
  reopen_all ();
  drop_caches ();
  for (int i = 0; i < nfiles; i++)
    {
      check_whole (&files[i], false);
      close_file (&files[i]);
    }
  printf ("# %s: %ld %s calls that copied, %ld clones (%ld refused),"
          " punch hole %s, clones %s\n", fsname, n_copies, copy_name (),
          n_clones, n_refused, punch_ok ? "on" : "off",
          clone_ok ? "on" : "off");
  require (clone_ok, n_clones, punch_ok);
  return 0;
}

/* ---- The multi-process run: the rounds ------------------------------- */

/* Child WHO's part of round ROUND: OPS operations.  */
static _Noreturn void
run_child (int who, long round, long ops)
{
  me = who;
  rng = mix (seed ^ mix ((uint64_t) round << 8 | who));
  struct sigaction sa = { .sa_handler = on_sigbus };
  sigemptyset (&sa.sa_mask);
  sigaction (SIGBUS, &sa, NULL);
  for (int i = 0; i < nfiles; i++)
    open_file (&files[i], 0);
  for (long i = 0; i < ops; i++)
    {
      op = round * ROUND_OPS + i;
      step (multi_ops);
    }
  for (int i = 0; i < nfiles; i++)
    close_file (&files[i]);
  exit (CR_EXIT_PASS);
}

/* Between two rounds: read every file, write it back, drop the cache,
   read it again; both reads must keep the invariant and agree.  */
static void
check_between (long word_count[4])
{
  for (int i = 0; i < nfiles; i++)
    {
      struct sfile *f = &files[i];
      open_file (f, 0);
      off_t size = size_of (f->fd, false);
      if (size > max_size)
        fail ("file %d has size %lld, above the %lld any operation made",
              f->id, (long long) size, (long long) max_size);
      size_t got = read_at (f->fd, f->data, max_size + 1, 0);
      if ((off_t) got != size)
        fail ("file %d: read %zu bytes, its size is %lld", f->id, got,
              (long long) size);
      f->size = got;
      check_words (f, f->data, got, 0, word_count);
      if (fsync (f->fd) != 0)
        fail ("fsync file %d: %s", f->id, strerror (errno));
      close_file (f);
    }
  drop_caches ();
  for (int i = 0; i < nfiles; i++)
    {
      struct sfile *f = &files[i];
      open_file (f, 0);
      size_t got = read_at (f->fd, iobuf, max_size + 1, 0);
      close_file (f);
      /* No process has written since the first read.  */
      if ((off_t) got != f->size)
        fail ("file %d: %lld bytes before the cache drop, %zu after",
              f->id, (long long) f->size, got);
      if (memcmp (iobuf, f->data, got) != 0)
        {
          size_t at = 0;
          while (iobuf[at] == f->data[at])
            at++;
          at -= at % 8;
          uint64_t before, after;
          memcpy (&before, f->data + at, 8);
          memcpy (&after, iobuf + at, 8);
          fail ("file %d changed across a cache drop with no writer"
                " running: the word at %zu was %016llx, is %016llx",
                f->id, at, (unsigned long long) before,
                (unsigned long long) after);
        }
    }
}

static int
run_multi (void)
{
  size_t cbytes = (nprocs + 1) * sizeof *counts;
  counts = mmap (NULL, cbytes, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (counts == MAP_FAILED)
    cr_die ("mmap");
  memset (counts, 0, cbytes);
  salt = mix (seed ^ 0x6d756c7469u);
  long per_round = nprocs * (long) ROUND_OPS;
  long rounds = (nops + per_round - 1) / per_round;
  long word_count[4] = { 0 };
  for (int i = 0; i < nfiles; i++)
    close_file (&files[i]);
  for (long round = 0; round < rounds; round++)
    {
      long left = nops - round * per_round;
      long each = left < per_round ? (left + nprocs - 1) / nprocs : ROUND_OPS;
      fflush (stdout);
      pid_t pids[MAX_PROCS + 1];
      for (int who = 1; who <= nprocs; who++)
        {
          pids[who] = fork ();
          if (pids[who] < 0)
            cr_die ("fork");
          if (pids[who] == 0)
            run_child (who, round, each);
        }
      bool failed = false;
      for (int who = 1; who <= nprocs; who++)
        {
          int status;
          if (waitpid (pids[who], &status, 0) != pids[who])
            cr_die ("waitpid");
          if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
            {
              printf ("# process %d of round %ld: %s %d\n", who, round,
                      WIFEXITED (status) ? "exit status" : "signal",
                      WIFEXITED (status) ? WEXITSTATUS (status)
                      : WTERMSIG (status));
              failed = true;
            }
        }
      op = (round + 1) * ROUND_OPS - 1;
      if (failed)
        {
          fflush (stdout);
          exit (CR_EXIT_FAIL);
        }
      check_between (word_count);
    }
  struct counts sum = { 0 };
  for (int who = 1; who <= nprocs; who++)
    {
      sum.copies += counts[who].copies;
      sum.copied_bytes += counts[who].copied_bytes;
      sum.clones += counts[who].clones;
      sum.refused += counts[who].refused;
      sum.sigbus += counts[who].sigbus;
      sum.torn += counts[who].torn;
      sum.no_clone |= counts[who].no_clone;
      sum.no_punch |= counts[who].no_punch;
    }
  printf ("# %s: %d processes, %ld rounds: %ld %s calls copied %ld bytes,"
          " %ld clones (%ld refused), %ld SIGBUS; words read between"
          " rounds: %ld tags, %ld zero, %ld torn; torn in the rounds: %ld\n",
          fsname, nprocs, rounds, sum.copies, copy_name (),
          sum.copied_bytes, sum.clones, sum.refused, sum.sigbus,
          word_count[WORD_TAG], word_count[WORD_ZERO],
          word_count[WORD_TORN], sum.torn);
  require (!sum.no_clone, sum.clones, !sum.no_punch);
  return 0;
}

/* ---- main ----------------------------------------------------------- */

static long long
number (char const *s, char opt)
{
  char *end;
  errno = 0;
  long long n = strtoll (s, &end, 0);
  if (*end == 'k' || *end == 'K')
    n <<= 10, end++;
  else if (*end == 'm' || *end == 'M')
    n <<= 20, end++;
  if (errno || end == s || *end || n < 0)
    {
      fprintf (stderr, "cr-stress: -%c: not a number: %s\n", opt, s);
      exit (CR_EXIT_ERROR);
    }
  return n;
}

static _Noreturn void
usage (void)
{
  fprintf (stderr, "usage: cr-stress [-s SEED] [-n OPS] [-f FILES]"
           " [-p PROCS] [-m MAXSIZE] [-l LOGLEN] [-C] [-c] [-h]\n"
           "                 FSNAME DIR\n");
  exit (CR_EXIT_ERROR);
}

int
main (int argc, char **argv)
{
  int c;
  while ((c = getopt (argc, argv, "s:n:f:p:m:l:Cch")) != -1)
    switch (c)
      {
      case 's': seed = strtoull (optarg, NULL, 0); break;
      case 'n': nops = number (optarg, c); break;
      case 'f': nfiles = number (optarg, c); break;
      case 'p': nprocs = number (optarg, c); break;
      case 'm': max_size = number (optarg, c); break;
      case 'l': loglen = number (optarg, c); break;
      case 'C': use_cfr = true; break;
      case 'c': need_clone = true; break;
      case 'h': need_punch = true; break;
      default: usage ();
      }
  if (argc - optind != 2 || nfiles < 1 || nfiles > MAX_FILES
      || nprocs < 1 || nprocs > MAX_PROCS || loglen < 1
      || max_size < 4 * BS || max_size % BS || max_size > (8 << 20))
    usage ();
  fsname = argv[optind];
  dirarg = argv[optind + 1];
  hooks.name = copy_name ();
  max_len = max_size / 4;
  if (!whole (model_ops, sizeof model_ops / sizeof *model_ops)
      || !whole (multi_ops, sizeof multi_ops / sizeof *multi_ops))
    abort ();

  char const *why;
  if (use_cfr
      ? copy_file_range (-1, NULL, -1, NULL, 0, 0) < 0 && errno == ENOSYS
      : !cr_available (&why))
    {
      printf ("SKIP: %s\n", use_cfr ? "no copy_file_range(2)" : why);
      return CR_EXIT_SKIP;
    }
  struct statfs sfs;
  if (statfs (dirarg, &sfs) != 0)
    cr_die ("statfs %s", dirarg);
  is_nfs = sfs.f_type == NFS_SUPER_MAGIC;
  can_drop = geteuid () == 0 && getenv ("COPYRANGE_GUEST");

  ring_bytes = (sizeof (struct ring) + (size_t) loglen * LOG_LINE + 15) & ~15;
  rings = mmap (NULL, (nprocs + 1) * ring_bytes, PROT_READ | PROT_WRITE,
                MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (rings == MAP_FAILED)
    cr_die ("mmap");
  for (int i = 0; i <= nprocs; i++)
    ring_of (i)->last = -1;
  iobuf = malloc (max_size + BS);
  wbuf = malloc (max_len);
  if (!iobuf || !wbuf)
    cr_die ("malloc");

  dir = cr_make_dir (dirarg, "cr-stress");
  for (int i = 0; i < nfiles; i++)
    {
      struct sfile *f = &files[i];
      f->id = i;
      size_t n = strlen (dir) + 16;
      f->path = malloc (n);
      /* The model; in a multi-process run, the last read of the file.  */
      f->data = calloc (max_size + BS, 1);
      if (!f->path || !f->data)
        cr_die ("malloc");
      snprintf (f->path, n, "%s/f%d", dir, i);
      open_file (f, O_CREAT | O_TRUNC);
    }
  printf ("# %s: seed %#llx, %ld operations, %d files of up to %lld bytes,"
          " %d process%s%s%s\n", fsname, (unsigned long long) seed, nops,
          nfiles, (long long) max_size, nprocs, nprocs > 1 ? "es" : "",
          is_nfs ? ", NFS" : "",
          use_cfr ? ", copy_file_range(2) for copy_range(2)" : "");

  struct timespec t0, t1;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  rng = seed;
  if (nprocs == 1)
    run_model ();
  else
    run_multi ();
  clock_gettime (CLOCK_MONOTONIC, &t1);
  printf ("PASS: %s: %ld operations, seed %#llx, %s (%.1f s)\n", fsname,
          nops, (unsigned long long) seed,
          nprocs > 1 ? "no byte that was never written"
          : "all match the model",
          (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
  if (!cr_remove_tree (dir))
    cr_die ("rm -rf %s", dir);
  return CR_EXIT_PASS;
}
