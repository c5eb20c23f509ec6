/* copy.h -- the cpr copy engine: options and entry points.
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

#ifndef CPR_COPY_H
#define CPR_COPY_H

#include <stdbool.h>
#include <sys/types.h>

#include "backupfile.h"
#include "hash.h"
#include "data.h"
#include "mounts.h"

/* Which symbolic links in SOURCE are followed.  */
enum dereference_symlink
{
  DEREF_UNDEFINED,              /* not chosen yet; cp.c picks a default */
  DEREF_NEVER,                  /* -P: copy symlinks as symlinks */
  DEREF_COMMAND_LINE_ARGUMENTS, /* -H: follow those named as operands */
  DEREF_ALWAYS                  /* -L: follow every symlink */
};

/* What to do when a destination file already exists.  */
enum interactive
{
  I_ALWAYS_YES,                 /* overwrite without asking (default, -f) */
  I_ALWAYS_NO,                  /* -n: never overwrite, silently */
  I_ASK_USER                    /* -i: ask on stderr, read stdin */
};

struct cp_options
{
  /* Make backups of existing destinations, and how (-b, --backup).  */
  enum backup_type backup_type;

  /* Which source symlinks are followed (-H, -L, -P, -d).  */
  enum dereference_symlink dereference;

  /* Overwrite, skip or ask for existing destinations (-i, -n).  */
  enum interactive interactive;

  /* How the data mover may clone, offload and make holes
     (--reflink, --sparse).  */
  struct data_options data;

  /* Read special files (FIFOs, devices) as if they were regular files
     instead of recreating them.  True unless -R without
     --copy-contents.  */
  bool copy_as_regular;

  /* Copy only attributes, leaving the data of new files empty and of
     existing files untouched (--attributes-only).  */
  bool data_copy_skipped;

  /* Remove an existing destination before creating the copy
     (--remove-destination).  */
  bool unlink_dest_before_opening;

  /* Remove a destination that cannot be opened for writing, then
     retry (-f).  */
  bool unlink_dest_after_failed_open;

  /* Make hard links (-l) or symbolic links (-s) instead of copies.  */
  bool hard_link;
  bool symbolic_link;

  /* Do not descend into directories on other file systems (-x).  */
  bool one_file_system;

  /* Attributes to give the copy from its source (-p, --preserve).  */
  bool preserve_ownership;
  bool preserve_mode;
  bool preserve_timestamps;
  bool preserve_links;          /* keep hard links between sources */
  bool preserve_xattr;
  bool preserve_security_context;

  /* A failure to preserve xattrs fails the copy, and each is told:
     true with --preserve=xattr, false with -a and --preserve=all.  */
  bool require_preserve_xattr;

  /* Say nothing of xattrs that could not be preserved unless that is
     required (-a); without it --preserve=all tells of each failure but
     "not supported" and "no such attribute", as GNU cp.  */
  bool reduce_diagnostics;

  /* --no-preserve=mode: new files get the default mode (0666 or 0777
     less the umask) instead of the source's mode.  */
  bool explicit_no_preserve_mode;

  /* Copy directories recursively (-R, -r, -a).  */
  bool recursive;

  /* Copy only when the source is newer than the destination (-u), or
     when the destination is marked as a partial copy (partial.h).  */
  bool update;

  /* Go on with the partial copies that an earlier cpr left, from where
     they stopped (--continue).  */
  bool resume;

  /* Copy up to this many regular files at once, on worker threads
     (--jobs); 1: one at a time, on the main thread; 0: as many as the
     destination's file system wants (--jobs=auto), which cp.c settles
     (auto_jobs) before the copy starts.  */
  size_t jobs;

  /* Print "'SRC' -> 'DST'" for each copy (-v), and say how the data
     moved (--debug, which implies -v).  */
  bool verbose;
  bool debug;

  /* True when the caller is root-like: failing to preserve ownership is
     then an error instead of being silently accepted.  */
  bool chown_privileges;

  /* The process umask, for the modes of new files and directories.  */
  mode_t umask_kill;

  /* Destinations created by this invocation, so that a later operand
     does not overwrite them ("will not overwrite just-created").
     NULL when there is only one source.  */
  Hash_table *dest_info;

  /* Command-line sources already copied, to warn about repeats.  */
  Hash_table *src_info;
};

/* Copy SRC_NAME to DST_NAME, which is DST_RELNAME relative to the
   directory DST_DIR_FD (the target directory, or AT_FDCWD).
   NONEXISTENT_DST says DST_NAME is known not to exist.  Set
   *COPY_INTO_SELF when a directory would be copied into itself.
   Diagnose failures and return false if any.  */
bool copy (char const *src_name, char const *dst_name, int dst_dir_fd,
           char const *dst_relname, bool nonexistent_dst,
           struct cp_options const *x, bool *copy_into_self);

/* --jobs: whether a copy of the operand SRC_NAME into DST_NAME (the
   target directory, or the one operand's destination) may list, as a
   source, a directory into which it copies files: SRC_NAME is a
   directory (as *X follows operands) within DST_NAME, or holding it,
   or, by way of MOUNTS (mounts_may_alias; NULL: they are not known),
   showing it or a part of it.
   Those files would then have to be whole when listed, and made in the
   order that a copy one file at a time makes them, for their inode
   numbers give the order of the listing.  False if DST_NAME is not a
   directory: what a copy creates, it does not list.  */
bool copy_reads_back (char const *src_name, char const *dst_name,
                      struct mount_table const *mounts,
                      struct cp_options const *x);

/* For --progress, count the operand SRC_NAME as found (its size, or
   that it is a directory to be listed), before the copy starts: the
   totals then cover every operand from the start.  */
void count_source (char const *src_name, struct cp_options const *x);

/* --jobs=auto: how many files to copy at once into DST, an existing
   directory or, where it does not exist yet, the name of a file to be
   made in its directory: 8 on a network file system, 1 elsewhere.  */
size_t auto_jobs (char const *dst);

/* Wait for the copies on worker threads (--jobs) and write what they
   said; return false if any copy they made since the start failed.  */
bool copy_wait (void);

/* Prepare and release the engine's tables of copied files (and its
   worker threads).  */
void hash_init (void);
void forget_all (void);

/* Set up *X's tables for remembering sources and destinations.  */
void dest_info_init (struct cp_options *x);
void src_info_init (struct cp_options *x);

/* Like copy's attribute step, for the parent directories that
   --parents creates: give DST_NAME, which is DST_RELNAME relative to
   DST_DIR_FD, the attributes of SRC_NAME (whose stat is *SRC_ST) that
   *X preserves, and FINAL_MODE unless it is (mode_t) -1 or the mode
   is preserved.  */
bool copy_dir_attributes (char const *src_name, struct stat const *src_st,
                          char const *dst_name, int dst_dir_fd,
                          char const *dst_relname, bool new_dst,
                          mode_t final_mode, struct cp_options const *x);

#endif
