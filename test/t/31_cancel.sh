#!/usr/bin/env bash
# test/t/31_cancel.sh -- statement_timeout and pg_cancel_backend stop long
# logp95 work promptly with SQLSTATE 57014.
#
# Each long query would run for tens of seconds; with a 1 s timeout, or a
# cancel request sent 1 s after it started, it must end with 57014 within
# LP_CANCEL_BOUND seconds (default 10: a loose bound for a loaded 2-core
# machine; this checks behaviour, it is not a benchmark).  Queries:
#   agg     logp95_agg over 20,000,000 generated lines
#   report  the report of a state of 1,000,000 routes, 40 times over
#   merge   logp95_merge of that state, 40 times over (decode + merge loops)
#   combine one call of logp95_merge_combine(s, s) on that state: a single
#           function call of several seconds, so only the interrupt hook of
#           the plain C units (lp_interrupt_hook) can stop it early
set -uo pipefail
. "$(dirname "$0")/../lib/cluster.sh"

DB=lp_t31
BOUND=${LP_CANCEL_BOUND:-10}
fails=0

# Run SQL in the test database, unaligned, tuples only.
q() { "$PGBIN/psql" -X -q -At -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

# Seconds since the epoch with fractions.
now() { date +%s.%N; }

# Seconds between two now() readings, to 0.01 s.
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# Record a result: verdict NAME OUTPUT SECONDS EXPECTED_MESSAGE
verdict() {
	if grep -q "ERROR:  57014: $4" <<<"$2" && awk -v s="$3" -v b="$BOUND" 'BEGIN { exit !(s < b) }'; then
		printf 'ok   %s: 57014 after %s s (bound %s s)\n' "$1" "$3" "$BOUND"
	else
		printf 'FAIL %s: after %s s (bound %s s), output:\n%s\n' "$1" "$3" "$BOUND" "$2"
		fails=$((fails + 1))
	fi
}

# statement_timeout = 1s: timeout NAME SQL
timeout_case() {
	local t0 t1 out
	t0=$(now)
	out=$("$PGBIN/psql" -X -q -At -d "$DB" -v VERBOSITY=verbose 2>&1 <<EOF
\set VERBOSITY verbose
SET statement_timeout = '1s';
$2
EOF
	)
	t1=$(now)
	verdict "statement_timeout 1s, $1" "$out" "$(secs "$t0" "$t1")" "canceling statement due to statement timeout"
}

# pg_cancel_backend from another session, 1 s after the query started: cancel NAME SQL
cancel_case() {
	local app="lp_t31_$1" pid bg out t0 t1 i
	PGAPPNAME=$app "$PGBIN/psql" -X -q -At -d "$DB" > "/tmp/lp_t31_$1.out" 2>&1 <<EOF &
\set VERBOSITY verbose
$2
EOF
	bg=$!
	pid=
	for i in $(seq 1 300); do
		pid=$(q -c "SELECT pid FROM pg_stat_activity WHERE application_name = '$app' AND state = 'active'")
		[ -n "$pid" ] && break
		sleep 0.1
	done
	if [ -z "$pid" ]; then
		echo "FAIL cancel, $1: the query never showed up as active"
		fails=$((fails + 1)); wait "$bg"; return
	fi
	sleep 1
	t0=$(now)
	q -c "SELECT pg_cancel_backend($pid)" >/dev/null
	wait "$bg"
	t1=$(now)
	out=$(cat "/tmp/lp_t31_$1.out"); rm -f "/tmp/lp_t31_$1.out"
	verdict "pg_cancel_backend, $1" "$out" "$(secs "$t0" "$t1")" "canceling statement due to user request"
}

"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" || exit 1
q -c "CREATE EXTENSION logp95" || exit 1

t0=$(now)
q -c "CREATE TABLE st AS SELECT logp95_agg('/r' || i, i % 1000) AS s FROM generate_series(1, 1000000) i" || exit 1
t1=$(now)
echo "     state of 1,000,000 routes built in $(secs "$t0" "$t1") s"
t0=$(now)
q -c "SELECT count(*) FROM st, logp95_report(s)" >/dev/null
t1=$(now)
echo "     one report of it: $(secs "$t0" "$t1") s (the report queries below run it 40 times)"

AGG="SELECT logp95_malformed(logp95_agg(l)) FROM logp95_generate(20000000, 300, 1) l;"
REPORT="SELECT count(*) FROM generate_series(1, 40) g, LATERAL logp95_report((SELECT s FROM st WHERE g > 0)) r;"
MERGE="SELECT logp95_malformed(logp95_merge(s)) FROM st, generate_series(1, 40);"
COMBINE="SELECT length(logp95_state_send(logp95_merge_combine(s, s))) FROM st;"

timeout_case agg "$AGG"
timeout_case report "$REPORT"
timeout_case merge "$MERGE"
timeout_case combine "$COMBINE"
cancel_case agg "$AGG"
cancel_case report "$REPORT"
cancel_case merge "$MERGE"

# The server and the stored state are fine afterwards.
got=$(q -c "SELECT count(*), sum(requests) FROM st, logp95_report(s)")
if [ "$got" = "1000000|1000000" ]; then echo "ok   state intact after the cancels: $got"
else echo "FAIL state after the cancels: $got"; fails=$((fails + 1)); fi

"$PGBIN/psql" -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB"
echo "cancel: $fails failed"
[ "$fails" = 0 ]
