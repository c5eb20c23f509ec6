/* fsmagic.h -- statfs's f_type of the file systems that cpr tells apart.
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

/* One table for copy.c (--jobs=auto, auto_jobs: the file servers) and
   data.c (what an offload does, fs_offload: the file systems that clone
   and those whose server copies).  Each keeps its own list of which of
   these it means.  The names are those of <linux/magic.h>, which
   defines most of them; the values below stand in where it does not:
   Lustre and GPFS, whose modules are not part of Linux, and any that an
   older <linux/magic.h> lacks.  Compare them with statfs's f_type cast
   to uint32_t: f_type is signed, and where it has 32 bits the values
   past 0x7FFFFFFF come negative.  */

#ifndef CPR_FSMAGIC_H
#define CPR_FSMAGIC_H

#ifdef __linux__
# include <linux/magic.h>
#endif

/* Local file systems that clone: data.c.  */
#ifndef BTRFS_SUPER_MAGIC
# define BTRFS_SUPER_MAGIC 0x9123683E
#endif
#ifndef XFS_SUPER_MAGIC
# define XFS_SUPER_MAGIC 0x58465342
#endif

/* File servers.  */
#ifndef NFS_SUPER_MAGIC
# define NFS_SUPER_MAGIC 0x6969
#endif
#ifndef SMB_SUPER_MAGIC
# define SMB_SUPER_MAGIC 0x517B           /* smbfs, the old SMB1 client */
#endif
#ifndef SMB2_SUPER_MAGIC
# define SMB2_SUPER_MAGIC 0xFE534D42      /* cifs.ko, SMB2 and later */
#endif
#ifndef CIFS_SUPER_MAGIC
# define CIFS_SUPER_MAGIC 0xFF534D42      /* cifs.ko, SMB1 */
#endif
#ifndef CEPH_SUPER_MAGIC
# define CEPH_SUPER_MAGIC 0x00C36400
#endif
#ifndef AFS_SUPER_MAGIC
# define AFS_SUPER_MAGIC 0x5346414F       /* OpenAFS */
#endif
#ifndef AFS_FS_MAGIC
# define AFS_FS_MAGIC 0x6B414653          /* kAFS, Linux's own */
#endif
#ifndef LUSTRE_SUPER_MAGIC
# define LUSTRE_SUPER_MAGIC 0x0BD00BD0
#endif
#ifndef GPFS_SUPER_MAGIC
# define GPFS_SUPER_MAGIC 0x47504653
#endif
#ifndef V9FS_MAGIC
# define V9FS_MAGIC 0x01021997
#endif
#ifndef FUSE_SUPER_MAGIC
# define FUSE_SUPER_MAGIC 0x65735546
#endif

#endif /* CPR_FSMAGIC_H */
