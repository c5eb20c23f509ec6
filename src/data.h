/* data.h -- the data mover of cpr: copy the bytes of one file.
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

#ifndef CPR_DATA_H
#define CPR_DATA_H

#include <stdbool.h>
#include <sys/stat.h>

/* quoteaf, quotef and error, which may run on a worker thread.  */
#include "jobs.h"

enum reflink_mode { REFLINK_NEVER, REFLINK_AUTO, REFLINK_ALWAYS };   /* --reflink[=WHEN] */
enum sparse_mode  { SPARSE_UNUSED, SPARSE_NEVER, SPARSE_AUTO, SPARSE_ALWAYS }; /* --sparse=WHEN */

struct data_options
{
  enum reflink_mode reflink;
  enum sparse_mode sparse;
};

/* What moved the bytes, for --debug.  copy_data fills it all in.  */
struct data_report
{
  bool cloned;            /* FICLONE cloned the whole file (--reflink=always) */
  bool copy_range;        /* some bytes moved with copy_range */
  bool copy_file_range;   /* some bytes moved with copy_file_range */
  bool read_write;        /* some bytes moved with read/write */
  bool sparse_seek;       /* holes were found with SEEK_DATA/SEEK_HOLE */
  bool holes_made;        /* holes were created in the destination */

  /* Beyond the contract with cp.c, for the words of the --debug line.  */
  bool offload_avoided;   /* offload not tried: --reflink=never, or zeros sought */
  bool offload_refused;   /* the kernel refused every offload for this pair */
  bool zeros_scan;        /* runs of zero bytes were sought in the data */
};

/* Who is told how far a copy got: REACHED (ARG, POS) is called after
   each step (a chunk, a buffer, a hole) with the length of the
   destination's prefix that holds the source's bytes, so that an
   interrupted copy can go on from there (see partial.h).  */
struct data_watch
{
  void (*reached) (void *arg, off_t pos);
  void *arg;
};

/* Copy the data of SRC_FD (an open regular file, or anything readable with
   --copy-contents) to DST_FD (open for writing, positioned at 0), from
   offset START on: the caller has made the destination START bytes long,
   holding the source's first START bytes (0: truncated or created).
   SRC_ST and DST_ST are their fstat.  Sets the destination's final size
   (including a trailing hole).  Tell WATCH, unless NULL, how far the copy
   got.  On failure, diagnose once, GNU cp's way, and return false.  */
bool copy_data (int src_fd, char const *src_name, struct stat const *src_st,
                int dst_fd, char const *dst_name,
                struct stat const *dst_st, off_t start,
                struct data_options const *opts,
                struct data_watch const *watch, struct data_report *report);

/* Format the --debug line ("copy offload: ..., reflink: ...,
   sparse detection: ..., method: ...") for REPORT onto stdout, in the
   order of the output (out_printf).  */
void print_data_report (struct data_report const *report);

#endif /* CPR_DATA_H */
