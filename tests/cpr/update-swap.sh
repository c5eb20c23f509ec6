#!/bin/sh
# -u gives a special file of the caller's that it skips the attributes it
# preserves (its copy may have been stopped before they were set).  As
# root, "the caller's" is any file with its source's owner: here nobody's
# FIFO, in nobody's directory.  Nobody swaps it for a symlink to root's
# file while cpr works on it (strace holds cpr in the call that sets the
# times); root's file must keep its mode, as it does with GNU cp, which
# does not touch a skipped FIFO at all.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
fail=0

test "$(id -u)" = 0 || skip_ "root is needed to copy as root"
id -u nobody > /dev/null 2>&1 || skip_ "there is no user nobody"
command -v strace > /dev/null || skip_ "strace is needed"
chmod a+rx . || framework_failure_
as_nobody="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups --"

# swap_ CALL HOW: copy bk/p onto home/p with -au, held for 3 s in
# CALL's first return, while nobody puts in p's place a symlink to
# rootfile (HOW: symlink), or a hard link to it (HOW: hardlink; root's
# file is writable by nobody, so that the kernel lets nobody link it).
swap_ ()
{
  rm -rf bk home rootfile &&
  printf 'root\n' > rootfile || framework_failure_
  if test $2 = symlink; then
    chmod 0755 rootfile; link="ln -s ../rootfile home/l"; want=755
  else
    chmod 0666 rootfile; link="ln rootfile home/l"; want=666
  fi
  mkdir bk home && chown nobody home &&
  mkfifo bk/p && chown nobody bk/p && chmod 04777 bk/p &&
  touch -h -d 2020-01-01 bk/p &&
  $as_nobody mkfifo -m 0600 home/p || framework_failure_
  (sleep 1 && $as_nobody $link && $as_nobody mv -T home/l home/p) &
  strace -f -qq -o /dev/null -e trace=$1 \
    -e inject=$1:delay_exit=3000000:when=1 cpr -au bk/p home/p 2> err
  wait
  test ! -p home/p || framework_failure_ "nobody's $2 did not replace p"
  mode=$(stat -c %a rootfile)
  test "$mode" = $want || {
    echo "held in $1, $2: root's file went from $want to $mode"; cat err
    fail=1; }
}

for how in symlink hardlink; do
  for call in utimensat fchownat; do
    swap_ $call $how
  done
done

Exit $fail
