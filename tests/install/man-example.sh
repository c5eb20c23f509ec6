#!/bin/sh
# copy_range(2) as a programmer reads it: the SYNOPSIS's lines and the
# EXAMPLES' code, taken from the page and unescaped, build together with
# <copyrange.h> (from include/) without a warning, and the example's
# function copies a file on a kernel with copy_range, or fails with
# ENOSYS having copied nothing (the host's kernel); and the page formats
# without a warning from groff.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"
fail=0
test -n "$COPYRANGE_GUEST" && skip_ "needs the compiler: runs only on the host"
test -n "$CC" || skip_ "no C compiler (CC is empty)"
page=$abs_top_srcdir/kernel/copy_range.2

# unescape_: the roff escapes the page's code uses, as the reader sees them.
unescape_ () { sed -e 's/\\-/-/g' -e 's/\\(aq/'"'"'/g' -e 's/\\e/\\/g'; }

# The SYNOPSIS, from .nf to .fi, as C: .B's arguments joined by blanks,
# .BI's and .BR's without (roff's rules), quotes dropped.
sed -n '/^\.SH SYNOPSIS/,/^\.fi/p' "$page" | sed '1,2d;$d' |
  awk '/^\.PP$/ { print ""; next }
       /^\.B[IR] / { out = ""; q = 0
         for (i = 5; i <= length ($0); i++) {
           c = substr ($0, i, 1)
           if (c == "\"") { q = !q; continue }
           if (c == " " && !q) continue
           out = out c }
         print out; next }
       /^\.B / { s = substr ($0, 4); gsub (/"/, "", s); print s; next }
       { print }' | unescape_ > synopsis.h || framework_failure_
cat synopsis.h
grep -x '#include <copyrange.h>' synopsis.h > /dev/null \
  || fail_ "the SYNOPSIS does not include <copyrange.h>"
# The declaration, without its blanks, must be the header's function.
sed -n '/^ssize_t/,/;$/p' synopsis.h | tr -d ' \n' > decl
grep -x 'ssize_tcopy_range(intfd_in,loff_t\*pos_in,intfd_out,loff_t\*pos_out,size_tcount,unsignedintflags);' \
  decl > /dev/null || { cat decl; fail_ "unexpected SYNOPSIS declaration"; }

# The example's code, whole.
sed -n '/^\.SH EXAMPLES/,/^\.SH/p' "$page" | sed -n '/^\.EX/,/^\.EE/p' |
  sed '1d;$d' | unescape_ > example.c || framework_failure_
test -s example.c || fail_ "no .EX block under EXAMPLES"

cat > main.c <<'MAIN'
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int copy_all (int in, int out, off_t size, off_t *done);

int
main (void)
{
  static char buf[100000], back[sizeof buf];
  for (size_t i = 0; i < sizeof buf; i++)
    buf[i] = (char) (i * 7 + i / 251);
  int in = open ("in", O_RDWR | O_CREAT | O_TRUNC, 0600);
  int out = open ("out", O_RDWR | O_CREAT | O_TRUNC, 0600);
  if (in < 0 || out < 0 || write (in, buf, sizeof buf) != sizeof buf)
    return 99;
  off_t done = -1;
  int r = copy_all (in, out, sizeof buf, &done);
  if (r == 0)
    {
      if (done != sizeof buf || pread (out, back, sizeof back, 0) != sizeof back
          || memcmp (buf, back, sizeof buf) != 0)
        return 1;
      puts ("copied");
      return 0;
    }
  if (errno == ENOSYS && done == 0 && lseek (out, 0, SEEK_END) == 0)
    {
      puts ("ENOSYS");
      return 0;
    }
  perror ("copy_all");
  return 1;
}
MAIN

# The example with the SYNOPSIS's lines before it (as a reader would put
# them), and alone: each is a whole translation unit.
{ sed -n 's/^\(#[a-z]* [^ ]*\).*$/\1/p' synopsis.h
  grep -v '^#define _GNU_SOURCE$' example.c; } > with-synopsis.c
for f in example.c with-synopsis.c; do
  $CC -std=gnu11 -Wall -Wextra -Wconversion -Wsign-conversion -Werror \
    -I"$abs_top_srcdir/include" \
    -o "${f%.c}" "$f" main.c > "$f.err" 2>&1 \
    || { cat "$f.err"; fail_ "$f does not build"; }
  ./"${f%.c}" > "$f.out" || { cat "$f.out"; fail_ "${f%.c} failed"; }
  cat "$f.out"
done

# groff's warnings (LC_ALL=C: no hyphenation of the locale's).
if command -v groff > /dev/null; then
  LC_ALL=C groff -man -Tutf8 -ww -z "$page" > groff.err 2>&1
  test -s groff.err && { cat groff.err; fail=1; }
fi

Exit $fail
