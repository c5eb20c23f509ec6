/* cr-fuse -- a FUSE filesystem in memory that counts what the kernel asks

   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

/* A test helper: a filesystem whose offload is only ->copy_file_range,
   as FUSE's is, so that a test can see whether copy_range(2) asked the
   server to copy (FUSE_COPY_FILE_RANGE) or moved the bytes itself
   through the page cache (FUSE_READ and FUSE_WRITE).

   Usage: cr-fuse [-n] [-m MAX] [-s STATS] [-d DUMP] MOUNTPOINT

   Mounts itself on MOUNTPOINT (as root, with mount(2) on /dev/fuse: no
   libfuse, no fusermount) and serves a tree of directories and regular
   files kept in memory, which the users of the mount create: at most
   63 of them, each file's bytes held whole (a sparse file takes its
   size in memory).  When the kernel has its answer to FUSE_INIT, the
   program goes to the background, prints the serving process's ID and
   exits 0.

   -n        answer FUSE_COPY_FILE_RANGE with ENOSYS, as a server without
             it does: the kernel then copies through the page cache
   -m MAX    copy at most MAX bytes per FUSE_COPY_FILE_RANGE (a short copy)
   -s STATS  write to STATS (through a rename, so that it appears whole)
             the count of each request, one "NAME COUNT" a line, plus
             "WRITE_BYTES" and "COPY_FILE_RANGE_BYTES", on SIGUSR1 and
             when the filesystem is unmounted
   -d DUMP   when the filesystem is unmounted, write the bytes of each
             file of the top directory, as it holds them, to DUMP/NAME;
             the files of subdirectories are not written

   It answers INIT, LOOKUP, GETATTR, SETATTR (size, mode and mtime),
   MKDIR, UNLINK, RMDIR, OPEN, CREATE, READ, WRITE, FLUSH, RELEASE,
   OPENDIR, READDIR, RELEASEDIR, STATFS, COPY_FILE_RANGE and DESTROY,
   takes FORGET and BATCH_FORGET (which have no answer), and answers
   ENOSYS to everything else (RENAME, LINK, SYMLINK, MKNOD, READDIRPLUS,
   which the kernel does not send since INIT does not offer it, ...).
   It exits when the kernel ends the connection (the unmount), or on
   SIGTERM.  Protocol 7.31.  */

#define _GNU_SOURCE 1

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fuse.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

static char const *program_name = "cr-fuse";

/* The protocol version this server speaks: it has COPY_FILE_RANGE
   (7.28) and the full-size structures of every request it handles.  */
enum { PROTO_MAJOR = 7, PROTO_MINOR = 31 };

/* The largest WRITE the kernel may send, and the buffer that holds any
   request: the kernel wants room for a whole one.  */
enum { MAX_WRITE = 128 * 1024, REQ_BUF = MAX_WRITE + 64 * 1024 };

enum { ROOT_ID = FUSE_ROOT_ID, MAX_NODES = 64, NAME_MAX_LEN = 255 };

/* Options.  */
static bool no_copy;
static uint64_t copy_max;
static char const *stats_path;
static char const *dump_dir;

/* A directory or a regular file.  Its node ID is its index plus 1, so
   that nodes[0] is the root, and its file handles are its node ID.  The
   root is its own parent.  An unlinked file or a removed directory has
   parent 0, and its slot is free again when the kernel has forgotten it
   as well (NLOOKUP 0): until then an open file can still be read and
   written.  */
struct node
{
  bool used, dir;
  uint64_t parent;
  char name[NAME_MAX_LEN + 1];
  unsigned char *data;		/* a file's bytes */
  uint64_t size, alloc;
  uint32_t mode;		/* the permission bits */
  uint64_t nlookup;
  struct timespec mtime, ctime;
};
static struct node nodes[MAX_NODES];

/* Requests by opcode; opcodes past the end count under the last.  */
enum { OPCODES = 64 };
static uint64_t counts[OPCODES];
static uint64_t write_bytes, copy_bytes;

static volatile sig_atomic_t want_stats, want_exit;

static void
die (char const *fmt, ...)
{
  int e = errno;
  va_list ap;
  fprintf (stderr, "%s: ", program_name);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  if (e)
    fprintf (stderr, ": %s", strerror (e));
  fputc ('\n', stderr);
  exit (1);
}

static char const *
opcode_name (uint32_t op)
{
  switch (op)
    {
    case FUSE_LOOKUP: return "LOOKUP";
    case FUSE_FORGET: return "FORGET";
    case FUSE_GETATTR: return "GETATTR";
    case FUSE_SETATTR: return "SETATTR";
    case FUSE_MKNOD: return "MKNOD";
    case FUSE_MKDIR: return "MKDIR";
    case FUSE_UNLINK: return "UNLINK";
    case FUSE_RMDIR: return "RMDIR";
    case FUSE_RENAME: return "RENAME";
    case FUSE_OPEN: return "OPEN";
    case FUSE_READ: return "READ";
    case FUSE_WRITE: return "WRITE";
    case FUSE_STATFS: return "STATFS";
    case FUSE_RELEASE: return "RELEASE";
    case FUSE_FSYNC: return "FSYNC";
    case FUSE_GETXATTR: return "GETXATTR";
    case FUSE_FLUSH: return "FLUSH";
    case FUSE_INIT: return "INIT";
    case FUSE_OPENDIR: return "OPENDIR";
    case FUSE_READDIR: return "READDIR";
    case FUSE_RELEASEDIR: return "RELEASEDIR";
    case FUSE_FSYNCDIR: return "FSYNCDIR";
    case FUSE_ACCESS: return "ACCESS";
    case FUSE_CREATE: return "CREATE";
    case FUSE_INTERRUPT: return "INTERRUPT";
    case FUSE_DESTROY: return "DESTROY";
    case FUSE_BATCH_FORGET: return "BATCH_FORGET";
    case FUSE_FALLOCATE: return "FALLOCATE";
    case FUSE_READDIRPLUS: return "READDIRPLUS";
    case FUSE_LSEEK: return "LSEEK";
    case FUSE_COPY_FILE_RANGE: return "COPY_FILE_RANGE";
    default: return NULL;
    }
}

/* Write the counts to STATS_PATH, whole or not at all.  */
static void
write_stats (void)
{
  if (!stats_path)
    return;
  char tmp[4096];
  if (snprintf (tmp, sizeof tmp, "%s.tmp", stats_path) >= (int) sizeof tmp)
    die ("%s: name too long", stats_path);
  FILE *f = fopen (tmp, "w");
  if (!f)
    die ("%s", tmp);
  for (uint32_t op = 0; op < OPCODES; op++)
    if (counts[op])
      {
        char const *name = opcode_name (op);
        if (name)
          fprintf (f, "%s %" PRIu64 "\n", name, counts[op]);
        else
          fprintf (f, "OP%" PRIu32 " %" PRIu64 "\n", op, counts[op]);
      }
  fprintf (f, "WRITE_BYTES %" PRIu64 "\n", write_bytes);
  fprintf (f, "COPY_FILE_RANGE_BYTES %" PRIu64 "\n", copy_bytes);
  if (fclose (f) != 0)
    die ("%s", tmp);
  if (rename (tmp, stats_path) != 0)
    die ("rename %s", tmp);
}

/* Write the bytes of each file of the root to DUMP_DIR.  */
static void
write_dump (void)
{
  if (!dump_dir)
    return;
  for (int i = 1; i < MAX_NODES; i++)
    {
      struct node const *n = &nodes[i];
      if (!n->used || n->dir || n->parent != ROOT_ID)
        continue;
      char path[4096];
      if (snprintf (path, sizeof path, "%s/%s", dump_dir, n->name)
          >= (int) sizeof path)
        die ("%s/%s: name too long", dump_dir, n->name);
      int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd < 0)
        die ("%s", path);
      for (uint64_t done = 0; done < n->size; )
        {
          ssize_t w = write (fd, n->data + done, n->size - done);
          if (w <= 0)
            die ("write %s", path);
          done += w;
        }
      if (close (fd) != 0)
        die ("close %s", path);
    }
}

static uint64_t
id_of (struct node const *n)
{
  return n - nodes + 1;
}

static struct node *
node_of (uint64_t nodeid)
{
  if (nodeid < 1 || nodeid > MAX_NODES || !nodes[nodeid - 1].used)
    return NULL;
  return &nodes[nodeid - 1];
}

/* The regular file NODEID, or NULL.  */
static struct node *
file_of (uint64_t nodeid)
{
  struct node *n = node_of (nodeid);
  return n && !n->dir ? n : NULL;
}

/* The index of the entry NAME of directory PARENT, or -1.  */
static int
find_name (uint64_t parent, char const *name)
{
  for (int i = 1; i < MAX_NODES; i++)
    if (nodes[i].used && nodes[i].parent == parent
        && strcmp (nodes[i].name, name) == 0)
      return i;
  return -1;
}

/* How many entries directory PARENT has, and how many of them are
   directories.  */
static int
entries (uint64_t parent, int *dirs)
{
  int n = 0;
  *dirs = 0;
  for (int i = 1; i < MAX_NODES; i++)
    if (nodes[i].used && nodes[i].parent == parent)
      {
        n++;
        *dirs += nodes[i].dir;
      }
  return n;
}

/* Make room for SIZE bytes in F, zero from its old end on; false if
   memory runs out.  The room doubles, so that a file written from start
   to end is copied a few times, not once a write.  */
static bool
file_resize (struct node *f, uint64_t size)
{
  if (size > f->alloc)
    {
      uint64_t alloc = f->alloc ? f->alloc : 65536;
      while (alloc < size)
        alloc *= 2;
      if (alloc != (size_t) alloc)
        return false;
      unsigned char *data = realloc (f->data, alloc);
      if (!data)
        return false;
      f->data = data;
      f->alloc = alloc;
    }
  if (size > f->size)
    memset (f->data + f->size, 0, size - f->size);
  f->size = size;
  return true;
}

static void
touch (struct node *n)
{
  clock_gettime (CLOCK_REALTIME, &n->mtime);
  n->ctime = n->mtime;
}

/* A new entry NAME of directory D, or NULL if every slot is taken.  */
static struct node *
new_node (struct node *d, char const *name, bool dir, uint32_t mode)
{
  for (int i = 1; i < MAX_NODES; i++)
    if (!nodes[i].used)
      {
        struct node *n = &nodes[i];
        memset (n, 0, sizeof *n);
        n->used = true;
        n->dir = dir;
        n->parent = id_of (d);
        strcpy (n->name, name);
        n->mode = mode & 07777;
        touch (n);
        touch (d);
        return n;
      }
  return NULL;
}

/* Free N if it is in no directory and the kernel holds no reference to
   it.  */
static void
free_if_gone (struct node *n)
{
  if (!n->parent && !n->nlookup)
    {
      free (n->data);
      memset (n, 0, sizeof *n);
    }
}

/* Take N out of its directory.  */
static void
unlink_node (struct node *n)
{
  touch (&nodes[n->parent - 1]);
  n->parent = 0;
  clock_gettime (CLOCK_REALTIME, &n->ctime);
  free_if_gone (n);
}

static void
fill_attr (struct node const *n, struct fuse_attr *a)
{
  memset (a, 0, sizeof *a);
  a->ino = id_of (n);
  a->blksize = 4096;
  a->mode = (n->dir ? S_IFDIR : S_IFREG) | n->mode;
  if (!n->parent)
    a->nlink = 0;
  else if (n->dir)
    {
      /* Its entry in its parent, its ".", and each subdirectory's "..".  */
      int dirs;
      entries (id_of (n), &dirs);
      a->nlink = 2 + dirs;
    }
  else
    a->nlink = 1;
  a->size = n->size;
  a->blocks = (n->size + 511) / 512;
  a->atime = a->mtime = n->mtime.tv_sec;
  a->atimensec = a->mtimensec = n->mtime.tv_nsec;
  a->ctime = n->ctime.tv_sec;
  a->ctimensec = n->ctime.tv_nsec;
}

/* The entry of N, valid for no time: the test changes files behind
   nobody's back, but the kernel then asks again and sees no cache.  */
static void
fill_entry (struct node const *n, struct fuse_entry_out *e)
{
  memset (e, 0, sizeof *e);
  e->nodeid = id_of (n);
  fill_attr (n, &e->attr);
}

static int fuse_fd = -1;

/* Answer request UNIQUE with ERROR (a negative errno, or 0) and the
   LEN bytes at BODY.  */
static void
reply (uint64_t unique, int error, void const *body, size_t len)
{
  struct fuse_out_header h = { .len = sizeof h + (error ? 0 : len),
                               .error = error, .unique = unique };
  struct iovec iov[2] = { { &h, sizeof h }, { (void *) body, len } };
  ssize_t n = writev (fuse_fd, iov, error || !len ? 1 : 2);
  /* ENOENT: the request was interrupted and is gone.  */
  if (n < 0 && errno != ENOENT)
    die ("answering request %" PRIu64, unique);
}

static void
reply_error (uint64_t unique, int errnum)
{
  reply (unique, -errnum, NULL, 0);
}

/* The request's argument, if it holds at least SIZE bytes.  */
#define ARG(type, in, len) \
  ((len) >= sizeof (type) ? (type const *) (in) : NULL)

/* For a request about the entry of directory NODEID whose name follows
   an argument of ARGLEN bytes: the directory, and the name in *NAME; or
   NULL, having answered with an error, if either is wrong.  */
static struct node *
entry_dir (struct fuse_in_header const *h, char const *in, size_t len,
           size_t arglen, char const **name)
{
  struct node *d = node_of (h->nodeid);
  int err = 0;
  if (len <= arglen || in[len - 1])
    err = EINVAL;
  else if (!d || !d->parent)
    err = ENOENT;
  else if (!d->dir)
    err = ENOTDIR;
  else if (strlen (in + arglen) > NAME_MAX_LEN)
    err = ENAMETOOLONG;
  if (err)
    {
      reply_error (h->unique, err);
      return NULL;
    }
  *name = in + arglen;
  return d;
}

static void
do_init (struct fuse_in_header const *h, void const *in, size_t len)
{
  /* Older kernels send a shorter INIT: major, minor, max_readahead and
     flags are all it needs.  */
  struct fuse_init_in ia;
  if (len < offsetof (struct fuse_init_in, flags2))
    {
      reply_error (h->unique, EINVAL);
      return;
    }
  memset (&ia, 0, sizeof ia);
  memcpy (&ia, in, len < sizeof ia ? len : sizeof ia);
  struct fuse_init_out out;
  memset (&out, 0, sizeof out);
  out.major = PROTO_MAJOR;
  if (ia.major != PROTO_MAJOR)
    {
      /* The kernel asks again with our major number.  */
      reply (h->unique, 0, &out, sizeof out);
      return;
    }
  out.minor = ia.minor < PROTO_MINOR ? ia.minor : PROTO_MINOR;
  out.max_readahead = ia.max_readahead;
  /* Not FUSE_DO_READDIRPLUS: directories are listed with READDIR.  */
  out.flags = ia.flags & FUSE_BIG_WRITES;
  out.max_background = 16;
  out.congestion_threshold = 12;
  out.max_write = MAX_WRITE;
  out.time_gran = 1;
  reply (h->unique, 0, &out, sizeof out);
}

static void
do_lookup (struct fuse_in_header const *h, char const *in, size_t len)
{
  char const *name;
  struct node *d = entry_dir (h, in, len, 0, &name);
  if (!d)
    return;
  int i = find_name (id_of (d), name);
  if (i < 0)
    {
      reply_error (h->unique, ENOENT);
      return;
    }
  nodes[i].nlookup++;
  struct fuse_entry_out e;
  fill_entry (&nodes[i], &e);
  reply (h->unique, 0, &e, sizeof e);
}

static void
do_forget (uint64_t nodeid, uint64_t nlookup)
{
  struct node *n = node_of (nodeid);
  if (n && nodeid != ROOT_ID)
    {
      n->nlookup = n->nlookup > nlookup ? n->nlookup - nlookup : 0;
      free_if_gone (n);
    }
}

static void
do_getattr (struct fuse_in_header const *h)
{
  struct node *n = node_of (h->nodeid);
  if (!n)
    {
      reply_error (h->unique, ENOENT);
      return;
    }
  struct fuse_attr_out out;
  memset (&out, 0, sizeof out);
  fill_attr (n, &out.attr);
  reply (h->unique, 0, &out, sizeof out);
}

static void
do_setattr (struct fuse_in_header const *h, void const *in, size_t len)
{
  struct fuse_setattr_in const *arg = ARG (struct fuse_setattr_in, in, len);
  struct node *n = node_of (h->nodeid);
  if (!arg || !n)
    {
      reply_error (h->unique, arg ? ENOENT : EINVAL);
      return;
    }
  if (arg->valid & FATTR_SIZE)
    {
      if (n->dir || !file_resize (n, arg->size))
        {
          reply_error (h->unique, n->dir ? EISDIR : EFBIG);
          return;
        }
      touch (n);
    }
  if (arg->valid & FATTR_MODE)
    {
      n->mode = arg->mode & 07777;
      clock_gettime (CLOCK_REALTIME, &n->ctime);
    }
  if (arg->valid & FATTR_MTIME)
    {
      if (arg->valid & FATTR_MTIME_NOW)
        clock_gettime (CLOCK_REALTIME, &n->mtime);
      else
        {
          n->mtime.tv_sec = arg->mtime;
          n->mtime.tv_nsec = arg->mtimensec;
        }
    }
  struct fuse_attr_out out;
  memset (&out, 0, sizeof out);
  fill_attr (n, &out.attr);
  reply (h->unique, 0, &out, sizeof out);
}

/* OPEN and OPENDIR: the handle is the node ID.  */
static void
do_open (struct fuse_in_header const *h, bool dir)
{
  struct node *n = node_of (h->nodeid);
  if (!n || n->dir != dir)
    {
      reply_error (h->unique, !n ? ENOENT : dir ? ENOTDIR : EISDIR);
      return;
    }
  struct fuse_open_out out;
  memset (&out, 0, sizeof out);
  out.fh = h->nodeid;
  reply (h->unique, 0, &out, sizeof out);
}

static void
do_create (struct fuse_in_header const *h, char const *in, size_t len)
{
  struct fuse_create_in const *arg = ARG (struct fuse_create_in, in, len);
  char const *name;
  struct node *d = entry_dir (h, in, len, sizeof *arg, &name);
  if (!d)
    return;
  if (!S_ISREG (arg->mode))
    {
      reply_error (h->unique, EPERM);
      return;
    }
  int i = find_name (id_of (d), name);
  if (i >= 0 && (nodes[i].dir || (arg->flags & O_EXCL)))
    {
      reply_error (h->unique, nodes[i].dir ? EISDIR : EEXIST);
      return;
    }
  struct node *f = i >= 0 ? &nodes[i]
                   : new_node (d, name, false, arg->mode & ~arg->umask);
  if (!f)
    {
      reply_error (h->unique, ENOSPC);
      return;
    }
  f->nlookup++;
  struct
  {
    struct fuse_entry_out e;
    struct fuse_open_out o;
  } out;
  memset (&out, 0, sizeof out);
  fill_entry (f, &out.e);
  out.o.fh = id_of (f);
  reply (h->unique, 0, &out, sizeof out);
}

static void
do_mkdir (struct fuse_in_header const *h, char const *in, size_t len)
{
  struct fuse_mkdir_in const *arg = ARG (struct fuse_mkdir_in, in, len);
  char const *name;
  struct node *d = entry_dir (h, in, len, sizeof *arg, &name);
  if (!d)
    return;
  if (find_name (id_of (d), name) >= 0)
    {
      reply_error (h->unique, EEXIST);
      return;
    }
  struct node *n = new_node (d, name, true, arg->mode & ~arg->umask);
  if (!n)
    {
      reply_error (h->unique, ENOSPC);
      return;
    }
  n->nlookup++;
  struct fuse_entry_out e;
  fill_entry (n, &e);
  reply (h->unique, 0, &e, sizeof e);
}

/* UNLINK, and RMDIR if DIR.  */
static void
do_remove (struct fuse_in_header const *h, char const *in, size_t len,
           bool dir)
{
  char const *name;
  struct node *d = entry_dir (h, in, len, 0, &name);
  if (!d)
    return;
  int i = find_name (id_of (d), name);
  int err = 0, dirs;
  if (i < 0)
    err = ENOENT;
  else if (nodes[i].dir != dir)
    err = dir ? ENOTDIR : EISDIR;
  else if (dir && entries (id_of (&nodes[i]), &dirs))
    err = ENOTEMPTY;
  if (err)
    {
      reply_error (h->unique, err);
      return;
    }
  unlink_node (&nodes[i]);
  reply (h->unique, 0, NULL, 0);
}

/* READDIR: ".", "..", then the entries in slot order.  The offset of
   each entry is where the next one is looked for: 1 after ".", 2 after
   "..", and I + 2 after nodes[I], so that the offsets stay right while
   entries come and go.  */
static void
do_readdir (struct fuse_in_header const *h, void const *in, size_t len)
{
  struct fuse_read_in const *arg = ARG (struct fuse_read_in, in, len);
  struct node *d = arg ? node_of (arg->fh) : NULL;
  if (!d || !d->dir)
    {
      reply_error (h->unique, arg ? EBADF : EINVAL);
      return;
    }
  static uint64_t buf[4096];
  unsigned char *out = (unsigned char *) buf;
  size_t size = arg->size < sizeof buf ? arg->size : sizeof buf, used = 0;
  for (uint64_t pos = arg->offset; pos <= MAX_NODES; pos++)
    {
      struct node const *n;
      char const *name;
      if (pos == 0)
        {
          n = d;
          name = ".";
        }
      else if (pos == 1)
        {
          n = d->parent ? &nodes[d->parent - 1] : d;
          name = "..";
        }
      else
        {
          n = &nodes[pos - 1];
          name = n->name;
          if (!n->used || n->parent != id_of (d))
            continue;
        }
      size_t namelen = strlen (name);
      size_t reclen = FUSE_DIRENT_ALIGN (FUSE_NAME_OFFSET + namelen);
      if (used + reclen > size)
        break;
      struct fuse_dirent *de = (struct fuse_dirent *) (out + used);
      memset (de, 0, reclen);
      de->ino = id_of (n);
      de->off = pos + 1;
      de->namelen = namelen;
      de->type = n->dir ? DT_DIR : DT_REG;
      memcpy (de->name, name, namelen);
      used += reclen;
    }
  reply (h->unique, 0, out, used);
}

static void
do_read (struct fuse_in_header const *h, void const *in, size_t len)
{
  struct fuse_read_in const *arg = ARG (struct fuse_read_in, in, len);
  struct node *f = arg ? file_of (arg->fh) : NULL;
  if (!f)
    {
      reply_error (h->unique, arg ? EBADF : EINVAL);
      return;
    }
  uint64_t n = 0;
  if (arg->offset < f->size)
    n = f->size - arg->offset < arg->size ? f->size - arg->offset : arg->size;
  reply (h->unique, 0, f->data + (n ? arg->offset : 0), n);
}

static void
do_write (struct fuse_in_header const *h, unsigned char const *in,
          size_t len)
{
  struct fuse_write_in const *arg = ARG (struct fuse_write_in, in, len);
  struct node *f = arg ? file_of (arg->fh) : NULL;
  if (!f || len - sizeof *arg < arg->size)
    {
      reply_error (h->unique, !arg || f ? EINVAL : EBADF);
      return;
    }
  uint64_t end = arg->offset + arg->size;
  if (end < arg->offset || (end > f->size && !file_resize (f, end)))
    {
      reply_error (h->unique, EFBIG);
      return;
    }
  memcpy (f->data + arg->offset, in + sizeof *arg, arg->size);
  touch (f);
  write_bytes += arg->size;
  struct fuse_write_out out = { .size = arg->size };
  reply (h->unique, 0, &out, sizeof out);
}

static void
do_statfs (struct fuse_in_header const *h)
{
  struct fuse_statfs_out out;
  memset (&out, 0, sizeof out);
  out.st.bsize = out.st.frsize = 4096;
  out.st.blocks = 1 << 20;
  uint64_t used = 0, free_nodes = 0;
  for (int i = 0; i < MAX_NODES; i++)
    {
      used += (nodes[i].size + 4095) / 4096;
      free_nodes += !nodes[i].used;
    }
  out.st.bfree = out.st.bavail = out.st.blocks - used;
  out.st.files = MAX_NODES;
  out.st.ffree = free_nodes;
  out.st.namelen = NAME_MAX_LEN;
  reply (h->unique, 0, &out, sizeof out);
}

/* The server side of copy_file_range: copy within memory.  */
static void
do_copy_file_range (struct fuse_in_header const *h, void const *in,
                    size_t len)
{
  struct fuse_copy_file_range_in const *arg
    = ARG (struct fuse_copy_file_range_in, in, len);
  if (no_copy)
    {
      reply_error (h->unique, ENOSYS);
      return;
    }
  struct node *src = arg ? file_of (arg->fh_in) : NULL;
  struct node *dst = arg ? file_of (arg->fh_out) : NULL;
  if (!src || !dst || arg->fh_in != h->nodeid
      || arg->fh_out != arg->nodeid_out)
    {
      reply_error (h->unique, arg ? EBADF : EINVAL);
      return;
    }
  if (arg->flags)
    {
      reply_error (h->unique, EINVAL);
      return;
    }
  uint64_t n = 0;
  if (arg->off_in < src->size)
    n = src->size - arg->off_in;
  if (n > arg->len)
    n = arg->len;
  if (copy_max && n > copy_max)
    n = copy_max;
  /* The answer's count has 32 bits.  */
  if (n > UINT32_MAX)
    n = UINT32_MAX;
  uint64_t end = arg->off_out + n;
  if (end < arg->off_out || (end > dst->size && !file_resize (dst, end)))
    {
      reply_error (h->unique, EFBIG);
      return;
    }
  if (n)
    {
      memmove (dst->data + arg->off_out, src->data + arg->off_in, n);
      touch (dst);
    }
  copy_bytes += n;
  struct fuse_write_out out = { .size = n };
  reply (h->unique, 0, &out, sizeof out);
}

/* Handle one request of LEN bytes at BUF.  */
static void
serve (unsigned char const *buf, size_t len)
{
  struct fuse_in_header const *h = (struct fuse_in_header const *) buf;
  if (len < sizeof *h || h->len != len)
    die ("a request of %zu bytes that says %" PRIu32, len,
         len < sizeof *h ? 0 : h->len);
  unsigned char const *in = buf + sizeof *h;
  size_t inlen = len - sizeof *h;
  counts[h->opcode < OPCODES ? h->opcode : OPCODES - 1]++;

  switch (h->opcode)
    {
    case FUSE_INIT:
      do_init (h, in, inlen);
      break;
    case FUSE_LOOKUP:
      do_lookup (h, (char const *) in, inlen);
      break;
    case FUSE_FORGET:
      {
        struct fuse_forget_in const *arg
          = ARG (struct fuse_forget_in, in, inlen);
        if (arg)
          do_forget (h->nodeid, arg->nlookup);
      }
      break;
    case FUSE_BATCH_FORGET:
      {
        struct fuse_batch_forget_in const *arg
          = ARG (struct fuse_batch_forget_in, in, inlen);
        struct fuse_forget_one const *one
          = (struct fuse_forget_one const *) (in + sizeof *arg);
        if (arg && (inlen - sizeof *arg) / sizeof *one >= arg->count)
          for (uint32_t i = 0; i < arg->count; i++)
            do_forget (one[i].nodeid, one[i].nlookup);
      }
      break;
    case FUSE_GETATTR:
      do_getattr (h);
      break;
    case FUSE_SETATTR:
      do_setattr (h, in, inlen);
      break;
    case FUSE_MKDIR:
      do_mkdir (h, (char const *) in, inlen);
      break;
    case FUSE_UNLINK:
      do_remove (h, (char const *) in, inlen, false);
      break;
    case FUSE_RMDIR:
      do_remove (h, (char const *) in, inlen, true);
      break;
    case FUSE_OPEN:
      do_open (h, false);
      break;
    case FUSE_OPENDIR:
      do_open (h, true);
      break;
    case FUSE_CREATE:
      do_create (h, (char const *) in, inlen);
      break;
    case FUSE_READDIR:
      do_readdir (h, in, inlen);
      break;
    case FUSE_READ:
      do_read (h, in, inlen);
      break;
    case FUSE_WRITE:
      do_write (h, in, inlen);
      break;
    case FUSE_FLUSH:
    case FUSE_RELEASE:
    case FUSE_RELEASEDIR:
    case FUSE_DESTROY:
      reply (h->unique, 0, NULL, 0);
      break;
    case FUSE_STATFS:
      do_statfs (h);
      break;
    case FUSE_COPY_FILE_RANGE:
      do_copy_file_range (h, in, inlen);
      break;
    default:
      reply_error (h->unique, ENOSYS);
      break;
    }
}

static void
on_signal (int sig)
{
  if (sig == SIGUSR1)
    want_stats = 1;
  else
    want_exit = 1;
}

static void
usage (void)
{
  fprintf (stderr, "usage: %s [-n] [-m MAX] [-s STATS] [-d DUMP]"
           " MOUNTPOINT\n", program_name);
  exit (2);
}

int
main (int argc, char **argv)
{
  int c;
  while ((c = getopt (argc, argv, "nm:s:d:")) != -1)
    switch (c)
      {
      case 'n':
        no_copy = true;
        break;
      case 'm':
        {
          char *end;
          errno = 0;
          copy_max = strtoull (optarg, &end, 0);
          if (errno || end == optarg || *end || !copy_max)
            usage ();
        }
        break;
      case 's':
        stats_path = optarg;
        break;
      case 'd':
        dump_dir = optarg;
        break;
      default:
        usage ();
      }
  if (argc - optind != 1)
    usage ();
  char const *mountpoint = argv[optind];
  struct node *root = &nodes[ROOT_ID - 1];
  root->used = root->dir = true;
  root->parent = ROOT_ID;
  root->mode = 0755;
  touch (root);

  fuse_fd = open ("/dev/fuse", O_RDWR | O_CLOEXEC | O_NONBLOCK);
  if (fuse_fd < 0)
    die ("/dev/fuse");
  char opts[128];
  snprintf (opts, sizeof opts,
            "fd=%d,rootmode=40000,user_id=%u,group_id=%u",
            fuse_fd, (unsigned) getuid (), (unsigned) getgid ());
  if (mount ("cr-fuse", mountpoint, "fuse", MS_NOSUID | MS_NODEV, opts) != 0)
    die ("mount %s", mountpoint);

  /* The parent waits for INIT's answer, then reports the server's ID:
     from then on the mount works.  */
  int ready[2];
  if (pipe (ready) != 0)
    die ("pipe");
  fflush (stdout);
  pid_t pid = fork ();
  if (pid < 0)
    die ("fork");
  if (pid)
    {
      close (ready[1]);
      char b;
      if (read (ready[0], &b, 1) != 1)
        {
          errno = 0;
          die ("the server ended before the kernel's INIT");
        }
      printf ("%ld\n", (long) pid);
      return fflush (stdout) == 0 ? 0 : 1;
    }
  close (ready[0]);
  /* Nobody waits on standard output past the start.  */
  int null = open ("/dev/null", O_WRONLY);
  if (null < 0 || dup2 (null, STDOUT_FILENO) < 0)
    die ("/dev/null");
  close (null);
  setsid ();

  /* The signals arrive only while waiting for a request, so that a
     request is never cut in two.  */
  sigset_t block, wait_mask;
  sigemptyset (&block);
  sigaddset (&block, SIGUSR1);
  sigaddset (&block, SIGTERM);
  sigaddset (&block, SIGINT);
  sigaddset (&block, SIGHUP);
  sigprocmask (SIG_BLOCK, &block, &wait_mask);
  sigdelset (&wait_mask, SIGUSR1);
  sigdelset (&wait_mask, SIGTERM);
  sigdelset (&wait_mask, SIGINT);
  sigdelset (&wait_mask, SIGHUP);
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGUSR1, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGHUP, &sa, NULL);

  static unsigned char buf[REQ_BUF];
  bool answered_init = false;
  for (;;)
    {
      if (want_stats)
        {
          want_stats = 0;
          write_stats ();
        }
      if (want_exit)
        break;
      struct pollfd p = { .fd = fuse_fd, .events = POLLIN };
      int r = ppoll (&p, 1, NULL, &wait_mask);
      if (r < 0)
        {
          if (errno == EINTR)
            continue;
          die ("poll /dev/fuse");
        }
      ssize_t n = read (fuse_fd, buf, sizeof buf);
      if (n < 0)
        {
          /* ENOENT: the request was interrupted before we read it.  */
          if (errno == EINTR || errno == EAGAIN || errno == ENOENT)
            continue;
          /* ENODEV: the filesystem is unmounted.  */
          if (errno == ENODEV)
            break;
          die ("read /dev/fuse");
        }
      serve (buf, n);
      if (!answered_init && counts[FUSE_INIT])
        {
          answered_init = true;
          if (write (ready[1], "", 1) != 1)
            die ("telling the parent");
          close (ready[1]);
        }
    }
  write_stats ();
  write_dump ();
  return 0;
}
