## src/local.mk: cpr, the drop-in GNU cp that copies with copy_range.
## Copyright (C) 2026 The copyrange authors.  GPL-3.0-or-later.

bin_PROGRAMS += src/cpr

# cp.c parses the command line, copy.c walks and recreates the files,
# data.c moves the bytes of each regular file, progress.c shows how far
# they are (--progress), partial.c marks the copies not finished yet
# (--continue, -u), jobs.c copies files on worker threads and keeps
# their output in order (--jobs), fold.c finds the names of copies side
# by side that a directory may take for one, mounts.c finds the mounts
# that may lead a walk into its own copy; fsmagic.h names the file
# systems that copy.c and data.c tell apart.
src_cpr_SOURCES = src/cp.c src/copy.c src/copy.h src/data.c src/data.h \
  src/progress.c src/progress.h src/partial.c src/partial.h \
  src/jobs.c src/jobs.h src/fold.c src/fold.h src/mounts.c \
  src/mounts.h src/fsmagic.h
# configure --enable-gcc-warnings: cpr's own code, not gnulib's lib/.
src_cpr_CFLAGS = $(AM_CFLAGS) $(WARN_CFLAGS)
src_cpr_LDADD = lib/libgnu.a $(LIB_ACL) $(LIB_CLOCK_GETTIME) $(LIB_GETHRXTIME) \
  $(LIB_EACCESS) $(LIB_MBRTOWC) $(LIB_SELINUX) $(LIB_XATTR) $(LIBINTL) \
  $(LIBPMULTITHREAD)

# The man page is generated from --help and --version, and kept in the
# repository so that building does not need help2man: after changing
# either, run 'make update-man' and commit doc/cpr.1.
# doc/cpr.h2m adds the sections --help has no place for (the environment).
# The page installed is doc/cpr.1 with the masquerade directory (below)
# named as this install puts it: doc/cpr.1 names the default one,
# /usr/local/libexec/copyrange/bin, and 'make install pkglibexecdir=DIR'
# installs a page naming DIR.  The sed writes straight into the page's
# place, under the name that the program's transform gives it: make
# install writes nothing into the build tree (which may be another
# user's, or read-only), and two installs from one tree at once (the
# install tests, under make -j) share no file.
EXTRA_DIST += doc/cpr.1 doc/cpr.h2m
man1dir = $(mandir)/man1
install-data-local: install-cpr-man
uninstall-local: uninstall-cpr-man
.PHONY: install-cpr-man uninstall-cpr-man
install-cpr-man:
	@$(NORMAL_INSTALL)
	$(MKDIR_P) '$(DESTDIR)$(man1dir)'
	@page='$(DESTDIR)$(man1dir)'/`printf '%s\n' cpr | sed '$(transform)'`.1; \
	m=`printf '%s\n' '$(masqdir)' | sed 's/[\\|&]/\\&/g'`; \
	echo " sed ... $(srcdir)/doc/cpr.1 > '$$page'"; \
	sed "s|/usr/local/libexec/copyrange/bin|$$m|g" \
	  $(srcdir)/doc/cpr.1 > "$$page-t" && \
	chmod 644 "$$page-t" && mv -f "$$page-t" "$$page"
uninstall-cpr-man:
	@$(NORMAL_UNINSTALL)
	@page='$(DESTDIR)$(man1dir)'/`printf '%s\n' cpr | sed '$(transform)'`.1; \
	echo " rm -f '$$page'"; rm -f "$$page"
HELP2MAN = help2man
.PHONY: update-man
update-man: src/cpr$(EXEEXT)
	$(AM_V_GEN)$(HELP2MAN) --no-info --source=copyrange \
	  --include=$(srcdir)/doc/cpr.h2m \
	  --name='copy files and directories, moving the data with copy_range' \
	  --output=$(srcdir)/doc/cpr.1 ./src/cpr$(EXEEXT)

# The masquerade directory, as ccache has one: $(masqdir) holds only
# 'cp', a symlink to the installed cpr, so that with that directory first
# in PATH every 'cp' that a script or a makefile runs is cpr, which then
# names itself cp as GNU cp does.  Nothing else changes: GNU cp stays
# where it is, and who does not put the directory in PATH never meets it.
# The link is relative, computed from the two directories as they are at
# install time, so that a DESTDIR staging or a moved tree still holds a
# working link; only where one of them has a '.' or '..' component is it
# absolute.  The installed name of cpr is the transformed one
# (--program-prefix and the like); 'cp' itself is never transformed.
masqdir = $(pkglibexecdir)/bin
installdirs-local:
	$(MKDIR_P) '$(DESTDIR)$(masqdir)' '$(DESTDIR)$(man1dir)'
install-exec-hook:
	@$(NORMAL_INSTALL)
	@cpr=`printf '%s\n' cpr | sed '$(transform)'`$(EXEEXT); \
	from=`printf '%s\n' '$(masqdir)' | sed 's|//*|/|g; s|/$$||'`; \
	to=`printf '%s\n' '$(bindir)' | sed 's|//*|/|g; s|/$$||'`; \
	case $$from/$$to/ in \
	  */./* | */../*) target=$$to/$$cpr ;; \
	  *) while :; do \
	       f=$${from#/}; f=$${f%%/*}; t=$${to#/}; t=$${t%%/*}; \
	       test -n "$$f" && test "x$$f" = "x$$t" || break; \
	       from=$${from#/"$$f"}; to=$${to#/"$$t"}; \
	     done; \
	     up=`printf '%s\n' "$$from" | sed 's|/[^/]*|../|g'`; \
	     target=`printf '%s\n' "$$up$$to/$$cpr" | sed 's|^/||; s|//*|/|g'` ;; \
	esac; \
	printf ' %s\n' "$(MKDIR_P) '$(DESTDIR)$(masqdir)'"; \
	$(MKDIR_P) '$(DESTDIR)$(masqdir)' || exit 1; \
	printf ' %s\n' "$(am__cd) '$(DESTDIR)$(masqdir)' && $(LN_S) '$$target' cp$(EXEEXT)"; \
	( $(am__cd) '$(DESTDIR)$(masqdir)' && rm -f cp$(EXEEXT) && \
	  $(LN_S) "$$target" cp$(EXEEXT) ) || exit 1; \
	if test "$(DESTDIR)$(masqdir)/cp$(EXEEXT)" -ef \
	     "$(DESTDIR)$(bindir)/$$cpr"; then :; else \
	  echo "warning: a symbolic link on the way makes ../ wrong;" \
	       "linking $(masqdir)/cp to $(bindir)/$$cpr by its absolute name" >&2; \
	  ( $(am__cd) '$(DESTDIR)$(masqdir)' && rm -f cp$(EXEEXT) && \
	    $(LN_S) '$(bindir)'/"$$cpr" cp$(EXEEXT) ) || exit 1; \
	fi
uninstall-hook:
	@$(NORMAL_UNINSTALL)
	rm -f '$(DESTDIR)$(masqdir)/cp$(EXEEXT)'
	@rmdir '$(DESTDIR)$(masqdir)' '$(DESTDIR)$(pkglibexecdir)' \
	  2> /dev/null || :
