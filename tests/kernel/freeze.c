/* fsfreeze waits for one step of a long copy_range(2), not for the whole
   copy, and the copy goes on after the thaw.
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

/* Usage: freeze FSNAME DIR [MOUNTPOINT]

   A child copies a 1 GiB sparse file in DIR through the page cache with
   copy_range, in one call if the kernel lets it.  Once the copy is under
   way the parent freezes the filesystem mounted on MOUNTPOINT (by
   default DIR, which is then a mount point; for an overlayfs DIR, the
   filesystem of its upper layer) with FIFREEZE, as fsfreeze -f does.
   The freeze must return within FREEZE_LIMIT seconds while the copy is
   still running, and the copy must then stand still; after the thaw it
   must finish with no call failing, and equal the source.  A kernel that
   holds freeze protection across the whole call makes the freeze wait
   for the end of the copy.

   The dirty page limits are lowered for the test (and restored), so that
   the freeze's own writeback of dirty data is short.  */

#include <config.h>

#include "cr-test.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/fs.h>

enum { PAGE = 4096 };

/* Seconds the freeze may take: one 4 MiB step and the writeback of at
   most the lowered dirty limit, on a slow emulated machine.  */
static double const freeze_limit = 5;

struct shared
{
  volatile int started, done;
  volatile long calls;
  char detail[256];
};

static int mnt_fd = -1;
static volatile sig_atomic_t frozen;

static void
sleep_for (double s)
{
  struct timespec ts = { (time_t) s, (long) ((s - (time_t) s) * 1e9) };
  while (nanosleep (&ts, &ts) != 0 && errno == EINTR)
    continue;
}

/* The whole test is bounded: a filesystem left frozen would hang every
   test after this one, so thaw it before giving up.  */
static void
on_timeout (int sig)
{
  static char const msg[] = "freeze: timed out\n";
  if (frozen)
    ioctl (mnt_fd, FITHAW, 0);
  write (STDERR_FILENO, msg, sizeof msg - 1);
  _exit (CR_EXIT_ERROR);
}

/* The vm.dirty_* settings, saved and restored.  */
static char const *const vm_knobs[] = {
  "/proc/sys/vm/dirty_ratio", "/proc/sys/vm/dirty_bytes",
  "/proc/sys/vm/dirty_background_ratio",
  "/proc/sys/vm/dirty_background_bytes"
};
enum { N_KNOBS = sizeof vm_knobs / sizeof *vm_knobs };
static char saved[N_KNOBS][32];

static bool
read_knob (char const *path, char *buf, size_t size)
{
  int fd = open (path, O_RDONLY);
  if (fd < 0)
    return false;
  ssize_t n = read (fd, buf, size - 1);
  close (fd);
  if (n <= 0)
    return false;
  buf[n] = '\0';
  buf[strcspn (buf, "\n")] = '\0';
  return true;
}

static void
write_knob (char const *path, char const *value)
{
  int fd = open (path, O_WRONLY);
  if (fd < 0 || write (fd, value, strlen (value)) < 0)
    cr_die ("write %s to %s", value, path);
  close (fd);
}

static bool
lower_dirty_limits (void)
{
  for (int i = 0; i < N_KNOBS; i++)
    if (!read_knob (vm_knobs[i], saved[i], sizeof saved[i]))
      return false;
  write_knob ("/proc/sys/vm/dirty_bytes", "67108864");
  write_knob ("/proc/sys/vm/dirty_background_bytes", "16777216");
  return true;
}

/* Writing one of each pair resets the other, so write the one in use.  */
static void
restore_dirty_limits (void)
{
  for (int i = 0; i < N_KNOBS; i += 2)
    {
      bool bytes = strcmp (saved[i + 1], "0") != 0;
      write_knob (vm_knobs[i + bytes], saved[i + bytes]);
    }
}

/* The child: copy everything, checking each call.  */
static void
copier (int src, int dst, off_t size, struct shared *sh)
{
  off_t in = 0, out = 0;
  sh->started = 1;
  while (in < size)
    {
      off_t in0 = in, out0 = out;
      errno = 0;
      ssize_t r = cr_copy_range (src, &in, dst, &out, size - in);
      int e = errno;
      sh->calls++;
      if (r <= 0)
        {
          snprintf (sh->detail, sizeof sh->detail,
                    "copy_range call %ld at %lld: %s", sh->calls,
                    (long long) in0, r < 0 ? strerror (e) : "returned 0");
          break;
        }
      if (in != in0 + r || out != out0 + r)
        {
          snprintf (sh->detail, sizeof sh->detail,
                    "call %ld returned %zd but the offsets moved by %lld, "
                    "%lld", sh->calls, r, (long long) (in - in0),
                    (long long) (out - out0));
          break;
        }
    }
  sh->done = 1;
}

int
main (int argc, char **argv)
{
  cr_start (argc == 4 ? 3 : argc, argv, "FSNAME DIR [MOUNTPOINT]");
  char const *frozen_mnt = argc == 4 ? argv[3] : argv[2];
  char const *fs = argv[1];
  mnt_fd = open (frozen_mnt, O_RDONLY | O_DIRECTORY);
  if (mnt_fd < 0)
    cr_die ("open %s", frozen_mnt);
  char *dir = cr_make_dir (argv[2], "cr-freeze");
  off_t const size = (1LL << 30) + 5 * PAGE + 3;
  uint64_t seed = cr_seed (), rng = seed;
  printf ("# %s on %s, seed %#llx\n", fs, dir, (unsigned long long) seed);

  int src = cr_create (dir, "src");
  int dst = cr_create (dir, "dst");
  struct cr_island *islands;
  size_t n = cr_write_islands (src, size, 777, 32 << 20, 2 * PAGE + 11,
                               &rng, &islands);
  if (fsync (src) != 0)
    cr_die ("fsync");

  if (!lower_dirty_limits ())
    cr_die ("reading /proc/sys/vm/dirty_*");
  struct sigaction sa = { .sa_handler = on_timeout };
  sigemptyset (&sa.sa_mask);
  sigaction (SIGALRM, &sa, NULL);
  alarm (300);

  struct shared *sh = mmap (NULL, sizeof *sh, PROT_READ | PROT_WRITE,
                            MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (sh == MAP_FAILED)
    cr_die ("mmap");
  memset (sh, 0, sizeof *sh);
  fflush (stdout);
  double t_start = cr_now ();
  pid_t pid = fork ();
  if (pid < 0)
    cr_die ("fork");
  if (pid == 0)
    {
      alarm (0);
      copier (src, dst, size, sh);
      _exit (0);
    }

  char detail[512] = "";
  /* Under way: the copy has written something, then 0.3 s more.  */
  while (!sh->done && cr_file_size (dst) < (8 << 20))
    sleep_for (0.01);
  sleep_for (0.3);
  off_t before = cr_file_size (dst);
  double t0 = cr_now ();
  if (ioctl (mnt_fd, FIFREEZE, 0) != 0)
    {
      int e = errno;
      kill (pid, SIGKILL);
      waitpid (pid, NULL, 0);
      restore_dirty_limits ();
      errno = e;
      cr_die ("FIFREEZE %s", frozen_mnt);
    }
  frozen = 1;
  double t1 = cr_now ();
  int done_at_freeze = sh->done;
  off_t at_freeze = cr_file_size (dst);
  sleep_for (1);
  off_t after_pause = cr_file_size (dst);
  int done_after_pause = sh->done;
  if (ioctl (mnt_fd, FITHAW, 0) != 0)
    cr_die ("FITHAW %s", frozen_mnt);
  frozen = 0;
  double t2 = cr_now ();

  int status;
  if (waitpid (pid, &status, 0) != pid)
    cr_die ("waitpid");
  double t3 = cr_now ();
  alarm (0);
  restore_dirty_limits ();

  printf ("# copy started %.1f s before the freeze, %lld bytes copied "
          "then; the freeze took %.2f s; %lld bytes copied when frozen, "
          "%lld a second later; the copy ended %.1f s after the thaw, "
          "%.1f s in all, in %ld calls\n",
          t0 - t_start, (long long) before, t1 - t0,
          (long long) at_freeze, (long long) after_pause, t3 - t2,
          t3 - t_start, sh->calls);

  if (done_at_freeze)
    snprintf (detail, sizeof detail,
              "the freeze took %.1f s and returned only after the whole "
              "copy (%.1f s): freeze protection is held across the call",
              t1 - t0, t1 - t_start);
  else if (t1 - t0 > freeze_limit)
    snprintf (detail, sizeof detail,
              "the freeze took %.1f s, more than %.0f s", t1 - t0,
              freeze_limit);
  else if (done_after_pause || after_pause != at_freeze)
    snprintf (detail, sizeof detail,
              "the copy went on while the filesystem was frozen (%lld, "
              "then %lld bytes%s)", (long long) at_freeze,
              (long long) after_pause, done_after_pause ? ", finished" : "");
  if (sh->detail[0])
    {
      size_t len = strlen (detail);
      snprintf (detail + len, sizeof detail - len, "%s%s",
                len ? "; " : "", sh->detail);
    }
  else if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    snprintf (detail, sizeof detail, "the copier ended with status %#x",
              status);
  if (!detail[0])
    {
      off_t diff;
      if (cr_file_size (dst) != size)
        snprintf (detail, sizeof detail, "size %lld, expected %lld",
                  (long long) cr_file_size (dst), (long long) size);
      else if ((diff = cr_compare_sparse (dst, 0, size, islands, n)) >= 0)
        snprintf (detail, sizeof detail, "first wrong byte at %lld",
                  (long long) diff);
    }
  printf ("%s: %s: fsfreeze during a 1 GiB copy%s%s\n",
          detail[0] ? "FAIL" : "PASS", fs, detail[0] ? ": " : "", detail);
  close (src);
  close (dst);
  cr_remove_tree (dir);
  free (dir);
  return detail[0] ? CR_EXIT_FAIL : CR_EXIT_PASS;
}
