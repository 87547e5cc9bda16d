# Makefile -- logp95 PostgreSQL extension (PGXS)

MODULE_big = logp95
OBJS = \
	src/logp95.o \
	src/logp95_agg.o \
	src/logp95_expanded.o \
	src/logp95_gen.o \
	src/logp95_io.o \
	src/logp95_merge.o \
	src/logp95_ops.o \
	src/logp95_report.o \
	src/logp95_stats.o \
	src/logp95_ts.o \
	src/lp_codec.o \
	src/lp_common.o \
	src/lp_formats.o \
	src/lp_gen.o \
	src/lp_hist.o \
	src/lp_parse.o \
	src/lp_partial.o \
	src/lp_rank.o \
	src/lp_sort.o \
	src/lp_state.o \
	src/lp_stats.o \
	src/lp_tag.o \
	src/lp_ts.o

EXTENSION = logp95
# The version CREATE EXTENSION installs, read from the control file; the C
# library reports it too (PG_MODULE_MAGIC_EXT on PostgreSQL 18).
EXTVERSION = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" $(EXTENSION).control)
# 1.0 and 1.1 are released and never edited; later versions are upgrade scripts.
DATA = logp95--1.0.sql logp95--1.0--1.1.sql logp95--1.1--1.2.sql
PG_CPPFLAGS = -DLOGP95_VERSION='"$(EXTVERSION)"'
PGFILEDESC = "logp95 - exact per-route latency percentiles from access logs"

REGRESS = basic percentile_rule line_format malformed nulls_empty state_io state_encoding merge parallel reference rollup partition time_window formats nginx_hostile file_fdw sre_functions sre_timeseries generate_formats prefetch memory
# TAP tests on PostgreSQL::Test::Cluster (test/prove.sh NN runs them as postgres)
TAP_TESTS = 1
PROVE_TESTS = test/t/*.pl

# the zip of make dist (below); set before PGXS, which tests it with ifdef
EXTRA_CLEAN += logp95-$(EXTVERSION).zip
PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)
# after PGXS, whose Makefile.global empties it: where LogP95::TestLib lives
PROVE_FLAGS = -I ./test/perl

# PGXS does not track header dependencies: rebuild every object when a
# header changes, or a changed struct leaves stale objects that crash
# (the LLVM bitcode used for JIT inlining too).
$(OBJS) $(OBJS:.o=.bc): $(wildcard src/*.h)

# make prove_installcheck: the TAP tests alone, with PGXS's recipe (as in
# pgvector; make installcheck runs them too, after pg_regress).
prove_installcheck:
	$(prove_installcheck)
.PHONY: prove_installcheck

# make dist: the zip PGXN takes, logp95-<version>.zip holding one directory
# logp95-<version>/, made from the committed HEAD (paths marked export-ignore
# in .gitattributes stay out).
dist:
	git archive --format zip --prefix=logp95-$(EXTVERSION)/ -o logp95-$(EXTVERSION).zip HEAD
.PHONY: dist
