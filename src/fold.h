/* fold.h -- cpr --jobs: names that a directory may take for one file.
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

#ifndef CPR_FOLD_H
#define CPR_FOLD_H

#include <stdbool.h>

/* Copies made side by side into one directory must not be one file
   under two names: a directory that ignores case takes "F" for "f".
   These functions find the names that may be one, never fewer, at the
   price of a few more: for those, a copy waits for the other.

   ASCII letters of either case are taken for one everywhere: checking
   costs nothing, and a name that differs from another in case only is
   rare.  So are the capitals of ISO 8859-1 and their small letters,
   which XFS's ascii-ci folded before Linux 6.3.  Names with other bytes
   are harder.  A casefolding directory (ext4, f2fs, tmpfs and bcachefs
   with FS_CASEFOLD_FL) normalizes Unicode and folds case fully, so that
   "é" and "e" followed by a combining acute accent, or "ß" and "ss", or
   the Kelvin sign and "k", are one name, of another length; exFAT, NTFS and SMB servers have
   rules of their own, and FAT ignores the dots and spaces that end a
   name.  Rather than follow each, a directory where such rules may
   apply takes a name with any byte outside ASCII for every other name:
   a copy with such a name waits for the copies in flight into that
   directory, and those after it wait for it; and it ignores the dots
   and spaces at a name's end.  There, too, a name with a '~' and a
   digit may be the short name that VFAT gives a file of a long name
   ("LONGFI~1.TXT"), and is taken for every other name.  A directory
   known to compare names byte for byte has none of these costs.

   Not foreseen: the msdos file system, which cuts a long name down to
   8.3 ("longfilename.txt" is "LONGFILE.TXT"), and VFAT mounted with
   nonumtail, which gives a long name a short one without '~' when it
   can: names that such a directory takes for one without a '~' are
   copied side by side, with another outcome than one at a time.  And
   which number VFAT gives each short name of the same start (~1, ~2)
   follows the order the copies are made in, as the order of a new
   directory's entries does.  */

/* Whether a directory on a file system of the type FS_TYPE (statfs's
   f_type), with the inode flags FLAGS (FS_IOC_GETFLAGS) if FLAGS_KNOWN,
   may take names with bytes outside ASCII of different bytes for one
   file.  */
bool fold_wide (unsigned long fs_type, bool flags_known, unsigned long flags);

/* The key of the name NAME in a directory where fold_wide is WIDE, to
   compare with fold_clash; NULL if NAME may be any other name there.
   Free it with free.  */
char *fold_key (char const *name, bool wide);

/* Whether names of the keys A and B may be one file.  */
bool fold_clash (char const *a, char const *b);

#endif /* CPR_FOLD_H */
