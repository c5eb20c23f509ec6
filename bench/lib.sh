# shellcheck shell=bash disable=SC2034
# bench/lib.sh: what bench/host and bench/guest share.  Sourced by bash.
#
# Both scripts write raw measurements, one per line, to the CSV file
# $BENCH_RAW with the columns
#   where,fs,workload,tool,boot,run,metric,value
# where boot is BENCH_BOOT, the pass of bench/run (1, 2, ...: the guest
# boot, and the host half run just before it), and run 0 is the warm-up
# (bench/report leaves it out of the figures).
#
# Copyright (C) 2026 The copyrange authors.  GPL-3.0-or-later.

BENCH_RUNS=${BENCH_RUNS:-5}
BENCH_QUICK=${BENCH_QUICK:-}
BENCH_BOOT=${BENCH_BOOT:-1}
# Quick mode is for developing the scripts: small sizes, one counted run.
if [ -n "$BENCH_QUICK" ]; then
  BENCH_RUNS=1
fi

# wanted_workload NAME: whether BENCH_WORKLOADS (file, tree, sweep,
# sparse; default all) asks for the workloads named NAME.
wanted_workload() {
  [ -z "${BENCH_WORKLOADS:-}" ] || [[ " $BENCH_WORKLOADS " == *" $1 "* ]]
}

log() { echo "bench: $* ($(date -u +%H:%M:%S))" >&2; }
die() { echo "bench: $*" >&2; exit 1; }

# The wall clock is bash's EPOCHREALTIME, read as t=$EPOCHREALTIME in
# the shell that runs the copy: through a function in $(...) it would
# fork a subshell, which costs milliseconds under emulation, inside the
# span measured.

# BENCH_TMP: a folder for the scripts' small files (never a copy's).
BENCH_TMP=$(mktemp -d)
trap 'rm -rf "$BENCH_TMP"' EXIT

# child_cpu: set cpu_user_ms and cpu_sys_ms to the user and system time
# of this shell's children so far (those it has waited for, and theirs):
# getrusage(RUSAGE_CHILDREN), which bash's times prints with 3 decimals.
# No fork: times writes to a file and read reads it back, in this shell
# (in $(...) a subshell would see its own children only, and a subshell
# forked after the figures were read would count as the next copy's).
cpu_user_ms=0 cpu_sys_ms=0
child_cpu() {
  local u s
  times > "$BENCH_TMP/times"
  { read -r _ _; read -r u s; } < "$BENCH_TMP/times"
  tms_ms cpu_user_ms "$u"
  tms_ms cpu_sys_ms "$s"
}
# tms_ms VAR 1m2.345s: set VAR to the milliseconds in one of times'
# figures.
tms_ms() {
  local m=${2%%m*} sec=${2#*m}
  sec=${sec%s}
  printf -v "$1" '%d' $((m * 60000 + 10#${sec%.*} * 1000 + 10#${sec#*.}))
}

# timed CMD...: run CMD and set wall_us, user_ms and sys_ms to its wall
# clock, user and system time (microseconds; milliseconds).  Nothing
# but CMD's own fork and exec falls inside the wall clock span.
timed() {
  local c0u c0s t0 t1
  child_cpu; c0u=$cpu_user_ms c0s=$cpu_sys_ms
  t0=$EPOCHREALTIME
  "$@" || return
  t1=$EPOCHREALTIME
  child_cpu
  wall_us=$((${t1/./} - ${t0/./}))
  user_ms=$((cpu_user_ms - c0u)) sys_ms=$((cpu_sys_ms - c0s))
}

# record_times FS WORKLOAD TOOL RUN: record what timed measured.
record_times() {
  record "$1" "$2" "$3" "$4" time_s "$(us_to_s "$wall_us")"
  record "$1" "$2" "$3" "$4" user_s "$(ms_to_s "$user_ms")"
  record "$1" "$2" "$3" "$4" sys_s "$(ms_to_s "$sys_ms")"
}
ms_to_s() { printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)); }

# verify SRC DST WHAT: fail the benchmark, loudly, unless DST holds what
# SRC holds: the same bytes for a file (cmp), the same names, types and
# bytes for a tree (diff -r; symlinks compared as links).  Not timed.
# Owners, modes and times are not compared.
verify() {
  local out=$BENCH_TMP/verify
  if [ -d "$1" ]; then
    diff -r -q --no-dereference "$1" "$2" > "$out" 2>&1
  else
    cmp "$1" "$2" > "$out" 2>&1
  fi || {
    echo "bench: *** WRONG COPY: $3: $2 differs from $1:" >&2
    head -n 20 "$out" >&2
    die "$3: the copy is not the source; no figures are worth anything"
  }
}

# count_calls TRACE-FILE CMD...: run CMD once more, untimed, under
# strace, with the variables of the array tool_env if set, and set
# calls_cr, calls_ficlone and calls_cfr to the number of copy_range,
# FICLONE and copy_file_range calls that succeeded, and
# calls_failed to those of the three that failed (cpr's one-time probe
# of copy_range, a FICLONE the filesystem refused, ...); and set the
# profile of profile_trace in prof_startup_ms, prof_calls_ms,
# prof_between_ms, prof_after_ms, prof_mib_per_call and prof_longest_ms.
# strace 6.1 does not know copy_range (451 on x86_64; 6.5 and later name
# it cachestat) and prints it as syscall_0x1c3, so it can be neither
# asked for by name nor counted by -c: the filter lists the calls to
# leave out instead, the frequent ones, which --seccomp-bpf then lets
# through without stopping, and the calls are counted from the trace.
# -ttt and -T give each line the time the call started and how long it
# took.
count_calls() {
  local trace=$1
  shift
  # strace -E gives the tool its variables (tool_env) without an exec of
  # env(1) in the trace, whose start-up would count as the tool's.
  strace "${tool_env[@]/#/-E}" -f -qq -ttt -T --seccomp-bpf -o "$trace" -e 'trace=!read,write,pread64,pwrite64,openat,open,close,newfstatat,fstat,lstat,stat,statx,lseek,fadvise64,getdents64,mkdir,mkdirat,unlink,unlinkat,fchown,fchownat,lchown,chown,fchmod,fchmodat,chmod,utimensat,fgetxattr,flistxattr,fsetxattr,getxattr,lgetxattr,listxattr,llistxattr,lsetxattr,setxattr,fcntl,mmap,munmap,brk,mprotect,fallocate,ftruncate' \
    "$@" > /dev/null || die "strace $*: failed"
  read -r calls_cr calls_ficlone calls_cfr calls_failed <<< "$(count_trace "$trace")"
  read -r prof_startup_ms prof_calls_ms prof_between_ms prof_after_ms \
    prof_mib_per_call prof_longest_ms <<< "$(profile_trace "$trace")"
}

# count_trace TRACE-FILE: print the counts of count_calls from a trace of
# strace -f, with or without -ttt's time after the process ID:
# "COPY_RANGE FICLONE COPY_FILE_RANGE FAILED".  A call that another
# process's line interrupted ("<unfinished ...>") is judged by its
# "<... NAME resumed>" line.
count_trace() {
  awk "$trace_awk"'
    ok { n[k]++ }
    bad { failed++ }
    END { print n["cr"] + 0, n["ficlone"] + 0, n["cfr"] + 0, failed + 0 }' "$1"
}

# profile_trace TRACE-FILE: from a trace of strace -f -ttt -T, print
# where the time of the copy went, in milliseconds of the traced run:
#   start-up: from the first line (the tool's execve) to the start of
#     its first successful copy_range, FICLONE or copy_file_range call
#     (a failed probe counts as start-up);
#   in calls: the time spent inside the successful calls (-T), all told;
#   between: from the start of the first to the end of the last, less
#     the time in calls (the tool's own work between its calls: the
#     chunk policy's, and for a tree every file's opening and metadata);
#   after: from the end of the last call to the last line (exit_group);
# then the MiB that a copy_range or copy_file_range call moved on
# average (calls that returned 0, the end of the file, left out; "-"
# without one) and the longest call in ms.  "- - - - - -" if no call
# succeeded.  strace stops the tool at each traced call, so the figures
# are larger than in a timed copy; they are for comparing the tools and
# the parts of one copy, not for the table's times.
profile_trace() {
  awk "$trace_awk"'
    {
      if (first == "") first = ts
      # A resumed line is written as its call ends; its -T is the whole call.
      end = $2 == "<..." ? ts : ts + dur
      if (end > last) last = end
    }
    ok {
      if (c0 == "") c0 = t0
      if (t0 + dur > c1) c1 = t0 + dur
      inc += dur
      if (dur > longest) longest = dur
      if (k != "ficlone" && ret > 0) { bytes += ret; moved++ }
    }
    END {
      if (c0 == "") { print "- - - - - -"; exit }
      # Back-to-back calls leave a difference of rounding, perhaps below 0.
      between = (c1 - c0 - inc) * 1000
      if (between < 0.0005) between = 0
      printf "%.3f %.3f %.3f %.3f %s %.3f\n", (c0 - first) * 1000, inc * 1000, \
        between, (last - c1) * 1000, \
        moved ? sprintf("%.3f", bytes / moved / 1048576) : "-", longest * 1000
    }' "$1"
}

# The reading of a trace line that count_trace and profile_trace share:
# sets ts (the -ttt time, or 0), dur (-T, or 0), and for the end of a
# copy_range, FICLONE or copy_file_range call k (cr, ficlone, cfr), t0
# (when it started), ret (what it returned) and ok or bad (it succeeded
# or failed); ok and bad are 0 on every other line.
# shellcheck disable=SC2016 # awk's $ fields, not the shell's
trace_awk='
  function kind(name) {
    if (name ~ /^(syscall_0x1c3|cachestat|copy_range)$/) return "cr"
    if (name == "copy_file_range") return "cfr"
    if (name == "ioctl") return "ioctl"
    return ""
  }
  {
    ok = bad = 0; k = ""; ts = dur = 0
    if ($2 ~ /^[0-9]+\.[0-9]+$/) { ts = $2 + 0; sub(/^[0-9]+ +[0-9.]+ +/, $1 " ") }
    if (match($0, /<[0-9]+\.[0-9]+>$/)) dur = substr($0, RSTART + 1, RLENGTH - 2) + 0
  }
  $2 == "<..." && $4 ~ /^resumed>/ {
    k = pending[$1]; t0 = pstart[$1]; delete pending[$1]
  }
  $2 != "<..." {
    name = $2; sub(/\(.*/, "", name); k = kind(name)
    if (k == "ioctl") k = $0 ~ /^[0-9]+ +ioctl\([0-9]+, [^,]*FICLONE,/ ? "ficlone" : ""
    t0 = ts
    if (k != "" && $0 ~ /<unfinished \.\.\.>$/) { pending[$1] = k; pstart[$1] = ts; k = "" }
  }
  k != "" {
    if ($0 ~ /\) += -1 /) bad = 1
    else {
      ok = 1; ret = $0; sub(/.*\) += /, "", ret); ret += 0
    }
  }
'

# record_calls FS WORKLOAD TOOL: record what count_calls counted and
# profiled, as figures of run 1 (a profile figure that is "-": none).
record_calls() {
  local m v
  record "$1" "$2" "$3" 1 copy_range_calls "$calls_cr"
  record "$1" "$2" "$3" 1 ficlone_calls "$calls_ficlone"
  record "$1" "$2" "$3" 1 copy_file_range_calls "$calls_cfr"
  record "$1" "$2" "$3" 1 failed_calls "$calls_failed"
  for m in startup_ms calls_ms between_ms after_ms mib_per_call longest_ms; do
    v=prof_$m
    [ "${!v:--}" = - ] || record "$1" "$2" "$3" 1 "prof_$m" "${!v}"
  done
}

# us_to_s US: microseconds as seconds with 6 decimals.
us_to_s() { printf '%d.%06d' $(($1 / 1000000)) $(($1 % 1000000)); }

# rotate N WORD...: the WORDs, one a line, from the (N mod their
# number)th on and round: run N of a round of tools starts with the next
# tool, so that a drift within a round (the host writing back the
# guest's disk images, say) does not always fall on the same tool.
rotate() {
  local n=$1 i
  shift
  local words=("$@")
  for ((i = 0; i < $#; i++)); do
    printf '%s\n' "${words[(n + i) % $#]}"
  done
}

# record FS WORKLOAD TOOL RUN METRIC VALUE
record() {
  echo "$BENCH_WHERE,$1,$2,$3,$BENCH_BOOT,$4,$5,$6" >> "$BENCH_RAW"
}

# Every run starts from the same state: dirty data written out and the
# page cache (and dentries and inodes) dropped, so no tool copies from a
# cache another left warm.
drop_caches() {
  sync
  echo 3 > /proc/sys/vm/drop_caches
}

# make_file PATH MIB: a file of MIB MiB of incompressible data, made
# from one random MiB repeated by a single cat (reading /dev/urandom for
# all of it, or a fork per MiB, is slow under emulation).  Through a
# pipe: GNU cat would copy_file_range, which on btrfs and xfs makes a
# file of one extent shared 1024 times instead of 1 GiB of data.
make_file() {
  local blk=$1.blk i args=()
  head -c 1048576 /dev/urandom > "$blk"
  for ((i = 0; i < $2; i++)); do args+=("$blk"); done
  cat "${args[@]}" | cat > "$1"
  rm -f "$blk"
}

# make_tree DIR FILES [SEED]: a tree of FILES files with a size mix like
# that of real trees (source code, documents): many small files, a few
# large, all written by one awk process rather than a fork per file.
# From SEED (default BENCH_SEED, else 1) the tree is the same on every
# run, host and guest alike (both run the host's mawk):
#   - 3% of the files are empty;
#   - one file in 2,000 (the 151st, the 2,151st, ...) is large: 1, 2, 4,
#     8 or 16 MiB, each as likely;
#   - the others have log-normal sizes: the natural log of the size is
#     normal with mean ln 4096 and deviation 1.5, so the median is 4 KiB,
#     half the files lie between 1.5 and 11 KiB, one in 40 is over 78 KiB,
#     and none is over 1 MiB (larger draws are cut to 1 MiB).
# Files sit 100 to a folder, ten folders to a parent (DIR/dA/dB/fN), and
# no two hold the same bytes (each starts at its own offset of a random
# text), so a copy that mixes files up fails verify.
make_tree() {
  local dir=$1 n=$2 seed=${3:-${BENCH_SEED:-1}} d
  mkdir -p "$dir"
  for ((d = 0; d < (n + 99) / 100; d++)); do
    echo "$dir/d$((d / 10))/d$((d % 10))"
  done | xargs mkdir -p
  awk -v dir="$dir" -v n="$n" -v seed="$seed" 'BEGIN {
      srand(seed)
      abc = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+/"
      for (i = 0; i < 65536; i++) base = base substr(abc, 1 + int(rand() * 64), 1)
      s = base
      while (length(s) < 1048576 + 65536) s = s s
      for (i = 0; i < n; i++) {
        f = sprintf("%s/d%d/d%d/f%d", dir, int(i / 1000), int(i / 100) % 10, i)
        off = 1 + (i * 7919) % 65536
        if (i % 2000 == 150) {
          size = 1048576 * 2 ^ int(rand() * 5)
        } else if (rand() < 0.03) {
          size = 0
        } else {
          # Box-Muller: a normal draw from two uniform ones.
          u = rand(); if (u < 1e-12) u = 1e-12
          z = sqrt(-2 * log(u)) * cos(6.283185307179586 * rand())
          size = int(exp(log(4096) + 1.5 * z))
          if (size > 1048576) size = 1048576
        }
        printf "" > f
        for (left = size; left > 0; left -= 1048576)
          printf "%s", substr(s, off, left < 1048576 ? left : 1048576) > f
        close(f)
      }
    }'
}

# tree_label DIR FILES: the workload name of a tree, with the bytes its
# files hold (folders left out: their sizes depend on the filesystem),
# e.g. "tree 2000 files 25.5 MiB".
tree_label() {
  find "$1" -type f -printf '%s\n' \
    | awk -v n="$2" '{ b += $1 } END { printf "tree %d files %.1f MiB\n", n, b / 1048576 }'
}

# bytes_of PATH: the bytes a copy of PATH moves (apparent size).
bytes_of() { du -s -B1 --apparent-size "$1" | cut -f1; }
