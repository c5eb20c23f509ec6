# compare-lib.sh: run GNU cp and cpr side by side and compare what they do.
# Sourced by tests/cpr/*.sh after tests/init.sh.  -*- sh -*-

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

# No expected output is written down in these tests: the reference is
# whatever GNU cp does.  A test defines setup_tree (a shell function that
# builds the input files in the current directory) and calls
#
#   cpr_case [OPTION]... [--] ARG...
#
# which, once for the reference and once for cpr, empties the directory
# $CR_WORK, runs setup_tree there, gives every file a distinct old timestamp,
# runs 'cp ARG...' there, and records stdout, stderr, the exit status and a
# snapshot of the resulting tree.  Both runs use the same absolute directory
# and invoke the program under the same name (argv[0] is "cp" unless -n says
# otherwise), so even diagnostics naming absolute paths must be identical.
# Any difference is shown as a diff and sets fail=1.
#
# Leading arguments of the form --cr-NAME=VALUE are options of cpr_case;
# all the rest is the cp command line:
#   --cr-setup=FUNC  build the tree with FUNC instead of setup_tree
#   --cr-times=FUNC  after the timestamps are normalized, run FUNC
#   --cr-after=FUNC  after the copy, before the snapshot, run FUNC
#   --cr-stdin=TEXT  feed TEXT on standard input (default: /dev/null)
#   --cr-user=USER   run the copy as USER and USER's group, without
#                    supplementary groups (the tree is still built as root)
#   --cr-userns      run the copy as root in a user namespace of its own
#                    that maps only root (unshare -U -r): privileged, yet
#                    unable to give files to any other owner
#   --cr-name=NAME   invoke the program as NAME rather than cp
#   --cr-abs         invoke it by an absolute name, the same for both
#   --cr-env=V=X     put V=X in the copy's environment (repeatable; X
#                    must not contain white space)
#   --cr-stdout=FILE send standard output to FILE (e.g. /dev/full) rather
#                    than capturing it; '-' closes standard output
#   --cr-umask=MASK  run the copy with umask MASK
#   --cr-ref-opt=OPT, --cr-cpr-opt=OPT
#                    give the reference or cpr the option OPT first
#   --cr-ordered     compare the lines of stdout and stderr in order even
#                    in a recursive copy (see below)
#   --cr-outcheck=FUNC  check cpr's stdout with 'FUNC out.cpr' before it
#                    is compared; FUNC may edit the file, and its failure
#                    fails the case
#   --cr-outfilter=FUNC  reduce both programs' stdout with 'FUNC FILE' (which
#                    edits FILE) to what must be the same
# A test that mounts file systems in its trees names a function that
# unmounts them in CR_TEARDOWN; it is run in $CR_WORK before it is removed.
# Setup functions must not call cp: under src/ it may be cpr.  cr_random N
# prints N bytes of data that are the same for both runs.
#
# The snapshot lists, for every entry under $CR_WORK: its name, type,
# permission bits (with set-id and sticky bits), owner and group, size
# (not for directories), link count, which earlier name it is a hard link
# of, symlink target, device numbers, MD5 of the contents, xattrs and ACLs
# (in hex), and the modification time -- literally when it is older than the
# start of the test (so set or preserved), as "new" otherwise.  CR_ATIME=yes
# adds access times the same way; CR_BLOCKS=yes adds the number of allocated
# blocks of regular files (to compare holes).  tests/cpr/tree-state takes
# it, stat'ing every entry before reading any, so that its own reads change
# no access time; it also sets the timestamps before each copy.

# The reference: CR_REF, GNU cp 9.1 (require_gnu_cp_, in init.cfg).
require_gnu_cp_

# The program under test: $CPR if set (CPR=/bin/cp validates the tests),
# else the cpr built in src/.  CR_CPR_JOBS=N gives it --jobs=N first, in
# every case that copies a tree (cpr_case): copies side by side must
# change nothing that the tests compare (tests/cpr-jobs/, which
# tests/local.mk makes, set it).
if test -z "${CPR-}"; then
  CPR=$(command -v cpr) || framework_failure_ "cpr not found in PATH"
fi
case $CPR in
  /*) ;;
  *) CPR=$(command -v "$CPR") || framework_failure_ "$CPR not found" ;;
esac
test -x "$CPR" || framework_failure_ "$CPR is not executable"

fail=0
CR_ATIME=${CR_ATIME-no}
# A run that takes longer than this many seconds is killed (and fails).
CR_TIMEOUT=${CR_TIMEOUT-300}
CR_BLOCKS=${CR_BLOCKS-no}
CR_TOP=$PWD
CR_WORK=$CR_TOP/w
cr_n_=0
CR_TREE_STATE=$abs_top_builddir/tests/cpr/tree-state
test -x "$CR_TREE_STATE" ||
  framework_failure_ "$CR_TREE_STATE not built: run make check"

# The test directory must be reachable by the unprivileged users of -u.
chmod a+rx . || framework_failure_

# bin.ref/NAME and bin.cpr/NAME: each program under the name given to -n.
cr_bin_ ()
{
  for cr_impl_ in ref cpr; do
    test -L bin.$cr_impl_/$1 && continue
    mkdir -p bin.$cr_impl_ || framework_failure_
    if test $cr_impl_ = ref; then
      ln -s "$CR_REF" bin.$cr_impl_/$1 || framework_failure_
    else
      ln -s "$CPR" bin.$cr_impl_/$1 || framework_failure_
    fi
  done
}

# Give each entry below directory $1 its own old modification time, from
# the sorted order of the names, with nanoseconds; and all the same old
# access time, distinct from any modification time.
cr_normalize_times_ ()
{
  "$CR_TREE_STATE" times "$1"
}

# Print the first $1 bytes of a pseudo-random file, the same in every run,
# for setup functions.
cr_random ()
{
  if test ! -f "$CR_TOP/random.dat" ||
     test "$(stat -c %s "$CR_TOP/random.dat")" -lt "$1"; then
    dd if=/dev/urandom of="$CR_TOP/random.dat" bs=1M \
      count=$(($1 / 1048576 + 4)) status=none || framework_failure_
  fi
  head -c "$1" "$CR_TOP/random.dat"
}

# Print the snapshot of directory $1 (see above) on stdout: one line an
# entry, sorted, its fields separated by tabs; in names and symlink targets
# backslash, newline and tab are written \134, \012 and \011.
cr_snapshot ()
{
  set -- snapshot "$1"
  test "$CR_ATIME" = yes && set -- -a "$@"
  test "$CR_BLOCKS" = yes && set -- -b "$@"
  "$CR_TREE_STATE" "$@"
}

# Run one case for implementation $1 (ref or cpr); the rest as cpr_case.
cr_run_ ()
{
  cr_impl_=$1; shift
  if test -d "$CR_WORK"; then
    if test -n "${CR_TEARDOWN-}"; then
      (cd "$CR_WORK" && $CR_TEARDOWN) || framework_failure_ "$CR_TEARDOWN"
    fi
    chmod -R u+rwx "$CR_WORK" 2>/dev/null
    rm -rf "$CR_WORK" || framework_failure_ "cannot remove $CR_WORK"
  fi
  mkdir -m a+rwx "$CR_WORK" || framework_failure_
  (cd "$CR_WORK" && $cr_setup_) || framework_failure_ "$cr_setup_ failed"
  cr_normalize_times_ "$CR_WORK" || framework_failure_ "touch failed"
  if test -n "$cr_times_"; then
    (cd "$CR_WORK" && $cr_times_) || framework_failure_ "$cr_times_ failed"
  fi

  cr_out_=$cr_stdout_
  test -z "$cr_out_" && cr_out_=$CR_TOP/out.$cr_impl_
  (
    cd "$CR_WORK" || exit 99
    test -z "$cr_umask_" || umask $cr_umask_
    cr_prog_=$cr_name_
    if test $cr_abs_ = yes; then
      ln -sfn bin.$cr_impl_ "$CR_TOP/bin" || exit 99
      cr_prog_=$CR_TOP/bin/$cr_name_
    fi
    if test $cr_impl_ = ref; then
      cr_extra_=$cr_ref_opt_
    else
      cr_extra_="${CR_CPR_JOBS:+--jobs=$CR_CPR_JOBS} $cr_cpr_opt_"
    fi
    set -- env PATH="$CR_TOP/bin.$cr_impl_:$PATH" $cr_env_ "$cr_prog_" $cr_extra_ "$@"
    if command -v timeout > /dev/null; then
      set -- timeout -s KILL $CR_TIMEOUT "$@"
    fi
    if test -n "$cr_user_"; then
      set -- setpriv --reuid="$cr_user_" --regid="$cr_group_" \
        --clear-groups -- "$@"
    fi
    if test $cr_userns_ = yes; then
      set -- unshare -U -r -- "$@"
    fi
    # exec: no shell waits in between, one process fewer.
    if test "x$cr_out_" = x-; then
      exec "$@" < "$cr_in_" 2> ../err.$cr_impl_ >&-
    else
      exec "$@" < "$cr_in_" 2> ../err.$cr_impl_ > "$cr_out_"
    fi
  )
  echo $? > rc.$cr_impl_
  test -z "$cr_stdout_" || : > out.$cr_impl_

  if test -n "$cr_after_"; then
    (cd "$CR_WORK" && $cr_after_) || framework_failure_ "$cr_after_ failed"
  fi
  cr_snapshot "$CR_WORK" > tree.$cr_impl_ || framework_failure_ "snapshot"
  # CR_BLOCKS_UNIT=N compares allocated blocks in units of N blocks: a
  # hole shows, the file system's own metadata blocks (an ext4 extent-tree
  # block more or less, as its allocator decides) do not.
  if test -n "${CR_BLOCKS_UNIT-}"; then
    awk -v u="$CR_BLOCKS_UNIT" '{
        if (match($0, /blocks=[0-9]+/)) {
          n = substr($0, RSTART + 7, RLENGTH - 7)
          $0 = substr($0, 1, RSTART + 6) int((n + u / 2) / u) substr($0, RSTART + RLENGTH)
        }
        print }' tree.$cr_impl_ > tree.$cr_impl_.u && mv tree.$cr_impl_.u tree.$cr_impl_ ||
      framework_failure_ "rounding blocks"
  fi
}

# Whether the options of a case ($@) copy a tree (-r, -R, -a, or their
# long forms), as far as a look at them tells: a letter of an option's
# argument may make it say yes where cp would not recurse, never no
# where it would.
cr_recursive_ ()
{
  for cr_arg_; do
    case $cr_arg_ in
      --) return 1 ;;
      --rec*|--ar*|-[!-]*[rRa]*|-[rRa]*) return 0 ;;
    esac
  done
  return 1
}

cpr_case ()
{
  cr_setup_=setup_tree cr_times_= cr_after_= cr_in_=/dev/null cr_user_=
  cr_userns_=no
  cr_name_=cp cr_abs_=no cr_env_= cr_stdout_= cr_umask_=
  cr_ref_opt_= cr_cpr_opt_= cr_outcheck_= cr_outfilter_= cr_ordered_=no
  while :; do
    case $1 in
      --cr-setup=*) cr_setup_=${1#*=} ;;
      --cr-times=*) cr_times_=${1#*=} ;;
      --cr-after=*) cr_after_=${1#*=} ;;
      --cr-stdin=*) printf '%s' "${1#*=}" > in.txt || framework_failure_
                    cr_in_=$CR_TOP/in.txt ;;
      --cr-user=*) cr_user_=${1#*=}
                   cr_group_=$(id -gn "$cr_user_") || framework_failure_ ;;
      --cr-name=*) cr_name_=${1#*=} ;;
      --cr-userns) cr_userns_=yes ;;
      --cr-abs) cr_abs_=yes ;;
      --cr-ref-opt=*) cr_ref_opt_=${1#*=} ;;
      --cr-cpr-opt=*) cr_cpr_opt_=${1#*=} ;;
      --cr-outcheck=*) cr_outcheck_=${1#*=} ;;
      --cr-outfilter=*) cr_outfilter_=${1#*=} ;;
      --cr-ordered) cr_ordered_=yes ;;
      --cr-env=*) cr_env_="$cr_env_ ${1#*=}" ;;
      --cr-stdout=*) cr_stdout_=${1#*=} ;;
      --cr-umask=*) cr_umask_=${1#*=} ;;
      --cr-*) framework_failure_ "cpr_case: unknown option $1" ;;
      *) break ;;
    esac
    shift
  done
  cr_n_=$((cr_n_ + 1))
  # With --jobs (tests/cpr-jobs/), cpr copies side by side only the new
  # files of a tree: a case that copies no tree runs the very code that
  # it runs without --jobs, which the comparison without it checked.
  if test "${CR_CPR_JOBS:-1}" != 1 && ! cr_recursive_ $cr_cpr_opt_ "$@"; then
    echo "case $cr_n_: no tree, so nothing copied side by side: not run again"
    return 0
  fi
  cr_bin_ "$cr_name_"

  cr_run_ ref "$@"
  cr_run_ cpr "$@"

  cr_bad_=
  if test -n "$cr_outcheck_"; then
    $cr_outcheck_ out.cpr || cr_bad_=" $cr_outcheck_"
  fi
  if test -n "$cr_outfilter_"; then
    $cr_outfilter_ out.ref && $cr_outfilter_ out.cpr ||
      framework_failure_ "$cr_outfilter_"
  fi

  # In a recursive copy the order of a directory's entries is GNU cp's
  # choice (it sorts them by inode number, which differs from run to run),
  # so the lines of its output are compared as sets; -i's prompts, which
  # end in "? " and no newline, count as lines.
  if test $cr_ordered_ = no && cr_recursive_ "$@"; then
    cr_ordered_=sort
  fi
  if test $cr_ordered_ = sort; then
    for cr_f_ in out.ref out.cpr err.ref err.cpr; do
      test -s $cr_f_ || continue
      case $cr_f_ in
        err.*) sed 's/? /?\n/g' $cr_f_ ;;
        *) cat $cr_f_ ;;
      esac | LC_ALL=C sort > $cr_f_.s && mv $cr_f_.s $cr_f_ ||
        framework_failure_
    done
  fi

  # Two empty files (most outputs) and two equal exit statuses need no diff.
  read cr_rc_ref_ < rc.ref && read cr_rc_cpr_ < rc.cpr || framework_failure_
  for cr_what_ in rc out err tree; do
    case $cr_what_ in
      rc) test "$cr_rc_ref_" = "$cr_rc_cpr_" && continue ;;
      out|err) test -s $cr_what_.ref || test -s $cr_what_.cpr || continue ;;
    esac
    compare $cr_what_.ref $cr_what_.cpr > diff.$cr_what_ 2>&1 ||
      cr_bad_="$cr_bad_ $cr_what_"
  done
  if test -n "$cr_bad_"; then
    {
      printf '%s\n' "case $cr_n_ differs from $CR_REF in:$cr_bad_"
      cr_ns_=
      test $cr_userns_ = no || cr_ns_=' of a user namespace'
      printf '  as %s%s%s%s:' "${cr_user_:-root}" "$cr_ns_" \
        "${cr_env_:+ with}" "$cr_env_"
      printf " '%s'" "$cr_name_" "$@"; echo
      for cr_what_ in $cr_bad_; do
        test -f diff.$cr_what_ && cat diff.$cr_what_
      done
    } >&2
    fail=1
  fi
  return 0
}

# Run the tests that need it as root, or skip them.
require_root_ ()
{
  test "$(id -u)" = 0 || skip_ "must be run as root"
}

# Skip unless the file system here makes a hole of a file grown by
# truncate.
require_sparse_files_ ()
{
  truncate -s 1M hole-probe || framework_failure_
  test "$(stat -c %b hole-probe)" -lt 64 || skip_ "no sparse files here"
  rm -f hole-probe
}

# Whether --cr-userns works here.
have_userns_ ()
{
  test "$(id -u)" = 0 && unshare -U -r -- true 2>/dev/null
}

# Require that USER ($1) exists and can reach the test directory.
require_user_ ()
{
  require_root_
  id -u "$1" > /dev/null 2>&1 || skip_ "no user $1"
  setpriv --reuid="$1" --regid="$(id -g "$1")" --clear-groups -- \
    test -x "$PWD" 2>/dev/null ||
    skip_ "user $1 cannot reach $PWD"
}
