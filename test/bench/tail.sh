#!/usr/bin/env bash
# test/bench/tail.sh -- long-tailed latencies at scale (issue 27): the report's
# cost per line over the scan at two sizes, narrow beside long-tailed lines
#
#   sudo test/bench/tail.sh              # or: sudo test/bench/bench.sh tail
#   LP_PG_BINDIR=/opt/pg15-x/usr/lib/postgresql/15/bin test/bench/tail.sh
#
# Settings (environment):
#   LP_TAIL_SIZES="400000 4000000"          line counts of the default format
#   LP_TAIL_COMBINED_SIZES="400000 2000000" line counts of every other format (224 bytes
#                                           a line: 4M of them outgrow shared_buffers
#                                           beside the others; issue 27 sets its combined
#                                           target at 2M)
#   LP_TAIL_FORMATS="default combined"      formats (logp95_generate's names)
#   LP_TAIL_LATENCY="narrow long_tail"      latency distributions (logp95_generate's
#                                           fifth argument; docs/reference.md)
#   LP_BENCH_RUNS=5                         timed rounds (after one warm-up round)
#   LP_BENCH_HUGEPAGES=1                    huge_pages = on (test/bench/hugepages.sh;
#                                           root: reserves vm.nr_hugepages for the run)
#   LP_TAIL_PERF_EVENTS=cache-misses,cache-references,instructions
#                                           perf stat's events (the first one decides
#                                           whether perf can count here)
#
# For each (distribution, format, size): a table of logp95_generate(N, 300,
# 42, format, distribution), and, interleaved round by round over all of
# them, the floor (count(line), serial, and with 2 workers), the report
# serial and the report with 2 workers (Gather over a partial aggregate).  Printed per table: wall
# and backend CPU medians (schedstat: other load on the machine barely
# moves it), each as a ratio to its own table's floor, the report's cost per
# line over the floor in ns, and the 2-worker speed-up over serial.  Then
# the ratios the targets of issue 27 are set in: cost per line over the
# floor at the largest size over the smallest, per distribution and format.
# Every report is checked once against the window-function reference of its
# lines (test/lib/ref_report.sql), and the 2-worker state against the serial
# one.  Where a 2-worker report's time goes: EXPLAIN ANALYZE VERBOSE, the
# combine alone, and what starting two workers costs here, with the best
# 2-worker speed-up that start leaves the serial report.  Last, perf stat
# of the backend over one serial report per table
# (cache misses per line) when perf can read hardware counters here; a line
# says so when it cannot (virtual machines often hide them).
# A benchmark: it asserts nothing and exits 0 once it has printed.
set -euo pipefail
. "$(dirname "$0")/../lib/cluster.sh"
. "$(dirname "$0")/hugepages.sh"
cd "$LP_ROOT"

SIZES=${LP_TAIL_SIZES:-400000 4000000}
CSIZES=${LP_TAIL_COMBINED_SIZES:-400000 2000000}
FORMATS=${LP_TAIL_FORMATS:-default combined}
LATENCY=${LP_TAIL_LATENCY:-narrow long_tail}
RUNS=${LP_BENCH_RUNS:-5}
EVENTS=${LP_TAIL_PERF_EVENTS:-cache-misses,cache-references,instructions}
export PGOPTIONS="-c client_min_messages=warning"

OUTDIR=$LP_ROOT/test/bench/out
mkdir -p "$OUTDIR"
exec > >(tee "$OUTDIR/tail-$(date +%Y%m%d-%H%M%S).txt") 2>&1
WORK=$(mktemp -d /tmp/logp95-tail.XXXXXX)
tail_cleanup() {
	lp_cluster_stop
	[ -n "$HUGE_OLD" ] && echo "$HUGE_OLD" > /proc/sys/vm/nr_hugepages
	rm -rf "$WORK"
}
trap tail_cleanup EXIT

lp_deps
lp_build_install
CONF=(shared_buffers=2GB work_mem=256MB jit=off max_worker_processes=8 max_parallel_workers=8)
bench_hugepages
lp_cluster_start "${CONF[@]}"
trap tail_cleanup EXIT
echo "server settings: ${CONF[*]} fsync=off (test/lib/cluster.sh)"
lp_psql -At -c "SELECT version()"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "logp95 commit: $(git -C "$LP_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
lp_psql -c "CREATE EXTENSION IF NOT EXISTS logp95"

# tables: t_<latency>_<format>_<size>
TABLES=()
declare -A T_FMT T_N
for lat in $LATENCY; do
	for f in $FORMATS; do
		sizes=$SIZES
		[ "$f" = default ] || sizes=$CSIZES
		for n in $sizes; do
			t="t_${lat}_${f}_${n}"
			TABLES+=("$t")
			T_FMT[$t]=$f
			T_N[$t]=$n
			lp_psql -c "DROP TABLE IF EXISTS $t; CREATE TABLE $t(line text);
				INSERT INTO $t SELECT logp95_generate($n, 300, 42, '$f', '$lat');" -c "VACUUM ANALYZE $t"
		done
	done
done

# the parse of a line in SQL, for the reference: route and milliseconds
ref_query() {
	case ${T_FMT[$1]} in
		default) echo "SELECT split_part(line, ' ', 3) AS route, split_part(line, ' ', 4)::bigint AS ms FROM $1" ;;
		*) echo "SELECT split_part(split_part(split_part(line, '\"', 2), ' ', 2), '?', 1) AS route, round((regexp_match(line, ' ([0-9.]+)\$'))[1]::numeric * 1000)::bigint AS ms FROM $1" ;;
	esac
}
report_sql() { echo "SELECT * FROM logp95_report((SELECT logp95_agg(line, '${T_FMT[$1]}') FROM $1))"; }
SERIAL="SET max_parallel_workers_per_gather = 0;"
PAR="SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;"

lp_psql -At -c "SELECT 'tables: ' || pg_size_pretty(sum(pg_table_size(c.oid))) || ' in all, shared_buffers ' || current_setting('shared_buffers')
	FROM pg_class c WHERE c.relname LIKE 't\_%' AND c.relkind = 'r'"
echo
echo "=== checks (once, untimed): every report against the window-function reference of its lines"
for t in "${TABLES[@]}"; do
	lp_psql <<-EOSQL
		DROP TABLE IF EXISTS ref_$t, rep_$t, par_$t;
		$(lp_ref_sql "ref_$t" "$(ref_query "$t")")
		$SERIAL CREATE TABLE rep_$t AS $(report_sql "$t");
		$PAR CREATE TABLE par_$t AS $(report_sql "$t");
	EOSQL
	lp_psql -At -c "SELECT '  $t: ' || (SELECT count(DISTINCT (route, ms)) FROM ($(ref_query "$t")) p) || ' distinct (route, ms) pairs; serial report '
		|| CASE WHEN (SELECT count(*) FROM (SELECT route, requests, p50_ms, p95_ms, p99_ms, max_ms FROM rep_$t
				EXCEPT ALL SELECT route, requests, p50_ms, p95_ms, p99_ms, max_ms FROM ref_$t) a) = 0
			AND (SELECT count(*) FROM rep_$t) = (SELECT count(*) FROM ref_$t) THEN 'exact' ELSE 'DIFFERS' END
		|| ', 2-worker report '
		|| CASE WHEN (SELECT count(*) FROM (TABLE par_$t EXCEPT ALL TABLE rep_$t) a) = 0
			AND (SELECT count(*) FROM par_$t) = (SELECT count(*) FROM rep_$t) THEN 'equal to serial' ELSE 'DIFFERS from serial' END"
done

# one script: warm-up round 0, then RUNS rounds, every table's queries in
# each round; backend CPU time from /proc/<pid>/schedstat around each query
S=$WORK/time.sql
{
	echo 'SELECT pg_backend_pid() AS pid \gset'
	echo '\setenv LP_PID :pid'
	echo '\o /dev/null'
} > "$S"
for r in $(seq 0 "$RUNS"); do
	for t in "${TABLES[@]}"; do
		# the table's pages into shared buffers first, untimed: all the tables
		# may not fit at once, and the floor, timed first, must not pay the copy
		echo "$SERIAL SELECT count(*) FROM $t;" >> "$S"
		for q in floor floor_par serial par; do
			case $q in
				floor) sql="$SERIAL SELECT count(line) FROM $t;" ;;
				floor_par) sql="$PAR SELECT count(line) FROM $t;" ;;
				serial) sql="$SERIAL SELECT count(*) FROM ($(report_sql "$t")) s;" ;;
				par) sql="$PAR SELECT count(*) FROM ($(report_sql "$t")) s;" ;;
			esac
			{
				echo "\\! awk '{print \"c0 $r $t $q\", \$1}' /proc/\$LP_PID/schedstat"
				echo "\\echo @@ $r $t $q"
				echo '\timing on'
				echo "$sql"
				echo '\timing off'
				echo "\\! awk '{print \"c1 $r $t $q\", \$1}' /proc/\$LP_PID/schedstat"
			} >> "$S"
		done
	done
done
lp_psql -f "$S" > "$WORK/time.out"
awk '/^c0 /{c0[$2" "$3" "$4]=$5} /^c1 /{c1[$2" "$3" "$4]=$5} /^@@ /{k=$2" "$3" "$4}
	/^Time: /{ms[k]=$2}
	END{for (k in ms) {split(k, a, " "); printf "%s\t%s\t%s\t%s\t%.3f\n", a[2], a[3], a[1], ms[k], (c1[k] - c0[k]) / 1e6}}' \
	"$WORK/time.out" > "$WORK/time.tsv"
lp_psql -c "DROP TABLE IF EXISTS tail_times; CREATE TABLE tail_times(t text, q text, run int, ms float8, cpu_ms float8)" \
	-c "\\copy tail_times FROM '$WORK/time.tsv'"

echo
echo "=== median of $RUNS rounds after a warm-up, ms; x: over the same table's floor (count(line), serial);"
echo "    ns/line: (report - floor) / lines; par_speedup: serial / 2 workers (wall); cpu: the backend's (leader's) CPU time;"
echo "    floor_par_speedup: PostgreSQL's own count(line), serial / 2 workers (wall): how far the scan itself scales here"
lp_psql -P footer=off -c "
	WITH m AS (SELECT t, q, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms,
			percentile_cont(0.5) WITHIN GROUP (ORDER BY cpu_ms) AS cpu
		FROM tail_times WHERE run > 0 GROUP BY 1, 2),
	w AS (SELECT t, split_part(t, '_', 2) || CASE WHEN t LIKE 't_long_tail%' THEN '' ELSE '' END AS x,
			max(ms) FILTER (WHERE q = 'floor') AS floor, max(ms) FILTER (WHERE q = 'serial') AS serial,
			max(ms) FILTER (WHERE q = 'par') AS par, max(ms) FILTER (WHERE q = 'floor_par') AS fpar,
			max(cpu) FILTER (WHERE q = 'floor') AS cfloor, max(cpu) FILTER (WHERE q = 'serial') AS cserial
		FROM m GROUP BY 1, 2)
	SELECT t AS \"table\", round(floor::numeric, 1) AS floor_ms, round(serial::numeric, 1) AS serial_ms,
		round((serial / floor)::numeric, 2) AS x_floor,
		round(((serial - floor) * 1e6 / substring(t from '[0-9]+\$')::bigint)::numeric, 1) AS ns_line,
		round((cserial / cfloor)::numeric, 2) AS cpu_x_floor,
		round(((cserial - cfloor) * 1e6 / substring(t from '[0-9]+\$')::bigint)::numeric, 1) AS cpu_ns_line,
		round(par::numeric, 1) AS par_ms, round((serial / par)::numeric, 2) AS par_speedup,
		round((floor / fpar)::numeric, 2) AS floor_par_speedup
	FROM w ORDER BY t"

echo
echo "=== cost per line over the floor, largest size / smallest (target of issue 27: at most 1.3)"
lp_psql -P footer=off -c "
	WITH m AS (SELECT t, q, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms,
			percentile_cont(0.5) WITHIN GROUP (ORDER BY cpu_ms) AS cpu
		FROM tail_times WHERE run > 0 GROUP BY 1, 2),
	c AS (SELECT regexp_replace(t, '_[0-9]+\$', '') AS kind, substring(t from '[0-9]+\$')::bigint AS n,
			(max(ms) FILTER (WHERE q = 'serial') - max(ms) FILTER (WHERE q = 'floor')) * 1e6
				/ substring(t from '[0-9]+\$')::bigint AS ns,
			(max(cpu) FILTER (WHERE q = 'serial') - max(cpu) FILTER (WHERE q = 'floor')) * 1e6
				/ substring(t from '[0-9]+\$')::bigint AS cns
		FROM m GROUP BY t)
	SELECT kind, min(n) AS small, max(n) AS large,
		round(((array_agg(ns ORDER BY n))[1])::numeric, 1) AS ns_small,
		round(((array_agg(ns ORDER BY n DESC))[1])::numeric, 1) AS ns_large,
		CASE WHEN (array_agg(ns ORDER BY n DESC))[1] <= 0 THEN 'report below its floor'
			WHEN (array_agg(ns ORDER BY n))[1] <= 0 THEN 'n/a: below its floor when small'
			ELSE round(((array_agg(ns ORDER BY n DESC))[1] / (array_agg(ns ORDER BY n))[1])::numeric, 2)::text END AS wall_ratio,
		CASE WHEN (array_agg(cns ORDER BY n DESC))[1] <= 0 THEN 'report below its floor'
			WHEN (array_agg(cns ORDER BY n))[1] <= 0 THEN 'n/a: below its floor when small'
			ELSE round(((array_agg(cns ORDER BY n DESC))[1] / (array_agg(cns ORDER BY n))[1])::numeric, 2)::text END AS cpu_ratio
	FROM c GROUP BY kind ORDER BY kind"

echo
echo "=== where a 2-worker report's time goes, on the largest default table of each distribution"
echo "    (EXPLAIN ANALYZE VERBOSE: the partial aggregates' end in each process, Gather's end after their"
echo "    states were serialized and sent, the finalize's end after they were deserialized and combined;"
echo "    then the combine alone: logp95_merge of two half states, each of every other line, + report)"
for lat in $LATENCY; do
	n=$(printf '%s\n' $SIZES | sort -n | tail -n 1)
	t="t_${lat}_default_${n}"
	[ -n "${T_FMT[$t]:-}" ] || continue
	echo "  $t:"
	lp_psql -At -c "$PAR" -c "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF) $(report_sql "$t")" |
		grep -E 'Finalize Aggregate|Gather|Partial Aggregate|Worker [0-9]: +actual|Parallel Seq Scan|Execution Time' |
		grep -v Output | sed 's/^ */    /'
	lp_psql -c "DROP TABLE IF EXISTS halves; CREATE TABLE halves AS SELECT n % 2 AS h, logp95_agg(line) AS st
		FROM (SELECT line, row_number() OVER () AS n FROM $t) x GROUP BY 1"
	{
		echo '\o /dev/null'
		for r in 0 1 2 3 4 5; do
			echo "\\echo @@ $r"
			echo '\timing on'
			echo "SELECT count(*) FROM logp95_report((SELECT logp95_merge(st) FROM halves));"
			echo '\timing off'
		done
	} > "$WORK/merge.sql"
	lp_psql -f "$WORK/merge.sql" | awk '/^@@/ {r = $2} /^Time:/ && r > 0 {print $2}' | sort -n |
		awk -v sz="$(lp_psql -At -c "SELECT sum(octet_length(logp95_state_send(st))) FROM halves" 2>/dev/null || echo '?')" \
			'{a[NR] = $1} END {printf "    combine: merge of the two half states + report %.1f ms by median of %d (%s bytes of both states sent)\n", a[int((NR + 1) / 2)], NR, sz}'
done
# What starting two workers costs on this host, whatever they then do: a
# parallel count(*) of 1,000 rows less the serial one (logp95 loaded in the
# session, so each worker loads it as a report's workers do), median of 6 rounds
# after a warm-up; and how fast a 2-worker report could then be at most,
# with the serial report's work split evenly over the two cores
lp_psql -q -c "DROP TABLE IF EXISTS tiny" -c "CREATE TABLE tiny AS SELECT g FROM generate_series(1, 1000) g" -c "VACUUM ANALYZE tiny"
{
	echo '\o /dev/null'
	echo 'SELECT count(*) FROM logp95_generate(1, 1, 1);'
	echo "SET min_parallel_table_scan_size = 0;"
	for r in 0 1 2 3 4 5 6; do
		for q in serial par; do
			echo "\\echo @@ $r $q"
			[ $q = serial ] && echo "$SERIAL" || echo "$PAR"
			echo '\timing on'
			echo 'SELECT count(*) FROM tiny;'
			echo '\timing off'
		done
	done
} > "$WORK/start.sql"
start=$(lp_psql -f "$WORK/start.sql" | awk '/^@@/ {r = $2; q = $3} /^Time:/ && r > 0 {print q, $2}' |
	python3 -c 'import sys, statistics
ms = {"serial": [], "par": []}
for line in sys.stdin:
    q, t = line.split()
    ms[q].append(float(t))
print("%.1f" % (statistics.median(ms["par"]) - statistics.median(ms["serial"])))')
echo "    start: 2 workers cost $start ms before they read a row (a parallel count(*) of 1,000 rows less the serial one, median of 6)"
lp_psql -At -c "
	WITH m AS (SELECT t, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS serial
		FROM tail_times WHERE run > 0 AND q = 'serial' AND t LIKE '%default%' GROUP BY t)
	SELECT '    ' || t || ': serial ' || round(serial::numeric, 1) || ' ms; 2 workers at best '
		|| round((serial / (serial / 2 + $start))::numeric, 2) || 'x faster (serial / (serial / 2 + start))'
	FROM m ORDER BY t"

echo
echo "=== perf stat of the backend over one serial report per table (cache misses per line)"
if ! command -v perf > /dev/null 2>&1; then
	echo "  skipped: perf is not installed (Debian: apt-get install linux-perf)"
elif ! perf stat -x, -e "${EVENTS%%,*}" true 2>&1 | grep -q '^[0-9]'; then
	echo "  skipped: perf cannot count ${EVENTS%%,*} here ($(perf stat -x, -e "${EVENTS%%,*}" true 2>&1 | grep -v '^$' | cut -d, -f1 | head -1); a virtual machine without a virtual PMU)"
else
	for t in "${TABLES[@]}"; do
		lp_psql -c "$SERIAL SELECT count(*) FROM ($(report_sql "$t")) s" > /dev/null	# warm
		{
			echo 'SELECT pg_backend_pid() AS pid \gset'
			echo '\setenv LP_PID :pid'
			# perf counts the backend while its command runs: until the flag file goes
			echo "\\! touch $WORK/perf.run; perf stat -x, -e $EVENTS -p \$LP_PID -o $WORK/perf-$t.txt -- sh -c 'while [ -e $WORK/perf.run ]; do sleep 0.05; done' &"
			echo '\! sleep 0.3'
			echo "$SERIAL SELECT count(*) FROM ($(report_sql "$t")) s;"
			echo "\\! rm -f $WORK/perf.run; sleep 0.3"
		} > "$WORK/perf.sql"
		lp_psql -f "$WORK/perf.sql" > /dev/null
		# perf stat -x, lines: value,unit,event,...
		echo "  $t:$(awk -F, -v n="${T_N[$t]}" '$1 ~ /^[0-9.]+$/ {printf " %s %.3f a line;", $3, $1 / n}' "$WORK/perf-$t.txt")"
	done
fi
