#!/bin/sh
# The mode cpr leaves on an existing destination after a failure, or
# after clearing the sign of an unfinished copy, is never more open than
# the one GNU cp leaves: taken from the file as it is then, not as it
# was opened (a chmod before a refused chown closed it; a write by its
# owner took its set-ID bits); and a directory or special file whose
# xattrs --preserve=xattr could not copy gets no mode, as with GNU cp.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

require_user_ nobody
as_="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups --"
mkdir w && chown nobody w && chmod 755 w || framework_failure_

# 1. Root of a user namespace (owners unmapped look alike, so root's
#    sticky file looks like an unfinished copy of ours): the chown fails,
#    and the file must stay closed to others, as GNU cp leaves it.
if have_userns_; then
  for prog in "$CR_REF" cpr; do
    rm -f w/a w/b && printf 'secret\n' > w/a && chown nobody:root w/a &&
    chmod 640 w/a && printf 'old\n' > w/b && chmod 1666 w/b \
      || framework_failure_
    for opt in -p -a; do
      unshare -U -r -- $prog $opt w/a w/b 2> /dev/null
      m=$(stat -c %a w/b)
      case $m in
        *00) ;;
        *) echo "$prog $opt, chown refused: mode $m, open to others"; fail=1 ;;
      esac
    done
  done
fi

# 2. nobody's own file with set-ID bits: the write takes them, and they
#    must not come back.
for opt in '' --preserve=timestamps; do
  rm -f w/a w/b && printf 'new\n' > w/a && chmod 644 w/a &&
  $as_ sh -c 'printf "old\n" > w/b && chmod 7755 w/b' || framework_failure_
  $as_ cpr $opt w/a w/b || fail=1
  m=$(stat -c %a w/b)
  case $m in
    [4-7]???) echo "cpr $opt: set-ID bits back on a rewritten file: $m"
              fail=1 ;;
  esac
done

# 3. --preserve=xattr,mode of a directory and a FIFO with a security xattr
#    that nobody may not set: the copies keep the mode they were made
#    with, as GNU cp's do.
if setfattr -n security.cprtest -v 1 w 2> /dev/null; then
  setfattr -x security.cprtest w
  setup_tree ()
  {
    mkdir sd && chmod 1777 sd && setfattr -n security.cprtest -v 1 sd &&
    mkfifo sf && chmod 1666 sf && setfattr -n security.cprtest -v 1 sf
  }
  cpr_case --cr-user=nobody -r --preserve=xattr,mode sd dd
  cpr_case --cr-user=nobody -r --preserve=xattr,mode sf df
else
  echo "no security xattrs here: the --preserve=xattr rows are not run"
fi

# 4. Without options, a FIFO's set-ID and sticky bits, less the umask,
#    as GNU cp makes it.
fifos_ ()
{
  mkfifo f1 f2 && chmod 1666 f1 && chmod 4755 f2
}
cpr_case --cr-setup=fifos_ -r f1 g1
cpr_case --cr-setup=fifos_ -r f2 g2

Exit $fail
