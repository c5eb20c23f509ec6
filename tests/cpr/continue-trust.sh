#!/bin/sh
# --continue keeps the bytes of a marked destination only when nobody but
# the copy could have put them there, and only from the very source it
# names: a mark planted by another user (here a copy of a genuine one, so
# whatever it holds is right), on a file with a second name or group
# write permission, a source changed with its mtime put back, a
# destination written over in place since (cp keeps xattrs): each is
# copied whole.  A destination that existed before keeps its mode when
# resumed, as it does when copied in one go (and as GNU cp keeps it); and
# a mark that cannot be brought up to date does not survive the copy.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0
require_gnu_cp_

command -v getfattr > /dev/null && command -v setfattr > /dev/null \
  || skip_ "getfattr and setfattr (attr) are needed"
: > probe && setfattr -n user.probe -v 1 probe 2> /dev/null \
  || skip_ "the test directory's file system has no user xattrs"
mark=$partial_mark_

# killed_ SRC DST: cpr SRC DST killed at the data call at 2.5 MiB, 1 MiB
# a call, each taking 1.1 s on the shim's clock: the mark records 2 MiB.
killed_ ()
{
  with_shim_ CPR_SHIM_COPY_RANGE=$emulate_ CPR_SHIM_FAIL=copy_range:2500000:KILL \
    CPR_CHUNK_SIZE=1048576 CPR_SHIM_CALL_NS=1100000000 cpr "$@" 2> /dev/null
  test $? = 137 && test -n "$(offset_ "$2")" \
    || framework_failure_ "no killed copy $2"
}

# whole_ WHAT SRC DST: cpr --continue SRC DST copies SRC whole: its first
# data call is at offset 0, and DST ends the same as SRC.
whole_ ()
{
  what_=$1; shift
  rm -f log
  with_shim_ CPR_SHIM_COPY_RANGE=$emulate_ CPR_SHIM_LOG=log \
    cpr --continue "$@" || { echo "$what_: cpr failed"; fail=1; return; }
  at_=$(first_at_ log copy_range)
  cmp -s "$1" "$2" && test "$at_" = 0 && return
  echo "$what_: went on at ${at_:-?}; the copy is $(cmp -s "$1" "$2" ||
        echo not) the same as its source"
  fail=1
}

head -c 3145729 /dev/urandom > src && touch -d '2020-01-02' src \
  || framework_failure_
size=$(stat -c %s src)

# A genuine mark to plant: the one a killed copy of src got.
killed_ src genuine
value=$(getfattr --only-values -n $mark genuine) || framework_failure_

# The same copy, resumed, keeps what the mark records (were it not,
# the cases below would show nothing).
cp -p genuine resumed && setfattr -n $mark -v "$value" resumed \
  || framework_failure_
rm -f log
with_shim_ CPR_SHIM_COPY_RANGE=$emulate_ CPR_SHIM_LOG=log \
  cpr --continue src resumed && cmp src resumed || fail=1
test "$(first_at_ log copy_range)" = "$(offset_ genuine)" \
  || { echo "a genuine mark was not trusted"; fail=1; }

# 1. Planted by another user in a sticky directory: their bytes, padded to
# the source's size, under the name root copies to.
as_=
if test "$(id -u)" = 0 && id -u nobody > /dev/null 2>&1 && chmod a+rx .; then
  as_="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups --"
  mkdir pub && chmod 1777 pub || framework_failure_
  if $as_ sh -c "printf '#!/bin/sh\necho pwned\n' > pub/tool &&
        truncate -s $size pub/tool && setfattr -n $mark -v '$value' pub/tool"
  then
    whole_ "a mark planted by nobody" src pub/tool
  else
    echo "nobody cannot write here: planted mark not tried"
  fi
fi

# ... and on files of our own that someone else could write: a second
# name, group write permission; or could have written: an existing file
# copied over in place, which cpr did not make, writable by nobody when
# the mark was planted, locked down since (a descriptor opened then
# would still write).
if test -n "$as_"; then
  cp src locked && chmod 0666 locked || framework_failure_
  $as_ sh -c "printf 'EVIL' | dd of=locked conv=notrunc 2> /dev/null &&
    setfattr -n $mark -v '$value' locked" || framework_failure_
  chmod 0644 locked || framework_failure_
  whole_ "a mark planted before the file was locked" src locked
fi
cp -p genuine twin && setfattr -n $mark -v "$value" twin && ln twin twin2 \
  || framework_failure_
whole_ "a mark on a file with two names" src twin
cp -p genuine gw && setfattr -n $mark -v "$value" gw && chmod g+w gw \
  || framework_failure_
whole_ "a mark on a group-writable file" src gw

# 3. The source's data changed within the kept bytes, same size, its
# mtime put back (as touch -r, tar or rsync -t do).
killed_ src changed
cp -p src src.saved && printf 'XXXX' | dd of=src conv=notrunc 2> /dev/null &&
touch -r src.saved src || framework_failure_
whole_ "a source changed with its mtime put back" src changed
cp -p src.saved src || framework_failure_

# 4. The destination written over in place since (its xattrs stay).
killed_ src over
head -c $size /dev/urandom > other && cp other over || framework_failure_
test -n "$(offset_ over)" || framework_failure_ "cp dropped the mark"
whole_ "a destination written over since" src over

# 5. A destination that was there before, with its own mode, and a
# read-only source: cpr without -p keeps the destination's mode, killed
# and continued as copied in one go, as GNU cp does.
cp src ro && chmod 0444 ro && printf 'old\n' > mode.gnu && chmod 0644 mode.gnu &&
cp mode.gnu mode.cpr || framework_failure_
"$CR_REF" ro mode.gnu || framework_failure_
killed_ ro mode.cpr
cpr --continue ro mode.cpr && cmp ro mode.cpr || fail=1
test "$(stat -c %a mode.cpr)" = "$(stat -c %a mode.gnu)" \
  || { echo "resumed: mode $(stat -c %a mode.cpr), GNU cp's" \
            "$(stat -c %a mode.gnu)"; fail=1; }

# --continue onto an existing FIFO writes into it, as GNU cp does (and
# waits for a reader): it does not open it for reading too.
mkfifo fifo && printf 'payload\n' > small || framework_failure_
timeout 3 cpr --continue small fifo; rc=$?
timeout 3 "$CR_REF" small fifo; ref=$?
test $rc = $ref || { echo "onto a FIFO: status $rc, GNU cp's $ref"; fail=1; }

# An empty source onto an existing empty file: truncated all the same,
# as by GNU cp's O_TRUNC (its mtime is the copy's).
: > e.src && : > e.dst && touch -d 2000-01-01 e.dst && cpr e.src e.dst \
  && test e.dst -nt e.src || { echo "an empty file was not truncated"; fail=1; }

# A copy killed before its last mode change (strace injects SIGKILL at
# the first fchmod), then copied again with -u: the mode GNU cp gives.
if strace -V > /dev/null 2>&1; then
  printf 'mode\n' > m.src && chmod 0444 m.src || framework_failure_
  test -z "$as_" || chown nobody m.src || framework_failure_
  for o in --preserve=ownership,timestamps --no-preserve=mode; do
    rm -f m.dst m.gnu
    "$CR_REF" $o m.src m.gnu || framework_failure_
    (strace -qq -o /dev/null -e trace=fchmod \
       -e inject=fchmod:signal=SIGKILL:when=1 cpr $o m.src m.dst) 2> /dev/null
    cpr -u $o m.src m.dst || fail=1
    test "$(stat -c %a m.dst)" = "$(stat -c %a m.gnu)" \
      || { echo "$o, killed, then -u: mode $(stat -c %a m.dst)," \
                "GNU cp's $(stat -c %a m.gnu)"; fail=1; }
  done
fi

# Someone else's sticky file or symlink is not an unfinished copy of
# ours: -u skips it as GNU cp does, and leaves it alone.
if test -n "$as_"; then
  mkdir theirs && chmod 0777 theirs && printf 'x\n' > theirs/s &&
  printf 'theirs\n' > theirs/d && chmod 1644 theirs/d && ln -s s theirs/l &&
  ln -s s theirs/m && chown nobody theirs/s &&
  touch -h -d 2030-01-01 theirs/d theirs/m || framework_failure_
  $as_ cpr -u theirs/s theirs/d || fail=1
  $as_ cpr -u -P --preserve=timestamps theirs/l theirs/m || fail=1
  test "$(cat theirs/d)" = theirs && test "$(stat -c %a theirs/d)" = 1644 &&
    test "$(stat -c %Y theirs/m)" = "$(date -d 2030-01-01 +%s)" \
    || { echo "-u changed another user's files"; fail=1; }
fi

# Root's run over an unfinished copy of ours, killed after the chmod that
# comes before a chown (the owner of an existing destination is set
# again): still unfinished, so the next -u finishes it.
if test "$(id -u)" = 0 && strace -V > /dev/null 2>&1; then
  mkdir r.src && head -c 100000 /dev/urandom > r.src/f && chmod 644 r.src/f &&
  touch -d 2020-01-01 r.src/f r.src || framework_failure_
  (with_shim_ CPR_SHIM_COPY_RANGE=$emulate_ CPR_SHIM_FAIL=copy_range:50000:KILL \
     CPR_CHUNK_SIZE=32768 cpr -aT r.src r.dst) 2> /dev/null
  (strace -qq -o /dev/null -e trace=fchown -e inject=fchown:signal=SIGKILL:when=1 \
     cpr -aTu r.src r.dst) 2> /dev/null
  cpr -aTu r.src r.dst && cmp r.src/f r.dst/f &&
    test "$(stat -c %a r.dst/f)" = 644 \
    || { echo "killed before a chown, then -u: mode $(stat -c %a r.dst/f)"; fail=1; }
fi

# Root's copies onto another user's files that cpr did not make leave
# them as GNU cp does: a sticky file keeps its mode, and a FIFO that -u
# skips keeps its owner and mode (that user may hold it open).
if test -n "$as_"; then
  mkdir g.cpr && printf 's\n' > g.src && chmod 0444 g.src &&
  touch -d 2020-01-01 g.src && mkfifo -m 600 g.fifo &&
  touch -d 2020-01-01 g.fifo || framework_failure_
  for impl in gnu cpr; do
    if test $impl = gnu; then prog=$CR_REF; else prog=cpr; fi
    rm -rf g.$impl && mkdir g.$impl && printf 'x\n' > g.$impl/s &&
    printf 'x\n' > g.$impl/n && mkfifo -m 666 g.$impl/p &&
    chmod 1644 g.$impl/s && chmod 1600 g.$impl/n &&
    chown nobody g.$impl/s g.$impl/n g.$impl/p || framework_failure_
    $prog g.src g.$impl/s && $prog --no-preserve=mode g.src g.$impl/n &&
      $prog -au g.fifo g.$impl/p || fail=1
    stat -c '%n %a %U' g.$impl/s g.$impl/n g.$impl/p | sed "s/g\.$impl/g/"
  done > g.out
  sed -n 1,3p g.out > g.gnu.out && sed -n 4,6p g.out > g.cpr.out
  compare g.gnu.out g.cpr.out || fail=1
fi

# With hard links among the sources, -u never replaces a symlink in the
# place of one of their copies by a link (GNU cp goes through it, and
# refuses a dangling one).
mkdir hl hl.dst && printf 'a\n' > hl/f && ln hl/f hl/g &&
touch -d 2020-01-01 hl/f && printf 'b\n' > hl.dst/f && ln -s nowhere hl.dst/g \
  || framework_failure_
cpr -ru hl/. hl.dst 2> /dev/null
test -h hl.dst/g || { echo "-u replaced a symlink by a link"; fail=1; }

# Root's --preserve=ownership copy onto another user's sticky file, killed
# at each removal of the mark: the chown makes the file root's, sticky,
# as if cpr had made it; the mark on it, which the file's owner could
# have written (or, as here, whose data that user could have written
# through a descriptor held open), must not be trusted.
if test -n "$as_" && strace -V > /dev/null 2>&1; then
  for k in 1 2 3; do
    rm -f o.dst && head -c $size /dev/zero | tr '\0' x > o.dst &&
    chown nobody o.dst && chmod 1600 o.dst || framework_failure_
    (CPR_CHUNK_SIZE=1048576 strace -f -qq -o /dev/null -e trace=fremovexattr \
       -e inject=fremovexattr:signal=SIGKILL:when=$k \
       cpr --preserve=ownership src o.dst) 2> /dev/null
    printf EVIL | dd of=o.dst conv=notrunc status=none || framework_failure_
    cpr --continue src o.dst && cmp -s src o.dst \
      || { echo "another user's sticky file, killed at removal $k of the" \
                "mark: --continue kept $(head -c 4 o.dst)"; fail=1; }
  done
fi

# The same file copied with -a, killed at the chown or at the times:
# the file still says it is unfinished, so that -u gives it its owner,
# times and xattrs.
if test -n "$as_" && strace -V > /dev/null 2>&1; then
  cp src a.src && setfattr -n user.colour -v blue a.src &&
  touch -d 2020-01-01 a.src || framework_failure_
  for call in fchown utimensat; do
    rm -f a.dst && printf 'theirs\n' > a.dst && chown nobody a.dst &&
    chmod 1644 a.dst || framework_failure_
    (strace -f -qq -o /dev/null -e trace=$call \
       -e inject=$call:signal=SIGKILL:when=1 cpr -a a.src a.dst) 2> /dev/null
    cpr -au a.src a.dst || fail=1
    test "$(stat -c '%U %a %Y' a.dst)" = "root 644 $(stat -c %Y a.src)" &&
      test "$(getfattr --only-values -n user.colour a.dst 2>/dev/null)" = blue &&
      cmp -s a.src a.dst \
      || { echo "another user's sticky file, -a killed at $call, then -u:" \
                "$(stat -c '%U %a %y' a.dst)"; fail=1; }
  done
fi

# A destination with a mark that cannot be written anew (EIO): the old
# mark, which names other data, is gone once the copy is.
cp genuine stale && setfattr -n $mark -v "$value" stale || framework_failure_
with_shim_ CPR_SHIM_XATTR=fsetxattr:EIO cpr src stale && cmp src stale \
  || fail=1
test -z "$(getfattr -n $mark stale 2> /dev/null)" \
  || { echo "a stale mark outlived the copy"; fail=1; }

Exit $fail
