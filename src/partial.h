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

/* The extended attribute that marks a destination whose data is not
   all there yet.  Its value is one line of text (no newline, no NUL),
   six numbers in lower-case hexadecimal:

     1 D I S SEC.NSEC O

   1 is the format's version; D, I, S and SEC.NSEC are the source's
   st_dev, st_ino, st_size and st_mtim (SEC with a minus sign before
   1970) when the copy started; O is the
   length of the destination's prefix that was known to hold the
   source's bytes when the mark was last written.  Text, not a C struct,
   so that it does not depend on the machine that wrote it, and getfattr
   shows it.  Hexadecimal and no field names, because the value must be
   short: ext4 keeps about 60 bytes of attributes in a 256-byte inode,
   and a longer value goes to a block of its own, which made setting and
   removing the mark cost a copy of a small file four times its time.  */
#define PARTIAL_XATTR "user.cpr.partial"

/* What a mark says.  */
struct partial_mark
{
  uintmax_t dev;
  uintmax_t ino;
  intmax_t size;
  struct timespec mtime;
  intmax_t offset;              /* -1 if the mark could not be parsed */
};

/* The marking of one destination while its data is written.  */
struct partial
{
  int fd;                       /* the destination; -1: it is not marked */
  struct partial_mark mark;
  long long written_ns;         /* when its offset was last updated,
                                   or 0 before the first update */
  bool write_added;             /* the owner got write permission for it */
  mode_t mode;                  /* the mode to give back then */
};

/* Read FD's mark into *M.  Return 1 if there is one (M->offset is -1
   when its value makes no sense), 0 if there is none, or -1 with errno
   set if it cannot be read.  */
int partial_get (int fd, struct partial_mark *m);

/* Whether mark M was written by a copy of the file whose status is
   SRC_ST, as it still is.  */
bool partial_matches (struct partial_mark const *m,
                      struct stat const *src_st);

/* Mark FD, a regular destination, as a partial copy of the file whose
   status is SRC_ST, whose first OFFSET bytes it holds, filling in *P.
   Return 0, or -1 with errno set and P->fd set to -1.  */
int partial_begin (struct partial *p, int fd, struct stat const *src_st,
                   off_t offset);

/* *P, just begun, goes on with a copy of the file whose status is
   SRC_ST that an earlier run marked: the destination, of mode DST_MODE,
   is that run's new file.  A copy of a source without owner write
   permission got it only for the mark (partial_begin): take it back at
   partial_settle_mode, as that run would have.  */
void partial_resumed (struct partial *p, struct stat const *src_st,
                      mode_t dst_mode);

/* The destination of the partial *ARG (a struct partial) holds the
   first POS bytes of its source: write that down, at once the first
   time (unless the copy is done), then at most once a second.  A callback of the data mover; errors leave the older (lower)
   offset in place, which is safe.  */
void partial_reached (void *arg, off_t pos);

/* The data copy is over: take back the write permission that
   partial_begin gave the owner, if it did.  */
void partial_settle_mode (struct partial *p);

/* Remove the mark of *P, if marked.  Return 0, or -1 with errno set.  */
int partial_end (struct partial *p);

/* Whether ERR says that a file system cannot hold user xattrs.  */
bool partial_unsupported (int err);

#endif /* CPR_PARTIAL_H */
