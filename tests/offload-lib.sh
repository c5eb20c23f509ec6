# Shell functions for the copy_range offload tests (tests/btrfs, tests/nfs).
# Sourced after tests/init.sh; runs only in the QEMU guest.
#
# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

test "$COPYRANGE_GUEST" = 1 || skip_ "needs the patched kernel in the QEMU guest"
crf=${abs_top_builddir-$PWD/..}/tests/copy-range-file
test -x "$crf" || framework_failure_ "$crf not built"

# GNU tools by full path: busybox applets come first in the guest's PATH.
gnu_cmp=/usr/bin/cmp
gnu_df=/usr/bin/df
gnu_dd=/usr/bin/dd

# require_mnt_ VAR: skip unless the scratch mount in $VAR exists.
require_mnt_ ()
{
  eval "mnt_=\${$1-}"
  test -n "$mnt_" && grep -q "^[^ ]* $mnt_ " /proc/mounts \
    || skip_ "$1 is not a mount point"
}

# scratch_dir_ DIR: set dir to a fresh folder under DIR, removed by cleanup_.
scratch_dirs_=
scratch_dir_ ()
{
  dir=$(mktemp -d "$1/cr-test.XXXXXX") || framework_failure_ "mktemp in $1"
  scratch_dirs_="$scratch_dirs_ $dir"
}
cleanup_ () { test -z "$scratch_dirs_" || rm -rf $scratch_dirs_; }

# size_ SPEC: bytes in a size with an optional K, M or G suffix.
size_ ()
{
  case $1 in
    *K) echo $((${1%K} << 10)) ;;
    *M) echo $((${1%M} << 20)) ;;
    *G) echo $((${1%G} << 30)) ;;
    *) echo "$1" ;;
  esac
}

# make_data_ FILE BYTES: FILE holds BYTES of incompressible data: a random
# megabyte plus 13 bytes, so that blocks at different offsets differ,
# doubled with dd (read and write, no shared extents) until long enough.
make_data_ ()
{
  head -c $((1048576 + 13)) /dev/urandom > "$1" \
    || framework_failure_ "cannot read /dev/urandom"
  have_=$((1048576 + 13))
  while test $have_ -lt "$2"; do
    $gnu_dd if="$1" of="$1" bs=1M count=$have_ iflag=count_bytes \
      oflag=append conv=notrunc status=none || framework_failure_ "dd $1"
    have_=$((have_ * 2))
  done
  truncate -s "$2" "$1" || framework_failure_ "truncate $1"
}

# sparse_cmp_ A B: what cmp A B says, without reading holes: for big
# sparse files, where cmp would read GiBs of zeros.  The sizes must match,
# and the bytes of every part that either file's SEEK_DATA calls data
# (from xfs_io's seek); the rest is holes in both, which read as zeros.
sparse_cmp_ ()
{
  size_a_=$(stat -c %s "$1") && size_b_=$(stat -c %s "$2") \
    || framework_failure_ "sparse_cmp_: stat $1 $2"
  if test "$size_a_" != "$size_b_"; then
    echo "sparse_cmp_: $1 has $size_a_ bytes, $2 $size_b_"
    return 1
  fi
  for f_ in "$1" "$2"; do
    xfs_io -r -c 'seek -a -r 0' "$f_" > seek.out \
      && test "$(head -n 1 seek.out)" = "$(printf 'Whence\tResult')" \
      || framework_failure_ "sparse_cmp_: xfs_io seek $f_"
    awk '$1 == "DATA" && $2 != "EOF" { at = $2 }
         $1 == "HOLE" && at != "" { print at, $2 - at; at = "" }' seek.out
  done > data-parts || framework_failure_ "sparse_cmp_: awk"
  while read at_ len_; do
    $gnu_cmp -i $at_:$at_ -n $len_ "$1" "$2" || {
      echo "sparse_cmp_: in the $len_ bytes from byte $at_"
      return 1
    }
  done < data-parts
}

# plain_copy_ SRC DST: copy SRC's bytes into a new DST with read and
# write: GNU cat and cp would share SRC's extents on btrfs.
plain_copy_ ()
{
  $gnu_dd if="$1" of="$2" bs=1M status=none || framework_failure_ "dd $1"
}

# btrfs_data_used_ MNT: bytes of data in use on the btrfs at MNT, after a
# transaction commit so that the figure is current.
btrfs_data_used_ ()
{
  btrfs filesystem sync "$1" >/dev/null || return 1
  btrfs filesystem df -b "$1" | sed -n 's/^Data,.*used=\([0-9]*\).*/\1/p'
}

# df_used_ MNT: bytes df reports in use on MNT.
df_used_ () { $gnu_df -B1 --output=used "$1" | tail -n 1 | tr -d ' '; }

# btrfs_du_ FILE: "TOTAL EXCLUSIVE SHARED" bytes of FILE, from
# btrfs filesystem du (extents shared with other files are not exclusive).
btrfs_du_ ()
{
  sync
  btrfs filesystem du --raw "$1" | tail -n 1 | awk '{print $1, $2, $3}'
}

# btrfs_exclusive_ FILE: bytes of FILE's extents that no other file shares.
btrfs_exclusive_ () { set -- $(btrfs_du_ "$1"); echo "$2"; }

# nfs_ops_ MNT OP: how many OP requests the NFS mount on MNT has sent.
nfs_ops_ ()
{
  awk -v mnt="$1" -v op="$2:" '
    $1 == "device" { here = ($5 == mnt) }
    here && $1 == op { n = $2 }
    END { print (n == "" ? 0 : n) }
  ' /proc/self/mountstats
}

# mountstat_ MNT: on stdout "COPY_OPS READ_OPS WRITE_OPS SERVER_READ_BYTES
# SERVER_WRITE_BYTES CLONE_OPS" for the NFS mount on MNT, from
# /proc/self/mountstats: the per-op counts and the bytes of file data that
# crossed the wire.  Printed as the file has them: the guest's mawk caps
# %d at 2^31 - 1, and a mount's byte counts pass that.
mountstat_ ()
{
  awk -v mnt="$1" '
    $1 == "device" { here = ($5 == mnt) }
    here && $1 == "bytes:" { srd = $6; swr = $7 }
    here && $1 == "COPY:" { copy = $2 }
    here && $1 == "CLONE:" { clone = $2 }
    here && $1 == "READ:" { rd = $2 }
    here && $1 == "WRITE:" { wr = $2 }
    function n(v) { return v == "" ? 0 : v }
    END { print n(copy), n(rd), n(wr), n(srd), n(swr), n(clone) }
  ' /proc/self/mountstats
}

# run_copy_ ARGS...: run copy-range-file with ARGS, log how long it took and
# its report, and fail the test if it fails.
run_copy_ ()
{
  t0_=$(cut -d' ' -f1 /proc/uptime)
  "$crf" "$@" > crf.out 2> crf.err
  rc_=$?
  t1_=$(cut -d' ' -f1 /proc/uptime)
  echo "copy-range-file $*: $(cat crf.out crf.err) (status $rc_," \
       "$(awk "BEGIN { printf \"%.2f\", $t1_ - $t0_ }") s)"
  return $rc_
}

# nfs_copy_ MNT EXPORT SIZE: create a SIZE-byte source in a scratch folder
# of EXPORT on the server side (no NFS traffic), copy it with copy_range
# through the NFS mount MNT of that export and log what crossed the wire.
# Sets dir (server side), cdir (client side), copies (COPY ops), clones
# (CLONE ops), payload (READ and WRITE bytes of file data),
# nfs_copy_status.
nfs_copy_ ()
{
  scratch_dir_ "$2"
  cdir=$1/${dir##*/}
  make_data_ "$dir/src" "$3"
  sync
  test "$(stat -c %s "$cdir/src")" = "$3" \
    || framework_failure_ "the client does not see $cdir/src"
  set -- "$1" "$2" "$3" $(mountstat_ "$1")
  run_copy_ "$cdir/src" "$cdir/dst"
  nfs_copy_status=$?
  set -- "$@" $(mountstat_ "$1")
  copies=$((${10} - ${4}))
  reads=$((${13} - ${7}))
  writes=$((${14} - ${8}))
  clones=$((${15} - ${9}))
  payload=$((reads + writes))
  echo "copy of $3 bytes on $1: COPY ops +$copies, CLONE ops +$clones," \
       "READ ops +$((${11} - ${5})) bytes +$reads," \
       "WRITE ops +$((${12} - ${6})) bytes +$writes"
}
