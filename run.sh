#!/usr/bin/env bash
# run.sh -- the main job: build, start a throwaway cluster, load a log, print which routes are slow
#
#   sudo ./run.sh                 # a generated 400,000-line / 300-route sample
#   sudo ./run.sh access.log      # your own log file, bytes kept verbatim
#   sudo ./run.sh --full [file]   # also the full report, every route (or LP_FULL=1)
#   LP_LINES=4000000 ./run.sh     # a bigger sample
#
# It prints the whole service (requests, p50, p95, p99, max, mean), the 20
# slowest routes by p95 with a bar, the latency histogram of the slowest
# route, the full report on request, and the EXPLAIN ANALYZE of the report.
set -euo pipefail
. "$(dirname "$0")/test/lib/cluster.sh"

full=${LP_FULL:-0}
file=
for arg in "$@"; do
	case $arg in
		--full) full=1 ;;
		-*) echo "run.sh: unknown option '$arg' (usage: run.sh [--full] [access.log])" >&2; exit 2 ;;
		*) file=$arg ;;
	esac
done
if [ -n "$file" ] && [ ! -r "$file" ]; then
	echo "run.sh: cannot read log file '$file'" >&2
	exit 2
fi
[ -n "$file" ] && file=$(cd "$(dirname "$file")" && pwd)/$(basename "$file")

lp_deps
lp_build_install
lp_cluster_start
lp_say "cluster on $PGHOST port $PGPORT"

lp_psql -c "CREATE EXTENSION logp95" -c "CREATE TABLE access_log(line text)"
if [ -n "$file" ]; then
	lp_say "loading $file"
	# CSV with delimiter and quote bytes that do not occur in logs: every other byte is kept
	lp_psql -c "\\copy access_log(line) FROM '$file' WITH (FORMAT csv, DELIMITER E'\\x01', QUOTE E'\\x02')"
else
	lines=${LP_LINES:-400000}
	routes=${LP_ROUTES:-300}
	lp_say "generating $lines lines over $routes routes"
	lp_psql -c "INSERT INTO access_log SELECT logp95_generate($lines, $routes, 42)"
fi
lp_psql -c "VACUUM ANALYZE access_log"
lp_psql -tA -c "SELECT format('%s lines, %s', count(*), pg_size_pretty(pg_table_size('access_log'))) FROM access_log"

# skip mode: a real log may hold a few broken lines; they are counted, not fatal.
# One pass over the log into a state; every answer below reads that state.
lp_psql -c "SET logp95.on_malformed = skip" \
	-c "CREATE TABLE job_state AS SELECT logp95_agg(line) AS s FROM access_log"
echo
lp_psql -tA -c "
SELECT format('whole service: %s requests, p50 %s ms, p95 %s ms, p99 %s ms, max %s ms, mean %s ms; %s routes, %s malformed lines skipped',
	r.requests, r.p50_ms, r.p95_ms, r.p99_ms, r.max_ms, round(st.mean_ms::numeric, 1),
	(SELECT count(*) FROM logp95_stats(j.s)), logp95_malformed(j.s))
FROM job_state j, logp95_report(logp95_total(j.s)) r, logp95_stats(logp95_total(j.s)) st"

echo
echo "the 20 slowest routes by p95 (bar: p95, longest = the slowest; routes cut to 40 characters for display only):"
lp_psql -c "
SELECT CASE WHEN length(route) > 40 THEN left(route, 39) || '…' ELSE route END AS route,
	requests, p50_ms, p95_ms, p99_ms, max_ms,
	repeat('#', greatest(1, round(30.0 * p95_ms / nullif(max(p95_ms) OVER (), 0))::int)) AS p95
FROM logp95_report((SELECT s FROM job_state))
ORDER BY p95_ms DESC, route LIMIT 20"

lp_psql -tA -c "
SELECT format('latency histogram of the slowest route, %s (%s requests; le = at most, ms):', CASE WHEN length(route) > 40 THEN left(route, 39) || '…' ELSE route END, requests)
FROM logp95_report((SELECT s FROM job_state)) ORDER BY p95_ms DESC, route LIMIT 1"
lp_psql -c "
WITH slow AS (SELECT route FROM logp95_report((SELECT s FROM job_state)) ORDER BY p95_ms DESC, route LIMIT 1)
SELECT coalesce(h.le_ms::text, '+Inf') AS le_ms, h.requests, h.cumulative,
	repeat('#', CASE WHEN h.requests > 0 THEN greatest(1, round(40.0 * h.requests / max(h.requests) OVER ())::int) ELSE 0 END) AS requests_bar
FROM slow, logp95_histogram((SELECT s FROM job_state), slow.route) h"

if [ "$full" = 1 ]; then
	echo "the full report, every route (byte order):"
	lp_psql -c "SELECT * FROM logp95_report((SELECT s FROM job_state))"
else
	echo "(the full report of every route: run.sh --full, or LP_FULL=1)"
fi
echo
lp_psql -c "SET logp95.on_malformed = skip" \
	-c "EXPLAIN (ANALYZE, BUFFERS, VERBOSE) SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM access_log))"
lp_cluster_stop
