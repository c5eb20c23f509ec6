#!/bin/sh
# bench/report's --jobs rows: cpr --jobs=auto over GNU cp and over cpr
# --jobs=1 from all boots' counted runs (the warm-up left out), with a
# bootstrap interval that decides the verdict (faster, slower or
# indistinguishable) and the targets: at most 0.35 of GNU cp on
# an NFS row (the interval's upper end), never slower than --jobs=1.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"
fail=0

# rows WHERE FS WORKLOAD TOOL BOOT VALUE...: raw lines, run 0 first.
rows ()
{
  w=$1 fs=$2 wl=$3 tool=$4 boot=$5 run=0
  shift 5
  for v; do
    echo "$w,$fs,$wl,$tool,$boot,$run,time_s,$v"
    run=$((run + 1))
  done
}

{
  echo 'where,fs,workload,tool,boot,run,metric,value'
  # NFS: auto is a quarter of either (runs 1 to 5 of two boots; the
  # warm-ups, 1000, would make every median wrong if counted).
  n='jobs tree 20 files 1.0 MiB -a (netem 0.5ms each way)'
  rows guest nfs "$n" gnu 1 1000 40 41 39 40 42
  rows guest nfs "$n" gnu 2 1000 40 40 41 39 40
  rows guest nfs "$n" cpr-j1 1 1000 40 39 41 40 40
  rows guest nfs "$n" cpr-j1 2 1000 41 40 40 39 40
  rows guest nfs "$n" cpr-jauto 1 1 10 10.5 9.5 10 10
  rows guest nfs "$n" cpr-jauto 2 1 10 10 10 9.8 10.2
  # nfs-ext4: auto at half GNU's time: faster, but the target missed.
  e='jobs tree 20 files 1.0 MiB -a (netem 0.5ms each way)'
  rows guest nfs-ext4 "$e" gnu 1 1 20 20 21 19 20
  rows guest nfs-ext4 "$e" cpr-j1 1 1 20 21 20 19 20
  rows guest nfs-ext4 "$e" cpr-jauto 1 1 10 10 10.5 9.5 10
  # ext4: all three overlap: indistinguishable, the target met.
  x='jobs tree 20 files 1.0 MiB -a'
  rows guest ext4 "$x" gnu 1 1 2.0 2.2 1.9 2.1 2.05
  rows guest ext4 "$x" cpr-j1 1 1 2.1 1.9 2.0 2.15 2.05
  rows guest ext4 "$x" cpr-jauto 1 1 1.95 2.1 2.0 2.2 2.02
  # tmpfs: auto slower than --jobs=1 in every run.
  t='jobs tree 20 files 1.0 MiB -a'
  rows guest tmpfs "$t" gnu 1 1 2 2 2 2 2
  rows guest tmpfs "$t" cpr-j1 1 1 2 2.1 1.9 2 2
  rows guest tmpfs "$t" cpr-jauto 1 1 3 3.1 2.9 3 3
} > raw.csv || framework_failure_

"$abs_top_srcdir/bench/report" raw.csv results.csv results.md || fail=1
sed -n '/^| where | fs | workload | runs |/,/^$/p' results.md > jobs.md
cat jobs.md

# row FS: the table's line for FS.
row () { grep "^| guest | $1 | jobs " jobs.md; }

# NFS: 10 counted runs each; medians 40, 40 and 10.
row nfs | grep -F '| 10 | 40.00 | 40.00 | 10.00 | 0.250 (' > /dev/null \
  || { echo 'nfs: medians or the auto/GNU ratio wrong'; fail=1; }
row nfs | grep -E '\| faster \| 0\.250 \([0-9.]+-[0-9.]+\) \| faster \| met \|$' > /dev/null \
  || { echo 'nfs: verdicts or target wrong'; fail=1; }
# The interval of auto/GNU lies around 0.25, within the runs' spread.
lo=$(row nfs | sed 's/.*| 0\.250 (\([0-9.]*\)-\([0-9.]*\)) | faster | 0\.250.*/\1 \2/')
set -- $lo
awk -v lo="$1" -v hi="$2" 'BEGIN { exit !(lo >= 0.23 && lo <= 0.25 && hi >= 0.25 && hi <= 0.27) }' \
  || { echo "nfs: interval $lo not around 0.25"; fail=1; }
row nfs-ext4 | grep -F '**missed**: over 0.35 of GNU cp' > /dev/null \
  || { echo 'nfs-ext4: the 0.35 target should be missed'; fail=1; }
row nfs-ext4 | grep -F '| faster |' > /dev/null \
  || { echo 'nfs-ext4: auto is faster than GNU cp'; fail=1; }
row ext4 | grep -E '\| indistinguishable \| [0-9.]+ \([0-9.]+-[0-9.]+\) \| indistinguishable \| met \|$' \
  > /dev/null || { echo 'ext4: should be indistinguishable and met'; fail=1; }
row tmpfs | grep -F '| **slower** | **missed**: slower than --jobs=1 |' > /dev/null \
  || { echo 'tmpfs: slower than --jobs=1 should miss the target'; fail=1; }
# The warm-up never counts: a run 0 of 1000 s would put GNU's median
# of boot 1 and 2 together above 40.
grep -F ',1000' results.csv > /dev/null \
  && { echo 'a warm-up run reached the figures'; fail=1; }

Exit $fail
