/* data.c -- the data mover of cpr: copy the bytes of one file.
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

/* The bytes of a file move, best first, with copy_range (the filesystem
   clones them, or copies them on its server, or the kernel copies them
   through the page cache), copy_file_range, then read and write.  Each
   method takes over from the exact offset the previous one reached, so a
   refusal after partial progress neither loses nor repeats a byte.  A
   source that looks sparse is copied extent by extent (SEEK_DATA and
   SEEK_HOLE), and the holes are recreated as --sparse asks.  */

#include <config.h>

#include "data.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#ifdef __linux__
# include <sys/vfs.h>
#endif
#include <time.h>
#include <unistd.h>

#include "copy-range.h"
#include "error.h"
#include "fsmagic.h"
#include "full-write.h"
#include "gethrxtime.h"
#include "gettext.h"
#include "intprops.h"
#include "minmax.h"
#include "progress.h"
#include "safe-read.h"
#include "stat-size.h"
#include "xalloc.h"

#define _(msgid) gettext (msgid)

/* The clone ioctl (Linux 4.5), for headers that predate it.  */
#ifndef FICLONE
# define FICLONE _IOW (0x94, 9, int)
#endif

#define OFF_MAX TYPE_MAXIMUM (off_t)

/* Offload chunks.  One copy_range or copy_file_range call moves at most
   one chunk, so the chunk bounds how long cpr stays inside one call: how
   often partial progress is seen, how much a failure in the middle of a
   call can leave unreported, how long a backend with no signal check of
   its own (one NFS COPY) runs on.  Measured on this project's build host
   (ext4, copy_file_range of a 1 GiB file from the page cache, through the
   same in-kernel page-cache copy copy_range falls back to), repeated runs:

     chunk      throughput        longest call
     1 MiB      135-477 MiB/s       31-49 ms
     16 MiB     293-1187 MiB/s      55-285 ms
     64 MiB     513-928 MiB/s      140-611 ms
     1 GiB      152-962 MiB/s     1065-6735 ms

   Past a few MiB the cost of a call is lost in the noise of the copy
   itself, while a call's duration grows with the chunk: at 1 GiB one call
   blocks for seconds.  A clone (btrfs, or NFS over a btrfs export) moves
   a GiB in a few milliseconds, though, and there every call costs a
   transaction or a round trip.  So the chunk starts at 16 MiB and adapts
   to what each call measures.  A full chunk that took under 50 ms sets
   the next chunk to what the measured rate moves in 100 ms (at least
   twice the chunk): a page-cache copy settles near 100 ms a call, while
   a clone, whose 16 MiB take a millisecond, gets the rest of a 1 GiB
   file in its second call, as GNU cp's single FICLONE would.  Not
   always: timed under strace, or with a busy host, a first clone of
   16 MiB took a few milliseconds and the rest needed two more calls.
   So a full chunk that moved 16 MiB in 5 ms or faster, a rate that
   only a clone reaches under emulation, sets the next chunk to 1 GiB
   at once; a copy that fast anywhere still returns from 1 GiB within
   about a third of a second.  A chunk that took over 250 ms is
   halved.  All within 1 MiB .. 1 GiB.  A copy thus makes progress
   several times a second, and a clone needs few calls.

   On a file server (NFS, SMB, Ceph) these times are ten times as long,
   so a call aims at a second.  There every call is a round trip, and
   nfsd ends each COPY it runs in the background by syncing the range it
   wrote: 16 calls for a 256 MiB file cost 16 syncs on the server where
   GNU cp's single call costs one.  A longer call does not make cpr
   slower to stop: the client's wait for a COPY ends at a signal, and it
   cancels the copy on the server (OFFLOAD_CANCEL).  */
enum
{
  CHUNK_MIN = 1 << 20,
  CHUNK_START = 16 << 20,
  CHUNK_MAX = 1 << 30,
};
#define CHUNK_FAST_NS (50 * 1000 * 1000)
#define CHUNK_CLONE_NS (5 * 1000 * 1000)     /* per CHUNK_START bytes */
#define CHUNK_AIM_NS (100 * 1000 * 1000)
#define CHUNK_SLOW_NS (250 * 1000 * 1000)
#define CHUNK_SERVER_SCALE 10

/* A source longer than this is read with POSIX_FADV_SEQUENTIAL advice,
   as GNU cp reads every source: the kernel then reads ahead twice the
   disk's window (128 KiB by default), in half as many requests, which
   is what a disk that seeks between source and copy needs.  The
   emulated disks of doc/bench-archive.md showed no difference beyond
   their noise.  A file that fits in the default window is read in one
   request anyway, and the advice would only add a system call to it.  */
#define ADVISE_MIN (128 * 1024)

/* The environment variable CPR_CHUNK_SIZE, a positive decimal number of
   bytes, fixes the chunk instead of adapting it.  It is a measuring hook
   for bench/ (the chunk-size sweep that justifies the defaults above),
   documented as such in cpr(1) (doc/cpr.h2m); any other value is
   ignored.  Return the fixed chunk, or 0 to adapt.  */
static size_t
fixed_chunk (void)
{
  char const *s = getenv ("CPR_CHUNK_SIZE");
  if (!s || ! ('0' <= *s && *s <= '9'))
    return 0;
  char *end;
  errno = 0;
  uintmax_t n = strtoumax (s, &end, 10);
  return (errno == 0 && *end == '\0' && n <= SIZE_MAX ? n : 0);
}

/* The read/write buffer, at least; GNU cp's minimum too.  */
enum { IO_BUFSIZE = 128 * 1024 };

/* How bytes move, best first.  */
enum method { M_COPY_RANGE, M_COPY_FILE_RANGE, M_READ_WRITE };

/* Set when copy_file_range proved missing from the kernel; copy_range
   remembers that itself.  Atomic: copies on worker threads (--jobs)
   find it out side by side.  */
static atomic_bool copy_file_range_missing;

/* The state of one copy.  */
struct mover
{
  int src_fd;
  int dst_fd;
  char const *src_name;
  char const *dst_name;
  enum method method;         /* the best method not refused for this pair */
  size_t chunk;               /* bytes per offload call, adapted */
  bool chunk_fixed;           /* CPR_CHUNK_SIZE set the chunk: keep it */
  off_t size_hint;            /* offload below this offset, then read(2) */
  bool src_regular;           /* SRC_FD can be read at an offset */
  bool dst_regular;           /* DST_FD can have holes */
  bool zeros;                 /* turn blocks of zeros into holes */
  off_t src_fpos;             /* SRC_FD's file offset, or -1 if unknown */
  off_t dst_fpos;             /* DST_FD's file offset, or -1 if unknown */
  off_t dst_size;             /* bytes of the destination written so far */
  size_t hole_size;           /* the block a hole made from zeros covers */
  char *buf;                  /* read/write buffer, allocated when needed */
  size_t bufsize;
  int offload_how;            /* offload_method's answer, or -1 */
  off_t start;                /* where the copy starts (--continue) */
  struct data_watch const *watch;  /* told how far the copy got, or NULL */
  struct data_report *report;
};

/* Whether a source with status ST has fewer blocks than its size needs,
   so that it must have a hole somewhere.  */
static bool
looks_sparse (struct stat const *st)
{
  return (S_ISREG (st->st_mode)
          && ST_NBLOCKS (*st) < st->st_size / ST_NBLOCKSIZE);
}

/* What an offload to a filesystem does with the bytes, by statfs's
   f_type: see offload_beats_holes and offload_method.  */
enum fs_offload
{
  FS_COPIES,                  /* the kernel copies through the page cache */
  FS_CLONES,                  /* the filesystem shares the blocks */
  FS_SERVER,                  /* the file server copies them */
};

/* How an offload to the filesystem of FD goes, and its f_type in
   *TYPE (0 if unknown).  */
static enum fs_offload
fs_offload (int fd, unsigned long *type)
{
  *type = 0;
#ifdef __linux__
  struct statfs fs;
  if (fstatfs (fd, &fs) != 0)
    return FS_COPIES;
  *type = (uint32_t) fs.f_type;
  switch ((uint32_t) fs.f_type)
    {
    case BTRFS_SUPER_MAGIC:
    case XFS_SUPER_MAGIC:
      return FS_CLONES;
    case NFS_SUPER_MAGIC:
    case SMB2_SUPER_MAGIC:
    case CIFS_SUPER_MAGIC:
    case CEPH_SUPER_MAGIC:
      return FS_SERVER;
    }
#else
  (void) fd;
#endif
  return FS_COPIES;
}

/* Whether the data extents of a sparse source are better offloaded to
   M's destination than read and written with holes left for their blocks
   of zeros, as --sparse=auto otherwise does (and GNU cp does when it
   copies with read and write).  Offloading wins where copy_range moves no
   byte through this machine's page cache.  btrfs clones the extents (its
   ->copy_range) and so does xfs (through ->remap_file_range): the copy
   shares the source's blocks, zeros included, and takes no new space, so
   sharing beats punching.  NFS copies on the server (COPY, NFSv4.2), as
   SMB and Ceph do: read and write would bring every byte across the
   network and back.  Elsewhere (ext4, tmpfs, ...) copy_range and
   copy_file_range copy through the page cache and write the zeros out,
   so read and write, leaving holes, make the copy GNU cp makes.  The
   destination's filesystem decides: a source on another filesystem gets
   the offload refused, and read/write, which leaves holes, takes over.
   (An xfs made without reflink copies through the page cache, zeros and
   all: not told apart from one with reflink here.)  */
static bool
offload_beats_holes (struct mover const *m)
{
  unsigned long type;
  return fs_offload (m->dst_fd, &type) != FS_COPIES;
}

/* For --progress, what an offload call that succeeded did with M's
   bytes.  The call does not say, but the filesystems do what
   offload_beats_holes describes: a clone where the destination's
   filesystem clones and the source is on one of the same kind (a clone
   never crosses filesystems; an offload that does is a copy), a copy on
   the server where it is a network filesystem, a copy in the kernel
   elsewhere.  An xfs without reflink shows as a clone, as above.
   Worked out once per file, when first needed.  */
static enum progress_method
offload_method (struct mover *m)
{
  if (m->offload_how < 0)
    {
      unsigned long dst_type, src_type;
      enum fs_offload how = fs_offload (m->dst_fd, &dst_type);
      fs_offload (m->src_fd, &src_type);
      m->offload_how = (how == FS_CLONES && src_type == dst_type
                        ? PROGRESS_CLONE
                        : how == FS_SERVER ? PROGRESS_SERVER
                        : PROGRESS_KERNEL);
    }
  return m->offload_how;
}

/* Whether ERR from an offload call means that the kernel will not offload
   this pair (or at all), so that the next method takes over; any other
   errno is a real failure of the copy.  EPERM and EACCES are what seccomp
   filters return; an immutable destination also fails with EPERM, but
   then write(2) fails the same way and reports it.  */
static bool
offload_refused (int err)
{
  switch (err)
    {
    case ENOSYS:
    case EXDEV:
    case EINVAL:
    case EOPNOTSUPP:
#if ENOTSUP != EOPNOTSUPP
    case ENOTSUP:
#endif
    case ENOTTY:
    case EPERM:
    case EACCES:
    case ETXTBSY:
    case EBADF:
      return true;
    default:
      return false;
    }
}

/* Adapt M's chunk to ELAPSED nanoseconds spent on a call that moved a
   whole chunk; see CHUNK_START.  */
static void
adapt_chunk (struct mover *m, long long elapsed)
{
  long long scale = (offload_method (m) == PROGRESS_SERVER
                     ? CHUNK_SERVER_SCALE : 1);
  if (elapsed < CHUNK_FAST_NS * scale)
    {
      /* Scale in double: a chunk times a ratio can exceed size_t's
         range on 32-bit hosts before the cap applies.  */
      double rate = (double) m->chunk / MAX (elapsed, 1);
      double aim = (rate * CHUNK_CLONE_NS >= CHUNK_START ? CHUNK_MAX
                    : rate * CHUNK_AIM_NS * scale);
      size_t next = aim < CHUNK_MAX ? aim : CHUNK_MAX;
      next -= next % CHUNK_MIN;
      m->chunk = MIN (MAX (next, 2 * m->chunk), CHUNK_MAX);
    }
  else if (CHUNK_SLOW_NS * scale < elapsed && CHUNK_MIN < m->chunk)
    m->chunk /= 2;
}

/* Move *FPOS, the file offset of FD (named NAME), to POS unless it is
   there already.  */
static bool
seek_to (int fd, off_t *fpos, off_t pos, char const *name)
{
  if (*fpos == pos)
    return true;
  if (lseek (fd, pos, SEEK_SET) < 0)
    {
      error (0, errno, _("cannot lseek %s"), quoteaf (name));
      return false;
    }
  *fpos = pos;
  return true;
}

/* Whether the N bytes at P are all zero.  */
static bool
all_zeros (char const *p, size_t n)
{
  return n == 0 || (p[0] == 0 && memcmp (p, p + 1, n - 1) == 0);
}

/* Write the N bytes at BUF to M's destination at offset POS.  ZEROS says
   they are a hole's zeros, whose failure GNU cp words differently.  */
static bool
put_at (struct mover *m, off_t pos, char const *buf, size_t n, bool zeros)
{
  if (!seek_to (m->dst_fd, &m->dst_fpos, pos, m->dst_name))
    return false;
  size_t written = full_write (m->dst_fd, buf, n);
  if (written != n)
    {
      if (zeros)
        error (0, errno, _("%s: write failed"), quotef (m->dst_name));
      else
        error (0, errno, _("error writing %s"), quoteaf (m->dst_name));
      m->dst_fpos = -1;
      return false;
    }
  m->dst_fpos += n;
  m->dst_size = MAX (m->dst_size, pos + (off_t) n);
  return true;
}

/* Write the N bytes of data at BUF to M's destination at offset POS.  */
static bool
write_at (struct mover *m, off_t pos, char const *buf, size_t n)
{
  return put_at (m, pos, buf, n, false);
}

/* Write the N bytes at BUF to M's destination at offset POS, leaving a
   hole instead of every block (M->hole_size, aligned in the file) that
   holds only zeros.  The destination's size is set at the end.  */
static bool
write_leaving_holes (struct mover *m, off_t pos, char const *buf, size_t n)
{
  while (n)
    {
      /* A run of blocks that are all zeros or all not.  */
      bool zero = false;
      size_t run = 0;
      while (run < n)
        {
          size_t block = m->hole_size - (pos + run) % m->hole_size;
          block = MIN (block, n - run);
          bool z = block == m->hole_size && all_zeros (buf + run, block);
          if (run && z != zero)
            break;
          zero = z;
          run += block;
        }
      if (zero)
        m->report->holes_made = true;
      else if (!write_at (m, pos, buf, run))
        return false;
      pos += run;
      buf += run;
      n -= run;
    }
  return true;
}

/* Allocate M's read/write buffer: whole blocks, so that holes made from
   zeros line up with the destination's blocks.  */
static void
alloc_buffer (struct mover *m)
{
  if (m->buf)
    return;
  m->bufsize = MAX (IO_BUFSIZE, m->hole_size);
  m->bufsize -= m->bufsize % m->hole_size;
  m->buf = xmalloc (m->bufsize);
}

/* Copy one buffer of [POS, END) from M's source with read and write.
   Return the bytes copied, 0 at the source's end, or -1 on error.  */
static ssize_t
read_write (struct mover *m, off_t pos, off_t end)
{
  alloc_buffer (m);
  if (!seek_to (m->src_fd, &m->src_fpos, pos, m->src_name))
    return -1;
  size_t len = MIN (m->bufsize, (uintmax_t) (end - pos));
  size_t n = safe_read (m->src_fd, m->buf, len);
  if (n == SAFE_READ_ERROR)
    {
      error (0, errno, _("error reading %s"), quoteaf (m->src_name));
      m->src_fpos = -1;
      return -1;
    }
  m->src_fpos += n;
  if (n == 0)
    return 0;
  if (! (m->zeros
         ? write_leaving_holes (m, pos, m->buf, n)
         : write_at (m, pos, m->buf, n)))
    return -1;
  m->report->read_write = true;
  progress_moved (n, PROGRESS_READ_WRITE);
  return n;
}

/* Offload one chunk of [POS, END) with M->method.  Return the bytes
   copied, 0 if the kernel sees the source's end, -1 on error, or -2 if
   the kernel refused and M->method has moved on to the next method.  */
static ssize_t
offload (struct mover *m, off_t pos, off_t end)
{
  size_t len = MIN (m->chunk, (uintmax_t) (end - pos));
  off_t in = pos;
  off_t out = pos;
  /* Only a call that the chunk cuts short of the source's end has a
     next one to size; the clock is a system call under some
     hypervisors, once per small file of a tree.  */
  bool timed = (len == m->chunk && !m->chunk_fixed
                && len < (uintmax_t) (m->size_hint - pos));
  long long start = timed ? gethrxtime () : 0;
  ssize_t n = (m->method == M_COPY_RANGE
               ? copy_range (m->src_fd, &in, m->dst_fd, &out, len, 0)
               : copy_file_range (m->src_fd, &in, m->dst_fd, &out, len, 0));
  if (n < 0)
    {
      if (errno == EINTR)
        return -2;
      if (!offload_refused (errno))
        {
          error (0, errno, _("error copying %s to %s"),
                 quoteaf_n (0, m->src_name), quoteaf_n (1, m->dst_name));
          return -1;
        }
      if (m->method == M_COPY_FILE_RANGE && errno == ENOSYS)
        copy_file_range_missing = true;
      m->method = (m->method == M_COPY_RANGE && !copy_file_range_missing
                   ? M_COPY_FILE_RANGE : M_READ_WRITE);
      if (m->method == M_READ_WRITE)
        m->report->offload_refused = true;
      return -2;
    }
  if (n == 0)
    return 0;

  /* The kernel advanced both offsets past what it copied; go on from
     there.  */
  if (in - pos != n || out - pos != n)
    {
      error (0, EIO, _("error copying %s to %s"),
             quoteaf_n (0, m->src_name), quoteaf_n (1, m->dst_name));
      return -1;
    }
  if (n == len && timed)
    adapt_chunk (m, gethrxtime () - start);
  if (m->method == M_COPY_RANGE)
    m->report->copy_range = true;
  else
    m->report->copy_file_range = true;
  m->dst_size = MAX (m->dst_size, out);
  if (progress_active ())
    progress_moved (n, offload_method (m));
  return n;
}

/* M's destination holds the first POS bytes of its source.  */
static void
reached (struct mover const *m, off_t pos)
{
  if (m->watch)
    m->watch->reached (m->watch->arg, pos);
}

/* Whether M's offload has copied its source to the end: the kernel
   stopped at the size fstat gave, and a read there finds nothing.  One
   pread(2), no seek: GNU cp asks as cheaply, with a copy_file_range call
   that returns 0.  If the read fails, or finds bytes (a /proc file, or a
   source that grew), read_write goes on from POS and says what failed.  */
static bool
offload_done (struct mover const *m, off_t pos)
{
  char byte;
  return (m->method != M_READ_WRITE && m->src_regular
          && pread (m->src_fd, &byte, 1, pos) == 0);
}

/* Copy [*POS, END) of M's source to the same offsets of its destination,
   or up to the source's end if that comes first, advancing *POS.  */
static bool
copy_extent (struct mover *m, off_t *pos, off_t end)
{
  while (*pos < end)
    {
      ssize_t n;
      if (m->method == M_READ_WRITE)
        n = read_write (m, *pos, end);
      else if (m->size_hint <= *pos)
        n = offload_done (m, *pos) ? 0 : read_write (m, *pos, end);
      else
        {
          n = offload (m, *pos, end);
          if (n == -2)
            continue;
          if (n == 0)
            {
              /* The kernel sees the end of the file here: let read(2)
                 confirm it, for /proc and /sys files have sizes that are
                 not their contents', and this file may have grown.  */
              m->size_hint = *pos;
              continue;
            }
        }
      if (n < 0)
        return false;
      if (n == 0)
        break;
      *pos += n;
      reached (m, *pos);
    }
  return true;
}

/* Fill [POS, END) of M's destination with zeros, written.  */
static bool
write_zeros (struct mover *m, off_t pos, off_t end)
{
  alloc_buffer (m);
  memset (m->buf, 0, m->bufsize);
  while (pos < end)
    {
      size_t n = MIN (m->bufsize, (uintmax_t) (end - pos));
      if (!put_at (m, pos, m->buf, n, true))
        return false;
      progress_moved (n, PROGRESS_READ_WRITE);
      pos += n;
    }
  return true;
}

/* Skip the hole [POS, END) of M's source: leave a hole in the destination
   unless SPARSE says never (or the destination cannot have one); then
   write zeros.  */
static bool
copy_hole (struct mover *m, off_t pos, off_t end, enum sparse_mode sparse)
{
  if (sparse == SPARSE_NEVER || !m->dst_regular)
    return write_zeros (m, pos, end);
  m->report->holes_made = true;
  progress_moved (end - pos, PROGRESS_HOLE);
  return true;
}

/* Find where the data at or after POS in M's source starts (SEEK_DATA,
   HOW) or ends (SEEK_HOLE), in *R: -1 if no data starts there (POS is
   in a hole that reaches the end), POS if POS is past the end.  Return
   false after diagnosing an error.  */
static bool
seek_extent (struct mover *m, off_t pos, int how, off_t *r)
{
  *r = lseek (m->src_fd, pos, how);
  m->src_fpos = *r;
  if (*r < 0)
    {
      if (errno == ENXIO)
        {
          *r = how == SEEK_DATA ? -1 : pos;
          return true;
        }
      error (0, errno, _("cannot lseek %s"), quoteaf (m->src_name));
      return false;
    }
  return true;
}

/* Copy M's source from M->start on, data extent by data extent, starting
   at DATA, the first extent there, found already (-1 if there is none).
   SIZE is the size
   that fstat gave: a source that grows while it is copied is copied to
   its real end, as GNU cp copies it, data found past SIZE included; a
   trailing hole ends at SIZE (or at the data's end, if later).  Store
   the size reached in *END.  */
static bool
copy_extents (struct mover *m, off_t data, off_t size,
              enum sparse_mode sparse, off_t *end)
{
  off_t pos = m->start;
  for (;;)
    {
      off_t next = data < 0 ? MAX (pos, size) : data;
      if (pos < next && !copy_hole (m, pos, next, sparse))
        return false;
      pos = next;
      reached (m, pos);
      if (data < 0)
        break;
      off_t hole;
      if (!seek_extent (m, data, SEEK_HOLE, &hole))
        return false;
      if (!copy_extent (m, &pos, hole))
        return false;
      if (pos < hole)
        break;          /* The source shrank.  */
      if (!seek_extent (m, pos, SEEK_DATA, &data))
        return false;
    }
  *end = pos;
  return true;
}

/* Clone all of M's source onto its destination, for --reflink=always.  */
static bool
clone_file (struct mover *m)
{
  while (ioctl (m->dst_fd, FICLONE, m->src_fd) != 0)
    if (errno != EINTR)
      {
        error (0, errno, _("failed to clone %s from %s"),
               quoteaf_n (0, m->dst_name), quoteaf_n (1, m->src_name));
        return false;
      }
  m->report->cloned = true;
  /* One call shares every block: the file is there when it returns.  */
  progress_moved (m->size_hint, PROGRESS_CLONE);
  return true;
}

/* Give M's destination its final SIZE, which a trailing hole (or a last
   block of zeros) left unwritten.  */
static bool
set_size (struct mover *m, off_t size)
{
  if (!m->dst_regular || size <= m->dst_size)
    return true;
  if (ftruncate (m->dst_fd, size) != 0)
    {
      error (0, errno, _("failed to extend %s"), quoteaf (m->dst_name));
      return false;
    }
  m->dst_size = size;
  return true;
}

/* Copy M's source whose status is SRC_ST as OPTS say, extent by extent if
   it looks sparse.  */
static bool
copy_contents (struct mover *m, struct stat const *src_st,
               struct data_options const *opts)
{
  off_t end = m->start;
  bool sparse_src = looks_sparse (src_st);
  if (sparse_src)
    {
      off_t data = lseek (m->src_fd, m->start, SEEK_DATA);
      m->src_fpos = -1;
      if (0 <= data || errno == ENXIO)
        {
          m->report->sparse_seek = true;
          /* Whatever read and write copy leaves holes for its zeros, with
             --sparse=auto too; the extents are offloaded only where that
             beats holes, and never with --sparse=always.  */
          m->zeros = (m->dst_regular
                      && (opts->sparse == SPARSE_ALWAYS
                          || opts->sparse == SPARSE_AUTO));
          if (m->zeros
              && (opts->sparse == SPARSE_ALWAYS || !offload_beats_holes (m)))
            {
              m->method = M_READ_WRITE;
              m->report->offload_avoided = true;
            }
          off_t size = src_st->st_size;
          return (copy_extents (m, data, size, opts->sparse, &end)
                  && set_size (m, end));
        }
    }

  /* No SEEK_DATA: with holes to make, look for them in the data.  */
  m->zeros = (m->dst_regular
              && (opts->sparse == SPARSE_ALWAYS
                  || (opts->sparse == SPARSE_AUTO && sparse_src)));
  if (m->zeros)
    {
      m->method = M_READ_WRITE;
      m->report->offload_avoided = true;
    }
  return copy_extent (m, &end, OFF_MAX) && set_size (m, end);
}

bool
copy_data (int src_fd, char const *src_name, struct stat const *src_st,
           int dst_fd, char const *dst_name, struct stat const *dst_st,
           off_t start,
           struct data_options const *opts,
           struct data_watch const *watch, struct data_report *report)
{
  memset (report, 0, sizeof *report);
  struct mover m =
    {
      .src_fd = src_fd, .dst_fd = dst_fd,
      .src_name = src_name, .dst_name = dst_name,
      .method = (opts->reflink == REFLINK_NEVER ? M_READ_WRITE
                 : M_COPY_RANGE),
      .chunk = CHUNK_START,
      .size_hint = S_ISREG (src_st->st_mode) ? src_st->st_size : 0,
      .src_regular = S_ISREG (src_st->st_mode),
      .src_fpos = 0, .dst_fpos = 0, .dst_size = start,
      .offload_how = -1, .start = start, .watch = watch, .report = report,
    };

  if (opts->reflink == REFLINK_ALWAYS)
    return clone_file (&m);
  if (m.src_regular && ADVISE_MIN < m.size_hint - start)
    /* Advice: a file system that takes none copies all the same.  */
    posix_fadvise (src_fd, start, 0, POSIX_FADV_SEQUENTIAL);

  size_t chunk = fixed_chunk ();
  if (chunk)
    {
      m.chunk = chunk;
      m.chunk_fixed = true;
    }

  m.dst_regular = S_ISREG (dst_st->st_mode);
  m.hole_size = ST_BLKSIZE (*dst_st);

  bool ok = copy_contents (&m, src_st, opts);
  /* Zeros were sought where read and write copied, or were to.  */
  report->zeros_scan = m.zeros && (m.method == M_READ_WRITE
                                   || report->read_write);
  if (opts->reflink == REFLINK_NEVER)
    report->offload_avoided = true;
  free (m.buf);
  return ok;
}

/* The words for how the bytes moved, as in "copy_range + read/write".  */
static char const *
method_words (struct data_report const *r, char *buf, size_t size)
{
  char const *names[] = { r->cloned ? "FICLONE" : NULL,
                          r->copy_range ? "copy_range" : NULL,
                          r->copy_file_range ? "copy_file_range" : NULL,
                          r->read_write ? "read/write" : NULL };
  buf[0] = '\0';
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (names[i])
      {
        if (buf[0])
          strncat (buf, " + ", size - strlen (buf) - 1);
        strncat (buf, names[i], size - strlen (buf) - 1);
      }
  return buf[0] ? buf : "none";
}

void
print_data_report (struct data_report const *r)
{
  char const *offload = (r->copy_range || r->copy_file_range ? "yes"
                         : r->offload_avoided ? "avoided"
                         : r->offload_refused ? "unsupported"
                         : "unknown");
  char const *sparse = (r->cloned ? "unknown"
                        : r->sparse_seek && r->zeros_scan ? "SEEK_HOLE + zeros"
                        : r->sparse_seek ? "SEEK_HOLE"
                        : r->zeros_scan ? "zeros"
                        : "no");
  char buf[64];
  out_printf ("copy offload: %s, reflink: %s, sparse detection: %s,"
              " method: %s\n",
          offload, r->cloned ? "yes" : "no", sparse,
          method_words (r, buf, sizeof buf));
}
