/* copy.c -- the cpr copy engine: one function per kind of file.
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

/* Every function here that can fail diagnoses the failure itself, once,
   with GNU cp's wording, and returns false; callers only propagate.  */

#include <config.h>

#include "copy.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <sys/xattr.h>
#include <unistd.h>
#if HAVE_ATTR_COPY_CHECK_PERMISSIONS
# include <attr/libattr.h>
#endif

#include "acl.h"
#include "areadlink.h"
#include "dirname.h"
#include "error.h"
#include "file-set.h"
#include "filemode.h"
#include "filenamecat.h"
#include "fold.h"
#include "fsmagic.h"
#include "gettext.h"
#include "hash-triple.h"
#include "intprops.h"
#include "jobs.h"
#include "minmax.h"
#include "partial.h"
#include "progname.h"
#include "progress.h"
#include "quote.h"
#include "same.h"
#include "same-inode.h"
#include "savedir.h"
#include "stat-time.h"
#include "tempname.h"
#include "utimecmp.h"
#include "xalloc.h"
#include "yesno.h"

#define _(msgid) gettext (msgid)

/* The ioctl that reads a file's inode flags, as <linux/fs.h> has it,
   which clashes with <sys/mount.h>.  The kernel reads and writes an int,
   whatever the type in the name.  */
#ifndef FS_IOC_GETFLAGS
# define FS_IOC_GETFLAGS _IOR ('f', 1, long)
#endif

/* What the caller of copy asked for at the top, for the message about
   copying a directory into itself, which names the operands.  */
static char const *top_level_src_name;
static char const *top_level_dst_name;

/* The directory that destination names in the table of copied
   directories are relative to: the target directory, when there is
   one, so that a symlink to it counts as the directory itself.  */
static int dst_dirfd = AT_FDCWD;

/* Set dst_dirfd to DIRFD, after the copies in flight (--jobs), which
   use the one before.  */
static void
set_dst_dirfd (int dirfd)
{
  if (dst_dirfd == dirfd)
    return;
  jobs_drain ();
  dst_dirfd = dirfd;
}

/* A file this invocation already dealt with, by device and inode.  */
struct seen
{
  ino_t ino;
  dev_t dev;
  char *name;                   /* its destination name */
  char *rel;                    /* the same relative to dst_dirfd, or NULL */
};

/* Sources with several links whose first copy is already made, so that
   --preserve=links links the later ones to it.  */
static Hash_table *copied_sources;

/* Directories copied by this invocation, by the inode of their source
   and of the copy, with the copy's name: meeting one of them again as a
   source means a directory is copied into itself, or twice.  */
static Hash_table *dir_copies;

static size_t
seen_hash (void const *entry, size_t table_size)
{
  struct seen const *s = entry;
  return s->ino % table_size;
}

static bool
seen_equal (void const *a, void const *b)
{
  struct seen const *x = a;
  struct seen const *y = b;
  return x->ino == y->ino && x->dev == y->dev;
}

static void
seen_free (void *entry)
{
  struct seen *s = entry;
  free (s->name);
  free (s->rel);
  free (s);
}

static Hash_table *
seen_table (void)
{
  Hash_table *t = hash_initialize (103, NULL, seen_hash, seen_equal,
                                   seen_free);
  if (!t)
    xalloc_die ();
  return t;
}

void
hash_init (void)
{
  copied_sources = seen_table ();
  dir_copies = seen_table ();
}

void
forget_all (void)
{
  jobs_end ();
  hash_free (copied_sources);
  hash_free (dir_copies);
}

/* Remember NAME (REL relative to dst_dirfd, if not NULL) as the file
   for ST's inode in TABLE.  */
static void
remember (Hash_table *table, struct stat const *st, char const *name,
          char const *rel)
{
  struct seen *s = xmalloc (sizeof *s);
  s->ino = st->st_ino;
  s->dev = st->st_dev;
  s->name = xstrdup (name);
  s->rel = rel ? xstrdup (rel) : NULL;
  struct seen const *old = hash_insert (table, s);
  if (!old)
    xalloc_die ();
  if (old != s)
    seen_free (s);
}

/* The entry remembered for ST's inode in TABLE, or NULL.  */
static struct seen const *
recall_entry (Hash_table *table, struct stat const *st)
{
  struct seen key = { .ino = st->st_ino, .dev = st->st_dev };
  return hash_lookup (table, &key);
}

/* The name remembered for ST's inode in TABLE, or NULL.  */
static char const *
recall (Hash_table *table, struct stat const *st)
{
  struct seen const *s = recall_entry (table, st);
  return s ? s->name : NULL;
}

/* A set of (name, device, inode) triples for file-set's record_file
   and seen_file, whose names match as strings (EXACT) or as names of
   the same directory entry.  */
static Hash_table *
file_set (bool exact)
{
  Hash_table *t = hash_initialize (61, NULL,
                                   exact ? triple_hash : triple_hash_no_name,
                                   exact ? triple_compare_ino_str
                                   : triple_compare, triple_free);
  if (!t)
    xalloc_die ();
  return t;
}

/* The symlinks this invocation made, when copying into a directory.  */
static Hash_table *made_symlinks;

void
dest_info_init (struct cp_options *x)
{
  x->dest_info = file_set (true);
}

/* "F" and "./F" are the same source given twice.  */
void
src_info_init (struct cp_options *x)
{
  x->src_info = file_set (false);
}

/* What copies side by side (--jobs) know of a directory that they copy
   into: its device, for the room there, and which directory it is, to
   find the copies whose names clash there.  Which directory, and not
   the text of its name: "T/./f" and "T/f", or a name through a
   symlink, lead to one file.  */
struct dst_dir
{
  bool known;                   /* DEV and INO hold */
  dev_t dev;
  ino_t ino;
  bool wide;                    /* fold_wide: it may fold other bytes */
};

/* The directories being copied around the current file, innermost
   first: meeting one again through a symlink is a cycle.  */
struct ancestor
{
  dev_t dev;
  ino_t ino;
  struct dst_dir dst;           /* its copy (--jobs) */
  bool made;                    /* the operand's copy made it, or one above */
  struct ancestor const *parent;
};

/* The file system that last said it cannot hold a mark (tmpfs before
   Linux 6.6, an NFS server without user xattrs): the files after the
   first on it are copied unmarked without a failing call each.  */
struct unmarkable
{
  bool known;
  dev_t dev;
};

/* The state of one copy in progress: the source, the destination and
   what is known about them.  */
struct job
{
  char const *src;              /* source name */
  char const *dst;              /* destination name */
  char const *dst_rel;          /* the same, relative to dst_dirfd */
  struct stat src_st;           /* source, as the symlink policy sees it */
  struct stat dst_st;           /* destination (lstat), when !new_dst */
  bool new_dst;                 /* the destination does not exist now */
  char *backup;                 /* the backup made of DST, or NULL */
  char *backup_rel;             /* the same, relative to dst_dirfd */
  bool command_line_arg;        /* SRC is an operand, not found inside */
  dev_t parent_dev;             /* device of SRC's parent, for -x */
  struct ancestor const *ancestors; /* the directories SRC is in */
  bool listed;                  /* SRC, a directory, was listed */
  bool leading;                 /* DST leads to a --parents copy */
  bool deferred;                /* copied on a worker (--jobs) */
  bool handed_back;             /* the worker ran out of descriptors */
  struct unmarkable unmarkable; /* then, what it knows of marks */
};

static void count_found (struct stat const *st, struct cp_options const *x);
static void settle_source_dir (struct job const *j);
static bool copy_internal (char const *src, char const *dst,
                           char const *dst_rel, bool new_dst,
                           dev_t parent_dev, struct ancestor const *ancestors,
                           bool command_line_arg, struct cp_options const *x,
                           bool *copy_into_self);

/* Whether errno after a failed chown means only that we may not give
   the file away, which is not an error without privileges.  */
static bool
chown_failure_ok (struct cp_options const *x)
{
  return (errno == EPERM || errno == EINVAL) && !x->chown_privileges;
}

/* What became of the ownership of a copy.  */
enum owner_result
{
  OWNER_KEPT,                   /* the copy has its source's owner and group */
  OWNER_LOST,                   /* not, but without privileges that is fine */
  OWNER_FAILED                  /* not, and that is an error, diagnosed */
};

/* The attribute calls on the copy J->dst: through FD when it is open
   (FD >= 0), else by its name relative to the destination directory,
   never following a symlink that has taken the copy's place.  */

static int
dst_chown (struct job const *j, int fd, uid_t uid, gid_t gid)
{
  return (fd >= 0 ? fchown (fd, uid, gid)
          : fchownat (dst_dirfd, j->dst_rel, uid, gid, AT_SYMLINK_NOFOLLOW));
}

static int
dst_chmod (struct job const *j, int fd, mode_t mode)
{
  return (fd >= 0 ? fchmod (fd, mode)
          : fchmodat (dst_dirfd, j->dst_rel, mode, AT_SYMLINK_NOFOLLOW));
}

static int
dst_utimens (struct job const *j, int fd, struct timespec const ts[2])
{
  return (fd >= 0 ? futimens (fd, ts)
          : utimensat (dst_dirfd, j->dst_rel, ts, AT_SYMLINK_NOFOLLOW));
}

/* Give J->dst (open as FD, or -1) the owner and group of J->src.
   HAS_THEM says that it already has them, as far as we can see.  */
static enum owner_result
set_owner (struct job const *j, int fd, bool has_them,
           struct cp_options const *x)
{
  uid_t uid = j->src_st.st_uid;
  gid_t gid = j->src_st.st_gid;
  if (dst_chown (j, fd, uid, gid) == 0)
    return OWNER_KEPT;
  /* GNU cp does not chown such a file at all (cpr does only to clear
     the set-ID bits of its old mode), so no refusal is an error: in a
     user namespace, say, where both owners are the overflow ID that
     maps to nobody, a chown to it is EINVAL.  */
  if (has_them)
    return OWNER_KEPT;
  if (chown_failure_ok (x))
    {
      /* Keeping the group may still be allowed; losing it is fine.  */
      int saved = errno;
      dst_chown (j, fd, -1, gid);
      errno = saved;
      return OWNER_LOST;
    }
  error (0, errno, _("failed to preserve ownership for %s"), quoteaf (j->dst));
  return OWNER_FAILED;
}

/* Store in *ST the current status of the existing J->dst (open as
   FD, or -1): not the one from when it was opened, for writing to it
   may have cleared set-ID bits since.  */
static bool
stat_dst_now (struct job const *j, int fd, struct stat *st)
{
  if ((fd >= 0 ? fstat (fd, st)
       : fstatat (dst_dirfd, j->dst_rel, st, AT_SYMLINK_NOFOLLOW)) != 0)
    {
      error (0, errno, _("cannot stat %s"), quoteaf (j->dst));
      return false;
    }
  return true;
}

/* An existing J->dst (open as FD, or -1, with current status *ST) is
   about to change owner before it gets its final mode: until then,
   leave it only the owner permissions that both its old mode and its
   source's mode give, so that neither the old owner nor the group and
   others can open it in between (GNU cp does the same).  If that is
   not allowed, the copy stops there, as GNU cp's does.  */
static bool
restrict_before_chown (struct job const *j, int fd, struct stat const *st,
                       struct cp_options const *x)
{
  /* The sticky bit of an unfinished copy of ours stays: it is the sign
     that lasts until the final mode.  */
  mode_t keep = (partial_unfinished_mode (st, j->src_st.st_uid)
                 ? S_ISVTX : 0);
  if (dst_chmod (j, fd, (st->st_mode & j->src_st.st_mode & S_IRWXU)
                 | (st->st_mode & keep)) != 0)
    {
      /* A file that is not ours: without privileges, that it stays
         someone else's goes without saying, as for the chown.  */
      if (!chown_failure_ok (x))
        error (0, errno, _("clearing permissions for %s"), quoteaf (j->dst));
      return false;
    }
  return true;
}

/* Whether /etc/xattr.conf lets the xattr NAME be copied.  GNU cp asks
   libattr, which leaves out the names it says to skip (XFS's
   trusted.SGI_*, index data, security.evm that only the kernel may
   write) and those holding permissions, which travel with the mode.  */
static bool
xattr_conf_allows (char const *name)
{
#if HAVE_ATTR_COPY_CHECK_PERMISSIONS
  return attr_copy_check_permissions (name, NULL) != 0;
#else
  return true;
#endif
}

/* The quoted xattr NAME for both the name and the file in a diagnostic
   about it, as GNU cp has them: it gives libattr quoteaf to quote
   with, whose one buffer the second call overwrites before the message
   is printed, so that GNU cp names the attribute twice (and its file
   not at all).  Quoted once here, with no dangling pointer.  */
static char const *
xattr_quote (char const *name)
{
  return quoteaf (name);
}

/* One call to read SRC's xattr NAME, or its list of names if NAME is
   null, into BUF of SIZE bytes (its size only, if SIZE is 0): through
   SRC_FD, or if that is -1 from SRC itself, not following a symlink.  */
static ssize_t
get_xattr (char const *src, int src_fd, char const *name, void *buf,
           size_t size)
{
  if (name)
    return (src_fd >= 0 ? fgetxattr (src_fd, name, buf, size)
            : lgetxattr (src, name, buf, size));
  return (src_fd >= 0 ? flistxattr (src_fd, buf, size)
          : llistxattr (src, buf, size));
}

/* Read into *BUF, of *BUFSIZE bytes and grown as needed, the list of
   SRC's xattr names if NAME is null, else the value of its xattr NAME;
   SRC is open as SRC_FD, or -1.  Return the length, or -1 with errno
   set.  One call where the buffer is big enough: asking for the size
   first, as libattr does, costs a round trip a file on NFS.  */
static ssize_t
read_xattr (char const *src, int src_fd, char const *name,
            char **buf, size_t *bufsize)
{
  for (;;)
    {
      ssize_t n = get_xattr (src, src_fd, name, *buf, *bufsize);
      if (n >= 0 || errno != ERANGE)
        return n;
      n = get_xattr (src, src_fd, name, NULL, 0);
      if (n < 0)
        return n;
      /* Doubling at least: a list or value that keeps growing between
         the calls still ends at the kernel's limit of 64 KiB.  */
      free (*buf);
      *bufsize = MAX ((size_t) n, 2 * *bufsize);
      *buf = xmalloc (*bufsize);
    }
}

/* Whether a failure with errno ERR to copy an xattr is to be told, as
   GNU cp tells it: always where xattrs were asked for by name or are
   all that is copied, never with -a, and otherwise unless ERR says
   only that there was nothing to copy or nowhere to keep it.  */
static bool
xattr_failure_told (int err, struct cp_options const *x)
{
  if (x->require_preserve_xattr || x->data_copy_skipped)
    return true;
  return !x->reduce_diagnostics && err != ENOTSUP && err != ENODATA;
}

/* Copy SRC's extended attributes to DST (open as DST_FD or -1; a path
   is for a symlink or a special file, which cannot be opened to write
   to, and is what GNU cp uses for all).  ACLs travel with the mode and
   the SELinux label with the context, so the system.* and
   security.selinux names are left alone here.  So is the mark of a
   partial copy, which says something of SRC's data only: a copy that
   got it would pass for partial, or its own mark would be overwritten
   with one that describes another file.  One xattr that cannot be
   copied does not keep the others from being copied.  Return false if
   one could not be and that fails the copy (--preserve=xattr).  */
static bool
copy_xattrs (char const *src, int src_fd, char const *dst, int dst_fd,
             struct cp_options const *x)
{
  size_t names_size = 1024, value_size = 1024;
  char *names = xmalloc (names_size);
  char *value = xmalloc (value_size);
  ssize_t size = read_xattr (src, src_fd, NULL, &names, &names_size);
  bool failed = size < 0 && errno != ENOTSUP;
  if (failed && xattr_failure_told (errno, x))
    error (0, errno, _("listing attributes of %s"), quoteaf (src));
  for (char *n = names; 0 < size && n < names + size; n += strlen (n) + 1)
    {
      if (strncmp (n, "system.", 7) == 0 || strcmp (n, "security.selinux") == 0
          || strcmp (n, PARTIAL_XATTR) == 0 || !xattr_conf_allows (n))
        continue;
      ssize_t vlen = read_xattr (src, src_fd, n, &value, &value_size);
      if (vlen < 0)
        {
          failed = true;
          if (xattr_failure_told (errno, x))
            {
              char const *qn = xattr_quote (n);
              error (0, errno, _("getting attribute %s of %s"), qn, qn);
            }
        }
      else if ((dst_fd >= 0 ? fsetxattr (dst_fd, n, value, vlen, 0)
                : lsetxattr (dst, n, value, vlen, 0)) != 0)
        {
          failed = true;
          bool told = xattr_failure_told (errno, x);
          /* Where the file system keeps no xattrs, the next would fail
             the same way: one message for them all, as GNU cp's.  */
          if (errno == ENOTSUP)
            {
              if (told)
                error (0, errno, _("setting attributes for %s"),
                       quoteaf (dst));
              break;
            }
          if (told)
            {
              char const *qn = xattr_quote (n);
              error (0, errno, _("setting attribute %s for %s"), qn, qn);
            }
        }
    }
  free (value);
  free (names);
  return !(failed && x->require_preserve_xattr);
}

/* No change of mode wanted, for set_attributes.  */
#define KEEP_MODE ((mode_t) -1)

/* Whether DST_ST, the status of a destination (or NULL, unknown),
   already has the owner and group of SRC_ST.  */
static bool
same_owner (struct stat const *dst_st, struct stat const *src_st)
{
  return (dst_st && dst_st->st_uid == src_st->st_uid
          && dst_st->st_gid == src_st->st_gid);
}

/* If J->dst (open as DST_FD or -1, with status *DST_ST since it was
   opened, or NULL) is a regular file made unfinished (partial.h) by us,
   now or in an earlier run, take back the bits that said so: the sticky
   bit, and the owner write permission it was made with, unless its
   source has it (the umask does not take that from a file's owner).  */
static int
clear_unfinished (struct job const *j, int dst_fd, struct stat const *dst_st)
{
  if (!(dst_st && partial_unfinished_mode (dst_st, j->src_st.st_uid)))
    return 0;
  /* A file that existed before is taken as it is now, not as it was
     opened: a write by its owner took its set-ID bits, and a chmod
     before a chown that then failed left it closed to others.  The
     mode of a file made by this run is known.  */
  struct stat now;
  mode_t mode = dst_st->st_mode;
  if (!j->new_dst)
    {
      if ((0 <= dst_fd ? fstat (dst_fd, &now)
           : fstatat (dst_dirfd, j->dst_rel, &now, AT_SYMLINK_NOFOLLOW)) != 0)
        return -1;
      mode = now.st_mode;
    }
  return dst_chmod (j, dst_fd, mode & 07777 & ~S_ISVTX
                    & ~(j->src_st.st_mode & S_IWUSR ? 0 : S_IWUSR));
}

/* Whether the file open as FD (or -1: not known) has an access ACL
   beyond its permission bits.  The kernel stores none for an ACL that
   the mode says all of, and a file system without POSIX ACLs (NFSv4
   among them) answers ENOTSUP, as gnulib's ACL copy finds too.  */
static bool
has_access_acl (int fd)
{
  return !(fd >= 0
           && fgetxattr (fd, "system.posix_acl_access", NULL, 0) < 0
           && (errno == ENODATA || errno == ENOTSUP));
}

/* Give J->dst (open as DST_FD or -1, with status *DST_ST since it was
   opened, or NULL) its final mode: SRC_MODE's with ACL if the mode is
   preserved, else NEW_MODE; KEEP_MODE for either means none.  A
   regular file that cpr made unfinished loses the signs of it all the
   same (clear_unfinished): its data and attributes are all there now.  */
static bool
set_mode (struct job const *j, int src_fd, int dst_fd,
          struct stat const *dst_st, mode_t new_mode, mode_t src_mode,
          struct cp_options const *x)
{
  int r = 0;
  bool unfinished = dst_st && partial_unfinished_mode (dst_st,
                                                       j->src_st.st_uid);
  /* Where neither file has an ACL, copying it would come to a chmod,
     which the sticky bit of an unfinished copy needs anyway: one
     metadata update a file instead of two, as many as GNU cp makes.  */
  if (x->preserve_mode && src_mode != KEEP_MODE && unfinished
      && !has_access_acl (src_fd) && !has_access_acl (dst_fd))
    {
      if (dst_chmod (j, dst_fd, src_mode & 07777) == 0)
        return true;
      error (0, errno, _("preserving permissions for %s"), quote (j->dst));
      return false;
    }
  else if (x->preserve_mode && src_mode != KEEP_MODE)
    {
      int acl = qcopy_acl (j->src, src_fd, j->dst, dst_fd, src_mode);
      if (acl != 0)
        {
          /* Worded and quoted as gnulib's copy_acl, which GNU cp calls:
             with quote, not quoteaf.  -2 means SRC's ACL was unreadable.  */
          if (acl == -2)
            error (0, errno, "%s", quote (j->src));
          else
            error (0, errno, _("preserving permissions for %s"),
                   quote (j->dst));
          clear_unfinished (j, dst_fd, dst_st);
          return false;
        }
      /* An ACL carries the permission bits only: the sticky bit stays
         until a chmod clears it.  */
      if (!unfinished || (src_mode & S_ISVTX))
        return true;
      r = dst_chmod (j, dst_fd, src_mode & 07777);
    }
  else if (!x->preserve_mode && new_mode != KEEP_MODE)
    {
      r = (x->explicit_no_preserve_mode
           ? qset_acl (j->dst, dst_fd, new_mode)
           : dst_chmod (j, dst_fd, new_mode));
      /* GNU cp sets this ACL with gnulib's set_acl, whose diagnostic
         quotes the name with quote.  */
      if (r != 0 && x->explicit_no_preserve_mode)
        {
          error (0, errno, _("setting permissions for %s"), quote (j->dst));
          clear_unfinished (j, dst_fd, dst_st);
          return false;
        }
      /* The same for an ACL set with the mode.  */
      if (r == 0 && x->explicit_no_preserve_mode && unfinished)
        r = dst_chmod (j, dst_fd, new_mode);
    }
  else
    r = clear_unfinished (j, dst_fd, dst_st);
  if (r != 0)
    {
      error (0, errno, _("setting permissions for %s"), quoteaf (j->dst));
      return false;
    }
  return true;
}

/* Whether the chown of J->dst (open as DST_FD, with status *DST_ST)
   turns another user's sticky file into one that looks like an
   unfinished copy of ours (partial.h).  A mark on it then must be
   replaced by one that keeps nothing, before and after the chown: its
   owner could have written it, or written the data it vouches for
   through a descriptor held open, and --continue would trust it were
   cpr stopped before removing it.  It must not just go: -u needs it
   until the attributes are all set.  */
static bool
gives_us_sticky (struct job const *j, int dst_fd, struct stat const *dst_st)
{
  return (!j->new_dst && 0 <= dst_fd && dst_st && S_ISREG (dst_st->st_mode)
          && (dst_st->st_mode & S_ISVTX)
          && !partial_ours (dst_st, j->src_st.st_uid));
}

/* Give J->dst (open as DST_FD or -1) the times of J->src.  */
static bool
set_times (struct job const *j, int dst_fd)
{
  struct timespec ts[2] = { get_stat_atime (&j->src_st),
                            get_stat_mtime (&j->src_st) };
  /* Symlink times cannot be set everywhere; GNU cp does not care.  */
  if (dst_utimens (j, dst_fd, ts) != 0
      && !(S_ISLNK (j->src_st.st_mode)
           && (errno == ENOSYS || errno == EOPNOTSUPP)))
    {
      error (0, errno, _("preserving times for %s"), quoteaf (j->dst));
      return false;
    }
  return true;
}

/* Set the attributes that *X preserves on the copy J->dst of J->src,
   in GNU cp's order: the timestamps, ownership (it may clear set-ID
   bits), xattrs, and the mode and ACL last (set_mode): for a file that
   cpr made, the mode step clears the sign of an unfinished copy
   (partial.h), so it must come last; neither a chown nor an xattr
   changes the times.  As GNU cp, stop at times or ownership that
   cannot be preserved, which is why the times come first: an
   unprivileged user who may write to someone else's file hears about
   its times, not about its mode.
   DST_FD is the open destination or -1, DST_ST its status since it was
   opened or NULL.  NEW_MODE, unless KEEP_MODE, is the mode a new file
   gets when the mode is not preserved (it was created with fewer
   permissions than it should finally have).  */
static bool
set_attributes (struct job const *j, int src_fd, int dst_fd,
                struct stat const *dst_st, mode_t new_mode,
                struct cp_options const *x)
{
  bool symlink = S_ISLNK (j->src_st.st_mode);
  mode_t src_mode = j->src_st.st_mode;
  enum owner_result owner = OWNER_KEPT;

  if (x->preserve_timestamps && !set_times (j, dst_fd))
    {
      clear_unfinished (j, dst_fd, dst_st);
      return false;
    }

  /* A new copy that already has its source's owner and group needs no
     chown, which would cost a metadata update (a round trip on NFS);
     GNU cp skips it too.  An existing destination is given its owner
     all the same: the chown clears the set-ID bits of its old mode,
     which GNU cp leaves, with -a even on a copy of a file that has
     none.  */
  if (x->preserve_ownership
      && !(j->new_dst && same_owner (dst_st, &j->src_st)))
    {
      /* An existing file that has its owner and group already does not
         change hands: no need to shut anyone out first.  */
      bool has_them = false;
      if (!j->new_dst)
        {
          struct stat st;
          if (!stat_dst_now (j, dst_fd, &st))
            return false;
          has_them = same_owner (&st, &j->src_st);
          if (!has_them && x->preserve_mode && !symlink
              && !restrict_before_chown (j, dst_fd, &st, x))
            return false;
        }
      bool disowned = !has_them && gives_us_sticky (j, dst_fd, dst_st);
      if (disowned)
        partial_disown (dst_fd);
      owner = set_owner (j, dst_fd, has_them, x);
      /* Once more, in case its owner wrote one in between.  */
      if (disowned)
        partial_disown (dst_fd);
    }

  /* With the wrong owner, the source's xattrs and mode could give the
     copy to the wrong people: as GNU cp, leave it with the mode it was
     made with, which lets nobody else in.  */
  bool perms = !symlink && owner != OWNER_FAILED;
  bool ok = owner != OWNER_FAILED;
  /* GNU cp gives the directories leading to a --parents copy their
     source's whole mode all the same, and the kernel keeps the
     set-group-ID bit if the group is ours.  */
  if (owner == OWNER_LOST && !j->leading)
    {
      /* The copy belongs to us now: it must not get set-ID bits meant
         for its source's owner, nor, unless it is a directory, the
         sticky bit (GNU cp clears it too).  */
      src_mode &= ~(S_ISUID | S_ISGID
                    | (S_ISDIR (src_mode) ? 0 : S_ISVTX));
    }

  /* A symlink's xattrs (trusted.*, security.*) are copied too, as GNU
     cp copies them: through its name, with no mode to follow.  */
  if (x->preserve_xattr && owner != OWNER_FAILED
      && !copy_xattrs (j->src, src_fd, j->dst, dst_fd, x))
    {
      /* GNU cp gives a directory or special file whose xattrs it was
         told to keep and could not no mode either: it stays as it was
         made, closed to others.  */
      if (!(dst_st && S_ISREG (dst_st->st_mode)))
        return false;
      ok = false;
    }

  if (!set_mode (j, src_fd, dst_fd, dst_st, perms ? new_mode : KEEP_MODE,
                 perms ? src_mode : KEEP_MODE, x))
    ok = false;
  return ok;
}

/* The permissions a copy of a file of mode SRC_MODE is created with:
   its source's, not masked, so that the kernel applies the umask or,
   instead, the parent directory's default ACL (as GNU cp has it).  A
   directory keeps its sticky bit.  */
static mode_t
create_perms (mode_t src_mode, bool dir)
{
  return src_mode & (S_IRWXU | S_IRWXG | S_IRWXO | (dir ? S_ISVTX : 0));
}

/* The mode bits a new copy of a file with mode SRC_MODE ends with when
   its mode is not preserved but set: the source's permissions, or with
   --no-preserve=mode the default ones; the umask applies.  Set-ID bits
   are not copied (they are only with the owner), but a directory keeps
   its sticky bit, as mkdir would.  */
static mode_t
new_file_mode (mode_t src_mode, bool dir, struct cp_options const *x)
{
  mode_t m = (x->explicit_no_preserve_mode
              ? (dir ? S_IRWXU | S_IRWXG | S_IRWXO
                 : S_IRUSR | S_IWUSR | S_IRGRP | S_IWGRP | S_IROTH | S_IWOTH)
              : src_mode & (S_IRWXU | S_IRWXG | S_IRWXO));
  return (m & ~x->umask_kill) | (dir ? src_mode & S_ISVTX : 0);
}

/* Print the -v line for J, with the backup made, if any.  */
static void
print_verbose (struct job const *j)
{
  progress_hide ();
  out_printf ("%s -> %s", quoteaf_n (0, j->src), quoteaf_n (1, j->dst));
  if (j->backup)
    out_printf (_(" (backup: %s)"), quoteaf (j->backup));
  out_printf ("\n");
  progress_resume ();
}

/* Print the -v line for the removal of J->dst.  */
static void
print_removed (struct job const *j)
{
  progress_hide ();
  out_printf (_("removed %s\n"), quoteaf (j->dst));
  progress_resume ();
}

/* Remove the existing destination of J so that a new file can take its
   place.  */
static bool
remove_dst (struct job *j, struct cp_options const *x)
{
  if (unlinkat (dst_dirfd, j->dst_rel, 0) != 0 && errno != ENOENT)
    {
      error (0, errno, _("cannot remove %s"), quoteaf (j->dst));
      return false;
    }
  j->new_dst = true;
  if (x->verbose)
    print_removed (j);
  return true;
}

/* Whether ERR, the failure of a call that opened no file and changed
   nothing, should hand J back to the main thread, which copies the file
   itself in its turn: on a worker (--jobs) that ran out of file
   descriptors, as GNU cp, one file at a time, would not.  Note it in
   J then.  */
static bool
hand_back (struct job *j, int err)
{
  if (!(j->deferred && jobs_worker () && (err == EMFILE || err == ENFILE)))
    return false;
  j->handed_back = true;
  jobs_hand_back ();
  return true;
}

/* A new file was to be made as J->dst, with the mode CREATE_MODE, and a
   file of that name is there: if it is a symlink, GNU cp refuses to
   write through it as through a dangling one, and so does cpr; with
   POSIXLY_CORRECT, it makes the file the symlink names, if there is
   none, and fails with EISDIR on a directory.  (GNU cp writes into
   any other file without truncating it, which cpr refuses.)  Return
   the descriptor, or -1 with errno set, 0 if said already.  */
static int
open_over_symlink (struct job const *j, mode_t create_mode)
{
  struct stat st;
  if (fstatat (dst_dirfd, j->dst_rel, &st, AT_SYMLINK_NOFOLLOW) != 0
      || !S_ISLNK (st.st_mode))
    {
      errno = EEXIST;
      return -1;
    }
  if (getenv ("POSIXLY_CORRECT"))
    {
      if (fstatat (dst_dirfd, j->dst_rel, &st, 0) != 0 && errno == ENOENT)
        return openat (dst_dirfd, j->dst_rel, O_WRONLY | O_CREAT | O_BINARY,
                       create_mode);
      if (S_ISDIR (st.st_mode))
        {
          errno = EISDIR;
          return -1;
        }
    }
  error (0, 0, _("not writing through dangling symlink %s"),
         quoteaf (j->dst));
  errno = 0;
  return -1;
}

/* Open the destination of J for writing: the existing file as it is
   (begin_data marks it, then cuts off what it does not keep), or a new
   one, made unfinished (partial.h).  Set *NEW_MODE to the mode a new file must get once
   its owner is right, or 0.  Return the descriptor or -1.  */
static int
open_dst (struct job *j, struct stat const *src_st, mode_t *new_mode,
          struct cp_options const *x)
{
  mode_t mode = new_file_mode (src_st->st_mode, false, x);
  mode_t perms = create_perms (src_st->st_mode, false);
  /* While the owner is wrong, nobody else may open the file: it is made
     with just the owner's permissions of its source (even with
     --no-preserve=mode, as GNU cp makes it, which shows when the owner
     cannot be set).  */
  bool owner_first = x->preserve_ownership;
  mode_t create_mode = owner_first ? src_st->st_mode & S_IRWXU : perms;
  /* Setting xattrs takes write permission on the file, even through a
     descriptor open for writing: the owner has it until the final
     mode.  */
  if (x->preserve_xattr)
    create_mode |= S_IWUSR;
  /* --no-preserve=mode always sets the default mode, which also drops
     an ACL inherited from the directory.  */
  bool later_mode = (!x->preserve_mode
                     && (create_mode != perms
                         || x->explicit_no_preserve_mode));
  /* Unfinished from its first instant: the open itself sets the bit
     that the last mode change clears.  And writable by its owner until
     then, so that a run after an interruption can open it again, and
     mark it (partial.h).  */
  create_mode |= S_ISVTX | S_IWUSR;
  *new_mode = KEEP_MODE;

  if (!j->new_dst)
    {
      /* Not truncated yet: first the mark, lest a kill in between leave
         an empty file that passes for a copy.  With --continue, open
         for reading too, if allowed, to check what it would keep.  */
      int fd = -1;
      if (x->resume && !x->data_copy_skipped && S_ISREG (j->dst_st.st_mode))
        fd = openat (dst_dirfd, j->dst_rel, O_RDWR | O_BINARY);
      if (fd < 0)
        fd = openat (dst_dirfd, j->dst_rel, O_WRONLY | O_BINARY);
      /* A copy of ours that an earlier run left unfinished ends with
         the mode that run would have given it.  */
      if (0 <= fd && later_mode && partial_unfinished_mode (&j->dst_st, j->src_st.st_uid))
        *new_mode = mode;
      if (0 <= fd)
        return fd;
      if (errno == ENOENT && S_ISLNK (j->dst_st.st_mode))
        {
          /* A dangling symlink: POSIX wants its target created; GNU cp
             refuses, lest it write somewhere unexpected.  */
          if (!getenv ("POSIXLY_CORRECT"))
            {
              error (0, 0, _("not writing through dangling symlink %s"),
                     quoteaf (j->dst));
              return -1;
            }
          fd = openat (dst_dirfd, j->dst_rel, O_WRONLY | O_CREAT | O_BINARY,
                       create_mode);
          if (0 <= fd && later_mode)
            *new_mode = mode;
        }
      else if (x->unlink_dest_after_failed_open)
        {
          if (!remove_dst (j, x))
            return -1;
        }
      if (0 <= fd)
        return fd;
      if (!j->new_dst)
        {
          error (0, errno, _("cannot create regular file %s"),
                 quoteaf (j->dst));
          return -1;
        }
    }

  int fd = openat (dst_dirfd, j->dst_rel, O_WRONLY | O_CREAT | O_EXCL | O_BINARY,
                   create_mode);
  if (fd < 0 && errno == EEXIST)
    fd = open_over_symlink (j, create_mode);
  if (fd < 0)
    {
      /* "cp FILE NEW/" names a directory that is not there.  */
      int err = errno;
      /* Linux takes a descriptor before it makes the file.  */
      if (hand_back (j, err))
        return -1;
      if (err == 0)
        return -1;
      if (err == EISDIR && j->dst[strlen (j->dst) - 1] == '/')
        err = ENOTDIR;
      error (0, err, _("cannot create regular file %s"), quoteaf (j->dst));
      return -1;
    }
  if (later_mode)
    *new_mode = mode;
  return fd;
}

static void warn_unmarkable (char const *name, int err);

/* warn_unmarkable's arguments, kept by a worker for the main thread.  */
struct unmarkable_warning
{
  char *name;
  int err;
};

static void
warn_unmarkable_later (void *arg)
{
  struct unmarkable_warning *w = arg;
  warn_unmarkable (w->name, w->err);
  free (w->name);
  free (w);
}

/* With --continue, say once, for the first file NAME where it shows,
   that a file system cannot hold the marks of partial copies (ERR says
   why): those copies cannot be continued, and are made whole.  Once, for
   a whole tree on it would otherwise say so for every file.  */
static void
warn_unmarkable (char const *name, int err)
{
  static bool warned;
  /* The warning goes with the first file in the copy's order, which
     jobs on workers (--jobs) may reach in another: they leave it to
     the main thread, which decides in order.  */
  if (jobs_worker ())
    {
      struct unmarkable_warning *w = xmalloc (sizeof *w);
      *w = (struct unmarkable_warning) { .name = xstrdup (name),
                                         .err = err };
      out_later (warn_unmarkable_later, w);
      return;
    }
  jobs_drain ();
  if (warned)
    return;
  warned = true;
  error (0, 0, _("warning: cannot mark partial copies on the file system"
                 " of %s (%s): its files are copied whole"),
         quoteaf (name), strerror (err));
}

/* What the main thread knows of the file systems that hold no marks.  */
static struct unmarkable unmarkable;

/* Whether the file system DEV is known to hold no marks, as J knows it.
   A job on a worker (--jobs) knows what the main thread knew when it
   handed the job over: were it to learn it from jobs after it in the
   copy's order, it would not try, and the warning that the first file
   to try gives would come with a later file than without workers.  */
static bool
known_unmarkable (struct job const *j, dev_t dev)
{
  struct unmarkable const *u = j->deferred ? &j->unmarkable : &unmarkable;
  return u->known && u->dev == dev;
}

static void
set_unmarkable (void *arg)
{
  dev_t *dev = arg;
  unmarkable = (struct unmarkable) { .known = true, .dev = *dev };
  free (dev);
}

/* The file system DEV cannot hold marks: note it, in the copy's
   order.  */
static void
note_unmarkable (dev_t dev)
{
  dev_t *arg = xmalloc (sizeof *arg);
  *arg = dev;
  out_later (set_unmarkable, arg);
}

/* Marking J->dst as a partial copy failed with ERR.  The copy goes on
   unmarked, as GNU cp makes it; only --continue, which was asked to
   make interrupted copies resumable, says so.  */
static void
mark_failed (struct job const *j, int err, struct cp_options const *x)
{
  if (!x->resume)
    return;
  if (partial_unsupported (err))
    warn_unmarkable (j->dst, err);
  else
    error (0, err, _("warning: cannot mark %s as a partial copy"),
           quoteaf (j->dst));
}

/* Whether the LEN bytes before offset END of the files open as SRC_FD
   and DST_FD are the same.  */
static bool
same_bytes_before (int src_fd, int dst_fd, off_t end, size_t len)
{
  char a[4096], b[sizeof a];
  if (sizeof a < len)
    len = sizeof a;
  return (pread (src_fd, a, len, end - len) == (ssize_t) len
          && pread (dst_fd, b, len, end - len) == (ssize_t) len
          && memcmp (a, b, len) == 0);
}

/* With --continue: how many bytes of the existing destination J->dst
   (open as DST_FD, with status *DST_ST) may be kept as the start of a
   copy of the source open as SRC_FD, whose status is SRC_ST.  As many
   as its mark records, if it is the mark of a copy of this very source,
   unchanged since, on a file that nobody else could have written; but
   no more than the destination holds, for the mark, though written
   after the data it counts, may outlive some of that data in a power
   cut.  And none if the last of those bytes are not the source's: the
   file was written over since (cp onto it keeps its xattrs).  Bytes
   before those are not read back: a copy that is resumed should not
   cost a copy.  Otherwise none: the copy starts over.  */
static off_t
resume_offset (struct job const *j, int src_fd, struct stat const *src_st,
               int dst_fd, struct stat const *dst_st,
               struct cp_options const *x)
{
  struct partial_mark m;
  int r = partial_get (dst_fd, &m);
  if (r < 0 && partial_unsupported (errno))
    warn_unmarkable (j->dst, errno);
  /* --reflink=always clones the whole file in one call: nothing to
     go on with.  */
  if (r <= 0 || m.offset <= 0 || x->data.reflink == REFLINK_ALWAYS
      || !S_ISREG (src_st->st_mode) || !partial_trusted (dst_st)
      || m.id != partial_identity (src_fd, src_st))
    return 0;
  off_t kept = MIN (m.offset, dst_st->st_size);
  return same_bytes_before (src_fd, dst_fd, kept, kept) ? kept : 0;
}

/* Before the data of J->src (open as SRC_FD, status *SRC_ST) goes to
   J->dst, open as DST_FD with status *DST_ST: mark J->dst as a partial
   copy, in *MARK, and set *START to the offset the data copy starts at.
   A destination that is not a regular file cannot be marked, nor
   continued.  An existing destination was opened as it was: with
   --continue, what resume_offset keeps of it stays; the rest is cut
   off, but only once the mark is on, so that no data is ever left
   without one.  */
static bool
begin_data (struct job const *j, int src_fd, struct stat const *src_st,
            int dst_fd, struct stat const *dst_st, struct partial *mark,
            off_t *start, struct cp_options const *x)
{
  *start = 0;
  if (!S_ISREG (dst_st->st_mode))
    return true;
  if (x->resume && !j->new_dst)
    *start = resume_offset (j, src_fd, src_st, dst_fd, dst_st, x);
  /* A file made unfinished by this run needs the xattr only for
     progress; any other gets it now, before the truncation, in place
     of whatever mark it had.  */
  bool now = !(j->new_dst && partial_unfinished_mode (dst_st, j->src_st.st_uid));
  if (known_unmarkable (j, dst_st->st_dev))
    ;
  else if (partial_begin (mark, dst_fd, src_fd, src_st, *start, now) != 0)
    {
      int err = errno;
      if (partial_unsupported (err))
        note_unmarkable (dst_st->st_dev);
      mark_failed (j, err, x);
    }
  /* As O_TRUNC would, even an empty file: the truncation updates its
     times and clears its set-ID bits.  */
  if (!j->new_dst && (*start < dst_st->st_size || !*start)
      && ftruncate (dst_fd, *start) != 0)
    {
      error (0, errno, _("failed to truncate %s"), quoteaf (j->dst));
      return false;
    }
  return true;
}

/* Copy the data of J->src, open as SRC_FD with status *SRC_ST, to
   J->dst, open as DST_FD with status *DST_ST, marked as a partial copy
   meanwhile in *MARK (which the caller removes once the attributes are
   set too).  DST_ST's mode is kept up to date.  */
static bool
copy_reg_data (struct job const *j, int src_fd, struct stat const *src_st,
               int dst_fd, struct stat *dst_st, struct partial *mark,
               struct cp_options const *x)
{
  off_t start;
  if (!begin_data (j, src_fd, src_st, dst_fd, dst_st, mark, &start, x))
    return false;
  struct data_watch watch = { .reached = partial_reached, .arg = mark };
  struct data_report report = { 0 };
  bool ok = copy_data (src_fd, j->src, src_st, dst_fd, j->dst, dst_st, start,
                       &x->data, &watch, &report);
  dst_st->st_mode = partial_settle_mode (mark, dst_st->st_mode);
  if (mark->failed)
    {
      if (partial_unsupported (mark->err))
        note_unmarkable (dst_st->st_dev);
      mark_failed (j, mark->err, x);
    }
  if (ok && x->debug)
    {
      progress_hide ();
      print_data_report (&report);
      progress_resume ();
    }
  return ok;
}

/* Remove the mark of J->dst, MARK, if any.  */
static bool
end_mark (struct job const *j, struct partial *mark)
{
  if (partial_end (mark) == 0)
    return true;
  error (0, errno, _("cannot remove the partial-copy mark of %s"),
         quoteaf (j->dst));
  return false;
}

/* Copy the regular file (or, with copy_as_regular, the readable special
   file) J->src to J->dst.  */
static bool
copy_reg (struct job *j, struct cp_options const *x)
{
  int src_flags = O_RDONLY | O_NOCTTY | O_BINARY;
  if (x->dereference == DEREF_NEVER)
    src_flags |= O_NOFOLLOW;
  int src_fd = open (j->src, src_flags);
  if (src_fd < 0)
    {
      if (!hand_back (j, errno))
        error (0, errno, _("cannot open %s for reading"), quoteaf (j->src));
      return false;
    }

  bool ok = false;
  int dst_fd = -1;
  struct partial mark = { .fd = -1 };
  struct stat st;
  if (fstat (src_fd, &st) != 0)
    {
      error (0, errno, _("cannot fstat %s"), quoteaf (j->src));
      goto close_src;
    }
  if (!SAME_INODE (st, j->src_st))
    {
      error (0, 0, _("skipping file %s, as it was replaced while being"
                     " copied"), quoteaf (j->src));
      goto close_src;
    }

  mode_t new_mode;
  dst_fd = open_dst (j, &st, &new_mode, x);
  if (dst_fd < 0)
    goto close_src;
  struct stat dst_st;
  if (fstat (dst_fd, &dst_st) != 0)
    {
      error (0, errno, _("cannot fstat %s"), quoteaf (j->dst));
      goto close_dst;
    }

  if (!x->data_copy_skipped
      && !copy_reg_data (j, src_fd, &st, dst_fd, &dst_st, &mark, x))
    {
      /* A copy that failed, said so and goes on with the next file (a
         full disk, a read error) keeps its xattr only for --continue,
         which asked for copies that can be taken up again; the offset
         is for copies that were stopped before they could say
         anything.  So is the sticky bit: without --continue the file is
         left with the mode GNU cp leaves it.  */
      if (!x->resume)
        {
          partial_end (&mark);
          clear_unfinished (j, dst_fd, &dst_st);
        }
      goto close_dst;
    }

  /* The xattr goes before the sticky bit of a file cpr made, which is
     the sign that lasts until the last step (its mode), and which a
     mark is not trusted without; on any other file it is the last
     step: until the attributes are set too, the copy is not done, and
     a --continue after an interruption sets them.  The data is all
     there, though, even if an attribute failed.  */
  bool made = j->new_dst && partial_unfinished_mode (&dst_st,
                                                     j->src_st.st_uid);
  ok = made ? end_mark (j, &mark) : true;
  if (!set_attributes (j, src_fd, dst_fd, &dst_st, new_mode, x))
    ok = false;
  if (!made && !end_mark (j, &mark))
    ok = false;

close_dst:
  if (close (dst_fd) != 0)
    {
      error (0, errno, _("failed to close %s"), quoteaf (j->dst));
      ok = false;
    }
close_src:
  close (src_fd);
  return ok;
}

/* Recreate the symlink J->src as J->dst.  */
static bool
copy_symlink (struct job *j, struct cp_options const *x)
{
  char *target = areadlink_with_size (j->src, j->src_st.st_size);
  if (!target)
    {
      error (0, errno, _("cannot read symbolic link %s"), quoteaf (j->src));
      return false;
    }
  bool ok = symlinkat (target, dst_dirfd, j->dst_rel) == 0;
  if (!ok && errno == EEXIST && !j->new_dst)
    {
      /* An identical symlink there already is as good as a new one.  */
      char *old = areadlinkat_with_size (dst_dirfd, j->dst_rel,
                                         j->dst_st.st_size);
      ok = old && strcmp (old, target) == 0;
      free (old);
      errno = EEXIST;
    }
  else if (!ok && errno == EEXIST && x->unlink_dest_after_failed_open)
    {
      /* A new file was expected, and -f replaces what is there (a
         --parents copy after one that made a directory), as GNU cp
         does.  */
      ok = (unlinkat (dst_dirfd, j->dst_rel, 0) == 0
            && symlinkat (target, dst_dirfd, j->dst_rel) == 0);
    }
  free (target);
  if (!ok)
    {
      error (0, errno, _("cannot create symbolic link %s"), quoteaf (j->dst));
      return false;
    }
  return set_attributes (j, -1, -1, NULL, KEEP_MODE, x);
}

/* Recreate the special file J->src (FIFO, device, socket) as J->dst.  */
static bool
copy_special (struct job *j, struct cp_options const *x)
{
  /* Made as GNU cp makes it: with the source's mode, set-ID and sticky
     bits too (the umask applies), less the group's and others'
     permissions while the owner is wrong, and less their write
     permission until the mode is set.  A special file has no data that
     they could read in between.  */
  mode_t omitted = (x->preserve_ownership ? S_IRWXG | S_IRWXO
                    : x->preserve_mode ? S_IWGRP | S_IWOTH : 0);
  mode_t mode = j->src_st.st_mode & 07777 & ~omitted;
  mode_t final_mode = KEEP_MODE;
  if (!x->preserve_mode
      && (x->preserve_ownership || x->explicit_no_preserve_mode))
    final_mode = new_file_mode (j->src_st.st_mode, false, x);
  if (S_ISFIFO (j->src_st.st_mode))
    {
      if (mkfifoat (dst_dirfd, j->dst_rel, mode) != 0)
        {
          error (0, errno, _("cannot create fifo %s"), quoteaf (j->dst));
          return false;
        }
    }
  else if (mknodat (dst_dirfd, j->dst_rel, (j->src_st.st_mode & S_IFMT) | mode,
                    j->src_st.st_rdev) != 0)
    {
      error (0, errno, _("cannot create special file %s"), quoteaf (j->dst));
      return false;
    }
  return set_attributes (j, -1, -1, NULL, final_mode, x);
}

/* A link to make: a hard link to the file SRC (relative to SRC_DIRFD;
   FOLLOW: to what a symlink there points to), or a symbolic link
   holding SRC.  */
struct new_link
{
  bool symbolic;
  int src_dirfd;
  char const *src;
  bool follow;
};

/* Make the link *ARG as NAME, relative to dst_dirfd.  */
static int
link_as (char *name, void *arg)
{
  struct new_link const *l = arg;
  return (l->symbolic ? symlinkat (l->src, dst_dirfd, name)
          : linkat (l->src_dirfd, l->src, dst_dirfd, name,
                    l->follow ? AT_SYMLINK_FOLLOW : 0));
}

/* Make the link L as REL, relative to dst_dirfd.  With REPLACE, a file
   already there is replaced by making the link under a temporary name
   beside it and renaming that over it: REL never stops naming a file.
   Return 0, or -1 with errno set.  */
static int
force_link (struct new_link *l, char const *rel, bool replace)
{
  char *tmp = xstrdup (rel);
  int r = link_as (tmp, l);
  free (tmp);
  if (r == 0 || errno != EEXIST || !replace)
    return r;

  size_t dir_len = last_component (rel) - rel;
  tmp = xmalloc (dir_len + sizeof "CprXXXXXX");
  memcpy (tmp, rel, dir_len);
  strcpy (tmp + dir_len, "CprXXXXXX");
  r = try_tempname (tmp, 0, l, link_as);
  if (r == 0)
    {
      r = renameat (dst_dirfd, tmp, dst_dirfd, rel);
      int err = errno;
      /* rename leaves both names when they are links to one file.  */
      unlinkat (dst_dirfd, tmp, 0);
      errno = err;
    }
  free (tmp);
  return r;
}

/* Make J->dst a hard link to SRC_NAME, which is SRC relative to
   SRC_DIRFD; with REPLACE, a link to an existing J->dst replaces it.
   FOLLOW links to what a symlink SRC points to.  */
static bool
make_hard_link (int src_dirfd, char const *src, char const *src_name,
                struct job const *j, bool replace, bool follow)
{
  struct new_link l = { .src_dirfd = src_dirfd, .src = src,
                        .follow = follow };
  if (force_link (&l, j->dst_rel, replace) == 0)
    return true;
  error (0, errno, _("cannot create hard link %s to %s"),
         quoteaf_n (0, j->dst), quoteaf_n (1, src_name));
  return false;
}

/* -s: make J->dst a symbolic link to J->src.  */
static bool
make_symbolic_link (struct job *j, struct cp_options const *x)
{
  if (j->src[0] != '/')
    {
      /* A relative name only means the same thing from the directory
         it was given in.  */
      char *parent = dir_name (j->dst);
      struct stat dot, pst;
      bool here = (strcmp (parent, ".") == 0
                   || (stat (".", &dot) == 0 && stat (parent, &pst) == 0
                       && SAME_INODE (dot, pst)));
      free (parent);
      if (!here)
        {
          error (0, 0, _("%s: can make relative symbolic links only in"
                         " current directory"), quotef (j->dst));
          return false;
        }
    }
  struct new_link l = { .symbolic = true, .src = j->src };
  if (force_link (&l, j->dst_rel,
                  !j->new_dst && (x->unlink_dest_after_failed_open
                                  || x->unlink_dest_before_opening)) == 0)
    return true;
  error (0, errno, _("cannot create symbolic link %s to %s"),
         quoteaf_n (0, j->dst), quoteaf_n (1, j->src));
  return false;
}

/* For --progress, count the entries NAMES of the directory J->src as
   found, now that it is listed: they are stat'ed as the copy will stat
   them.  */
static void
count_entries (struct job const *j, char const *names,
               struct cp_options const *x)
{
  int flags = x->dereference == DEREF_ALWAYS ? 0 : AT_SYMLINK_NOFOLLOW;
  for (char const *n = names; *n; n += strlen (n) + 1)
    {
      char *src = file_name_concat (j->src, n, NULL);
      struct stat st;
      count_found (fstatat (AT_FDCWD, src, &st, flags) == 0 ? &st : NULL, x);
      free (src);
    }
  progress_dir_listed ();
}

/* Whether the copy of the operand that J is part of made a directory
   above J->dst.  */
static bool
made_above (struct job const *j)
{
  return j->ancestors && j->ancestors->made;
}

/* Whether the copy of J's operand made the directory J->dst (copy_dir
   made it, when it was new) or one above it.  */
static bool
made_here_or_above (struct job const *j)
{
  return j->new_dst || made_above (j);
}

/* Copy each entry of the directory J->src into J->dst, which is DST.  */
static bool
copy_dir_entries (struct job const *j, struct dst_dir const *dst,
                  struct cp_options const *x, bool *copy_into_self)
{
  char *names = savedir (j->src, SAVEDIR_SORT_FASTREAD);
  if (!names)
    {
      progress_dir_listed ();
      error (0, errno, _("cannot access %s"), quoteaf (j->src));
      return false;
    }
  if (progress_active ())
    count_entries (j, names, x);
  struct ancestor here = { .dev = j->src_st.st_dev, .ino = j->src_st.st_ino,
                           .dst = *dst, .made = made_here_or_above (j),
                           .parent = j->ancestors };
  bool ok = true;
  for (char const *n = names; *n; n += strlen (n) + 1)
    {
      char *src = file_name_concat (j->src, n, NULL);
      char *dst_name = file_name_concat (j->dst, n, NULL);
      char *dst_rel = file_name_concat (j->dst_rel, n, NULL);
      bool into_self = false;
      ok &= copy_internal (src, dst_name, dst_rel, j->new_dst, j->src_st.st_dev, &here,
                           false, x, &into_self);
      free (src);
      free (dst_rel);
      free (dst_name);
      if (into_self)
        {
          *copy_into_self = true;
          break;
        }
    }
  free (names);
  return ok;
}

/* Set the attributes of the directory copy J->dst (see set_attributes)
   through a descriptor, so that whatever is renamed into its place in
   the meantime does not get them (a symlink there is refused).  Only an
   existing directory we may not read is changed by name, with the calls
   that do not follow symlinks.  */
static bool
set_dir_attributes (struct job const *j, mode_t final_mode,
                    struct cp_options const *x)
{
  int fd = openat (dst_dirfd, j->dst_rel,
                   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 && errno != EACCES)
    {
      error (0, errno, _("cannot access %s"), quoteaf (j->dst));
      return false;
    }
  bool ok = set_attributes (j, -1, fd, NULL, final_mode, x);
  if (0 <= fd)
    close (fd);
  return ok;
}

/* --jobs: which directory DST_REL, on the device DEV, is, as the names
   of the copies into it lead there (through a symlink too), and whether
   it may take names of different bytes for one (fold.h), from its inode
   flags and its file system.  Whatever is not found out is taken at
   its worst.  --jobs=1 needs none of it, and saves the calls.  */
static struct dst_dir
probe_dst_dir (char const *dst_rel, dev_t dev, struct cp_options const *x)
{
  struct dst_dir d = { .dev = dev, .wide = true };
  if (x->jobs == 1)
    return d;
  struct stat st;
  int fd = openat (dst_dirfd, dst_rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    {
      /* A directory we may not read: its identity, at least.  */
      if (fstatat (dst_dirfd, dst_rel, &st, 0) == 0)
        d = (struct dst_dir) { .known = true, .dev = st.st_dev,
                               .ino = st.st_ino, .wide = true };
      return d;
    }
  if (fstat (fd, &st) == 0)
    d = (struct dst_dir) { .known = true, .dev = st.st_dev,
                           .ino = st.st_ino, .wide = true };
  int flags;
  bool flags_known = ioctl (fd, FS_IOC_GETFLAGS, &flags) == 0;
  struct statfs fs;
  if (fstatfs (fd, &fs) == 0)
    d.wide = fold_wide ((unsigned long) fs.f_type, flags_known,
                        flags_known ? (unsigned int) flags : 0);
  close (fd);
  return d;
}

/* Copy the directory J->src to J->dst, creating it if needed, then its
   contents, then its attributes (last, so that a read-only or old
   timestamp does not get in the way of filling it).  */
static bool
copy_dir (struct job *j, struct cp_options const *x, bool *copy_into_self)
{
  mode_t final_mode = KEEP_MODE;
  dev_t dst_dev = j->dst_st.st_dev;
  settle_source_dir (j);
  if (j->new_dst)
    {
      /* Until the attributes are set, the directory must be ours to
         fill: nobody else may add, remove or rename entries in it, nor
         look into it at all while its owner is wrong.  */
      mode_t perms = create_perms (j->src_st.st_mode, true);
      mode_t omitted = (x->preserve_ownership ? S_IRWXG | S_IRWXO
                        : S_IWGRP | S_IWOTH);
      mode_t added = S_IRWXU & ~perms;
      if (mkdirat (dst_dirfd, j->dst_rel, (perms & ~omitted) | added) != 0)
        {
          error (0, errno, _("cannot create directory %s"), quoteaf (j->dst));
          return false;
        }
      struct stat st;
      if (fstatat (dst_dirfd, j->dst_rel, &st, AT_SYMLINK_NOFOLLOW) != 0)
        {
          error (0, errno, _("cannot stat %s"), quoteaf (j->dst));
          return false;
        }
      /* Met later as a source, a directory made here is a copy into
         itself, unless it is in a directory that this operand's copy
         made too: GNU cp then copies it like any other ("cp -r a t/a/x
         t" copies t/a/x to t/x), and so does cpr.  */
      if (!made_above (j))
        remember (dir_copies, &st, j->dst, j->dst_rel);
      dst_dev = st.st_dev;
      if (x->verbose)
        print_verbose (j);
      /* The final mode gives back what was omitted (unless the umask
         would have taken it anyway) and takes away what was added, on
         top of the mode the directory got: a default ACL, not the
         umask, may have decided that.  The set-group-ID bit inherited
         from the parent stays.  --no-preserve=mode sets the default
         mode.  */
      mode_t back = perms & omitted & ~x->umask_kill;
      if (x->preserve_mode)
        ;
      else if (x->explicit_no_preserve_mode)
        final_mode = (new_file_mode (j->src_st.st_mode, true, x)
                      | (st.st_mode & S_ISGID));
      else if (back || added)
        final_mode = ((st.st_mode & 07777) | back) & ~added;
    }

  bool ok = true;
  uintmax_t first_job = jobs_next ();
  /* -x: a directory on another file system is copied, but empty.  */
  if (!(x->one_file_system && j->parent_dev != 0
        && j->parent_dev != j->src_st.st_dev))
    {
      j->listed = true;
      struct dst_dir dst = probe_dst_dir (j->dst_rel, dst_dev, x);
      ok = copy_dir_entries (j, &dst, x, copy_into_self);
    }

  if (j->new_dst || x->preserve_mode || x->preserve_ownership
      || x->preserve_timestamps || x->preserve_xattr)
    {
      /* Its entries' copies on workers (--jobs) change its times, and
         may need its permissions.  */
      jobs_wait (first_job);
      ok &= set_dir_attributes (j, final_mode, x);
    }
  return ok;
}

bool
copy_dir_attributes (char const *src_name, struct stat const *src_st,
                     char const *dst_name, int dst_dir_fd,
                     char const *dst_relname, bool new_dst, mode_t final_mode,
                     struct cp_options const *x)
{
  struct job j = { .src = src_name, .dst = dst_name, .dst_rel = dst_relname,
                   .src_st = *src_st, .new_dst = new_dst, .leading = true };
  set_dst_dirfd (dst_dir_fd);
  return set_dir_attributes (&j, final_mode, x);
}

/* Whether the symlink policy follows a symlink named J->src.  */
static bool
source_followed (struct job const *j, struct cp_options const *x)
{
  return (x->dereference == DEREF_ALWAYS
          || (x->dereference == DEREF_COMMAND_LINE_ARGUMENTS
              && j->command_line_arg));
}

/* Stat J->src as the symlink policy says.  */
static bool
stat_source (struct job *j, struct cp_options const *x)
{
  bool follow = source_followed (j, x);
  if ((follow ? stat (j->src, &j->src_st) : lstat (j->src, &j->src_st)) != 0)
    {
      error (0, errno, _("cannot stat %s"), quoteaf (j->src));
      return false;
    }
  return true;
}

/* Whether copying J->src onto the existing J->dst is safe although
   they may be one file.  Set *NOTHING_TO_DO when a hard link to the
   very file is asked for, which is already there.  */
static bool
same_file_ok (struct job const *j, struct cp_options const *x,
              bool *nothing_to_do)
{
  struct stat const *s = &j->src_st;
  struct stat const *d = &j->dst_st;
  bool backup = x->backup_type != no_backups;
  *nothing_to_do = false;

  if (SAME_INODE (*s, *d))
    {
      if (x->hard_link)
        {
          *nothing_to_do = true;
          return true;
        }
      /* Following a symlink to the destination: a backup or removal of
         the destination would take the source away too.  */
      struct stat lst;
      if (!S_ISLNK (s->st_mode) && lstat (j->src, &lst) == 0
          && S_ISLNK (lst.st_mode))
        return false;
      if (x->symbolic_link || same_name (j->src, j->dst))
        return false;
      /* Two hard links to one symlink: the copy is there already,
         unless the destination name is to be backed up first.  */
      if (S_ISLNK (s->st_mode) && S_ISLNK (d->st_mode))
        {
          *nothing_to_do = !backup;
          return true;
        }
      /* Another name for the file can be moved or removed out of the
         way, leaving the source in place.  */
      return backup || x->unlink_dest_before_opening;
    }

  /* A symlink, not followed, to the very destination: -l finds its
     link there already, unless the destination is to be backed up
     first; -s would lose the file, as would any copy below.  */
  struct stat f;
  bool points_to_dst = (S_ISLNK (s->st_mode) && !S_ISLNK (d->st_mode)
                        && stat (j->src, &f) == 0 && SAME_INODE (f, *d));
  if (points_to_dst && x->hard_link && !backup)
    {
      *nothing_to_do = true;
      return true;
    }
  if (points_to_dst && x->symbolic_link)
    return false;
  if (x->hard_link || x->symbolic_link || backup)
    return true;

  /* Writing through a symlink to the source would truncate it; one
     removed first is no danger.  */
  if (S_ISLNK (d->st_mode) && !S_ISLNK (s->st_mode)
      && !x->unlink_dest_before_opening
      && fstatat (dst_dirfd, j->dst_rel, &f, 0) == 0 && SAME_INODE (f, *s))
    return false;
  return !points_to_dst;
}

/* Ask whether to overwrite J->dst (-i).  An unwritable one is named
   with its mode: with -f or --remove-destination it is replaced rather
   than written to.  */
static bool
overwrite_ok (struct job const *j, struct cp_options const *x)
{
  /* The question starts at the left margin, and the answer echoed ends
     its line: the status line comes back below it.  */
  progress_hide ();
  if (euidaccess (j->dst, W_OK) != 0 && errno == EACCES
      && !S_ISLNK (j->dst_st.st_mode))
    {
      char perms[12];
      strmode (j->dst_st.st_mode, perms);
      perms[10] = '\0';
      unsigned long mode = j->dst_st.st_mode & 07777;
      if (x->unlink_dest_after_failed_open || x->unlink_dest_before_opening)
        fprintf (stderr, _("%s: replace %s, overriding mode %04lo (%s)? "),
                 program_name, quoteaf (j->dst), mode, perms + 1);
      else
        fprintf (stderr, _("%s: unwritable %s (mode %04lo, %s); try anyway? "),
                 program_name, quoteaf (j->dst), mode, perms + 1);
    }
  else
    fprintf (stderr, _("%s: overwrite %s? "), program_name, quoteaf (j->dst));
  bool yes = yesno ();
  progress_prompted ();
  return yes;
}

/* The name BASE in the directory of NAME.  */
static char *
beside (char const *name, char const *base)
{
  if (last_component (name) == name)
    return xstrdup (base);
  char *dir = dir_name (name);
  char *r = file_name_concat (dir, base, NULL);
  free (dir);
  return r;
}

/* Forget the backup of J.  */
static void
free_backup (struct job *j)
{
  free (j->backup);
  free (j->backup_rel);
  j->backup = j->backup_rel = NULL;
}

/* Move the existing J->dst out of the way as its backup.  */
static bool
make_backup (struct job *j, struct cp_options const *x)
{
  /* A copy in flight (--jobs) may be about to make a file of the name
     that the backup takes: a numbered backup would not see it yet, and
     take it; a simple one would be renamed over it, or in its way.  */
  jobs_drain ();
  /* A backup named like the source would replace the source.  */
  char *name = find_backup_file_name (AT_FDCWD, j->dst, x->backup_type);
  bool clash = same_name (j->src, name);
  if (clash)
    {
      error (0, 0, _("backing up %s might destroy source;  %s not copied"),
             quoteaf_n (0, j->dst), quoteaf_n (1, j->src));
      free (name);
      return false;
    }
  free (name);

  /* Rename relative to DST's directory: this gnulib's backup_file_rename
     renames a numbered-existing backup that turns out simple through
     the wrong directory when the name has a directory part.  */
  char *dir = dir_name (j->dst_rel);
  int dir_fd = openat (dst_dirfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0)
    {
      error (0, errno, _("cannot backup %s"), quoteaf (j->dst));
      free (dir);
      return false;
    }
  char *base = backup_file_rename (dir_fd, last_component (j->dst_rel),
                                   x->backup_type);
  int err = errno;
  close (dir_fd);
  free (dir);
  if (!base)
    {
      if (err == ENOENT)
        return true;
      error (0, err, _("cannot backup %s"), quoteaf (j->dst));
      return false;
    }
  j->backup = beside (j->dst, base);
  j->backup_rel = beside (j->dst_rel, base);
  free (base);
  j->new_dst = true;
  return true;
}

/* Put the backup of J->dst back after a failed copy.  */
static void
undo_backup (struct job *j, struct cp_options const *x)
{
  if (j->backup)
    {
      if (renameat (dst_dirfd, j->backup_rel, dst_dirfd, j->dst_rel) != 0)
        error (0, errno, _("cannot un-backup %s"), quoteaf (j->dst));
      else if (x->verbose)
        out_printf (_("%s -> %s (unbackup)\n"), quoteaf_n (0, j->backup),
                    quoteaf_n (1, j->dst));
      free_backup (j);
    }
}

/* Whether the copy of J->src would be written through a symlink that
   this invocation made as J->dst, into wherever that points.  */
static bool
through_new_symlink (struct job const *j, struct cp_options const *x)
{
  mode_t m = j->src_st.st_mode;
  struct stat st;
  return (x->dest_info
          && (S_ISREG (m) || (x->copy_as_regular && !S_ISDIR (m)
                              && !S_ISLNK (m)))
          && !x->unlink_dest_before_opening && x->backup_type == no_backups
          && !x->hard_link && !x->symbolic_link
          && made_symlinks
          && fstatat (dst_dirfd, j->dst_rel, &st, AT_SYMLINK_NOFOLLOW) == 0
          && S_ISLNK (st.st_mode) && seen_file (made_symlinks, j->dst, &st));
}

/* Whether the existing J->dst is a regular file that carries a sign of
   a partial copy (partial.h), whoever put it there: then its timestamps
   say nothing of its data (an interrupted copy is newer than its
   source), and -u must not skip it.
   Read through a descriptor, on the file the copy would write.  One we
   may not read is taken as unmarked.  */
static bool
marked_partial (struct job const *j, struct cp_options const *x)
{
  if (!S_ISREG (j->dst_st.st_mode))
    return false;
  if (partial_unfinished_mode (&j->dst_st, j->src_st.st_uid))
    return true;
  int fd = openat (dst_dirfd, j->dst_rel,
                   O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return false;
  struct stat st;
  struct partial_mark m;
  int r = (fstat (fd, &st) == 0 && SAME_INODE (st, j->dst_st)
           ? partial_get (fd, &m) : 0);
  int err = errno;
  close (fd);
  if (r < 0 && x->resume && partial_unsupported (err))
    warn_unmarkable (j->dst, err);
  return 0 < r;
}

/* Whether, with --preserve=links, another name may lead to J->src:
   it has several links, or symlinks to it are being followed.  */
static bool
may_be_linked (struct job const *j, struct cp_options const *x)
{
  return (x->preserve_links && !S_ISDIR (j->src_st.st_mode)
          && (1 < j->src_st.st_nlink
              || x->dereference == DEREF_ALWAYS
              || (x->dereference == DEREF_COMMAND_LINE_ARGUMENTS
                  && j->command_line_arg)));
}

/* Make J->dst a link to EARLIER, the copy already made of J->src's
   inode.  -v says when that replaced a file, as GNU cp does.  */
static bool
link_to (struct seen const *earlier, struct job *j,
         struct cp_options const *x)
{
  if (!make_hard_link (dst_dirfd, earlier->rel, earlier->name, j, true,
                       false))
    return false;
  if (x->verbose && !j->new_dst)
    print_removed (j);
  return true;
}

/* Whether J->dst, a symlink or special file, is what a copy of J->src
   makes: a symlink to the same target, or a special file of the same
   type and device number.  */
static bool
same_nondata (struct job const *j)
{
  mode_t s = j->src_st.st_mode, d = j->dst_st.st_mode;
  if (S_ISLNK (s) && S_ISLNK (d))
    {
      char *a = areadlink_with_size (j->src, j->src_st.st_size);
      char *b = a ? areadlinkat_with_size (dst_dirfd, j->dst_rel,
                                           j->dst_st.st_size) : NULL;
      bool same = b && strcmp (a, b) == 0;
      free (a);
      free (b);
      return same;
    }
  return ((S_ISFIFO (s) && S_ISFIFO (d)) || (S_ISSOCK (s) && S_ISSOCK (d))
          || (((S_ISCHR (s) && S_ISCHR (d)) || (S_ISBLK (s) && S_ISBLK (d)))
              && j->src_st.st_rdev == j->dst_st.st_rdev));
}

/* The work of refresh_attributes (below) on J->dst, open as FD
   (O_PATH), whose status is *ST.  */
static bool
refresh_pinned (struct job const *j, int fd, struct stat const *st,
                struct cp_options const *x)
{
  char proc[sizeof "/proc/self/fd/" + INT_BUFSIZE_BOUND (int)];
  sprintf (proc, "/proc/self/fd/%d", fd);
  mode_t mode = j->src_st.st_mode & 07777;
  uid_t uid = j->src_st.st_uid;
  gid_t gid = j->src_st.st_gid;
  if (x->preserve_ownership && !same_owner (st, &j->src_st)
      && fchownat (fd, "", uid, gid, AT_EMPTY_PATH) != 0)
    {
      if (!chown_failure_ok (x))
        {
          error (0, errno, _("failed to preserve ownership for %s"),
                 quoteaf (j->dst));
          return false;
        }
      fchownat (fd, "", -1, gid, AT_EMPTY_PATH);
      mode &= ~(S_ISUID | S_ISGID | S_ISVTX);
    }
  struct timespec ts[2] = { get_stat_atime (&j->src_st),
                            get_stat_mtime (&j->src_st) };
  bool ok = true;
  if (x->preserve_timestamps && utimensat (AT_FDCWD, proc, ts, 0) != 0
      && errno != ENOENT
      && !(S_ISLNK (st->st_mode) && (errno == ENOSYS || errno == EOPNOTSUPP)))
    {
      error (0, errno, _("preserving times for %s"), quoteaf (j->dst));
      ok = false;
    }
  if (x->preserve_mode && !S_ISLNK (st->st_mode) && chmod (proc, mode) != 0
      && errno != ENOENT)
    {
      error (0, errno, _("preserving permissions for %s"), quote (j->dst));
      ok = false;
    }
  return ok;
}

/* Give the skipped J->dst, a symlink or special file, the owner, times
   and mode that *X preserves, through a descriptor of the very file
   that was compared (O_PATH): its owner may put another file in its
   place between two calls, a symlink or a hard link to a file of
   root's, and root's cpr must not change that one.  The descriptor is
   reached for the times and mode through /proc, whose link leads to
   the file itself, even a symlink; without /proc nothing is done, as
   GNU cp does nothing to a skipped file.  The ACL and xattrs, which
   Linux sets on such a file only through a name, are left alone.  */
static bool
refresh_attributes (struct job const *j, struct cp_options const *x)
{
  int fd = openat (dst_dirfd, j->dst_rel, O_PATH | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return true;
  struct stat st;
  bool ok = true;
  if (fstat (fd, &st) == 0 && SAME_INODE (st, j->dst_st)
      && !((st.st_mode ^ j->dst_st.st_mode) & S_IFMT))
    ok = refresh_pinned (j, fd, &st, x);
  close (fd);
  return ok;
}

/* -u skips J->dst, not older than J->src.  If it is a symlink or special
   file that a copy of J->src makes, of ours (for root, of its source's
   owner, as -a makes it; another user's, which that user may hold open,
   is left alone), give it the
   attributes that *X preserves all the same: they are set after it is
   made, and a copy stopped in between leaves one that is new, so never
   older than its source.  A regular file has its mark for that
   (partial.h); these have no data to mark.  */
static bool
refresh_nondata (struct job const *j, struct cp_options const *x)
{
  if (S_ISREG (j->src_st.st_mode) || S_ISDIR (j->src_st.st_mode)
      || !(x->preserve_timestamps || x->preserve_ownership)
      || !partial_ours (&j->dst_st, j->src_st.st_uid) || !same_nondata (j))
    return true;
  return refresh_attributes (j, x);
}

/* -u found the existing J->dst up to date, so it is skipped.  It
   still stands for J->src's inode, if that has other names, even
   without --preserve=links: as with GNU cp, the later names that -u
   skips too are linked to it, and with --preserve=links the others
   as well.  But if an earlier name stands for the inode already, J->dst
   is linked to that one, whatever -u says, so that the names stay one
   file.  */
static bool
up_to_date (struct job *j, struct cp_options const *x)
{
  if (!may_be_linked (j, x)
      && !(1 < j->src_st.st_nlink && !S_ISDIR (j->src_st.st_mode)))
    return true;
  /* A symlink in the place of a file's copy is not one of its names:
     it is never replaced by a link (GNU cp goes through it, and refuses
     a dangling one).  */
  if (S_ISLNK (j->dst_st.st_mode) && !S_ISLNK (j->src_st.st_mode))
    return true;
  struct seen const *earlier = recall_entry (copied_sources, &j->src_st);
  if (!earlier)
    {
      remember (copied_sources, &j->src_st, j->dst, j->dst_rel);
      return true;
    }
  return link_to (earlier, j, x);
}

/* Whether the copy of J->src must replace the existing J->dst rather
   than be written into it: the destination's other links must not see
   the new data, and a file that is not regular cannot be rewritten in
   place.  Only a copy of data replaces anything: --attributes-only
   leaves the destination's data and links alone, and a special file
   fails to be made over it, as with GNU cp.  So does one reached by
   following a symlink (-L, or -H on the command line), which GNU cp
   does not replace either: the user named what it points to, not a
   file to recreate.  Otherwise a special file's copy replaces the
   destination also when it is a link made with -l or -s, or data read
   as from a regular file (-P without -R, or --copy-contents), which
   would go to the destination's other links too: as with GNU cp.  */
static bool
needs_new_inode (struct job const *j, struct cp_options const *x)
{
  mode_t m = j->src_st.st_mode;
  if (x->data_copy_skipped)
    return false;
  return ((x->preserve_links && 1 < j->dst_st.st_nlink)
          || (!S_ISREG (m) && !source_followed (j, x)));
}

/* Whether the copy of J->src is written through a symlink in the
   place of its destination, as GNU cp does for a regular file (or one
   read as regular) copied without a backup, -l, -s or
   --remove-destination.  */
static bool
follows_dst_symlink (struct job const *j, struct cp_options const *x)
{
  mode_t m = j->src_st.st_mode;
  return !((!S_ISREG (m) && (!x->copy_as_regular || S_ISDIR (m)
                             || S_ISLNK (m)))
           || x->symbolic_link || x->hard_link
           || x->backup_type != no_backups
           || x->unlink_dest_before_opening);
}

/* Whether the existing J->dst is a symlink that leads nowhere.  */
static bool
dangling_dst (struct job const *j)
{
  struct stat st;
  return (S_ISLNK (j->dst_st.st_mode)
          && fstatat (dst_dirfd, j->dst_rel, &st, 0) != 0 && errno == ENOENT);
}

/* Deal with an existing destination J->dst before copying J->src onto
   it.  Return false on failure; set *SKIP when there is nothing to copy
   (-n, -u, -i answered no, or the link is already there).  */
static bool
prepare_existing_dst (struct job *j, struct cp_options const *x, bool *skip)
{
  bool src_dir = S_ISDIR (j->src_st.st_mode);
  bool dst_dir = S_ISDIR (j->dst_st.st_mode);
  *skip = false;

  /* -n skips a destination that exists through the symlink; one that
     dangles is refused all the same (as by GNU cp).  A symlink made
     inside a directory's copy, which GNU cp does not check for, is
     refused for GNU cp's own reason where it has one: the same file,
     or (unless POSIXLY_CORRECT) a dangling symlink, which open_dst
     refuses.  */
  if (!(x->interactive == I_ALWAYS_NO && !S_ISLNK (j->dst_st.st_mode))
      && through_new_symlink (j, x)
      && (getenv ("POSIXLY_CORRECT") || !dangling_dst (j)
          || seen_file (x->dest_info, j->dst, &j->dst_st)))
    {
      bool ignored;
      if (!same_file_ok (j, x, &ignored))
        error (0, 0, _("%s and %s are the same file"),
               quoteaf_n (0, j->src), quoteaf_n (1, j->dst));
      else
        error (0, 0, _("will not copy %s through just-created symlink %s"),
               quoteaf_n (0, j->src), quoteaf_n (1, j->dst));
      return false;
    }

  /* A dangling (or, with -f, looping) symlink that the copy would go
     through stands for a file that does not exist yet: GNU cp neither
     skips it (-n, -u) nor asks about it (-i), and then refuses to
     write through it (-f replaces a loop).  */
  if (S_ISLNK (j->dst_st.st_mode) && follows_dst_symlink (j, x))
    return true;

  if (x->interactive == I_ALWAYS_NO && !src_dir)
    {
      *skip = true;
      return true;
    }

  bool nothing_to_do;
  if (!same_file_ok (j, x, &nothing_to_do))
    {
      error (0, 0, _("%s and %s are the same file"),
             quoteaf_n (0, j->src), quoteaf_n (1, j->dst));
      return false;
    }

  if (src_dir && !dst_dir)
    {
      error (0, 0, _("cannot overwrite non-directory %s with directory %s"),
             quoteaf_n (0, j->dst), quoteaf_n (1, j->src));
      return false;
    }
  if (src_dir)
    {
      *skip = nothing_to_do;
      return true;
    }

  if (x->update
      && 0 <= utimecmpat (dst_dirfd, j->dst_rel, &j->dst_st, &j->src_st,
                          (x->preserve_timestamps
                           ? UTIMECMP_TRUNCATE_SOURCE : 0))
      && !marked_partial (j, x))
    {
      *skip = true;
      return refresh_nondata (j, x) && up_to_date (j, x);
    }

  if (x->interactive == I_ASK_USER && !overwrite_ok (j, x))
    {
      *skip = true;
      return true;
    }

  /* The link already there is only found after -i has asked, as in GNU
     cp, which says nothing more.  */
  if (nothing_to_do)
    {
      *skip = true;
      return true;
    }

  /* Only now, as in GNU cp: -u and a "no" to -i leave a directory in
     the way of a file alone, without an error.  */
  if (dst_dir)
    {
      error (0, 0, _("cannot overwrite directory %s with non-directory"),
             quoteaf (j->dst));
      return false;
    }

  if (j->command_line_arg && x->dest_info
      && x->backup_type != numbered_backups
      && seen_file (x->dest_info, j->dst, &j->dst_st))
    {
      error (0, 0, _("will not overwrite just-created %s with %s"),
             quoteaf_n (0, j->dst), quoteaf_n (1, j->src));
      return false;
    }

  if (x->backup_type != no_backups)
    return make_backup (j, x);

  if (x->unlink_dest_before_opening || needs_new_inode (j, x))
    return remove_dst (j, x);
  return true;
}

/* --jobs: regular files copied on worker threads (jobs.h).  The main
   thread walks the tree as without it and hands over the copy of a new
   regular file (its creation, data and attributes: copy_reg) when
   nothing else can depend on when that copy happens.  Everything else
   stays with the main thread, in order: the other kinds of files, the
   tables of copied files, -i's questions, and the attributes of a
   directory, set once the copies into it are done.  */

/* Whether a copy handed over failed.  */
static bool tasks_failed;

/* Whether a worker ran out of file descriptors: the files after it are
   copied one at a time, by the main thread.  */
static bool fds_short;

/* --jobs=auto: how many files to copy at once into the directory of
   DST.  A file server (NFS, SMB, Ceph, AFS, Lustre, GPFS, 9P)
   answers each request of a copy of a small file (create, write, set
   the attributes, close) after a round trip, which is most of its
   time: copies side by side overlap their round trips, and 8 keep a
   server busy without flooding it.  On a local disk the copy of a
   small file costs the processor little and waits for nothing that
   another copy would overlap, and copies side by side of large files
   only make the disk seek between them: one at a time.  */
size_t
auto_jobs (char const *dst)
{
  struct statfs fs;
  if (statfs (dst, &fs) != 0)
    {
      if (errno != ENOENT && errno != ENOTDIR)
        return 1;
      char *dir = dir_name (dst);
      int r = statfs (dir, &fs);
      free (dir);
      if (r != 0)
        return 1;
    }
  switch ((uint32_t) fs.f_type)
    {
    case NFS_SUPER_MAGIC: case SMB_SUPER_MAGIC: case SMB2_SUPER_MAGIC:
    case CIFS_SUPER_MAGIC: case CEPH_SUPER_MAGIC: case AFS_SUPER_MAGIC:
    case AFS_FS_MAGIC: case LUSTRE_SUPER_MAGIC: case GPFS_SUPER_MAGIC:
    case V9FS_MAGIC:
      return 8;
    /* FUSE could be a file server too, but its mounts may show other
       file systems' directories under identities of their own: a tree
       is copied onto one a file at a time all the same.  */
    default:
      return 1;
    }
}

/* The most descriptors that fds_open looks at one by one, where
   /proc is not mounted: a few milliseconds of calls.  */
enum { FD_PROBE_MAX = 1 << 16 };

/* The file descriptors open now, below LIMIT: the entries of
   /proc/self/fd, or where it cannot be read, the numbers below LIMIT
   (up to FD_PROBE_MAX) that fcntl knows.  */
static intmax_t
fds_open (rlim_t limit)
{
  DIR *d = opendir ("/proc/self/fd");
  intmax_t n = 0;
  if (d)
    {
      for (struct dirent *e; (e = readdir (d)); )
        n += e->d_name[0] != '.';
      closedir (d);
      /* Less the one that listed them.  */
      return n - 1;
    }
  int top = MIN (limit, FD_PROBE_MAX);
  for (int fd = 0; fd < top; fd++)
    n += 0 <= fcntl (fd, F_GETFD);
  return n;
}

/* The descriptors that a worker holds at once: the source, the copy,
   and one for what a library may open meanwhile; and those that the
   main thread keeps for itself: a directory listed, a file copied, a
   backup's directory, a directory probed, and some to spare.  */
enum { WORKER_FDS = 3, MAIN_FDS = 8 };

/* How many of N workers the limit on open files (RLIMIT_NOFILE) leaves
   room for, with the descriptors open now: GNU cp copies a tree with a
   handful of them, and with "ulimit -n 16" --jobs=8 must not fail where
   it does not.  Those open now count however high the limit: cpr may
   inherit most of them, and the main thread must still find its
   own.  */
static size_t
workers_for_fds (size_t n)
{
  struct rlimit rl;
  if (getrlimit (RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
    return n;
  intmax_t left = ((intmax_t) MIN (rl.rlim_cur, INTMAX_MAX / 2)
                   - fds_open (rl.rlim_cur) - MAIN_FDS);
  return left < WORKER_FDS ? 0 : MIN (n, (size_t) (left / WORKER_FDS));
}

/* Start N workers, or as many as the limit on open files leaves room
   for, for the first file handed over, unless started; the state they
   share with the main thread is settled first.  Return whether there
   are workers.  */
static bool
start_workers (size_t n)
{
  static bool failed;
  if (jobs_started || failed)
    return jobs_started;
  n = workers_for_fds (n);
  /* libattr reads /etc/xattr.conf when first asked, and partial.c
     learns the caller's user ID once: now, before workers ask.  */
  xattr_conf_allows ("user.cpr");
  partial_init ();
  failed = n == 0 || !jobs_start (n);
  return jobs_started;
}

/* Room on the destination's file system for the copies in flight.
   Which copies fit on a file system that fills up must not depend on
   the order in which workers happen to write them.  So a copy is
   handed over only while the file system has room for it and for all
   those in flight; otherwise the copies are made one at a time, in
   order, as by GNU cp.  The room is what statvfs says is free, less a
   reserve for what the estimates leave out (directories, xattrs, the
   file system's own metadata), less the estimates of the copies in
   flight and of what the main thread made since; statvfs is asked
   again when it runs out.  A quota, or another process filling the
   file system meanwhile, is not foreseen.  */
static struct
{
  bool known;                   /* the fields below hold */
  dev_t dev;                    /* the file system */
  intmax_t block;               /* its block size */
  intmax_t bytes;               /* bytes left to hand over */
  intmax_t files;               /* inodes left */
  intmax_t busy_bytes;          /* what the copies in flight take */
  intmax_t busy_files;
} room;

/* The reserve: 32 MiB and 1% of the file system, but at most 1 GiB of
   that 1%, the largest share of space that a file system sets aside at
   once for its metadata (btrfs's chunks): on a disk of many terabytes,
   1% would be hundreds of gigabytes, which would keep --jobs from
   copying side by side with plenty of room left.  */
enum { ROOM_RESERVE = 32 << 20, ROOM_RESERVE_FILES = 64 };
static intmax_t const ROOM_SHARE_MAX = (intmax_t) 1 << 30;

/* A file system's COUNT of blocks of SIZE bytes, in bytes, or
   INTMAX_MAX if that is more: some say they have 2^64 bytes and
   more.  */
static intmax_t
room_bytes (uintmax_t count, intmax_t size)
{
  intmax_t r;
  return INT_MULTIPLY_WRAPV (count, size, &r) ? INTMAX_MAX : r;
}

/* A - B, where B >= 0, or -1 if that is below 0: no room.  Not less,
   which could overflow.  */
static intmax_t
room_less (intmax_t a, intmax_t b)
{
  return b <= a ? a - b : -1;
}

/* What a copy of a file of SIZE bytes takes: its blocks and four more,
   for its inode, its xattrs, its directory entry; INTMAX_MAX, which
   fits nowhere, if that is more (a sparse file may be 2^63 - 1 bytes
   long).  */
static intmax_t
room_cost (off_t size)
{
  intmax_t b = room.block;
  intmax_t blocks = size / b + (size % b != 0);
  intmax_t cost;
  return (INT_ADD_WRAPV (blocks, 4, &blocks)
          || INT_MULTIPLY_WRAPV (blocks, b, &cost) ? INTMAX_MAX : cost);
}

/* Find out the room on the file system DEV, that of the directory of
   DST.  */
static void
room_measure (dev_t dev, char const *dst)
{
  char *dir = dir_name (dst);
  struct statvfs fs;
  int r = statvfs (dir, &fs);
  free (dir);
  room.known = r == 0;
  if (!room.known)
    return;
  room.dev = dev;
  room.block = fs.f_frsize ? fs.f_frsize : fs.f_bsize;
  if (room.block <= 0)
    room.block = 4096;
  intmax_t size = room_bytes (fs.f_blocks, room.block);
  intmax_t free_bytes = room_bytes (fs.f_bavail, room.block);
  intmax_t reserve = ROOM_RESERVE + MIN (size / 100, ROOM_SHARE_MAX);
  room.bytes = room_less (room_less (free_bytes, reserve), room.busy_bytes);
  /* A file system without a count of inodes (btrfs) has no limit.  */
  intmax_t free_files = MIN (fs.f_favail, INTMAX_MAX);
  intmax_t files_reserve = ROOM_RESERVE_FILES + (intmax_t) (fs.f_files / 100);
  room.files = (fs.f_files
                ? room_less (room_less (free_files, files_reserve),
                             room.busy_files)
                : INTMAX_MAX);
}

/* Whether the copy of J, a regular file whose copy goes on the device
   DEV, fits on it, with those in flight.  If so take its room, in
   *COST.  Copies in flight to another file system are waited for:
   room for one at a time.  */
static bool
room_take (struct job const *j, dev_t dev, intmax_t *cost)
{
  if (room.known && room.dev != dev)
    jobs_drain ();
  for (int tries = 0; ; tries++)
    {
      if (room.known && room.dev == dev)
        {
          *cost = room_cost (j->src_st.st_size);
          if (*cost <= room.bytes && 1 <= room.files)
            break;
        }
      /* Once more after a fresh look, then once more with nothing in
         flight.  */
      if (tries == 2)
        return false;
      if (tries == 1)
        jobs_drain ();
      room_measure (dev, j->dst);
    }
  room.bytes -= *cost;
  room.files--;
  room.busy_bytes += *cost;
  room.busy_files++;
  return true;
}

/* A copy in flight that took COST is done: statvfs sees it now.  */
static void
room_give_back (intmax_t cost)
{
  room.busy_bytes -= cost;
  room.busy_files--;
}

/* The main thread is about to make J->dst on the device DEV: take its
   room too, and if there is none left, wait for the copies in flight
   first.  */
static void
room_for_main (struct job const *j, dev_t dev, struct cp_options const *x)
{
  if (!room.known || room.dev != dev)
    return;
  room.bytes = room_less (room.bytes,
                          room_cost (S_ISREG (j->src_st.st_mode)
                                     && !x->hard_link && !x->symbolic_link
                                     ? j->src_st.st_size : 0));
  room.files = room_less (room.files, 1);
  if (room.bytes < 0 || room.files < 0)
    jobs_drain ();
}

/* The device J->dst goes on: that of the copy of the directory it is
   in, or of the directory of an operand's destination, which the
   copy's start measured.  */
static dev_t top_dst_dev;

static dev_t
dst_dev_of (struct job const *j)
{
  return j->ancestors ? j->ancestors->dst.dev : top_dst_dev;
}

/* A regular file copied on a worker: its job, with names of its own,
   and what the main thread needs once it is done.  */
struct task
{
  struct job j;
  struct cp_options const *x;
  struct dst_dir dir;           /* the directory J.dst is in */
  char *key;                    /* J.dst's last component's fold_key */
  intmax_t cost;                /* its room */
};

/* Where a copy goes: into DIR, by a name whose fold_key is KEY.  */
struct place
{
  struct dst_dir const *dir;
  char const *key;
};

/* jobs_any: whether the task ARG's destination may be the place CTX:
   the same directory, and names that may be one there.  A directory
   not known may be any.  */
static bool
same_place (void const *arg, void const *ctx)
{
  struct task const *t = arg;
  struct place const *p = ctx;
  if (!t->dir.known || !p->dir->known)
    return true;
  return (t->dir.dev == p->dir->dev && t->dir.ino == p->dir->ino
          && fold_clash (t->key, p->key));
}

/* Whether what the main thread is about to do with J, or to J->dst,
   could depend on copies in flight, which must then be waited for: J's
   destination is theirs, by a name that may be the same to a file
   system that ignores case (in the copy's order, the later one is in
   the way of the earlier).  The entries in a tree are found in the
   source, which has none of the files that the copy makes, or the walk
   would not have gone on; and before an operand, nothing is in flight
   (copy).  */
static bool
depends_on_tasks (struct job const *j)
{
  if (!j->ancestors)
    return true;
  struct dst_dir const *dir = &j->ancestors->dst;
  char *key = fold_key (last_component (j->dst_rel), dir->wide);
  struct place p = { .dir = dir, .key = key };
  bool in_flight = jobs_any (same_place, &p);
  free (key);
  return in_flight;
}

/* Before the main thread deals with J, wait for the copies in flight if
   it could depend on them (above).  */
static void
settle_entry (struct job const *j)
{
  if (!jobs_pending ())
    return;
  if (depends_on_tasks (j))
    jobs_drain ();
}

/* jobs_any: whether the task ARG copies into the directory CTX, or
   into one not known, which may be any.  */
static bool
fills_dir (void const *arg, void const *ctx)
{
  struct task const *t = arg;
  struct dst_dir const *d = ctx;
  return !t->dir.known || (t->dir.dev == d->dev && t->dir.ino == d->ino);
}

/* Before the main thread makes the copy of the directory J->src and
   lists J->src, wait for the copies in flight into J->src, if any.  The
   walk may meet a directory that it fills by another way than the
   destination's name, which copy_reads_back cannot foresee: the
   destination, or a directory holding it, mounted inside the source.
   The listing must then find the files whole, and the copy of the
   directory come after them, as one file at a time: the listing goes
   by inode number, on many a file system the order of creation.  The
   ring is short, and only directories ask: cheap.  */
static void
settle_source_dir (struct job const *j)
{
  if (!jobs_pending ())
    return;
  struct dst_dir d = { .known = true, .dev = j->src_st.st_dev,
                       .ino = j->src_st.st_ino };
  if (jobs_any (fills_dir, &d))
    jobs_drain ();
}

/* Whether the copy of J->src, a regular file, may be handed over: its
   destination is new (a backup made room for it: no, for it must be
   put back if the copy fails); its source has one name, for the copy
   of a file with several is linked to (-d, -a), or its source's access
   time, which reading it changes, copied (-p) with the next name's;
   it is in a tree, for the copies in flight are waited for before each
   operand (copy); and it was not reached through a symbolic link (-L),
   which may lead anywhere, even to a copy in flight.  -i's questions
   come one at a time, as does --progress's account of each file.  */
static bool
deferrable (struct job const *j, struct cp_options const *x)
{
  return (x->jobs != 1 && !fds_short && S_ISREG (j->src_st.st_mode)
          && j->new_dst
          && !j->backup && j->src_st.st_nlink == 1 && !may_be_linked (j, x)
          && !x->hard_link && !x->symbolic_link
          && x->interactive != I_ASK_USER && !progress_active ()
          && !j->command_line_arg && !source_followed (j, x));
}

/* A worker's part: copy the file.  */
static bool
run_task (void *arg)
{
  struct task *t = arg;
  return copy_reg (&t->j, t->x);
}

/* Copy the file of the task T, which its worker handed back for want of
   a file descriptor, on the main thread, at its turn in the output;
   and from now on, copy every file there.  */
static bool
copy_handed_back (struct task *t)
{
  fds_short = true;
  t->j.handed_back = false;
  t->j.deferred = false;
  return copy_reg (&t->j, t->x);
}

/* The main thread's part, in the copy's order, once the output of the
   task ARG is written: what copy_job does after a copy.  */
static void
finish_task (void *arg, bool ok)
{
  struct task *t = arg;
  if (t->j.handed_back)
    ok = copy_handed_back (t);
  if (!ok)
    tasks_failed = true;
  room_give_back (t->cost);
  free ((char *) t->j.src);
  free ((char *) t->j.dst);
  free ((char *) t->j.dst_rel);
  free (t->key);
  free (t);
}

/* Hand the copy of J over to a worker, if it may be and there is room
   for it.  */
static bool
defer_copy (struct job *j, struct cp_options const *x)
{
  if (!deferrable (j, x))
    return false;
  size_t n = x->jobs;
  intmax_t cost;
  if (n <= 1 || !start_workers (n) || !room_take (j, dst_dev_of (j), &cost))
    return false;
  struct task *t = xmalloc (sizeof *t);
  *t = (struct task) { .j = *j, .x = x, .cost = cost,
                       .dir = j->ancestors->dst,
                       .key = fold_key (last_component (j->dst_rel),
                                        j->ancestors->dst.wide) };
  t->j.src = xstrdup (j->src);
  t->j.dst = xstrdup (j->dst);
  t->j.dst_rel = xstrdup (j->dst_rel);
  t->j.ancestors = NULL;
  t->j.deferred = true;
  t->j.unmarkable = unmarkable;
  j->deferred = true;
  jobs_submit (run_task, finish_task, t);
  return true;
}

bool
copy_wait (void)
{
  jobs_drain ();
  return !tasks_failed;
}

/* The device of the directory that DST_NAME is in, which is DIRFD if
   that is not AT_FDCWD; 0 if unknown.  */
static dev_t
dst_dir_dev (char const *dst_name, int dirfd)
{
  struct stat st;
  if (dirfd != AT_FDCWD)
    return fstat (dirfd, &st) == 0 ? st.st_dev : 0;
  char *dir = dir_name (dst_name);
  int r = stat (dir, &st);
  free (dir);
  return r == 0 ? st.st_dev : 0;
}

/* Copy J->src, whose kind is known, to the prepared J->dst.  */
static bool
copy_by_kind (struct job *j, struct cp_options const *x,
              bool *copy_into_self)
{
  mode_t mode = j->src_st.st_mode;
  if (S_ISDIR (mode))
    {
      room_for_main (j, dst_dev_of (j), x);
      return copy_dir (j, x, copy_into_self);
    }

  if (x->verbose)
    print_verbose (j);

  if (defer_copy (j, x))
    return true;
  room_for_main (j, dst_dev_of (j), x);

  if (x->symbolic_link)
    return make_symbolic_link (j, x);
  if (x->hard_link)
    return make_hard_link (AT_FDCWD, j->src, j->src, j,
                           /* -i: the user said yes to replacing it.  */
                           (x->unlink_dest_after_failed_open
                            || x->unlink_dest_before_opening
                            || x->interactive == I_ASK_USER),
                           x->dereference == DEREF_ALWAYS
                           || (x->dereference == DEREF_COMMAND_LINE_ARGUMENTS
                               && j->command_line_arg));
  if (S_ISLNK (mode))
    return copy_symlink (j, x);
  if (S_ISREG (mode) || x->copy_as_regular)
    return copy_reg (j, x);
  if (S_ISFIFO (mode) || S_ISCHR (mode) || S_ISBLK (mode) || S_ISSOCK (mode))
    return copy_special (j, x);
  error (0, 0, _("%s has unknown file type"), quoteaf (j->src));
  return false;
}

/* With --preserve=links, make J->dst a link to the copy already made of
   J->src's inode, if any.  Set *DONE when that is what happened.  */
static bool
link_to_earlier_copy (struct job *j, struct cp_options const *x, bool *done)
{
  *done = false;
  if (!may_be_linked (j, x))
    return true;
  struct seen const *earlier = recall_entry (copied_sources, &j->src_st);
  if (!earlier)
    return true;
  *done = true;
  if (x->verbose)
    print_verbose (j);
  return link_to (earlier, j, x);
}

/* Check whether the source directory of J was met before in this
   invocation: it is then a copy made into itself, an operand given
   twice, or (through symlinks, unless they are followed) a directory
   with two names, which cannot be hard-linked.  Set *DONE when there is
   nothing more to do.  */
static bool
check_dir_copied (struct job const *j, struct cp_options const *x,
                  bool *copy_into_self, bool *done)
{
  *done = false;
  /* Operands are remembered; what is inside them is only looked up, as
     it can only have been copied already as a directory created here.  */
  struct seen const *earlier = recall_entry (dir_copies, &j->src_st);
  if (!earlier)
    {
      if (j->command_line_arg)
        remember (dir_copies, &j->src_st, j->dst, j->dst_rel);
      return true;
    }
  if (same_nameat (AT_FDCWD, j->src, dst_dirfd, earlier->rel))
    {
      error (0, 0, _("cannot copy a directory, %s, into itself, %s"),
             quoteaf_n (0, top_level_src_name),
             quoteaf_n (1, top_level_dst_name));
      *copy_into_self = true;
      return false;
    }
  if (same_nameat (dst_dirfd, j->dst_rel, dst_dirfd, earlier->rel))
    {
      error (0, 0, _("warning: source directory %s specified more than once"),
             quoteaf (top_level_src_name));
      *done = true;
      return true;
    }
  if (x->dereference == DEREF_ALWAYS
      || (x->dereference == DEREF_COMMAND_LINE_ARGUMENTS
          && j->command_line_arg))
    return true;
  error (0, 0, _("will not create hard link %s to directory %s"),
         quoteaf_n (0, j->dst), quoteaf_n (1, earlier->name));
  return false;
}

/* Whether ST is one of ANCESTORS.  */
static bool
is_ancestor (struct stat const *st, struct ancestor const *ancestors)
{
  for (struct ancestor const *a = ancestors; a; a = a->parent)
    if (a->dev == st->st_dev && a->ino == st->st_ino)
      return true;
  return false;
}

/* Stat the existing destination of J into J->dst_st, following a
   symlink there when the copy will be written through it, as GNU cp
   does.  Return 0, or an errno value (ENOENT: there is none).  */
static int
stat_dst (struct job *j, struct cp_options const *x)
{
  if (follows_dst_symlink (j, x))
    {
      if (fstatat (dst_dirfd, j->dst_rel, &j->dst_st, 0) == 0)
        return 0;
      /* A symlink that loops cannot be written through either; -f
         replaces it, as GNU cp does.  */
      if (errno != ENOENT
          && !(errno == ELOOP && x->unlink_dest_after_failed_open))
        return errno;
    }
  /* A dangling symlink is itself the destination.  */
  return (fstatat (dst_dirfd, j->dst_rel, &j->dst_st, AT_SYMLINK_NOFOLLOW) == 0
          ? 0 : errno);
}

/* --jobs: a file already at J->dst may be, by a symlink or a mount, a
   source or a copy in flight ("d/g -> ../s/f", or a symlink to a copy
   not made yet): before it is looked at through a symlink, or written,
   wait for every copy in flight, as a copy one file at a time would
   have.  A directory there is only filled, never written.  */
static void
settle_existing_dst (struct job const *j, struct cp_options const *x)
{
  struct stat st;
  if (x->jobs != 1 && jobs_pending ()
      && fstatat (dst_dirfd, j->dst_rel, &st, AT_SYMLINK_NOFOLLOW) == 0
      && !S_ISDIR (st.st_mode))
    jobs_drain ();
}

/* Note the copy of J, just made, in the tables of destinations made,
   when there are (copies into a directory): an operand's in
   X->dest_info, which a later operand may not overwrite, as in GNU cp
   (which overwrites a file made inside a directory's copy, as "cp -r
   a/x b/x t" does t/x/f); and any symlink in made_symlinks, which cpr,
   unlike GNU cp, refuses to write through later (through_new_symlink).
   A copy on a worker is neither.  */
static void
record_made (struct job const *j, struct cp_options const *x)
{
  bool link_made = S_ISLNK (j->src_st.st_mode) || x->symbolic_link;
  struct stat st;
  if (!x->dest_info || j->deferred || !(j->command_line_arg || link_made)
      || fstatat (dst_dirfd, j->dst_rel, &st, AT_SYMLINK_NOFOLLOW) != 0)
    return;
  if (j->command_line_arg)
    record_file (x->dest_info, j->dst, &st);
  if (S_ISLNK (st.st_mode))
    {
      if (!made_symlinks)
        made_symlinks = file_set (true);
      record_file (made_symlinks, j->dst, &st);
    }
}

/* Copy J->src to J->dst, as copy_internal.  */
static bool
copy_job (struct job *j, struct cp_options const *x, bool *copy_into_self)
{
  *copy_into_self = false;
  /* Not a file more after a worker ran out of memory.  */
  jobs_check ();

  if (!stat_source (j, x))
    return false;
  settle_entry (j);
  bool src_dir = S_ISDIR (j->src_st.st_mode);

  if (src_dir && !x->recursive)
    {
      error (0, 0, _("-r not specified; omitting directory %s"),
             quoteaf (j->src));
      return false;
    }

  if (j->command_line_arg && x->src_info && !src_dir
      && x->backup_type == no_backups
      && seen_file (x->src_info, j->src, &j->src_st))
    {
      error (0, 0, _("warning: source file %s specified more than once"),
             quoteaf (j->src));
      return true;
    }
  if (j->command_line_arg && x->src_info)
    record_file (x->src_info, j->src, &j->src_st);

  if (!j->new_dst)
    {
      settle_existing_dst (j, x);
      int err = stat_dst (j, x);
      if (err == 0)
        {
          bool skip;
          if (!prepare_existing_dst (j, x, &skip))
            return false;
          if (skip)
            return true;
        }
      else if (err == ENOENT)
        j->new_dst = true;
      else
        {
          error (0, err, _("cannot stat %s"), quoteaf (j->dst));
          return false;
        }
    }

  if (src_dir && is_ancestor (&j->src_st, j->ancestors))
    {
      error (0, 0, _("cannot copy cyclic symbolic link %s"), quoteaf (j->src));
      return false;
    }

  if (src_dir)
    {
      bool done;
      bool ok = check_dir_copied (j, x, copy_into_self, &done);
      if (!ok || done)
        {
          undo_backup (j, x);
          return ok;
        }
    }

  bool linked;
  bool ok = link_to_earlier_copy (j, x, &linked);
  if (!linked)
    ok = copy_by_kind (j, x, copy_into_self);

  if (!ok)
    undo_backup (j, x);
  else
    {
      if (!linked && may_be_linked (j, x))
        remember (copied_sources, &j->src_st, j->dst, j->dst_rel);
      record_made (j, x);
    }
  free_backup (j);
  return ok;
}

/* The bytes of data that copying a file of status ST is expected to
   move, for --progress: its size if it is a regular file whose data is
   copied, else none.  */
static off_t
data_bytes (struct stat const *st, struct cp_options const *x)
{
  return (S_ISREG (st->st_mode) && !x->data_copy_skipped && !x->hard_link
          && !x->symbolic_link ? st->st_size : 0);
}

/* Tell --progress what the walk found: a file, or a directory that it
   will list (with -R).  ST is FILE's status, or NULL if it failed.  */
static void
count_found (struct stat const *st, struct cp_options const *x)
{
  if (!st)
    return;
  if (!S_ISDIR (st->st_mode))
    progress_found_file (data_bytes (st, x));
  else if (x->recursive)
    progress_found_dir ();
}

void
count_source (char const *src, struct cp_options const *x)
{
  if (!progress_active ())
    return;
  struct stat st;
  bool follow = x->dereference != DEREF_NEVER;
  count_found ((follow ? stat (src, &st) : lstat (src, &st)) == 0 ? &st : NULL,
               x);
}

/* Tell --progress that the job J is over: a file is done, and a
   directory that was never listed will not be.  */
static void
count_done (struct job const *j, struct cp_options const *x)
{
  mode_t m = j->src_st.st_mode;
  if (m == 0)
    return;
  if (!S_ISDIR (m))
    progress_file_done (data_bytes (&j->src_st, x));
  else if (!j->listed)
    progress_dir_listed ();
}

static bool
copy_internal (char const *src, char const *dst, char const *dst_rel,
               bool new_dst, dev_t parent_dev,
               struct ancestor const *ancestors, bool command_line_arg,
               struct cp_options const *x, bool *copy_into_self)
{
  struct job j = { .src = src, .dst = dst, .dst_rel = dst_rel,
                   .new_dst = new_dst,
                   .command_line_arg = command_line_arg,
                   .parent_dev = parent_dev, .ancestors = ancestors };
  bool ok = copy_job (&j, x, copy_into_self);
  count_done (&j, x);
  return ok;
}

/* A directory's identity.  */
struct dir_id
{
  dev_t dev;
  ino_t ino;
};

/* The real name of the directory NAME, or where it does not exist yet,
   of the directory that will hold it; NULL if neither resolves.  */
static char *
real_dir (char const *name)
{
  char *r = realpath (name, NULL);
  if (!r && errno == ENOENT)
    {
      char *parent = dir_name (name);
      r = realpath (parent, NULL);
      free (parent);
    }
  return r;
}

/* The directories from the one named NAME up to the root, as ".." leads
   (not as the name reads: through symlinks, the real ones), into
   *CHAIN; return how many, 0 if NAME is not a directory we can open.  */
static size_t
ancestry (char const *name, struct dir_id **chain)
{
  *chain = NULL;
  size_t n = 0;
  int fd = open (name, O_PATH | O_DIRECTORY | O_CLOEXEC);
  for (struct stat st; 0 <= fd && fstat (fd, &st) == 0; )
    {
      /* The root is its own parent.  */
      if (n && (*chain)[n - 1].dev == st.st_dev
          && (*chain)[n - 1].ino == st.st_ino)
        break;
      *chain = xreallocarray (*chain, n + 1, sizeof **chain);
      (*chain)[n++] = (struct dir_id) { .dev = st.st_dev, .ino = st.st_ino };
      int parent = openat (fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
      close (fd);
      fd = parent;
    }
  if (0 <= fd)
    close (fd);
  return n;
}

/* Whether the first of A's N_A directories is among B's N_B.  */
static bool
chain_has (struct dir_id const *a, size_t n_a, struct dir_id const *b,
           size_t n_b)
{
  for (size_t i = 0; n_a && i < n_b; i++)
    if (a[0].dev == b[i].dev && a[0].ino == b[i].ino)
      return true;
  return false;
}

bool
copy_reads_back (char const *src_name, char const *dst_name,
                 struct mount_table const *mounts,
                 struct cp_options const *x)
{
  struct stat st;
  bool follow = x->dereference != DEREF_NEVER;
  if ((follow ? stat (src_name, &st) : lstat (src_name, &st)) != 0)
    /* An operand, or a symlink's target, not there yet may be there,
       once an earlier operand is copied, as a directory of its copy
       ("cpr -r l t/l/. t", where l is a symlink to sub, copies t/sub):
       take it that it is.  Alone, it fails at once.  */
    return true;
  if (!S_ISDIR (st.st_mode))
    return false;
  struct dir_id *src, *dst;
  size_t n_src = ancestry (src_name, &src);
  size_t n_dst = ancestry (dst_name, &dst);
  /* On one mount, ".." leads from both up to its top, and their chains
     say all; mounts_may_alias says where they may not.  A copy it
     makes one file at a time only takes longer.  */
  bool r = (chain_has (src, n_src, dst, n_dst)
            || chain_has (dst, n_dst, src, n_src));
  free (src);
  free (dst);
  if (!r)
    {
      char *src_real = real_dir (src_name);
      char *dst_real = real_dir (dst_name);
      r = (!src_real || !dst_real
           || mounts_may_alias (mounts, src_real, dst_real));
      free (src_real);
      free (dst_real);
    }
  return r;
}

bool
copy (char const *src_name, char const *dst_name, int dst_dir_fd,
      char const *dst_relname, bool nonexistent_dst,
      struct cp_options const *x, bool *copy_into_self)
{
  /* Each operand waits for the copies of those before it: its source,
     or its destination, may be one of theirs by another name, which no
     comparison of names finds.  "cpr -r P/. other/f T" copies P/f as
     "T/./f", which other/f then replaces as "T/f"; with a file system
     mounted on T/srcdir, "cpr -r srcdir T/srcdir/f T" names a copy of
     the first operand as the second, on another file system than T.  */
  jobs_drain ();
  top_level_src_name = src_name;
  top_level_dst_name = dst_name;
  set_dst_dirfd (dst_dir_fd);
  if (x->jobs != 1)
    top_dst_dev = dst_dir_dev (dst_name, dst_dir_fd);
  return copy_internal (src_name, dst_name, dst_relname, nonexistent_dst, 0,
                        NULL, true, x, copy_into_self);
}
