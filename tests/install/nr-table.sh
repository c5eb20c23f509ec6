#!/bin/sh
# copy_range's system call number, architecture by architecture: what the
# installed <copyrange.h> gives as SYS_copy_range and what cpr's own
# wrapper uses (COPY_RANGE_SYSCALL, gnulib-local/lib/copy-range.h) are
# both the number that the kernel series (kernel/series' patches) puts
# in that architecture's system call table, plus the base the kernel
# adds to that table's numbers.  Each architecture is simulated on this
# host by the preprocessor alone: no predefined macro (-undef) but
# __linux__ and those its compilers predefine, and no system header
# (-nostdinc) but an empty <sys/syscall.h>, as kernel headers without
# the series give.  Where the kernel headers do define __NR_copy_range,
# both take theirs; off Linux, neither has a number.  Every table that
# the series adds the call to is one of those checked.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"
fail=0
test -n "$COPYRANGE_GUEST" && skip_ "needs the compiler: runs only on the host"
test -n "$CC" || skip_ "no C compiler (CC is empty)"

top=$abs_top_srcdir
test -f "$top/kernel/series" || framework_failure_ "no kernel/series"

# The numbers the series gives, one line per table: PATH NUMBER, from the
# lines that the patches add to system call tables (NUMBER ABI copy_range
# ...) and to unistd.h files (#define __NR_copy_range NUMBER).  tools/
# holds copies for perf, not tables of the kernel's own.
for p in $(sed 's/[ 	]*#.*//' "$top/kernel/series"); do
  awk '
    /^diff --git / { path = substr($3, 3); next }
    path ~ /^tools\// { next }
    /^\+[0-9]+[ \t]+[a-z0-9]+[ \t]+copy_range([ \t]|$)/ {
      print path, substr($1, 2); next }
    /^\+#define[ \t]+__NR_copy_range[ \t]+[0-9]+[ \t]*$/ { print path, $3 }
  ' "$top/kernel/$p"
done | sort -u > series-numbers || framework_failure_
echo "the series' tables:"
cat series-numbers
test -s series-numbers || framework_failure_ "no copy_range number in kernel/*.patch"

# The architectures: NAME, the macros its compilers predefine (beside
# __linux__), the table the kernel takes its numbers from, and the base
# the kernel adds to that table's numbers (its __NR_Linux,
# __NR_SYSCALL_BASE or __X32_SYSCALL_BIT).  asm-generic's unistd.h is
# the table of arm64, riscv, loongarch and the other newer ports.
generic=include/uapi/asm-generic/unistd.h
cat > arches <<EOF || framework_failure_
x86_64 -D__x86_64__,-D__LP64__ arch/x86/entry/syscalls/syscall_64.tbl 0
x32 -D__x86_64__,-D__ILP32__ arch/x86/entry/syscalls/syscall_64.tbl 0x40000000
i386 -D__i386__ arch/x86/entry/syscalls/syscall_32.tbl 0
alpha -D__alpha__ arch/alpha/kernel/syscalls/syscall.tbl 0
arm-eabi -D__arm__,-D__ARM_EABI__ arch/arm/tools/syscall.tbl 0
arm-thumb -D__arm__,-D__thumb__ arch/arm/tools/syscall.tbl 0
arm-oabi -D__arm__ arch/arm/tools/syscall.tbl 0x900000
arm-on-arm64 -D__arm__,-D__ARM_EABI__ arch/arm64/include/asm/unistd32.h 0
aarch64 -D__aarch64__,-D__LP64__ $generic 0
riscv64 -D__riscv,-D__LP64__ $generic 0
loongarch64 -D__loongarch__,-D__loongarch64 $generic 0
ia64 -D__ia64__ arch/ia64/kernel/syscalls/syscall.tbl 1024
m68k -D__m68k__ arch/m68k/kernel/syscalls/syscall.tbl 0
microblaze -D__microblaze__ arch/microblaze/kernel/syscalls/syscall.tbl 0
mips-o32 -D__mips__,-D_ABIO32=1,-D_MIPS_SIM=_ABIO32 arch/mips/kernel/syscalls/syscall_o32.tbl 4000
mips-n64 -D__mips__,-D_ABI64=3,-D_MIPS_SIM=_ABI64 arch/mips/kernel/syscalls/syscall_n64.tbl 5000
mips-n32 -D__mips__,-D_ABIN32=2,-D_MIPS_SIM=_ABIN32 arch/mips/kernel/syscalls/syscall_n32.tbl 6000
hppa -D__hppa__ arch/parisc/kernel/syscalls/syscall.tbl 0
powerpc -D__powerpc__ arch/powerpc/kernel/syscalls/syscall.tbl 0
ppc64el -D__powerpc__,-D__powerpc64__,-D__LITTLE_ENDIAN__ arch/powerpc/kernel/syscalls/syscall.tbl 0
s390x -D__s390__,-D__s390x__ arch/s390/kernel/syscalls/syscall.tbl 0
sh4 -D__sh__ arch/sh/kernel/syscalls/syscall.tbl 0
sparc64 -D__sparc__,-D__arch64__ arch/sparc/kernel/syscalls/syscall.tbl 0
xtensa -D__xtensa__ arch/xtensa/kernel/syscalls/syscall.tbl 0
EOF

# Every table of the series is one of these.
while read -r path nr; do
  grep " $path " arches > /dev/null \
    || { echo "no architecture here uses $path, where the series gives $nr"
         fail=1; }
done < series-numbers

# The system headers that the two headers include, empty.
mkdir -p inc/sys || framework_failure_
for h in sys/syscall.h sys/types.h errno.h fcntl.h unistd.h; do
  : > inc/$h || framework_failure_
done

# nr_ HEADER MACRO FLAGS...: MACRO's value after #include HEADER, as a
# number, or 'none' where it is not defined.
nr_ ()
{
  h=$1 m=$2; shift 2
  printf '#define COPYRANGE_NR_ONLY 1\n#include %s\n%s\n' "$h" "$m" > nr.c
  $CC -E -P -undef -nostdinc -Iinc -I"$top/include" \
    -I"$top/gnulib-local/lib" "$@" nr.c > nr.i 2> nr.err \
    || { cat nr.err >&2; echo error; return; }
  v=$(tail -n 1 nr.i)
  if test "x$v" = "x$m"; then
    echo none
  elif printf '%s\n' "$v" | grep -E '^[0-9a-fx()+ ]+$' > /dev/null; then
    echo $(($v))
  else
    echo "unreadable:$v"
  fi
}
# check_ NAME EXPECTED FLAGS...: both numbers are EXPECTED.
check_ ()
{
  name=$1 exp=$2; shift 2
  ours=$(nr_ '<copyrange.h>' SYS_copy_range "$@")
  cprs=$(nr_ '"copy-range.h"' COPY_RANGE_SYSCALL "$@")
  echo "$name: series $exp, <copyrange.h> $ours, cpr $cprs"
  test "$ours" = "$exp" || { echo "  <copyrange.h> is wrong"; fail=1; }
  test "$cprs" = "$exp" || { echo "  cpr's wrapper is wrong"; fail=1; }
}

while read -r name macros path base; do
  nr=$(awk -v p="$path" '$1 == p { print $2 }' series-numbers)
  test -n "$nr" || { echo "$name: the series has no number in $path"
                     fail=1; continue; }
  check_ $name $(($base + $nr)) -D__linux__ $(echo "$macros" | tr , ' ')
done < arches

# The kernel headers' own number comes first, on any architecture.
echo '#define __NR_copy_range 987' > inc/sys/syscall.h || framework_failure_
check_ 'x86_64 with the series'"'"' kernel headers' 987 -D__linux__ \
  -D__x86_64__ -D__LP64__
check_ 'aarch64 with the series'"'"' kernel headers' 987 -D__linux__ \
  -D__aarch64__ -D__LP64__
: > inc/sys/syscall.h || framework_failure_

# Off Linux, no number.
check_ 'x86_64 off Linux' none -D__x86_64__ -D__LP64__

Exit $fail
