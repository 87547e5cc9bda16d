#!/usr/bin/env bash
# test/long/run.sh -- the heavy hardening cases, outside the normal test run;
# last line "N passed, N failed".
#
#   sudo test/long/run.sh
#
# Builds and installs logp95 for PostgreSQL 15 and runs the TAP tests
# test/t/030_limits.pl, 031_cancel.pl and 032_concurrency.pl at full size
# (LP_LONG=1), each on clusters of its own:
#   - a 100 MB route; 1,000,000 distinct routes; 10,000,000 rows of one route
#     with all-distinct latencies; a state whose encoding would pass 1 GB
#     (1,100 routes of 1 MB: clean ERROR 54000) and one whose text form would
#     (about 600 MB: text output fails with 54000, the report works);
#   - statement_timeout and pg_cancel_backend on long queries;
#   - pgbench, 8 clients for 30 s (LP_PGBENCH_SECONDS) of report queries
#     while a writer appends lines with COPY.
# Needs about 2.5 GB of backend memory at its peak (VmHWM) and takes several
# minutes on 2 cores.  Each case prints its times, state sizes and backend
# peak memory (VmHWM).
set -uo pipefail
. "$(dirname "$0")/../lib/cluster.sh"
cd "$LP_ROOT"

lp_deps
lp_build_install
LP_LONG=1 LP_PGBENCH_SECONDS=${LP_PGBENCH_SECONDS:-30} \
	bash test/prove.sh 15 test/t/030_limits.pl test/t/031_cancel.pl test/t/032_concurrency.pl
