# kernel/tree-lib.sh: how a patched kernel tree is prepared, sourced by
# vm/build-kernel (the guest's bzImage) and kernel/build-deb (Debian
# packages of the same kernel), so that both build the same tree.
#
# The caller sets, before sourcing: me (its name, for messages), top (the
# source tree), and optionally variant ('' or debug).  Sourcing checks the
# inputs and sets: cache, tarball, pkg, srcver, series, fragment, overlay,
# localversion and patches (the array of kernel/series' patches, less
# those KERNEL_WITHOUT names: see kt_without).  Then:
#
#   kt_key [EXTRA...]    print the cache key of these inputs (and EXTRA)
#   kt_unpack OUT        unpack linux-source into OUT and apply the series;
#                        sets src=OUT/linux-source-6.1
#   kt_fragment FILE     write the config fragment: guest.config, the
#                        variant's overlay over it, and the LOCALVERSION
#   kt_env OUT           export what every make of the tree needs: ARCH,
#                        the fixed build stamps and ccache's settings
#                        (base OUT); sets cc
#   kt_configure FRAG    allnoconfig with FRAG merged on it, in $src, and
#                        fail if a symbol FRAG sets did not survive
#   kt_prune DIR KEEP [EXCEPT]
#                        remove the trees DIR/KEY (directories named by a
#                        key of kt_key's) but EXCEPT and the KEEP newest
#                        others, and never one whose lock (DIR/KEY.lock)
#                        another run holds; nothing else in DIR
#
# Copyright (C) 2026 The copyrange authors.  GPL-3.0-or-later.

die() { echo "$me: $*" >&2; exit 1; }

cache=${COPYRANGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/copyrange}
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
pkg=linux-source-6.1

[ -r "$tarball" ] || die "$tarball not found (apt-get install $pkg)"
srcver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || echo unknown)
series=$top/kernel/series
fragment=$top/kernel/guest.config
[ -r "$fragment" ] || die "missing $fragment"
case ${variant-} in
  '') overlay= localversion=-copyrange ;;
  debug) overlay=$top/kernel/debug.config localversion=-copyrange-debug
         [ -r "$overlay" ] || die "missing $overlay" ;;
  *) die "unknown kernel variant '$variant' (the one variant is debug)" ;;
esac

patches=()
if [ -f "$series" ]; then
  while read -r p _; do
    case $p in ''|'#'*) continue ;; esac
    [ -r "$top/kernel/$p" ] || die "kernel/series names $p, which does not exist"
    patches+=("$p")
  done < "$series"
fi

# KERNEL_WITHOUT="NNNN..." leaves those patches of the series out, to show
# what fails without one (kernel/prove-patches).  Each must name a patch
# of the series by its number; the tree's release says which are missing.
kt_without() {
  local n p kept=() found
  for n in $KERNEL_WITHOUT; do
    case $n in [0-9][0-9][0-9][0-9]) ;; *) die "KERNEL_WITHOUT: '$n' is no patch number" ;; esac
    found=
    for p in "${patches[@]}"; do [ "${p%%-*}" != "$n" ] || found=1; done
    [ -n "$found" ] || die "KERNEL_WITHOUT: no patch $n in kernel/series"
    localversion=$localversion-without-$n
  done
  for p in "${patches[@]}"; do
    case " $KERNEL_WITHOUT " in *" ${p%%-*} "*) ;; *) kept+=("$p") ;; esac
  done
  patches=("${kept[@]}")
}
[ -z "${KERNEL_WITHOUT:-}" ] || kt_without

# The key hashes the linux-source version, the fragment, the overlay and
# every patch; EXTRA, when given, is hashed after them (vm/build-kernel
# gives none, so its keys are those of the trees already cached).
kt_key() {
  { echo "$pkg $srcver"; cat "$fragment"
    [ -z "$overlay" ] || { echo "== overlay"; cat "$overlay"; }
    for p in "${patches[@]}"; do echo "== $p"; cat "$top/kernel/$p"; done
    [ $# = 0 ] || printf '== %s\n' "$@"
  } | sha256sum | cut -c1-16
}

kt_unpack() {
  tar -C "$1" -xf "$tarball"
  src=$1/$pkg
  local p
  for p in "${patches[@]}"; do
    echo "$me: applying $p" >&2
    patch -d "$src" -p1 --batch --forward --quiet < "$top/kernel/$p" \
      || die "patch $p does not apply to $pkg $srcver"
  done
}

# The overlay's symbols replace guest.config's: a symbol set twice in
# one fragment would depend on which assignment Kconfig keeps.
kt_symbols() { sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1/p' "$@"; }
kt_fragment() {
  { if [ -n "$overlay" ]; then
      grep -v -F -w -f <(kt_symbols "$overlay") "$fragment"
      cat "$overlay"
    else
      cat "$fragment"
    fi
    # The series and variant are named in the release string so that a
    # kernel says which it is (uname -r).
    echo "CONFIG_LOCALVERSION=\"$localversion\""
    echo '# CONFIG_LOCALVERSION_AUTO is not set'; } > "$1"
}

kt_env() {
  export ARCH=x86_64
  # Fixed build stamps so that ccache sees identical inputs across trees.
  export KBUILD_BUILD_TIMESTAMP='2013-05-14' KBUILD_BUILD_USER=copyrange \
         KBUILD_BUILD_HOST=copyrange
  export CCACHE_DIR=${CCACHE_DIR:-$cache/ccache} CCACHE_NOHASHDIR=1 \
         CCACHE_BASEDIR=$1 CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime
  cc="gcc"
  if command -v ccache >/dev/null; then cc="ccache gcc"; fi
}

kt_configure() {
  (cd "$src" && scripts/kconfig/merge_config.sh -n -m /dev/null "$1" >/dev/null \
     && make -s CC="$cc" KCONFIG_ALLCONFIG="$1" allnoconfig >/dev/null) \
    || die "kernel configuration failed"
  # Every symbol the fragment asks for must have survived the merge:
  # a silently dropped option would make the kernel fail in confusing ways.
  local missing
  missing=$(grep -E '^CONFIG_[A-Z0-9_]+=y' "$1" | while read -r l; do
              grep -qxF "$l" "$src/.config" || echo "$l"; done)
  [ -z "$missing" ] || die "config options not set after merge: $(echo $missing)"
}

# Trees are large (a whole configuration's is several GiB): the oldest
# go.  A tree is a directory of DIR; its lock is DIR/NAME.lock, which
# the run that makes or uses the tree holds (flock), so that one in use
# is never removed.  The lock files stay, as vm/build-kernel's do.
kt_prune() {
  local dir=$1 keep=$2 except=${3-} d n=0
  [ -d "$dir" ] || return 0
  while IFS= read -r d; do
    d=${d%/}
    [[ ${d##*/} =~ ^[0-9a-f]{16}$ ]] || continue
    [ "$d" = "$except" ] && continue
    n=$((n + 1))
    [ "$n" -le "$keep" ] && continue
    if ( flock -n 9 && rm -rf "$d" ) 9> "$d.lock"; then
      echo "$me: removed the old tree $d" >&2
    fi
  done < <(ls -1dt "$dir"/*/ 2>/dev/null)
}
