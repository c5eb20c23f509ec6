/* oom -- an LD_PRELOAD library that makes memory run out in cpr at a
   chosen file, for tests/cpr/jobs-oom.sh.
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

/* The environment drives it:

   CPR_OOM_AT=NAME    once a thread has opened NAME (as open or openat
                      was given it), every call of malloc, calloc or realloc on
                      that thread fails with ENOMEM: memory runs out in
                      the copy of NAME, on whichever thread copies it.
   CPR_OOM_SLOW=NAME[:NAME]...
                      opening NAME (with open, openat or opendir) takes
                      a second more: its copy is still going on when the
                      others after it are done, or, for a directory, the
                      copy of what comes before it is over.

   Otherwise the calls are glibc's.  */

#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc (size_t);
extern void *__libc_calloc (size_t, size_t);
extern void *__libc_realloc (void *, size_t);

static _Thread_local bool out_of_memory;

/* Whether NAME is one of the names, separated by ':', that the
   variable VAR holds.  */
static bool
named (char const *var, char const *name)
{
  size_t len = strlen (name);
  for (char const *s = getenv (var); s && *s; s += strcspn (s, ":"),
         s += *s == ':')
    if (strncmp (s, name, len) == 0 && (s[len] == ':' || !s[len]))
      return true;
  return false;
}

/* After opening NAME, what the variables ask for.  */
static void
opened (char const *name)
{
  if (named ("CPR_OOM_SLOW", name))
    sleep (1);
  if (named ("CPR_OOM_AT", name))
    out_of_memory = true;
}

/* The mode argument of open and openat, if FLAGS has one.  */
#define MODE_ARG(flags, mode)                   \
  do                                            \
    if ((flags) & (O_CREAT | __O_TMPFILE))      \
      {                                         \
        va_list ap;                             \
        va_start (ap, flags);                   \
        mode = va_arg (ap, mode_t);             \
        va_end (ap);                            \
      }                                         \
  while (0)

int
openat (int dir, char const *name, int flags, ...)
{
  static int (*real) (int, char const *, int, ...);
  if (!real)
    real = dlsym (RTLD_NEXT, "openat");
  mode_t mode = 0;
  MODE_ARG (flags, mode);
  int fd = real (dir, name, flags, mode);
  opened (name);
  return fd;
}

int
open (char const *name, int flags, ...)
{
  static int (*real) (char const *, int, ...);
  if (!real)
    real = dlsym (RTLD_NEXT, "open");
  mode_t mode = 0;
  MODE_ARG (flags, mode);
  int fd = real (name, flags, mode);
  opened (name);
  return fd;
}

DIR *
opendir (char const *name)
{
  static DIR *(*real) (char const *);
  if (!real)
    real = dlsym (RTLD_NEXT, "opendir");
  DIR *d = real (name);
  opened (name);
  return d;
}

/* Whether an allocation must fail, and if so with errno set.  */
static bool
must_fail (void)
{
  if (out_of_memory)
    errno = ENOMEM;
  return out_of_memory;
}

void *
malloc (size_t size)
{
  return must_fail () ? NULL : __libc_malloc (size);
}

void *
calloc (size_t n, size_t size)
{
  return must_fail () ? NULL : __libc_calloc (n, size);
}

void *
realloc (void *p, size_t size)
{
  return must_fail () ? NULL : __libc_realloc (p, size);
}
