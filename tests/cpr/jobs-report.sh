#!/bin/sh
# cpr --jobs, CPR_JOBS_REPORT=FILE, which the tests read to see that
# files were copied side by side: cpr appends its line to FILE only if
# FILE is a regular file of its own, or a new one, and no component of
# its name is a symlink.  Root with FILE in a directory that others may
# write to, such as /tmp, must not follow another user's symlink to a
# file of its choice there, nor to a directory (FILE /tmp/d/r, d a
# symlink), nor write to a file another user made, or linked to.  The
# copy is made all the same.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
fail=0

mkdir src || framework_failure_
for f in a b c d; do
  echo $f > src/$f || framework_failure_
done
echo 'not for cpr' > target || framework_failure_

# run_ REPORT: cpr -r --jobs=4 src dst with CPR_JOBS_REPORT=REPORT; it
# must copy the tree, and succeed, in a minute at most.
run_ ()
{
  rm -rf dst || framework_failure_
  timeout 60 env CPR_JOBS_REPORT="$1" cpr -r --jobs=4 src dst ||
    { echo "CPR_JOBS_REPORT=$1: exit status $?" >&2; fail=1; }
  diff -r src dst || fail=1
}

# A new file gets the line.
run_ "$PWD/new.rep"
grep '^workers [0-9]* jobs [0-9]* back [0-9]*$' new.rep > /dev/null ||
  { echo "no report in a new file" >&2; fail=1; }

# A symlink is not followed, dangling or not.
ln -s target link.rep && ln -s nowhere dangling.rep || framework_failure_
run_ "$PWD/link.rep"
run_ "$PWD/dangling.rep"
test "$(cat target)" = 'not for cpr' ||
  { echo "the report followed a symlink:" >&2; cat target >&2; fail=1; }
test -e nowhere && { echo "the report made a symlink's target" >&2; fail=1; }

# Nor a symlink to a directory, anywhere in the name, absolute or not.
mkdir real elsewhere && ln -s elsewhere dir.link || framework_failure_
run_ "$PWD/dir.link/r1.rep"
run_ "$PWD/real/../dir.link/r2.rep"
run_ dir.link/r3.rep
rm -rf dst || framework_failure_
(cd real && timeout 60 env CPR_JOBS_REPORT=../dir.link/r4.rep \
   cpr -r --jobs=4 ../src ../dst) || fail=1
diff -r src dst || fail=1
ls elsewhere > elsewhere.ls || framework_failure_
test -s elsewhere.ls &&
  { echo "the report followed a symlink to a directory:" >&2;
    cat elsewhere.ls >&2; fail=1; }
# A directory reached without a symlink still gets it, "//", "." and
# ".." or not.
for name in "$PWD/real/r5.rep" "$PWD//real/./r6.rep" real/r7.rep \
            "real/../real//r8.rep"; do
  run_ "$name"
  test -s "$name" || { echo "no report in $name" >&2; fail=1; }
done
# A name that ends in a slash names no file.
run_ "$PWD/real/"

# Nor is a FIFO opened, which would wait for a reader.
mkfifo fifo.rep || framework_failure_
run_ "$PWD/fifo.rep"

# Nor a file with another name, which may be a hard link that another
# user made to a file of root's (where fs.protected_hardlinks is 0).
echo 'linked' > linked && ln linked hard.rep || framework_failure_
run_ "$PWD/hard.rep"
test "$(cat linked)" = linked ||
  { echo "the report wrote a file with two names:" >&2; cat linked >&2;
    fail=1; }

# Another user's file, for root.
if test "$(id -u)" = 0 && id nobody > /dev/null 2>&1; then
  echo 'theirs' > other.rep && chown nobody other.rep || framework_failure_
  run_ "$PWD/other.rep"
  test "$(cat other.rep)" = theirs ||
    { echo "the report wrote another user's file" >&2; fail=1; }
fi

Exit $fail
