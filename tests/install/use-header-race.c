/* Races with the first copy_range() calls of a program built against the
   installed <copyrange.h>: tests/install/header.sh builds and runs it.
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later

     use-header-race threads
        Two threads make their first copy_range() calls at the same
        moment, each on files of its own.  Built with -fsanitize=thread,
        ThreadSanitizer reports any data race on what the header keeps
        of its check of the kernel.
     use-header-race close
        Another thread's close() of FD_IN just before the header's check
        reaches the kernel, simulated: this program's own syscall(),
        which the header calls, closes the descriptor once, before the
        first copy_range system call.  Whatever that call answers,
        copy_range() on other files afterwards must answer as the kernel
        does: copy, or fail with ENOSYS where the kernel has no
        copy_range; another error means that the header took the
        check's EBADF, which came from the closed descriptor, for
        copy_range's.

   Each call's outcome is printed; the exit status is 0 when every check
   passes, 1 otherwise.  */

#define _GNU_SOURCE 1
#include <copyrange.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define SIZE 4096

typedef long syscall_fn (long, ...);
static syscall_fn *real_syscall;

/* The descriptor that syscall() closes before the next copy_range system
   call, or -1.  */
static int close_before_call = -1;

long
syscall (long number, ...)
{
  va_list ap;
  long a[6];
  int i;

  va_start (ap, number);
  for (i = 0; i < 6; i++)
    a[i] = va_arg (ap, long);
  va_end (ap);
  if (number == SYS_copy_range && 0 <= close_before_call)
    {
      close (close_before_call);
      close_before_call = -1;
    }
  return real_syscall (number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

static char data[SIZE];

/* Copy SIZE bytes between two new temporary files with copy_range(), and
   say how it went, under NAME.  Return 0 if it copied them or failed with
   ENOSYS, 1 otherwise.  */
static int
copy_once (char const *name)
{
  FILE *in = tmpfile (), *out = tmpfile ();
  loff_t pos_in = 0, pos_out = 0;
  ssize_t n;
  int status = 1;

  if (!in || !out || fwrite (data, 1, SIZE, in) != SIZE || fflush (in) != 0)
    {
      printf ("%s: no temporary files\n", name);
      return 1;
    }
  n = copy_range (fileno (in), &pos_in, fileno (out), &pos_out, SIZE, 0);
  if (0 < n)
    {
      printf ("%s: copied %ld bytes\n", name, (long) n);
      status = 0;
    }
  else if (n < 0 && errno == ENOSYS)
    {
      printf ("%s: ENOSYS\n", name);
      status = 0;
    }
  else
    printf ("%s: returned %ld, errno %d (%s)\n", name, (long) n,
            n < 0 ? errno : 0, n < 0 ? strerror (errno) : "-");
  fclose (in);
  fclose (out);
  return status;
}

static pthread_barrier_t start;

static void *
thread_main (void *arg)
{
  pthread_barrier_wait (&start);
  return copy_once (arg) ? arg : NULL;
}

int
main (int argc, char **argv)
{
  int status = 0;

  real_syscall = (syscall_fn *) dlsym (RTLD_NEXT, "syscall");
  if (!real_syscall)
    {
      printf ("no syscall() to call: %s\n", dlerror ());
      return 1;
    }
  memset (data, 'x', SIZE);

  if (argc == 2 && strcmp (argv[1], "threads") == 0)
    {
      pthread_t t[2];
      char *names[2] = { "thread 1", "thread 2" };
      void *failed;
      int i;

      if (pthread_barrier_init (&start, NULL, 2) != 0)
        return 1;
      for (i = 0; i < 2; i++)
        if (pthread_create (&t[i], NULL, thread_main, names[i]) != 0)
          return 1;
      for (i = 0; i < 2; i++)
        if (pthread_join (t[i], &failed) != 0 || failed)
          status = 1;
    }
  else if (argc == 2 && strcmp (argv[1], "close") == 0)
    {
      FILE *in = tmpfile (), *out = tmpfile ();
      loff_t pos_in = 0, pos_out = 0;
      ssize_t n;

      if (!in || !out || fwrite (data, 1, SIZE, in) != SIZE
          || fflush (in) != 0)
        return 1;
      close_before_call = dup (fileno (in));
      if (close_before_call < 0)
        return 1;
      n = copy_range (close_before_call, &pos_in, fileno (out), &pos_out,
                      SIZE, 0);
      printf ("the call whose descriptor was closed: returned %ld (%s)\n",
              (long) n, n < 0 ? strerror (errno) : "no error");
      status = copy_once ("the next call");
    }
  else
    {
      printf ("usage: %s threads|close\n", argv[0]);
      return 1;
    }
  return status;
}
