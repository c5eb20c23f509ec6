#!/bin/sh
# A directory being filled, seen by another user while the copy is held
# up by a FIFO among its contents (-r --copy-contents reads it): GNU cp
# makes it without group and other write permission (without any group
# and other access when it will give it an owner), and sets the final
# mode only after the contents; when it sets the owner, a symlink put in
# the directory's place meanwhile is not followed.  Each program runs the
# same race; what the other user could do is compared.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

user=nobody
require_user_ $user
uid=$(id -u $user) gid=$(id -g $user)

# Run COMMAND... as the other user.
as_user ()
{
  setpriv --reuid=$uid --regid=$gid --clear-groups -- "$@"
}

# Wait up to 30 seconds for FILE to exist.
wait_for ()
{
  n=0
  until test -e "$1"; do
    test $n -lt 300 || return 1
    sleep .1
    n=$((n + 1))
  done
}

# race PROG ATTACK OPTION...: in a fresh w/, whose directory others may
# write (as /tmp, without its sticky bit), copy w/src (mode 0777, owned
# by the other user, holding a FIFO) to w/dst with PROG as root under
# umask 0.  Once w/dst exists, run the shell function ATTACK in w/ while
# the copy waits for the FIFO, then feed the FIFO.  Print what ATTACK
# printed, the exit status and the mode of w/dst afterwards.
race ()
{
  prog=$1 attack=$2; shift 2
  rm -rf w && mkdir w w/src w/victim && mkfifo w/src/fifo &&
  chmod 777 w w/src && chmod 700 w/victim && chmod 666 w/src/fifo &&
  chown $uid:$gid w/src || framework_failure_
  (cd w && umask 0 && exec timeout -s KILL 60 "$prog" "$@" src dst) \
    > /dev/null 2> err &
  pid=$!
  wait_for w/dst || framework_failure_ "w/dst never appeared"
  (cd w && $attack)
  timeout 30 sh -c 'echo data > w/src/fifo' || echo "fifo not read"
  wait $pid
  echo "exit status $?"
  test -s err && sed 's/^[^:]*: /cp: /' err
  return 0
}

# What another user can do in the directory being filled.
probe ()
{
  echo "mode while filled: $(stat -c %a dst)"
  if as_user touch dst/intruder 2>/dev/null; then
    echo "others can add files"
  fi
  if as_user ls dst > /dev/null 2>&1; then
    echo "others can list it"
  fi
}

# Put a symlink to the directory victim where the copy is, and report
# afterwards who owns victim.
swap ()
{
  as_user sh -c 'mv dst moved && ln -s victim dst' || framework_failure_
}

for opts in '-r --copy-contents' '-r --copy-contents --preserve=mode' \
    '-r --copy-contents -p' '-r --copy-contents --preserve=ownership'; do
  race "$CR_REF" probe $opts > exp || framework_failure_
  race "$CPR" probe $opts > out || framework_failure_
  compare exp out || { echo "differs: $opts (probe)"; fail=1; }
done

# The owner is given by a call that does not follow a symlink: the
# symlink put in place of the copy is changed (GNU cp) or nothing is,
# but never the directory it points to.
for opts in '-r --copy-contents --preserve=ownership' \
    '-r --copy-contents -p' '-a --copy-contents'; do
  for prog in "$CR_REF" "$CPR"; do
    race "$prog" swap $opts > out || framework_failure_
    owner=$(stat -c %u:%g w/victim)
    test "$owner" = 0:0 || {
      echo "$prog $opts: the symlink was followed: w/victim is $owner"
      cat out
      fail=1
    }
  done
done

# --parents: the directories made for the leading components while the
# operand (a FIFO, read as a regular file) is copied into them.
race_parents ()
{
  prog=$1; shift
  rm -rf w && mkdir w w/a w/a/b w/dst && mkfifo w/a/b/fifo &&
  chmod 777 w w/a && chmod 1777 w/a/b && chmod 666 w/a/b/fifo &&
  chown $uid:$gid w/a || framework_failure_
  (cd w && umask 0 && exec timeout -s KILL 60 "$prog" --parents "$@" \
     a/b/fifo dst) > /dev/null 2> err &
  pid=$!
  wait_for w/dst/a/b || framework_failure_ "w/dst/a/b never appeared"
  for d in a a/b; do
    echo "$d while filled: $(stat -c %a w/dst/$d)"
    as_user touch w/dst/$d/intruder 2>/dev/null && echo "others can add to $d"
  done
  timeout 30 sh -c 'echo data > w/a/b/fifo' || echo "fifo not read"
  wait $pid
  echo "exit status $?"
  test -s err && sed 's/^[^:]*: /cp: /' err
  for d in a a/b; do echo "$d at the end: $(stat -c %a w/dst/$d)"; done
  return 0
}

for opts in '' -p -a --preserve=mode --preserve=ownership \
    --preserve=timestamps --no-preserve=mode; do
  race_parents "$CR_REF" $opts > exp || framework_failure_
  race_parents "$CPR" $opts > out || framework_failure_
  compare exp out || { echo "differs: --parents $opts"; fail=1; }
done

Exit $fail
