/* fold.c -- cpr --jobs: names that a directory may take for one file.
   Copyright (C) 2026 The copyrange authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.

   This program is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
   GNU General Public License for more details.

   You should have received a copy of the GNU General Public License
   along with this program.  If not, see <https://www.gnu.org/licenses/>.  */

#include <config.h>

#include "fold.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* The inode flag of a casefolding directory, as <linux/fs.h> has it;
   spelt here for systems whose headers are older.  */
enum { CASEFOLD_FLAG = 0x40000000 };

bool
fold_wide (unsigned long fs_type, bool flags_known, unsigned long flags)
{
  if (flags_known && (flags & CASEFOLD_FLAG))
    return true;
  /* File systems that compare names byte for byte unless a directory
     has the flag above (ext2 to ext4, tmpfs, f2fs), or always (btrfs,
     XFS, whose case-insensitive variant folds ASCII, and before Linux
     6.3 the capitals of ISO 8859-1 too: fold_key folds both
     everywhere), as statfs's f_type says.  Anything else may have
     rules of its own.  */
  switch ((uint32_t) fs_type)
    {
    case 0xEF53:                /* ext2, ext3, ext4 */
    case 0x01021994:            /* tmpfs */
    case 0xF2F52010:            /* f2fs */
      return !flags_known;
    case 0x9123683E:            /* btrfs */
    case 0x58465342:            /* XFS */
      return false;
    default:
      return true;
    }
}

/* Whether the byte C is a capital letter of ISO 8859-1, which the
   kernel's tolower folded: XFS's ascii-ci did so before Linux 6.3.  */
static bool
latin1_capital (unsigned char c)
{
  return 0xC0 <= c && c <= 0xDE && c != 0xD7;
}

/* Whether NAME may be the short name that VFAT gives another file of a
   long name ("LONGFI~1.TXT" for "longfilename.txt"): it has a '~' and a
   digit.  Which long name, and its number, depend on the names there
   and on the order the copies make them in: any may be.  */
static bool
vfat_alias (char const *name)
{
  for (char const *p = strchr (name, '~'); p; p = strchr (p + 1, '~'))
    if ('0' <= p[1] && p[1] <= '9')
      return true;
  return false;
}

char *
fold_key (char const *name, bool wide)
{
  if (wide && vfat_alias (name))
    return NULL;
  char *key = xstrdup (name);
  for (char *p = key; *p; p++)
    if ('A' <= *p && *p <= 'Z')
      *p += 'a' - 'A';
    else if (wide && (unsigned char) *p & 0x80)
      {
        free (key);
        return NULL;
      }
    else if (latin1_capital (*p))
      *p += 0x20;
  /* FAT drops the dots and spaces that end a name: "a." is "a".  */
  if (wide)
    for (size_t n = strlen (key); 1 < n && (key[n - 1] == '.'
                                            || key[n - 1] == ' '); n--)
      key[n - 1] = '\0';
  return key;
}

bool
fold_clash (char const *a, char const *b)
{
  return !a || !b || strcmp (a, b) == 0;
}
