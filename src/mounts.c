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

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

#include "xalloc.h"
#include "xvasprintf.h"

/* How a mounted file system shows directories.  */
enum mount_kind
{
  /* As its own, each once: a name in it says which directory it is.  */
  MOUNT_PLAIN,
  /* As an overlay does: its layers' directories, under a device number
     of its own, so that no identity ties them to the layers; one mount
     of it shows each directory once, and never itself.  */
  MOUNT_OVERLAY,
  /* As a FUSE daemon (bindfs, mergerfs), aufs or shiftfs pleases: any
     directory, under any identity, its own mount point's included.  */
  MOUNT_MIRROR
};

struct mount_point
{
  dev_t dev;                    /* the file system's device number */
  char *root;                   /* the directory of it mounted here */
  char *dir;                    /* where, in this namespace */
  enum mount_kind kind;
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

/* The kind of the file system whose type mountinfo names TYPE.  */
static enum mount_kind
kind_of (char const *type)
{
  if (strcmp (type, "overlay") == 0)
    return MOUNT_OVERLAY;
  if (strncmp (type, "fuse", 4) == 0 || strcmp (type, "aufs") == 0
      || strcmp (type, "shiftfs") == 0)
    return MOUNT_MIRROR;
  return MOUNT_PLAIN;
}

/* Parse LINE of mountinfo ("36 35 98:0 /root /dir options [optional
   fields] - type source super-options") into *M; false if it is not
   one.  Names are escaped there, so " - " only ends the fields.  */
static bool
parse_mount (char *line, struct mount_point *m)
{
  unsigned int major, minor;
  int root_at = -1, root_end = -1, dir_at = -1, dir_end = -1;
  if (sscanf (line, "%*u %*u %u:%u %n%*s%n %n%*s%n", &major, &minor,
              &root_at, &root_end, &dir_at, &dir_end) < 2 || dir_end < 0)
    return false;
  char *type = strstr (line + dir_end, " - ");
  if (!type)
    return false;
  type += 3;
  type[strcspn (type, " \n")] = '\0';
  line[root_end] = line[dir_end] = '\0';
  unescape_mountinfo (line + root_at);
  unescape_mountinfo (line + dir_at);
  *m = (struct mount_point) { .dev = makedev (major, minor),
                              .root = xstrdup (line + root_at),
                              .dir = xstrdup (line + dir_at),
                              .kind = kind_of (type) };
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

/* Whether one of the names A and B is the other or lies below it.  */
static bool
related (char const *a, char const *b)
{
  return below (a, b, true) || below (b, a, true);
}

/* The mount that shows the real name REAL: the one mounted last on the
   longest of the directories that hold it.  */
static struct mount_point const *
mount_holding (struct mount_table const *t, char const *real)
{
  struct mount_point const *holder = NULL;
  size_t best = 0;
  for (size_t i = 0; i < t->n; i++)
    {
      size_t len = strlen (t->m[i].dir);
      if (best <= len && below (real, t->m[i].dir, true))
        {
          best = len;
          holder = &t->m[i];
        }
    }
  return holder;
}

/* The name that the real name REAL, shown by the mount M, has in M's
   file system: M's root, and what REAL adds to M's directory.  */
static char *
name_in_fs (struct mount_point const *m, char const *real)
{
  /* REST is "" or starts with a slash.  */
  char const *rest = (m->dir[1] ? real + strlen (m->dir)
                      : real[1] ? real : "");
  if (strcmp (m->root, "/") == 0)
    return xstrdup (*rest ? rest : "/");
  return xasprintf ("%s%s", m->root, rest);
}

/* A walk of SRC meets DST's file system wherever a mount shows part of
   it, and writes there are read back where that part holds DST or lies
   below it: where the mount that shows SRC shows a name of DST's file
   system related to DST's (a bind mount, a second mount of the file
   system, a btrfs subvolume mounted twice), or where such a mount lies
   below SRC.  Any other mount below SRC is another file system, or
   another part of DST's: the walk copies it, and what it shows, the
   copy does not touch.  Mirrors show what they please, and an overlay
   shows its layers, which another mount may reach: those are trusted
   only for a copy within one mount of an overlay (Docker's root).  */
bool
mounts_may_alias (struct mount_table const *mounts, char const *src,
                  char const *dst)
{
  if (!mounts)
    return true;
  struct mount_point const *ms = mount_holding (mounts, src);
  struct mount_point const *md = mount_holding (mounts, dst);
  if (!ms || !md || ms->kind == MOUNT_MIRROR || md->kind == MOUNT_MIRROR
      || (ms != md && (ms->kind != MOUNT_PLAIN || md->kind != MOUNT_PLAIN)))
    return true;
  char *dst_fs = name_in_fs (md, dst);
  bool r = false;
  if (ms != md && ms->dev == md->dev)
    {
      char *src_fs = name_in_fs (ms, src);
      r = related (src_fs, dst_fs);
      free (src_fs);
    }
  for (size_t i = 0; !r && i < mounts->n; i++)
    {
      struct mount_point const *m = &mounts->m[i];
      if (below (m->dir, src, false))
        r = (m->kind != MOUNT_PLAIN
             || (m->dev == md->dev && related (m->root, dst_fs)));
    }
  free (dst_fs);
  return r;
}
