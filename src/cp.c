/* cp.c -- cpr's command line: a drop-in GNU cp that moves data with
   copy_range.
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

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "argmatch.h"
#include "closeout.h"
#include "copy.h"
#include "dirname.h"
#include "error.h"
#include "filenamecat.h"
#include "gettext.h"
#include "progname.h"
#include "progress.h"
#include "quote.h"
#include "stat-time.h"
#include "version-etc.h"
#include "xalloc.h"
#include "xstrtol.h"

#define _(msgid) gettext (msgid)

#define AUTHORS "the copyrange developers"

/* The notice --version prints, with version_etc's "(C)" sign (%s); the
   year is the project's, not the one gnulib passes.  */
char const version_etc_copyright[] =
  "Copyright %s 2026 The copyrange authors.";

/* Long options without a short equivalent.  */
enum
{
  ATTRIBUTES_ONLY_OPTION = CHAR_MAX + 1,
  CONTINUE_OPTION,
  COPY_CONTENTS_OPTION,
  DEBUG_OPTION,
  NO_PRESERVE_ATTRIBUTES_OPTION,
  PARENTS_OPTION,
  PRESERVE_ATTRIBUTES_OPTION,
  PROGRESS_OPTION,
  REFLINK_OPTION,
  SPARSE_OPTION,
  STRIP_TRAILING_SLASHES_OPTION,
  UNLINK_DEST_BEFORE_OPENING,
  DEREFERENCE_ABBREV_OPTION,
  DEBUG_ABBREV_OPTION,
  PROGRESS_ABBREV_OPTION,
  CONTINUE_ABBREV_OPTION,
  JOBS_ABBREV_OPTION,
  C_AMBIGUOUS_OPTION,
  P_AMBIGUOUS_OPTION,
  HELP_OPTION,
  VERSION_OPTION
};

/* In GNU cp's order, which shows in getopt's list of the possible
   meanings of an ambiguous abbreviation.  */
static struct option const long_options[] =
{
  {"archive", no_argument, NULL, 'a'},
  {"attributes-only", no_argument, NULL, ATTRIBUTES_ONLY_OPTION},
  {"backup", optional_argument, NULL, 'b'},
  {"copy-contents", no_argument, NULL, COPY_CONTENTS_OPTION},
  {"context", optional_argument, NULL, 'Z'},
  {"continue", no_argument, NULL, CONTINUE_OPTION},
  {"debug", no_argument, NULL, DEBUG_OPTION},
  {"dereference", no_argument, NULL, 'L'},
  {"force", no_argument, NULL, 'f'},
  {"interactive", no_argument, NULL, 'i'},
  {"jobs", required_argument, NULL, 'j'},
  {"link", no_argument, NULL, 'l'},
  {"no-clobber", no_argument, NULL, 'n'},
  {"no-dereference", no_argument, NULL, 'P'},
  {"no-preserve", required_argument, NULL, NO_PRESERVE_ATTRIBUTES_OPTION},
  {"no-target-directory", no_argument, NULL, 'T'},
  {"one-file-system", no_argument, NULL, 'x'},
  {"parents", no_argument, NULL, PARENTS_OPTION},
  {"preserve", optional_argument, NULL, PRESERVE_ATTRIBUTES_OPTION},
  {"progress", optional_argument, NULL, PROGRESS_OPTION},
  {"recursive", no_argument, NULL, 'R'},
  {"remove-destination", no_argument, NULL, UNLINK_DEST_BEFORE_OPENING},
  {"reflink", optional_argument, NULL, REFLINK_OPTION},
  {"sparse", required_argument, NULL, SPARSE_OPTION},
  {"strip-trailing-slashes", no_argument, NULL,
   STRIP_TRAILING_SLASHES_OPTION},
  {"suffix", required_argument, NULL, 'S'},
  {"symbolic-link", no_argument, NULL, 's'},
  {"target-directory", required_argument, NULL, 't'},
  {"update", no_argument, NULL, 'u'},
  {"verbose", no_argument, NULL, 'v'},
  {"help", no_argument, NULL, HELP_OPTION},
  {"version", no_argument, NULL, VERSION_OPTION},
  /* GNU cp 9.1 has no --debug, so there --d and --de abbreviate
     --dereference; exact entries keep them doing so.  They take an
     optional argument only so that "--d=X" is refused in the name of
     --dereference, as GNU cp refuses it, not of "--d".  */
  {"d", optional_argument, NULL, DEREFERENCE_ABBREV_OPTION},
  {"de", optional_argument, NULL, DEREFERENCE_ABBREV_OPTION},
  /* Nor are --deb and --debu anything to GNU cp 9.1, which refuses
     them as unknown; only the whole --debug is cpr's.  */
  {"deb", optional_argument, NULL, DEBUG_ABBREV_OPTION},
  {"debu", optional_argument, NULL, DEBUG_ABBREV_OPTION},
  /* The same for --progress, cpr's too: to GNU cp 9.1 --p is ambiguous
     between --parents and --preserve only, and --pr is --preserve;
     --pro to --progres are unknown.  */
  {"p", optional_argument, NULL, P_AMBIGUOUS_OPTION},
  {"pr", optional_argument, NULL, PRESERVE_ATTRIBUTES_OPTION},
  {"pro", optional_argument, NULL, PROGRESS_ABBREV_OPTION},
  {"prog", optional_argument, NULL, PROGRESS_ABBREV_OPTION},
  {"progr", optional_argument, NULL, PROGRESS_ABBREV_OPTION},
  {"progre", optional_argument, NULL, PROGRESS_ABBREV_OPTION},
  {"progres", optional_argument, NULL, PROGRESS_ABBREV_OPTION},
  /* And for --continue: to GNU cp 9.1 --c and --co are ambiguous
     between --copy-contents and --context only, --con and --cont are
     --context, and --conti to --continu unknown.  */
  {"c", optional_argument, NULL, C_AMBIGUOUS_OPTION},
  {"co", optional_argument, NULL, C_AMBIGUOUS_OPTION},
  {"con", optional_argument, NULL, 'Z'},
  {"cont", optional_argument, NULL, 'Z'},
  {"conti", optional_argument, NULL, CONTINUE_ABBREV_OPTION},
  {"contin", optional_argument, NULL, CONTINUE_ABBREV_OPTION},
  {"continu", optional_argument, NULL, CONTINUE_ABBREV_OPTION},
  /* And --jobs: --j to --job are nothing to GNU cp 9.1.  */
  {"j", optional_argument, NULL, JOBS_ABBREV_OPTION},
  {"jo", optional_argument, NULL, JOBS_ABBREV_OPTION},
  {"job", optional_argument, NULL, JOBS_ABBREV_OPTION},
  {NULL, 0, NULL, 0}
};

static char const *const sparse_args[] = { "never", "auto", "always", NULL };
static enum sparse_mode const sparse_vals[] =
  { SPARSE_NEVER, SPARSE_AUTO, SPARSE_ALWAYS };
ARGMATCH_VERIFY (sparse_args, sparse_vals);

static char const *const progress_args[] =
  { "auto", "always", "never", NULL };
static enum progress_when const progress_vals[] =
  { PROGRESS_AUTO, PROGRESS_ALWAYS, PROGRESS_NEVER };
ARGMATCH_VERIFY (progress_args, progress_vals);

static char const *const reflink_args[] = { "auto", "always", "never", NULL };
static enum reflink_mode const reflink_vals[] =
  { REFLINK_AUTO, REFLINK_ALWAYS, REFLINK_NEVER };
ARGMATCH_VERIFY (reflink_args, reflink_vals);

enum preserve_attr
{
  PRESERVE_MODE, PRESERVE_TIMESTAMPS, PRESERVE_OWNERSHIP, PRESERVE_LINKS,
  PRESERVE_CONTEXT, PRESERVE_XATTR, PRESERVE_ALL
};
static char const *const preserve_args[] =
  { "mode", "timestamps", "ownership", "links", "context", "xattr", "all",
    NULL };
static enum preserve_attr const preserve_vals[] =
  { PRESERVE_MODE, PRESERVE_TIMESTAMPS, PRESERVE_OWNERSHIP, PRESERVE_LINKS,
    PRESERVE_CONTEXT, PRESERVE_XATTR, PRESERVE_ALL };
ARGMATCH_VERIFY (preserve_args, preserve_vals);

/* What the command line asks for beyond the engine's options.  */
struct cli
{
  struct cp_options x;          /* the copy engine's options */
  bool make_backups;            /* -b, --backup or -S seen */
  char const *version_control;  /* --backup's CONTROL, or NULL */
  char const *backup_suffix;    /* -S's SUFFIX, or NULL */
  bool copy_contents;           /* --copy-contents */
  bool parents;                 /* --parents */
  bool strip_trailing_slashes;  /* --strip-trailing-slashes */
  char const *target_directory; /* -t's DIRECTORY, or NULL */
  bool no_target_directory;     /* -T */
  bool require_preserve_context; /* --preserve=context asked explicitly */
  enum progress_when progress;  /* --progress's WHEN */
};

static void
emit_try_help (void)
{
  fprintf (stderr, _("Try '%s --help' for more information.\n"),
           program_name);
}

/* Exit with STATUS, after the help text or a hint towards it.  */
static _Noreturn void
usage (int status)
{
  if (status != EXIT_SUCCESS)
    {
      emit_try_help ();
      exit (status);
    }
  printf (_("\
Usage: %s [OPTION]... [-T] SOURCE DEST\n\
  or:  %s [OPTION]... SOURCE... DIRECTORY\n\
  or:  %s [OPTION]... -t DIRECTORY SOURCE...\n"),
          program_name, program_name, program_name);
  fputs (_("\
\n\
Copy SOURCE to DEST, or each SOURCE into DIRECTORY, moving the data with\n\
the copy_range system call where the kernel has it.\n\
\n\
A mandatory argument of a long option is mandatory for its short form too.\n\
"), stdout);
  fputs (_("\
  -a, --archive                as -dR --preserve=all\n\
      --attributes-only        copy attributes only, not the data\n\
      --backup[=CONTROL]       back up each destination that exists\n\
  -b                           as --backup, without an argument\n\
      --continue               go on with the partial copies that an\n\
                                 interrupted cpr left (see below)\n\
      --copy-contents          with -R, read special files like regular ones\n\
  -d                           as --no-dereference --preserve=links\n\
      --debug                  say how each file's data was copied (implies -v)\n\
  -f, --force                  remove a destination that cannot be opened,\n\
                                 then try again (ignored with -n)\n\
  -i, --interactive            ask before overwriting (cancels an earlier -n)\n\
  -H                           follow symbolic links given as SOURCE\n\
  -j, --jobs=N                 copy up to N regular files at once (see below)\n\
"), stdout);
  fputs (_("\
  -l, --link                   make hard links, not copies\n\
  -L, --dereference            follow every symbolic link in SOURCE\n\
  -n, --no-clobber             never overwrite an existing file (cancels an\n\
                                 earlier -i)\n\
  -P, --no-dereference         never follow symbolic links in SOURCE\n\
  -p                           as --preserve=mode,ownership,timestamps\n\
      --preserve[=ATTR_LIST]   keep these attributes if possible (default\n\
                                 mode,ownership,timestamps; also context,\n\
                                 links, xattr, all)\n\
      --no-preserve=ATTR_LIST  do not keep these attributes\n\
      --parents                append each SOURCE's whole name to DIRECTORY\n\
      --progress[=WHEN]        show a status line on stderr (see below)\n\
"), stdout);
  fputs (_("\
  -R, -r, --recursive          copy directories and their contents\n\
      --reflink[=WHEN]         clone the data (see below)\n\
      --remove-destination     remove each existing destination before\n\
                                 opening it (unlike --force)\n\
      --sparse=WHEN            how to make holes in copies (see below)\n\
      --strip-trailing-slashes  drop trailing slashes from each SOURCE\n\
  -s, --symbolic-link          make symbolic links, not copies\n\
  -S, --suffix=SUFFIX          use SUFFIX for simple backups\n\
  -t, --target-directory=DIRECTORY  copy every SOURCE into DIRECTORY\n\
  -T, --no-target-directory    DEST is a file name, even for a directory\n\
"), stdout);
  fputs (_("\
  -u, --update                 copy only a SOURCE newer than its destination,\n\
                                 or whose destination is missing\n\
  -v, --verbose                name each file as it is copied\n\
  -x, --one-file-system        do not leave the file system of each SOURCE\n\
  -Z                           give copies the default SELinux context\n\
      --context[=CTX]          as -Z, or give copies the context CTX\n\
      --help        show this help, then exit\n\
      --version     show version information, then exit\n\
"), stdout);
  fputs (_("\
\n\
WHEN for --sparse: 'auto' (the default) finds holes in sparse-looking\n\
SOURCE files and makes the same holes in the copy; 'always' also turns\n\
long runs of zero bytes into holes; 'never' writes every byte.\n\
\n\
WHEN for --reflink: 'always' (the default for a bare --reflink) shares\n\
the data blocks with SOURCE, or fails where the file system cannot;\n\
'auto' (the default without the option) offloads the copy to the kernel\n\
with copy_range, which clones or copies on the server where it can, and\n\
otherwise copies normally; 'never' copies with read and write only.\n\
\n\
WHEN for --progress: 'auto' (the default for a bare --progress) if stderr\n\
is a terminal, 'always' or 'never'.\n\
"), stdout);
  fputs (_("\
\n\
N for --jobs: a number from 1 (the default: one file at a time) to 256,\n\
or 'auto', which is 8 where DEST is on a network file system (NFS, SMB,\n\
Ceph, ...) and 1 elsewhere.  With N above 1, new regular files are\n\
copied side by side, and nothing changes but the time: the copies, what\n\
is said about them and in which order, and the exit status are those of\n\
a copy one file at a time.  With -i or --progress, files are copied one\n\
at a time.\n\
"), stdout);
  fputs (_("\
\n\
A regular file that cpr creates has the sticky bit until its data and\n\
attributes are all there; a copy that got far carries the extended\n\
attribute user.cpr.partial, which says how far.  --continue takes up each\n\
such DEST of its own from where it stopped, if its SOURCE has not changed\n\
since, and copies every other file as without it.  -u never skips an\n\
unfinished DEST.\n\
"), stdout);
  fputs (_("\
\n\
Backups are named with the suffix '~', or the one given by --suffix or\n\
SIMPLE_BACKUP_SUFFIX.  CONTROL, or VERSION_CONTROL, chooses the kind:\n\
\n\
  none, off       no backups, even with --backup\n\
  numbered, t     numbered backups\n\
  existing, nil   numbered where numbered backups exist, else simple\n\
  simple, never   simple backups\n\
\n\
With --force and --backup, a SOURCE that is an existing regular file\n\
copied onto its own name is backed up.\n\
"), stdout);
  printf (_("\nReport bugs to: %s\n"), PACKAGE_BUGREPORT);
  exit (status);
}

/* Report the long option "--NAME" as glibc's getopt would, with
   MSGID, one of its messages, in its words and its text domain "libc"
   (so translated as GNU cp's are): cpr refuses some options itself
   (see long_options) and must say so as getopt says it of others.
   A macro, so that the compiler checks the arguments against MSGID
   (which gettext.h's dgettext without NLS would hide from it).  */
#if ENABLE_NLS
# define getopt_msg(msgid) dgettext ("libc", msgid)
#else
# define getopt_msg(msgid) (msgid)
#endif
#define getopt_error(msgid, name) \
  fprintf (stderr, getopt_msg (msgid), program_name, "--", name)

/* After argmatch's diagnostic about an option's argument.  */
static void
argmatch_failed (void)
{
  usage (EXIT_FAILURE);
}

/* Turn every attribute of --preserve or --no-preserve's comma-separated
   LIST on or off (ON).  */
static void
decode_preserve_arg (char const *list, struct cli *c, bool on)
{
  char *copy = xstrdup (list);
  char *s = copy;
  struct cp_options *x = &c->x;
  for (;;)
    {
      char *comma = strchr (s, ',');
      if (comma)
        *comma = '\0';
      enum preserve_attr a = XARGMATCH (on ? "--preserve" : "--no-preserve",
                                        s, preserve_args, preserve_vals);
      switch (a)
        {
        case PRESERVE_MODE:
          x->preserve_mode = on;
          x->explicit_no_preserve_mode = !on;
          break;
        case PRESERVE_TIMESTAMPS:
          x->preserve_timestamps = on;
          break;
        case PRESERVE_OWNERSHIP:
          x->preserve_ownership = on;
          break;
        case PRESERVE_LINKS:
          x->preserve_links = on;
          break;
        case PRESERVE_CONTEXT:
          x->preserve_security_context = on;
          c->require_preserve_context = on;
          break;
        case PRESERVE_XATTR:
          x->preserve_xattr = on;
          x->require_preserve_xattr = on;
          break;
        case PRESERVE_ALL:
          x->preserve_mode = on;
          x->preserve_timestamps = on;
          x->preserve_ownership = on;
          x->preserve_links = on;
          x->explicit_no_preserve_mode = !on;
          x->preserve_security_context = on;
          x->preserve_xattr = on;
          break;
        }
      if (!comma)
        break;
      s = comma + 1;
    }
  free (copy);
}

/* The defaults, before any option.  */
static void
cli_init (struct cli *c)
{
  memset (c, 0, sizeof *c);
  struct cp_options *x = &c->x;
  x->backup_type = no_backups;
  x->dereference = DEREF_UNDEFINED;
  x->interactive = I_ALWAYS_YES;
  x->data.reflink = REFLINK_AUTO;
  x->data.sparse = SPARSE_AUTO;
  x->jobs = 1;
  x->chown_privileges = geteuid () == 0;
  mode_t mask = umask (0);
  umask (mask);
  x->umask_kill = mask;
}

/* Parse ARGV into *C; return the index of the first operand.  */
/* cpr cannot set an SELinux context (see settle_options): say that a
   --context=CTX is ignored.  */
static void
warn_context_ignored (void)
{
  error (0, 0, _("warning: ignoring --context; "
                 "it requires an SELinux-enabled kernel"));
}

/* The most files --jobs copies at once: more threads than this only
   cost memory, whatever the file system.  */
enum { JOBS_MAX = 256 };

/* --jobs's ARG: a number from 1 to JOBS_MAX, in decimal digits alone,
   or "auto" (0).  Blanks, a sign, or a number outside the range that
   --help gives are refused, not read as some other number: that would
   hide a typo.  */
static size_t
decode_jobs (char const *arg)
{
  uintmax_t n;
  if (strcmp (arg, "auto") == 0)
    return 0;
  if (! ('0' <= arg[0] && arg[0] <= '9')
      || xstrtoumax (arg, NULL, 10, &n, "") != LONGINT_OK
      || n == 0 || JOBS_MAX < n)
    {
      error (0, 0, _("invalid number of jobs: %s"), quote (arg));
      usage (EXIT_FAILURE);
    }
  return n;
}

static int
parse_options (int argc, char **argv, struct cli *c)
{
  struct cp_options *x = &c->x;
  int opt;
  while ((opt = getopt_long (argc, argv, "abdfHij:lLnprst:uvxPRS:TZ",
                             long_options, NULL)) != -1)
    switch (opt)
      {
      case 'a':
        x->dereference = DEREF_NEVER;
        x->preserve_links = true;
        x->preserve_ownership = true;
        x->preserve_mode = true;
        x->preserve_timestamps = true;
        x->preserve_security_context = true;
        x->preserve_xattr = true;
        x->reduce_diagnostics = true;
        x->recursive = true;
        break;
      case ATTRIBUTES_ONLY_OPTION:
        x->data_copy_skipped = true;
        break;
      case 'b':
        c->make_backups = true;
        if (optarg)
          c->version_control = optarg;
        break;
      case CONTINUE_OPTION:
        x->resume = true;
        break;
      case COPY_CONTENTS_OPTION:
        c->copy_contents = true;
        break;
      case 'd':
        x->preserve_links = true;
        x->dereference = DEREF_NEVER;
        break;
      case DEBUG_OPTION:
        x->debug = x->verbose = true;
        break;
      case 'f':
        x->unlink_dest_after_failed_open = true;
        break;
      case 'H':
        x->dereference = DEREF_COMMAND_LINE_ARGUMENTS;
        break;
      case 'i':
        x->interactive = I_ASK_USER;
        break;
      case 'j':
        x->jobs = decode_jobs (optarg);
        break;
      case 'l':
        x->hard_link = true;
        break;
      case DEREFERENCE_ABBREV_OPTION:
        if (optarg)
          {
            getopt_error ("%s: option '%s%s' doesn't allow an argument\n",
                          "dereference");
            usage (EXIT_FAILURE);
          }
        x->dereference = DEREF_ALWAYS;
        break;
      case DEBUG_ABBREV_OPTION:
      case PROGRESS_ABBREV_OPTION:
      case CONTINUE_ABBREV_OPTION:
      case JOBS_ABBREV_OPTION:
        getopt_error ("%s: unrecognized option '%s%s'\n",
                      argv[optind - 1] + 2);
        usage (EXIT_FAILURE);
      case C_AMBIGUOUS_OPTION:
        getopt_error ("%s: option '%s%s' is ambiguous; possibilities:",
                      argv[optind - 1] + 2);
        fputs (" '--copy-contents' '--context'\n", stderr);
        usage (EXIT_FAILURE);
      case P_AMBIGUOUS_OPTION:
        getopt_error ("%s: option '%s%s' is ambiguous; possibilities:",
                      argv[optind - 1] + 2);
        fputs (" '--parents' '--preserve'\n", stderr);
        usage (EXIT_FAILURE);
      case 'L':
        x->dereference = DEREF_ALWAYS;
        break;
      case 'n':
        x->interactive = I_ALWAYS_NO;
        break;
      case 'P':
        x->dereference = DEREF_NEVER;
        break;
      case NO_PRESERVE_ATTRIBUTES_OPTION:
        decode_preserve_arg (optarg, c, false);
        break;
      case PRESERVE_ATTRIBUTES_OPTION:
        if (optarg)
          decode_preserve_arg (optarg, c, true);
        else
          {
            x->preserve_mode = true;
            x->preserve_timestamps = true;
            x->preserve_ownership = true;
          }
        break;
      case 'p':
        x->preserve_mode = true;
        x->preserve_timestamps = true;
        x->preserve_ownership = true;
        break;
      case PARENTS_OPTION:
        c->parents = true;
        break;
      case PROGRESS_OPTION:
        c->progress = (optarg
                       ? XARGMATCH ("--progress", optarg,
                                    progress_args, progress_vals)
                       : PROGRESS_AUTO);
        break;
      case 'r':
      case 'R':
        x->recursive = true;
        break;
      case REFLINK_OPTION:
        x->data.reflink = (optarg
                           ? XARGMATCH ("--reflink", optarg,
                                        reflink_args, reflink_vals)
                           : REFLINK_ALWAYS);
        break;
      case UNLINK_DEST_BEFORE_OPENING:
        x->unlink_dest_before_opening = true;
        break;
      case SPARSE_OPTION:
        x->data.sparse = XARGMATCH ("--sparse", optarg,
                                    sparse_args, sparse_vals);
        break;
      case STRIP_TRAILING_SLASHES_OPTION:
        c->strip_trailing_slashes = true;
        break;
      case 's':
        x->symbolic_link = true;
        break;
      case 't':
        if (c->target_directory)
          error (EXIT_FAILURE, 0, _("multiple target directories specified"));
        c->target_directory = optarg;
        break;
      case 'T':
        c->no_target_directory = true;
        break;
      case 'u':
        x->update = true;
        break;
      case 'v':
        x->verbose = true;
        break;
      case 'x':
        x->one_file_system = true;
        break;
      case 'S':
        c->make_backups = true;
        c->backup_suffix = optarg;
        break;
      case 'Z':
        /* Said at once, for each CTX given, as by GNU cp: before any
           error in the options after it.  */
        if (optarg)
          warn_context_ignored ();
        break;
      case HELP_OPTION:
        usage (EXIT_SUCCESS);
      case VERSION_OPTION:
        version_etc (stdout, last_component (program_name), PACKAGE_NAME,
                     VERSION, AUTHORS, (char *) NULL);
        exit (EXIT_SUCCESS);
      default:
        usage (EXIT_FAILURE);
      }
  return optind;
}

/* Check the combination of options and settle what depends on
   several of them.  */
static void
settle_options (struct cli *c)
{
  struct cp_options *x = &c->x;

  if (x->hard_link && x->symbolic_link)
    {
      error (0, 0, _("cannot make both hard and symbolic links"));
      usage (EXIT_FAILURE);
    }
  if (c->make_backups && x->interactive == I_ALWAYS_NO)
    {
      error (0, 0,
             _("options --backup and --no-clobber are mutually exclusive"));
      usage (EXIT_FAILURE);
    }
  if (x->data.reflink == REFLINK_ALWAYS && x->data.sparse != SPARSE_AUTO)
    {
      error (0, 0, _("--reflink can be used only with --sparse=auto"));
      usage (EXIT_FAILURE);
    }

  x->backup_type = (c->make_backups
                    ? xget_version (_("backup type"), c->version_control)
                    : no_backups);
  set_simple_backup_suffix (c->backup_suffix);

  if (x->dereference == DEREF_UNDEFINED)
    x->dereference = (x->recursive && !x->hard_link
                      ? DEREF_NEVER : DEREF_ALWAYS);

  /* Without -R, special files are read like regular ones.  */
  x->copy_as_regular = !x->recursive || c->copy_contents;

  /* cpr is built without SELinux support, which is what GNU cp does
     on a kernel without SELinux: contexts cannot be set, -Z is
     accepted quietly, an explicit context is warned about (while the
     options are parsed), and an
     explicit request to preserve contexts fails.  */
  if (c->require_preserve_context && x->preserve_security_context)
    error (EXIT_FAILURE, 0, _("cannot preserve security context "
                              "without an SELinux-enabled kernel"));
  x->preserve_security_context = false;
}

/* Whether NAME is a directory (or a symlink to one); if not, set *ERR
   to why.  */
static bool
is_directory (char const *name, int *err)
{
  struct stat st;
  if (stat (name, &st) != 0)
    {
      *err = errno;
      return false;
    }
  *err = S_ISDIR (st.st_mode) ? 0 : ENOTDIR;
  return *err == 0;
}

/* A directory leading to a --parents copy.  */
struct parent_dir
{
  char *src;                    /* the source directory */
  char *dst;                    /* its copy */
  char const *dst_rel;          /* the same, relative to the target */
  struct stat st;               /* the source's stat */
  bool created;                 /* the copy was made now */
};

/* The permissions of a directory that --parents creates as a copy of
   ST, before the umask: its source's, with the sticky bit; or with
   --no-preserve=mode all of them but no sticky bit, as GNU cp does
   (unlike for the directories that -R copies, which keep it).  */
static mode_t
parent_dir_mode (struct stat const *st, struct cp_options const *x)
{
  mode_t all = S_IRWXU | S_IRWXG | S_IRWXO;
  if (x->explicit_no_preserve_mode)
    return all;
  return st->st_mode & (all | S_ISVTX);
}

/* NAME, an operand appended to the target directory by --parents, as a
   name relative to the target: an absolute operand's leading slashes
   would take the *at calls out of the target.  */
static char const *
relative (char const *name)
{
  return name + strspn (name, "/");
}

/* Whether the relative NAME has a directory before its last component
   (not counting trailing slashes).  */
static bool
has_leading_dir (char const *name)
{
  char const *slash = strchr (name, '/');
  return slash && slash[strspn (slash, "/")];
}

/* Whether a --parents copy gives the leading directories that exist
   their sources' attributes (finish_parent_dirs): their owners, modes
   and times; not their xattrs, as GNU cp does not either.  */
static bool
preserves_dir_attributes (struct cp_options const *x)
{
  return (x->preserve_mode || x->preserve_ownership
          || x->preserve_timestamps);
}

/* Stat the directory NAME, a leading directory of a --parents operand,
   into *ST; say why not if it cannot be.  */
static bool
stat_parent_source (char const *name, struct stat *st)
{
  int err = (stat (name, st) != 0 ? errno
             : S_ISDIR (st->st_mode) ? 0 : ENOTDIR);
  if (err)
    error (0, err, _("failed to get attributes of %s"), quoteaf (name));
  return !err;
}

/* --parents: make sure the directories leading to DST_NAME exist, where
   DST_NAME is the target directory (open as TARGET_FD) followed, from
   SRC_OFFSET on, by the operand.  If they do, that is all.  Otherwise
   create the missing ones from the operand's leading directories, and
   list them all, old and new, in *DIRS (*N_DIRS of them) for
   finish_parent_dirs: GNU cp gives them all their sources'
   attributes.  Set *MISSING to whether the last of them looked at was
   missing (a '.' or '..' after a missing one is not), and leave it if
   there are none or a failure comes first.  */
static bool
make_parent_dirs (char const *dst_name, int target_fd, size_t src_offset,
                  struct parent_dir **dirs, size_t *n_dirs, bool *missing,
                  struct cp_options const *x)
{
  char *parent = dir_name (relative (dst_name + src_offset));
  struct stat st;
  bool exists = fstatat (target_fd, parent, &st, 0) == 0;
  free (parent);
  if (exists && !S_ISDIR (st.st_mode))
    {
      char *dst_parent = dir_name (dst_name);
      error (0, 0, _("%s exists but is not a directory"),
             quoteaf (dst_parent));
      free (dst_parent);
      return false;
    }
  if (exists)
    {
      if (has_leading_dir (relative (dst_name + src_offset)))
        *missing = false;
      return true;
    }

  char *dst = xstrdup (dst_name);
  char *s = dst + src_offset;
  bool ok = true;
  /* Each slash after a component ends one leading directory.  */
  for (char *slash = strchr (s, '/'); slash; slash = strchr (slash + 1, '/'))
    {
      if (slash == s || slash[-1] == '/')
        continue;
      *slash = '\0';
      /* As GNU cp, the copy first, then the source where it is needed:
         to make the copy, or to give an existing one its attributes.
         Whether the last one was missing is what the copy of this
         operand and the next ones go by (copy_into_dir).  */
      struct stat src_st = { 0 }, dst_st;
      bool exists = fstatat (target_fd, relative (s), &dst_st, 0) == 0;
      if (exists && !S_ISDIR (dst_st.st_mode))
        {
          error (0, 0, _("%s exists but is not a directory"), quoteaf (dst));
          ok = false;
          break;
        }
      if ((!exists || preserves_dir_attributes (x))
          && !stat_parent_source (s, &src_st))
        {
          ok = false;
          break;
        }
      *missing = !exists;
      bool created = false;
      if (!exists)
        {
          /* Fill it first; finish_parent_dirs sets its mode.  */
          /* While the owner is wrong, the group and others get none
             of the permissions the source gives them (just those, as
             GNU cp omits, which shows when the owner cannot be set);
             while a preserved mode is not set yet, no write
             permission.  */
          mode_t omitted = (x->preserve_ownership
                            ? src_st.st_mode & (S_IRWXG | S_IRWXO)
                            : x->preserve_mode ? S_IWGRP | S_IWOTH : 0);
          if (mkdirat (target_fd, relative (s),
                       (parent_dir_mode (&src_st, x) & ~omitted)
                       | S_IRWXU) != 0)
            {
              error (0, errno, _("cannot make directory %s"), quoteaf (dst));
              ok = false;
              break;
            }
          created = true;
          if (x->verbose)
            {
              progress_hide ();
              printf ("%s -> %s\n", s, dst);
              progress_resume ();
            }
        }
      *dirs = xreallocarray (*dirs, *n_dirs + 1, sizeof **dirs);
      struct parent_dir *d = &(*dirs)[(*n_dirs)++];
      d->src = xstrdup (s);
      d->dst = xstrdup (dst);
      d->dst_rel = relative (d->dst + src_offset);
      d->st = src_st;
      d->created = created;
      *slash = '/';
    }
  free (dst);
  return ok;
}

/* After a --parents copy, if APPLY, give the leading directories (in
   the target open as TARGET_FD) the attributes of their sources that
   are preserved, or at least their final mode (the created ones),
   deepest first, until one fails: as in GNU cp, that one and those
   above it keep the mode they were made with.  Free DIRS.  */
static bool
finish_parent_dirs (struct parent_dir *dirs, size_t n_dirs, int target_fd,
                    bool apply, struct cp_options const *x)
{
  bool preserve = preserves_dir_attributes (x);
  bool ok = true;
  for (size_t i = n_dirs; 0 < i; i--)
    {
      struct parent_dir *d = &dirs[i - 1];
      mode_t final_mode = (d->created && !x->preserve_mode
                           ? (parent_dir_mode (&d->st, x)
                              & ~(x->umask_kill & ~S_ISVTX))
                           : (mode_t) -1);
      if (apply && (preserve || final_mode != (mode_t) -1)
          && !copy_dir_attributes (d->src, &d->st, d->dst, target_fd,
                                   d->dst_rel, d->created, final_mode, x))
        ok = apply = false;
      free (d->src);
      free (d->dst);
    }
  free (dirs);
  return ok;
}

/* The name of the copy of the operand ARG in the directory TARGET:
   TARGET/ARG with --parents (PARENTS), else TARGET and ARG's last
   component; "cp -R dir/.. target" copies into TARGET itself, as
   "TARGET/.", not into "TARGET/..".  Set *REL to where in it the part
   below TARGET starts.  */
static char *
into_dir_name (char const *arg, char const *target, bool parents,
               size_t *rel)
{
  char *base = xstrdup (parents ? arg : last_component (arg));
  strip_trailing_slashes (base);
  char const *name = parents || strcmp (base, "..") ? base : ".";
  char *dst = file_name_concat (target, name, NULL);
  *rel = strlen (dst) - strlen (name);
  free (base);
  return dst;
}

/* Copy the operand ARG into TARGET, which is open as TARGET_FD.
   *PARENT_MISSING says whether --parents last found a leading
   directory missing, for this operand or one before it without leading
   directories: GNU cp 9.1 then takes the copy for a new file, which
   fails with EEXIST where there is one ("cp --parents a/b c t" with an
   existing t/c); so does cpr, for the same exit status.  */
static bool
copy_into_dir (char *arg, char const *target, int target_fd,
               struct cli const *c, bool *parent_missing)
{
  if (c->strip_trailing_slashes)
    strip_trailing_slashes (arg);

  bool ok = true;
  bool copy_into_self;
  size_t src_offset;
  char *dst = into_dir_name (arg, target, c->parents, &src_offset);
  if (c->parents)
    {
      struct parent_dir *dirs = NULL;
      size_t n_dirs = 0;
      ok = make_parent_dirs (dst, target_fd, src_offset, &dirs, &n_dirs,
                             parent_missing, &c->x);
      /* The leading directories get their attributes only when they
         could all be made.  */
      if (ok)
        {
          ok = copy (arg, dst, target_fd, relative (dst + src_offset),
                     *parent_missing, &c->x, &copy_into_self);
          /* The leading directories' times and modes come last.  */
          ok &= copy_wait ();
          ok &= finish_parent_dirs (dirs, n_dirs, target_fd, true, &c->x);
        }
      else
        finish_parent_dirs (dirs, n_dirs, target_fd, false, &c->x);
      free (dst);
      return ok;
    }

  ok = copy (arg, dst, target_fd, dst + src_offset, false,
             &c->x, &copy_into_self);
  free (dst);
  return ok;
}

/* --jobs: copy one file at a time if the copy of one of the N operands
   in FILE into DST may list what it writes (copy_reads_back, by way of
   MOUNTS): "cpr -r s/. s/sub" lists s/sub after filling it, and GNU cp
   would have made its files whole and in order.  A rare case, and only
   the time differs.  */
static void
settle_jobs (int n, char **file, char const *dst,
             struct mount_table const *mounts, struct cp_options *x)
{
  for (int i = 0; i < n && x->jobs != 1; i++)
    if (copy_reads_back (file[i], dst, mounts, x))
      x->jobs = 1;
}

/* settle_jobs for the one operand FILE[0] copied onto DST.  */
static void
settle_jobs_onto (char **file, char const *dst, struct cp_options *x)
{
  if (x->jobs == 1 || !x->recursive)
    return;
  struct mount_table *mounts = mount_table_read ();
  settle_jobs (1, file, dst, mounts, x);
  mount_table_free (mounts);
}

/* settle_jobs for the N operands in FILE copied into the directory
   TARGET: each one's copy is TARGET/NAME, where a mount (a mirror of
   the source on t/s) may stand that TARGET itself does not show.  The
   mounts are read once for all.  */
static void
settle_jobs_into (int n, char **file, char const *target, bool parents,
                  struct cp_options *x)
{
  if (x->jobs == 1 || !x->recursive)
    return;
  struct mount_table *mounts = mount_table_read ();
  settle_jobs (n, file, target, mounts, x);
  for (int i = 0; i < n && x->jobs != 1; i++)
    {
      size_t rel;
      char *dst = into_dir_name (file[i], target, parents, &rel);
      settle_jobs (1, &file[i], dst, mounts, x);
      free (dst);
    }
  mount_table_free (mounts);
}

/* Copy the N operands in FILE as the command line says.  */
static bool
do_copy (int n, char **file, struct cli *c)
{
  char const *target = c->target_directory;
  int err;

  if (n <= (target == NULL))
    {
      if (n <= 0)
        error (0, 0, _("missing file operand"));
      else
        error (0, 0, _("missing destination file operand after %s"),
               quoteaf (file[0]));
      usage (EXIT_FAILURE);
    }

  if (c->no_target_directory)
    {
      if (target)
        error (EXIT_FAILURE, 0, _("cannot combine --target-directory (-t) "
                                  "and --no-target-directory (-T)"));
      if (2 < n)
        {
          error (0, 0, _("extra operand %s"), quoteaf (file[2]));
          usage (EXIT_FAILURE);
        }
    }
  else if (target)
    {
      if (!is_directory (target, &err))
        error (EXIT_FAILURE, err, _("target directory %s"), quoteaf (target));
    }
  else if (is_directory (file[n - 1], &err))
    target = file[--n];
  else if (2 < n)
    error (EXIT_FAILURE, err, _("target %s"), quoteaf (file[n - 1]));

  if (c->parents && !target)
    {
      error (0, 0, _("with --parents, the destination must be a directory"));
      usage (EXIT_FAILURE);
    }

  bool ok = true;
  if (target)
    {
      /* A target named with trailing slashes gets just one.  */
      char *dir = xstrdup (target);
      strip_trailing_slashes (dir);
      int fd = open (dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
      if (fd < 0)
        error (EXIT_FAILURE, errno, _("target directory %s"), quoteaf (dir));
      dest_info_init (&c->x);
      src_info_init (&c->x);
      for (int i = 0; i < n; i++)
        count_source (file[i], &c->x);
      if (!c->x.jobs)
        c->x.jobs = auto_jobs (dir);
      settle_jobs_into (n, file, dir, c->parents, &c->x);
      bool parent_missing = false;
      for (int i = 0; i < n; i++)
        ok &= copy_into_dir (file[i], dir, fd, c, &parent_missing);
      /* Copies on worker threads use FD.  */
      ok &= copy_wait ();
      close (fd);
      free (dir);
      return ok;
    }

  /* GNU cp strips trailing slashes only from operands copied into a
     directory.  */
  char const *src = file[0];
  char const *dst = file[1];

  /* "cp -f --backup FILE FILE" makes a backup copy of FILE rather than
     copying FILE onto itself, when FILE is a regular file or a symlink
     to one (then copied as -d, -L and the like say), as with GNU cp.  */
  struct cp_options x = c->x;
  char *backup_dst = NULL;
  struct stat st;
  if (x.unlink_dest_after_failed_open && x.backup_type != no_backups
      && strcmp (src, dst) == 0 && stat (src, &st) == 0
      && S_ISREG (st.st_mode))
    {
      backup_dst = find_backup_file_name (AT_FDCWD, dst, x.backup_type);
      dst = backup_dst;
      x.backup_type = no_backups;
    }
  bool copy_into_self;
  count_source (src, &x);
  if (!x.jobs)
    x.jobs = auto_jobs (dst);
  settle_jobs_onto (file, dst, &x);
  ok = copy (src, dst, AT_FDCWD, dst, false, &x, &copy_into_self);
  /* A copy on a worker thread uses X.  */
  ok &= copy_wait ();
  free (backup_dst);
  return ok;
}

/* Whether one of the standard descriptors (0, 1, 2) is closed.  */
static bool
std_fd_closed (void)
{
  for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++)
    if (fcntl (fd, F_GETFD) < 0)
      return true;
  return false;
}

int
main (int argc, char **argv)
{
  /* Before anything is opened, which would take the number of a closed
     standard descriptor.  */
  bool std_closed = std_fd_closed ();
  set_program_name (argv[0]);
  setlocale (LC_ALL, "");
  /* GNU cp's own catalog translates the messages cpr shares with it
     (README, "Messages"); cpr has none of its own.  */
  bindtextdomain ("coreutils", COREUTILS_LOCALEDIR);
  textdomain ("coreutils");
  atexit (close_stdout);
  argmatch_die = argmatch_failed;

  struct cli c;
  cli_init (&c);
  int first = parse_options (argc, argv, &c);
  settle_options (&c);
  /* --jobs: with 0, 1 or 2 closed, a copy on a worker may be the file
     opened with that number while the main thread writes its -v lines
     or a diagnostic there, into the copy.  One file at a time, cpr
     writes there between its copies, as GNU cp does: those writes fail
     as GNU cp's fail, which its "write error" and exit status tell.  */
  if (std_closed)
    c.x.jobs = 1;

  hash_init ();
  progress_start (c.progress);
  bool ok = do_copy (argc - first, argv + first, &c);
  progress_finish ();
  forget_all ();
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
