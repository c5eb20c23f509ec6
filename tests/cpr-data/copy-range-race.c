/* copy-range-race -- call the copy_range wrapper from several threads
   at once, as cpr --jobs's workers do, for ThreadSanitizer to watch its
   probe of the kernel (tests/cpr/copy-range-race.sh).
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

#include <config.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>

#include "copy-range.h"

enum { THREADS = 4 };

/* Open before the threads start, and read only: the wrapper's first
   calls all probe with it.  */
static int fd;

static void *
call (void *arg)
{
  (void) arg;
  off_t in = 0, out = 0;
  /* An invalid output descriptor: whatever the kernel, nothing is
     copied, and the probe runs.  */
  copy_range (fd, &in, -1, &out, 0, 0);
  return NULL;
}

int
main (void)
{
  fd = open ("/dev/null", O_RDONLY);
  if (fd < 0)
    {
      perror ("/dev/null");
      return 99;
    }
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++)
    if (pthread_create (&t[i], NULL, call, NULL) != 0)
      {
        fputs ("copy-range-race: pthread_create failed\n", stderr);
        return 99;
      }
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);
  return 0;
}
