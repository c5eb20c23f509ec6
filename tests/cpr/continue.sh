#!/bin/sh
# --continue: a multi-file 'cpr -a' killed (SIGKILL, from the data mover's
# shim) at several points leaves, in every destination file that is not
# yet a whole copy, a sign of a partial copy: the sticky bit, from the
# file's creation on, and the xattr mark once there is progress to record;
# 'cpr -a --continue' then makes the tree the same as the source, byte for
# byte and by attributes (tree-state snapshots), moving only the bytes the
# marks did not account for (the shim counts what the data calls moved;
# the kernel's I/O accounting, /proc/PID/io, counts it too).
# A source changed between the two runs is copied whole; the mark is
# brought up to date at most once a second, removed as the last step,
# never copied from a source that has one; a destination without user
# xattrs is named once with --continue and not at all without it.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0
require_gnu_cp_

tree_state=$abs_top_builddir/tests/cpr/tree-state
test -x "$tree_state" || framework_failure_ "tree-state not built"
command -v getfattr > /dev/null && command -v setfattr > /dev/null \
  || skip_ "getfattr and setfattr (attr) are needed"
: > probe && setfattr -n user.probe -v 1 probe 2> /dev/null \
  || skip_ "the test directory's file system has no user xattrs"

mark=$partial_mark_

# run_ LOG [VAR=VALUE]... cpr ARG...: run cpr with the shim logging its
# data calls to LOG, 1 MiB a call, each call taking 1.1 s on a clock of
# its own: every chunk brings the mark up to date; where the kernel has
# /proc/PID/io, its I/O accounting in LOG's name with .io for .log.
# Status in $rc.
io_=
test -r /proc/self/io && grep -q '^wchar:' /proc/self/io && io_=with_io_
run_ ()
{
  log_=$1; shift
  rm -f "$log_"
  $io_ ${io_:+"${log_%.log}.io"} env LD_PRELOAD="$shim_" \
    CPR_SHIM_COPY_RANGE=$emulate_ CPR_SHIM_LOG=$log_ \
    CPR_CHUNK_SIZE=1048576 CPR_SHIM_CALL_NS=1100000000 "$@"
  rc=$?
}

# same_tree_ A B: A and B have the same contents and attributes.
same_tree_ ()
{
  "$tree_state" snapshot "$1" > snap.a && "$tree_state" snapshot "$2" > snap.b \
    || framework_failure_
  compare snap.a snap.b
}

mkdir src src/sub || framework_failure_
head -c 3145729 /dev/urandom > src/a &&
head -c 2097155 /dev/urandom > src/sub/b &&
head -c 1048576 /dev/urandom > src/sub/c &&
printf 'small\n' > src/small && : > src/empty &&
ln src/sub/c src/hard && ln -s a src/sym &&
setfattr -n user.colour -v blue src/a && chmod 0640 src/sub/b \
  || framework_failure_
"$tree_state" times src || framework_failure_
# Bytes a whole copy moves: each inode once.
full=$(find src -type f -printf '%i %s\n' | sort -u |
       awk '{ s += $2 } END { print s }')

# Killed at a data call at offset 0 of the first file copied: the sticky
# bit is there before the first byte; at 1 MiB, 2.5 MiB (not a chunk
# boundary) and 3 MiB of the first file to get there; at the xattr calls:
# the second mark written (the first file of more than one chunk, its
# second update: files copied in one call get none), and the first mark
# removed (a file whole, its attributes set).
n=0
for kill in copy_range:0:KILL copy_range:1048576:KILL \
    copy_range:2500000:KILL copy_range:3145728:KILL \
    xattr=fsetxattr:KILL:2 xattr=fremovexattr:KILL:1; do
  n=$((n + 1))
  case $kill in
    xattr=*) set -- CPR_SHIM_XATTR=${kill#xattr=} ;;
    *) set -- CPR_SHIM_FAIL=$kill ;;
  esac
  rm -rf dst
  run_ kill$n.log "$@" cpr -aT src dst
  test $rc = 137 || { echo "$kill: status $rc, not killed"; fail=1; }
  check_marked_ src dst || fail=1
  kept=$(kept_ dst)
  case $kill in
    copy_range:0:*) test $kept = 0 &&
                    test -n "$(find dst -type f -size 0 -perm -1000)" \
                      || { echo "$kill: no mark before the first byte"; fail=1; } ;;
    copy_range:*) test $kept -ge 1048576 || { echo "$kill: kept $kept"; fail=1; } ;;
  esac
  # ext4 keeps about 60 bytes of attributes in a 256-byte inode; a
  # longer mark goes to a block of its own, and set and removed for
  # every file it made cpr -r of small files several times slower.
  for f in $(find dst -type f); do
    v=$(getfattr --only-values -n $mark "$f" 2> /dev/null) || continue
    test ${#v} -le 56 || { echo "$f: a mark of ${#v} bytes: $v"; fail=1; }
  done

  run_ cont$n.log cpr -aT --continue src dst
  test $rc = 0 || fail=1
  same_tree_ src dst || fail=1
  moved=$(moved_ cont$n.log)
  echo "killed at $kill: kept $kept of $full bytes, moved $moved"
  test $moved = $((full - kept)) \
    || { echo "$kill: moved $moved, not $full - $kept"; fail=1; }
  # The kernel's count (copy_file_range's, emulating copy_range here) too.
  test -z "$io_" || check_io_moved_ "$kill" cont$n.io cont$n.log \
                      $((full - kept)) || fail=1
done

# With -u too, the files that were whole are not copied again: only the
# rest of the marked one and the files not there yet move.  (A tree
# where no file has two names: -u skips a whole one before --preserve=links
# would remember it.)
mkdir usrc && head -c 2097155 /dev/urandom > usrc/b &&
head -c 1048576 /dev/urandom > usrc/c && printf 'd\n' > usrc/d &&
"$tree_state" times usrc || framework_failure_
rm -rf dst
mkdir dst && cpr -a usrc/c usrc/d dst || fail=1
run_ killu.log CPR_SHIM_FAIL=copy_range:1500000:KILL cpr -aT usrc dst
test $rc = 137 || fail=1
kept=$(kept_ dst)
whole=$( (cd dst && find . -type f) | while read f; do
           test -z "$(offset_ "dst/$f")" && cmp -s "usrc/$f" "dst/$f" &&
             stat -c %s "usrc/$f"
         done | awk '{ s += $1 } END { print s + 0 }')
test $whole = 1048578 || { echo "-u: $whole bytes whole, not c and d"; fail=1; }
sub=$(cat usrc/* | wc -c)
run_ contu.log cpr -aTu --continue usrc dst
test $rc = 0 && same_tree_ usrc dst || fail=1
echo "-u: kept $kept, skipped $whole of $sub bytes, moved $(moved_ contu.log)"
test $(moved_ contu.log) = $((sub - kept - whole)) \
  || { echo "-u: moved $(moved_ contu.log), not $sub - $kept - $whole"; fail=1; }

# A source changed since the mark was written is copied whole: here its
# timestamp changed, with the same size and data.
rm -rf dst
run_ kill-chg.log CPR_SHIM_FAIL=copy_range:2500000:KILL cpr -aT src dst
test $rc = 137 || fail=1
test "$(offset_ dst/a)" -gt 0 || { echo "a was not the file killed"; fail=1; }
touch -m -d '2001-02-03 04:05:06' src/a || framework_failure_
run_ cont-chg.log cpr -aT --continue src/a dst/a
test $rc = 0 && cmp src/a dst/a || fail=1
test "$(first_at_ cont-chg.log copy_range)" = 0 \
  || { echo "changed source continued at $(first_at_ cont-chg.log copy_range)"; fail=1; }
test $(moved_ cont-chg.log) = $(stat -c %s src/a) || fail=1
test -z "$(getfattr -n $mark dst/a 2>/dev/null)" || fail=1
"$tree_state" times src || framework_failure_

# Without --continue a marked destination is copied whole too.
rm -rf dst
run_ kill-plain.log CPR_SHIM_FAIL=copy_range:2500000:KILL cpr -aT src dst
run_ plain.log cpr -aT src dst
test $rc = 0 && same_tree_ src dst || fail=1
test $(moved_ plain.log) = $full || fail=1

# A read-only source: its copy is made with owner write permission until
# its final mode, so that a killed copy can be opened again and marked
# (the kernel wants write permission to set a user xattr, unless
# privileged: so, run by root, the copies are made as nobody); the
# continued copy ends with the mode GNU cp gives a whole copy, even when
# killed before its first byte.
as_=
if test "$(id -u)" = 0 && id -u nobody > /dev/null 2>&1 && chmod a+rx .; then
  as_="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups --"
  $as_ test -x "$PWD" 2> /dev/null || as_=
fi
test -n "$as_" || test "$(id -u)" != 0 \
  || echo "read-only source: copied as root, whose marks need no write permission"
mkdir ro && cp src/a ro/src && chmod 0444 ro/src || framework_failure_
test -z "$as_" || chown nobody ro || framework_failure_
"$CR_REF" ro/src ro.gnu || framework_failure_
for at in 0 2500000; do
  rm -f ro/dst ro/*.log
  run_ ro/kill.log CPR_SHIM_FAIL=copy_range:$at:KILL $as_ cpr ro/src ro/dst
  test $rc = 137 && marked_ ro/dst || fail=1
  run_ ro/cont.log $as_ cpr --continue ro/src ro/dst
  test $rc = 0 && cmp ro/src ro/dst || fail=1
  test "$(stat -c %a ro/dst)" = "$(stat -c %a ro.gnu)" \
    || { echo "killed at $at, continued: mode $(stat -c %a ro/dst)," \
              "GNU cp's $(stat -c %a ro.gnu)"; fail=1; }
done

# -n leaves an existing destination alone, marked or not, --continue or
# not: nothing moves, the partial copy and its mark stay.
rm -f a.n
run_ kill-n.log CPR_SHIM_FAIL=copy_range:2500000:KILL cpr src/a a.n
o=$(offset_ a.n) z=$(stat -c %s a.n)
test $rc = 137 && test "$o" -gt 0 || fail=1
run_ cont-n.log cpr -n --continue src/a a.n
# The shim writes its log at the first data call: there must be none.
test $rc = 0 && test ! -e cont-n.log && test "$(offset_ a.n)" = "$o" \
  && test "$(stat -c %s a.n)" = "$z" \
  || { echo "-n --continue changed a.n: status $rc, mark '$(offset_ a.n)'"; fail=1; }

# A copy that fails (EIO from the data call at 1 MiB) keeps its mark with
# --continue, and a later --continue goes on from there; without
# --continue it is left as GNU cp leaves it: no xattr, no sticky bit (it
# failed, and said so).  (A file cpr did not make, as the one the first
# failure leaves, is not continued: it is copied whole.)
rm -f a.fail
run_ fail.log CPR_SHIM_FAIL=copy_range:1048576:EIO cpr src/a a.fail 2> err
test $rc = 1 && grep -q 'error copying' err || fail=1
test -z "$(offset_ a.fail)" || { echo "a failed copy kept its mark"; fail=1; }
marked_ a.fail && { echo "a failed copy kept its sticky bit"; fail=1; }
rm -f a.fail
run_ fail-c.log CPR_SHIM_FAIL=copy_range:1048576:EIO cpr --continue src/a a.fail \
  2> err
test $rc = 1 && test "$(offset_ a.fail)" = 1048576 && test -k a.fail \
  || { echo "--continue: mark '$(offset_ a.fail)' after a failure"; fail=1; }
run_ fail-cc.log cpr --continue src/a a.fail
test $rc = 0 && cmp src/a a.fail || fail=1
test "$(first_at_ fail-cc.log copy_range)" = 1048576 \
  || { echo "a failed copy continued at $(first_at_ fail-cc.log copy_range)"; fail=1; }

# The mark is brought up to date at most once a second: with each 1 MiB
# call taking 0.3 s, 10 calls (3 s) write it at most 1 + 3 times, yet
# more than once.
head -c 10485760 /dev/urandom > ten || framework_failure_
rm -f ten.copy
with_shim_ CPR_SHIM_COPY_RANGE=$emulate_ CPR_SHIM_LOG=rate.log \
  CPR_CHUNK_SIZE=1048576 CPR_SHIM_CALL_NS=300000000 cpr ten ten.copy || fail=1
cmp ten ten.copy || fail=1
sets=$(grep -c "^fsetxattr $mark .* 0 0\$" rate.log)
test $sets -ge 2 && test $sets -le 4 \
  || { echo "the mark was written $sets times in 3 s"; cat rate.log; fail=1; }
test $(grep -c "^fremovexattr $mark .* 0 0\$" rate.log) = 1 || fail=1

# A source that carries a mark (a partial copy copied further) does not
# give it to its copy; its other user xattrs are copied.
printf 'data\n' > marked &&
setfattr -n $mark -v '1 1 2 3 4.5 0' \
  marked && setfattr -n user.other -v x marked || framework_failure_
cpr -a marked marked.copy || fail=1
test -z "$(getfattr -n $mark marked.copy 2>/dev/null)" || fail=1
test "$(getfattr --only-values -n user.other marked.copy)" = x || fail=1

# A destination file system without user xattrs (the shim fails every
# user.* call with ENOTSUP): --continue says so once, for the run, and
# copies the files whole; without it nothing is said.
rm -rf dst
# (Nor can the copies get src/a's user.colour: compare the data.)
run_ nox.log CPR_SHIM_XATTR='*:ENOTSUP' cpr -aT src dst 2> err
test $rc = 0 && diff -r src dst || fail=1
compare /dev/null err || fail=1
rm -rf dst
run_ nox-kill.log CPR_SHIM_XATTR='*:ENOTSUP' CPR_SHIM_FAIL=copy_range:2500000:KILL \
  cpr -aT src dst
test $rc = 137 || fail=1
run_ nox-cont.log CPR_SHIM_XATTR='*:ENOTSUP' cpr -aT --continue src dst 2> err
test $rc = 0 && diff -r src dst || fail=1
test $(wc -l < err) = 1 && grep -q 'cannot mark partial copies on the file system of' err \
  || { cat err; fail=1; }
test $(moved_ nox-cont.log) = $full || fail=1

Exit $fail
