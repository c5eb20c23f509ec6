#!/bin/sh
# The Debian packages install and go away cleanly.  'make deb' builds them
# from the dist tarball and lintian passes them (unless CR_DEBS names a
# directory that holds them already built: then those are taken).  dpkg
# installs both into a scratch root (dpkg --root) whose database holds,
# from the host's, the packages they depend on; cpr and the masquerade
# link run from there and answer with this version, the files are where
# README says, and a program builds against the header there.  Then dpkg
# removes them, purges them, and the root is as it was before: no file,
# no link, no directory and no entry of theirs in dpkg's database.
# Needs root (dpkg --root) and, without CR_DEBS, dpkg-buildpackage and
# debhelper; skips, saying which, without them.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"
fail=0
test -n "$COPYRANGE_GUEST" && skip_ "builds Debian packages: runs only on the host"
test -n "$CR_PACKAGE_BUILD" \
  && skip_ "run by the package's own build (debian/rules): not building it again from within"
test "$(id -u)" = 0 || skip_ "dpkg --root needs root"
for p in dpkg dpkg-deb dpkg-query; do
  command -v $p > /dev/null || skip_ "$p not found: not a Debian system"
done
: "${MAKE=make}"
unset MAKEFLAGS MFLAGS GNUMAKEFLAGS MAKELEVEL

arch=$(dpkg --print-architecture) || framework_failure_
if test -n "$CR_DEBS"; then
  debs=$CR_DEBS
else
  command -v dpkg-buildpackage > /dev/null \
    || skip_ "dpkg-buildpackage not found (apt-get install dpkg-dev)"
  command -v dh > /dev/null || skip_ "dh not found (apt-get install debhelper)"
  debs=$abs_top_builddir
  $MAKE -C "$abs_top_builddir" deb > build.log 2>&1
  status=$?
  # lintian's report, which 'make deb' checks for errors.
  sed -n '/^lintian /,$p' build.log | grep -v '^make'
  test $status = 0 || { cat build.log; fail_ "make deb failed"; }
fi
deb=$debs/copyrange_${VERSION}_$arch.deb
devdeb=$debs/copyrange-dev_${VERSION}_all.deb
for f in "$deb" "$devdeb"; do
  test -f "$f" || framework_failure_ "no $f"
done

# The contents, as README says.
dpkg-deb -c "$deb" > contents || fail=1
for f in ./usr/bin/cpr ./usr/share/man/man1/cpr.1.gz \
         './usr/lib/copyrange/bin/cp -> ../../../bin/cpr'; do
  grep -F " $f" contents > /dev/null || { echo "no $f in $deb"; fail=1; }
done
dpkg-deb -c "$devdeb" > dev-contents || fail=1
for f in ./usr/include/copyrange.h ./usr/share/man/man2/copy_range.2.gz; do
  grep -F " $f" dev-contents > /dev/null || { echo "no $f in $devdeb"; fail=1; }
done

# The scratch root: dpkg's database, holding the host's entries for what
# the two packages depend on, each with an empty file list.
root=$PWD/root
admin=$root/var/lib/dpkg
mkdir -p "$admin/info" "$admin/updates" || framework_failure_
: > "$admin/available" && : > "$admin/status" || framework_failure_
for p in $( { dpkg-deb -f "$deb" Depends Pre-Depends
              dpkg-deb -f "$devdeb" Depends Pre-Depends; } |
            sed 's/^[A-Za-z-]*: //; s/([^)]*)//g; s/:any//g; s/[,|]/ /g' |
            tr ' ' '\n' | sort -u); do
  dpkg-query -s "$p" > stanza 2> /dev/null || continue
  grep '^Status: install ok installed$' stanza > /dev/null || continue
  { cat stanza; echo; } >> "$admin/status" || framework_failure_
  : > "$admin/info/$(dpkg-query -W -f='${binary:Package}' "$p").list" \
    || framework_failure_
done
echo "the root's database holds:" $(sed -n 's/^Package: //p' "$admin/status")

# snapshot_: every name in the root but dpkg's own, with its type.
snapshot_ () { (cd "$root" && find . -path ./var/lib/dpkg -prune -o -printf '%y %p\n' | sort); }
snapshot_ > before || framework_failure_

dpkg_ () { dpkg --root="$root" "$@"; }
dpkg_ -i "$deb" "$devdeb" > install.log 2>&1 \
  || { cat install.log; fail_ "dpkg -i failed"; }
cat install.log
for p in copyrange copyrange-dev; do
  dpkg_ -s $p | grep '^Status: install ok installed$' > /dev/null \
    || { echo "$p is not installed"; dpkg_ -s $p; fail=1; }
done

# cpr and the link run from the root (with the host's libraries, those the
# packages depend on).
"$root/usr/bin/cpr" --version > version || fail=1
echo "\$root/usr/bin/cpr --version: $(sed 1q version)"
echo "cpr (copyrange) $VERSION" > version.exp || framework_failure_
sed 1q version > version.1 && compare version.exp version.1 || fail=1
PATH="$root/usr/lib/copyrange/bin:$PATH" cp --version > cp-version || fail=1
echo "cp --version through the masquerade directory: $(sed 1q cp-version)"
echo "cp (copyrange) $VERSION" > cp-version.exp || framework_failure_
sed 1q cp-version > cp-version.1 && compare cp-version.exp cp-version.1 \
  || fail=1
echo data > a || framework_failure_
PATH="$root/usr/lib/copyrange/bin:$PATH" cp a b || fail=1
compare a b || fail=1
if test -n "$CC"; then
  $CC -I"$root/usr/include" -o use-header \
    "$abs_top_srcdir/tests/install/use-header.c" && ./use-header || fail=1
fi

# Removed, they have no conffiles to keep, so purging finds them gone.
dpkg_ -r copyrange copyrange-dev > remove.log 2>&1 \
  || { cat remove.log; fail=1; }
cat remove.log
echo "after dpkg -r: $(dpkg_ -l 'copyrange*' 2>&1 | tail -n 1)"
dpkg_ --purge copyrange copyrange-dev > purge.log 2>&1 \
  || { cat purge.log; fail=1; }
cat purge.log

# Nothing of theirs is left: no file, and nothing in dpkg's database.
snapshot_ > after || framework_failure_
compare before after || fail=1
ls "$admin/info" | grep '^copyrange' && { echo "dpkg still has their files"; fail=1; }
grep '^Package: copyrange' "$admin/status" \
  && { echo "dpkg's status still names them"; fail=1; }

Exit $fail
