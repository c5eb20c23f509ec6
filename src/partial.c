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

/* A regular file's copy carries the mark PARTIAL_XATTR from before its
   first data byte is written until after its last attribute is set, so
   that a copy stopped at any point by a signal or a power cut leaves
   either no data or the mark (as does, with --continue, a copy that
   failed).  With it, --continue knows where to go on from and -u knows
   not to trust the file's timestamp.

   Every call goes through the open destination, never by name: the
   file marked is the file written, whatever is renamed in between.

   The offset written down lags behind the data (it is written at most
   once a second), and data and mark are not synced to disk, so after a
   power cut a filesystem may have kept the mark but not all the data
   before its offset: --continue trusts no more than the destination's
   size, and no more than the offset.  */

#include <config.h>

#include "partial.h"

#include <errno.h>
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
enum { MARK_MAX = 160 };

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
  uintmax_t size, usec, unsec, uoffset;
  if (sscanf (buf, "1 %jx %jx %jx %jx.%jx %jx%n", &m->dev, &m->ino,
              &size, &usec, &unsec, &uoffset, &end) == 6
      && end == n && unsec < 1000000000 && size <= INTMAX_MAX
      && uoffset <= INTMAX_MAX)
    {
      m->size = size;
      /* A time before 1970 was written with a minus sign, which %jx
         reads as the negation modulo UINTMAX_MAX + 1.  */
      m->mtime.tv_sec = (intmax_t) usec;
      m->mtime.tv_nsec = unsec;
      m->offset = uoffset;
    }
  return 1;
}

bool
partial_matches (struct partial_mark const *m, struct stat const *src_st)
{
  return (0 <= m->offset
          && m->dev == (uintmax_t) src_st->st_dev
          && m->ino == (uintmax_t) src_st->st_ino
          && m->size == src_st->st_size
          && m->mtime.tv_sec == src_st->st_mtim.tv_sec
          && m->mtime.tv_nsec == src_st->st_mtim.tv_nsec);
}

/* Write P's mark onto its destination.  */
static int
write_mark (struct partial *p)
{
  struct partial_mark const *m = &p->mark;
  char buf[MARK_MAX + 1];
  intmax_t sec = m->mtime.tv_sec;
  int n = snprintf (buf, sizeof buf, "1 %jx %jx %jx %s%jx.%jx %jx",
                    m->dev, m->ino, (uintmax_t) m->size, sec < 0 ? "-" : "",
                    sec < 0 ? - (uintmax_t) sec : (uintmax_t) sec,
                    (uintmax_t) m->mtime.tv_nsec, (uintmax_t) m->offset);
  return fsetxattr (p->fd, PARTIAL_XATTR, buf, n, 0);
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

int
partial_begin (struct partial *p, int fd, struct stat const *src_st,
               off_t offset)
{
  p->fd = fd;
  p->write_added = false;
  p->written_ns = 0;
  p->mark.dev = src_st->st_dev;
  p->mark.ino = src_st->st_ino;
  p->mark.size = src_st->st_size;
  p->mark.mtime = src_st->st_mtim;
  p->mark.offset = offset;
  if (write_mark (p) == 0
      || (errno == EACCES && add_write (p) && write_mark (p) == 0))
    return 0;
  int err = errno;
  partial_settle_mode (p);
  p->fd = -1;
  errno = err;
  return -1;
}

void
partial_resumed (struct partial *p, struct stat const *src_st,
                 mode_t dst_mode)
{
  if (p->fd < 0 || p->write_added || (src_st->st_mode & S_IWUSR)
      || !(dst_mode & S_IWUSR))
    return;
  p->mode = dst_mode & 07777 & ~S_IWUSR;
  p->write_added = true;
}

void
partial_reached (void *arg, off_t pos)
{
  struct partial *p = arg;
  if (p->fd < 0 || pos == p->mark.offset)
    return;
  /* A file copied in one call reads no clock, which is a system call
     under some hypervisors: its mark goes with its attributes next.  */
  if (!p->written_ns && p->mark.size <= pos)
    return;
  /* So the clock is first read here, and the first progress is written
     down at once.  */
  xtime_t now = gethrxtime ();
  if (p->written_ns && now - p->written_ns < PARTIAL_UPDATE_NS)
    return;
  p->mark.offset = pos;
  write_mark (p);
  p->written_ns = now;
}

void
partial_settle_mode (struct partial *p)
{
  /* Failing, the file keeps its owner's write permission, which is
     less than its copy's mode would have lost in a GNU cp.  */
  if (p->write_added)
    fchmod (p->fd, p->mode);
  p->write_added = false;
}

int
partial_end (struct partial *p)
{
  if (p->fd < 0)
    return 0;
  int r = fremovexattr (p->fd, PARTIAL_XATTR);
  /* Its final mode may have taken write permission away again.  */
  if (r != 0 && errno == EACCES && add_write (p))
    {
      r = fremovexattr (p->fd, PARTIAL_XATTR);
      int err = errno;
      partial_settle_mode (p);
      errno = err;
    }
  if (r != 0 && errno == ENODATA)
    r = 0;
  p->fd = -1;
  return r;
}

bool
partial_unsupported (int err)
{
  return err == ENOTSUP || err == EOPNOTSUPP;
}
