#!/bin/sh
# In the guest, the copy_range wrapper's one-time probe finds the patched
# kernel's copy_range -- not fooled by a first call with a closed
# descriptor -- and a copy advances both offsets by the bytes copied.

# Copyright (C) 2026 The copyrange authors.
# SPDX-License-Identifier: GPL-3.0-or-later

. "${srcdir=.}/tests/init.sh"; path_prepend_ ./src
fail=0
test -n "$COPYRANGE_GUEST" || skip_ "needs the patched kernel in the guest"
path_prepend_ ./tests/cpr-data

d=$(mktemp -d "${CR_MNT_EXT4?}/cpr-wrapper.XXXXXX") || framework_failure_
cleanup_ () { rm -rf "$d"; }
head -c 1234567 /dev/urandom > "$d/a" || framework_failure_

# Less than the whole file, then more than what is left: clamped at EOF.
copy-range-test "$d/a" "$d/b" 1000000 > out || fail=1
cat > exp <<'EOT'
closed: -1 EBADF 0 0
copy: 1000000 0 1000000 1000000
EOT
compare exp out || fail=1
head -c 1000000 "$d/a" | cmp - "$d/b" || fail=1

copy-range-test "$d/a" "$d/c" 2000000 > out || fail=1
cat > exp <<'EOT'
closed: -1 EBADF 0 0
copy: 1234567 0 1234567 1234567
EOT
compare exp out || fail=1
cmp "$d/a" "$d/c" || fail=1

Exit $fail
