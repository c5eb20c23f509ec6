## src/local.mk: cpr, the drop-in GNU cp that copies with copy_range.
## Copyright (C) 2026 The copyrange authors.  GPL-3.0-or-later.

bin_PROGRAMS += src/cpr

# cp.c parses the command line, copy.c walks and recreates the files,
# data.c moves the bytes of each regular file, progress.c shows how far
# they are (--progress), partial.c marks the copies not finished yet
# (--continue, -u).
src_cpr_SOURCES = src/cp.c src/copy.c src/copy.h src/data.c src/data.h \
  src/progress.c src/progress.h src/partial.c src/partial.h
src_cpr_LDADD = lib/libgnu.a $(LIB_ACL) $(LIB_CLOCK_GETTIME) $(LIB_GETHRXTIME) \
  $(LIB_EACCESS) $(LIB_MBRTOWC) $(LIB_SELINUX) $(LIB_XATTR) $(LIBINTL)

# The man page is generated from --help and --version, and kept in the
# repository so that building does not need help2man: after changing
# either, run 'make update-man' and commit doc/cpr.1.
# doc/cpr.h2m adds the sections --help has no place for (the environment).
dist_man_MANS += doc/cpr.1
EXTRA_DIST += doc/cpr.h2m
HELP2MAN = help2man
.PHONY: update-man
update-man: src/cpr$(EXEEXT)
	$(AM_V_GEN)$(HELP2MAN) --no-info --source=copyrange \
	  --include=$(srcdir)/doc/cpr.h2m \
	  --name='copy files and directories, moving the data with copy_range' \
	  --output=$(srcdir)/doc/cpr.1 ./src/cpr$(EXEEXT)

# 'make install CP_ALIAS=yes' also installs cpr as 'cp' (a symlink), so
# that it replaces GNU cp for whoever has $(bindir) first in PATH; it
# then names itself 'cp' in its messages.
CP_ALIAS =
install-exec-hook:
	@if test "$(CP_ALIAS)" = yes; then \
	  echo " ln -sf cpr$(EXEEXT) '$(DESTDIR)$(bindir)/cp$(EXEEXT)'"; \
	  ln -sf cpr$(EXEEXT) '$(DESTDIR)$(bindir)/cp$(EXEEXT)'; \
	fi
uninstall-hook:
	@if test "$(CP_ALIAS)" = yes; then \
	  rm -f '$(DESTDIR)$(bindir)/cp$(EXEEXT)'; \
	fi
