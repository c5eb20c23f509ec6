#!/bin/sh
# The copy_range wrapper (gnulib-local/lib/copy-range.c) remembers what
# its probe of the kernel found: cpr --jobs's workers call it side by
# side, so that memory must be shared without a data race.  Four threads
# make their first calls at once, built with ThreadSanitizer (-fsanitize=
# thread), which fails the run on a race.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"
fail=0

src=$abs_top_srcdir
build=$abs_top_builddir
: "${CC:=cc}"
test -f "$build/lib/libgnu.a" || framework_failure_ "lib/libgnu.a not built"

# Whether ThreadSanitizer builds and runs programs here at all.
printf 'int main (void) { return 0; }\n' > probe.c || framework_failure_
$CC -fsanitize=thread probe.c -o probe > probe.err 2>&1 ||
  skip_ "$CC cannot build with -fsanitize=thread: $(head -n 1 probe.err)"
./probe > probe.err 2>&1 ||
  skip_ "programs built with -fsanitize=thread fail: $(head -n 1 probe.err)"

# The wrapper as cpr has it (lib/, from gnulib-local/ by ./bootstrap),
# with the project's config.h and gnulib's headers and library.
$CC -fsanitize=thread -g -O1 -I"$build" -I"$build/lib" -I"$src/lib" \
  -I"$src/include" \
  "$src/tests/cpr-data/copy-range-race.c" "$src/lib/copy-range.c" \
  "$build/lib/libgnu.a" -o race -lpthread > build.err 2>&1 ||
  { cat build.err; framework_failure_ "cannot build copy-range-race"; }

# A race is timing's: a few runs.
for i in 1 2 3 4 5; do
  TSAN_OPTIONS=halt_on_error=1 ./race > race.out 2>&1
  status=$?
  test $status = 0 || { cat race.out; fail=1; break; }
done

Exit $fail
