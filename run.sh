#!/usr/bin/env bash
# run.sh -- the main job: build, start a throwaway cluster, load a log, print the route report
#
#   sudo ./run.sh                 # a generated 400,000-line / 300-route sample
#   sudo ./run.sh access.log      # your own log file, bytes kept verbatim
#   LP_LINES=4000000 ./run.sh     # a bigger sample
set -euo pipefail
. "$(dirname "$0")/test/lib/cluster.sh"

file=${1:-}
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

# skip mode: a real log may hold a few broken lines; they are counted, not fatal
echo
lp_psql -c "SET logp95.on_malformed = skip" \
	-c "SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM access_log))"
lp_psql -tA -c "SET logp95.on_malformed = skip" \
	-c "SELECT 'malformed lines skipped: ' || logp95_malformed(logp95_agg(line)) FROM access_log"
echo
lp_psql -c "SET logp95.on_malformed = skip" \
	-c "EXPLAIN (ANALYZE, BUFFERS, VERBOSE) SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM access_log))"
lp_cluster_stop
