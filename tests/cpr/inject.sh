#!/bin/sh
# The states a destination passes through, made visible by making one
# system call fail (strace's fault injection) and looking at what is
# left, for GNU cp and cpr alike:
#  - an existing destination whose owner changes (-p) first gets a
#    restrictive mode (only the owner permissions that both its old mode
#    and the source's give), so that a failed chown leaves it closed;
#  - -l and -s replacing a destination make the new link under another
#    name and rename it over the old one: a failure to make the link
#    leaves the old destination, never no destination.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

require_root_
command -v strace > /dev/null || skip_ "strace is not installed"
strace -o /dev/null -e trace=none -e inject=fchown:error=EIO true 2>/dev/null ||
  skip_ "this strace cannot inject faults"

user=nobody
id -u $user > /dev/null 2>&1 || skip_ "no user $user"
uid=$(id -u $user) gid=$(id -g $user)

# inject SYSCALLS WHEN PROG ARG...: run PROG with the WHEN-th call of
# each of the comma-separated SYSCALLS failing with EIO; print its exit
# status and diagnostics with the program name normalized.
inject ()
{
  calls=$1 when=$2 prog=$3; shift 3
  (cd w && strace -o /dev/null -e trace="$calls" \
     -e inject="$calls":error=EIO:when=$when "$prog" "$@") 2> err
  echo "exit status $?"
  sed 's/^[^:]*: /cp: /' err
}

# state FILE...: what each FILE in w/ is.
state ()
{
  for f; do
    (cd w && stat -c '%n %F %a %u:%g %h' "$f" 2>&1 &&
     { test ! -L "$f" || echo "-> $(readlink "$f")"; } &&
     { test ! -f "$f" || echo "contents: $(cat "$f")"; })
  done
}

chowns=fchown,fchownat,chown,lchown

# An existing file or directory, of mode 0666 or 0777, copied onto with
# -p from a source of another owner: a failed chown leaves the copy with
# the mode it had at that moment.
for dm in 666 200 777; do
  for sm in 640 750 400; do
    for impl in ref cpr; do
      prog=$CPR; test $impl = cpr || prog=$CR_REF
      rm -rf w && mkdir w w/dir w/dst-dir && printf 'new\n' > w/src &&
      printf 'old\n' > w/dst && chown $uid:$gid w/src w/dir &&
      chmod $sm w/src w/dir && chmod $dm w/dst w/dst-dir ||
        framework_failure_
      {
        inject $chowns 1 "$prog" -p src dst
        inject $chowns 1 "$prog" -rp dir/. dst-dir
        state dst dst-dir
      } > out.$impl
    done
    compare out.ref out.cpr || { echo "differs: $sm onto $dm"; fail=1; }
  done
done

# Links replacing an existing destination: the call that makes the new
# link fails after the first attempt met EEXIST.
for opts in -fl --remove-destination\ -l -fs --remove-destination\ -s; do
  for impl in ref cpr; do
    prog=$CPR; test $impl = cpr || prog=$CR_REF
    rm -rf w && mkdir w && printf 'a\n' > w/a && printf 'b\n' > w/b &&
      ln -s a w/sl || framework_failure_
    {
      inject linkat,link,symlinkat,symlink 2 "$prog" $opts a b
      inject linkat,link,symlinkat,symlink 2 "$prog" $opts a sl
      state b sl
    } > out.$impl
  done
  compare out.ref out.cpr || { echo "differs: $opts"; fail=1; }
done

Exit $fail
