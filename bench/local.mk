## bench/local.mk: 'make bench', cpr against GNU cp and busybox cp.
## Copyright (C) 2026 The copyrange authors.  GPL-3.0-or-later.

bench_scripts = bench/run bench/host bench/guest bench/report bench/plot \
  bench/lib.sh
EXTRA_DIST += $(bench_scripts) doc/bench.md doc/bench-archive.md \
  doc/bench-results.csv \
  doc/bench-results-2026-12-03.csv doc/bench-results-2026-12-05-one-boot.csv \
  doc/bench-results-2026-12-05-ffb3950.csv \
  doc/bench-results-2026-12-06-trees.csv doc/bench.svg

# Not part of 'make check': it measures, it does not test.  Root; two
# guest boots of over half an hour each under TCG (BENCH_BOOTS=1 for
# one); see doc/bench.md and the comments in bench/run.
.PHONY: bench
# The test shim is cpr-nomark's (bench/guest): cpr without the mark of a
# partial copy.
bench: $(bin_PROGRAMS) tests/cpr-data/shim.so
	$(srcdir)/bench/run --builddir '$(abs_top_builddir)' \
	  --srcdir '$(abs_top_srcdir)'

