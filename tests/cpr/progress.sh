#!/bin/sh
# --progress where standard error is not a terminal, as in scripts and
# logs: a bare --progress (auto) and --progress=never change nothing, so
# cpr's output, exit status and copies stay those of GNU cp; with
# --progress=always the status line is drawn all the same, without
# terminal escapes, and ends with the summary line.  A bad WHEN is
# refused as for the other options.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr/compare-lib.sh"
fail=0

test "$CPR" -ef "$CR_REF" && skip_ "GNU cp 9.1 has no --progress to test"

setup_tree ()
{
  printf 'a\n' > a && cr_random 3000000 > big && : > empty &&
  truncate -s 4M holes && printf 'x' >> holes &&
  mkdir -p d/sub e && printf 'f\n' > d/f && printf 'g\n' > d/sub/g &&
  ln -s a sym && printf 'existing\n' > existing
}

# Byte for byte what GNU cp does, with auto (stderr is a file here) and
# never: copies, -v, errors, prompts, skips.
cpr_case --cr-cpr-opt=--progress -v big holes sym d
cpr_case --cr-cpr-opt=--progress -av d e
cpr_case --cr-cpr-opt=--progress a missing d
cpr_case --cr-cpr-opt=--progress --cr-stdin=y -iv a existing
cpr_case --cr-cpr-opt=--progress --cr-stdin=n -i big existing
cpr_case --cr-cpr-opt=--progress -u a existing
cpr_case --cr-cpr-opt=--progress=auto -R d new
cpr_case --cr-cpr-opt=--progress=never -v big holes d
cpr_case --cr-cpr-opt=--progress=never --cr-stdin=y -i a existing

# always: the summary on a line of its own at the end; standard output
# is GNU cp's.
mkdir t && cd t || framework_failure_
setup_tree || framework_failure_
cd .. || framework_failure_

# summary_ FILE: the last line of FILE, after its last carriage return.
summary_ () { tr '\r' '\n' < "$1" | sed '/^ *$/d' | tail -n 1; }

mkdir ref.d cpr.d || framework_failure_
(cd t && "$CR_REF" -v a big holes ../ref.d > ../ref.out) || framework_failure_
(cd t && cpr --progress=always -v a big holes ../cpr.d > ../cpr.out \
  2> ../cpr.err) || fail=1
sed 's/cpr\.d/ref.d/' cpr.out > cpr.out.r || framework_failure_
compare ref.out cpr.out.r || fail=1
re='^3 files: 6\.8 MiB in [0-9.]+ s(, [0-9.]+ ([KMG]iB|B)/s)?;'
m='[a-z /-]+( [0-9.]+ (B|[KMG]iB))?'
re="$re [0-9.]+ (B|[KMG]iB) moved: $m(, $m)*\$"
summary_ cpr.err | grep -E "$re" > /dev/null ||
  { echo "bad summary:"; cat -A cpr.err; fail=1; } >&2
# The hole is not moved: the bytes moved are at most those of a and big.
summary_ cpr.err | grep -E '; (2\.[0-9] MiB|[0-9]+ KiB) moved' > /dev/null ||
  { echo "the hole counted as moved:"; cat -A cpr.err; fail=1; } >&2
tail -c 1 cpr.err | od -An -c | grep '\\n' > /dev/null || fail=1
grep "$(printf '\033')" cpr.err && { echo "escapes in a file"; fail=1; } >&2

# An error: GNU cp's message, then the summary of what was done.
(cd t && cpr --progress=always missing a ../cpr.d > /dev/null 2> ../err) &&
  fail=1
sed -n 1p err | grep -x "cpr: cannot stat 'missing': No such file or directory" \
  > /dev/null || { cat -A err; fail=1; }
summary_ err | grep '^1 file: 2 B in ' > /dev/null || { cat -A err; fail=1; }

# Nothing to copy at all.
(cd t && cpr --progress=always -u a ../cpr.d 2> ../err) || fail=1
summary_ err | grep -E '^1 file: 0 B in [0-9.]+ s(, [0-9]+ B/s)?; 0 B moved$' \
  > /dev/null || { cat -A err; fail=1; }

# A copy slow enough to be shown (each 1 MiB call seems to take 150 ms):
# every update overwrites the last with a carriage return, and blanks
# erase a longer line, since a file knows no escape; the status lines
# never run ahead of the data.
. "$srcdir/tests/cpr-data/lib.sh"
head -c 4194304 /dev/zero > four || framework_failure_
with_shim_ CPR_SHIM_CALL_NS=150000000 CPR_CHUNK_SIZE=1048576 CPR_SHIM_LOG=log \
  cpr --progress=always four four.copy 2> err || fail=1
cmp four four.copy || fail=1
tr '\r' '\n' < err | grep ' / ' > status
# The shim's clock moves with the offload calls only: without them (the
# kernel refused copy_file_range here) no update is due.
if grep '^copy_\(file_\)\?range .* [1-9][0-9]* 0$' log > /dev/null; then
  test $(wc -l < status) -ge 3 || { cat -A err; fail=1; }
  grep -Ev '^[1-4]\.0 MiB / 4\.0 MiB \([0-9]+%\)  0/1 file  ' status &&
    { echo "^^ bad status lines"; fail=1; } >&2
  summary_ err | grep '^1 file: 4\.0 MiB in ' > /dev/null ||
    { cat -A err; fail=1; }
  test "$(head -c 1 err)" = "$(printf '\r')" || fail=1
fi

# A hole costs nothing, whatever its size: the rate counts the bytes that
# were copied (here none), not the hole (a 2 GiB one made it TiB/s).
truncate -s 2G sparse || framework_failure_
cpr --progress=always sparse sparse.copy 2> err || fail=1
summary_ err | grep -E '^1 file: 2\.0 GiB in [0-9.]+ s; 0 B moved$' > /dev/null ||
  { echo "a hole's rate:"; cat -A err; fail=1; } >&2
rm -f sparse sparse.copy

# A bad WHEN: refused as a bad --reflink is.
cpr --progress=sometimes a b 2> err && fail=1
cpr --reflink=sometimes a b 2> ref-err && fail=1
sed 's/--reflink/--progress/' ref-err > exp || framework_failure_
compare exp err || fail=1

Exit $fail
