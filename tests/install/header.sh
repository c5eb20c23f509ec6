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
# header says what it needs.  'make installcheck' passes on the staged
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

# Under strict ISO C without _DEFAULT_SOURCE, the header's own #error says
# what is missing, first.
returns_ 1 $CC -std=c11 -I"$inc" -c -o strict.o "$src" > strict.err 2>&1 \
  || { cat strict.err; fail=1; }
grep -m1 'error' strict.err | grep '_DEFAULT_SOURCE' > /dev/null \
  || { echo "no clear error in strict mode:"; cat strict.err; fail=1; }

# The number: the series' on x86 (451), and the one that cpr's wrapper
# uses on this architecture.
nr_ () { printf '%s\n%s\n' "$1" "$2" | $CC -E -P -I"$3" - | tail -n 1; }
ours=$(nr_ '#include <copyrange.h>' SYS_copy_range "$inc")
cprs=$(nr_ '#include "copy-range.h"' COPY_RANGE_SYSCALL \
         "$abs_top_srcdir/gnulib-local/lib")
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
