/* mounts.h -- cpr --jobs: where a mount may lead a walk into its copy.
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

#ifndef CPR_MOUNTS_H
#define CPR_MOUNTS_H

#include <stdbool.h>

/* The mounts of this process's mount namespace, read once for all the
   operands of a command line: reading /proc/self/mountinfo for each one
   costs seconds on a machine of thousands of mounts.  */
struct mount_table;

/* The mounts now, or NULL if /proc/self/mountinfo cannot be read.  */
struct mount_table *mount_table_read (void);

void mount_table_free (struct mount_table *mounts);

/* Whether a copy from the directory whose real name (absolute, no
   symlinks, "." or "..") is SRC into the one whose real name is DST may,
   by way of MOUNTS, write where its walk of SRC reads, unseen by the
   identities of the directories that ".." leads through from each.
   Within one mount those identities say all, and this function says
   false.  True if MOUNTS is NULL.  */
bool mounts_may_alias (struct mount_table const *mounts, char const *src,
                       char const *dst);

#endif /* CPR_MOUNTS_H */
