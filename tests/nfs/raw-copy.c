/* cr-raw-copy -- send one NFSv4.2 COPY with arguments of our choosing

   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

/* A test helper: a minimal NFSv4.2 client that talks to the server on
   127.0.0.1:2049, so that a test can send a COPY the Linux NFS client
   never would (its own checks refuse offsets whose sum wraps loff_t
   before anything goes on the wire).

   Usage: cr-raw-copy [-u UID] [-g GID] [-i | -a [-c ROUNDS]]
                      SOURCE DEST SRC_OFF DST_OFF COUNT
   SOURCE and DEST are the files' paths on the server, looked up one
   component at a time from the server's pseudo-root; each is opened
   (and created if missing, never truncated), SOURCE for reading and
   DEST for writing.  Then one COMPOUND of SEQUENCE, PUTFH SOURCE,
   SAVEFH, PUTFH DEST, COPY (intra-server, consecutive, synchronous)
   goes to the server, and its COPY status is printed:
     COPY NFS4_OK 4096          (with the byte count the server wrote)
     COPY NFS4_OK async         (the server copies in the background)
     COPY NFS4ERR_INVAL
   The exit status is 0 when the COPY got an answer, whatever it was,
   and 1 when anything before it failed.

   -u and -g set the user and group the AUTH_SYS credential names
   (0 and 0 by default), for every call.

   -i makes the copy an inter-server one, as a destination server is
   asked to copy from another: COPY_NOTIFY on SOURCE (naming this
   server as the destination) first, whose answer is printed as
     COPY_NOTIFY NFS4_OK tcp 127.0.0.1.8.1   (the source server named)
     COPY_NOTIFY NFS4ERR_NOTSUPP
   and, when it succeeds, a COPY whose source stateid is the one
   COPY_NOTIFY gave, whose source server is the one it named, and which
   is asynchronous (inter-server copies must be).  The server then
   reads the source from itself, as a client of the address named.
   When the COPY is under way, OFFLOAD_STATUS asks after it every 100 ms
   until the server no longer knows the copy (NFS4ERR_BAD_STATEID: it is
   over) or reports it complete, for at most 300 s; then
     OFFLOAD_STATUS done
     OFFLOAD_STATUS done NFS4_OK 4096        (when it reports completion)
     OFFLOAD_STATUS timeout 1048576          (the bytes copied so far)
     OFFLOAD_STATUS NFS4ERR_...
   -a asks for an intra-server copy made asynchronously (the server
   decides; 6.1 nfsd honours the request), waited for as -i's is.

   -c ROUNDS, with -a, sends ROUNDS such COPYs one after the other, each
   followed by OFFLOAD_CANCEL of the copy it started, so that the cancel
   races with the copy thread starting, copying and finishing on its
   own: the races that a server must survive without touching a freed
   thread.  Round I waits I mod 32 milliseconds between the two, so
   that the cancel sweeps the copy's life on a fast server as on a slow
   (debug) one.  Nothing
   is waited for; instead a tally is printed:
     CANCEL 200 rounds: 150 cancelled, 40 over, 10 synchronous
   "over" counts NFS4ERR_BAD_STATEID (the copy had ended and been
   forgotten before the cancel arrived), "synchronous" the COPYs the
   server made synchronously.  Any other answer, to the COPY or to the
   cancel, stops the rounds and is printed as
     CANCEL round 7: COPY NFS4ERR_...   or   CANCEL round 7: NFS4ERR_...

   Only then are the files closed: closing the source would withdraw
   the COPY_NOTIFY stateid, and destroying the client would stop the
   copy.  The server's CB_OFFLOAD goes nowhere: this client offers no
   back channel.

   ONC RPC (RFC 5531) over TCP with record marking, AUTH_SYS; the
   operations are those of NFSv4.1 (RFC 8881) and COPY, COPY_NOTIFY and
   OFFLOAD_STATUS from NFSv4.2 (RFC 7862).  NFS4ERR_GRACE and
   NFS4ERR_DELAY are retried after a pause, since the server may still
   be in its grace period.  */

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static char const *program_name = "cr-raw-copy";

/* RPC and NFSv4 numbers.  */
enum
{
  RPC_CALL = 0, RPC_REPLY = 1, RPC_VERSION = 2,
  MSG_ACCEPTED = 0, ACCEPT_SUCCESS = 0,
  AUTH_NONE = 0, AUTH_SYS = 1,
  NFS_PROGRAM = 100003, NFS_V4 = 4, NFSPROC4_COMPOUND = 1,
  MINOR_VERSION = 2
};

enum
{
  OP_CLOSE = 4, OP_GETFH = 10, OP_LOOKUP = 15, OP_OPEN = 18,
  OP_PUTFH = 22, OP_PUTROOTFH = 24, OP_SAVEFH = 32,
  OP_EXCHANGE_ID = 42, OP_CREATE_SESSION = 43, OP_DESTROY_SESSION = 44,
  OP_SEQUENCE = 53, OP_DESTROY_CLIENTID = 57, OP_RECLAIM_COMPLETE = 58,
  OP_COPY = 60, OP_COPY_NOTIFY = 61, OP_OFFLOAD_CANCEL = 66,
  OP_OFFLOAD_STATUS = 67
};

/* netloc4 types (RFC 7862, 3.3.1).  */
enum
{
  NL4_NAME = 1, NL4_URL = 2, NL4_NETADDR = 3
};

enum
{
  NFS4_OK = 0, NFS4ERR_DELAY = 10008, NFS4ERR_GRACE = 10013,
  NFS4ERR_BAD_STATEID = 10025, NFS4ERR_COMPLETE_ALREADY = 10054
};

static struct
{
  uint32_t code;
  char const *name;
} const status_names[] = {
  { 0, "NFS4_OK" }, { 1, "NFS4ERR_PERM" }, { 2, "NFS4ERR_NOENT" },
  { 5, "NFS4ERR_IO" }, { 6, "NFS4ERR_NXIO" }, { 13, "NFS4ERR_ACCESS" },
  { 17, "NFS4ERR_EXIST" }, { 18, "NFS4ERR_XDEV" },
  { 20, "NFS4ERR_NOTDIR" }, { 21, "NFS4ERR_ISDIR" },
  { 22, "NFS4ERR_INVAL" }, { 27, "NFS4ERR_FBIG" },
  { 28, "NFS4ERR_NOSPC" }, { 30, "NFS4ERR_ROFS" },
  { 63, "NFS4ERR_NAMETOOLONG" }, { 69, "NFS4ERR_DQUOT" },
  { 70, "NFS4ERR_STALE" }, { 10001, "NFS4ERR_BADHANDLE" },
  { 10004, "NFS4ERR_NOTSUPP" }, { 10005, "NFS4ERR_TOOSMALL" },
  { 10006, "NFS4ERR_SERVERFAULT" }, { 10007, "NFS4ERR_BADTYPE" },
  { 10008, "NFS4ERR_DELAY" }, { 10010, "NFS4ERR_DENIED" },
  { 10011, "NFS4ERR_EXPIRED" }, { 10012, "NFS4ERR_LOCKED" },
  { 10013, "NFS4ERR_GRACE" }, { 10015, "NFS4ERR_SHARE_DENIED" },
  { 10016, "NFS4ERR_WRONGSEC" }, { 10018, "NFS4ERR_RESOURCE" },
  { 10020, "NFS4ERR_NOFILEHANDLE" },
  { 10021, "NFS4ERR_MINOR_VERS_MISMATCH" },
  { 10022, "NFS4ERR_STALE_CLIENTID" }, { 10023, "NFS4ERR_STALE_STATEID" },
  { 10024, "NFS4ERR_OLD_STATEID" }, { 10025, "NFS4ERR_BAD_STATEID" },
  { 10026, "NFS4ERR_BAD_SEQID" }, { 10029, "NFS4ERR_SYMLINK" },
  { 10036, "NFS4ERR_BADXDR" }, { 10038, "NFS4ERR_OPENMODE" },
  { 10041, "NFS4ERR_BADNAME" }, { 10044, "NFS4ERR_OP_ILLEGAL" },
  { 10052, "NFS4ERR_BADSESSION" }, { 10053, "NFS4ERR_BADSLOT" },
  { 10054, "NFS4ERR_COMPLETE_ALREADY" },
  { 10063, "NFS4ERR_SEQ_MISORDERED" }, { 10065, "NFS4ERR_REQ_TOO_BIG" },
  { 10066, "NFS4ERR_REP_TOO_BIG" }, { 10070, "NFS4ERR_TOO_MANY_OPS" },
  { 10071, "NFS4ERR_OP_NOT_IN_SESSION" }, { 10078, "NFS4ERR_DEADSESSION" },
  { 10083, "NFS4ERR_WRONG_TYPE" }, { 10091, "NFS4ERR_OFFLOAD_DENIED" },
  { 10094, "NFS4ERR_OFFLOAD_NO_REQS" },
};

static char const *
status_name (uint32_t status)
{
  static char buf[32];
  for (size_t i = 0; i < sizeof status_names / sizeof *status_names; i++)
    if (status_names[i].code == status)
      return status_names[i].name;
  snprintf (buf, sizeof buf, "NFS4ERR_%" PRIu32, status);
  return buf;
}

static _Noreturn void die (char const *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));

static void
die (char const *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  fprintf (stderr, "%s: ", program_name);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
  exit (1);
}

/* ---- XDR encoding into a growing buffer ---- */

struct xbuf
{
  unsigned char *data;
  size_t len, size;
};

static void
put_bytes (struct xbuf *b, void const *p, size_t n)
{
  if (b->size - b->len < n)
    {
      size_t size = b->size ? b->size : 1024;
      while (size - b->len < n)
        size *= 2;
      b->data = realloc (b->data, size);
      if (!b->data)
        die ("%s", "out of memory");
      b->size = size;
    }
  memcpy (b->data + b->len, p, n);
  b->len += n;
}

static void
put32 (struct xbuf *b, uint32_t v)
{
  unsigned char c[4] = { v >> 24, v >> 16, v >> 8, v };
  put_bytes (b, c, 4);
}

static void
put64 (struct xbuf *b, uint64_t v)
{
  put32 (b, v >> 32);
  put32 (b, v);
}

/* Fixed-length opaque: the bytes and zeros up to a multiple of 4.  */
static void
put_fixed (struct xbuf *b, void const *p, size_t n)
{
  static unsigned char const zeros[4];
  put_bytes (b, p, n);
  put_bytes (b, zeros, -n & 3);
}

/* Variable-length opaque or string: its length, then as above.  */
static void
put_opaque (struct xbuf *b, void const *p, size_t n)
{
  put32 (b, n);
  put_fixed (b, p, n);
}

static void
put_string (struct xbuf *b, char const *s)
{
  put_opaque (b, s, strlen (s));
}

/* ---- XDR decoding ---- */

struct xread
{
  unsigned char const *p;
  size_t left;
};

static void
get_bytes (struct xread *r, void *p, size_t n)
{
  size_t padded = n + (-n & 3);
  if (r->left < padded)
    die ("%s", "reply too short");
  if (p)
    memcpy (p, r->p, n);
  r->p += padded;
  r->left -= padded;
}

static uint32_t
get32 (struct xread *r)
{
  unsigned char c[4];
  get_bytes (r, c, 4);
  return (uint32_t) c[0] << 24 | (uint32_t) c[1] << 16 | c[2] << 8 | c[3];
}

static uint64_t
get64 (struct xread *r)
{
  uint64_t hi = get32 (r);
  return hi << 32 | get32 (r);
}

/* Variable-length opaque of at most MAX bytes into P (or skipped when P
   is null); returns its length.  */
static size_t
get_opaque (struct xread *r, void *p, size_t max)
{
  size_t n = get32 (r);
  if (n > max)
    die ("%s", "opaque field in the reply is too long");
  get_bytes (r, p, n);
  return n;
}

/* ---- RPC over TCP ---- */

static int sock = -1;
static uint32_t xid;
static uint32_t auth_uid, auth_gid;

static void
write_all (void const *p, size_t n)
{
  while (n)
    {
      ssize_t w = write (sock, p, n);
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        die ("write to the server: %s", strerror (errno));
      p = (char const *) p + w;
      n -= w;
    }
}

static void
read_all (void *p, size_t n)
{
  while (n)
    {
      ssize_t r = read (sock, p, n);
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        die ("read from the server: %s", strerror (errno));
      if (r == 0)
        die ("%s", "the server closed the connection");
      p = (char *) p + r;
      n -= r;
    }
}

static void
connect_server (void)
{
  struct sockaddr_in sa = { .sin_family = AF_INET,
                            .sin_port = htons (2049),
                            .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  sock = socket (AF_INET, SOCK_STREAM, 0);
  if (sock < 0)
    die ("socket: %s", strerror (errno));
  /* A reserved port, as the kernel client uses, in case an export
     (the pseudo-root's) wants one.  */
  for (int port = 1023; port >= 600; port--)
    {
      struct sockaddr_in me = { .sin_family = AF_INET,
                                .sin_port = htons (port),
                                .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
      if (bind (sock, (struct sockaddr *) &me, sizeof me) == 0)
        break;
    }
  if (connect (sock, (struct sockaddr *) &sa, sizeof sa) != 0)
    die ("connect to 127.0.0.1:2049: %s", strerror (errno));
}

/* Send the COMPOUND whose arguments (tag onwards) are in ARGS as one
   RPC call, and return the reply's record, in *REPLY (malloc'd), with
   *R positioned at the COMPOUND4res.  */
static void
rpc_call (struct xbuf const *args, unsigned char **reply, struct xread *r)
{
  struct xbuf call = { 0 };
  struct xbuf cred = { 0 };

  put32 (&cred, time (NULL));
  put_string (&cred, "cr-raw-copy");
  put32 (&cred, auth_uid);
  put32 (&cred, auth_gid);
  put32 (&cred, 0);             /* no supplementary groups */

  put32 (&call, 0);             /* record mark, filled in below */
  put32 (&call, ++xid);
  put32 (&call, RPC_CALL);
  put32 (&call, RPC_VERSION);
  put32 (&call, NFS_PROGRAM);
  put32 (&call, NFS_V4);
  put32 (&call, NFSPROC4_COMPOUND);
  put32 (&call, AUTH_SYS);
  put_opaque (&call, cred.data, cred.len);
  put32 (&call, AUTH_NONE);
  put32 (&call, 0);
  put_bytes (&call, args->data, args->len);

  uint32_t mark = 0x80000000u | (uint32_t) (call.len - 4);
  call.data[0] = mark >> 24;
  call.data[1] = mark >> 16;
  call.data[2] = mark >> 8;
  call.data[3] = mark;
  write_all (call.data, call.len);
  free (call.data);
  free (cred.data);

  /* The reply: fragments until the one with the last-fragment bit.  */
  struct xbuf in = { 0 };
  for (;;)
    {
      unsigned char m[4];
      read_all (m, 4);
      uint32_t hdr = (uint32_t) m[0] << 24 | m[1] << 16 | m[2] << 8 | m[3];
      size_t n = hdr & 0x7fffffff;
      if (n > (64u << 20))
        die ("%s", "reply fragment too large");
      unsigned char *frag = malloc (n ? n : 1);
      if (!frag)
        die ("%s", "out of memory");
      read_all (frag, n);
      put_bytes (&in, frag, n);
      free (frag);
      if (hdr & 0x80000000u)
        break;
    }

  *reply = in.data;
  r->p = in.data;
  r->left = in.len;
  if (get32 (r) != xid)
    die ("%s", "reply to another call");
  if (get32 (r) != RPC_REPLY)
    die ("%s", "not an RPC reply");
  if (get32 (r) != MSG_ACCEPTED)
    die ("%s", "the server denied the RPC call");
  get32 (r);                    /* verifier flavor */
  get_opaque (r, NULL, 400);
  uint32_t accept = get32 (r);
  if (accept != ACCEPT_SUCCESS)
    die ("the server did not run the call: accept_stat %" PRIu32, accept);
}

/* ---- The session ---- */

static uint64_t clientid;
static uint32_t create_seq;
static unsigned char sessionid[16];
static uint32_t slot_seq = 1;
static int have_session;

/* Start a COMPOUND's arguments in B: tag, minor version and the number
   of operations (plus SEQUENCE's, when there is a session).  */
static void
compound_start (struct xbuf *b, uint32_t nops)
{
  b->len = 0;
  put_string (b, "cr-raw-copy");
  put32 (b, MINOR_VERSION);
  put32 (b, nops + have_session);
  if (have_session)
    {
      put32 (b, OP_SEQUENCE);
      put_fixed (b, sessionid, sizeof sessionid);
      put32 (b, slot_seq);
      put32 (b, 0);             /* slot */
      put32 (b, 0);             /* highest slot */
      put32 (b, 0);             /* do not cache this */
    }
}

/* The result of the next operation, which must be OP: its status.  */
static uint32_t
op_result (struct xread *r, uint32_t op)
{
  uint32_t got = get32 (r);
  if (got != op)
    die ("reply has operation %" PRIu32 " where %" PRIu32 " belongs",
         got, op);
  return get32 (r);
}

typedef void (*build_fn) (struct xbuf *, void const *);

/* Send the operations BUILD encodes (NOPS of them, after SEQUENCE when
   there is a session) until the answer is neither NFS4ERR_GRACE nor
   NFS4ERR_DELAY.  Returns the COMPOUND's status; *R is positioned at
   the result of the first operation after SEQUENCE, unless SEQUENCE
   itself failed.  */
static uint32_t
compound (uint32_t nops, build_fn build, void const *arg,
          unsigned char **reply, struct xread *r)
{
  struct xbuf b = { 0 };
  for (int tries = 1;; tries++)
    {
      compound_start (&b, nops);
      build (&b, arg);
      rpc_call (&b, reply, r);
      uint32_t status = get32 (r);
      get_opaque (r, NULL, 1024);       /* tag */
      uint32_t nres = get32 (r);
      if (have_session && nres > 0)
        {
          uint32_t seq_status = op_result (r, OP_SEQUENCE);
          if (seq_status == NFS4_OK)
            {
              get_bytes (r, NULL, sizeof sessionid);
              get_bytes (r, NULL, 5 * 4);
              slot_seq++;
            }
        }
      if ((status != NFS4ERR_GRACE && status != NFS4ERR_DELAY)
          || tries == 120)
        {
          free (b.data);
          return status;
        }
      free (*reply);
      sleep (1);
    }
}

static void
build_exchange_id (struct xbuf *b, void const *owner)
{
  uint64_t verifier = (uint64_t) time (NULL) << 32 | getpid ();
  put32 (b, OP_EXCHANGE_ID);
  put64 (b, verifier);
  put_string (b, owner);
  put32 (b, 0x00010000);        /* EXCHGID4_FLAG_USE_NON_PNFS */
  put32 (b, 0);                 /* SP4_NONE */
  put32 (b, 0);                 /* no implementation id */
}

static void
put_channel_attrs (struct xbuf *b, uint32_t maxreq, uint32_t maxresp,
                   uint32_t cached, uint32_t maxops, uint32_t maxreqs)
{
  put32 (b, 0);                 /* header pad */
  put32 (b, maxreq);
  put32 (b, maxresp);
  put32 (b, cached);
  put32 (b, maxops);
  put32 (b, maxreqs);
  put32 (b, 0);                 /* no RDMA ird */
}

static void
build_create_session (struct xbuf *b, void const *unused)
{
  put32 (b, OP_CREATE_SESSION);
  put64 (b, clientid);
  put32 (b, create_seq);
  put32 (b, 0);                 /* flags: no back channel */
  put_channel_attrs (b, 1 << 20, 1 << 20, 4096, 16, 1);
  put_channel_attrs (b, 4096, 4096, 0, 2, 1);
  put32 (b, 0x40000000);        /* callback program, unused */
  put32 (b, 1);                 /* one callback security flavor: */
  put32 (b, AUTH_NONE);
}

static void
build_reclaim_complete (struct xbuf *b, void const *unused)
{
  put32 (b, OP_RECLAIM_COMPLETE);
  put32 (b, 0);                 /* for all filesystems */
}

static char const *open_owner = "cr-raw-copy open owner";

struct open_args
{
  char const *path;
  uint32_t access;
};

/* Point COMP at the starts of PATH's components, each ending at a slash
   or the end; returns how many there are.  */
static int
path_components (char const *path, char const **comp, int max)
{
  int n = 0;
  for (char const *p = path; *p;)
    {
      while (*p == '/')
        p++;
      if (!*p)
        break;
      if (n == max)
        die ("too many components in %s", path);
      comp[n++] = p;
      while (*p && *p != '/')
        p++;
    }
  return n;
}

enum { MAX_COMPONENTS = 12 };

static void
put_component (struct xbuf *b, char const *c)
{
  put_opaque (b, c, strcspn (c, "/"));
}

static void
build_open (struct xbuf *b, void const *arg)
{
  struct open_args const *o = arg;
  char const *comp[MAX_COMPONENTS];
  int n = path_components (o->path, comp, MAX_COMPONENTS);

  put32 (b, OP_PUTROOTFH);
  for (int i = 0; i < n - 1; i++)
    {
      put32 (b, OP_LOOKUP);
      put_component (b, comp[i]);
    }
  put32 (b, OP_OPEN);
  put32 (b, 0);                 /* seqid, unused in 4.1 */
  put32 (b, o->access);
  put32 (b, 0);                 /* deny nothing */
  put64 (b, clientid);
  put_string (b, open_owner);
  put32 (b, 1);                 /* OPEN4_CREATE */
  put32 (b, 0);                 /* UNCHECKED4: create or open */
  put32 (b, 2);                 /* attribute bitmap of two words: */
  put32 (b, 0);
  put32 (b, 1 << (33 - 32));    /* FATTR4_MODE */
  put32 (b, 4);
  put32 (b, 0644);
  put32 (b, 0);                 /* CLAIM_NULL */
  put_component (b, comp[n - 1]);
  put32 (b, OP_GETFH);
}

struct open_file
{
  unsigned char fh[128];
  size_t fh_len;
  unsigned char stateid[16];
};

static void
open_file (char const *path, uint32_t access, struct open_file *f)
{
  char const *comp[MAX_COMPONENTS];
  int n = path_components (path, comp, MAX_COMPONENTS);
  if (n == 0)
    die ("no file name in %s", path);
  struct open_args o = { path, access };
  unsigned char *reply;
  struct xread r;
  uint32_t status = compound (n + 2, build_open, &o, &reply, &r);
  if (status != NFS4_OK)
    {
      fprintf (stderr, "%s: opening %s: %s\n", program_name, path,
               status_name (status));
      exit (1);
    }
  op_result (&r, OP_PUTROOTFH);
  for (int i = 0; i < n - 1; i++)
    op_result (&r, OP_LOOKUP);
  op_result (&r, OP_OPEN);
  get_bytes (&r, f->stateid, sizeof f->stateid);
  get32 (&r);                   /* change_info4: atomic, */
  get64 (&r);                   /* before, */
  get64 (&r);                   /* after */
  get32 (&r);                   /* result flags */
  for (uint32_t words = get32 (&r); words; words--)
    get32 (&r);                 /* attributes set */
  uint32_t deleg = get32 (&r);
  if (deleg != 0 && deleg != 3) /* OPEN_DELEGATE_NONE, _NONE_EXT */
    die ("%s", "the server handed out a delegation, which this client"
         " cannot parse");
  if (deleg == 3)
    {
      uint32_t why = get32 (&r);
      if (why == 1 || why == 2) /* WND4_CONTENTION, WND4_RESOURCE */
        get32 (&r);
    }
  op_result (&r, OP_GETFH);
  f->fh_len = get_opaque (&r, f->fh, sizeof f->fh);
  free (reply);
}

/* A netloc4 of type NL4_NETADDR: a netid ("tcp") and a universal
   address ("127.0.0.1.8.1" for port 2049).  */
struct netaddr
{
  char netid[32];
  char addr[128];
};

static void
put_netaddr (struct xbuf *b, struct netaddr const *na)
{
  put32 (b, NL4_NETADDR);
  put_string (b, na->netid);
  put_string (b, na->addr);
}

/* The next netloc4 of a reply into *NA, which must be an NL4_NETADDR.  */
static void
get_netaddr (struct xread *r, struct netaddr *na)
{
  uint32_t type = get32 (r);
  if (type != NL4_NETADDR)
    die ("the server named a source server of netloc type %" PRIu32
         ", not NL4_NETADDR", type);
  size_t n = get_opaque (r, na->netid, sizeof na->netid - 1);
  na->netid[n] = '\0';
  n = get_opaque (r, na->addr, sizeof na->addr - 1);
  na->addr[n] = '\0';
}

/* This server, as the Linux client reaches it.  */
static struct netaddr const loopback = { "tcp", "127.0.0.1.8.1" };

static void
build_copy_notify (struct xbuf *b, void const *arg)
{
  struct open_file const *src = arg;
  put32 (b, OP_PUTFH);
  put_opaque (b, src->fh, src->fh_len);
  put32 (b, OP_COPY_NOTIFY);
  put_fixed (b, src->stateid, 16);
  put_netaddr (b, &loopback);   /* the destination server */
}

struct copy_args
{
  struct open_file const *src, *dst;
  uint64_t src_off, dst_off, count;
  /* The source stateid: SRC's open stateid, or COPY_NOTIFY's.  */
  unsigned char const *src_stateid;
  /* The source server of an inter-server copy, or null.  */
  struct netaddr const *source_server;
  /* Ask for an asynchronous copy even within this server.  */
  int async;
};

static void
build_copy (struct xbuf *b, void const *arg)
{
  struct copy_args const *c = arg;
  put32 (b, OP_PUTFH);
  put_opaque (b, c->src->fh, c->src->fh_len);
  put32 (b, OP_SAVEFH);
  put32 (b, OP_PUTFH);
  put_opaque (b, c->dst->fh, c->dst->fh_len);
  put32 (b, OP_COPY);
  put_fixed (b, c->src_stateid, 16);
  put_fixed (b, c->dst->stateid, 16);
  put64 (b, c->src_off);
  put64 (b, c->dst_off);
  put64 (b, c->count);
  put32 (b, 1);                 /* consecutive */
  if (c->source_server)
    {
      put32 (b, 0);             /* asynchronous, */
      put32 (b, 1);             /* from one source server */
      put_netaddr (b, c->source_server);
    }
  else
    {
      put32 (b, !c->async);     /* synchronous or not, */
      put32 (b, 0);             /* no source servers: intra-server */
    }
}

struct offload_args
{
  struct open_file const *dst;
  unsigned char const *stateid;
};

static void
build_offload_status (struct xbuf *b, void const *arg)
{
  struct offload_args const *o = arg;
  put32 (b, OP_PUTFH);          /* the operation needs a current fh */
  put_opaque (b, o->dst->fh, o->dst->fh_len);
  put32 (b, OP_OFFLOAD_STATUS);
  put_fixed (b, o->stateid, 16);
}

static void
build_offload_cancel (struct xbuf *b, void const *arg)
{
  struct offload_args const *o = arg;
  put32 (b, OP_PUTFH);
  put_opaque (b, o->dst->fh, o->dst->fh_len);
  put32 (b, OP_OFFLOAD_CANCEL);
  put_fixed (b, o->stateid, 16);
}

/* Send the COPY of C: 0 and the callback stateid in CB_STATEID when
   the server copies asynchronously, 1 and the bytes written in *COUNT
   when it copied synchronously, and otherwise -1 with the status in
   *STATUS.  */
static int
send_copy (struct copy_args const *c, unsigned char *cb_stateid,
           uint64_t *count, uint32_t *status)
{
  unsigned char *reply;
  struct xread r;
  int ret = -1;
  *status = compound (4, build_copy, c, &reply, &r);
  if (*status == NFS4_OK)
    {
      op_result (&r, OP_PUTFH);
      op_result (&r, OP_SAVEFH);
      op_result (&r, OP_PUTFH);
      op_result (&r, OP_COPY);
      ret = 1;
      if (get32 (&r) != 0)      /* a callback stateid: asynchronous */
        {
          get_bytes (&r, cb_stateid, 16);
          ret = 0;
        }
      *count = get64 (&r);
    }
  free (reply);
  return ret;
}

/* ROUNDS asynchronous COPYs of C, each cancelled at once; prints the
   tally, or the first answer that is not one of the expected ones.  */
static void
cancel_rounds (struct copy_args const *c, uint64_t rounds)
{
  uint64_t cancelled = 0, over = 0, sync = 0;
  for (uint64_t i = 1; i <= rounds; i++)
    {
      unsigned char cb_stateid[16];
      uint32_t status;
      uint64_t count;
      int how = send_copy (c, cb_stateid, &count, &status);
      if (how < 0)
        {
          printf ("CANCEL round %" PRIu64 ": COPY %s\n", i,
                  status_name (status));
          return;
        }
      if (how == 1)
        {
          sync++;
          continue;
        }
      struct timespec const wait = { 0, (long) (i % 32) * 1000 * 1000 };
      nanosleep (&wait, NULL);
      struct offload_args o = { c->dst, cb_stateid };
      unsigned char *reply;
      struct xread r;
      status = compound (2, build_offload_cancel, &o, &reply, &r);
      free (reply);
      if (status == NFS4_OK)
        cancelled++;
      else if (status == NFS4ERR_BAD_STATEID)
        over++;
      else
        {
          printf ("CANCEL round %" PRIu64 ": %s\n", i, status_name (status));
          return;
        }
    }
  printf ("CANCEL %" PRIu64 " rounds: %" PRIu64 " cancelled, %" PRIu64
          " over, %" PRIu64 " synchronous\n", rounds, cancelled, over, sync);
}

/* Ask after the asynchronous copy O until it is over or 300 s have
   passed, and print how it ended.  */
static void
wait_for_copy (struct offload_args const *o)
{
  struct timespec const pause = { 0, 100 * 1000 * 1000 };
  time_t deadline = time (NULL) + 300;
  uint64_t copied = 0;
  for (;;)
    {
      unsigned char *reply;
      struct xread r;
      uint32_t status = compound (2, build_offload_status, o, &reply, &r);
      if (status == NFS4ERR_BAD_STATEID)
        {
          /* The copy is over and forgotten.  */
          free (reply);
          printf ("OFFLOAD_STATUS done\n");
          return;
        }
      if (status != NFS4_OK)
        {
          free (reply);
          printf ("OFFLOAD_STATUS %s\n", status_name (status));
          return;
        }
      op_result (&r, OP_PUTFH);
      op_result (&r, OP_OFFLOAD_STATUS);
      copied = get64 (&r);
      if (get32 (&r))           /* osr_complete<1> */
        {
          uint32_t how = get32 (&r);
          free (reply);
          printf ("OFFLOAD_STATUS done %s %" PRIu64 "\n",
                  status_name (how), copied);
          return;
        }
      free (reply);
      if (time (NULL) > deadline)
        {
          printf ("OFFLOAD_STATUS timeout %" PRIu64 "\n", copied);
          return;
        }
      nanosleep (&pause, NULL);
    }
}

static void
build_close (struct xbuf *b, void const *arg)
{
  struct open_file const *const *f = arg;
  for (int i = 0; i < 2; i++)
    {
      put32 (b, OP_PUTFH);
      put_opaque (b, f[i]->fh, f[i]->fh_len);
      put32 (b, OP_CLOSE);
      put32 (b, 0);
      put_fixed (b, f[i]->stateid, 16);
    }
}

static void
build_destroy_session (struct xbuf *b, void const *unused)
{
  put32 (b, OP_DESTROY_SESSION);
  put_fixed (b, sessionid, sizeof sessionid);
}

static void
build_destroy_clientid (struct xbuf *b, void const *unused)
{
  put32 (b, OP_DESTROY_CLIENTID);
  put64 (b, clientid);
}

static uint64_t
number (char const *arg)
{
  char *end;
  errno = 0;
  if (*arg == '-')
    die ("invalid number %s", arg);
  unsigned long long n = strtoull (arg, &end, 0);
  if (errno || end == arg || *end)
    die ("invalid number %s", arg);
  return n;
}

int
main (int argc, char **argv)
{
  int inter = 0, async = 0;
  uint64_t rounds = 0;
  int opt;
  while ((opt = getopt (argc, argv, "u:g:iac:")) != -1)
    switch (opt)
      {
      case 'u':
        auth_uid = number (optarg);
        break;
      case 'g':
        auth_gid = number (optarg);
        break;
      case 'i':
        inter = 1;
        break;
      case 'a':
        async = 1;
        break;
      case 'c':
        rounds = number (optarg);
        break;
      default:
        argc = 0;
        break;
      }
  if (argc - optind != 5 || (inter && async) || (rounds && !async))
    {
      fprintf (stderr, "Usage: %s [-u UID] [-g GID] [-i | -a [-c ROUNDS]]"
               " SOURCE DEST SRC_OFF DST_OFF COUNT\n", program_name);
      return 1;
    }
  argv += optind - 1;
  struct copy_args c;
  c.src_off = number (argv[3]);
  c.dst_off = number (argv[4]);
  c.count = number (argv[5]);

  connect_server ();

  unsigned char *reply;
  struct xread r;
  uint32_t status;
  char owner[64];
  snprintf (owner, sizeof owner, "cr-raw-copy.%ld.%ld", (long) getpid (),
            (long) time (NULL));
  status = compound (1, build_exchange_id, owner, &reply, &r);
  if (status != NFS4_OK)
    die ("EXCHANGE_ID: %s", status_name (status));
  op_result (&r, OP_EXCHANGE_ID);
  clientid = get64 (&r);
  create_seq = get32 (&r);
  free (reply);

  status = compound (1, build_create_session, NULL, &reply, &r);
  if (status != NFS4_OK)
    die ("CREATE_SESSION: %s", status_name (status));
  op_result (&r, OP_CREATE_SESSION);
  get_bytes (&r, sessionid, sizeof sessionid);
  free (reply);
  have_session = 1;

  status = compound (1, build_reclaim_complete, NULL, &reply, &r);
  if (status != NFS4_OK && status != NFS4ERR_COMPLETE_ALREADY)
    die ("RECLAIM_COMPLETE: %s", status_name (status));
  free (reply);

  struct open_file src, dst;
  open_file (argv[1], 1, &src);         /* OPEN4_SHARE_ACCESS_READ */
  open_file (argv[2], 2, &dst);         /* OPEN4_SHARE_ACCESS_WRITE */

  c.src = &src;
  c.dst = &dst;
  c.src_stateid = src.stateid;
  c.source_server = NULL;
  c.async = async;

  unsigned char cnr_stateid[16];
  struct netaddr source_server;
  int copy_now = 1;
  if (inter)
    {
      status = compound (2, build_copy_notify, &src, &reply, &r);
      if (status == NFS4_OK)
        {
          op_result (&r, OP_PUTFH);
          op_result (&r, OP_COPY_NOTIFY);
          get64 (&r);                   /* cnr_lease_time: seconds, */
          get32 (&r);                   /* nanoseconds */
          get_bytes (&r, cnr_stateid, sizeof cnr_stateid);
          if (get32 (&r) == 0)
            die ("%s", "COPY_NOTIFY named no source server");
          get_netaddr (&r, &source_server);
          printf ("COPY_NOTIFY NFS4_OK %s %s\n", source_server.netid,
                  source_server.addr);
          c.src_stateid = cnr_stateid;
          c.source_server = &source_server;
        }
      else
        {
          printf ("COPY_NOTIFY %s\n", status_name (status));
          copy_now = 0;
        }
      free (reply);
    }

  unsigned char cb_stateid[16];
  int waiting = 0;
  if (rounds)
    {
      cancel_rounds (&c, rounds);
      copy_now = 0;
    }
  if (copy_now)
    {
      uint32_t status;
      uint64_t count;
      int how = send_copy (&c, cb_stateid, &count, &status);
      if (how == 0)
        {
          printf ("COPY NFS4_OK async\n");
          waiting = 1;
        }
      else if (how == 1)
        printf ("COPY NFS4_OK %" PRIu64 "\n", count);
      else
        printf ("COPY %s\n", status_name (status));
    }
  if (fflush (stdout) != 0)
    die ("%s", "write error");

  if (waiting)
    {
      struct offload_args o = { &dst, cb_stateid };
      wait_for_copy (&o);
      if (fflush (stdout) != 0)
        die ("%s", "write error");
    }

  /* Leave no state behind; failures here do not change the answer.  */
  struct open_file const *both[2] = { &src, &dst };
  status = compound (4, build_close, both, &reply, &r);
  if (status != NFS4_OK)
    fprintf (stderr, "%s: CLOSE: %s\n", program_name, status_name (status));
  free (reply);
  have_session = 0;
  status = compound (1, build_destroy_session, NULL, &reply, &r);
  free (reply);
  if (status == NFS4_OK)
    {
      status = compound (1, build_destroy_clientid, NULL, &reply, &r);
      free (reply);
    }
  if (status != NFS4_OK)
    fprintf (stderr, "%s: cleanup: %s\n", program_name,
             status_name (status));
  return 0;
}
