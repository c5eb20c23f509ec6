/* partial.c -- the mark of a partial copy, for --continue and -u.
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

/* See partial.h for the two signs of an unfinished copy, the sticky
   bit of a file cpr made and the extended attribute.  The attribute is
   set and removed through the open destination, never by name: the
   file marked is the file written, whatever is renamed in between.

   The offset written down lags behind the data (it is written at most
   once a second), and data and mark are not synced to disk, so after a
   power cut a filesystem may have kept the mark but not all the data
   before its offset: --continue trusts no more than the destination's
   size, and no more than the offset.  */

#include <config.h>

#include "partial.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "gethrxtime.h"

/* How often at most the offset in a mark is brought up to date: often
   enough that little is copied twice after an interruption, seldom
   enough that the xattr writes (a round trip each on NFS) cost nothing
   next to the data.  */
#define PARTIAL_UPDATE_NS 1000000000LL

/* The longest mark value that can make sense.  */
enum { MARK_MAX = 64 };

int
partial_get (int fd, struct partial_mark *m)
{
  char buf[MARK_MAX + 1];
  ssize_t n = fgetxattr (fd, PARTIAL_XATTR, buf, MARK_MAX);
  m->offset = -1;
  if (n < 0)
    {
      if (errno == ENODATA)
        return 0;
      /* Too long to be one of ours, but a mark all the same.  */
      return errno == ERANGE ? 1 : -1;
    }
  buf[n] = '\0';
  int end = -1;
  uintmax_t id, uoffset;
  if (sscanf (buf, "2 %jx %jx%n", &id, &uoffset, &end) == 2
      && end == n && id <= UINT64_MAX && uoffset <= INTMAX_MAX)
    {
      m->id = id;
      m->offset = uoffset;
    }
  return 1;
}

/* FNV-1a, 64 bits: a hash that the next version of cpr, on another
   machine, computes the same.  It guards against a source that changed,
   not against an adversary: partial_trusted does that.  */
static uint64_t
hash_text (char const *s)
{
  uint64_t h = 0xcbf29ce484222325u;
  for (; *s; s++)
    h = (h ^ (unsigned char) *s) * 0x100000001b3u;
  return h;
}

/* The birth time of SRC_FD, or a zero time where the file system keeps
   none (it never changes for a given file, so it may be read at any
   time).  */
static struct timespec
birth_time (int src_fd)
{
  struct timespec t = { 0, 0 };
#ifdef STATX_BTIME
  struct statx sx;
  if (statx (src_fd, "", AT_EMPTY_PATH, STATX_BTIME, &sx) == 0
      && (sx.stx_mask & STATX_BTIME))
    {
      t.tv_sec = sx.stx_btime.tv_sec;
      t.tv_nsec = sx.stx_btime.tv_nsec;
    }
#endif
  return t;
}

uint64_t
partial_identity (int src_fd, struct stat const *st)
{
  /* The ctime, which no user can set, catches data changed with the
     mtime put back (touch -r, tar, rsync -t); the birth time an inode
     number used again for a file of the same size and times.  */
  struct timespec b = birth_time (src_fd);
  char buf[8 * 24];
  snprintf (buf, sizeof buf, "%jx %jx %jx %jd.%ld %jd.%ld %jd.%ld",
            (uintmax_t) st->st_dev, (uintmax_t) st->st_ino,
            (uintmax_t) st->st_size,
            (intmax_t) st->st_mtim.tv_sec, (long) st->st_mtim.tv_nsec,
            (intmax_t) st->st_ctim.tv_sec, (long) st->st_ctim.tv_nsec,
            (intmax_t) b.tv_sec, (long) b.tv_nsec);
  return hash_text (buf);
}

/* The caller's effective user ID: a system call, asked once.  */
static uid_t
my_euid (void)
{
  static uid_t me;
  static bool known;
  if (!known)
    {
      me = geteuid ();
      known = true;
    }
  return me;
}

void
partial_init (void)
{
  my_euid ();
}

bool
partial_ours (struct stat const *dst_st, uid_t src_uid)
{
  /* Only root's copies can have been given another owner: their
     source's (-a).  */
  uid_t me = my_euid ();
  return dst_st->st_uid == me || (me == 0 && dst_st->st_uid == src_uid);
}

bool
partial_unfinished_mode (struct stat const *dst_st, uid_t src_uid)
{
  return (S_ISREG (dst_st->st_mode) && (dst_st->st_mode & S_ISVTX)
          && partial_ours (dst_st, src_uid));
}

bool
partial_trusted (struct stat const *dst_st)
{
  /* A file of ours with the sticky bit was made by cpr with O_EXCL, so
     nobody held it open before; its mode let no one else write it, and
     it has no other name.  A file written over in place (no sticky
     bit) could have been opened by anyone who could write it before,
     and could write it still.  */
  return (partial_unfinished_mode (dst_st, my_euid ())
          && dst_st->st_uid == my_euid ()
          && dst_st->st_nlink == 1
          && !(dst_st->st_mode & (S_IWGRP | S_IWOTH)));
}

/* Write P's mark onto its destination.  */
static int
write_mark (struct partial *p)
{
  struct partial_mark const *m = &p->mark;
  char buf[MARK_MAX + 1];
  int n = snprintf (buf, sizeof buf, "2 %" PRIx64 " %jx", m->id,
                    (uintmax_t) m->offset);
  int r = fsetxattr (p->fd, PARTIAL_XATTR, buf, n, 0);
  if (r == 0)
    p->written = true;
  return r;
}

/* The kernel wants write permission in the mode of a file to change
   its user xattrs, even through a descriptor open for writing (and
   even for its owner, unless privileged).  A copy of a read-only file
   is created read-only: give its owner write permission until
   partial_settle_mode, if that can be done.  */
static bool
add_write (struct partial *p)
{
  struct stat st;
  if (fstat (p->fd, &st) != 0 || (st.st_mode & S_IWUSR))
    return false;
  if (fchmod (p->fd, (st.st_mode & 07777) | S_IWUSR) != 0)
    return false;
  p->mode = st.st_mode & 07777;
  p->write_added = true;
  return true;
}

/* Write P's mark, with the owner's write permission if it takes it.  */
static int
put_mark (struct partial *p)
{
  if (p->mark.offset && !p->mark.id)
    p->mark.id = partial_identity (p->src_fd, p->src_st);
  return (write_mark (p) == 0
          || (errno == EACCES && add_write (p) && write_mark (p) == 0))
         ? 0 : -1;
}

int
partial_begin (struct partial *p, int fd, int src_fd,
               struct stat const *src_st, off_t offset, bool now)
{
  *p = (struct partial) { .fd = fd, .src_fd = src_fd, .src_st = src_st,
                          .mark = { .offset = offset } };
  if (!now || put_mark (p) == 0)
    return 0;
  int err = errno;
  /* Whatever mark the file had names data that is about to go.  */
  if (!partial_unsupported (err))
    fremovexattr (fd, PARTIAL_XATTR);
  partial_settle_mode (p, 0);
  p->fd = -1;
  errno = err;
  return -1;
}

void
partial_reached (void *arg, off_t pos)
{
  struct partial *p = arg;
  if (p->fd < 0 || p->failed || pos == p->mark.offset)
    return;
  /* A file copied in one call reads no clock, which is a system call
     under some hypervisors, and writes no mark: its sticky bit goes
     with its attributes next.  */
  if (!p->written_ns && p->src_st->st_size <= pos)
    return;
  /* So the clock is first read here, and the first progress is written
     down at once.  */
  xtime_t now = gethrxtime ();
  if (p->written_ns && now - p->written_ns < PARTIAL_UPDATE_NS)
    return;
  off_t old = p->mark.offset;
  p->mark.offset = pos;
  if (put_mark (p) != 0)
    {
      p->mark.offset = old;
      p->failed = true;
      p->err = errno;
    }
  p->written_ns = now;
}

mode_t
partial_settle_mode (struct partial *p, mode_t mode)
{
  /* Failing, the file keeps its owner's write permission, which is
     less than its copy's mode would have lost in a GNU cp.  */
  if (p->write_added && fchmod (p->fd, p->mode) == 0)
    mode = (mode & ~07777) | p->mode;
  p->write_added = false;
  return mode;
}

int
partial_end (struct partial *p)
{
  if (p->fd < 0 || !p->written)
    {
      p->fd = -1;
      return 0;
    }
  int r = fremovexattr (p->fd, PARTIAL_XATTR);
  /* Its final mode may have taken write permission away again.  */
  if (r != 0 && errno == EACCES && add_write (p))
    {
      r = fremovexattr (p->fd, PARTIAL_XATTR);
      int err = errno;
      partial_settle_mode (p, 0);
      errno = err;
    }
  if (r != 0 && errno == ENODATA)
    r = 0;
  p->fd = -1;
  return r;
}

void
partial_disown (int fd)
{
  /* Offset 0: nothing to keep, but a mark all the same, for -u.  */
  fsetxattr (fd, PARTIAL_XATTR, "2 0 0", 5, 0);
}

bool
partial_unsupported (int err)
{
  return err == ENOTSUP || err == EOPNOTSUPP;
}
