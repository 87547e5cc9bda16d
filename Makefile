# Makefile -- logp95 PostgreSQL extension (PGXS)

MODULE_big = logp95
OBJS = \
	src/logp95.o \
	src/logp95_agg.o \
	src/logp95_agg_compat.o \
	src/logp95_compare.o \
	src/logp95_count.o \
	src/logp95_expanded.o \
	src/logp95_gen.o \
	src/logp95_io.o \
	src/logp95_merge.o \
	src/logp95_ops.o \
	src/logp95_parse.o \
	src/logp95_report.o \
	src/logp95_stats.o \
	src/logp95_ts.o \
	src/lp_arith.o \
	src/lp_codec.o \
	src/lp_combined.o \
	src/lp_compare.o \
	src/lp_definition.o \
	src/lp_common.o \
	src/lp_default.o \
	src/lp_format.o \
	src/lp_format_arg.o \
	src/lp_formats.o \
	src/lp_gen.o \
	src/lp_hist.o \
	src/lp_json.o \
	src/lp_options.o \
	src/lp_parse.o \
	src/lp_partial.o \
	src/lp_presets.o \
	src/lp_rank.o \
	src/lp_simd.o \
	src/lp_sort.o \
	src/lp_state.o \
	src/lp_stats.o \
	src/lp_tag.o \
	src/lp_templates.o \
	src/lp_time.o \
	src/lp_token.o \
	src/lp_ts.o \
	src/lp_units.o

EXTENSION = logp95
# The version CREATE EXTENSION installs, read from the control file; the C
# library reports it too (PG_MODULE_MAGIC_EXT on PostgreSQL 18).
EXTVERSION = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" $(EXTENSION).control)
# 1.0 and 1.1 are released and never edited; later versions are upgrade scripts.
DATA = logp95--1.0.sql logp95--1.0--1.1.sql logp95--1.1--1.2.sql
PG_CPPFLAGS = -DLOGP95_VERSION='"$(EXTVERSION)"'
PGFILEDESC = "logp95 - exact per-route latency percentiles from access logs"

REGRESS = basic percentile_rule line_format malformed nulls_empty state_io state_encoding merge parallel reference rollup partition time_window formats nginx_hostile file_fdw sre_functions sre_timeseries generate_formats prefetch state_equality time_merge rollup_continuous compare memory formats_parse formats_presets formats_definitions
# make installcheck runs pg_regress alone; the server's TAP tests (on
# PostgreSQL::Test::Cluster, one behaviour a file) run by make
# prove_installcheck (below), the other layers by make -C test.
PROVE_TESTS = test/t/*.pl

# the zip of make dist (below) and the clusters of make prove_installcheck;
# set before PGXS, which tests it with ifdef
EXTRA_CLEAN += logp95-$(EXTVERSION).zip tmp_check
PG_CONFIG ?= pg_config
# Against an assert-enabled PostgreSQL (pg_config.h defines
# USE_ASSERT_CHECKING: --enable-cassert), the plain C units' LP_ASSERTs and
# state checks are on too (src/lp_common.h); elsewhere they compile out.
ifneq (,$(shell grep -s '^\#define USE_ASSERT_CHECKING 1' '$(shell $(PG_CONFIG) --includedir-server)/pg_config.h'))
PG_CPPFLAGS += -DLP_ASSERTS
endif
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)
# after PGXS, whose Makefile.global empties it: where LogP95::TestLib lives
PROVE_FLAGS = -I ./test/perl

# PGXS does not track header dependencies: rebuild every object when a
# header changes, or a changed struct leaves stale objects that crash
# (the LLVM bitcode used for JIT inlining too).
$(OBJS) $(OBJS:.o=.bc): $(wildcard src/*.h)

# make prove_installcheck: the server's TAP tests (test/t/*.pl) against the
# installed extension, with PGXS's recipe as in pgvector.  A PostgreSQL
# built without --enable-tap-tests has no such recipe: test/prove.sh then
# runs them, with the modules of ../shared/pg's source or a line saying it
# skipped.  As root, run test/prove.sh NN (it runs them as postgres).
prove_installcheck:
ifeq ($(enable_tap_tests),yes)
	$(prove_installcheck)
else
	LP_PG_BINDIR='$(bindir)' bash test/prove.sh $(MAJORVERSION) $(PROVE_TESTS)
endif
.PHONY: prove_installcheck

# make dist: the zip PGXN takes, logp95-<version>.zip holding one directory
# logp95-<version>/, made from the committed HEAD (paths marked export-ignore
# in .gitattributes stay out).
dist:
	git archive --format zip --prefix=logp95-$(EXTVERSION)/ -o logp95-$(EXTVERSION).zip HEAD
.PHONY: dist
