/* mounts.c -- cpr --jobs: where a mount may lead a walk into its copy.
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

#include <config.h>

#include "mounts.h"

#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

#include "xalloc.h"

struct mount_point
{
  unsigned long id;             /* mountinfo's ID of the mount */
  dev_t dev;                    /* the file system's device number */
  char *root;                   /* the directory of it mounted here */
  char *dir;                    /* where, in this namespace */
  /* Whether it shows other file systems' directories as its own, under
     identities of its own: an overlay its layers', a FUSE daemon
     (bindfs, mergerfs), aufs or shiftfs any it pleases.  */
  bool shows_others;
};

struct mount_table
{
  /* In mountinfo's order: a mount stacked on another comes after it.  */
  struct mount_point *m;
  size_t n;
};

/* Undo mountinfo's octal escapes ("\040" for a space) in S, in place.  */
static void
unescape_mountinfo (char *s)
{
  char *d = s;
  for (; *s; s++)
    if (s[0] == '\\' && '0' <= s[1] && s[1] <= '3'
        && '0' <= s[2] && s[2] <= '7' && '0' <= s[3] && s[3] <= '7')
      {
        *d++ = (s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0');
        s += 3;
      }
    else
      *d++ = *s;
  *d = '\0';
}

/* Whether the file system whose type mountinfo names TYPE shows other
   file systems' directories as its own.  */
static bool
shows_others (char const *type)
{
  return (strcmp (type, "overlay") == 0 || strncmp (type, "fuse", 4) == 0
          || strcmp (type, "aufs") == 0 || strcmp (type, "shiftfs") == 0);
}

/* Parse LINE of mountinfo ("36 35 98:0 /root /dir options [optional
   fields] - type source super-options") into *M; false if it is not
   one.  Names are escaped there, so " - " only ends the fields.  */
static bool
parse_mount (char *line, struct mount_point *m)
{
  unsigned long id;
  unsigned int major, minor;
  int root_at = -1, root_end = -1, dir_at = -1, dir_end = -1;
  if (sscanf (line, "%lu %*u %u:%u %n%*s%n %n%*s%n", &id, &major, &minor,
              &root_at, &root_end, &dir_at, &dir_end) < 3 || dir_end < 0)
    return false;
  char *type = strstr (line + dir_end, " - ");
  if (!type)
    return false;
  type += 3;
  type[strcspn (type, " \n")] = '\0';
  line[root_end] = line[dir_end] = '\0';
  unescape_mountinfo (line + root_at);
  unescape_mountinfo (line + dir_at);
  *m = (struct mount_point) { .id = id, .dev = makedev (major, minor),
                              .root = xstrdup (line + root_at),
                              .dir = xstrdup (line + dir_at),
                              .shows_others = shows_others (type) };
  return true;
}

void
mount_table_free (struct mount_table *mounts)
{
  if (!mounts)
    return;
  for (size_t i = 0; i < mounts->n; i++)
    {
      free (mounts->m[i].root);
      free (mounts->m[i].dir);
    }
  free (mounts->m);
  free (mounts);
}

struct mount_table *
mount_table_read (void)
{
  FILE *f = fopen ("/proc/self/mountinfo", "re");
  if (!f)
    return NULL;
  struct mount_table *t = xzalloc (sizeof *t);
  size_t alloc = 0;
  char *line = NULL;
  size_t size = 0;
  /* A line not understood may be a mount missed: then none is known.  */
  bool ok = true;
  while (ok && getline (&line, &size, f) > 0)
    {
      if (t->n == alloc)
        t->m = x2nrealloc (t->m, &alloc, sizeof *t->m);
      ok = parse_mount (line, &t->m[t->n]);
      t->n += ok;
    }
  ok &= !ferror (f);
  free (line);
  fclose (f);
  if (!ok)
    {
      mount_table_free (t);
      return NULL;
    }
  return t;
}

/* Whether the name NAME lies below the directory DIR (both absolute and
   real); OR_AT: or is DIR.  */
static bool
below (char const *name, char const *dir, bool or_at)
{
  size_t len = strlen (dir);
  if (len == 1)
    return or_at || name[1] != '\0';
  return (strncmp (name, dir, len) == 0
          && (name[len] == '/' || (or_at && name[len] == '\0')));
}

/* The mount that shows the real name REAL: the one whose ID statx
   gives, as the kernel resolves the name; where statx cannot tell
   (before Linux 5.8), the one mounted on the longest of the directories
   that hold it, if only one is: which of two stacked there is on top,
   mountinfo's order does not say (a mount moved, or propagated under
   another).  NULL if none, or not known.  */
static struct mount_point const *
mount_holding (struct mount_table const *t, char const *real)
{
  struct statx stx;
  if (statx (AT_FDCWD, real, AT_NO_AUTOMOUNT, STATX_MNT_ID, &stx) == 0
      && (stx.stx_mask & STATX_MNT_ID))
    {
      for (size_t i = 0; i < t->n; i++)
        if (t->m[i].id == stx.stx_mnt_id)
          return &t->m[i];
      return NULL;
    }
  /* Without the ID, two mounts on that directory leave it unknown.  */
  struct mount_point const *holder = NULL;
  size_t best = 0;
  bool stacked = false;
  for (size_t i = 0; i < t->n; i++)
    {
      size_t len = strlen (t->m[i].dir);
      if (best <= len && below (real, t->m[i].dir, true))
        {
          stacked = holder && best == len;
          best = len;
          holder = &t->m[i];
        }
    }
  return stacked ? NULL : holder;
}

/* Whether a mount lies below the real name REAL.  */
static bool
mount_below (struct mount_table const *t, char const *real)
{
  for (size_t i = 0; i < t->n; i++)
    if (below (t->m[i].dir, real, false))
      return true;
  return false;
}

/* Take as a way into the copy: two mounts of one file system (a bind
   mount of s/sub, the file system mounted twice, a btrfs subvolume
   mounted on its own), from which ".." leads to the top of each mount
   and no further; any mount below the source or the destination (the
   destination, or the source, or any file system that both show,
   mounted inside the other); and any mount of a file system that shows
   others' directories as its own (overlay, FUSE).  Telling which of
   those lead nowhere near the copy takes more than mountinfo says: a
   mount covered by another is still listed, a file system may be
   mounted below both ends, and an overlay's layers may be mounted
   anywhere.  A copy taken for one only takes longer.  */
bool
mounts_may_alias (struct mount_table const *mounts, char const *src,
                  char const *dst)
{
  if (!mounts)
    return true;
  struct mount_point const *ms = mount_holding (mounts, src);
  struct mount_point const *md = mount_holding (mounts, dst);
  return (!ms || !md || ms->shows_others || md->shows_others
          || (ms != md && ms->dev == md->dev)
          || mount_below (mounts, src) || mount_below (mounts, dst));
}
