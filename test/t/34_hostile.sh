#!/usr/bin/env bash
# test/t/34_hostile.sh -- the attacks of issue 14 end in bounded time with the
# exact answer or a clean error.
#
#   flood-routes  20,000 printable routes that all share one 64-bit hash under
#                 the old unkeyed hash, through logp95_agg(route, latency) and a
#                 merge of the resulting state: exact counts
#   flood-values  one route of 100,000 values t * inverse(0x9E3779B97F4A7C15)
#                 mod 2^54 (all in slot 0 under the old value hash), merged
#   memory        the issue's 50 MB state of 25M values under
#                 logp95.max_state_memory = 64MB: 54000 naming the setting;
#                 under 4GB: the exact 50,000,015 bytes
#   phases        statement_timeout of 50, 150, 400 and 1000 ms on a merge of a
#                 state of 300,000 routes (decode, grow, rehash, sort, encode),
#                 and pg_cancel_backend 0.5 s in: 57014 within a second of it
# Each case must finish under LP_HOSTILE_BOUND seconds (default 30: generous,
# this checks behaviour, it is not a benchmark); figures are printed.
set -uo pipefail
. "$(dirname "$0")/../lib/cluster.sh"

DB=lp_t34
BOUND=${LP_HOSTILE_BOUND:-30}
fails=0
WORK=$(mktemp -d /tmp/lp_t34.XXXXXX)
chmod 755 "$WORK"
trap 'rm -rf "$WORK"' EXIT

q() { "$PGBIN/psql" -X -q -At -v ON_ERROR_STOP=1 -d "$DB" "$@"; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
under() { awk -v s="$1" -v b="$2" 'BEGIN { exit !(s < b) }'; }

# check NAME GOT WANT SECONDS [BOUND]
check() {
	local b=${5:-$BOUND}
	if [ "$2" = "$3" ] && under "$4" "$b"; then
		printf 'ok   %s: %s in %s s (bound %s s)\n' "$1" "$3" "$4" "$b"
	else
		printf 'FAIL %s: got "%s" want "%s" in %s s (bound %s s)\n' "$1" "$2" "$3" "$4" "$b"
		fails=$((fails + 1))
	fi
}

# Printable 16-byte keys sharing one 64-bit hash under the pre-issue-14 route hash.
cat > "$WORK/collide.c" <<'C'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static uint64_t w(uint64_t h, uint64_t x) { h = (h ^ x) * 0xbf58476d1ce4e5b9ULL; return h ^ (h >> 31); }
int main(int argc, char **argv)
{
	long n = atol(argv[1]), found = 0;
	uint64_t ci = 0xbf58476d1ce4e5b9ULL, t = 0x0123456789abcdefULL, y, i;
	int k;
	for (k = 0; k < 6; k++) ci *= 2 - 0xbf58476d1ce4e5b9ULL * ci;
	y = (t ^ (t >> 31) ^ (t >> 62)) * ci;
	for (i = 0; found < n; i++)
	{
		char s[17];
		uint64_t w0, w1;
		int ok = 1;
		snprintf(s, 9, "/%07llx", (unsigned long long) i);
		memcpy(&w0, s, 8);
		w1 = w(0x9E3779B97F4A7C15ULL, w0) ^ y;
		memcpy(s + 8, &w1, 8);
		for (k = 8; k < 16; k++)
			ok &= s[k] > 0x20 && s[k] < 0x7f && s[k] != '\\' && s[k] != '"';
		if (!ok) continue;
		s[16] = 0;
		printf("%s\t%ld\n", s, found % 1000);
		found++;
	}
	return 0;
}
C
cc -O2 -o "$WORK/collide" "$WORK/collide.c" || exit 1
"$WORK/collide" 20000 > "$WORK/routes.tsv"
chmod 644 "$WORK/routes.tsv"

"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" || exit 1
q -c "CREATE EXTENSION logp95" || exit 1
q -c "CREATE TABLE r (route text, ms bigint)" -c "\\copy r FROM '$WORK/routes.tsv'" || exit 1

# 1. hash flooding with routes
t0=$(now)
got=$(q -c "CREATE TABLE fs AS SELECT logp95_agg(route, ms) AS s FROM r" -c "SELECT count(*), sum(requests) FROM fs, logp95_report(s)")
t1=$(now)
check "flood-routes: logp95_agg of 20,000 old-colliding routes" "$got" "20000|20000" "$(secs "$t0" "$t1")"
t0=$(now)
got=$(q -c "SELECT count(*) FROM logp95_report((SELECT logp95_merge(s) FROM (SELECT s FROM fs UNION ALL SELECT s FROM fs) u))")
t1=$(now)
check "flood-routes: logp95_merge of that state with itself" "$got" "20000" "$(secs "$t0" "$t1")"

# 2. hash flooding with values
t0=$(now)
got=$(q -c "SELECT requests, max_ms FROM logp95_report((SELECT logp95_merge(s) FROM (SELECT logp95_agg('/v', ((t::numeric * 17428512612931826493::numeric) % 18014398509481984)::bigint) s FROM generate_series(1, 100000) t GROUP BY t % 4) g))")
t1=$(now)
want=$(q -c "SELECT count(*), max(((t::numeric * 17428512612931826493::numeric) % 18014398509481984)::bigint) FROM generate_series(1, 100000) t")
check "flood-values: 100,000 old-colliding values, aggregated in 4 parts and merged" "$got" "$want" "$(secs "$t0" "$t1")"

# 3. memory amplification
MEM="SELECT length(logp95_state_send(logp95_merge(('\\x010001022f6dc0f0f50b81e1eb17802001' || repeat('0101', 25000000 - 1))::logp95_state)))"
t0=$(now)
got=$(q -c "SET work_mem = '64kB'" -c "SET logp95.max_state_memory = '64MB'" -c "\\set VERBOSITY verbose" -c "$MEM" 2>&1 | grep -o "54000: logp95 state needs more than logp95.max_state_memory")
t1=$(now)
check "memory: 25M-value state under max_state_memory 64MB" "$got" "54000: logp95 state needs more than logp95.max_state_memory" "$(secs "$t0" "$t1")" 10
t0=$(now)
got=$(q -c "SET logp95.max_state_memory = '4GB'" -c "$MEM")
t1=$(now)
check "memory: the same under 4GB, exact" "$got" "50000015" "$(secs "$t0" "$t1")"

# 4. interrupts in every phase of a large merge
q -c "CREATE TABLE big AS SELECT logp95_agg('/r' || i, i % 5000) AS s FROM generate_series(1, 300000) i" || exit 1
BIG="SELECT length(logp95_state_send(logp95_merge_combine(s, s))) FROM big, generate_series(1, 20)"
for ms in 50 150 400 1000; do
	t0=$(now)
	out=$(q -c "SET statement_timeout = '${ms}ms'" -c "\\set VERBOSITY verbose" -c "$BIG" 2>&1 | grep -o "57014: canceling statement due to statement timeout")
	t1=$(now)
	lag=$(awk -v s="$(secs "$t0" "$t1")" -v m="$ms" 'BEGIN { printf "%.2f", s - m / 1000 }')
	check "phases: statement_timeout ${ms}ms, lag after the timeout" "$out" "57014: canceling statement due to statement timeout" "$lag" 1
done
PGAPPNAME=lp_t34_cancel "$PGBIN/psql" -X -q -At -d "$DB" -c "\\set VERBOSITY verbose" -c "$BIG" > "$WORK/cancel.out" 2>&1 &
bg=$!
sleep 0.5
pid=$(q -c "SELECT pid FROM pg_stat_activity WHERE application_name = 'lp_t34_cancel' AND state = 'active'")
t0=$(now)
[ -n "$pid" ] && q -c "SELECT pg_cancel_backend($pid)" >/dev/null
wait "$bg"
t1=$(now)
got=$(grep -o "57014: canceling statement due to user request" "$WORK/cancel.out")
check "phases: pg_cancel_backend 0.5 s into the merge" "$got" "57014: canceling statement due to user request" "$(secs "$t0" "$t1")" 1

"$PGBIN/psql" -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB"
echo "hostile: $fails failed"
[ "$fails" = 0 ]
