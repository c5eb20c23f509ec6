#!/bin/sh
# bench/lib.sh's helpers: make_tree makes the same mix of sizes from the
# same seed and another from another seed; verify passes a true copy and
# fails, loudly, one that differs; count_trace counts the successful
# copy_range, FICLONE and copy_file_range calls of an strace -f trace and
# the failed ones, with or without -ttt's times; profile_trace splits a
# trace's time into start-up, the calls, between and after them;
# count_calls runs strace with a filter that this strace accepts and
# that keeps read and write out of the trace, and record_calls records
# the counts and the profile; timed measures a child's wall clock and
# CPU time; rotate gives each run of a round of tools its own first.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"
fail=0
command -v bash > /dev/null || skip_ "bash is not installed"

# lib.sh is bash; each check runs in a bash of its own, with BENCH_RAW.
lib=$abs_top_srcdir/bench/lib.sh
run_ () { bash -c 'set -euo pipefail; . "$1"; shift; BENCH_RAW=raw.csv BENCH_WHERE=here; eval "$@"' bash "$lib" "$@"; }

# The same tree from the same seed, another from another seed.
run_ 'make_tree t1 2000 7; make_tree t2 2000 7; make_tree t3 2000 8' || fail=1
diff -r t1 t2 || fail=1
diff -r -q t1 t3 > /dev/null && fail=1
test "$(find t1 -type f | wc -l)" = 2000 || fail=1
test "$(find t1 -type d | wc -l)" = 23 || fail=1   # t1, d0 d1, 20 folders
# The mix: some empty files, one large one (the 151st: 1, 2, 4, 8 or
# 16 MiB) and none other over 1 MiB, a median of a few KiB, no two
# non-empty files alike.
find t1 -type f -printf '%s\n' | sort -n > sizes || framework_failure_
empty=$(grep -c '^0$' sizes)
test "$empty" -ge 20 && test "$empty" -le 100 || { echo "empty: $empty"; fail=1; }
case $(stat -c %s t1/d0/d1/f150) in
  1048576|2097152|4194304|8388608|16777216) ;;
  *) fail=1 ;;
esac
test "$(awk '$1 > 1048576' sizes | wc -l)" -le 1 || fail=1
median=$(sed -n 1000p sizes)
test "$median" -ge 2048 && test "$median" -le 8192 || { echo "median: $median"; fail=1; }
test "$(awk '$1 > 65536' sizes | wc -l)" -ge 20 || fail=1
test "$(find t1 -type f -size +0 -exec md5sum {} + | cut -d' ' -f1 | sort | uniq -d | wc -l)" = 0 \
  || fail=1
label=$(run_ 'tree_label t1 2000') || fail=1
expected=$(awk '{ b += $1 } END { printf "tree 2000 files %.1f MiB", b / 1048576 }' sizes)
test "$label" = "$expected" || { echo "label: $label"; fail=1; }

# verify: a true copy passes; a changed byte, a missing file or an extra
# one fails, naming the copy.
cp -a t1 c || framework_failure_
run_ 'verify t1 c tree' || fail=1
run_ 'verify t1/d0/d0/f1 c/d0/d0/f1 file' || fail=1
f=$(find c -type f -size +1k | head -n 1)
printf x | dd of="$f" bs=1 seek=100 conv=notrunc status=none || framework_failure_
run_ 'verify t1 c "the tree"' 2> err && fail=1
grep 'WRONG COPY: the tree' err || fail=1
run_ "verify t1/${f#c/} $f file" 2> err && fail=1
grep 'WRONG COPY' err || fail=1
rm -rf c && cp -a t1 c && rm c/d1/d9/f1999 || framework_failure_
run_ 'verify t1 c tree' 2> /dev/null && fail=1
rm -rf c && cp -a t1 c && : > c/d0/d0/extra || framework_failure_
run_ 'verify t1 c tree' 2> /dev/null && fail=1

# count_trace on a trace as strace 6.1 writes it: copy_range as
# syscall_0x1c3, FICLONERANGE not a FICLONE, an unfinished call judged
# by its resumed line.
cat > trace <<'TRACE' || framework_failure_
100 execve("/usr/bin/cp", ["cp"], 0x7ffd /* 1 vars */) = 0
100 ioctl(2, TCGETS, 0x7ffe4190eb10)  = -1 ENOTTY (Inappropriate ioctl for device)
100 syscall_0x1c3(0x3, 0, 0xffffffffffffffff, 0, 0, 0) = -1 EFAULT (Bad address)
100 syscall_0x1c3(0x3, 0x7ffc, 0x4, 0x7ffc, 0x1000000, 0) = 16777216
100 syscall_0x1c3(0x3, 0x7ffc, 0x4, 0x7ffc, 0x40000000, 0) = 1056964608
100 ioctl(4, BTRFS_IOC_CLONE or FICLONE, 3) = 0
100 ioctl(4, BTRFS_IOC_CLONE or FICLONE, 3) = -1 EOPNOTSUPP (Operation not supported)
100 ioctl(4, BTRFS_IOC_CLONE_RANGE or FICLONERANGE, {src_fd=3, src_offset=0, src_length=0, dest_offset=0}) = 0
100 copy_file_range(3, [0], 4, [0], 16777216, 0 <unfinished ...>
101 copy_file_range(5, NULL, 6, NULL, 9, 0) = -1 EXDEV (Invalid cross-device link)
100 <... copy_file_range resumed>) = 100000
100 copy_file_range(3, [100000], 4, [100000], 16777216, 0) = 0
100 cachestat(3, 0x7ffc, 4, 0x7ffc, 4096, 0) = 4096
100 exit_group(0)                     = ?
TRACE
test "$(run_ 'count_trace trace')" = "3 1 2 3" || fail=1
# The same calls, with -ttt's time after each process ID and -T's
# duration at the end, give the same counts.
awk '{ $1 = $1 " " sprintf("%.6f", 1000 + NR / 1000) } 1' trace > ttrace || framework_failure_
sed -i 's/\(= [-0-9].*\)$/\1 <0.000100>/' ttrace || framework_failure_
grep '^100 1000.004000 syscall_0x1c3(.* = 16777216 <0.000100>$' ttrace > /dev/null \
  || framework_failure_
test "$(run_ 'count_trace ttrace')" = "3 1 2 3" || fail=1

# profile_trace: start-up from the execve to the first successful call
# (the failed probe is start-up), 16 ms inside the calls (the resumed
# call's -T is the whole call), 6 ms between them (42 - 20 - 16), 8 ms
# to exit_group; 24 MiB moved by 2 calls (the one that returned 0, at
# the end of the file, left out), the longest 10 ms.
cat > ptrace <<'TRACE' || framework_failure_
100 1000.000000 execve("/usr/local/bin/cpr", ["cpr", "a", "b"], 0x7ffd /* 1 vars */) = 0 <0.001000>
100 1000.010000 syscall_0x1c3(0x3, 0, 0xffffffffffffffff, 0, 0, 0) = -1 EFAULT (Bad address) <0.000010>
100 1000.020000 syscall_0x1c3(0x3, 0x7ffc, 0x4, 0x7ffc, 0x1000000, 0) = 16777216 <0.005000>
100 1000.030000 copy_file_range(3, [0], 4, [0], 16777216, 0 <unfinished ...>
101 1000.031000 copy_file_range(5, NULL, 6, NULL, 9, 0) = -1 EXDEV (Invalid cross-device link) <0.000020>
100 1000.040000 <... copy_file_range resumed>) = 8388608 <0.010000>
100 1000.041000 copy_file_range(3, [25165824], 4, [25165824], 16777216, 0) = 0 <0.001000>
100 1000.050000 exit_group(0)                     = ?
TRACE
test "$(run_ 'count_trace ptrace')" = "1 0 2 2" || fail=1
test "$(run_ 'profile_trace ptrace')" = "20.000 16.000 6.000 8.000 12.000 10.000" \
  || { run_ 'profile_trace ptrace'; fail=1; }
# A FICLONE moves no counted bytes; no successful call, no profile.
grep -v 'copy_file_range\|0x1000000' ptrace \
  | sed 's/^\(100 1000.010000\) .*/\1 ioctl(4, BTRFS_IOC_CLONE or FICLONE, 3) = 0 <0.002000>/' \
  > ftrace || framework_failure_
test "$(run_ 'count_trace ftrace')" = "0 1 0 0" || fail=1
test "$(run_ 'profile_trace ftrace')" = "10.000 2.000 0.000 38.000 - 2.000" \
  || { run_ 'profile_trace ftrace'; fail=1; }
grep -v 'copy_file_range(3\|0x1000000' ptrace > ntrace || framework_failure_
test "$(run_ 'profile_trace ntrace')" = "- - - - - -" || fail=1
# record_calls records the counts and the profile, leaving out a "-".
rm -f raw.csv
run_ 'calls_cr=1 calls_ficlone=0 calls_cfr=2 calls_failed=2
      read -r prof_startup_ms prof_calls_ms prof_between_ms prof_after_ms \
        prof_mib_per_call prof_longest_ms <<< "$(profile_trace ftrace)"
      record_calls fs wl tool' || fail=1
test "$(cut -d, -f7 raw.csv | tr '\n' ' ')" = "copy_range_calls ficlone_calls copy_file_range_calls failed_calls prof_startup_ms prof_calls_ms prof_between_ms prof_after_ms prof_longest_ms " \
  || { cat raw.csv; fail=1; }
grep '^here,fs,wl,tool,1,1,prof_after_ms,38.000$' raw.csv > /dev/null || fail=1
rm -f raw.csv

# count_calls with the real strace, on GNU cp: the filter is accepted,
# read and write stay out of the trace, each line has its time and
# duration, and the copy makes at least one FICLONE or copy_file_range
# call, or fails one, and is profiled.
if command -v strace > /dev/null; then
  head -c 100000 /dev/urandom > a || framework_failure_
  run_ 'count_calls ctrace cp a b
        echo "$calls_cr $calls_ficlone $calls_cfr $calls_failed $prof_startup_ms $prof_calls_ms" > counts' \
    || fail=1
  cmp a b || fail=1
  read cr ficlone cfr failed startup incalls < counts || fail=1
  test "$cr" = 0 || fail=1
  test $((ficlone + cfr + failed)) -ge 1 || { cat ctrace; fail=1; }
  if test $((ficlone + cfr)) -ge 1; then
    case $startup$incalls in
      *[!0-9.]*|'') echo "profile: $startup $incalls"; fail=1 ;;
    esac
  fi
  grep -E '^[0-9]+ +[0-9]+\.[0-9]+ +(read|write)\(' ctrace && fail=1
  grep -E '^[0-9]+ +[0-9]+\.[0-9]{6} +execve\(.* <[0-9]+\.[0-9]+>$' ctrace > /dev/null || fail=1
fi

# timed: a sleep's wall clock, not its CPU; a busy child's CPU.
run_ 'timed sleep 0.3; echo "$wall_us $user_ms $sys_ms"' > t || fail=1
read wall user sys < t || fail=1
test "$wall" -ge 300000 || fail=1
test $((user + sys)) -lt 100 || { cat t; fail=1; }
run_ 'timed sh -c "i=0; while [ \$i -lt 300000 ]; do i=\$((i + 1)); done"
      echo "$wall_us $user_ms $sys_ms"' > t || fail=1
read wall user sys < t || fail=1
test "$user" -ge 10 || { cat t; fail=1; }
test $((user + sys)) -le $((wall / 1000 + 10)) || { cat t; fail=1; }
# And into the raw file, as seconds.
run_ 'timed true; record_times fs wl tool 1' || fail=1
test "$(cut -d, -f7 raw.csv | tr '\n' ' ')" = "time_s user_s sys_s " || fail=1
test "$(cut -d, -f1-6 raw.csv | sort -u)" = "here,fs,wl,tool,1,1" || fail=1

# rotate: run N of a round starts with the next tool, and every tool
# comes once.
test "$(run_ 'rotate 0 cpr gnu busybox' | tr '\n' ' ')" = "cpr gnu busybox " || fail=1
test "$(run_ 'rotate 1 cpr gnu busybox' | tr '\n' ' ')" = "gnu busybox cpr " || fail=1
test "$(run_ 'rotate 5 cpr gnu busybox' | tr '\n' ' ')" = "busybox cpr gnu " || fail=1
test "$(run_ 'rotate 3 cpr' | tr '\n' ' ')" = "cpr " || fail=1

Exit $fail
