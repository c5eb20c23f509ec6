# lib.sh: helpers for the data mover's tests; source it after init.sh.
# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

# The LD_PRELOAD shim that logs and fails the data calls (see shim.c).
shim_=$abs_top_builddir/tests/cpr-data/shim.so

# The tests run cpr as built; without it there is nothing to test.
test -x "$abs_top_builddir/src/cpr" || skip_ "cpr is not built"
test -f "$shim_" || framework_failure_

# with_shim_ [VAR=VALUE]... CMD [ARG]...: run CMD with the shim preloaded.
with_shim_ () { env LD_PRELOAD="$shim_" "$@"; }

# kernel_has_copy_range_: whether the running kernel has copy_range: the
# guest boots the patched kernel; elsewhere its symbol tells.
kernel_has_copy_range_ ()
{
  test -n "$COPYRANGE_GUEST" && return 0
  test -r /proc/kallsyms && grep -q ' [Tt] __[a-z0-9]*_sys_copy_range$' /proc/kallsyms
}

# emulate_: the value of CPR_SHIM_COPY_RANGE for a test that wants cpr's
# copy_range calls wherever it runs: the shim emulates the system call on
# a kernel without it, and lets the guest's own calls through.
emulate_=
kernel_has_copy_range_ || emulate_=emulate

# tiles_ LOG SIZE: succeed if the bytes that the data calls in the shim's
# LOG moved cover [0, SIZE) once each and in order: each call starts where
# the previous one ended, whatever the method, so no byte is lost or
# copied twice.
tiles_ ()
{
  awk -v size="$2" '
    ($1 == "copy_range" || $1 == "copy_file_range" || $1 == "read") && 0 < $5 {
      if ($2 != pos) { printf "%s at %s, expected at %s\n", $1, $2, pos; bad = 1 }
      pos = $2 + $5
    }
    END {
      if (pos != size) { printf "moved up to %s of %s\n", pos, size; bad = 1 }
      exit bad
    }' pos=0 "$1"
}

# first_at_ LOG OP: the offset of the first call of OP in LOG that moved bytes.
first_at_ () { awk -v op="$2" '$1 == op && 0 < $5 { print $2; exit }' "$1"; }

# method_ FILE: the method words of the --debug line in FILE.
method_ () { sed -n 's/^copy offload: .*, method: //p' "$1"; }

# The partial mark's helpers.  In the guest busybox's applets come first in
# PATH: name the GNU tools (and attr's) by their full path there.
partial_mark_=user.cpr.partial
if test -n "$COPYRANGE_GUEST"; then
  find_=/usr/bin/find cmp_=/usr/bin/cmp getfattr_=/usr/bin/getfattr
else
  find_=find cmp_=cmp getfattr_=getfattr
fi

# moved_ LOG: the bytes that the data calls in the shim's LOG moved (reads,
# not writes, for read/write).
moved_ ()
{
  awk '($1 == "copy_range" || $1 == "copy_file_range" || $1 == "read") \
       && 0 < $5 { s += $5 } END { print s + 0 }' "$1"
}

# offset_ FILE: the offset in FILE's partial mark (the xattr, "2 ID O";
# the first format's "1 D I S T O" too, for runs of older cpr), or nothing
# if it has none.
offset_ ()
{
  set -- $($getfattr_ --only-values -n $partial_mark_ "$1" 2> /dev/null)
  case $1:$# in
    1:6|2:3) eval "printf '%d\\n' 0x\${$#}" ;;
    *) false ;;
  esac
}

# marked_ FILE: whether FILE carries a sign of a partial copy: the sticky
# bit of a regular file that cpr made, or the xattr.
marked_ ()
{
  test -n "$(offset_ "$1")" ||
    case $(stat -c %A "$1") in -*[tT]) true ;; *) false ;; esac
}

# kept_ DIR: the bytes that --continue may keep of DIR's marked files:
# min (offset, size) each.
kept_ ()
{
  $find_ "$1" -type f | while read f; do
    o=$(offset_ "$f"); test -n "$o" || continue
    s=$(stat -c %s "$f"); test $s -lt $o && o=$s
    echo $o
  done | awk '{ s += $1 } END { print s + 0 }'
}

# check_marked_ SRC DST: every regular file in DST that is not yet a copy
# of its source in SRC carries a sign of a partial copy.
check_marked_ ()
{
  (cd "$2" && $find_ . -type f) | while read f; do
    $cmp_ -s "$1/$f" "$2/$f" && continue
    marked_ "$2/$f" || { echo "$2/$f: partial, not marked"; exit 1; }
  done
}

# with_io_ FILE CMD [ARG]...: run CMD (a program, not a function) and write
# to FILE the kernel's I/O accounting of what it did: a shell runs CMD,
# reaps it, and reads its own /proc/PID/io, where the kernel has added the
# counts of the children it reaped (wait_task_zombie).  CMD's status.
with_io_ ()
{
  sh -c 'f=$1; shift; "$@"; s=$?; cat /proc/$$/io > "$f" || exit 99
         exit $s' sh "$@"
}

# wchar_ FILE: the bytes written (wchar) in FILE, a copy of /proc/PID/io.
wchar_ () { awk '$1 == "wchar:" { print $2 }' "$1"; }

# io_moved_ IO LOG: the bytes that the kernel counted as written (wchar)
# in IO, a copy of /proc/PID/io, less those of the lines that the shim
# wrote to its LOG: the data calls' bytes (copy_range and copy_file_range
# count what they copy, whatever the method), plus what the program wrote
# to its standard output and error.
io_moved_ () { echo $(($(wchar_ "$1") - $(wc -c < "$2"))); }

# check_io_moved_ WHAT IO LOG EXPECTED: the run whose shim log is LOG and
# whose I/O accounting is IO moved EXPECTED bytes by the kernel's count,
# and as many as the shim counted, with $io_slack_ bytes to spare for what
# it wrote to its standard output and error; else say so and fail.
io_slack_=512
check_io_moved_ ()
{
  m_=$(io_moved_ "$2" "$3") s_=$(moved_ "$3")
  test $4 -le $m_ && test $m_ -le $(($4 + io_slack_)) &&
    test $s_ -le $m_ && test $m_ -le $((s_ + io_slack_)) && return 0
  echo "$1: the kernel counted $m_ bytes moved; expected $4 and the" \
       "shim's $s_ (+ up to $io_slack_)"
  return 1
}
