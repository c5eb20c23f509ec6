/* jobs.h -- cpr --jobs: copies on worker threads, and their output in
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

#ifndef CPR_JOBS_H
#define CPR_JOBS_H

#include <stdbool.h>
#include <stdint.h>

/* Included before the macros below, which would garble their
   declarations.  */
#include "error.h"
#include "quote.h"
#include "quotearg.h"

/* The main thread walks the tree as it always does, and hands some
   regular files to worker threads as jobs.  Jobs, and the output the
   main thread makes meanwhile, queue in a bounded ring in the order in
   which a copy made one file at a time would have made them; the main
   thread writes each one's output (stdout and stderr, as it was made)
   when its turn comes, so that what cpr says, and in which order, does
   not depend on which worker finishes first.  The engine's diagnostics
   and -v lines go through the out_ functions below (error through the
   macro at the end); until jobs_start, they are the plain calls.  */

/* Whether the worker threads have been started.  */
extern bool jobs_started;

/* Start WORKERS worker threads.  Return false if none could be: the
   caller then copies everything itself.  */
bool jobs_start (size_t workers);

/* Have a worker call RUN (ARG), and then, on the main thread, in the
   order of submission and after writing the output RUN made, DONE (ARG,
   what RUN returned), whose own output goes out at once, in its place.
   Waits while the ring is full.  Main thread.  */
void jobs_submit (bool (*run) (void *), void (*done) (void *, bool),
                  void *arg);

/* The number that the next job submitted will have: jobs_wait (N)
   waits for those submitted from now on.  Main thread.  */
uintmax_t jobs_next (void);

/* Wait until the jobs numbered FIRST and later are done, those handed
   back finished too, and write the output that is due.  Main
   thread.  */
void jobs_wait (uintmax_t first);

/* If a worker ran out of memory, write the output of the jobs before
   its job, and exit there with "memory exhausted", as a copy made one
   file at a time would have; cpr must then change nothing more in the
   destination.  Main thread; nothing on a worker.  */
void jobs_check (void);

/* Wait until every job is done and its output written.  Main thread.  */
void jobs_drain (void);

/* Whether a job submitted is not finished yet (its DONE not called).
   Main thread.  */
bool jobs_pending (void);

/* Call FN (ARG, CTX) for each job submitted and not finished, until
   one returns true; return whether one did.  FN may only read what
   the job's RUN does not change.  Main thread.  */
bool jobs_any (bool (*fn) (void const *arg, void const *ctx),
               void const *ctx);

/* Say that the job the calling worker runs is handed back: its DONE
   does the work on the main thread.  jobs_wait then waits for that DONE
   too, which comes after the output of every job before it; jobs_end
   reports the count.  Worker.  */
void jobs_hand_back (void);

/* Whether the calling thread is a worker.  */
bool jobs_worker (void);

/* Drain, then stop the worker threads; with CPR_JOBS_REPORT=FILE in
   the environment, say in FILE how many there were, how many jobs they
   were given, and how many of those they handed back.  Main thread.  */
void jobs_end (void);

/* printf to standard output, in the order of the output.  On the main
   thread, past a megabyte of it held behind the jobs before it, wait
   for them first.  */
void out_printf (char const *fmt, ...) _GL_ATTRIBUTE_FORMAT ((__printf__, 1, 2));

/* error, in the order of the output.  On a worker the message is kept
   for the main thread, which says it with error when its turn comes;
   on the main thread the jobs before it are drained first.  */
void out_error (int status, int errnum, char const *fmt, ...)
  _GL_ATTRIBUTE_FORMAT ((__printf__, 3, 4));

/* quotearg_n_style (N, STYLE, ARG), with ':' quoted too if COLON, and
   errno as it was.  The slots of quotearg_n are shared by all threads:
   a worker gets a copy of its own instead, which lasts until its job
   ends.  */
char const *out_quote (int n, enum quoting_style style, bool colon,
                       char const *arg);

/* Call FN (ARG) on the main thread at this point of the output: at
   once there, on a worker when the job's output is written.  For what
   must happen in the order of the copy, as a warning said only
   once.  */
void out_later (void (*fn) (void *), void *arg);

/* Names in diagnostics are quoted as GNU tools quote them: always
   quoted and shell-escaped in the middle of a sentence (quoteaf), and
   only when needed at the start of a "NAME: ..." message (quotef);
   quote as gnulib's quote, for the messages of gnulib's functions.  */
#define quoteaf(arg) \
  out_quote (0, shell_escape_always_quoting_style, false, arg)
#define quoteaf_n(n, arg) \
  out_quote (n, shell_escape_always_quoting_style, false, arg)
#define quotef(arg) \
  out_quote (0, shell_escape_quoting_style, true, arg)
#undef quote
#define quote(arg) out_quote (0, locale_quoting_style, false, arg)

/* The engine diagnoses where a failure happens, with error, which may
   be on a worker: there it must go through out_error.  Until the
   workers are started, it is error itself.  */
#define error(status, errnum, ...) \
  (jobs_started ? out_error (status, errnum, __VA_ARGS__) \
   : error (status, errnum, __VA_ARGS__))

#endif /* CPR_JOBS_H */
