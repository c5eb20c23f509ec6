/* partial.h -- the mark of a partial copy, for --continue and -u.
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

#ifndef CPR_PARTIAL_H
#define CPR_PARTIAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

/* A regular file that cpr creates is made with the sticky bit (which
   Linux gives no meaning on a regular file), in the mode of the
   open(O_CREAT) itself, and keeps it until its data and attributes are
   all there: a copy killed at any point after its creation is known to
   be unfinished, with no window in between.  The mode step that ends
   the copy clears the bit.  An existing destination that is written
   over cannot be given the bit (it may not be ours); it is marked with
   the extended attribute below before it is truncated.

   The extended attribute records how far a copy got, for --continue.
   Its value is one line of text (no newline, no NUL), in lower-case
   hexadecimal:

     2 ID O

   2 is the format's version; ID is a 64-bit hash of the source's
   identity when the copy started (st_dev, st_ino, st_size, st_mtim,
   st_ctim, and the birth time where the file system has one); O is the
   length of the destination's prefix that was known to hold the
   source's bytes when the mark was last written.  A hash, not the
   fields, because the value must be short: ext4 keeps about 60 bytes of
   attributes in a 256-byte inode, and a longer value goes to a block of
   its own, which made setting and removing the mark cost a copy of a
   small file four times its time.  A mark with offset 0 says only
   "unfinished" (its ID is 0).  */
#define PARTIAL_XATTR "user.cpr.partial"

/* What a mark says.  */
struct partial_mark
{
  uint64_t id;
  intmax_t offset;              /* -1 if the mark could not be parsed */
};

/* The marking of one destination while its data is written.  */
struct partial
{
  int fd;                       /* the destination; -1: it is not marked */
  int src_fd;                   /* its source, for the identity */
  struct stat const *src_st;    /* the source's status at the start */
  struct partial_mark mark;
  bool written;                 /* the destination carries our xattr */
  bool failed;                  /* writing it failed: no more tries */
  int err;                      /* then why */
  long long written_ns;         /* when its offset was last updated,
                                   or 0 before the first update */
  bool write_added;             /* the owner got write permission for it */
  mode_t mode;                  /* the mode to give back then */
};

/* Read FD's mark into *M.  Return 1 if there is one (M->offset is -1
   when its value makes no sense), 0 if there is none, or -1 with errno
   set if it cannot be read.  */
int partial_get (int fd, struct partial_mark *m);

/* The identity of the source open as SRC_FD, whose status is SRC_ST,
   as a mark records it.  */
uint64_t partial_identity (int src_fd, struct stat const *src_st);

/* Whether the destination whose status is DST_ST may be trusted to
   hold what its mark says: a file that someone else could have written
   (another owner, a second name, group or other write permission, or
   an existing file written over in place, which anyone could have held
   open) could carry a mark planted to make this copy keep that
   someone's bytes.  Only a file that cpr made qualifies.  */
bool partial_trusted (struct stat const *dst_st);

/* Whether the destination whose status is DST_ST may be a file that
   cpr made for the caller: the caller's, or, if the caller is root,
   whose -a copies get their source's owner, SRC_UID's.  */
bool partial_ours (struct stat const *dst_st, uid_t src_uid);

/* Whether the destination whose status is DST_ST is unfinished by the
   sign of a file cpr made: a regular file with the sticky bit, owned by
   the caller (or, if the caller is root, whose -a copies get their
   source's owner, by SRC_UID, the source's owner).  */
bool partial_unfinished_mode (struct stat const *dst_st, uid_t src_uid);

/* Begin marking FD, a regular destination, as a partial copy of the
   file open as SRC_FD whose status is SRC_ST (which must outlive *P),
   and whose first OFFSET bytes it holds, filling in *P.  If NOW, write
   the mark at once (a destination without the sticky bit: an existing
   file, or a file system that dropped the bit); otherwise only once
   there is progress to record.  Return 0, or -1 with errno set and
   P->fd set to -1, after removing any mark that FD had: a mark left
   from before would describe other data.  */
int partial_begin (struct partial *p, int fd, int src_fd,
                   struct stat const *src_st, off_t offset, bool now);

/* The destination of the partial *ARG (a struct partial) holds the
   first POS bytes of its source: write that down, at once the first
   time (unless the copy is done), then at most once a second.  A
   callback of the data mover; a failure leaves the older (lower)
   offset in place, which is safe, is kept in P->err, and ends the
   updates.  */
void partial_reached (void *arg, off_t pos);

/* The data copy is over: take back the write permission that
   partial_begin gave the owner, if it did.  Return the mode the file
   has then, given that it had MODE.  */
mode_t partial_settle_mode (struct partial *p, mode_t mode);

/* Remove the mark of *P, if it wrote one.  Return 0, or -1 with errno
   set.  */
int partial_end (struct partial *p);

/* Put on the file open as FD, in place of any mark, whoever wrote it,
   one that keeps nothing: the file is still unfinished for -u, but
   --continue copies it whole.  Errors are for partial_end to find.  */
void partial_disown (int fd);

/* Learn what the functions above need to know of the caller once,
   before worker threads (--jobs) ask for it at the same time.  */
void partial_init (void);

/* Whether ERR says that a file system cannot hold user xattrs.  */
bool partial_unsupported (int err);

#endif /* CPR_PARTIAL_H */
