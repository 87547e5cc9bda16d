#!/usr/bin/env bash
# test/bench/rollup.sh -- continuous rollups (issue 25): what a rollup costs at
# ingest, and what it saves at query time
#
#   sudo test/bench/rollup.sh             # or: sudo test/bench/bench.sh rollup
#   LP_PG_BINDIR=/opt/pg18-x/bin test/bench/rollup.sh   # another installation
#
# Settings (environment):
#   LP_ROLLUP_LINES=4000000          combined lines of the ingest run (one COPY)
#   LP_ROLLUP_SIZES="400000 4000000" raw lines of the query run
#   LP_BENCH_RUNS=3                  timed runs of each (rounds interleaved)
#   LP_ROLLUP_PARTS="ingest query"   which parts to run
#
# Ingest: logp95_generate(N, 300, 1, 'combined') written to a file, then
# COPY t(line) FROM that file into a fresh table, rounds interleaved over:
# a plain table; the same with a statement trigger that only reads its
# transition table (what any such trigger pays: the floor of a rollup); the
# same with a 1-minute rollup; with a 1-minute and a 1-hour rollup (the
# query recipe below); a partitioned table (one partition); the same with
# a 1-minute rollup.  The rollups are checked once against logp95_agg over
# their table, bucket by bucket.
# Query: the report of the log's last 6 hours (the 360 minutes before the
# end of its last minute) from the 1-minute rollup; from the hourly rollup
# for the whole hours and the 1-minute rollup for the minutes before the
# first of them (docs/sre.md, the recipe "a long window from two
# rollups"); and from the raw lines through an expression index on
# logp95_line_time(line, 'combined').  All three give the same report
# (checked once).
#
# Wall time by psql \timing, and the CPU time of the backend (schedstat).
# A benchmark: it asserts nothing and exits 0 once it has printed.
set -euo pipefail
. "$(dirname "$0")/../lib/cluster.sh"
cd "$LP_ROOT"

LINES=${LP_ROLLUP_LINES:-4000000}
SIZES=${LP_ROLLUP_SIZES:-400000 4000000}
RUNS=${LP_BENCH_RUNS:-3}
PARTS=${LP_ROLLUP_PARTS:-ingest query}
export PGOPTIONS="-c client_min_messages=warning"
CONF=(shared_buffers=2GB work_mem=64MB jit=off max_parallel_workers_per_gather=0 huge_pages=off
	max_wal_size=8GB checkpoint_timeout=1h)

OUTDIR=$LP_ROOT/test/bench/out
mkdir -p "$OUTDIR"
LOG=$OUTDIR/rollup-$(date +%Y%m%d-%H%M%S).txt
exec > >(tee "$LOG") 2>&1

WORK=$(mktemp -d /tmp/logp95-rollup-bench.XXXXXX)
chmod 755 "$WORK"
trap 'lp_cluster_stop; rm -rf "$WORK"' EXIT

lp_deps
lp_build_install
lp_cluster_start "${CONF[@]}"
trap 'lp_cluster_stop; rm -rf "$WORK"' EXIT
echo "logp95 rollup benchmark, $(date -u '+%Y-%m-%d %H:%M UTC'); runs: $RUNS"
lp_psql -At -c "SELECT version()"
echo "server settings: ${CONF[*]} fsync=off"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "logp95 commit: $(git -C "$LP_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
lp_psql -c "CREATE EXTENSION logp95"

# Run SQL ($2) in a fresh session after setup ($1); print "<wall ms> <cpu ms>".
timed() {
	lp_psql -At <<-EOF | awk '/^Time: / {t = $2} /^cpu0 / {c0 = $2} /^cpu1 / {c1 = $2} END {printf "%s %.0f\n", t, (c1 - c0) / 1e6}'
		$1
		SELECT pg_backend_pid() AS pid \gset
		\setenv LP_PID :pid
		\o /dev/null
		\! awk '{print "cpu0", \$1}' /proc/\$LP_PID/schedstat
		\timing on
		$2
		\timing off
		\! awk '{print "cpu1", \$1}' /proc/\$LP_PID/schedstat
	EOF
}

# ---- ingest ----
bench_ingest() {
FILE=$WORK/combined.log
lp_say "writing $LINES combined lines to $FILE"
chown postgres: "$WORK" 2>/dev/null || true
lp_psql -c "COPY (SELECT logp95_generate($LINES, 300, 1, 'combined')) TO '$FILE' WITH (FORMAT csv, DELIMITER E'\\x01', QUOTE E'\\x02')"
COPY_SQL="COPY t(line) FROM '$FILE' WITH (FORMAT csv, DELIMITER E'\\x01', QUOTE E'\\x02');"
declare -A SETUP=(
	[plain]="DROP TABLE IF EXISTS t CASCADE; CREATE TABLE t(line text); CHECKPOINT;"
	[plain_capture]="DROP TABLE IF EXISTS t CASCADE; CREATE TABLE t(line text); CREATE OR REPLACE FUNCTION capture_only() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN PERFORM count(*) FROM new_rows; RETURN NULL; END'; CREATE TRIGGER capture_only AFTER INSERT ON t REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION capture_only(); CHECKPOINT;"
	[plain_rollup]="DROP TABLE IF EXISTS t CASCADE; CREATE TABLE t(line text); SELECT logp95_rollup_create('t', '1 minute', 'combined'); CHECKPOINT;"
	[plain_rollup_2]="DROP TABLE IF EXISTS t CASCADE; CREATE TABLE t(line text); SELECT logp95_rollup_create('t', '1 minute', 'combined'), logp95_rollup_create('t', '1 hour', 'combined'); CHECKPOINT;"
	[part]="DROP TABLE IF EXISTS t CASCADE; CREATE TABLE t(line text, p int DEFAULT 0) PARTITION BY LIST (p); CREATE TABLE t_0 PARTITION OF t FOR VALUES IN (0); CHECKPOINT;"
	[part_rollup]="DROP TABLE IF EXISTS t CASCADE; CREATE TABLE t(line text, p int DEFAULT 0) PARTITION BY LIST (p); CREATE TABLE t_0 PARTITION OF t FOR VALUES IN (0); SELECT logp95_rollup_create('t', '1 minute', 'combined'); CHECKPOINT;"
)
CLEAN="SELECT logp95_rollup_drop(rollup) FROM logp95_rollups;"
KINDS=(plain plain_capture plain_rollup plain_rollup_2 part part_rollup)
: > "$WORK/ingest.tsv"
for r in $(seq 1 "$RUNS"); do
	for k in "${KINDS[@]}"; do
		lp_say "ingest run $r: $k"
		lp_psql -q -c "$CLEAN" >/dev/null
		read -r ms cpu < <(timed "${SETUP[$k]}" "$COPY_SQL")
		printf '%s\t%s\t%s\t%s\n' "$k" "$r" "$ms" "$cpu" >> "$WORK/ingest.tsv"
		if [ "$r" = 1 ] && [[ $k == *_rollup* ]]; then
			lp_psql -At -c "SELECT '  $k: exact: ' || (count(*) FILTER (WHERE w.state IS DISTINCT FROM g.state) = 0) || ' (' || count(*) || ' buckets)'
				FROM (SELECT COALESCE(date_bin('1 minute', logp95_line_time(line, 'combined'), 'epoch'), '-infinity') AS bucket,
					logp95_agg(line, 'combined', 'skip') AS state FROM t GROUP BY 1) w
				FULL JOIN t_rollup_1min g USING (bucket)"
		fi
	done
done
echo
echo "=== ingest: COPY of $LINES combined lines ($(du -m "$FILE" | cut -f1) MB) into a fresh table; median of $RUNS runs"
lp_psql -q -c "CREATE TABLE ingest(kind text, run int, ms float8, cpu_ms float8)" -c "\\copy ingest FROM '$WORK/ingest.tsv'"
# cpu_x: the ratio of the medians; cpu_x_by_round: the median of each
# round's ratio to the same round's COPY without a rollup (the rounds are
# interleaved, so a change in the machine's load falls on both)
lp_psql -P footer=off <<-'EOF'
	WITH m AS (SELECT kind, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms,
			percentile_cont(0.5) WITHIN GROUP (ORDER BY cpu_ms) AS cpu,
			round(min(ms)::numeric) || '..' || round(max(ms)::numeric) AS range,
			min(cpu_ms) || '..' || max(cpu_ms) AS cpu_range
		FROM ingest GROUP BY kind),
	r AS (SELECT i.kind, percentile_cont(0.5) WITHIN GROUP (ORDER BY i.cpu_ms / b.cpu_ms) AS x
		FROM ingest i JOIN ingest b ON b.run = i.run AND b.kind = regexp_replace(i.kind, '_(rollup|rollup_2|capture)$', '')
		GROUP BY i.kind)
	SELECT m.kind, round(m.ms::numeric) AS median_ms, m.range AS range_ms, round(m.cpu::numeric) AS cpu_ms,
		m.cpu_range AS cpu_range_ms, round((m.ms / b.ms)::numeric, 2) AS x_without_rollup,
		round((m.cpu / b.cpu)::numeric, 2) AS cpu_x, round(r.x::numeric, 2) AS cpu_x_by_round
	FROM m JOIN m b ON b.kind = regexp_replace(m.kind, '_(rollup|rollup_2|capture)$', '') JOIN r ON r.kind = m.kind
	ORDER BY m.kind;
EOF
lp_psql -q -c "$CLEAN" -c "DROP TABLE IF EXISTS t CASCADE" >/dev/null
rm -f "$FILE"
}

# ---- query: the last 6 hours ----
bench_query() {
: > "$WORK/query.tsv"
# every size loaded into a table of its own (q<n>, with its two rollups and
# its index), then the rounds: each round times every query of every size,
# so that a change in the machine's load falls on all of them alike
declare -A ROLL HOURLY RAW
for n in $SIZES; do
	lp_say "query: loading $n lines into q$n"
	lp_psql -q >/dev/null <<-EOF
		DROP TABLE IF EXISTS q$n CASCADE;
		CREATE TABLE q$n(line text);
		INSERT INTO q$n SELECT logp95_generate($n, 300, 42, 'combined');
		SELECT logp95_rollup_create('q$n', '1 minute', 'combined');
		SELECT logp95_rollup_create('q$n', '1 hour', 'combined');
		CREATE INDEX q${n}_time ON q$n (logp95_line_time(line, 'combined'));
		VACUUM ANALYZE q$n;
		VACUUM ANALYZE q${n}_rollup_1min;
		VACUUM ANALYZE q${n}_rollup_1h;
	EOF
	E=$(lp_psql -At -c "SELECT max(bucket) + interval '1 minute' FROM q${n}_rollup_1min")
	# docs/sre.md, "a long window from two rollups": the whole hours from the
	# hourly rollup, the minutes before the first of them from the minute one
	H="date_bin('1 hour', '$E'::timestamptz - interval '6 hours' - interval '1 microsecond', 'epoch') + interval '1 hour'"
	MIN_STATE="logp95_rollup_state('q${n}_rollup_1min', '$E'::timestamptz - interval '6 hours', 'infinity')"
	TWO_STATE="(SELECT logp95_merge(u.state) FROM (
		SELECT state FROM q${n}_rollup_1min WHERE bucket >= '$E'::timestamptz - interval '6 hours' AND bucket < $H
		UNION ALL SELECT state FROM q${n}_rollup_1h WHERE bucket >= $H) u)"
	RAW_STATE="(SELECT logp95_agg(line, 'combined') FROM q$n WHERE logp95_line_time(line, 'combined') >= '$E'::timestamptz - interval '6 hours')"
	ROLL[$n]="SELECT count(s.*) FROM logp95_report($MIN_STATE) s;"
	HOURLY[$n]="SELECT count(s.*) FROM logp95_report($TWO_STATE) s;"
	RAW[$n]="SELECT count(s.*) FROM logp95_report($RAW_STATE) s;"
	lp_psql -At -c "SELECT '  $n lines, last 6 hours from $E: the same state from the minutes, the hours and minutes, the raw lines: '
		|| ($MIN_STATE = $TWO_STATE AND $TWO_STATE = (SELECT logp95_agg(line, 'combined', 'skip') FROM q$n
				WHERE logp95_line_time(line, 'combined') >= '$E'::timestamptz - interval '6 hours'))
		|| '; raw lines in it: ' || (SELECT count(*) FROM q$n WHERE logp95_line_time(line, 'combined') >= '$E'::timestamptz - interval '6 hours')
		|| '; states merged: ' || (SELECT count(*) FROM q${n}_rollup_1min WHERE bucket >= '$E'::timestamptz - interval '6 hours')
		|| ', and ' || (SELECT count(*) FROM q${n}_rollup_1min WHERE bucket >= '$E'::timestamptz - interval '6 hours' AND bucket < $H)
		|| ' + ' || (SELECT count(*) FROM q${n}_rollup_1h WHERE bucket >= $H)"
	lp_psql -At -c "EXPLAIN (COSTS OFF) SELECT logp95_agg(line, 'combined') FROM q$n WHERE logp95_line_time(line, 'combined') >= '$E'::timestamptz - interval '6 hours'" | sed 's/^/    /'
done
# each query timed in a fresh session after one run of it there (the
# library loaded, the catalogs and the index cached: what a pooled
# dashboard connection sees); round 0 is a warm-up
for r in $(seq 0 "$RUNS"); do
	lp_say "query round $r"
	for n in $SIZES; do
		read -r ms cpu < <(timed "${ROLL[$n]}" "${ROLL[$n]}")
		[ "$r" = 0 ] || printf '%s\trollup\t%s\t%s\t%s\n' "$n" "$r" "$ms" "$cpu" >> "$WORK/query.tsv"
		read -r ms cpu < <(timed "${HOURLY[$n]}" "${HOURLY[$n]}")
		[ "$r" = 0 ] || printf '%s\thourly\t%s\t%s\t%s\n' "$n" "$r" "$ms" "$cpu" >> "$WORK/query.tsv"
		read -r ms cpu < <(timed "${RAW[$n]}" "${RAW[$n]}")
		[ "$r" = 0 ] || printf '%s\traw\t%s\t%s\t%s\n' "$n" "$r" "$ms" "$cpu" >> "$WORK/query.tsv"
	done
done
echo
echo "=== query: report of the last 6 hours of the log; median of $RUNS runs after 1 warm-up, each in a warm session, ms"
lp_psql -q -c "CREATE TABLE query(size bigint, kind text, run int, ms float8, cpu_ms float8)" -c "\\copy query FROM '$WORK/query.tsv'"
lp_psql -P footer=off <<-'EOF'
	WITH m AS (SELECT size, kind, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms,
			percentile_cont(0.5) WITHIN GROUP (ORDER BY cpu_ms) AS cpu FROM query GROUP BY size, kind)
	SELECT r.size AS raw_lines, round(r.ms::numeric, 2) AS minutes_ms, round(h.ms::numeric, 2) AS hours_minutes_ms,
		round(w.ms::numeric, 2) AS raw_indexed_ms,
		round((w.ms / r.ms)::numeric, 1) AS minutes_faster_x, round((w.ms / h.ms)::numeric, 1) AS hours_minutes_faster_x,
		round((r.ms / first_value(r.ms) OVER (ORDER BY r.size))::numeric, 2) AS minutes_x_smallest,
		round((h.ms / first_value(h.ms) OVER (ORDER BY r.size))::numeric, 2) AS hours_minutes_x_smallest,
		(SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY w2.ms / r2.ms)::numeric, 1)
		   FROM query r2 JOIN query w2 USING (size, run)
		  WHERE r2.size = r.size AND r2.kind = 'rollup' AND w2.kind = 'raw') AS minutes_faster_x_by_round,
		(SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY w2.ms / h2.ms)::numeric, 1)
		   FROM query h2 JOIN query w2 USING (size, run)
		  WHERE h2.size = r.size AND h2.kind = 'hourly' AND w2.kind = 'raw') AS hours_minutes_faster_x_by_round
	FROM m r JOIN m w ON w.size = r.size AND w.kind = 'raw' JOIN m h ON h.size = r.size AND h.kind = 'hourly'
	WHERE r.kind = 'rollup' ORDER BY r.size;
EOF
}

for part in $PARTS; do
	case $part in
		ingest) bench_ingest ;;
		query) bench_query ;;
		*) echo "unknown part '$part' in LP_ROLLUP_PARTS (ingest, query)" >&2; exit 2 ;;
	esac
done
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "output saved to $LOG"
