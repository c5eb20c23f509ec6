#!/bin/sh
# In the guest, on btrfs (copy_range clones), NFSv4.2 (the server copies)
# and ext4 (the kernel copies): a multi-file 'cpr -a' killed with SIGKILL
# at several points -- by the data mover's shim at data calls at 0, 1 MiB
# and 2.5 MiB and at the first removal of a mark, and by kill(1) in the
# middle of a slowed copy -- leaves every destination file that is not
# whole marked as partial; 'cpr -a --continue' then makes the tree the same
# as the source, byte for byte and by attributes (tree-state snapshots),
# and moves only what the marks did not account for.  The log shows, for
# each point, the bytes the second run did not have to move.
#
# What the second run moved is measured by the kernel: the wchar of its
# /proc/PID/io (copy_range and copy_file_range count the bytes they copy,
# clone or have the server copy), less the shim's log lines, must be the
# bytes the marks did not cover, and what the shim saw the data calls
# move, within a few hundred bytes of output.  On NFS the mount's
# /proc/self/mountstats must show the second run sending no file data in
# WRITE (0 bytes: every byte moved by a CLONE or a COPY on the server;
# the export is on btrfs, so mostly CLONE, COPY where a range does not
# start on a clone block) and at least one CLONE or COPY.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/cpr-data/lib.sh"
fail=0
test -n "$COPYRANGE_GUEST" || skip_ "needs the patched kernel in the guest"
. "$srcdir/tests/offload-lib.sh"  # mountstat_

tree_state=$abs_top_builddir/tests/cpr/tree-state
test -x "$tree_state" || framework_failure_ "tree-state not built"
setfattr=/usr/bin/setfattr
test -x $getfattr_ && test -x $setfattr || framework_failure_ "no attr tools"

# run_ LOG [VAR=VALUE]... cpr ARG...: cpr with the shim logging its data
# calls to LOG, 1 MiB a call; its I/O accounting in LOG's name with .io for
# .log.  Status in $rc.
run_ ()
{
  log_=$1; shift
  rm -f "$log_"
  with_io_ "${log_%.log}.io" env LD_PRELOAD="$shim_" CPR_SHIM_LOG=$log_ \
    CPR_CHUNK_SIZE=1048576 "$@"
  rc=$?
}

# progress_marked_ DIR: whether a file in DIR has a mark with an offset
# other than 0; one getfattr for the tree.
progress_marked_ ()
{
  $getfattr_ -R --absolute-names -n $partial_mark_ "$1" 2> /dev/null | awk -F'"' '
    /^user\.cpr\.partial=/ { n = split($2, f, " "); if (f[n] != "0") m = 1 }
    END { exit !m }'
}

# alive_ PID: whether process PID runs (a zombie does not).
alive_ ()
{
  read -r _ _ st_ _ < /proc/$1/stat 2> /dev/null && test "$st_" != Z
}

same_tree_ ()
{
  "$tree_state" snapshot "$1" > snap.a && "$tree_state" snapshot "$2" > snap.b \
    || framework_failure_
  compare snap.a snap.b
}

# The source, made here and copied onto each file system.
mkdir src src/sub || framework_failure_
head -c 6291459 /dev/urandom > src/a &&
head -c 3145729 /dev/urandom > src/b &&
head -c 2097152 /dev/urandom > src/sub/c &&
printf 'small\n' > src/small && : > src/empty &&
ln src/sub/c src/hard && ln -s a src/sym && chmod 0640 src/b \
  || framework_failure_
full=$(/usr/bin/find src -type f -printf '%i %s\n' | sort -u |
       awk '{ s += $2 } END { print s }')

dirs=
cleanup_ () { test -z "$dirs" || rm -rf $dirs; }
for mnt in "$CR_MNT_BTRFS" "$CR_MNT_NFS" "$CR_MNT_EXT4"; do
  d=$(mktemp -d "$mnt/cpr-continue.XXXXXX") || { echo "no $mnt"; fail=1; continue; }
  dirs="$dirs $d"
  /bin/cp -a src "$d/src" || framework_failure_
  fs=${mnt##*/}

  # A file system that cannot hold the mark shows it, and then --continue
  # must say so, once, and copy whole.
  : > "$d/probe"
  if ! $setfattr -n user.probe -v 1 "$d/probe" 2> /dev/null; then
    echo "$mnt: no user xattrs"
    "$tree_state" times "$d/src" || framework_failure_
    rm -rf "$d/dst"
    run_ nox.log CPR_SHIM_FAIL=copy_range:2500000:KILL cpr -aT "$d/src" "$d/dst"
    run_ nox-c.log cpr -aT --continue "$d/src" "$d/dst" 2> err
    test $rc = 0 && test $(wc -l < err) = 1 || { cat err; fail=1; }
    test $(moved_ nox-c.log) = $full || fail=1
    continue
  fi
  # A user xattr of its own, which -a copies and the mark must not spoil.
  $setfattr -n user.colour -v blue "$d/src/a" && "$tree_state" times "$d/src" \
    || framework_failure_

  n=0
  for kill in copy_range:0:KILL copy_range:1048576:KILL \
      copy_range:2500000:KILL xattr=fremovexattr:KILL:1 sigkill; do
    n=$((n + 1))
    rm -rf "$d/dst"
    case $kill in
      xattr=*)
        run_ k$n.log CPR_SHIM_CALL_NS=1100000000 \
          CPR_SHIM_XATTR=${kill#xattr=} cpr -aT "$d/src" "$d/dst" ;;
      sigkill)
        # A real copy, each call made 0.5 s slower: kill -9 as soon as
        # a mark is seen brought up to date, which only the first file
        # (7 calls) lives long enough for, from 1 s into its copy.
        # env execs cpr: $! is cpr.  The poll must be quick, even under
        # a debug kernel: a slow one missed that window and went on
        # polling a finished copy for ten minutes.
        env LD_PRELOAD="$shim_" CPR_CHUNK_SIZE=1048576 \
          CPR_SHIM_SLEEP_NS=500000000 cpr -aT "$d/src" "$d/dst" &
        pid=$!
        i=0
        until progress_marked_ "$d/dst" || ! alive_ $pid \
              || test $i -ge 600; do
          sleep 0.1 2> /dev/null || sleep 1
          i=$((i + 1))
        done
        alive_ $pid || echo "$fs $kill: cpr ended before a mark with progress showed"
        kill -KILL $pid
        wait $pid
        rc=$? ;;
      *)
        # The shim's clock makes every call last 1.1 s: each chunk
        # brings the mark up to date.  Whichever call moves the bytes
        # there (a clone refused for an unaligned length goes on with
        # copy_file_range) is killed.
        at=${kill#copy_range:}
        run_ k$n.log CPR_SHIM_CALL_NS=1100000000 \
          CPR_SHIM_FAIL=$kill,copy_file_range:$at,read:$at \
          cpr -aT "$d/src" "$d/dst" ;;
    esac
    test $rc = 137 || { echo "$fs $kill: status $rc, not killed"; fail=1; }
    check_marked_ "$d/src" "$d/dst" || fail=1
    kept=$(kept_ "$d/dst")

    test "$mnt" != "$CR_MNT_NFS" || nfs0=$(mountstat_ "$mnt")
    run_ c$n.log cpr -aT --continue "$d/src" "$d/dst"
    test $rc = 0 || fail=1
    test "$mnt" != "$CR_MNT_NFS" || nfs1=$(mountstat_ "$mnt")
    same_tree_ "$d/src" "$d/dst" || fail=1
    m=$(io_moved_ c$n.io c$n.log) w=$(wchar_ c$n.io)
    echo "$fs, killed at $kill: the second run moved $m of $full bytes" \
         "(wchar $w); it did not have to move $kept"
    check_io_moved_ "$fs $kill" c$n.io c$n.log $((full - kept)) || fail=1
    test $(moved_ c$n.log) = $((full - kept)) \
      || { echo "$fs $kill: the shim saw $(moved_ c$n.log) moved"; fail=1; }
    if test "$mnt" = "$CR_MNT_NFS"; then
      # COPY READ WRITE (ops), server read and write bytes, CLONE (ops).
      set -- $nfs0 $nfs1
      echo "$fs, killed at $kill: over the wire, $((${11} - $5)) bytes in" \
           "$(($9 - $3)) WRITE, $((${10} - $4)) in $(($8 - $2)) READ;" \
           "$(($7 - $1)) COPY, $((${12} - $6)) CLONE"
      test $((${11} - $5)) = 0 && test $(($7 - $1 + ${12} - $6)) -gt 0 \
        || { echo "$fs $kill: data in WRITE, or no COPY or CLONE"; fail=1; }
    fi
    case $kill in
      copy_range:0:*) test $kept = 0 || fail=1 ;;
      copy_range:*) test $kept -ge 1048576 \
                              || { echo "$fs $kill: kept only $kept"; fail=1; } ;;
    esac
  done
done

Exit $fail
