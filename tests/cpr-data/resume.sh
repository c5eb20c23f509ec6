#!/bin/sh
# When copy_range stops short or is refused after partial progress, cpr goes
# on from the exact offset the kernel reached: with copy_range after a short
# return or EINTR, with copy_file_range, then read/write after a refusal.
# No byte is lost or copied twice (the shim logs every call's offsets) and
# the copy is identical.  On the host the shim serves copy_range with
# copy_file_range; in the guest the patched kernel serves it.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0

if test -n "$COPYRANGE_GUEST"; then
  # A filesystem where copy_range copies in the kernel.
  dir=$(mktemp -d "${CR_MNT_EXT4?}/cpr-resume.XXXXXX") && cd "$dir" \
    || framework_failure_
  cleanup_ () { rm -rf "$dir"; }
fi

size=3145729   # 3 MiB + 1: no chunk boundary falls on the end
head -c $size /dev/urandom > src || framework_failure_

# run_ NAME RULES: copy src to NAME.copy with the shim applying RULES.
run_ ()
{
  rm -f $1.log
  with_shim_ CPR_SHIM_COPY_RANGE=$emulate_ CPR_SHIM_LOG=$1.log \
    CPR_SHIM_FAIL="$2" cpr --debug src $1.copy > $1.out || fail=1
  cmp src $1.copy || fail=1
  tiles_ $1.log $size || { cat $1.log; fail=1; }
}

# A short return at 1000001, then copy_range again from there.
run_ short copy_range:1000001:short
test "$(method_ short.out)" = copy_range || fail=1
test "$(awk '$1 == "copy_range" && 0 < $5' short.log | wc -l)" -ge 2 || fail=1

# EINTR twice at 500000: retried from there.
run_ eintr copy_range:500000:EINTR:2
test "$(method_ eintr.out)" = copy_range || fail=1
grep -c '^copy_range 500000 500000 .* -1 4$' eintr.log > n || fail=1
test "$(cat n)" = 2 || fail=1

# Refused with EXDEV after 1000001 bytes: copy_file_range goes on there.
run_ exdev copy_range:1000001:EXDEV
test "$(method_ exdev.out)" = 'copy_range + copy_file_range' || fail=1
test "$(first_at_ exdev.log copy_file_range)" = 1000001 || fail=1

# Then copy_file_range refused too at 2500000: read/write from there.
run_ both copy_range:1000001:EXDEV,copy_file_range:2500000:EOPNOTSUPP
test "$(method_ both.out)" = 'copy_range + copy_file_range + read/write' \
  || fail=1
test "$(first_at_ both.log copy_file_range)" = 1000001 || fail=1
test "$(first_at_ both.log read)" = 2500000 || fail=1

# Every refusal errno that means "not this pair" falls back, at once.
for e in EXDEV EINVAL EOPNOTSUPP EPERM EACCES ETXTBSY ENOSYS; do
  run_ $e copy_range:0:$e,copy_file_range:0:$e
  test "$(method_ $e.out)" = read/write || fail=1
  grep -q '^copy offload: unsupported, ' $e.out || fail=1
done

Exit $fail
