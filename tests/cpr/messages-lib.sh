# messages-lib.sh: diagnostics of every kind, for the tests that compare
# them with GNU cp's in other locales.  Sourced after compare-lib.sh.
# -*- sh -*-

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

# 'msg_cases --cr-env=LC_ALL=L ...' runs them with those options of
# cpr_case first.  They cover each way a name or a word is quoted: quoteaf
# (file names: 'x', the same in every locale), quote (option arguments,
# and the names in gnulib's ACL diagnostics: 'x' in ASCII, curly in
# UTF-8, and as the catalog says when translated), glibc's getopt (its
# own words and quotes, from its own catalog) and libattr (its own
# words, untranslated, and quoteaf).

msg_user=nobody
require_user_ $msg_user
msg_uid=$(id -u $msg_user) msg_gid=$(id -g $msg_user)

# 'other' belongs to someone else yet anyone may write it; 'é x' and
# "it's" need quoting; 'cap' has an xattr that only root may set.
setup_tree ()
{
  printf 'a\n' > a && printf 'b\n' > b && mkdir d && printf 'f\n' > file &&
  printf 'o\n' > other && chmod 666 other &&
  printf 'e\n' > 'é x' && printf 'i\n' > "it's" && mkdir d/sub &&
  printf 'c\n' > cap &&
  setfattr -n security.capability -v 0sAQAAAgAgAAAAAAAAAAAAAAAAAAA= cap &&
  chown 1234:5678 other && chown $msg_uid:$msg_gid . a
}

msg_cases ()
{
  # Operands.
  cpr_case "$@"
  cpr_case "$@" a
  cpr_case "$@" a b file
  cpr_case "$@" -T a b d
  cpr_case "$@" -t nonexistent a
  cpr_case "$@" -t file a
  cpr_case "$@" a b nonexistent/
  cpr_case "$@" --parents a file
  # glibc's getopt, and the options cpr refuses in its words.
  for opt in --frobnicate --frob=x --re -W -S --verbose=x --deb --debu=x \
      --pro --c --co=x --p --d=x --de=; do
    cpr_case "$@" $opt a b
  done
  # Option arguments (argmatch), and conflicting options.
  for opt in --backup=bad --backup=n --reflink=bad --reflink= \
      --sparse=bad --preserve=bad --preserve=, --no-preserve=bad \
      --context=x; do
    cpr_case "$@" $opt a b
  done
  cpr_case "$@" -l -s a b
  cpr_case "$@" -b -n a b
  cpr_case "$@" --reflink --sparse=always a b
  cpr_case "$@" --preserve=context a new
  # Files.
  cpr_case "$@" nonexistent new
  cpr_case "$@" 'é x' "it's" new
  cpr_case "$@" a a
  cpr_case "$@" d new
  cpr_case "$@" -r d d/sub
  cpr_case "$@" -r d file
  cpr_case "$@" -s a d/sub
  cpr_case "$@" -v 'é x' "it's" d
  cpr_case "$@" -bv --backup=numbered a b
  # Attributes that an unprivileged user may not preserve.
  u=--cr-user=$msg_user
  cpr_case "$@" $u --preserve=mode a other
  cpr_case "$@" $u -p a other
  cpr_case "$@" $u --preserve=ownership,timestamps a other
  cpr_case "$@" $u --preserve=xattr cap new
  # --help: cpr's says more; its usage lines are compared.
  cpr_case --cr-outfilter=msg_first_line "$@" --help
}

# Reduce --help's output in FILE ($1) to its first lines.
msg_first_line ()
{
  sed -n 1,3p "$1" > "$1.1" && mv "$1.1" "$1"
}
