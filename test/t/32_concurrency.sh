#!/usr/bin/env bash
# test/t/32_concurrency.sh -- concurrent load: pgbench with 8 clients runs
# report queries for LP_PGBENCH_SECONDS (default 10; 30 in test/long/run.sh)
# while another client appends generated lines with COPY in a bounded loop.
# Passes when pgbench exits 0 with 0 failed transactions, every COPY
# succeeded, and the final report equals a window-function reference over
# the final table (as in sql/reference.sql).  Unix socket only.
set -uo pipefail
. "$(dirname "$0")/../lib/cluster.sh"

DB=lp_t32
SECS=${LP_PGBENCH_SECONDS:-10}
CLIENTS=8
MAX_BATCHES=1000				# the writer stops after this many COPYs at most
BATCH=1000						# lines per COPY
fails=0
work=$(mktemp -d /tmp/lp_t32.XXXXXX)
chmod 755 "$work"

# Run SQL in the test database, unaligned, tuples only.
q() { "$PGBIN/psql" -X -q -At -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

# Compare: check NAME EXPECTED ACTUAL
check() {
	if [ "$2" = "$3" ]; then printf 'ok   %s: %s\n' "$1" "$3"
	else printf 'FAIL %s: expected [%s] got [%s]\n' "$1" "$2" "$3"; fails=$((fails + 1)); fi
}

"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" || exit 1
q <<EOF || exit 1
CREATE EXTENSION logp95;
CREATE TABLE access_log(line text);
INSERT INTO access_log SELECT l FROM logp95_generate(100000, 300, 1) l;
EOF

# What every pgbench client runs, over and over.
cat > "$work/report.sql" <<'EOF'
SELECT count(*), sum(requests), max(p95_ms) FROM logp95_report((SELECT logp95_agg(line) FROM access_log));
SELECT logp95_percentile(logp95_agg(line), '/api/v1/resource1/items', 0.95) FROM access_log;
EOF

"$PGBIN/pgbench" -n -c "$CLIENTS" -j 2 -T "$SECS" -f "$work/report.sql" "$DB" > "$work/pgbench.out" 2>&1 &
bench=$!

# The writer: appends BATCH lines per COPY (seeds 1000, 1001, ...) until
# pgbench ends or MAX_BATCHES is reached.
batches=0
copy_failures=0
while kill -0 "$bench" 2>/dev/null && [ "$batches" -lt "$MAX_BATCHES" ]; do
	q -c "COPY (SELECT l FROM logp95_generate($BATCH, 300, $((1000 + batches))) l) TO STDOUT" |
		q -c "COPY access_log(line) FROM STDIN" || copy_failures=$((copy_failures + 1))
	batches=$((batches + 1))
done
wait "$bench"
brc=$?

grep -E '^(number of (clients|transactions actually processed|failed transactions)|tps|latency average)' "$work/pgbench.out" | sed 's/^/     /'
check "pgbench exit code" 0 "$brc"
check "pgbench failed transactions" "0" "$(sed -nE 's/^number of failed transactions: ([0-9]+).*/\1/p' "$work/pgbench.out")"
[ "$brc" = 0 ] || cat "$work/pgbench.out"
check "COPY failures" 0 "$copy_failures"
echo "     writer: $batches COPYs of $BATCH lines during the run"
check "rows in the final table" "$((100000 + batches * BATCH))" "$(q -c 'SELECT count(*) FROM access_log')"

# The final report against a plain-SQL reference (sql/reference.sql's rule).
got=$(q <<EOF
$(lp_ref_sql ref "SELECT split_part(line, ' ', 3) AS route, split_part(line, ' ', 4)::bigint AS ms FROM access_log")
CREATE TEMP TABLE got AS SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM access_log));
CREATE TEMP VIEW want AS SELECT route, requests, p50_ms, p95_ms, p99_ms, max_ms FROM ref;
SELECT (SELECT count(*) FROM want), (SELECT count(*) FROM got), (SELECT sum(requests) FROM got),
       (SELECT count(*) FROM (TABLE want EXCEPT ALL TABLE got) a) + (SELECT count(*) FROM (TABLE got EXCEPT ALL TABLE want) b);
EOF
)
check "final report vs reference: routes, routes, requests, differing rows" \
	"300|300|$((100000 + batches * BATCH))|0" "$got"

rm -rf "$work"
"$PGBIN/psql" -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB"
echo "concurrency: $fails failed"
[ "$fails" = 0 ]
