/* progress.h -- cpr --progress: one status line on standard error.
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

#ifndef CPR_PROGRESS_H
#define CPR_PROGRESS_H

#include <stdbool.h>
#include <sys/types.h>

/* --progress[=WHEN].  */
enum progress_when { PROGRESS_NEVER, PROGRESS_AUTO, PROGRESS_ALWAYS };

/* How the bytes of one chunk reached the destination.  */
enum progress_method
{
  PROGRESS_CLONE,               /* the copy shares the source's blocks */
  PROGRESS_SERVER,              /* the file server copied them */
  PROGRESS_KERNEL,              /* the kernel copied them (page cache) */
  PROGRESS_READ_WRITE,          /* cpr read and wrote them */
  PROGRESS_HOLE,                /* a hole: nothing to move */
  PROGRESS_METHODS
};

/* Every function below does nothing unless progress_start made the
   display active, so that the engine can call them unconditionally and
   cpr without --progress behaves (and writes) exactly as before.  */

/* Start the display if WHEN asks for it here (auto: standard error is a
   terminal).  Call once, after setlocale and before any copy.  */
void progress_start (enum progress_when when);

/* Whether the display is active: the engine looks ahead for totals only
   then.  */
bool progress_active (void);

/* The walk found a file that is not a directory, with BYTES of data to
   copy (0 for what has none: a symlink, a hard link to make).  */
void progress_found_file (off_t bytes);

/* The walk found a directory that it will list later; until every
   directory found is listed, the totals are lower bounds.  */
void progress_found_dir (void);

/* A directory found has been listed (its entries are found), or will
   not be.  */
void progress_dir_listed (void);

/* BYTES of the current file reached the destination by HOW: the kernel
   or write(2) returned them.  */
void progress_moved (off_t bytes, enum progress_method how);

/* A file that is not a directory is done (copied, skipped or failed),
   whose data was expected to be EXPECTED bytes when it was found: the
   byte total becomes what really moved.  */
void progress_file_done (off_t expected);

/* Take the status line off the screen before other output: -v lines,
   --debug lines, an -i prompt.  */
void progress_hide (void);

/* After an -i prompt that progress_hide cleared the line for: an
   answer read from a terminal was echoed with its newline; any other
   leaves the prompt's line open, which the status line must not
   overwrite.  */
void progress_prompted (void);

/* Show it again after that output (flushing standard output first, so
   that what was printed comes before it).  */
void progress_resume (void);

/* Replace the status line with the final summary.  */
void progress_finish (void);

#endif /* CPR_PROGRESS_H */
