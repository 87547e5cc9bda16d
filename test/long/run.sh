#!/usr/bin/env bash
# test/long/run.sh -- the heavy hardening cases of issue 4, outside the normal
# test run; last line "N passed, N failed".
#
#   sudo test/long/run.sh
#
# Builds and installs logp95, starts its own throwaway cluster and runs
# test/t/30_limits.sh, 31_cancel.sh and 32_concurrency.sh at full size:
#   - a 100 MB route; 1,000,000 distinct routes; 10,000,000 rows of one route
#     with all-distinct latencies; a state whose encoding would pass 1 GB
#     (1,100 routes of 1 MB: clean ERROR 54000) and one whose text form would
#     (about 600 MB: text output fails with 54000, the report works);
#   - statement_timeout and pg_cancel_backend on long queries;
#   - pgbench, 8 clients for 30 s (LP_PGBENCH_SECONDS) of report queries
#     while a writer appends lines with COPY.
# Needs about 2.5 GB of backend memory at its peak (VmHWM) and takes about
# 7 minutes on 2 cores (measured: 30_limits 300 s, 31_cancel 23 s, 32 35 s).
# Each case prints its times, state sizes and backend peak memory (VmHWM).
set -uo pipefail
. "$(dirname "$0")/../lib/cluster.sh"
cd "$LP_ROOT"

export LP_LONG=1
export LP_PGBENCH_SECONDS=${LP_PGBENCH_SECONDS:-30}
passed=0
failed=0

lp_deps
lp_build_install
lp_cluster_start
lp_say "cluster on $PGHOST port $PGPORT"

for t in test/t/30_limits.sh test/t/31_cancel.sh test/t/32_concurrency.sh; do
	lp_say "$t (LP_LONG=1)"
	start=$(date +%s)
	bash "$t"; rc=$?
	lp_say "$t: exit $rc after $(($(date +%s) - start)) s"
	if [ "$rc" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done

lp_cluster_stop
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
