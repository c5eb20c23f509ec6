/* shim -- an LD_PRELOAD library that logs and fails the data calls of
   cpr's data mover, for its tests.
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

/* The shim wraps syscall (for copy_range, which has no libc function),
   copy_file_range, read and write, and the calls on user xattrs through
   a descriptor.  The environment drives it:

   CPR_SHIM_LOG=FILE    append one line per call on a regular file:
                        "OP IN OUT LEN RESULT ERRNO", IN and OUT the
                        source and destination offsets (- if none).
   CPR_SHIM_COPY_RANGE=emulate
                        serve copy_range with copy_file_range, so that a
                        kernel without copy_range runs cpr's copy_range
                        path (its probe included).
   CPR_SHIM_FAIL=RULE[,RULE]...
                        RULE is OP:OFFSET:ERR[:TIMES]: a call of OP (one
                        of copy_range, copy_file_range, read, write) that
                        would move bytes from OFFSET on is cut short to end
                        at OFFSET; one that starts at OFFSET or later fails
                        with ERR (a name such as EXDEV, or a number).  ERR
                        "short" only cuts calls short; ERR "KILL" kills the
                        process with SIGKILL instead.  A rule fires TIMES
                        times (default 1, 0 for ever).  The offset is the
                        source's for copy_range, copy_file_range and read,
                        the destination's for write.
   CPR_SHIM_CALL_NS=N   freeze CLOCK_MONOTONIC, except that every
                        copy_range or copy_file_range call on a descriptor
                        advances it by N nanoseconds: each call seems to
                        take N ns.
   CPR_SHIM_SLEEP_NS=N  every copy_range or copy_file_range call really
                        takes N nanoseconds more (it sleeps first): a
                        slow copy, for what must happen during one.
   CPR_SHIM_GROW=FILE:HOLE:DATA
                        the first read, copy_range or copy_file_range call
                        whose source is FILE (the same inode) first makes
                        FILE grow by HOLE bytes of hole then DATA bytes of
                        data (every byte 'g'): a source that grows while
                        it is being copied.
   CPR_SHIM_XATTR=OP:ERR[:N]
                        from the Nth (default 1st) call of OP (fsetxattr,
                        fgetxattr, fremovexattr, or * for any of them) on
                        a user.* name on, each fails with ERR, or with
                        "KILL" the first one kills the process: a file
                        system without user xattrs (ENOTSUP), or a copy
                        killed at that call.  With CPR_SHIM_LOG, these
                        calls on user.* names are logged too, as
                        "OP NAME - SIZE RESULT ERRNO".
   CPR_SHIM_CLOCK_LOG=FILE
                        append a line "clock" for each read of
                        CLOCK_MONOTONIC (apart from CPR_SHIM_LOG, whose
                        lines some tests count as written bytes).
   CPR_SHIM_FSTYPE=N    fstatfs reports f_type N (a number, 0x6969 for
                        NFS) for a descriptor on a regular file: cpr
                        takes it for a file on that kind of filesystem.
   CPR_SHIM_STATVFS=FRSIZE:BLOCKS:AVAIL
                        statvfs reports blocks of FRSIZE bytes, BLOCKS of
                        them, AVAIL free (numbers, 0x... too): a file
                        system whose numbers multiply past 64 bits.
   CPR_SHIM_THREAD_OPEN=ERR:N[:BASE]
                        the first N calls of open and openat made by
                        threads other than the process's first fail with
                        ERR (EMFILE or ENFILE): cpr --jobs's workers run
                        out of file descriptors, its main thread not.
                        With BASE, only the calls on a name whose last
                        component is BASE count: one chosen file of a
                        tree is handed back.  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/vfs.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "copy-range.h"

enum op { OP_COPY_RANGE, OP_COPY_FILE_RANGE, OP_READ, OP_WRITE,
          OP_FSETXATTR, OP_FGETXATTR, OP_FREMOVEXATTR, OP_COUNT };
static char const *const op_names[OP_COUNT] =
  { "copy_range", "copy_file_range", "read", "write",
    "fsetxattr", "fgetxattr", "fremovexattr" };

/* The ERR that kills instead of failing.  */
enum { ERR_KILL = -1 };

struct rule
{
  enum op op;
  int64_t offset;
  int err;                      /* 0 for "short" */
  int times;                    /* firings left; -1 for ever */
};

enum { MAX_RULES = 8 };
static struct rule rules[MAX_RULES];
static int n_rules;
static bool emulate;
static int log_fd = -1;
static int clock_log_fd = -1;   /* CPR_SHIM_CLOCK_LOG's, or -1 */
static long long call_ns = -1;  /* CPR_SHIM_CALL_NS, or -1 */
static long long fake_clock_ns = 1000000000;
static long long sleep_ns;      /* CPR_SHIM_SLEEP_NS, or 0 */
static char *grow_file;         /* CPR_SHIM_GROW's FILE, or NULL once grown */
static long long grow_hole, grow_data;
static int xattr_op = -1;       /* CPR_SHIM_XATTR's OP; OP_COUNT for any */
static int xattr_err;           /* its ERR */
static long xattr_from = 1;     /* its N */
static long xattr_calls;        /* calls of OP seen */
static long fs_type = -1;       /* CPR_SHIM_FSTYPE, or -1 */
static bool statvfs_set;        /* CPR_SHIM_STATVFS, its numbers: */
static unsigned long long statvfs_frsize, statvfs_blocks, statvfs_avail;

static long (*real_syscall) (long, ...);
static ssize_t (*real_copy_file_range) (int, off_t *, int, off_t *, size_t,
                                        unsigned int);
static ssize_t (*real_read) (int, void *, size_t);
static ssize_t (*real_write) (int, void const *, size_t);

static void
die_with (char const *prefix, char const *what)
{
  real_write (STDERR_FILENO, prefix, strlen (prefix));
  real_write (STDERR_FILENO, what, strlen (what));
  real_write (STDERR_FILENO, "\n", 1);
  _exit (99);
}

static void
die (char const *what)
{
  die_with ("cpr-shim: bad CPR_SHIM_FAIL: ", what);
}

static int
parse_errno (char const *s)
{
  static struct { char const *name; int value; } const names[] =
    {
      { "short", 0 }, { "EXDEV", EXDEV }, { "EINVAL", EINVAL },
      { "EOPNOTSUPP", EOPNOTSUPP }, { "ENOSYS", ENOSYS }, { "EPERM", EPERM },
      { "EACCES", EACCES }, { "ETXTBSY", ETXTBSY }, { "EBADF", EBADF },
      { "EIO", EIO }, { "ENOSPC", ENOSPC }, { "EDQUOT", EDQUOT },
      { "EINTR", EINTR }, { "EFBIG", EFBIG }, { "ENOTSUP", ENOTSUP },
      { "ENODATA", ENODATA }, { "KILL", ERR_KILL },
    };
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp (s, names[i].name))
      return names[i].value;
  char *end;
  long v = strtol (s, &end, 10);
  if (*s && !*end && 0 < v)
    return v;
  die (s);
  return 0;
}

static void
parse_rule (char *text)
{
  char *field[4] = { NULL };
  int n = 0;
  for (char *p = strtok (text, ":"); p && n < 4; p = strtok (NULL, ":"))
    field[n++] = p;
  if (n < 3 || n_rules == MAX_RULES)
    die (text);
  struct rule *r = &rules[n_rules++];
  for (r->op = 0; r->op < OP_COUNT; r->op++)
    if (!strcmp (field[0], op_names[r->op]))
      break;
  if (OP_WRITE < r->op)
    die (field[0]);
  r->offset = strtoll (field[1], NULL, 0);
  r->err = parse_errno (field[2]);
  int times = field[3] ? atoi (field[3]) : 1;
  r->times = times == 0 ? -1 : times;
}

static void
setup_once (void)
{
  real_syscall = dlsym (RTLD_NEXT, "syscall");
  real_copy_file_range = dlsym (RTLD_NEXT, "copy_file_range");
  real_read = dlsym (RTLD_NEXT, "read");
  real_write = dlsym (RTLD_NEXT, "write");
  char const *s = getenv ("CPR_SHIM_COPY_RANGE");
  emulate = s && !strcmp (s, "emulate");
  s = getenv ("CPR_SHIM_LOG");
  if (s && *s)
    log_fd = open (s, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
  s = getenv ("CPR_SHIM_CLOCK_LOG");
  if (s && *s)
    clock_log_fd = open (s, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
  s = getenv ("CPR_SHIM_CALL_NS");
  if (s && *s)
    call_ns = strtoll (s, NULL, 10);
  s = getenv ("CPR_SHIM_SLEEP_NS");
  if (s && *s)
    sleep_ns = strtoll (s, NULL, 10);
  s = getenv ("CPR_SHIM_GROW");
  if (s && *s)
    {
      grow_file = strdup (s);
      char *p = strchr (grow_file, ':');
      char *end;
      if (!p)
        die_with ("cpr-shim: bad CPR_SHIM_GROW: ", s);
      *p = '\0';
      grow_hole = strtoll (p + 1, &end, 10);
      if (*end != ':')
        die_with ("cpr-shim: bad CPR_SHIM_GROW: ", s);
      grow_data = strtoll (end + 1, &end, 10);
      if (*end || grow_hole < 0 || grow_data < 0)
        die_with ("cpr-shim: bad CPR_SHIM_GROW: ", s);
    }
  s = getenv ("CPR_SHIM_FSTYPE");
  if (s && *s)
    fs_type = strtol (s, NULL, 0);
  s = getenv ("CPR_SHIM_STATVFS");
  if (s && *s)
    {
      char *end;
      statvfs_frsize = strtoull (s, &end, 0);
      if (*end == ':')
        statvfs_blocks = strtoull (end + 1, &end, 0);
      if (*end == ':')
        statvfs_avail = strtoull (end + 1, &end, 0);
      if (*end || !statvfs_frsize)
        die_with ("cpr-shim: bad CPR_SHIM_STATVFS: ", s);
      statvfs_set = true;
    }
  s = getenv ("CPR_SHIM_XATTR");
  if (s && *s)
    {
      char *copy = strdup (s);
      char *op = strtok (copy, ":");
      char *err = strtok (NULL, ":");
      char *n = strtok (NULL, ":");
      if (!op || !err)
        die_with ("cpr-shim: bad CPR_SHIM_XATTR: ", s);
      for (xattr_op = OP_FSETXATTR; xattr_op < OP_COUNT; xattr_op++)
        if (!strcmp (op, op_names[xattr_op]))
          break;
      if (xattr_op == OP_COUNT && strcmp (op, "*"))
        die_with ("cpr-shim: bad CPR_SHIM_XATTR: ", s);
      xattr_err = parse_errno (err);
      if (n)
        xattr_from = atol (n);
    }
  s = getenv ("CPR_SHIM_FAIL");
  if (s && *s)
    {
      char *copy = strdup (s);
      char *save;
      char *list[MAX_RULES + 1];
      int n = 0;
      for (char *p = strtok_r (copy, ",", &save); p && n <= MAX_RULES;
           p = strtok_r (NULL, ",", &save))
        list[n++] = p;
      for (int i = 0; i < n; i++)
        parse_rule (list[i]);
    }
}

/* Set up at the first call (the log appears then): once, even when cpr
   --jobs makes its first calls on several threads at once.  */
static void
setup (void)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once (&once, setup_once);
}

static bool
regular (int fd)
{
  struct stat st;
  return 0 <= fd && fstat (fd, &st) == 0 && S_ISREG (st.st_mode);
}

/* If FD is CPR_SHIM_GROW's file, not grown yet, make it grow.  */
static void
maybe_grow (int fd)
{
  struct stat st, fst;
  if (!grow_file || fd < 0 || fstat (fd, &fst) != 0
      || stat (grow_file, &st) != 0
      || st.st_dev != fst.st_dev || st.st_ino != fst.st_ino)
    return;
  int saved_errno = errno;
  int wfd = open (grow_file, O_WRONLY | O_CLOEXEC);
  if (wfd < 0 || ftruncate (wfd, st.st_size + grow_hole) != 0
      || lseek (wfd, 0, SEEK_END) < 0)
    die_with ("cpr-shim: cannot grow ", grow_file);
  char buf[4096];
  memset (buf, 'g', sizeof buf);
  for (long long left = grow_data; 0 < left; )
    {
      ssize_t n = real_write (wfd, buf, left < (long long) sizeof buf
                              ? (size_t) left : sizeof buf);
      if (n <= 0)
        die_with ("cpr-shim: cannot grow ", grow_file);
      left -= n;
    }
  close (wfd);
  free (grow_file);
  grow_file = NULL;
  errno = saved_errno;
}

/* Apply the rules for OP to a call moving *LEN bytes from OFFSET: cut
   *LEN, or return the errno to fail with (0: go ahead).  */
static int
apply_rules (enum op op, int64_t offset, size_t *len)
{
  if (*len == 0)
    return 0;
  for (int i = 0; i < n_rules; i++)
    {
      struct rule *r = &rules[i];
      if (r->op != op || r->times == 0 || offset < 0)
        continue;
      if (offset < r->offset)
        {
          if (r->offset - offset < (int64_t) *len)
            {
              *len = r->offset - offset;
              if (r->err == 0 && 0 < r->times)
                r->times--;
            }
        }
      else if (r->err)
        {
          if (0 < r->times)
            r->times--;
          return r->err;
        }
    }
  return 0;
}

/* Log a call of OP on NAME (an xattr's; NULL for a data call, whose
   offsets IN and OUT are logged instead).  */
static void
log_named (enum op op, char const *name, int64_t in, int64_t out, size_t len,
           ssize_t result, int err)
{
  if (log_fd < 0)
    return;
  char line[400];
  char ins[24] = "-", outs[24] = "-";
  if (0 <= in)
    snprintf (ins, sizeof ins, "%lld", (long long) in);
  if (0 <= out)
    snprintf (outs, sizeof outs, "%lld", (long long) out);
  int n = snprintf (line, sizeof line, "%s %.256s %s %zu %zd %d\n",
                    op_names[op], name ? name : ins, outs, len, result,
                    result < 0 ? err : 0);
  real_write (log_fd, line, n);
}

static void
log_call (enum op op, int64_t in, int64_t out, size_t len, ssize_t result,
          int err)
{
  log_named (op, NULL, in, out, len, result, err);
}

/* The offset a copy call reads or writes at: *POS, or FD's own.  */
static int64_t
call_offset (int fd, off_t const *pos)
{
  return pos ? *pos : lseek (fd, 0, SEEK_CUR);
}

/* copy_range or copy_file_range, through the rules.  copy_range goes to
   the kernel's system call unless it is emulated.  */
static ssize_t
copy_call (enum op op, int fd_in, off_t *pos_in, int fd_out, off_t *pos_out,
           size_t len, unsigned int flags)
{
  maybe_grow (fd_in);
  int64_t in = call_offset (fd_in, pos_in);
  int64_t out = call_offset (fd_out, pos_out);
  int err = apply_rules (op, in, &len);
  if (err == ERR_KILL)
    kill (getpid (), SIGKILL);
  if (0 < sleep_ns)
    {
      /* Restarted after a signal: the whole delay, whatever comes.  */
      struct timespec ts = { sleep_ns / 1000000000, sleep_ns % 1000000000 };
      while (nanosleep (&ts, &ts) != 0 && errno == EINTR)
        continue;
    }
  ssize_t r;
  if (err)
    {
      errno = err;
      r = -1;
    }
#ifdef COPY_RANGE_SYSCALL
  else if (op == OP_COPY_RANGE && !emulate)
    r = real_syscall (COPY_RANGE_SYSCALL, (long) fd_in, pos_in,
                      (long) fd_out, pos_out, len, (long) flags);
#endif
  else
    r = real_copy_file_range (fd_in, pos_in, fd_out, pos_out, len, flags);
  int saved_errno = errno;
  /* Not for copy_range's check that the system call exists, which
     passes no destination and costs nothing next to a copy.  */
  if (0 <= call_ns && 0 <= fd_out)
    fake_clock_ns += call_ns;
  /* Not a system call more for each data call when nothing is logged:
     bench/ measures cpr under the shim (its tool cpr-nomark).  */
  if (0 <= log_fd && regular (fd_in))
    log_call (op, in, out, len, r, saved_errno);
  errno = saved_errno;
  return r;
}

long
syscall (long number, ...)
{
  setup ();
  va_list ap;
  va_start (ap, number);
  long a[6];
  for (int i = 0; i < 6; i++)
    a[i] = va_arg (ap, long);
  va_end (ap);
#ifdef COPY_RANGE_SYSCALL
  /* When emulated, copy_file_range's checks come in the same order as
     copy_range's: an invalid descriptor (cpr's probe) fails with EBADF.  */
  if (number == COPY_RANGE_SYSCALL)
    return copy_call (OP_COPY_RANGE, a[0], (off_t *) a[1], a[2],
                      (off_t *) a[3], a[4], a[5]);
#endif
  return real_syscall (number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

ssize_t
copy_file_range (int fd_in, off_t *pos_in, int fd_out, off_t *pos_out,
                 size_t len, unsigned int flags)
{
  setup ();
  return copy_call (OP_COPY_FILE_RANGE, fd_in, pos_in, fd_out, pos_out,
                    len, flags);
}

/* read or write on FD at its offset, through the rules.  */
static ssize_t
rw_call (enum op op, int fd, void *buf, size_t len)
{
  if ((log_fd < 0 && n_rules == 0 && !grow_file)
      || !regular (fd) || fd <= STDERR_FILENO)
    return (op == OP_READ ? real_read (fd, buf, len)
            : real_write (fd, buf, len));
  if (op == OP_READ)
    maybe_grow (fd);
  int64_t pos = lseek (fd, 0, SEEK_CUR);
  int err = apply_rules (op, pos, &len);
  if (err == ERR_KILL)
    kill (getpid (), SIGKILL);
  ssize_t r;
  if (err)
    {
      errno = err;
      r = -1;
    }
  else
    r = op == OP_READ ? real_read (fd, buf, len) : real_write (fd, buf, len);
  int saved_errno = errno;
  log_call (op, op == OP_READ ? pos : -1, op == OP_WRITE ? pos : -1, len, r,
            saved_errno);
  errno = saved_errno;
  return r;
}

ssize_t
read (int fd, void *buf, size_t len)
{
  setup ();
  return rw_call (OP_READ, fd, buf, len);
}

ssize_t
write (int fd, void const *buf, size_t len)
{
  setup ();
  return rw_call (OP_WRITE, fd, (void *) buf, len);
}

int
clock_gettime (clockid_t id, struct timespec *ts)
{
  setup ();
  if (id == CLOCK_MONOTONIC && 0 <= clock_log_fd)
    real_write (clock_log_fd, "clock\n", 6);
  if (id == CLOCK_MONOTONIC && 0 <= call_ns)
    {
      ts->tv_sec = fake_clock_ns / 1000000000;
      ts->tv_nsec = fake_clock_ns % 1000000000;
      return 0;
    }
  static int (*real_clock_gettime) (clockid_t, struct timespec *);
  if (!real_clock_gettime)
    real_clock_gettime = dlsym (RTLD_NEXT, "clock_gettime");
  return real_clock_gettime (id, ts);
}

int
fstatfs (int fd, struct statfs *buf)
{
  setup ();
  static int (*real_fstatfs) (int, struct statfs *);
  if (!real_fstatfs)
    real_fstatfs = dlsym (RTLD_NEXT, "fstatfs");
  int r = real_fstatfs (fd, buf);
  if (r == 0 && 0 <= fs_type && regular (fd))
    buf->f_type = fs_type;
  return r;
}

/* The same, for a cpr built with 64-bit offsets on a 32-bit system.  */
int
fstatfs64 (int fd, struct statfs64 *buf)
{
  setup ();
  static int (*real_fstatfs64) (int, struct statfs64 *);
  if (!real_fstatfs64)
    real_fstatfs64 = dlsym (RTLD_NEXT, "fstatfs64");
  int r = real_fstatfs64 (fd, buf);
  if (r == 0 && 0 <= fs_type && regular (fd))
    buf->f_type = fs_type;
  return r;
}

/* CPR_SHIM_STATVFS's numbers in *BUF.  */
#define FAKE_STATVFS(buf)                                       \
  do                                                            \
    {                                                           \
      (buf)->f_bsize = (buf)->f_frsize = statvfs_frsize;        \
      (buf)->f_blocks = statvfs_blocks;                         \
      (buf)->f_bfree = (buf)->f_bavail = statvfs_avail;         \
    }                                                           \
  while (0)

int
statvfs (char const *name, struct statvfs *buf)
{
  setup ();
  static int (*real_statvfs) (char const *, struct statvfs *);
  if (!real_statvfs)
    real_statvfs = dlsym (RTLD_NEXT, "statvfs");
  int r = real_statvfs (name, buf);
  if (r == 0 && statvfs_set)
    FAKE_STATVFS (buf);
  return r;
}

/* The same, for a cpr built with 64-bit offsets on a 32-bit system.  */
int
statvfs64 (char const *name, struct statvfs64 *buf)
{
  setup ();
  static int (*real_statvfs64) (char const *, struct statvfs64 *);
  if (!real_statvfs64)
    real_statvfs64 = dlsym (RTLD_NEXT, "statvfs64");
  int r = real_statvfs64 (name, buf);
  if (r == 0 && statvfs_set)
    FAKE_STATVFS (buf);
  return r;
}

/* Whether CPR_SHIM_XATTR fails this call of OP on NAME; set errno then,
   or kill the process.  */
static bool
xattr_fails (enum op op, char const *name)
{
  if (xattr_op < 0 || strncmp (name, "user.", 5) != 0
      || (xattr_op != OP_COUNT && xattr_op != (int) op)
      || ++xattr_calls < xattr_from)
    return false;
  if (xattr_err == ERR_KILL)
    kill (getpid (), SIGKILL);
  errno = xattr_err;
  return true;
}

/* Log a call of OP on the user xattr NAME.  */
static void
log_xattr (enum op op, char const *name, size_t size, ssize_t r, int err)
{
  if (strncmp (name, "user.", 5) == 0)
    log_named (op, name, -1, -1, size, r, err);
}

int
fsetxattr (int fd, char const *name, void const *value, size_t size,
           int flags)
{
  setup ();
  static int (*real) (int, char const *, void const *, size_t, int);
  if (!real)
    real = dlsym (RTLD_NEXT, "fsetxattr");
  int r = xattr_fails (OP_FSETXATTR, name) ? -1
          : real (fd, name, value, size, flags);
  int saved_errno = errno;
  log_xattr (OP_FSETXATTR, name, size, r, saved_errno);
  errno = saved_errno;
  return r;
}

ssize_t
fgetxattr (int fd, char const *name, void *value, size_t size)
{
  setup ();
  static ssize_t (*real) (int, char const *, void *, size_t);
  if (!real)
    real = dlsym (RTLD_NEXT, "fgetxattr");
  ssize_t r = xattr_fails (OP_FGETXATTR, name) ? -1
              : real (fd, name, value, size);
  int saved_errno = errno;
  log_xattr (OP_FGETXATTR, name, size, r, saved_errno);
  errno = saved_errno;
  return r;
}

int
fremovexattr (int fd, char const *name)
{
  setup ();
  static int (*real) (int, char const *);
  if (!real)
    real = dlsym (RTLD_NEXT, "fremovexattr");
  int r = xattr_fails (OP_FREMOVEXATTR, name) ? -1 : real (fd, name);
  int saved_errno = errno;
  log_xattr (OP_FREMOVEXATTR, name, 0, r, saved_errno);
  errno = saved_errno;
  return r;
}

/* CPR_SHIM_THREAD_OPEN's ERR, or 0, its N, counted down, and its BASE,
   or NULL.  Read apart from setup, whose own calls of open come
   here.  */
static int thread_open_err;
static long thread_open_left;
static char const *thread_open_base;

static void
thread_open_setup (void)
{
  char const *s = getenv ("CPR_SHIM_THREAD_OPEN");
  if (!s || !*s)
    return;
  if (!strncmp (s, "EMFILE:", 7))
    thread_open_err = EMFILE;
  else if (!strncmp (s, "ENFILE:", 7))
    thread_open_err = ENFILE;
  else
    {
      static char const msg[] = "cpr-shim: bad CPR_SHIM_THREAD_OPEN\n";
      ssize_t (*w) (int, void const *, size_t) = dlsym (RTLD_NEXT, "write");
      w (STDERR_FILENO, msg, sizeof msg - 1);
      _exit (99);
    }
  thread_open_left = atol (s + 7);
  char const *base = strchr (s + 7, ':');
  if (base)
    thread_open_base = base + 1;
}

/* Whether this call of open or openat, on NAME, fails
   (CPR_SHIM_THREAD_OPEN); set errno then.  */
static bool
thread_open_fails (char const *name)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once (&once, thread_open_setup);
  if (!thread_open_err || gettid () == getpid ())
    return false;
  if (thread_open_base)
    {
      char const *slash = strrchr (name, '/');
      if (strcmp (slash ? slash + 1 : name, thread_open_base) != 0)
        return false;
    }
  if (__atomic_sub_fetch (&thread_open_left, 1, __ATOMIC_RELAXED) < 0)
    return false;
  errno = thread_open_err;
  return true;
}

/* The mode argument of open and openat, there with O_CREAT or
   O_TMPFILE.  */
#define OPEN_MODE(flags, last, mode)                            \
  do                                                            \
    {                                                           \
      if ((flags) & (O_CREAT | O_TMPFILE))                      \
        {                                                       \
          va_list ap_;                                          \
          va_start (ap_, last);                                 \
          mode = va_arg (ap_, mode_t);                          \
          va_end (ap_);                                         \
        }                                                       \
    }                                                           \
  while (0)

int
open (char const *name, int flags, ...)
{
  mode_t mode = 0;
  OPEN_MODE (flags, flags, mode);
  if (thread_open_fails (name))
    return -1;
  static int (*real) (char const *, int, ...);
  if (!real)
    real = dlsym (RTLD_NEXT, "open");
  return real (name, flags, mode);
}

int
openat (int dirfd, char const *name, int flags, ...)
{
  mode_t mode = 0;
  OPEN_MODE (flags, flags, mode);
  if (thread_open_fails (name))
    return -1;
  static int (*real) (int, char const *, int, ...);
  if (!real)
    real = dlsym (RTLD_NEXT, "openat");
  return real (dirfd, name, flags, mode);
}
