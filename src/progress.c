/* progress.c -- cpr --progress: one status line on standard error.
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

/* The status line says what has reached the destination, nothing more:
   the data mover reports each chunk after the kernel (or write) returned
   it, so the line never runs ahead of the data, and a clone counts when
   the call that made it returns.  It is redrawn from those reports, at
   most every REDRAW_NS: there is no timer, for a timer's signal would
   interrupt the very calls being measured; while one long call runs (an
   NFS COPY of a large chunk) the line waits for it, as it should.

   Totals grow as the walk finds files, rather than coming from a scan of
   the whole tree first: a scan costs a second traversal of every
   directory before the first byte moves, which on NFS or a cold cache is
   the slow part of a copy of many small files.  Instead, the engine
   counts a directory's entries when it lists the directory (a stat of
   each, which the copy of the entry then finds in the cache): the totals
   are exact as soon as every directory found has been listed, and until
   then are shown as lower bounds ("≥").  */

#include <config.h>

#include "progress.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <langinfo.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "gethrxtime.h"
#include "gettext.h"
#include "human.h"
#include "minmax.h"
#include "progname.h"
#include "unistd-safer.h"

#define _(msgid) gettext (msgid)

/* At most ten lines a second: faster is unreadable and costs writes.  */
#define REDRAW_NS (100 * 1000 * 1000LL)

/* The rate is measured over the last RING redraws (about three seconds
   at full speed): steady enough to read, quick to follow a change of
   method or of disk.  */
enum { RING = 32 };

/* The longest status line or summary, in bytes.  */
enum { LINE_MAX_BYTES = 256 };

/* How human_readable writes a number of bytes: "2 B", "6.8 MiB", "123
   MiB", rounded down, so that what is done never shows as more than it
   is.  */
enum
{
  SIZE_OPTS = (human_autoscale | human_base_1024 | human_SI | human_B
               | human_space_before_unit | human_floor)
};

/* A buffer for one number of bytes so written.  */
typedef char size_buf[LONGEST_HUMAN_READABLE + 1];

struct sample
{
  long long ns;
  intmax_t done;
};

static struct
{
  bool active;
  bool tty;                     /* stderr is a terminal: keep within WIDTH */
  bool erase_esc;               /* and it knows ESC [ K (not TERM=dumb) */
  bool utf8;                    /* "≥" can be written, else ">=" */
  size_t width;                 /* the terminal's columns; 0: no limit */
  long long start_ns;
  long long last_draw_ns;
  bool shown;                   /* a status line is on the screen */
  bool hidden;                  /* progress_hide took it off */
  size_t shown_cols;            /* its columns */

  intmax_t files_found, files_done;
  intmax_t bytes_total;         /* found, then corrected to what moved */
  intmax_t bytes_done;
  intmax_t file_moved;          /* of the current file */
  intmax_t by_method[PROGRESS_METHODS];
  intmax_t dirs_pending;        /* directories found, not listed yet */
  int method;                   /* of the last chunk, or -1 */

  struct sample ring[RING];
  size_t ring_head, ring_len;
} p = { .method = -1 };

static volatile sig_atomic_t winch;

/* What a fatal signal (^C) writes to take the status line off the
   screen, so that the shell's prompt does not land on it: written by
   draw, emptied by erase_line.  */
static char fatal_erase[LINE_MAX_BYTES + 2];
static volatile sig_atomic_t fatal_erase_len;
/* The terminal, opened anew without blocking: a terminal whose output
   is stopped (^S, or a stalled ssh session) would otherwise hold the
   handler in write, and the signal would not end cpr.  -1: none.  */
static int fatal_fd = -1;

/* SIGINT, SIGTERM, SIGHUP, SIGQUIT while the line is shown: erase it,
   then die of the signal as without the handler (it was installed with
   SA_RESETHAND and SA_NODEFER).  */
static void
on_fatal (int sig)
{
  if (fatal_erase_len && 0 <= fatal_fd)
    {
      ssize_t r = write (fatal_fd, fatal_erase, fatal_erase_len);
      (void) r;
    }
  raise (sig);
}

/* Catch the signals that end cpr at a terminal, unless ignored.  */
static void
catch_fatal (void)
{
  static int const sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
  /* A file description of its own: O_NONBLOCK on standard error's
     would be seen by every process that shares it.  */
  /* Above standard error: were standard output closed, the terminal
     would otherwise take its number, and receive its writes.  */
  fatal_fd = fd_safer_flag (open ("/proc/self/fd/2",
                                  O_WRONLY | O_NOCTTY | O_NONBLOCK
                                  | O_CLOEXEC), O_CLOEXEC);
  struct sigaction sa = { .sa_handler = on_fatal,
                          .sa_flags = SA_RESETHAND | SA_NODEFER };
  sigemptyset (&sa.sa_mask);
  for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
    {
      struct sigaction old;
      if (sigaction (sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
        sigaction (sigs[i], &sa, NULL);
    }
}

/* What erases a line of COLS columns now.  */
static void
set_fatal_erase (size_t cols)
{
  fatal_erase_len = 0;
  size_t n = MIN (cols, LINE_MAX_BYTES);
  if (p.erase_esc)
    {
      memcpy (fatal_erase, "\r\033[K", 4);
      fatal_erase_len = 4;
      return;
    }
  fatal_erase[0] = '\r';
  memset (fatal_erase + 1, ' ', n);
  fatal_erase[n + 1] = '\r';
  fatal_erase_len = n + 2;
}

/* SIGWINCH: only note it; the next redraw reads the new width.  */
static void
on_winch (int sig)
{
  (void) sig;
  winch = 1;
}

static void
read_width (void)
{
  struct winsize ws;
  p.width = (ioctl (STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && 0 < ws.ws_col
             ? ws.ws_col : 80);
}

/* Whether the locale writes UTF-8, so that "≥" shows as one column.  */
static bool
utf8_locale (void)
{
  char const *cs = nl_langinfo (CODESET);
  return (strcmp (cs, "UTF-8") == 0 || strcmp (cs, "utf-8") == 0
          || strcmp (cs, "utf8") == 0);
}

/* The columns of the first N bytes of S: every byte that does not
   continue a UTF-8 character is one (the line holds no wide ones).  */
static size_t
columns (char const *s, size_t n)
{
  size_t cols = 0;
  for (size_t i = 0; i < n; i++)
    cols += (s[i] & 0xC0) != 0x80;
  return cols;
}

/* The bytes of the status line S that fit in COLS columns: the fields
   (two spaces apart) that fit whole, or the first one cut between
   characters if even it does not.  */
static size_t
fit (char const *s, size_t cols)
{
  size_t n = 0, c = 0;
  for (; s[n]; n++)
    if ((s[n] & 0xC0) != 0x80 && c++ == cols)
      break;
  if (!s[n])
    return n;
  for (size_t i = n; 0 < i; i--)
    if (s[i - 1] == ' ' && s[i] == ' ')
      return i - 1;
  return n;
}

/* Append to the string BUF of SIZE bytes as printf would.  */
static void
append (char *buf, size_t size, char const *fmt, ...)
  _GL_ATTRIBUTE_FORMAT ((__printf__, 3, 4));
static void
append (char *buf, size_t size, char const *fmt, ...)
{
  size_t len = strlen (buf);
  if (size <= len + 1)
    return;
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (buf + len, size - len, fmt, ap);
  va_end (ap);
}

/* SECONDS as H:MM:SS, or M:SS under an hour.  */
static char const *
clock_words (intmax_t seconds, char *buf, size_t size)
{
  if (seconds < 3600)
    snprintf (buf, size, "%jd:%02jd", seconds / 60, seconds % 60);
  else
    snprintf (buf, size, "%jd:%02jd:%02jd", seconds / 3600,
              seconds / 60 % 60, seconds % 60);
  return buf;
}

/* The words for HOW in the status line and the summary.  */
static char const *
method_word (int how, bool past)
{
  switch (how)
    {
    case PROGRESS_CLONE: return past ? _("cloned") : _("clone");
    case PROGRESS_SERVER: return _("server-side copy");
    case PROGRESS_KERNEL: return _("in-kernel copy");
    case PROGRESS_READ_WRITE: return _("read/write");
    default: return "";
    }
}

/* N for ngettext, which takes an unsigned long: a count too large for
   it is plural all the same.  */
static unsigned long
select_plural (intmax_t n)
{
  return 0 <= n && n <= 1000000 ? n : 1000000 + n % 1000000;
}

/* Whether the totals may still grow: a directory found is not listed.  */
static bool
open_totals (void)
{
  return 0 < p.dirs_pending;
}

static char const *
at_least (void)
{
  return !open_totals () ? "" : p.utf8 ? "\u2265" : ">=";
}

/* The bytes that took work to copy: by the kernel, the file server or
   read and write.  A hole and a clone cost about nothing whatever their
   size, so a rate that counted them would say nothing of how long the
   rest takes (a sparse file made it terabytes a second).  */
static intmax_t
copied_bytes (void)
{
  return (p.by_method[PROGRESS_SERVER] + p.by_method[PROGRESS_KERNEL]
          + p.by_method[PROGRESS_READ_WRITE]);
}

/* Bytes copied a second over the samples in the ring, up to NOW; 0 if
   unknown.  */
static double
current_rate (long long now)
{
  if (p.ring_len == 0)
    return 0;
  struct sample const *old = &p.ring[(p.ring_head + RING - p.ring_len)
                                     % RING];
  long long ns = now - old->ns;
  return ns <= 0 ? 0 : (copied_bytes () - old->done) * 1e9 / ns;
}

static void
push_sample (long long now)
{
  p.ring[p.ring_head] = (struct sample) { now, copied_bytes () };
  p.ring_head = (p.ring_head + 1) % RING;
  p.ring_len = MIN (p.ring_len + 1, RING);
}

/* "123 MiB / 273 MiB (45%)": the percentage only once the total is
   known, rounded down, so that 100% means every byte is there.  */
static void
bytes_field (char *line, size_t size, intmax_t total)
{
  size_buf done_s, total_s;
  append (line, size, "%s / %s%s",
          human_readable (p.bytes_done, done_s, SIZE_OPTS, 1, 1),
          at_least (), human_readable (total, total_s, SIZE_OPTS, 1, 1));
  if (!open_totals () && 0 < total)
    append (line, size, " (%d%%)", (int) (p.bytes_done * 100.0L / total));
}

/* "512 MiB/s  ETA 0:03": the rate of the bytes copied, and the time
   the rest would take at it (holes and clones to come make it less),
   a lower bound too while the totals are.  */
static void
rate_fields (char *line, size_t size, intmax_t total, long long now)
{
  double rate = current_rate (now);
  size_buf buf;
  if (rate <= 0)
    return;
  append (line, size, "  %s/s", human_readable (rate, buf, SIZE_OPTS, 1, 1));
  double left = (total - p.bytes_done) / rate;
  if (left < 100 * 3600)
    append (line, size, "  ETA %s%s", at_least (),
            clock_words (left + 0.999, buf, sizeof buf));
}

/* The status line at NOW into LINE of SIZE bytes.  */
static void
format_status (char *line, size_t size, long long now)
{
  intmax_t total = MAX (p.bytes_total, p.bytes_done);
  intmax_t files = MAX (p.files_found, p.files_done);
  line[0] = '\0';
  bytes_field (line, size, total);
  append (line, size, (open_totals ()
                       ? _("  %jd/%s%jd files")
                       : ngettext ("  %jd/%s%jd file", "  %jd/%s%jd files",
                                   select_plural (files))),
          p.files_done, at_least (), files);
  rate_fields (line, size, total, now);
  if (0 <= p.method)
    append (line, size, "  %s", method_word (p.method, false));
}

/* Write the N bytes at S to standard error, in one write.  */
static void
put (char const *s, size_t n)
{
  fwrite (s, 1, n, stderr);
}

/* Take the status line off the screen: erase to the end of the line,
   or overwrite it with blanks where the terminal may not know how.  */
static void
erase_line (void)
{
  char buf[LINE_MAX_BYTES + 2];
  size_t n = MIN (p.shown_cols, LINE_MAX_BYTES);
  if (p.erase_esc)
    put ("\r\033[K", 4);
  else
    {
      buf[0] = '\r';
      memset (buf + 1, ' ', n);
      buf[n + 1] = '\r';
      put (buf, n + 2);
    }
  p.shown = false;
  fatal_erase_len = 0;
}

/* Draw the status line at NOW in place of the one on the screen, cut
   to the terminal's width less one column: writing the last column
   would make some terminals wrap.  */
static void
draw (long long now)
{
  if (winch)
    {
      winch = 0;
      read_width ();
    }
  char line[LINE_MAX_BYTES];
  format_status (line, sizeof line, now);
  size_t n = strlen (line);
  if (p.width)
    n = fit (line, p.width - 1);
  size_t cols = columns (line, n);

  char out[LINE_MAX_BYTES * 2 + 8];
  size_t len = 0;
  out[len++] = '\r';
  memcpy (out + len, line, n);
  len += n;
  if (p.erase_esc)
    {
      memcpy (out + len, "\033[K", 3);
      len += 3;
    }
  else
    for (size_t c = cols; c < p.shown_cols && len < sizeof out; c++)
      out[len++] = ' ';
  put (out, len);
  set_fatal_erase (cols);
  p.shown = true;
  p.hidden = false;
  p.shown_cols = cols;
  p.last_draw_ns = now;
  push_sample (now);
}

/* Redraw if the last redraw is old enough.  */
static void
tick (void)
{
  long long now = gethrxtime ();
  if (REDRAW_NS <= now - p.last_draw_ns)
    draw (now);
}

/* error()'s prefix while the display is active: take the status line
   off first, so that the message starts at the left margin.  */
static void
error_prefix (void)
{
  progress_hide ();
  fprintf (stderr, "%s: ", program_name);
}

void
progress_start (enum progress_when when)
{
  bool tty = isatty (STDERR_FILENO);
  if (when == PROGRESS_NEVER || (when == PROGRESS_AUTO && !tty))
    return;
  p.active = true;
  p.tty = tty;
  p.utf8 = utf8_locale ();
  if (tty)
    {
      char const *term = getenv ("TERM");
      p.erase_esc = !(term && strcmp (term, "dumb") == 0);
      read_width ();
      struct sigaction sa = { .sa_handler = on_winch,
                              .sa_flags = SA_RESTART };
      sigemptyset (&sa.sa_mask);
      sigaction (SIGWINCH, &sa, NULL);
      catch_fatal ();
    }
  p.start_ns = p.last_draw_ns = gethrxtime ();
  push_sample (p.start_ns);
  error_print_progname = error_prefix;
}

bool
progress_active (void)
{
  return p.active;
}

void
progress_found_file (off_t bytes)
{
  if (!p.active)
    return;
  p.files_found++;
  p.bytes_total += bytes;
}

void
progress_found_dir (void)
{
  if (p.active)
    p.dirs_pending++;
}

void
progress_dir_listed (void)
{
  if (p.active && 0 < p.dirs_pending)
    p.dirs_pending--;
}

void
progress_moved (off_t bytes, enum progress_method how)
{
  if (!p.active || bytes <= 0)
    return;
  p.bytes_done += bytes;
  p.file_moved += bytes;
  p.by_method[how] += bytes;
  if (how != PROGRESS_HOLE)
    p.method = how;
  tick ();
}

void
progress_file_done (off_t expected)
{
  if (!p.active)
    return;
  p.files_done++;
  p.bytes_total += p.file_moved - expected;
  p.file_moved = 0;
  tick ();
}

void
progress_hide (void)
{
  if (!p.active || !p.shown)
    return;
  erase_line ();
  p.hidden = true;
}

void
progress_prompted (void)
{
  if (p.active && !isatty (STDIN_FILENO))
    put ("\n", 1);
}

void
progress_resume (void)
{
  if (!p.active)
    return;
  fflush (stdout);
  if (p.hidden)
    draw (gethrxtime ());
}

/* The summary's "; 0 bytes moved: cloned": the bytes that went through
   this machine (the kernel's copy through its page cache, or read and
   write), then each method that moved bytes, with its share when there
   are several.  A clone or a server-side copy moves nothing here.  */
static void
moved_words (char *line, size_t size)
{
  size_buf buf;
  intmax_t moved = (p.by_method[PROGRESS_KERNEL]
                    + p.by_method[PROGRESS_READ_WRITE]);
  int used = 0;
  for (int m = 0; m < PROGRESS_HOLE; m++)
    used += 0 < p.by_method[m];
  append (line, size, _("; %s moved"),
          human_readable (moved, buf, SIZE_OPTS, 1, 1));
  char const *sep = ": ";
  for (int m = 0; m < PROGRESS_HOLE; m++)
    if (0 < p.by_method[m])
      {
        append (line, size, "%s%s", sep, method_word (m, true));
        if (1 < used)
          append (line, size, " %s",
                  human_readable (p.by_method[m], buf, SIZE_OPTS, 1, 1));
        sep = ", ";
      }
}

/* ELAPSED nanoseconds as "2.1 s", or as a clock past a minute.  */
static char const *
elapsed_words (long long elapsed, char *buf, size_t size)
{
  if (elapsed < 60 * 1000000000LL)
    snprintf (buf, size, "%.1f s", elapsed / 1e9);
  else
    clock_words (elapsed / 1000000000, buf, size);
  return buf;
}

void
progress_finish (void)
{
  if (!p.active)
    return;
  long long now = gethrxtime ();
  long long elapsed = now - p.start_ns;
  char line[LINE_MAX_BYTES], time_s[32];
  size_buf size_s, rate_s;
  snprintf (line, sizeof line,
            ngettext ("%jd file: %s in %s", "%jd files: %s in %s",
                      select_plural (p.files_done)),
            p.files_done,
            human_readable (p.bytes_done, size_s, SIZE_OPTS, 1, 1),
            elapsed_words (elapsed, time_s, sizeof time_s));
  /* The rate of what took work: none for holes and clones only.  */
  if (0 < elapsed && 0 < copied_bytes ())
    append (line, sizeof line, ", %s/s",
            human_readable (copied_bytes () * 1e9L / elapsed, rate_s,
                            SIZE_OPTS, 1, 1));
  moved_words (line, sizeof line);
  if (p.shown)
    erase_line ();
  fprintf (stderr, "%s\n", line);
  p.active = false;
  error_print_progname = NULL;
}
