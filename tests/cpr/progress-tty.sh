#!/bin/sh
# --progress as a person sees it: cpr runs in a pseudo-terminal (script
# from util-linux), and what it writes there is checked.  The status line
# shows bytes done / total and files done / total, is redrawn in place
# (carriage return, then ESC [ K after the text), never runs ahead of the
# data and ends with a summary line; it is cut to the terminal's width
# less one column (stty cols 40), follows a SIGWINCH, and is taken off
# the screen before a -v line, an error message and an -i prompt, and
# when ^C ends the copy.  With no option and with --progress=never
# nothing of it is written.
#
# The shim makes each copy_file_range call seem to take 150 ms
# (CPR_SHIM_CALL_NS), which is more than the 100 ms between two redraws:
# every 1 MiB chunk (CPR_CHUNK_SIZE) is shown, whatever the speed of this
# machine, and the run takes a fraction of a second.  Only the SIGWINCH case runs in
# real time, with calls slowed by CPR_SHIM_SLEEP_NS.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0

command -v script > /dev/null || skip_ "script (util-linux) is not installed"
script -qec true /dev/null < /dev/null > /dev/null 2>&1 ||
  skip_ "script cannot open a pseudo-terminal here"

M=1048576
head -c $((8 * M)) /dev/zero > big1 || framework_failure_
head -c $((8 * M)) /dev/zero > big2 || framework_failure_
mkdir d || framework_failure_

# in_tty_ COLS CMD...: run CMD (a shell command) with the shim in a
# terminal of COLS columns; its screen output goes to 'ts', its status
# to 'rc', and 'seg' gets the output cut at every carriage return and
# newline, one piece a line, with ESC [ K written <K>.
in_tty_ ()
{
  cols=$1; shift
  rm -f ts seg log
  env TERM=xterm LD_PRELOAD="$shim_" CPR_SHIM_LOG="$PWD/log" \
    script -qec "stty cols $cols; $*; echo rc=\$? > rc" ts \
    < /dev/null > /dev/null 2>&1 || framework_failure_ "script failed"
  grep -v '^Script \(started\|done\) ' ts | tr '\r' '\n' |
    sed 's/\x1b\[K/<K>/g; /^$/d' > seg || framework_failure_
}

# The status lines in 'seg', without <K>.
status_lines_ () { grep ' / ' seg | grep -v ': ' | sed 's/<K>//g'; }

# The shim's log shows which calls moved the bytes: the clock the shim
# advances is only the offload calls', so the copies must be offloaded.
offloaded_ ()
{
  grep -q '^copy_file_range .* [1-9][0-9]* 0$' log ||
    grep -q '^copy_range .* [1-9][0-9]* 0$' log ||
    skip_ "the kernel offloads no copy here (copy_file_range refused)"
}

fast="CPR_SHIM_CALL_NS=150000000 CPR_CHUNK_SIZE=$M"

# Two files and -v: the status line is there during the copy, in order,
# cleared before the second -v line, and replaced by the summary.
in_tty_ 80 "env $fast cpr --progress -v big1 big2 d"
offloaded_
grep -x 'rc=0' rc > /dev/null || { cat rc; fail=1; }
cmp big1 d/big1 && cmp big2 d/big2 || fail=1
status_lines_ > status
test $(wc -l < status) -ge 15 || { echo "few updates:"; cat seg; fail=1; } >&2
# Bytes done / total, with a percentage rounded down, then files done /
# total, the rate, the ETA and how the bytes move.
re='^[0-9.]+ (B|[KMG]iB) / 16 MiB \([0-9]+%\)  [0-2]/2 files'
re="$re  [0-9.]+ [KMG]iB/s  ETA [0-9]+:[0-9][0-9]  in-kernel copy$"
grep -Ev "$re" status && { echo "^^ malformed status lines"; fail=1; } >&2
head -n 1 status | grep '^1\.0 MiB / 16 MiB (6%)  0/2 files  ' > /dev/null ||
  { echo "the first chunk is not shown first:"; cat status; fail=1; } >&2
# Never backwards, never past the bytes copied: each update is a whole
# number of chunks, and 100% only at the end.
sed 's/ MiB .*//' status | awk '
  $1 < prev || $1 != int ($1) { bad = 1 } { prev = $1 }
  END { exit bad || prev != 16 }' || { cat status; fail=1; }
sed '$d' status | grep '(100%)' && { echo "100% before the end"; fail=1; }
# The -v lines start at the left margin: the status line was cleared.
grep -e ' -> ' seg > verbose
grep -c '' verbose | grep -x 2 > /dev/null || { cat seg; fail=1; }
grep -v "^\(<K>\)\?'big[12]' -> 'd/big[12]'$" verbose &&
  { echo "^^ a -v line not at the left margin"; fail=1; } >&2
grep -x "<K>'big2' -> 'd/big2'" verbose > /dev/null ||
  { echo "the status line is not cleared before -v"; cat seg; fail=1; } >&2
# The summary last, on a line of its own after the status line is gone.
tail -n 1 seg > summary
re='^<K>2 files: 16 MiB in [0-9.]+ s, [0-9.]+ [KMG]iB/s; 16 MiB moved:'
grep -E "$re in-kernel copy$" summary > /dev/null ||
  { echo "bad summary:"; cat summary; fail=1; } >&2

# 40 columns: the status line keeps to 39, cut between its fields.
rm -r d && mkdir d || framework_failure_
in_tty_ 40 "env $fast cpr --progress big1 big2 d"
status_lines_ > status
test $(wc -l < status) -ge 15 || { cat seg; fail=1; }
awk 'length ($0) > 39 { print; bad = 1 } END { exit bad }' status || fail=1
grep -Ev '^[0-9.]+ (B|MiB) / 16 MiB \([0-9]+%\)  [0-2]/2 files$' status &&
  { echo "^^ not cut between fields"; fail=1; } >&2
tail -n 1 seg | grep '^<K>2 files: 16 MiB in ' > /dev/null || { cat seg; fail=1; }

# An -i prompt and an error message take the status line off too; the
# answer, read from a file, does not end the prompt's line: cpr does,
# before the status line comes back.
rm -r d && mkdir d && echo old > d/big2 && echo y > yes || framework_failure_
in_tty_ 80 "env $fast cpr --progress -i big1 big2 missing d < yes"
grep -x 'rc=1' rc > /dev/null || { cat rc; fail=1; }
cmp big2 d/big2 || fail=1
grep -x "<K>cpr: overwrite 'd/big2'? " seg > /dev/null ||
  { echo "status line not cleared before the prompt:"; cat seg; fail=1; } >&2
grep -x "<K>cpr: cannot stat 'missing': No such file or directory" seg > /dev/null ||
  { echo "status line not cleared before an error:"; cat seg; fail=1; } >&2
grep -av '^Script ' ts | grep -a "overwrite 'd/big2'? "$(printf '\r')'$' > /dev/null ||
  { echo "the prompt's line is not ended"; fail=1; } >&2

# SIGWINCH: the terminal narrows from 80 to 30 columns during the copy
# (1 MiB chunks that take 100 ms each), once a few chunks are there and
# shown, and the line follows.
rm -r d && mkdir d || framework_failure_
head -c $((30 * M)) /dev/zero > slow || framework_failure_
in_tty_ 80 "env CPR_SHIM_SLEEP_NS=100000000 CPR_CHUNK_SIZE=$M \
  cpr --progress slow d & \
  for i in \$(seq 100); do \
    test \$(stat -c %s d/slow 2> /dev/null || echo 0) -ge $((3 * M)) && break; \
    sleep 0.1; \
  done; stty cols 30; wait"
cmp slow d/slow || fail=1
status_lines_ > status
awk 'length ($0) > 29 { if (narrow) bad = 1; wide++ }
     length ($0) <= 29 { narrow++ }
     END { exit bad || !wide || !narrow }' status ||
  { echo "no resize seen:"; cat status; fail=1; } >&2

# ^C (SIGINT) in the middle of the copy: cpr dies of it, as without
# --progress, and takes the status line off the screen first, so that
# the shell's prompt does not land on it.  (The shell starts a command
# in the background with SIGINT ignored: env gives it back.)
rm -r d && mkdir d || framework_failure_
in_tty_ 80 "env --default-signal=INT CPR_SHIM_SLEEP_NS=100000000 \
  CPR_CHUNK_SIZE=$M cpr --progress slow d & \
  for i in \$(seq 100); do \
    test \$(stat -c %s d/slow 2> /dev/null || echo 0) -ge $((3 * M)) && break; \
    sleep 0.1; \
  done; kill -INT \$!; wait \$!"
grep -x 'rc=130' rc > /dev/null || { echo "^C: $(cat rc)"; fail=1; }
status_lines_ | grep . > /dev/null && test "$(sed -n '$p' seg)" = '<K>' ||
  { echo "^C left the status line on the screen:"; cat seg; fail=1; } >&2

# SIGTERM while the terminal's output is stopped (^S, or an ssh session
# that stalls): cpr still dies of it at once, as without --progress; the
# handler that erases the line must not wait for the terminal.  tcflow
# stops the output as ^S does; it starts again once cpr is gone (or
# after 3 s).  perl-base, which has POSIX's tcflow, is in every Debian.
rm -r d && mkdir d || framework_failure_
in_tty_ 80 "env --default-signal=TERM CPR_SHIM_SLEEP_NS=100000000 \
    CPR_CHUNK_SIZE=$M cpr --progress slow d & \
    for i in \$(seq 100); do \
      test \$(stat -c %s d/slow 2> /dev/null || echo 0) -ge $((3 * M)) && break; \
      sleep 0.1; \
    done; perl -MPOSIX -e 'POSIX::tcflow(0, POSIX::TCOOFF)'; sleep 0.5; \
    kill -TERM \$!; \
    for i in \$(seq 30); do kill -0 \$! 2> /dev/null || break; sleep 0.1; done; \
    kill -0 \$! 2> /dev/null && echo alive > alive; \
    perl -MPOSIX -e 'POSIX::tcflow(0, POSIX::TCOON)'; wait \$!"
test -f alive && { echo "SIGTERM did not end cpr while output was stopped"; fail=1; }
grep -x 'rc=143' rc > /dev/null || { echo "stopped output, SIGTERM: $(cat rc)"; fail=1; }

# Standard output closed: -v fails with a write error, as GNU cp's
# does; the terminal opened anew for the signal handler must not take
# descriptor 1 and receive what -v prints.  (Without the shim, whose
# log would take descriptor 1 first.)
rm -r d && mkdir d || framework_failure_
in_tty_ 80 "env -u LD_PRELOAD cpr --progress -v big1 d >&-"
grep -x 'rc=1' rc > /dev/null && grep 'write error' seg > /dev/null &&
  ! grep -e ' -> ' seg > /dev/null ||
  { echo "-v with standard output closed: $(cat rc)"; cat seg; fail=1; }

# A tree: while a directory found is not listed yet, the totals are
# lower bounds (>=, or U+2265 in a UTF-8 locale), then exact.
mkdir -p t/s1 t/s2 && mv big1 t/s1 && mv big2 t/s2 || framework_failure_
locs=C
locale -a | grep -ix 'c.utf-\?8' > /dev/null && locs='C C.UTF-8'
for loc in $locs; do
  if test $loc = C; then ge='>='; else ge=$(printf '\342\211\245'); fi
  rm -rf d
  in_tty_ 100 "env LC_ALL=$loc $fast cpr --progress -r t d"
  cmp t/s1/big1 d/s1/big1 && cmp t/s2/big2 d/s2/big2 || fail=1
  status_lines_ > status
  grep "^1\.0 MiB / ${ge}8\.0 MiB  0/${ge}1 files  " status > /dev/null &&
    sed -n '$p' status | grep '^16 MiB / 16 MiB (100%)  1/2 files  ' > /dev/null &&
    ! sed -n "/(/,\$p" status | grep -e "$ge" ||
    { echo "$loc: totals not growing:"; cat status; fail=1; } >&2
done

# Without --progress, or with --progress=never, nothing is shown.
for opt in '' --progress=never; do
  rm -rf d
  in_tty_ 80 "env $fast cpr $opt -r t d"
  test -s seg && { echo "cpr $opt wrote:"; cat seg; fail=1; } >&2
done

Exit $fail
