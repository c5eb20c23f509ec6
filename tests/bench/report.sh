#!/bin/sh
# bench/report: the counted runs of each boot give that boot's medians
# and ratios, all boots' runs together give the "all" figures, the
# warm-up (run 0) is left out, and the Markdown shows the boots side by
# side, user and system time and the call counts beside the wall clock,
# and whether cpr/GNU is at most 1.

# Copyright (C) 2026 The copyrange authors.  GPL-3.0-or-later.

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
grep -F '| guest | ext4 | sigint 64 MiB | sigint ms | 0.8 | 0.8 | 0.8 |  |  |  | yes |' res.md \
  || fail=1

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

test $fail = 0 || cat res.md
Exit $fail
