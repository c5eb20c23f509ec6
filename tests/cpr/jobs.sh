#!/bin/sh
# --jobs's own cases (its argument: jobs-args.sh): a tree is copied by
# the workers, but -i and --progress copy one file at a time; with
# --continue on a file system that cannot hold the marks, the warning
# comes once, with the file it comes with one at a time; a copy killed
# with files in flight is continued with --jobs; a file system that
# fills up during the copy (a small tmpfs in a private mount namespace)
# ends with the same files, whole, cut short or missing, and the same
# diagnostics, as a copy one file at a time; and operands with names
# that clash.  Each with --jobs=4 against --jobs=1: the comparisons with
# GNU cp run with --jobs=4 too (tests/cpr-jobs/).

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

# init.sh, the shim and tree-state, in a mount namespace of the test's
# own where root can make one (CR_JOBS_NS).
. "${srcdir=.}/tests/cpr/jobs-lib.sh"

# report_ FILE CMD...: run CMD with cpr's report of its workers and the
# files it handed them (CPR_JOBS_REPORT) added to FILE.
report_ () { r_=$1; shift; env CPR_JOBS_REPORT="$PWD/$r_" "$@"; }
# workers_ FILE, jobs_ FILE: the numbers of the last run reported there.
workers_ () { tail -n 1 "$1" | sed -n 's/^workers \([0-9]*\) .*/\1/p'; }
jobs_ () { tail -n 1 "$1" | sed -n 's/.* jobs \([0-9]*\) .*/\1/p'; }

mkdir -p src/d dst/src/d || framework_failure_
for i in 1 2 3 4 5 6 7 8; do
  head -c $((i * 1500)) /dev/urandom > src/f$i &&
  head -c $((i * 1700)) /dev/urandom > src/d/g$i || framework_failure_
done
printf old > dst/src/f2 && printf old > dst/src/d/g3 && printf old > dst/src/f7 ||
  framework_failure_

# -i: the questions come one at a time, in order.
for jobs in 1 4; do
  rm -rf d$jobs && cp -a dst d$jobs || framework_failure_
  printf 'y\nn\ny\n' | cpr -riv --jobs=$jobs src d$jobs > out$jobs 2>&1
  echo $? >> out$jobs
  sed "s/d$jobs/dst/g" out$jobs > out$jobs.s
  "$tree_state" snapshot d$jobs > tree$jobs || framework_failure_
done
compare out1.s out4.s || fail=1
compare tree1 tree4 || fail=1
grep "overwrite 'd1/src/f7'" out1 > /dev/null || fail=1
# cpr -i started no worker, and copied every file itself.
rm -rf d4 && cp -a dst d4 || framework_failure_
printf 'y\nn\ny\n' | report_ i.rep cpr -ri --jobs=4 src d4 2> /dev/null
test "$(workers_ i.rep)/$(jobs_ i.rep)" = 0/0 ||
  { echo "-i copied side by side:" >&2; cat i.rep >&2; fail=1; }
# Nor did --progress, even not on a terminal.
rm -rf p
report_ p.rep cpr -r --progress=always --jobs=4 src p 2> p.err || fail=1
test "$(workers_ p.rep)/$(jobs_ p.rep)" = 0/0 ||
  { echo "--progress copied side by side:" >&2; cat p.rep >&2; fail=1; }
grep '16 files:' p.err > /dev/null || { cat p.err; fail=1; }
diff -r src p || fail=1
# But a copy of a tree has 4 workers copy its files, all 16 (the file
# system must have room for them: 32 MiB and 1% of it, at most 1 GiB).
rm -rf t
report_ t.rep cpr -r --jobs=4 src t || fail=1
test "$(workers_ t.rep)" = 4 && test "$(jobs_ t.rep)" = 16 ||
  { echo "not copied side by side:" >&2; cat t.rep >&2; df -k . >&2; fail=1; }
diff -r src t || fail=1

# --continue where the file system cannot hold the marks (the shim's
# ENOTSUP): the warning comes once, after the -v line of the first file
# whose copy tries, whatever file a worker tries first.
for jobs in 1 4; do
  rm -rf c$jobs
  with_shim_ CPR_SHIM_XATTR=fsetxattr:ENOTSUP CPR_CHUNK_SIZE=1024 \
    cpr -av --continue --jobs=$jobs src c$jobs > c$jobs.out 2>&1
  echo $? >> c$jobs.out
  sed "s/c$jobs/c/g" c$jobs.out > c$jobs.s || framework_failure_
done
compare c1.s c4.s || fail=1
test "$(grep -c 'cannot mark partial copies' c4.out)" = 1 || { cat c4.out; fail=1; }
diff -r src c4 || fail=1

# Killed (SIGKILL) while copies are in flight, then continued with
# --jobs=8: the copy is the source's, attributes and all.
mkdir k kout || framework_failure_
for d in 1 2 3; do
  mkdir k/d$d || framework_failure_
  for i in 1 2 3 4 5 6 7 8 9 10; do
    head -c $((i * 40000 + d)) /dev/urandom > k/d$d/f$i || framework_failure_
  done
done
chmod 750 k/d2 && chmod 640 k/d3/f4 && "$tree_state" times k || framework_failure_
# Not with_shim_, a function: its process would be a subshell's.
# Each data call takes 0.2 s: the copy takes seconds.
env LD_PRELOAD="$shim_" CPR_SHIM_SLEEP_NS=200000000 CPR_CHUNK_SIZE=65536 \
  cpr -a --jobs=8 k kout &
pid=$!
sleep 1
kill -9 $pid
wait $pid
test $? = 137 || { echo "cpr was not killed while copying" >&2; fail=1; }
test -n "$(find kout -type f -perm -1000)" ||
  { echo "no unfinished copy after the kill" >&2; fail=1; }
cpr -a --continue --jobs=8 k kout || fail=1
"$tree_state" snapshot k > k.snap && "$tree_state" snapshot kout/k > kout.snap ||
  framework_failure_
compare k.snap kout.snap || fail=1

if test -z "${CR_JOBS_NS-}"; then
  echo "$ME_: not root, or no mount namespace: no full file system" >&2
  Exit $fail
fi
mkdir full || framework_failure_
mount -t tmpfs -o size=48m,mode=755 cr-jobs-full full || framework_failure_
cleanup_ () { umount full 2> /dev/null; }

# A file system that fills up: cpr --jobs hands files over while the room
# on it clearly lets every copy in flight fit, then copies one at a time.
mkdir big && for d in 1 2 3 4; do
  mkdir big/d$d || framework_failure_
  for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
    head -c $((1048576 + i * 4096)) /dev/urandom > big/d$d/f$i &&
    printf 'small %s\n' $i > big/d$d/s$i || framework_failure_
  done
done
# full_run_ JOBS ARG...: copy into full, and keep what came of it.
full_run_ ()
{
  jobs_=$1; shift
  rm -rf full/* || framework_failure_
  report_ full.rep cpr --jobs=$jobs_ "$@" full > full$jobs_.out 2>&1
  echo $? >> full$jobs_.out
  "$tree_state" -b snapshot full > full$jobs_.tree || framework_failure_
}
for opts in -rv -av '-rv --sparse=never'; do
  full_run_ 1 $opts big
  full_run_ 4 $opts big
  compare full1.out full4.out || fail=1
  compare full1.tree full4.tree || fail=1
  grep 'No space left on device' full4.out > /dev/null || fail=1
  # Files went to the workers while there was room.
  test "$(jobs_ full.rep)" -gt 0 || { cat full.rep; fail=1; }
done

# Operands with the same name, or names that a file system ignoring case
# takes for one: each is copied once the copies before it are done, so
# that the table of files made stops the second (jobs-names.sh has more).
mkdir x y z && printf 1 > x/f && printf 2 > y/f && printf 3 > z/F &&
  printf 4 > x/g || framework_failure_
for jobs in 1 4; do
  rm -rf full/* || framework_failure_
  cpr -v --jobs=$jobs x/f x/g y/f z/F big/d1/f1 full > ops$jobs.out 2>&1
  echo $? >> ops$jobs.out
  "$tree_state" snapshot full > ops$jobs.tree || framework_failure_
done
compare ops1.out ops4.out || fail=1
compare ops1.tree ops4.tree || fail=1
grep 'will not overwrite just-created' ops4.out > /dev/null || fail=1

Exit $fail
