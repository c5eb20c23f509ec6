#!/bin/sh
# Each program configure chose on this host that the guest's make can
# call (vm/make-programs: AWK, MKDIR_P, SHELL, ...) is in the guest's
# image where that make looks for it: at the path the Makefile names, or
# for a bare name in a folder of the guest's PATH; through the image's own
# symlinks, an executable file.  Where Debian's gawk is installed,
# configure picks it for AWK, and an image without it failed the end of
# the guest half.  Builds (or reuses) the image as vm/run does; no boot.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"
fail=0
test -n "$COPYRANGE_GUEST" && skip_ "builds the guest's image: runs only on the host"
for p in cpio dpkg apt-get; do
  command -v $p > /dev/null || skip_ "$p not installed"
done

"$abs_top_srcdir/vm/make-programs" "$abs_top_builddir" > programs \
  || fail_ "vm/make-programs failed"
cat programs
# Automake's test harness runs every recipe with SHELL and writes the
# suite's log with AWK: a list without them is wrong.
grep '^SHELL ' programs > /dev/null && grep '^AWK ' programs > /dev/null \
  || fail_ "vm/make-programs names no SHELL or no AWK"

img=$("$abs_top_srcdir/vm/build-initramfs" "$abs_top_builddir") \
  || fail_ "vm/build-initramfs failed"
echo "image: $img"
cpio -itv --quiet < "$img" > listing || framework_failure_
# The guest's PATH, as its /init sets it.
guest_path=$(sed -n 's/^PATH=//p' "$abs_top_srcdir/vm/guest-init")
test -n "$guest_path" || framework_failure_

# missing_ LIST: for each "VARIABLE PROGRAM" line of LIST, print
# "VARIABLE = PROGRAM" unless the image has that program.  The listing is
# ls -l's: the name in field 9 (10 for a device, whose size is "MAJOR,
# MINOR"), "-> TARGET" after a symlink's name.  resolve() follows the
# image's symlinks, relative or absolute, within the image, and gives the
# path reached without its leading slash, or "" when there is none.
missing_ ()
{
  awk -v path="$guest_path" '
    function parent(p) { sub(/\/?[^\/]*$/, "", p); return p }
    function resolve(p,   hops, n, c, i, j, cur, t, rest, again) {
      for (hops = 0; hops < 40; hops++) {
        n = split(p, c, "/"); cur = ""; again = 0
        for (i = 1; i <= n; i++) {
          if (c[i] == "" || c[i] == ".") continue
          if (c[i] == "..") { cur = parent(cur); continue }
          cur = cur == "" ? c[i] : cur "/" c[i]
          if (!(cur in type)) return ""
          if (type[cur] != "l") continue
          t = target[cur]
          if (t !~ /^\//) t = "/" parent(cur) "/" t
          rest = ""
          for (j = i + 1; j <= n; j++) rest = rest "/" c[j]
          p = t rest; again = 1
          break
        }
        if (!again) return cur
      }
      return ""
    }
    function runnable(p) { return p != "" && type[p] == "-" && mode[p] ~ /x/ }
    FNR == NR {
      f = $5 ~ /,$/ ? 10 : 9
      type[$f] = substr($1, 1, 1); mode[$f] = $1
      if ($(f + 1) == "->") target[$f] = $(f + 2)
      next
    }
    {
      found = 0
      if ($2 ~ /\//)
        found = runnable(resolve($2))
      else {
        n = split(path, dirs, ":")
        for (d = 1; d <= n && !found; d++)
          found = runnable(resolve(dirs[d] "/" $2))
      }
      if (!found) print $1 " = " $2
    }' listing "$1"
}

# The check itself, on what every image has (/bin is a symlink to
# usr/bin, sh one to bash, awk one to mawk) and on what none has.
printf '%s\n' 'A /bin/bash' 'B sh' 'C awk' 'D /usr/lib/busybox/busybox' \
  'E /bin/cr-none' 'F cr-none' 'G /usr/bin' > known
missing_ known > out || framework_failure_
printf '%s\n' 'E = /bin/cr-none' 'F = cr-none' 'G = /usr/bin' > exp
compare exp out || fail=1

missing_ programs > missing || framework_failure_
if test -s missing; then
  echo "not in the guest's image $img (its PATH: $guest_path):"
  sed 's/^/  /' missing
  fail=1
fi

Exit $fail
