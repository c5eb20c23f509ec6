#!/bin/sh
# The masquerade directory: 'make install' (here into a DESTDIR, with
# prefix=/usr and libexecdir=/usr/lib) puts in $(pkglibexecdir)/bin a
# relative symlink 'cp' to the installed cpr and nothing else.  A
# makefile whose recipes run plain cp, directly and through the shell,
# run with that directory first in PATH, copies with cpr: the data mover's
# shim logs cpr's probe for copy_range in each cp that opens a source,
# and a copy_range call at offset 0 for each regular file, calls that
# GNU cp never makes.  Its output, diagnostics ("cp: ..."), exit status
# and the trees it leaves are those of the same makefile run with GNU cp
# as cp.  The link still works once the staged tree has moved, and
# 'make uninstall' takes it away with its directories.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"
. "$srcdir/tests/cpr-data/lib.sh"
fail=0

require_gnu_cp_
tree_state=$abs_top_builddir/tests/cpr/tree-state
test -x "$tree_state" || framework_failure_ "tree-state not built"
: "${MAKE=make}"

# A make of its own for each run: none of the flags, jobserver or level
# ("make[2]:") of the 'make check' that runs this test reaches it.
unset MAKEFLAGS MFLAGS GNUMAKEFLAGS MAKELEVEL

top=$PWD

# The layout that 'make install' makes, in a staging directory.
dest=$top/dest
# Every directory and the program name given, so that whatever configure
# was told (--bindir, --program-prefix) the layout is this one.
layout_='prefix=/usr exec_prefix=/usr bindir=/usr/bin libexecdir=/usr/lib'
layout_="$layout_ transform=s,x,x,"
$MAKE -C "$abs_top_builddir" install DESTDIR="$dest" $layout_ > install.log 2>&1 \
  || { cat install.log; framework_failure_ "make install failed"; }
masq=$dest/usr/lib/copyrange/bin

test -L "$masq/cp" || fail_ "$masq/cp is not a symlink"
case $(readlink "$masq/cp") in
  /*) echo "the masquerade link is absolute: $(readlink "$masq/cp")"; fail=1 ;;
esac
test "$masq/cp" -ef "$dest/usr/bin/cpr" \
  || { echo "$masq/cp is not the installed cpr"; fail=1; }
test "$(ls -A "$masq")" = cp \
  || { echo "the masquerade directory holds more than cp:"; ls -A "$masq"; fail=1; }

# cp found through PATH there is cpr, and names itself cp.
PATH="$masq:$PATH" cp --version > version || fail=1
echo "cp (copyrange) $VERSION" > version.exp || framework_failure_
sed 1q version > version.1 && compare version.exp version.1 || fail=1

# GNU cp under the name cp, for the reference run.
mkdir ref-bin && ln -s "$CR_REF" ref-bin/cp || framework_failure_

# Six cp commands: five open a source, 'missing' fails before; six regular
# files copied, 'a' three times, d/f twice and d/g once.  The recipe of
# 'shell' goes through sh, the others are run by make itself.
setup_tree_ ()
{
  mkdir "$1" && cd "$1" && mkdir d &&
  cat ../random.dat > a && printf 'f\n' > d/f && printf 'g\n' > d/g &&
  cat > Makefile <<'EOF' &&
.PHONY: all plain preserve tree verbose shell missing
all: plain preserve tree verbose shell missing
plain:
	cp a b
preserve:
	cp -p a c
tree:
	cp -r d d2
verbose:
	cp -v a e
shell:
	cd d && cp f ../g
missing:
	cp nonexist x
EOF
  "$tree_state" times . && cd ..
}
processes=5 copies=6

# The data of 'a', the same in both trees.
head -c 300000 /dev/urandom > random.dat || framework_failure_

# run_ NAME BINDIR: 'make -k' in the tree NAME, with BINDIR first in PATH
# and the shim logging every data call to log.NAME.
run_ ()
{
  setup_tree_ $1 || framework_failure_ "setting up $1"
  (cd $1 || exit
   env LD_PRELOAD="$shim_" CPR_SHIM_COPY_RANGE=$emulate_ \
     CPR_SHIM_LOG="$top/log.$1" PATH="$2:$PATH" \
     $MAKE -k > ../out.$1 2> ../err.$1
   echo $? > ../rc.$1) || framework_failure_
  "$tree_state" snapshot $1 > tree.$1 || framework_failure_ "snapshot of $1"
}
run_ ref "$top/ref-bin"
run_ cpr "$masq"

for f in out err rc tree; do
  compare $f.ref $f.cpr || fail=1
done
test "$(cat rc.cpr)" = 2 || { echo "make exited $(cat rc.cpr), not 2"; fail=1; }
grep "^cp: cannot stat 'nonexist': " err.cpr > /dev/null \
  || { echo "no 'cp: cannot stat' from cpr:"; cat err.cpr; fail=1; }

# copy_range_ LOG: in the shim's LOG, the probes (no destination: EBADF)
# and the copy_range calls at offset 0, one for each regular file copied.
copy_range_ ()
{
  awk '$1 == "copy_range" && $3 == "-" { p++ }
       $1 == "copy_range" && $3 != "-" && $2 == 0 { c++ }
       END { print p + 0, c + 0 }' "$1"
}
n=$(copy_range_ log.cpr)
test "$n" = "$processes $copies" \
  || { echo "probes and copies of copy_range: $n, not $processes $copies"
       fail=1; }
n=$(copy_range_ log.ref)
test "$n" = "0 0" \
  || { echo "the reference run called copy_range ($n): not GNU cp?"; fail=1; }

# The staged tree moved elsewhere still finds its cpr.
mv dest moved || framework_failure_
PATH="$top/moved/usr/lib/copyrange/bin:$PATH" cp --version > version.moved \
  || fail=1
compare version version.moved || fail=1
mv moved dest || framework_failure_

# A transformed program name ('gcpr', --program-prefix=g) is the one
# the link names.
gdest=$top/gdest
$MAKE -C "$abs_top_builddir" install DESTDIR="$gdest" $layout_ \
  transform=s,^,g, > ginstall.log 2>&1 \
  || { cat ginstall.log; framework_failure_ "make install (gcpr) failed"; }
test "$(readlink "$gdest/usr/lib/copyrange/bin/cp")" = ../../../bin/gcpr \
  || { echo "with --program-prefix=g the link is" \
            "$(readlink "$gdest/usr/lib/copyrange/bin/cp")"; fail=1; }
test "$gdest/usr/lib/copyrange/bin/cp" -ef "$gdest/usr/bin/gcpr" \
  || { echo "the link does not reach gcpr"; fail=1; }
rm -rf "$gdest"

# A symbolic link on the way (the masquerade directory's parent a link
# to a directory at another depth) would leave the relative link
# dangling: the link is then absolute, with a warning.
sdest=$top/sdest
mkdir -p "$sdest/srv/opt" && ln -s srv/opt "$sdest/opt" || framework_failure_
$MAKE -C "$abs_top_builddir" install DESTDIR="$sdest" $layout_ \
  libexecdir=/opt/lib > sinstall.log 2>&1 \
  || { cat sinstall.log; framework_failure_ "make install (/opt) failed"; }
test "$(readlink "$sdest/opt/lib/copyrange/bin/cp")" = /usr/bin/cpr \
  || { echo "through a symlinked /opt the link is" \
            "$(readlink "$sdest/opt/lib/copyrange/bin/cp")"; fail=1; }
grep 'warning: a symbolic link' sinstall.log > /dev/null \
  || { echo "no warning for the absolute link"; fail=1; }
rm -rf "$sdest"

# Uninstalling leaves no file, no link and no masquerade directory.
$MAKE -C "$abs_top_builddir" uninstall DESTDIR="$dest" $layout_ \
  > uninstall.log 2>&1 \
  || { cat uninstall.log; echo "make uninstall failed"; fail=1; }
find "$dest" -type f -o -type l > left || framework_failure_
compare /dev/null left || fail=1
test -d "$dest/usr/lib/copyrange" \
  && { echo "make uninstall left $dest/usr/lib/copyrange"; fail=1; }

Exit $fail
