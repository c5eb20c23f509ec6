/* tree-state -- set and record the state of a tree for the cp comparisons

   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

/* A helper of tests/cpr/compare-lib.sh, which used to do both jobs with
   find, touch, md5sum, getfattr and awk: a few dozen processes per tree
   and run, most of a comparison test's CPU time.

   Usage: tree-state times DIR
          tree-state [-a] [-b] snapshot DIR

   'times' gives each entry of DIR (DIR itself included), in the byte
   order of the names "./NAME" as find prints them, counting from 1, the
   modification time 1000000000 + I * 1000 seconds and
   100000000 + I * 12345678 % 900000000 nanoseconds, and the access time
   999999999.987654321 -- symlinks themselves, never their targets.

   'snapshot' prints one line for every entry, sorted by name: the fields
   compare-lib.sh's header lists, separated by tabs.  -a adds access
   times, -b allocated blocks of regular files.  Every entry is lstat'ed
   before anything is read, and files are read with O_NOATIME, so the
   times printed are those the copy left, not the snapshot's own.  In
   names, symlink targets and xattr names a backslash, newline and tab
   are written \134, \012 and \011 (and in xattr names also space and '='
   as \040 and \075), so a line and its fields are unambiguous.  */

#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "areadlink.h"
#include "error.h"
#include "md5.h"
#include "stat-time.h"
#include "xalloc.h"

/* Times at or after this are "new": set by the copy, not preserved.  */
enum { OLD_BEFORE = 1500000000 };

struct entry
{
  char *name;                   /* "." or "./..." as find prints it */
  struct stat st;
  idx_t order;                  /* index in sorted order */
};

static struct entry *entries;
static idx_t n_entries, n_alloc;

/* Record NAME and everything below it, lstat'ing each before reading it.  */
static void
walk (char *name)
{
  struct stat st;
  if (lstat (name, &st) != 0)
    error (EXIT_FAILURE, errno, "%s", name);
  if (n_entries == n_alloc)
    entries = xpalloc (entries, &n_alloc, 1, -1, sizeof *entries);
  entries[n_entries].name = name;
  entries[n_entries].st = st;
  n_entries++;
  if (!S_ISDIR (st.st_mode))
    return;

  DIR *dir = opendir (name);
  if (!dir)
    error (EXIT_FAILURE, errno, "%s", name);
  size_t len = strlen (name);
  struct dirent *d;
  while ((errno = 0, d = readdir (dir)))
    {
      if (strcmp (d->d_name, ".") == 0 || strcmp (d->d_name, "..") == 0)
        continue;
      char *child = xmalloc (len + 1 + strlen (d->d_name) + 1);
      sprintf (child, "%s/%s", name, d->d_name);
      walk (child);
    }
  if (errno)
    error (EXIT_FAILURE, errno, "%s", name);
  closedir (dir);
}

static int
by_name (void const *a, void const *b)
{
  struct entry const *x = a, *y = b;
  return strcmp (x->name, y->name);
}

/* Hard links are grouped by device and inode, in name order within.  */
static int
by_inode (void const *a, void const *b)
{
  struct entry const *x = *(struct entry *const *) a;
  struct entry const *y = *(struct entry *const *) b;
  if (x->st.st_dev != y->st.st_dev)
    return x->st.st_dev < y->st.st_dev ? -1 : 1;
  if (x->st.st_ino != y->st.st_ino)
    return x->st.st_ino < y->st.st_ino ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

static int
by_string (void const *a, void const *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* Print the LEN bytes of S with backslash, newline and tab escaped, and
   also the bytes of EXTRA.  */
static void
put_escaped (char const *s, size_t len, char const *extra)
{
  for (size_t i = 0; i < len; i++)
    {
      unsigned char c = s[i];
      if (c == '\\' || c == '\n' || c == '\t' || (c && strchr (extra, c)))
        printf ("\\%03o", c);
      else
        putchar (c);
    }
}

static void
put_name (char const *name)
{
  if (strcmp (name, ".") != 0)
    name += 2;
  put_escaped (name, strlen (name), "");
}

static void
put_time (char const *label, struct timespec t)
{
  if (t.tv_sec < OLD_BEFORE)
    printf ("\t%s=%jd.%09ld", label, (intmax_t) t.tv_sec, t.tv_nsec);
  else
    printf ("\t%s=new", label);
}

static void
put_md5 (char const *name)
{
  int fd = open (name, O_RDONLY | O_NOCTTY | O_NOFOLLOW | O_NOATIME);
  if (fd < 0 && errno == EPERM)
    fd = open (name, O_RDONLY | O_NOCTTY | O_NOFOLLOW);
  FILE *f = fd < 0 ? NULL : fdopen (fd, "r");
  unsigned char sum[16];
  if (!f || md5_stream (f, sum) != 0)
    {
      /* A difference all the same, and the same for both runs.  */
      printf ("\tmd5=unreadable(%s)", strerrorname_np (errno));
      if (f)
        fclose (f);
      else if (fd >= 0)
        close (fd);
      return;
    }
  fclose (f);
  fputs ("\tmd5=", stdout);
  for (int i = 0; i < 16; i++)
    printf ("%02x", sum[i]);
}

/* Every xattr of NAME, in name order, its value in hex.  */
static void
put_xattrs (char const *name)
{
  ssize_t size = llistxattr (name, NULL, 0);
  if (size <= 0)
    return;
  char *list = xmalloc (size);
  size = llistxattr (name, list, size);
  if (size <= 0)
    error (EXIT_FAILURE, errno, "%s", name);

  size_t n = 0;
  char **names = xmalloc ((size_t) size * sizeof *names);
  for (char *p = list; p < list + size; p += strlen (p) + 1)
    names[n++] = p;
  qsort (names, n, sizeof *names, by_string);

  fputs ("\txattrs:", stdout);
  for (size_t i = 0; i < n; i++)
    {
      ssize_t vlen = lgetxattr (name, names[i], NULL, 0);
      unsigned char *value = xmalloc (vlen > 0 ? vlen : 1);
      if (vlen > 0)
        vlen = lgetxattr (name, names[i], value, vlen);
      putchar (' ');
      put_escaped (names[i], strlen (names[i]), " =");
      if (vlen < 0)
        printf ("=unreadable(%s)", strerrorname_np (errno));
      else
        {
          fputs ("=0x", stdout);
          for (ssize_t j = 0; j < vlen; j++)
            printf ("%02x", value[j]);
        }
      free (value);
    }
  free (names);
  free (list);
}

static char
type_letter (mode_t mode)
{
  return (S_ISREG (mode) ? 'f' : S_ISDIR (mode) ? 'd' : S_ISLNK (mode) ? 'l'
          : S_ISBLK (mode) ? 'b' : S_ISCHR (mode) ? 'c' : S_ISFIFO (mode) ? 'p'
          : S_ISSOCK (mode) ? 's' : 'U');
}

static void
snapshot (bool atime, bool blocks)
{
  /* The first name of each hard-linked inode, by order.  */
  char const **link_first = xcalloc (n_entries, sizeof *link_first);
  struct entry **by_ino = xnmalloc (n_entries, sizeof *by_ino);
  idx_t n_linked = 0;
  for (idx_t i = 0; i < n_entries; i++)
    if (!S_ISDIR (entries[i].st.st_mode) && entries[i].st.st_nlink > 1)
      by_ino[n_linked++] = &entries[i];
  qsort (by_ino, n_linked, sizeof *by_ino, by_inode);
  char const *first = NULL;
  for (idx_t i = 0; i < n_linked; i++)
    {
      struct entry const *e = by_ino[i];
      if (i == 0 || e->st.st_dev != by_ino[i - 1]->st.st_dev
          || e->st.st_ino != by_ino[i - 1]->st.st_ino)
        first = e->name;
      link_first[e->order] = first;
    }

  for (idx_t i = 0; i < n_entries; i++)
    {
      struct entry const *e = &entries[i];
      struct stat const *st = &e->st;
      put_name (e->name);
      printf ("\ttype=%c\tmode=%o\towner=%ju:%ju", type_letter (st->st_mode),
              (unsigned int) (st->st_mode & 07777), (uintmax_t) st->st_uid,
              (uintmax_t) st->st_gid);
      if (!S_ISDIR (st->st_mode))
        printf ("\tsize=%jd", (intmax_t) st->st_size);
      printf ("\tnlink=%ju", (uintmax_t) st->st_nlink);
      if (link_first[i])
        {
          fputs ("\thardlink-of=", stdout);
          put_name (link_first[i]);
        }
      if (S_ISLNK (st->st_mode))
        {
          char *target = areadlink_with_size (e->name, st->st_size);
          if (!target)
            error (EXIT_FAILURE, errno, "%s", e->name);
          fputs ("\ttarget=", stdout);
          put_escaped (target, strlen (target), "");
          free (target);
        }
      if (S_ISBLK (st->st_mode) || S_ISCHR (st->st_mode))
        printf ("\trdev=%x:%x", major (st->st_rdev), minor (st->st_rdev));
      if (S_ISREG (st->st_mode))
        put_md5 (e->name);
      if (blocks && S_ISREG (st->st_mode))
        printf ("\tblocks=%jd", (intmax_t) st->st_blocks);
      put_xattrs (e->name);
      put_time ("mtime", get_stat_mtime (st));
      if (atime)
        put_time ("atime", get_stat_atime (st));
      putchar ('\n');
    }
  free (by_ino);
  free (link_first);
}

static void
set_times (void)
{
  for (idx_t i = 0; i < n_entries; i++)
    {
      long long n = i + 1;
      struct timespec ts[2] = {
        { .tv_sec = 999999999, .tv_nsec = 987654321 },
        { .tv_sec = 1000000000 + n * 1000,
          .tv_nsec = 100000000 + n * 12345678 % 900000000 },
      };
      if (utimensat (AT_FDCWD, entries[i].name, ts, AT_SYMLINK_NOFOLLOW) != 0)
        error (EXIT_FAILURE, errno, "%s", entries[i].name);
    }
}

static _Noreturn void
usage (void)
{
  fprintf (stderr, "Usage: tree-state times DIR\n"
           "       tree-state [-a] [-b] snapshot DIR\n");
  exit (EXIT_FAILURE);
}

int
main (int argc, char **argv)
{
  bool atime = false, blocks = false;
  int c;
  while ((c = getopt (argc, argv, "ab")) != -1)
    switch (c)
      {
      case 'a': atime = true; break;
      case 'b': blocks = true; break;
      default: usage ();
      }
  if (argc - optind != 2)
    usage ();
  char const *mode = argv[optind];
  if (strcmp (mode, "times") != 0 && strcmp (mode, "snapshot") != 0)
    usage ();
  if (chdir (argv[optind + 1]) != 0)
    error (EXIT_FAILURE, errno, "%s", argv[optind + 1]);

  walk (xstrdup ("."));
  qsort (entries, n_entries, sizeof *entries, by_name);
  for (idx_t i = 0; i < n_entries; i++)
    entries[i].order = i;

  if (mode[0] == 't')
    set_times ();
  else
    snapshot (atime, blocks);
  if (fflush (stdout) != 0 || ferror (stdout))
    error (EXIT_FAILURE, errno, "standard output");
  return EXIT_SUCCESS;
}
