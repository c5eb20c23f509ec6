#!/bin/sh
# What 'make install' gives programmers: <copyrange.h> where the compiler
# finds it and copy_range(2) where man finds it.  Installed into a
# DESTDIR (prefix=/usr), the header alone, with the staged include
# directory as the only -I, builds a program that copies with
# copy_range() (tests/install/use-header.c) without a warning, in C and
# C++, and it runs: it copies on a kernel with copy_range, and gets ENOSYS
# elsewhere, the host's 6.5 or later included, where the number is
# cachestat's.  SYS_copy_range is the number that the series gives and
# cpr's own wrapper (gnulib-local) uses; in a strict ISO C mode the
# header says what it needs.  In C++ it builds without an old-style cast
# (-Wold-style-cast), and it leaves defined no macro but those it
# documents.  'make installcheck' passes on the staged
# tree, and man, given its man directory, shows the page.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"
fail=0
test -n "$COPYRANGE_GUEST" && skip_ "needs the compiler: runs only on the host"
test -n "$CC" || skip_ "no C compiler (CC is empty)"
: "${MAKE=make}"
unset MAKEFLAGS MFLAGS GNUMAKEFLAGS MAKELEVEL

dest=$PWD/dest
layout_='prefix=/usr exec_prefix=/usr bindir=/usr/bin libexecdir=/usr/lib'
layout_="$layout_ transform=s,x,x,"
$MAKE -C "$abs_top_builddir" install DESTDIR="$dest" $layout_ > install.log 2>&1 \
  || { cat install.log; framework_failure_ "make install failed"; }
inc=$dest/usr/include
test -f "$inc/copyrange.h" || fail_ "no $inc/copyrange.h"
test -f "$dest/usr/share/man/man2/copy_range.2" \
  || fail_ "no copy_range.2 in $dest/usr/share/man/man2"

src=$abs_top_srcdir/tests/install/use-header.c

# build_ NAME COMPILER FLAGS...: build use-header.c as NAME, with warnings
# as errors.
build_ ()
{
  name=$1 cc=$2; shift 2
  $cc -Wall -Wextra -Werror "$@" -I"$inc" -o $name "$src" > $name.err 2>&1 \
    || { echo "$cc $* failed:"; cat $name.err; return 1; }
}
# run_ NAME: run it; it copies, or finds no copy_range.
run_ ()
{
  ./$1 > $1.out 2>&1 || { echo "$1 failed:"; cat $1.out; return 1; }
  cat $1.out
  grep -E '^copy_range: (copied 100000 bytes|ENOSYS: this kernel has no copy_range)$' \
    $1.out > /dev/null || { echo "$1: unexpected output"; return 1; }
}
build_ use-c $CC && run_ use-c || fail=1
build_ use-c99 $CC -std=c99 -pedantic -D_DEFAULT_SOURCE && run_ use-c99 \
  || fail=1
if command -v g++ > /dev/null; then
  build_ use-cxx g++ -x c++ && run_ use-cxx || fail=1
fi

# C89 (where the header's function is __inline__, GCC's), and a program
# whose globals have the names of the header's parameters and locals:
# none is shadowed (-Wshadow).  Before, C89 had no 'inline', and
# -Wshadow -Werror refused 'count' and 'fd'.
printf '%s\n' 'int count, fd, flags, known;' '#include <copyrange.h>' \
  'int main (void)' '{' \
  '  return copy_range (0, (loff_t *) 0, 1, (loff_t *) 0, count, 0) < 0' \
  '         && fd && flags && known;' '}' > c89.c || framework_failure_
for std in c89 gnu89; do
  $CC -std=$std -pedantic -D_DEFAULT_SOURCE -Wall -Wextra -Wshadow -Werror \
      -I"$inc" -c -o c89.o c89.c > c89.err 2>&1 \
    || { echo "-std=$std:"; cat c89.err; fail=1; }
done

# The first calls race safely (tests/install/use-header-race.c): another
# thread's close() of the source just before the header's check of the
# kernel does not make it take cachestat, or a kernel without the call,
# for copy_range; and two threads making their first calls at once do
# not race on what the header keeps, as ThreadSanitizer sees it, where
# the compiler has it and it runs here (first shown to report a race).
race=$abs_top_srcdir/tests/install/use-header-race.c
$CC -Wall -Wextra -Werror -I"$inc" -o race "$race" -pthread -ldl \
    > race.err 2>&1 \
  || { echo "building use-header-race.c failed:"; cat race.err; fail=1; }
if test -x race; then
  ./race close > race-close.out 2>&1 || fail=1
  cat race-close.out
fi
printf '%s\n' '#include <pthread.h>' 'static int x;' \
  'static void *f (void *a) { x++; return a; }' \
  'int main (void) { pthread_t t; pthread_create (&t, 0, f, 0);' \
  '  x++; pthread_join (t, 0); return 0; }' > tsan-works.c \
  || framework_failure_
tsan_=
if $CC -fsanitize=thread -g -o tsan-works tsan-works.c -pthread \
     > tsan.err 2>&1; then
  TSAN_OPTIONS=exitcode=66 ./tsan-works > tsan-works.out 2>&1
  if test $? = 66 && grep 'WARNING: ThreadSanitizer: data race' \
       tsan-works.out > /dev/null; then
    tsan_=yes
  else
    echo "ThreadSanitizer does not work here:"; sed 5q tsan-works.out
  fi
else
  echo "$CC has no -fsanitize=thread:"; sed 5q tsan.err
fi
if test -n "$tsan_"; then
  $CC -Wall -Wextra -Werror -fsanitize=thread -g -I"$inc" -o race-tsan \
      "$race" -pthread -ldl > race-tsan.err 2>&1 \
    || { echo "building use-header-race.c with TSan failed:"
         cat race-tsan.err; fail=1; }
  if test -x race-tsan; then
    TSAN_OPTIONS=exitcode=66 ./race-tsan threads > race-tsan.out 2>&1 \
      || fail=1
    echo "two first calls at once, under ThreadSanitizer:"
    cat race-tsan.out
  fi
else
  echo "the race of two first calls is not checked"
fi

# In C++, the header alone (use-header.c has casts of its own) builds
# without an old-style cast or a 0 for a null pointer.
printf '%s\n' '#include <copyrange.h>' 'int main () {' \
  '  loff_t a = 0, b = 0;' \
  '  return copy_range (-1, &a, -1, &b, 0, 0) == -1 ? 0 : 1;' '}' \
  > cxx-only.cc || framework_failure_
if command -v g++ > /dev/null; then
  g++ -Wall -Wextra -Werror -Wold-style-cast -Wzero-as-null-pointer-constant \
    -I"$inc" -o cxx-only cxx-only.cc > cxx-only.err 2>&1 && ./cxx-only \
    || { echo "the header alone in C++:"; cat cxx-only.err; fail=1; }
fi

# The header leaves defined no macro of its own but those it documents,
# and none with a name reserved to the implementation.
printf '#include <copyrange.h>\n' | $CC -E -dM -I"$inc" - > macros.all \
  || framework_failure_
sed -n 's/^#define \([A-Za-z0-9_]*\).*/\1/p' macros.all \
  | grep -i 'copy_\{0,1\}range' | sort > macros
printf '%s\n' COPYRANGE_H COPYRANGE_NR_H SYS_copy_range __NR_copy_range \
  | sort > macros.exp
compare macros.exp macros || fail=1

# Under strict ISO C without _DEFAULT_SOURCE, the header's own #error says
# what is missing, first.
returns_ 1 $CC -std=c11 -I"$inc" -c -o strict.o "$src" > strict.err 2>&1 \
  || { cat strict.err; fail=1; }
grep -m1 'error' strict.err | grep '_DEFAULT_SOURCE' > /dev/null \
  || { echo "no clear error in strict mode:"; cat strict.err; fail=1; }

# The number: the series' on x86 (451), and the one that cpr's wrapper
# uses on this architecture (tests/install/nr-table.sh checks the others).
nr_ () { h=$1 m=$2; shift 2
         printf '%s\n%s\n' "$h" "$m" | $CC -E -P "$@" - | tail -n 1; }
ours=$(nr_ '#include <copyrange.h>' SYS_copy_range -I"$inc")
cprs=$(nr_ '#include "copy-range.h"' COPY_RANGE_SYSCALL \
         -I"$abs_top_srcdir/gnulib-local/lib" -I"$abs_top_srcdir/include")
echo "SYS_copy_range: $ours; cpr's COPY_RANGE_SYSCALL: $cprs"
test "x$ours" = "x$cprs" || { echo "the two numbers differ"; fail=1; }
case $(uname -m) in
  x86_64|i?86)
    test "$ours" = 451 || { echo "SYS_copy_range is $ours, not 451"; fail=1; } ;;
esac

# make installcheck on the staged tree.
$MAKE -C "$abs_top_builddir" installcheck DESTDIR="$dest" $layout_ \
  > installcheck.log 2>&1 || { cat installcheck.log; fail=1; }

# man finds the page through the staged man directory.
if command -v man > /dev/null; then
  page=$(MANPATH=$dest/usr/share/man man -w 2 copy_range) || fail=1
  test "$page" = "$dest/usr/share/man/man2/copy_range.2" \
    || { echo "man -w 2 copy_range: $page"; fail=1; }
  MANPATH=$dest/usr/share/man MANWIDTH=80 man 2 copy_range > page.txt 2>&1 \
    || { cat page.txt; fail=1; }
  grep 'copy_range - copy a range of bytes between two files' page.txt \
    > /dev/null || { echo "man 2 copy_range shows:"; cat page.txt; fail=1; }
fi

$MAKE -C "$abs_top_builddir" uninstall DESTDIR="$dest" $layout_ \
  > uninstall.log 2>&1 || { cat uninstall.log; fail=1; }
test -e "$inc/copyrange.h" && { echo "make uninstall left the header"; fail=1; }

Exit $fail
