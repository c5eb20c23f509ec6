/* jobs.c -- cpr --jobs: copies on worker threads, and their output in
   the order of a copy made one file at a time.
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

/* The ring holds entries in the order of the output: jobs, queued,
   running or done, and between them what the main thread printed while
   jobs before it were not written yet (an entry with no job, done from
   the start).  Workers take the oldest queued job; the main thread
   writes entries from the oldest on as they are done.  Only the main
   thread adds and removes entries; a worker changes only the output and
   the state of the job it runs, under the lock.  */

#include <config.h>

#include "jobs.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exitfail.h"
#include "gettext.h"
#include "minmax.h"
#include "xalloc.h"
#include "xvasprintf.h"

#define _(msgid) gettext (msgid)

/* The stack of a worker thread: the copy of one file, through the
   data mover, libacl and libattr, needs a few KiB of it.  */
enum { WORKER_STACK = 256 * 1024 };

/* Here error is error itself, which says what was kept for later.  */
#undef error

/* A piece of an entry's output.  */
struct segment
{
  enum { SEG_OUT, SEG_ERR, SEG_LATER } kind;
  int errnum;                   /* SEG_ERR: error's ERRNUM */
  char *text;                   /* SEG_OUT, SEG_ERR: the text */
  void (*fn) (void *);          /* SEG_LATER: what to call, with ARG */
  void *arg;
  struct segment *next;
};

enum state { QUEUED, RUNNING, DONE };

struct entry
{
  uintmax_t seq;                /* its number, counting from 0 */
  enum state state;
  bool (*run) (void *);         /* NULL: output of the main thread */
  void (*done) (void *, bool);
  void *arg;
  bool ok;                      /* what RUN returned */
  bool back;                    /* handed back: DONE does the work */
  bool oom;                     /* its worker ran out of memory */
  struct segment *out;          /* the output, in order */
  struct segment **out_end;
  char **quoted;                /* out_quote's copies, freed at its end */
  size_t n_quoted;
};

bool jobs_started;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_cond = PTHREAD_COND_INITIALIZER;  /* queued */
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;  /* done */
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;  /* not signalled */

/* The ring: COUNT entries from HEAD, of CAP.  */
static struct entry *ring;
static size_t cap, head, count;
static uintmax_t next_seq;
static bool stopping;

/* A worker ran out of memory: no more jobs are begun, and cpr dies at
   that job's place in the output.  */
static bool out_of_memory;

static pthread_t *workers;
static size_t n_workers;

/* The bytes of output that the main thread made, waiting in the ring
   behind a job, and the most that may wait: a tree of millions of
   symlinks behind one large file would otherwise have all their -v
   lines in memory at once.  Past it the main thread waits for the jobs
   before it.  A megabyte is thousands of lines, the work of a while.  */
static size_t held;
enum { HELD_MAX = 1 << 20 };

/* The jobs submitted, and those handed back, for jobs_report.  */
static uintmax_t n_submitted, n_back;

/* The job the calling worker runs, or NULL on the main thread.  */
static _Thread_local struct entry *current;

/* Set while the main thread writes an entry's output, and calls its
   DONE: what it says then (a warning out_later calls for, a copy that a
   worker handed back) belongs there, and is said at once.  */
static bool writing;

static struct entry *
at (size_t i)
{
  return &ring[(head + i) % cap];
}

static struct entry *
newest (void)
{
  return count ? at (count - 1) : NULL;
}

/* Append a segment of KIND to E's output.  */
static struct segment *
add_segment (struct entry *e, int kind)
{
  struct segment *s = xzalloc (sizeof *s);
  s->kind = kind;
  *e->out_end = s;
  e->out_end = &s->next;
  return s;
}

/* Write E's output, as it would have come without workers, and free
   it.  */
static void
write_output (struct entry *e)
{
  for (struct segment *s = e->out, *next; s; s = next)
    {
      next = s->next;
      if (s->kind == SEG_OUT && !e->run)
        held -= strlen (s->text);
      if (s->kind == SEG_OUT)
        fputs (s->text, stdout);
      else if (s->kind == SEG_ERR)
        error (0, s->errnum, "%s", s->text);
      else
        s->fn (s->arg);
      free (s->text);
      free (s);
    }
}

/* Write the entries from the oldest on that are done, and finish their
   jobs.  */
static void
write_done (void)
{
  for (;;)
    {
      pthread_mutex_lock (&lock);
      bool ready = count && at (0)->state == DONE;
      struct entry e;
      if (ready)
        {
          e = *at (0);
          head = (head + 1) % cap;
          count--;
        }
      pthread_mutex_unlock (&lock);
      if (!ready)
        return;
      /* DONE too is at its place in the output: what it says goes out
         at once.  */
      writing = true;
      write_output (&e);
      if (e.oom)
        error (exit_failure, 0, "%s", _("memory exhausted"));
      if (e.run)
        e.done (e.arg, e.ok);
      writing = false;
    }
}

/* Run the oldest queued job, if any, with the lock held; return
   whether there was one.  */
static bool
run_one (void)
{
  struct entry *e = NULL;
  /* The jobs before the one that ran out of memory were begun before
     it, oldest first: the ones queued after it are not to be.  */
  for (size_t i = 0; i < count && !e && !out_of_memory; i++)
    if (at (i)->state == QUEUED)
      e = at (i);
  if (!e)
    return false;
  e->state = RUNNING;
  pthread_mutex_unlock (&lock);

  current = e;
  bool ok = e->run (e->arg);
  current = NULL;
  for (size_t i = 0; i < e->n_quoted; i++)
    free (e->quoted[i]);
  free (e->quoted);

  pthread_mutex_lock (&lock);
  e->quoted = NULL;
  e->n_quoted = 0;
  e->ok = ok;
  e->state = DONE;
  pthread_cond_broadcast (&done_cond);
  return true;
}

static void *
worker (void *arg)
{
  (void) arg;
  pthread_mutex_lock (&lock);
  while (!stopping)
    if (!run_one ())
      pthread_cond_wait (&work_cond, &lock);
  pthread_mutex_unlock (&lock);
  return NULL;
}

bool
jobs_start (size_t n)
{
  /* Room for N jobs running, N more queued, and the main thread's
     output between them.  */
  cap = 4 * n + 8;
  ring = xcalloc (cap, sizeof *ring);
  workers = xcalloc (n, sizeof *workers);
  /* A worker's stack, by default as big as the stack limit (8 MiB),
     would count against an address space limit (ulimit -v) that GNU
     cp's copy fits in many times over: a worker needs a fraction of
     this.  And the stacks take at most a sixteenth of that limit.  */
  struct rlimit as;
  if (getrlimit (RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
    n = MIN (n, MAX (1, as.rlim_cur / 16 / WORKER_STACK));
  pthread_attr_t attr;
  bool attr_ok = pthread_attr_init (&attr) == 0;
  if (attr_ok)
    pthread_attr_setstacksize (&attr, MAX (WORKER_STACK, PTHREAD_STACK_MIN));
  while (n_workers < n
         && pthread_create (&workers[n_workers], attr_ok ? &attr : NULL,
                            worker, NULL) == 0)
    n_workers++;
  if (attr_ok)
    pthread_attr_destroy (&attr);
  jobs_started = 0 < n_workers;
  return jobs_started;
}

/* Out of memory on a worker: the main thread says so when it writes
   this job's output, after the output of the jobs before it, which run
   on, as a copy made one file at a time would; it begins no new job
   and exits.  Allocates nothing, and waits for that exit.  */
static _Noreturn void
park_worker (void)
{
  pthread_mutex_lock (&lock);
  current->oom = true;
  current->state = DONE;
  out_of_memory = true;
  pthread_cond_broadcast (&done_cond);
  for (;;)
    pthread_cond_wait (&never, &lock);
}

/* gnulib's, in place of its own: on the main thread, what the copies
   before this point said is written first, as without --jobs, and not
   lost.  Once only: the writing may run out of memory too.  */
void
xalloc_die (void)
{
  static bool dying;
  if (current)
    park_worker ();
  if (jobs_started && !current && !writing && !dying)
    {
      dying = true;
      jobs_drain ();
    }
  error (exit_failure, 0, "%s", _("memory exhausted"));
  abort ();
}

/* Wait, with the lock held, until the oldest entry is done.  */
static void
wait_oldest (void)
{
  while (at (0)->state != DONE)
    pthread_cond_wait (&done_cond, &lock);
}

/* Make room for a new entry and return it, with the lock held.  */
static struct entry *
new_entry (void)
{
  for (;;)
    {
      pthread_mutex_lock (&lock);
      if (count < cap)
        break;
      wait_oldest ();
      pthread_mutex_unlock (&lock);
      write_done ();
    }
  struct entry *e = at (count++);
  *e = (struct entry) { .seq = next_seq++, .state = DONE };
  e->out_end = &e->out;
  return e;
}

void
jobs_submit (bool (*run) (void *), void (*done) (void *, bool), void *arg)
{
  /* Whatever is done goes out first: the ring stays short, and output
     as timely as it can be.  */
  write_done ();
  jobs_check ();
  struct entry *e = new_entry ();
  e->run = run;
  e->done = done;
  e->arg = arg;
  e->state = QUEUED;
  n_submitted++;
  pthread_cond_signal (&work_cond);
  pthread_mutex_unlock (&lock);
}

uintmax_t
jobs_next (void)
{
  return next_seq;
}

/* Whether the entries numbered FIRST and later are done, with the
   lock held.  One handed back is not until its DONE, on the main thread,
   has done the work, after the entries before it are written: till then
   it is still in the ring.  */
static bool
done_from (uintmax_t first)
{
  for (size_t i = count; 0 < i; i--)
    {
      struct entry *e = at (i - 1);
      if (e->seq < first)
        break;
      if (e->state != DONE || e->back)
        return false;
    }
  return true;
}

void
jobs_wait (uintmax_t first)
{
  /* What is being written is the oldest entry: the ones after it must
     wait for the rest of it.  A worker waits for nothing.  */
  if (!jobs_started || writing || current)
    return;
  for (;;)
    {
      write_done ();
      pthread_mutex_lock (&lock);
      bool done = done_from (first);
      /* A head entry done since write_done let go of the lock is for
         write_done, not a reason to sleep: its broadcast came before
         this wait and would not come again.  */
      if (!done && !(count && at (0)->state == DONE))
        pthread_cond_wait (&done_cond, &lock);
      pthread_mutex_unlock (&lock);
      if (done)
        break;
    }
  write_done ();
}

void
jobs_check (void)
{
  /* While an entry is written, the parked one comes after it: its turn
     comes when this one's is over.  */
  if (!jobs_started || current || writing)
    return;
  pthread_mutex_lock (&lock);
  bool parked = out_of_memory;
  pthread_mutex_unlock (&lock);
  if (!parked)
    return;
  /* write_done exits at the parked job's place, which comes before the
     end of the ring: the jobs before it were all begun before it.  */
  jobs_drain ();
  abort ();
}

void
jobs_drain (void)
{
  while (jobs_pending () && !writing && !current)
    jobs_wait (0);
}

bool
jobs_pending (void)
{
  return count != 0;
}

bool
jobs_any (bool (*fn) (void const *, void const *), void const *ctx)
{
  for (size_t i = 0; i < count; i++)
    {
      struct entry const *e = at (i);
      if (e->run && fn (e->arg, ctx))
        return true;
    }
  return false;
}

void
jobs_hand_back (void)
{
  pthread_mutex_lock (&lock);
  n_back += !current->back;
  current->back = true;
  pthread_mutex_unlock (&lock);
}

bool
jobs_worker (void)
{
  return current != NULL;
}

/* Open the directory that holds the last component of NAME, one
   component at a time from the root or the working directory, none of
   them through a symbolic link, and point *BASE at that last component.
   Return the directory's descriptor (AT_FDCWD if NAME has no directory
   part), or -1 if a component is missing, not a directory, a symbolic
   link, or if NAME ends in a slash, which names no file to write.  */
static int
open_parent (char const *name, char const **base)
{
  int dir = AT_FDCWD;
  char const *p = name;
  if (*p == '/')
    {
      dir = open ("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
      if (dir < 0)
        return -1;
    }
  for (;;)
    {
      while (*p == '/')
        p++;
      size_t len = strcspn (p, "/");
      char const *next = p + len;
      while (*next == '/')
        next++;
      if (len == 0 || !*next)
        {
          /* The last component, unless there is none.  */
          if (len == 0 || p[len] == '/')
            break;
          *base = p;
          return dir;
        }
      char *comp = ximemdup0 (p, len);
      int fd = openat (dir, comp,
                       O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      free (comp);
      if (dir != AT_FDCWD)
        close (dir);
      dir = fd;
      if (dir < 0)
        return -1;
      p = next;
    }
  if (dir != AT_FDCWD)
    close (dir);
  return -1;
}

/* Open NAME to append to it, if it is a regular file of the caller's
   with no other name, or a new one; else return -1.  Not through a
   symlink, in any of its components, and not another user's file, nor
   a hard link that another user may have made to one of the caller's:
   root, with NAME in /tmp, must not write where another user's symlink
   leads, be it to a file or to a directory, nor into their file or one
   they linked to.  Not a FIFO either, whose open would wait for a
   reader.  */
static int
open_own (char const *name)
{
  char const *base;
  int dir = open_parent (name, &base);
  if (dir == -1)
    return -1;
  int fd = openat (dir, base, (O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW
                               | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), 0666);
  if (dir != AT_FDCWD)
    close (dir);
  struct stat st;
  if (0 <= fd && (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode)
                  || st.st_uid != geteuid () || st.st_nlink != 1))
    {
      close (fd);
      fd = -1;
    }
  return fd;
}

/* With CPR_JOBS_REPORT=FILE in the environment, append to FILE a line
   that says how many worker threads ran and how many jobs they were
   given: the tests check that copies were made side by side, which
   nothing else shows, since the outcome must be the same.  Quietly
   nothing if FILE cannot be written, or is not the caller's own.  */
static void
jobs_report (void)
{
  char const *name = getenv ("CPR_JOBS_REPORT");
  if (!name || !*name)
    return;
  int fd = open_own (name);
  if (fd < 0)
    return;
  dprintf (fd, "workers %zu jobs %ju back %ju\n", n_workers, n_submitted,
           n_back);
  close (fd);
}

void
jobs_end (void)
{
  jobs_report ();
  if (!jobs_started)
    return;
  jobs_drain ();
  pthread_mutex_lock (&lock);
  stopping = true;
  pthread_cond_broadcast (&work_cond);
  pthread_mutex_unlock (&lock);
  for (size_t i = 0; i < n_workers; i++)
    pthread_join (workers[i], NULL);
  free (workers);
  free (ring);
  jobs_started = false;
}

/* Where output made now goes, in order: the job running on this
   worker, or on the main thread, while entries before it wait to be
   written, an entry of its own (the newest, if that is one); NULL: it
   may be written at once.  */
static struct entry *
output_entry (void)
{
  if (current)
    return current;
  if (!jobs_started || writing || !count)
    return NULL;
  struct entry *e = newest ();
  if (e->run)
    {
      e = new_entry ();
      pthread_mutex_unlock (&lock);
    }
  return e;
}

/* The text printf would print, FMT with AP.  */
static char *
format (char const *fmt, va_list ap)
{
  char *s = xvasprintf (fmt, ap);
  /* Only a message longer than INT_MAX gets here: printf would fail
     too, but say the start of it rather than nothing.  */
  return s ? s : xstrdup (fmt);
}

/* Wait, on the main thread, for the jobs before its output, while more
   than HELD_MAX bytes of it wait for them.  */
static void
hold_back (void)
{
  while (HELD_MAX < held && count)
    {
      pthread_mutex_lock (&lock);
      wait_oldest ();
      pthread_mutex_unlock (&lock);
      write_done ();
    }
}

void
out_printf (char const *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  if (!jobs_started)
    {
      vprintf (fmt, ap);
      va_end (ap);
      return;
    }
  /* Formatted first: finding its entry may wait, and write what is due,
     and the DONEs called then may quote other names in the slots that
     the arguments point to.  */
  char *text = format (fmt, ap);
  va_end (ap);
  struct entry *e = output_entry ();
  if (!e)
    {
      fputs (text, stdout);
      free (text);
      return;
    }
  add_segment (e, SEG_OUT)->text = text;
  if (!current)
    {
      held += strlen (text);
      hold_back ();
    }
}

void
out_error (int status, int errnum, char const *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *text = format (fmt, ap);
  va_end (ap);
  if (current && !status)
    {
      struct segment *s = add_segment (current, SEG_ERR);
      s->errnum = errnum;
      s->text = text;
      return;
    }
  /* On the main thread, after what the jobs before it said.  */
  if (!current && !writing)
    jobs_drain ();
  error (status, errnum, "%s", text);
  free (text);
}

char const *
out_quote (int n, enum quoting_style style, bool colon, char const *arg)
{
  /* "error (0, errno, ..., quoteaf (name))" may read errno after this
     call: it must find it as it was.  */
  int err = errno;
  if (!current)
    {
      char const *q = (colon ? quotearg_n_style_colon (n, style, arg)
                       : quotearg_n_style (n, style, arg));
      errno = err;
      return q;
    }
  struct quoting_options *o = clone_quoting_options (NULL);
  set_quoting_style (o, style);
  if (colon)
    set_char_quoting (o, ':', 1);
  char *q = quotearg_alloc (arg, SIZE_MAX, o);
  free (o);
  current->quoted = xreallocarray (current->quoted, current->n_quoted + 1,
                                   sizeof *current->quoted);
  current->quoted[current->n_quoted++] = q;
  errno = err;
  return q;
}

void
out_later (void (*fn) (void *), void *arg)
{
  if (!current)
    {
      fn (arg);
      return;
    }
  struct segment *s = add_segment (current, SEG_LATER);
  s->fn = fn;
  s->arg = arg;
}
