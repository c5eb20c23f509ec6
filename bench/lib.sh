# shellcheck shell=bash disable=SC2034
# bench/lib.sh: what bench/host and bench/guest share.  Sourced by bash.
#
# Both scripts write raw measurements, one per line, to the CSV file
# $BENCH_RAW with the columns
#   where,fs,workload,tool,run,metric,value
# where run 0 is the warm-up (bench/report leaves it out of the figures).
#
# Copyright (C) 2026 The copyrange authors.  GPL-3.0-or-later.

BENCH_RUNS=${BENCH_RUNS:-5}
BENCH_QUICK=${BENCH_QUICK:-}
# Quick mode is for developing the scripts: small sizes, one counted run.
if [ -n "$BENCH_QUICK" ]; then
  BENCH_RUNS=1
fi

log() { echo "bench: $* ($(date -u +%H:%M:%S))" >&2; }
die() { echo "bench: $*" >&2; exit 1; }

# The wall clock in microseconds, without a fork: bash's EPOCHREALTIME.
now_us() { local t=$EPOCHREALTIME; echo "${t/./}"; }

# us_to_s US: microseconds as seconds with 6 decimals.
us_to_s() { printf '%d.%06d' $(($1 / 1000000)) $(($1 % 1000000)); }

# record FS WORKLOAD TOOL RUN METRIC VALUE
record() {
  echo "$BENCH_WHERE,$1,$2,$3,$4,$5,$6" >> "$BENCH_RAW"
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

# make_tree DIR FILES: FILES small files in folders of 100, written by
# one awk process rather than a fork per file.  As (i * 2731) % 8193
# cycles through 0, 2731 and 5462 (3 * 2731 is 8193), a third of the
# files are empty and the others hold 2731 or 5462 bytes: the figures of
# doc/bench.md were measured on that tree, so it stays until they are
# measured again.
make_tree() {
  local dir=$1 n=$2 d
  mkdir -p "$dir"
  for ((d = 0; d < (n + 99) / 100; d++)); do echo "$dir/d$d"; done \
    | xargs mkdir -p
  awk -v dir="$dir" -v n="$n" 'BEGIN {
      s = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
      while (length (s) < 8192) s = s s
      for (i = 0; i < n; i++) {
        f = sprintf ("%s/d%d/f%d", dir, int (i / 100), i)
        printf "%s", substr (s, 1 + i % 61, (i * 2731) % 8193) > f
        close (f)
      }
    }'
}

# bytes_of PATH: the bytes a copy of PATH moves (apparent size).
bytes_of() { du -s -B1 --apparent-size "$1" | cut -f1; }
