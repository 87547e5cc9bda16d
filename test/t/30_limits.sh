#!/usr/bin/env bash
# test/t/30_limits.sh -- limits: a 1 MB route, many routes, many distinct
# latencies, and a state past the 1 GB varlena limit (clean ERROR 54000).
#
# Runs against the cluster of test/run.sh (PGHOST/PGPORT/PGUSER exported).
# The normal run uses cheap sizes; LP_LONG=1 (test/long/run.sh) uses the
# sizes of issue 4: 1,000,000 routes, 10,000,000 distinct latencies, a
# 100 MB route and a state of about 1.1 GB.  Peak backend memory (VmHWM of
# /proc/<backend>/status, read through pg_read_file as superuser) is printed
# for every case; it includes the shared buffers the backend touched.
set -uo pipefail
. "$(dirname "$0")/../lib/cluster.sh"

LONG=${LP_LONG:-0}
DB=lp_t30
fails=0

# Run SQL in the test database, unaligned, tuples only.
q() { "$PGBIN/psql" -X -q -At -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

# Compare: check NAME EXPECTED ACTUAL
check() {
	if [ "$2" = "$3" ]; then printf 'ok   %s: %s\n' "$1" "$3"
	else printf 'FAIL %s: expected [%s] got [%s]\n' "$1" "$2" "$3"; fails=$((fails + 1)); fi
}

# Seconds since the epoch with fractions.
now() { date +%s.%N; }

# Seconds between two now() readings, to 0.01 s.
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# SQL that yields the backend's peak resident memory in MB.
HWM="(substring(pg_read_file('/proc/self/status') from 'VmHWM:\\s*(\\d+)')::bigint / 1024)"

"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" || exit 1
q -c "CREATE EXTENSION logp95" || exit 1

if [ "$LONG" = 1 ]; then
	ROUTE_MB=100 NROUTES=1000000 NVALUES=10000000
else
	ROUTE_MB=1 NROUTES=100000 NVALUES=1000000
fi

# Print what a case cost: time since $t0 to $t1, and from the query output
# in $got, line 1 and 2 VmHWM before and after, line 3 "stored|encoded".
size_line() {
	local csize esize
	read -r csize esize <<<"$(sed -n 3p <<<"$got" | tr '|' ' ')"
	echo "     $1: $(secs "$t0" "$t1") s, state $esize bytes encoded ($csize stored)," \
		"backend VmHWM $(sed -n 1p <<<"$got") MB before, $(sed -n 2p <<<"$got") MB after the aggregate"
}

# ---------------------------------------------------------------------------
# 1. A long route in one line: 1 MB (100 MB with LP_LONG=1), NL lines with
#    latencies 1..NL, so pK is min(floor(NL*K/100), NL-1) + 1.
# ---------------------------------------------------------------------------
len=$((ROUTE_MB * 1024 * 1024))
if [ "$LONG" = 1 ]; then NL=3; else NL=20; fi
pk() { local i=$((NL * $1 / 100)); [ $i -ge $NL ] && i=$((NL - 1)); echo $((i + 1)); }
t0=$(now)
got=$(q <<EOF
CREATE TEMP TABLE big_line AS
  SELECT '2026-11-07T00:00:00 GET ' || repeat('/a', $len / 2) || ' ' || i AS line
  FROM generate_series(1, $NL) i;
CREATE TEMP TABLE s1 AS SELECT logp95_agg(line) AS s FROM big_line;
SELECT length(route), requests, p50_ms, p95_ms, p99_ms, max_ms, route = repeat('/a', $len / 2)
  FROM s1, logp95_report(s);
SELECT logp95_percentile(s, repeat('/a', $len / 2), 0.5), pg_column_size(s) > 0 FROM s1;
-- the state survives its text form and the binary round trip
SELECT (s::text)::logp95_state::text = s::text, length(logp95_state_send(s)) > $len FROM s1;
SELECT $HWM;
EOF
)
t1=$(now)
check "route of $ROUTE_MB MB: length, requests, p50, p95, p99, max, bytes equal" \
	"$len|$NL|$(pk 50)|$(pk 95)|$(pk 99)|$NL|t" "$(sed -n 1p <<<"$got")"
check "route of $ROUTE_MB MB: logp95_percentile(0.5)" "$(pk 50)|t" "$(sed -n 2p <<<"$got")"
check "route of $ROUTE_MB MB: text round trip, send size" "t|t" "$(sed -n 3p <<<"$got")"
echo "     route of $ROUTE_MB MB: $(secs "$t0" "$t1") s, backend VmHWM $(sed -n 4p <<<"$got") MB"

# ---------------------------------------------------------------------------
# 2. Many distinct routes: NROUTES lines "/r<i>" with latency i % 1000.
# ---------------------------------------------------------------------------
t0=$(now)
got=$(q <<EOF
SELECT $HWM;
CREATE TABLE many_routes AS
  SELECT logp95_agg('2026-11-07T00:00:00 GET /r' || i || ' ' || (i % 1000)) AS s
  FROM generate_series(1, $NROUTES) i;
SELECT $HWM;
SELECT pg_column_size(s), length(logp95_state_send(s)) FROM many_routes;
SELECT count(*), sum(requests), sum(p95_ms), sum(max_ms),
       bool_and(p50_ms = p95_ms AND p95_ms = max_ms)
  FROM many_routes, logp95_report(s);
SELECT sum(i % 1000) FROM generate_series(1, $NROUTES) i;
SELECT logp95_percentile(s, '/r$NROUTES', 1), logp95_percentile(s, '/r0', 1) IS NULL FROM many_routes;
-- rows in byte order of the route
SELECT bool_and(prev < route COLLATE "C") FROM (
  SELECT route, lag(route) OVER () AS prev FROM many_routes, logp95_report(s)) x WHERE prev IS NOT NULL;
EOF
)
t1=$(now)
sum=$(sed -n 5p <<<"$got")
check "$NROUTES routes: routes, requests, sum p95, sum max, p50=p95=max" \
	"$NROUTES|$NROUTES|$sum|$sum|t" "$(sed -n 4p <<<"$got")"
check "$NROUTES routes: percentile of the last route, absent route" "$((NROUTES % 1000))|t" "$(sed -n 6p <<<"$got")"
check "$NROUTES routes: byte order" "t" "$(sed -n 7p <<<"$got")"
size_line "$NROUTES routes"

# The same state merged with itself: every count doubles.
got=$(q -c "SELECT count(*), sum(requests) FROM logp95_report((SELECT logp95_merge(s) FROM (SELECT s FROM many_routes UNION ALL SELECT s FROM many_routes) x))")
check "$NROUTES routes: merged with itself" "$NROUTES|$((2 * NROUTES))" "$got"

# ---------------------------------------------------------------------------
# 3. One route, NVALUES rows, all latencies distinct: a permutation of
#    0..N-1 (7919 is prime and does not divide N), so pK = floor(N*K/100).
# ---------------------------------------------------------------------------
N=$NVALUES
t0=$(now)
got=$(q <<EOF
SELECT $HWM;
CREATE TABLE many_values AS
  SELECT logp95_agg('/one', (i * 7919) % $N) AS s FROM generate_series(0::bigint, $N - 1) i;
SELECT $HWM;
SELECT pg_column_size(s), length(logp95_state_send(s)) FROM many_values;
SELECT route, requests, p50_ms, p95_ms, p99_ms, max_ms FROM many_values, logp95_report(s);
SELECT logp95_percentile(s, '/one', 0), logp95_percentile(s, '/one', 0.25), logp95_percentile(s, '/one', 1) FROM many_values;
EOF
)
t1=$(now)
check "$N distinct latencies: route, requests, p50, p95, p99, max" \
	"/one|$N|$((N * 50 / 100))|$((N * 95 / 100))|$((N * 99 / 100))|$((N - 1))" "$(sed -n 4p <<<"$got")"
check "$N distinct latencies: logp95_percentile 0, 0.25, 1" "0|$((N / 4))|$((N - 1))" "$(sed -n 5p <<<"$got")"
size_line "$N distinct latencies"

# The structured aggregate and the line aggregate agree on a smaller sample.
got=$(q -c "SELECT (SELECT logp95_agg('/one', (i * 7919) % 100003)::text FROM generate_series(0, 100002) i) = (SELECT logp95_agg('t GET /one ' || ((i * 7919) % 100003))::text FROM generate_series(0, 100002) i)")
check "pair and line aggregates give the same state" "t" "$got"

# ---------------------------------------------------------------------------
# 4. Past 1 GB (LP_LONG=1 only: about 3.5 GB of backend memory).
#    1,100 routes of 1 MB each: the encoding would be about 1.1 GB, more
#    than a varlena holds.  The final function must fail cleanly with 54000
#    before any allocation fails, and the server must stay up.
#    Then a state of about 600 MB: fine as a value, but its text form would
#    pass 1 GB: text output fails with 54000 too; the report still works.
# ---------------------------------------------------------------------------
if [ "$LONG" = 1 ]; then
	t0=$(now)
	out=$("$PGBIN/psql" -X -q -At -d "$DB" 2>&1 <<EOF
\set VERBOSITY verbose
SELECT logp95_malformed(logp95_agg(lpad(i::text, 1000000, 'x'), 1)) FROM generate_series(1, 1100) i;
SELECT 'hwm', $HWM;
EOF
	)
	t1=$(now)
	echo "$out" | grep -v '^hwm' | sed 's/^/     /'
	check "state of ~1.1 GB: ERROR 54000 naming the limit" "1" \
		"$(grep -c 'ERROR:  54000: logp95_state is too large' <<<"$out")"
	check "state of ~1.1 GB: detail names the 1 GB limit" "1" "$(grep -c 'at most 1 GB once encoded' <<<"$out")"
	echo "     state of ~1.1 GB: failed after $(secs "$t0" "$t1") s, backend VmHWM $(grep '^hwm' <<<"$out" | cut -d'|' -f2) MB"
	check "server still answers" "1" "$(q -c 'SELECT 1')"

	t0=$(now)
	out=$("$PGBIN/psql" -X -q -At -d "$DB" 2>&1 <<EOF
\set VERBOSITY verbose
CREATE TEMP TABLE half AS SELECT logp95_agg(lpad(i::text, 1000000, 'x'), i) AS s FROM generate_series(1, 600) i;
SELECT 'size', length(logp95_state_send(s)) FROM half;
SELECT 'report', count(*), sum(requests), sum(max_ms) FROM half, logp95_report(s);
SELECT length(s::text) FROM half;
SELECT 'hwm', $HWM;
EOF
	)
	t1=$(now)
	echo "$out" | grep -v '^hwm' | sed 's/^/     /'
	check "state of ~600 MB: report" "report|600|600|180300" "$(grep '^report' <<<"$out")"
	check "state of ~600 MB: text output fails with 54000" "1" \
		"$(grep -c 'ERROR:  54000: logp95_state is too large for text output' <<<"$out")"
	echo "     state of ~600 MB: $(secs "$t0" "$t1") s, backend VmHWM $(grep '^hwm' <<<"$out" | cut -d'|' -f2) MB"
else
	echo "     (the >1 GB state case runs with LP_LONG=1: test/long/run.sh)"
fi

"$PGBIN/psql" -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB"
echo "limits: $fails failed"
[ "$fails" = 0 ]
