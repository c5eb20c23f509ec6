# lib.sh: helpers for the data mover's tests; source it after init.sh.
# Copyright (C) 2026 The copyrange authors.  GPL-3.0-or-later.

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
