/* fold-test -- check src/fold.c: which directories may take names of
   different bytes for one file, and which names cpr --jobs then keeps
   from being copied side by side (tests/cpr/jobs-fold.sh).
   Copyright (C) 2026 The copyrange authors.
   SPDX-License-Identifier: GPL-3.0-or-later  */

#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "fold.h"

static int failures;

/* Check that the names A and B clash in a directory where fold_wide
   is WIDE, or not, as EXPECTED says.  */
static void
check_clash (char const *a, char const *b, bool wide, bool expected)
{
  char *ka = fold_key (a, wide);
  char *kb = fold_key (b, wide);
  bool got = fold_clash (ka, kb) && fold_clash (kb, ka);
  if (got != expected)
    {
      printf ("%s directory: '%s' and '%s' %s, not %s\n",
              wide ? "wide" : "narrow", a, b,
              got ? "clash" : "do not clash",
              expected ? "clash" : "do not clash");
      failures++;
    }
  free (ka);
  free (kb);
}

/* Check fold_wide (TYPE, FLAGS_KNOWN, FLAGS) against EXPECTED.  */
static void
check_wide (char const *what, unsigned long type, bool flags_known,
            unsigned long flags, bool expected)
{
  if (fold_wide (type, flags_known, flags) != expected)
    {
      printf ("%s: fold_wide is %s\n", what, expected ? "false" : "true");
      failures++;
    }
}

enum { CASEFOLD = 0x40000000, NOATIME = 0x80 };

int
main (void)
{
  /* Casefolding directories (FS_CASEFOLD_FL), on the file systems that
     have them.  */
  check_wide ("ext4 casefold", 0xEF53, true, CASEFOLD | NOATIME, true);
  check_wide ("tmpfs casefold", 0x01021994, true, CASEFOLD, true);
  check_wide ("f2fs casefold", 0xF2F52010, true, CASEFOLD, true);
  /* The same without the flag compare bytes.  */
  check_wide ("ext4", 0xEF53, true, NOATIME, false);
  check_wide ("tmpfs", 0x01021994, true, 0, false);
  check_wide ("f2fs", 0xF2F52010, true, 0, false);
  /* Where the flags could not be read, the flag may be there.  */
  check_wide ("ext4, flags unknown", 0xEF53, false, 0, true);
  /* btrfs and XFS have no such flag.  */
  check_wide ("btrfs", 0x9123683E, false, 0, false);
  check_wide ("xfs", 0x58465342, true, 0, false);
  /* Anything else may have rules of its own.  */
  check_wide ("vfat", 0x4d44, false, 0, true);
  check_wide ("exfat", 0x2011BAB0, false, 0, true);
  check_wide ("ntfs3", 0x7366746e, false, 0, true);
  check_wide ("cifs", 0xFF534D42, false, 0, true);
  check_wide ("nfs", 0x6969, false, 0, true);
  check_wide ("fuse", 0x65735546, false, 0, true);
  check_wide ("bcachefs", 0xca451a4e, true, CASEFOLD, true);

  /* Names that a casefolding directory takes for one, of different
     lengths: NFC against NFD, full case folding, compatibility.  */
  char const e_acute[] = "caf\xc3\xa9";          /* U+00E9 */
  char const e_combining[] = "cafe\xcc\x81";     /* e, U+0301 */
  check_clash (e_acute, e_combining, true, true);
  check_clash ("Stra\xc3\x9f" "e", "STRASSE", true, true);  /* U+00DF */
  check_clash ("\xe2\x84\xaa", "k", true, true);             /* U+212A */
  check_clash ("\xef\xac\x81le", "FILE", true, true);        /* U+FB01 */
  check_clash ("\xc4\xb1", "I", true, true);                 /* U+0131 */
  /* ASCII case, everywhere.  */
  check_clash ("Makefile", "makefile", true, true);
  check_clash ("Makefile", "makefile", false, true);
  /* FAT's ending dots and spaces.  */
  check_clash ("notes.", "NOTES", true, true);
  check_clash ("notes ", "notes", true, true);
  /* VFAT's short names: "LONGFI~1.TXT" may be another name of the
     file "longfilename.txt" that the copy makes beside it.  */
  check_clash ("LONGFI~1.TXT", "longfilename.txt", true, true);
  check_clash ("a~12", "b", true, true);
  check_clash ("LONGFI~1.TXT", "longfilename.txt", false, false);
  check_clash ("notes~", "b", true, false);
  /* XFS's ascii-ci before Linux 6.3 folded the Latin-1 capitals (0xC0
     to 0xDE but 0xD7) with the kernel's tolower: names in ISO 8859-1
     with E acute and e acute first are one name there.  */
  check_clash ("\xc9t\xe9", "\xe9t\xe9", false, true);
  check_clash ("\xd7", "\xf7", false, false);
  check_clash ("\xdf", "\xff", false, false);
  /* What no directory takes for one.  */
  check_clash ("a", "b", true, false);
  check_clash ("file1", "file2", true, false);
  check_clash ("notes.", "notes", false, false);
  /* A directory that compares bytes, names outside ASCII too.  */
  check_clash (e_acute, e_combining, false, false);
  check_clash ("Stra\xc3\x9f" "e", "STRASSE", false, false);
  check_clash (e_acute, e_acute, false, true);

  return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
