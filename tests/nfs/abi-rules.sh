#!/bin/sh
# The core's table of copy_range rules (tests/kernel/cr-abi), run on the
# NFSv4.2 mount, where the copy goes to the server as COPY.  The rows that
# NFS semantics rule out are listed below, each with what it must show
# instead and why.  Any other row that fails, an exception that does not
# show what is listed (or passes: the list is then out of date), or files
# left behind on the mount, fail this test.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
. "$srcdir/tests/offload-lib.sh"
require_mnt_ CR_MNT_NFS
abi=${abs_top_builddir-$PWD/..}/tests/kernel/cr-abi
test -x "$abi" || framework_failure_ "$abi not built"

# The exceptions, three lines each: the row's name; what its FAIL line
# must say instead (a substring of the reason cr-abi prints); why.
cat > exceptions <<'EOF' || framework_failure_
immutable destination is EPERM
cannot set the inode flag: ENOTTY
the NFS client has no inode flags: FS_IOC_SETFLAGS is ENOTTY and NFSv4 has no attribute for them
append-only destination is EPERM
cannot set the inode flag: ENOTTY
the NFS client has no inode flags: FS_IOC_SETFLAGS is ENOTTY and NFSv4 has no attribute for them
active swap file is ETXTBSY
swapon: EINVAL
a swap file on NFS needs CONFIG_NFS_SWAP, which kernel/guest.config leaves off: swapon fails with EINVAL
suid and sgid cleared as by write
5 bytes, as write(2) leaves them, but not cleared: 4755 became 4755; 2775 became 2775; 6775 became 6775;
the server clears them with its own credentials, and nfsd serves root (no_root_squash) with CAP_FSETID whatever the client process dropped, so write(2) keeps them too; the unprivileged-owner row checks the clearing
EOF

# exception_ ROW FIELD: field 2 (what it shows) or 3 (why) of ROW's entry.
exception_ ()
{
  awk -v row="$1" -v f="$2" \
    'NR % 3 == 1 { hit = $0 == row } hit && NR % 3 == f % 3 { print }' \
    exceptions
}

ls -d "$CR_MNT_NFS"/cr-abi.* > before 2>/dev/null
"$abi" nfs "$CR_MNT_NFS" > out 2> err
st=$?
cat out err
case $st in
  0|1) ;;
  *) fail_ "cr-abi exited with status $st" ;;
esac

pass=0 excused=0 skipped=0 seen=
while IFS= read -r line; do
  case $line in
    PASS:*|FAIL:*|SKIP:*) ;;
    *) continue ;;
  esac
  result=${line%%: *}
  rest=${line#*: nfs: }
  row=${rest%%: *}
  reason=
  case $rest in *': '*) reason=${rest#*: } ;; esac
  shows=$(exception_ "$row" 2)
  why=$(exception_ "$row" 3)
  case $result in
    PASS)
      if test -n "$shows"; then
        echo "listed as an NFS exception, but passed: $row"; fail=1
      else
        pass=$((pass + 1))
      fi ;;
    SKIP)
      if test -n "$shows"; then
        echo "listed as an NFS exception, but skipped: $row"; fail=1
      else
        skipped=$((skipped + 1))
      fi ;;
    FAIL)
      if test -z "$shows"; then
        echo "unexpected failure on NFS: $row"; fail=1
      else
        case $reason in
          *"$shows"*)
            echo "SKIP on NFS: $row: $why (observed: $reason)"
            excused=$((excused + 1))
            seen="$seen|$row" ;;
          *)
            echo "NFS exception failed otherwise: $row: $reason"
            echo "  (listed: $shows)"; fail=1 ;;
        esac
      fi ;;
  esac
done < out

# Every exception must have been observed.
while IFS= read -r row && IFS= read -r shows && IFS= read -r why; do
  case "$seen|" in
    *"|$row|"*) ;;
    *) echo "NFS exception not observed: $row"; fail=1 ;;
  esac
done < exceptions

# cr-abi removes its directory; nothing of it may stay on the mount
# (busy .nfs* files are what a descriptor left open would leave).
ls -d "$CR_MNT_NFS"/cr-abi.* > after 2>/dev/null
compare before after || fail_ "cr-abi left files on $CR_MNT_NFS"

echo "nfs: $pass rows passed, $excused NFS exceptions, $skipped skipped"
test $pass -gt 0 || fail_ "no row passed"

Exit $fail
