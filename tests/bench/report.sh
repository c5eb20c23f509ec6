#!/bin/sh
# bench/report: the counted runs of each boot give that boot's medians
# and ratios, all boots' runs together give the "all" figures, the
# warm-up (run 0) is left out, and the Markdown shows the boots side by
# side, user and system time and the call counts beside the wall clock,
# the profile of the strace copy, cpr against cpr --reflink=always,
# whether cpr/GNU is at most 1 and the row's physical limit; and issue
# 13's targets are each checked, met or missed.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"
fail=0

# Two boots.  cpr's times on btrfs: boot 1 runs 1..3 are 1, 3, 2 (the
# warm-up, 100, is left out), boot 2 has 5: medians 2 and 5, all 2.5.
# GNU's: 2 2 2, then 4: medians 2, 4, all 2.  Ratios 1, 1.25, 1.25.
cat > raw.csv <<'CSV' || framework_failure_
where,fs,workload,tool,boot,run,metric,value
guest,btrfs,file 1 MiB,cpr,1,0,time_s,100
guest,btrfs,file 1 MiB,gnu,1,0,time_s,100
guest,btrfs,file 1 MiB,busybox,1,0,time_s,100
guest,btrfs,file 1 MiB,cpr,1,1,time_s,1
guest,btrfs,file 1 MiB,cpr,1,1,user_s,0.010
guest,btrfs,file 1 MiB,cpr,1,1,sys_s,0.500
guest,btrfs,file 1 MiB,gnu,1,1,time_s,2
guest,btrfs,file 1 MiB,busybox,1,1,time_s,8
guest,btrfs,file 1 MiB,cpr,1,2,time_s,3
guest,btrfs,file 1 MiB,gnu,1,2,time_s,2
guest,btrfs,file 1 MiB,busybox,1,2,time_s,8
guest,btrfs,file 1 MiB,cpr,1,3,time_s,2
guest,btrfs,file 1 MiB,gnu,1,3,time_s,2
guest,btrfs,file 1 MiB,busybox,1,3,time_s,8
guest,btrfs,file 1 MiB,cpr,1,1,copy_range_calls,2
guest,btrfs,file 1 MiB,cpr,1,1,ficlone_calls,0
guest,btrfs,file 1 MiB,cpr,1,1,copy_file_range_calls,0
guest,btrfs,file 1 MiB,cpr,1,1,failed_calls,1
guest,btrfs,file 1 MiB,gnu,1,1,ficlone_calls,1
guest,btrfs,file 1 MiB,cpr,1,1,df_new_bytes,0
guest,btrfs,file 1 MiB,gnu,1,1,df_new_bytes,1048576
guest,btrfs,file 1 MiB,cpr,2,1,time_s,5
guest,btrfs,file 1 MiB,gnu,2,1,time_s,4
guest,btrfs,file 1 MiB,busybox,2,1,time_s,10
guest,ext4,sigint 64 MiB,cpr,1,1,sigint_ms,20
guest,ext4,sigint 64 MiB,gnu,1,1,sigint_ms,25
guest,ext4,sigint 64 MiB,cpr,2,1,sigint_ms,20
guest,ext4,sigint 64 MiB,gnu,2,1,sigint_ms,25
guest,btrfs,sweep 1 MiB,cpr@1,1,1,time_s,4
guest,btrfs,sweep 1 MiB,cpr@auto,1,1,time_s,2
guest,nfs,sweep 1 MiB,cpr@1,1,1,clone_ops,1
guest,nfs,sweep 1 MiB,cpr@1,1,1,read_bytes,0
guest,btrfs,file 1 MiB,cpr-reflink,1,1,time_s,1.5
guest,btrfs,file 1 MiB,cpr-reflink,2,1,time_s,4
guest,btrfs,file 1 MiB,cpr,1,1,prof_startup_ms,5.5
guest,btrfs,file 1 MiB,cpr,1,1,prof_calls_ms,20
guest,btrfs,file 1 MiB,cpr,1,1,prof_between_ms,0.25
guest,btrfs,file 1 MiB,cpr,1,1,prof_after_ms,1
guest,btrfs,file 1 MiB,cpr,1,1,prof_mib_per_call,0.5
guest,btrfs,file 1 MiB,cpr,1,1,prof_longest_ms,15
guest,btrfs,file 1 MiB,gnu,1,1,prof_startup_ms,3
guest,btrfs,file 2 MiB,cpr,1,1,copy_range_calls,7
guest,nfs,file 1 MiB,cpr,1,1,time_s,1
guest,nfs,file 1 MiB,gnu,1,1,time_s,2
guest,nfs,file 1 MiB,cpr,1,1,read_bytes,0
guest,nfs,file 1 MiB,cpr,1,1,write_bytes,0
guest,nfs,file 1 MiB,cpr,1,1,copy_ops,0
guest,nfs,file 1 MiB,cpr,1,1,clone_ops,1
guest,nfs,file 1 MiB,gnu,1,1,copy_ops,0
guest,nfs,file 1 MiB,gnu,1,1,clone_ops,1
guest,nfs,tree 5 files 1.0 MiB -a,cpr,1,1,read_bytes,0
guest,nfs,tree 5 files 1.0 MiB -a,cpr,1,1,write_bytes,1048576
guest,nfs,tree 5 files 1.0 MiB -a,cpr,1,1,copy_ops,3
guest,nfs,tree 5 files 1.0 MiB -a,cpr,1,1,clone_ops,0
guest,nfs,tree 5 files 1.0 MiB -a,gnu,1,1,copy_ops,0
guest,nfs,tree 5 files 1.0 MiB -a,gnu,1,1,clone_ops,5
guest,nfs-ext4,file 1 MiB,cpr,1,1,time_s,1
guest,nfs-ext4,file 1 MiB,gnu,1,1,time_s,1
guest,nfs-ext4,file 1 MiB,cpr,1,1,read_bytes,0
guest,nfs-ext4,file 1 MiB,cpr,1,1,write_bytes,0
guest,nfs-ext4,file 1 MiB,cpr,1,1,copy_ops,4
guest,nfs-ext4,file 1 MiB,gnu,1,1,copy_ops,1
host,ext4,file 1 MiB,cpr,1,1,time_s,1
host,ext4,file 1 MiB,gnu,1,1,time_s,2
host,ext4,file 1 MiB,cpr,1,1,rss_kib,1800
host,ext4,file 1 MiB,gnu,1,1,rss_kib,2000
host,ext4,tree 5 files 1.0 MiB -a,cpr,1,1,rss_kib,2100
host,ext4,tree 5 files 1.0 MiB -a,gnu,1,1,rss_kib,2000
CSV
# SIGINT with 20 runs of each tool in boot 1 (the other, above, has 1).
for r in $(seq 1 20); do
  echo "guest,ext4,sigint 128 MiB,cpr,1,$r,sigint_ms,10"
  echo "guest,ext4,sigint 128 MiB,gnu,1,$r,sigint_ms,12"
done >> raw.csv || framework_failure_
# cpr without its mark on a tree, in boot 2 only: its own table.
cat >> raw.csv <<'CSV' || framework_failure_
guest,btrfs,tree 3 files 1.0 MiB -a,cpr,2,1,time_s,3
guest,btrfs,tree 3 files 1.0 MiB -a,gnu,2,1,time_s,2
guest,btrfs,tree 3 files 1.0 MiB -a,cpr-nomark,2,1,time_s,2.5
CSV

"$abs_top_srcdir/bench/report" raw.csv res.csv res.md || fail=1

# The CSV: one row per figure, tool and boot, "all" last.
cat > exp <<'CSV' || framework_failure_
where,fs,workload,metric,tool,boot,runs,median,min,max,cpr_over_gnu,cpr_over_busybox,over_cpr_auto
guest,btrfs,file 1 MiB,time_s,cpr,1,3,2,1,3,1,0.25,
guest,btrfs,file 1 MiB,time_s,cpr,2,1,5,5,5,1.25,0.5,
guest,btrfs,file 1 MiB,time_s,cpr,all,4,2.5,1,5,1.25,0.3125,
CSV
head -n 4 res.csv > out || framework_failure_
compare exp out || fail=1
grep '^guest,btrfs,sweep 1 MiB,time_s,cpr@1,1,1,4,4,4,,,2$' res.csv || fail=1

# The figures, boot by boot; user and system time and calls go to the
# next table only.
grep -F '| guest | btrfs | file 1 MiB | time s | 1 | 2 (1-3) | 2 (2-2) | 8 (8-8) | 1 | 0.25 |' res.md \
  || fail=1
grep -F '| guest | btrfs | file 1 MiB | time s | 2 | 5 (5-5) | 4 (4-4) | 10 (10-10) | 1.25 | 0.5 |' res.md \
  || fail=1
grep -F '| guest | btrfs | file 1 MiB | df new MiB | 1 | 0 (0-0) | 1 (1-1) |' res.md || fail=1
grep -F 'MiB | user s |' res.md && fail=1
grep -F 'MiB | copy range calls |' res.md && fail=1

# Time and calls.
grep -F '| guest | btrfs | file 1 MiB | cpr | 1 | 2 | 0.01 | 0.5 | 2 | 0 | 0 | 1 |' res.md \
  || fail=1
grep -F '| guest | btrfs | file 1 MiB | gnu | 1 | 2 |  |  |  | 1 |  |  |' res.md || fail=1

# The ratios side by side, and issue 13's test by all boots: the file
# (1.25) misses, SIGINT (0.8) passes.
grep -F '| where | fs | workload | figure | cpr/GNU 1 | cpr/GNU 2 | cpr/GNU all | cpr/busybox 1 | cpr/busybox 2 | cpr/busybox all | cpr/GNU <= 1 |' \
  res.md || fail=1
grep -F '| guest | btrfs | file 1 MiB | time s | 1 | 1.25 | 1.25 | 0.25 | 0.5 | 0.3125 | **no** |' \
  res.md || fail=1
grep -F '| guest | ext4 | sigint 64 MiB | sigint ms | 0.8 | 0.8 | 0.8 |  |  |  | yes | exit within one in-kernel piece |' res.md \
  || fail=1
# The physical limit of each row (a row of one boot: no ratio of boot 2).
grep -F '| guest | btrfs | file 1 MiB | time s | 1 | 1.25 | 1.25 | 0.25 | 0.5 | 0.3125 | **no** | clone: time independent of size |' \
  res.md || fail=1
grep -F '| guest | nfs-ext4 | file 1 MiB | time s | 1 |  | 1 |  |  |  | yes | server-side copy: no payload on the wire |' \
  res.md || fail=1
grep -F '| guest | nfs | file 1 MiB | time s | 0.5 |  | 0.5 |  |  |  | yes | server-side clone: no payload on the wire |' \
  res.md || fail=1
grep -F '| host | ext4 | file 1 MiB | time s | 0.5 |  | 0.5 |  |  |  | yes | one in-kernel pass, no user-space buffer |' \
  res.md || fail=1

# cpr --reflink=always: its ratios in the CSV, its table boot by boot and
# all boots (cpr 2, 5, 2.5; reflink 1.5, 4, 2.75; GNU 2, 4, 2), not in
# the figures' table.
grep '^guest,btrfs,file 1 MiB,time_s,cpr-reflink,1,1,1.5,1.5,1.5,0.75,0.1875,$' res.csv \
  || fail=1
grep -F '| guest | btrfs | file 1 MiB | 1 | 2 | 1.50 | 2 | 1.333 | 0.75 |' res.md || fail=1
grep -F '| guest | btrfs | file 1 MiB | 2 | 5 | 4 | 4 | 1.25 | 1 |' res.md || fail=1
grep -F '| guest | btrfs | file 1 MiB | all | 2.50 | 2.75 | 2 | 0.9091 | 1.375 |' res.md || fail=1
grep -F '| 1.5 (1.5-1.5) |' res.md && fail=1

# cpr without its mark: cpr/no-mark and no-mark/GNU in a table of its
# own, its ratio to GNU in the CSV.
grep -F '| guest | btrfs | tree 3 files 1.0 MiB -a | 2 | 3 | 2.50 | 2 | 1.2 | 1.25 |' res.md \
  || fail=1
grep -F '| guest | btrfs | tree 3 files 1.0 MiB -a | all | 3 | 2.50 | 2 | 1.2 | 1.25 |' res.md \
  || fail=1
grep '^guest,btrfs,tree 3 files 1.0 MiB -a,time_s,cpr-nomark,2,1,2.5,2.5,2.5,1.25,,$' res.csv \
  || fail=1

# The profile, in a table of its own only.
grep -F '| guest | btrfs | file 1 MiB | cpr | 1 | 5.50 | 20 | 0.25 | 1 | 0.5 | 15 |' res.md \
  || fail=1
grep -F '| guest | btrfs | file 1 MiB | gnu | 1 | 3 |  |  |  |  |  |' res.md || fail=1
grep -F '| prof ' res.md && fail=1

# Issue 13's targets, each met in one case and missed in another.
grep -F '| every row: cpr/GNU at most 1.00 | 5 of 7 rows; over: guest btrfs file 1 MiB 1.25; guest btrfs tree 3 files 1.0 MiB -a 1.5 | **missed** |' \
  res.md || fail=1
grep -F '| guest ext4 sigint 64 MiB: SIGINT to exit, at least 20 runs of each tool | cpr 1, GNU 1 runs | **missed** |' \
  res.md || fail=1
grep -F '| guest ext4 sigint 128 MiB: SIGINT to exit, at least 20 runs of each tool | cpr 20, GNU 20 runs | met |' \
  res.md || fail=1
grep -F '| guest btrfs file 1 MiB: cpr makes at most 2 copy_range calls | cpr 2 copy_range, GNU 1 FICLONE | met |' \
  res.md || fail=1
grep -F '| guest btrfs file 2 MiB: cpr makes at most 2 copy_range calls | cpr 7 copy_range | **missed** |' \
  res.md || fail=1
grep -F '| guest nfs file 1 MiB: cpr moves no payload over the wire | 0 MiB read and written | met |' \
  res.md || fail=1
grep -F '| guest nfs file 1 MiB: cpr sends CLONE where GNU does, no COPY | cpr CLONE 1, COPY 0; GNU CLONE 1, COPY 0 | met |' \
  res.md || fail=1
grep -F '| guest nfs tree 5 files 1.0 MiB -a: cpr moves no payload over the wire | 1 MiB read and written | **missed** |' \
  res.md || fail=1
grep -F '| guest nfs tree 5 files 1.0 MiB -a: cpr sends CLONE where GNU does, no COPY | cpr CLONE 0, COPY 3; GNU CLONE 5, COPY 0 | **missed** |' \
  res.md || fail=1
grep -F '| guest nfs-ext4 file 1 MiB: cpr moves no payload over the wire | 0 MiB read and written | met |' \
  res.md || fail=1
grep -F '| guest nfs-ext4 file 1 MiB: COPY operations, cpr and GNU (no target: shown) | cpr 4, GNU 1 | shown |' \
  res.md || fail=1
grep -F "| host ext4 file 1 MiB: peak RSS no higher than GNU cp's | cpr/GNU 0.9 (cpr 1800 KiB, GNU 2000 KiB) | met |" \
  res.md || fail=1
grep -F "| host ext4 tree 5 files 1.0 MiB -a: peak RSS no higher than GNU cp's | cpr/GNU 1.05 (cpr 2100 KiB, GNU 2000 KiB) | **missed** |" \
  res.md || fail=1

# The sweep, and issue 6's targets from all boots.
grep -F '| guest | btrfs | sweep 1 MiB | time s | 1 | 1 | 4 (4-4) | 2 |' res.md || fail=1
grep -F '| guest | nfs | sweep 1 MiB | clone ops | 1 | 1 | 1 (1-1) |' res.md || fail=1
grep -F '| guest | nfs | sweep 1 MiB | read MiB |' res.md && fail=1
grep -F '| guest btrfs file 1 MiB: cpr no slower than GNU | cpr/GNU 1.25 | **missed** |' res.md \
  || fail=1

# One boot: no "all" column.
grep -v ',2,[0-9],' raw.csv > raw1.csv || framework_failure_
"$abs_top_srcdir/bench/report" raw1.csv res1.csv res1.md || fail=1
grep -F '| where | fs | workload | figure | cpr/GNU 1 | cpr/busybox 1 | cpr/GNU <= 1 |' res1.md \
  || fail=1
grep -F '| guest | btrfs | file 1 MiB | time s | 1 | 0.25 | yes |' res1.md || fail=1
grep -F '| every row: cpr/GNU at most 1.00 | 6 of 6 rows | met |' res1.md || fail=1

test $fail = 0 || cat res.md
Exit $fail
