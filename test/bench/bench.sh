#!/usr/bin/env bash
# test/bench/bench.sh -- benchmark and profiling harness for logp95 (issue 3)
#
#   sudo test/bench/bench.sh              # timings at 400,000 and 4,000,000 lines, targets
#   sudo test/bench/bench.sh callgrind    # instructions per line under valgrind (50,000 lines)
#   sudo test/bench/bench.sh profile      # perf record -g of the report query at 4,000,000 lines
#   sudo test/bench/bench.sh rollup       # continuous rollups: COPY with and without one, and
#                                         # the last 6 hours from a rollup against the raw lines
#                                         # (test/bench/rollup.sh, its own settings there)
#   sudo test/bench/bench.sh formats      # every preset, definition and JSON format beside
#                                         # combined, serial report (test/bench/formats_sql.sh;
#                                         # skipped while SQL does not take them yet)
#   sudo test/bench/bench.sh tail         # long-tailed latencies beside narrow ones at two
#                                         # sizes: cost per line over the floor, 2 workers,
#                                         # perf stat (test/bench/tail.sh, its settings there)
#
# Settings (environment):
#   LP_BENCH_SIZES="400000 4000000"   line counts of the timing run
#   LP_BENCH_RUNS=7                   timed runs per query (after one warm-up round)
#   LP_CALLGRIND_LINES=50000          lines of the callgrind run
#   LP_PROFILE_LINES=4000000          lines of the profile run
#   LP_BENCH_HUGEPAGES=1              run the server with huge_pages = on: reserves
#                                     vm.nr_hugepages for shared_buffers for the run
#                                     and puts the old value back at the end (root)
#   LP_BENCH_FORMATS="default combined combined_query combined_us"
#                                     log formats timed beside each other (lines from
#                                     logp95_generate(N, 300, 42, format)); "default" alone
#                                     is the benchmark of 1.0
#   LP_BENCH_MERGE_STATES=720         hourly 300-route states merged by logp95_merge
#                                     (0: no merge timing)
#   LP_BENCH_LOAD_SIZES=400000        lines of the loading comparison, COPY into a
#                                     table + report vs file_fdw + report ("" for none)
#   LP_BENCH_ONLY='logp95|logp95_combined'
#                                     time only the queries so named (a regular
#                                     expression over the names; floors always)
#   LP_BENCH_PREFETCH_TRY="512 2048"  also time the serial reports with these values of
#                                     logp95.prefetch_distance (bytes), side by side
#   LP_PROFILE_FORMAT=default         the format callgrind and profile aggregate
#   LP_PROFILE_ANNOTATE=<symbol>      profile: also where in that function the samples fell
#   LP_PG_BINDIR=/opt/pg16-c/bin      another PostgreSQL installation (test/lib/cluster.sh);
#                                     t-digest is then used only if it is installed there
#
# Every run starts its own throwaway cluster (test/lib/cluster.sh) and stops it
# at the end.  Everything printed is also written to test/bench/out/.
# This is a benchmark, not a test: it asserts nothing and always exits 0 once
# it has printed its figures.
set -euo pipefail
. "$(dirname "$0")/../lib/cluster.sh"
. "$(dirname "$0")/hugepages.sh"
cd "$LP_ROOT"

MODE=${1:-bench}
SIZES=${LP_BENCH_SIZES:-400000 4000000}
RUNS=${LP_BENCH_RUNS:-7}
CG_LINES=${LP_CALLGRIND_LINES:-50000}
PROF_LINES=${LP_PROFILE_LINES:-4000000}
FORMATS=${LP_BENCH_FORMATS:-default combined combined_query combined_us}
MERGE_STATES=${LP_BENCH_MERGE_STATES:-720}
LOAD_SIZES=${LP_BENCH_LOAD_SIZES-400000}
PROF_FORMAT=${LP_PROFILE_FORMAT:-default}
ROUTES=300
SEED=42

# the rollup benchmark is a script of its own (its own cluster and settings)
[ "$MODE" = rollup ] && exec bash "$LP_ROOT/test/bench/rollup.sh"
# so is every new format beside combined (issue 23; test/bench/formats_sql.sh)
[ "$MODE" = formats ] && exec bash "$LP_ROOT/test/bench/formats_sql.sh"
[ "$MODE" = tail ] && exec bash "$LP_ROOT/test/bench/tail.sh"
case "$MODE" in
	callgrind | profile) FORMATS="default $PROF_FORMAT" ;;
esac
case "$MODE" in
	bench | callgrind | profile) ;;
	*)
		echo "usage: $0 [bench|callgrind|profile|rollup|formats|tail]" >&2
		exit 2
		;;
esac

# no NOTICEs from DROP ... IF EXISTS in the output
export PGOPTIONS="-c client_min_messages=warning"

OUTDIR=$LP_ROOT/test/bench/out
mkdir -p "$OUTDIR"
LOG=$OUTDIR/$MODE-$(date +%Y%m%d-%H%M%S).txt
exec > >(tee "$LOG") 2>&1

WORK=$(mktemp -d /tmp/logp95-bench.XXXXXX)
HAVE_TD=1

HUGE_OLD=

# Stop the cluster, give reserved huge pages back, drop the scratch directory.
bench_cleanup() {
	lp_cluster_stop
	[ -n "$HUGE_OLD" ] && echo "$HUGE_OLD" > /proc/sys/vm/nr_hugepages
	rm -rf "$WORK"
}
trap bench_cleanup EXIT

# Print a/b with `digits` decimals (awk: no bc needed).
bench_div() { awk -v a="$1" -v b="$2" -v d="${3:-1}" 'BEGIN {printf "%.*f", d, a / b}'; }

# The server settings of every mode, printed with the results.
CONF=(shared_buffers=2GB work_mem=256MB jit=off max_parallel_workers_per_gather=2
	max_worker_processes=8 max_parallel_workers=8)

# The log formats: the table holding each one's lines (combined and
# combined_query lines are the same lines, read two ways) and the plain-SQL
# parse of a line into route and milliseconds, which builds the window-function
# reference (lp_ref_sql) and the percentile_disc alternative of that format.
declare -A F_TABLE F_ROUTE F_MS
F_TABLE[default]=access_log
F_ROUTE[default]="split_part(line, ' ', 3)"
F_MS[default]="split_part(line, ' ', 4)::bigint"
F_TABLE[combined]=access_combined
F_ROUTE[combined]="split_part(split_part(split_part(line, '\"', 2), ' ', 2), '?', 1)"
F_MS[combined]="round((regexp_match(line, ' ([0-9.]+)\$'))[1]::numeric * 1000)::bigint"
F_TABLE[combined_query]=access_combined
F_ROUTE[combined_query]="split_part(split_part(line, '\"', 2), ' ', 2)"
F_MS[combined_query]=${F_MS[combined]}
F_TABLE[combined_us]=access_combined_us
F_ROUTE[combined_us]=${F_ROUTE[combined]}
F_MS[combined_us]="round((regexp_match(line, ' ([0-9]+)\$'))[1]::numeric / 1000)::bigint"
F_TABLE[combined_us_query]=access_combined_us
F_ROUTE[combined_us_query]=${F_ROUTE[combined_query]}
F_MS[combined_us_query]=${F_MS[combined_us]}
for f in $FORMATS $PROF_FORMAT; do
	[ -n "${F_TABLE[$f]:-}" ] || { echo "unknown format '$f' in LP_BENCH_FORMATS or LP_PROFILE_FORMAT (known: ${!F_TABLE[*]})" >&2; exit 2; }
done
# The format whose lines a table holds (the generator's format name).
bench_table_format() { case $1 in access_log) echo default ;; *) echo "${1#access_}" ;; esac; }
# The tables the formats of this run need, default first.
bench_tables() {
	local f t seen=" "
	for f in default $FORMATS; do
		t=${F_TABLE[$f]}
		case $seen in *" $t "*) continue ;; esac
		seen="$seen$t "
		echo "$t"
	done
}
# The window-function reference table of a format (built per size).
bench_ref() { if [ "$1" = default ]; then echo ref; else echo "ref_$1"; fi; }
# The floor query of the table of a format.
bench_floor() { if [ "${F_TABLE[$1]}" = access_log ]; then echo floor; else echo "floor_${F_TABLE[$1]#access_}"; fi; }

# The timed queries, in the order of the tables:
#   bench_query name workers label SQL [format [check [pd]]]
# workers: max_parallel_workers_per_gather for it; format: the format of the
# lines it reads (its floor is count(line) of that format's table, its
# reference that format's); check: how its answer is checked, once, untimed:
#   report  every column of a logp95 report against the format's reference
#   disc    (route, p95) against percentile_disc's rank rule on that reference
#   count   count = the number of lines
#   none    not checked (say why in the label)
# pd: the query its speed-up is measured against (default: the plain-SQL
# percentile_disc of its format).  Adding a query is one bench_query line;
# Q_PRE[name] holds SET commands run before it (every query starts from
# RESET ALL: the session's settings as it began).
Q_NAMES=()
declare -A Q_SQL Q_WORKERS Q_LABEL Q_FMT Q_CHECK Q_PD Q_PRE
bench_query() {
	Q_NAMES+=("$1")
	Q_WORKERS[$1]=$2
	Q_LABEL[$1]=$3
	Q_SQL[$1]=$4
	Q_FMT[$1]=${5:-default}
	Q_CHECK[$1]=${6:-report}
	Q_PD[$1]=${7:-$([ "${5:-default}" = default ] && echo pd_raw || echo "pd_$5")}
}
REPORT_SQL="SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM access_log))"
bench_query floor 0 "floor: count(line), serial" "SELECT count(line) FROM access_log" default count
bench_query floor_par 2 "count(line), 2 workers (the scan alone, in parallel)" "SELECT count(line) FROM access_log" default count
bench_query logp95 0 "logp95 report, serial" "$REPORT_SQL"
bench_query logp95_par 2 "logp95 report, 2 workers" "$REPORT_SQL"
bench_query logp95_nopf 0 "logp95 report, serial, prefetch_distance = 0" "$REPORT_SQL"
Q_PRE[logp95_nopf]="SET logp95.prefetch_distance = 0;"
if [ -n "${LP_BENCH_PREFETCH_TRY:-}" ]; then
	for d in $LP_BENCH_PREFETCH_TRY; do
		bench_query "logp95_pf$d" 0 "logp95 report, serial, prefetch_distance = $d" "$REPORT_SQL"
		Q_PRE[logp95_pf$d]="SET logp95.prefetch_distance = $d;"
	done
fi
bench_query logp95_pairs 0 "logp95_agg(route, latency) on access_parsed, serial" \
	"SELECT * FROM logp95_report((SELECT logp95_agg(route, latency) FROM access_parsed))"
bench_query pd_raw 0 "split_part + percentile_disc, raw lines, serial" \
	"SELECT split_part(line, ' ', 3) AS route, percentile_disc(0.95) WITHIN GROUP (ORDER BY split_part(line, ' ', 4)::bigint) AS p95 FROM access_log GROUP BY 1" default disc
bench_query pd_parsed 0 "percentile_disc on access_parsed, serial" \
	"SELECT route, percentile_disc(0.95) WITHIN GROUP (ORDER BY latency) AS p95 FROM access_parsed GROUP BY route" default disc
bench_query tdigest 0 "tdigest_percentile(latency, 100, 0.95) on access_parsed, serial" \
	"SELECT route, tdigest_percentile(latency, 100, 0.95) AS p95 FROM access_parsed GROUP BY route" default estimate

# Each other format: its table's floor, the report serial and with 2 workers,
# and percentile_disc over the plain-SQL parse of the same lines.
for f in $FORMATS; do
	[ "$f" = default ] && continue
	t=${F_TABLE[$f]}
	fl=$(bench_floor "$f")
	[ -n "${Q_SQL[$fl]:-}" ] || bench_query "$fl" 0 "floor: count(line), $t, serial" "SELECT count(line) FROM $t" "$f" count
	bench_query "logp95_$f" 0 "logp95 report, $f, serial" \
		"SELECT * FROM logp95_report((SELECT logp95_agg(line, '$f') FROM $t))" "$f"
	bench_query "logp95_${f}_par" 2 "logp95 report, $f, 2 workers" \
		"SELECT * FROM logp95_report((SELECT logp95_agg(line, '$f') FROM $t))" "$f"
	# route templates on (issue 12): the generated query strings hold ids, so
	# templated routes differ from the plain reference: timed, not compared
	# the same without asking for the next rows ahead (logp95.prefetch_distance)
	[ "$f" = combined ] && bench_query "logp95_${f}_nopf" 0 "logp95 report, $f, serial, prefetch_distance = 0" \
		"SELECT * FROM logp95_report((SELECT logp95_agg(line, '$f') FROM $t))" "$f" &&
		Q_PRE[logp95_${f}_nopf]="SET logp95.prefetch_distance = 0;"
	if [ "$f" = combined ] && [ -n "${LP_BENCH_PREFETCH_TRY:-}" ]; then
		for d in $LP_BENCH_PREFETCH_TRY; do
			bench_query "logp95_${f}_pf$d" 0 "logp95 report, $f, serial, prefetch_distance = $d" \
				"SELECT * FROM logp95_report((SELECT logp95_agg(line, '$f') FROM $t))" "$f"
			Q_PRE[logp95_${f}_pf$d]="SET logp95.prefetch_distance = $d;"
		done
	fi
	[ "$f" = combined ] && bench_query "logp95_${f}_tpl" 0 "logp95 report, $f, templates, serial (routes templated: not compared)" \
		"SELECT * FROM logp95_report((SELECT logp95_agg(line, '$f', 'templates') FROM $t))" "$f" none
	bench_query "pd_$f" 0 "regexp/split_part + percentile_disc, $f, serial" \
		"SELECT route, percentile_disc(0.95) WITHIN GROUP (ORDER BY ms) AS p95 FROM (SELECT ${F_ROUTE[$f]} AS route, ${F_MS[$f]} AS ms FROM $t) p GROUP BY route" "$f" disc
done

# LP_BENCH_ONLY: an extended regular expression; only the queries whose
# names match it are timed and checked (the floors always are).
if [ -n "${LP_BENCH_ONLY:-}" ]; then
	kept=()
	for q in "${Q_NAMES[@]}"; do
		if [[ $q =~ ^floor || $q =~ ^(${LP_BENCH_ONLY})$ ]]; then kept+=("$q"); fi
	done
	Q_NAMES=("${kept[@]}")
	[[ " ${Q_NAMES[*]} " == *" tdigest "* ]] || HAVE_TD=0
fi

# SET commands that select serial or parallel execution for a query.
bench_settings() {
	if [ "$1" = 0 ]; then
		echo "SET max_parallel_workers_per_gather = 0; RESET parallel_setup_cost; RESET parallel_tuple_cost;"
	else
		echo "SET max_parallel_workers_per_gather = $1; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;"
	fi
}

# Start the cluster with the benchmark's settings and print them.
bench_start() {
	lp_deps
	lp_build_install
	bench_hugepages
	lp_cluster_start "${CONF[@]}"
	trap bench_cleanup EXIT
	lp_say "cluster on $PGHOST port $PGPORT"
	echo "server settings: ${CONF[*]} fsync=off (test/lib/cluster.sh)"
	lp_psql -At -c "SELECT version()"
	echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(uname -sr); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
	if awk -v c="$(nproc)" '{exit !($1 > c / 2)}' /proc/loadavg; then
		echo "*** the machine is busy (load average above half the cores): wall-clock figures will be noisy; cpu_ms and callgrind are steadier"
	fi
	echo "logp95 commit: $(git -C "$LP_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$LP_ROOT" diff --quiet -- src 2>/dev/null || echo ' (src/ has uncommitted changes)')"
	cpu_capacity
}

# How much parallel CPU the machine really gives: the same CPU-bound loop
# alone, then as many copies at once as there are cores.  With n real cores
# the copies take as long as one; on a machine whose cores share one
# physical core (or a one-CPU quota) they take n times as long, and parallel
# query cannot win there whatever the extension does.
cpu_capacity() {
	local n t0 t1 tn i pids=()
	n=$(nproc)
	t0=$(date +%s.%N)
	perl -e 'my $x = 0; $x += $_ * $_ for 1 .. 20_000_000;'
	t1=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}')
	t0=$(date +%s.%N)
	for i in $(seq "$n"); do
		perl -e 'my $x = 0; $x += $_ * $_ for 1 .. 20_000_000;' &
		pids+=($!)
	done
	wait "${pids[@]}"			# not a bare wait: that would wait for the tee of the log too
	tn=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}')
	echo "parallel CPU capacity: one CPU-bound loop ${t1} s, $n copies at once ${tn} s => $(awk -v a="$t1" -v b="$tn" -v n="$n" 'BEGIN {printf "%.2f", n * a / b}') cores' worth of throughput"
}

# Load N generated lines into access_log and the parsed copy into
# access_parsed, and the same lines in each other format of the run into its
# table (access_combined, access_combined_us).
bench_load() {
	local n=$1 t0 t1 t
	t0=$(date +%s.%N)
	lp_psql <<-EOF
		DROP TABLE IF EXISTS access_log, access_parsed;
		CREATE TABLE access_log(line text);
		INSERT INTO access_log SELECT logp95_generate($n, $ROUTES, $SEED);
		$(for t in $(bench_tables); do
			[ "$t" = access_log ] && continue
			echo "DROP TABLE IF EXISTS $t; CREATE TABLE $t(line text);"
			echo "INSERT INTO $t SELECT logp95_generate($n, $ROUTES, $SEED, '$(bench_table_format "$t")');"
			echo "VACUUM ANALYZE $t;"
		done)
		CREATE TABLE access_parsed(route text, latency bigint);
		INSERT INTO access_parsed
			SELECT split_part(line, ' ', 3), split_part(line, ' ', 4)::bigint FROM access_log;
		VACUUM ANALYZE access_log;
		VACUUM ANALYZE access_parsed;
	EOF
	t1=$(date +%s.%N)
	lp_psql -At -F ' ' -c "SELECT 'loaded ' || (SELECT count(*) FROM access_log) || ' lines in ' || round(($t1 - $t0)::numeric, 1) || ' s; access_parsed ' || pg_size_pretty(pg_table_size('access_parsed'))$(for t in $(bench_tables); do
			echo " || '; $t ' || pg_size_pretty(pg_table_size('$t')) || ' (' || (SELECT round(avg(octet_length(line))) FROM (SELECT line FROM $t LIMIT 10000) s) || ' bytes a line)'"
		done)"
}

# ---------------------------------------------------------------------------
# bench mode
# ---------------------------------------------------------------------------

# Check that the parallel query really runs Gather -> Partial Aggregate with 2 workers.
bench_check_parallel_plan() {
	local plan
	plan=$(lp_psql -At -c "$(bench_settings 2)" -c "EXPLAIN (COSTS OFF) ${Q_SQL[logp95_par]}")
	echo "$plan" | sed 's/^/    /'
	if echo "$plan" | grep -q 'Workers Planned: 2' && echo "$plan" | grep -q 'Partial Aggregate'; then
		echo "  parallel plan: ok (Gather, Workers Planned: 2, Partial Aggregate)"
	else
		echo "  parallel plan: NOT PARALLEL -- the 2-worker figure below is not a parallel run"
	fi
}

# Compute the reference per route and every answer once (untimed), then record
# per query whether it equals the exact value: bench_checks(size, query, verdict).
bench_correctness() {
	local n=$1 q f ref report_checks="" disc_checks="" count_checks=""
	for q in "${Q_NAMES[@]}"; do
		ref=$(bench_ref "${Q_FMT[$q]}")
		case ${Q_CHECK[$q]} in
			report)
				report_checks="$report_checks${report_checks:+ UNION ALL }
			SELECT '$q' AS q, count(*) AS total,
				count(*) FILTER (WHERE (r.requests, r.p50_ms, r.p95_ms, r.p99_ms, r.max_ms)
					IS DISTINCT FROM (f.requests, f.p50_ms, f.p95_ms, f.p99_ms, f.max_ms)) AS bad
			FROM res_$q r FULL JOIN $ref f USING (route)" ;;
			disc)
				disc_checks="$disc_checks${disc_checks:+ UNION ALL }
			SELECT '$q' AS q, count(*) AS total,
				count(*) FILTER (WHERE r.p95 IS DISTINCT FROM f.p95_disc) AS bad,
				count(*) FILTER (WHERE r.p95 IS DISTINCT FROM f.p95_ms) AS rule_diff
			FROM res_$q r FULL JOIN $ref f USING (route)" ;;
			count)
				count_checks="$count_checks${count_checks:+ UNION ALL }
			SELECT '$q' AS q, count FROM res_$q" ;;
		esac
	done
	lp_psql <<-EOF
		-- the exact answers, with window functions: the default format from
		-- the parsed fields, every other from its own lines parsed in SQL
		DROP TABLE IF EXISTS ref;
		$(lp_ref_sql ref "SELECT route, latency AS ms FROM access_parsed")
		$(for f in $FORMATS; do
			[ "$f" = default ] && continue
			echo "DROP TABLE IF EXISTS $(bench_ref "$f");"
			lp_ref_sql "$(bench_ref "$f")" "SELECT ${F_ROUTE[$f]} AS route, ${F_MS[$f]} AS ms FROM ${F_TABLE[$f]}"
		done)

		-- every query's answer once, with its own serial or parallel setting
		$(for q in "${Q_NAMES[@]}"; do
			[ "$q" = tdigest ] && [ "$HAVE_TD" != 1 ] && continue
			echo "RESET ALL; $(bench_settings "${Q_WORKERS[$q]}") ${Q_PRE[$q]:-} DROP TABLE IF EXISTS res_$q; CREATE TABLE res_$q AS ${Q_SQL[$q]};"
		done)
		RESET ALL;
		DROP TABLE IF EXISTS st_serial, st_par;
		$(bench_settings 0)
		CREATE TABLE st_serial AS SELECT logp95_agg(line) AS st FROM access_log;
		$(bench_settings 2)
		CREATE TABLE st_par AS SELECT logp95_agg(line) AS st FROM access_log;
		$(bench_settings 0)

		CREATE TABLE IF NOT EXISTS bench_checks(size bigint, query text, verdict text);
		INSERT INTO bench_checks
		SELECT $n, q, CASE WHEN count = $n THEN 'count = ' || count ELSE 'WRONG count ' || count END
		FROM (${count_checks:-SELECT NULL::text AS q, 0::bigint AS count WHERE false}) c;
		-- logp95: every column of the report against the reference of its format
		INSERT INTO bench_checks
		SELECT $n, q, CASE WHEN bad = 0 THEN 'yes: all ' || total || ' routes, p50/p95/p99/max/requests'
			ELSE 'NO: ' || bad || ' of ' || total || ' routes differ' END
		FROM (${report_checks:-SELECT NULL::text AS q, 0::bigint AS total, 0::bigint AS bad WHERE false}) c;
		UPDATE bench_checks SET verdict = verdict ||
			CASE WHEN (SELECT st::text FROM st_serial) = (SELECT st::text FROM st_par)
				THEN '; state = serial state' ELSE '; STATE DIFFERS from serial' END
		WHERE size = $n AND query = 'logp95_par';
		-- percentile_disc: against its own rule, and how often that rule differs from logp95's
		INSERT INTO bench_checks
		SELECT $n, q, CASE WHEN bad = 0 THEN 'yes (own rule, ' || total || ' routes); '
			ELSE 'NO: ' || bad || ' of ' || total || ' routes differ from its own rule; ' END
			|| rule_diff || ' routes differ from logp95 rule'
		FROM (${disc_checks:-SELECT NULL::text AS q, 0::bigint AS total, 0::bigint AS bad, 0::bigint AS rule_diff WHERE false}) c;
		-- the combined references against the default one (same routes and
		-- latencies from the generator; combined_query keeps query strings)
		$(for f in $FORMATS; do
			case $f in default | *_query) continue ;; esac
			echo "INSERT INTO bench_checks SELECT $n, 'ref_$f', CASE WHEN count(*) = 0 THEN 'equals the default reference' ELSE 'DIFFERS from the default reference in ' || count(*) || ' rows' END FROM (SELECT * FROM (TABLE ref EXCEPT ALL TABLE ref_$f) a UNION ALL SELECT * FROM (TABLE ref_$f EXCEPT ALL TABLE ref) b) d;"
		done)
	EOF
	[ "$HAVE_TD" = 1 ] && lp_psql <<-EOF
		-- t-digest: an estimate; how many routes differ and the worst relative error
		INSERT INTO bench_checks
		SELECT $n, 'tdigest', CASE WHEN bad = 0 THEN 'yes: all ' || total || ' routes'
			ELSE 'no: ' || bad || ' of ' || total || ' routes differ, worst rel. error '
				|| round(worst * 100, 2) || '%' END
		FROM (SELECT count(*) AS total,
				count(*) FILTER (WHERE r.p95 IS DISTINCT FROM f.p95_ms::float8) AS bad,
				max(abs(r.p95 - f.p95_ms) / greatest(f.p95_ms, 1))::numeric AS worst
			FROM res_tdigest r FULL JOIN ref f USING (route)) c;
	EOF
	if [ "$n" = "$(bench_largest)" ]; then
		lp_psql -c "DROP TABLE IF EXISTS bench_state; CREATE TABLE bench_state AS SELECT $n::bigint AS size, st FROM st_serial"
	fi
}

# The largest size of the run (state size and memory are measured there).
bench_largest() { printf '%s\n' $SIZES | sort -n | tail -n 1; }

# Time every query round-robin: one warm-up round, then $RUNS rounds; client
# side timing (psql \timing) of SELECT count(s.*) FROM (<query>) s in one session.
# Also the CPU time of that session's backend (first field of
# /proc/<pid>/schedstat, ns on CPU), which other load on the machine barely
# moves; for a parallel query it covers the leader only.
bench_time() {
	local n=$1 r q script=$WORK/time-$1.sql
	{
		echo 'SELECT pg_backend_pid() AS pid \gset'
		echo '\setenv LP_PID :pid'
		echo '\o /dev/null'
	} > "$script"
	for r in $(seq 0 "$RUNS"); do
		for q in "${Q_NAMES[@]}"; do
			{
				echo "\\echo @@ $r $q"
				echo "RESET ALL;"
				bench_settings "${Q_WORKERS[$q]}"
				echo "${Q_PRE[$q]:-}"
				echo "\\! awk '{print \"cpu0 $r $q\", \$1}' /proc/\$LP_PID/schedstat"
				echo '\timing on'
				echo "SELECT count(s.*) FROM (${Q_SQL[$q]}) s;"
				echo '\timing off'
				echo "\\! awk '{print \"cpu1 $r $q\", \$1}' /proc/\$LP_PID/schedstat"
			} >> "$script"
		done
	done
	lp_psql -f "$script" > "$WORK/time-$n.out"
	awk -v n="$n" '
		/^@@ / {r = $2; q = $3}
		/^Time: / {ms[r " " q] = $2; key[r " " q] = 1}
		/^cpu0 / {c0[$2 " " $3] = $4}
		/^cpu1 / {c1[$2 " " $3] = $4}
		END {
			for (k in key) {
				split(k, a, " ")
				printf "%s\t%s\t%s\t%s\t%.3f\n", n, a[2], a[1], ms[k], (c1[k] - c0[k]) / 1e6
			}
		}' "$WORK/time-$n.out" > "$WORK/time-$n.tsv"
	lp_psql -c "CREATE TABLE IF NOT EXISTS bench_times(size bigint, query text, run int, ms float8, cpu_ms float8)" \
		-c "\\copy bench_times FROM '$WORK/time-$n.tsv'"
}

# Print the table of one size.
bench_table() {
	local n=$1 q vals=""
	local i=0
	for q in "${Q_NAMES[@]}"; do
		i=$((i + 1))
		vals="$vals${vals:+, }('$q', '${Q_LABEL[$q]}', $i, '$(bench_floor "${Q_FMT[$q]}")', '${Q_PD[$q]}')"
	done
	echo
	echo "=== $n lines, $ROUTES routes: median of $RUNS runs after 1 warm-up, ms (psql \\timing of SELECT count(s.*) FROM (<query>) s)"
	echo "    best_x_floor: fastest run / fastest floor run (what the code costs when the host does not interfere)"
	echo "    cpu_ms: CPU time of the backend (leader only for '2 workers'); cpu_x_floor: the same ratio by CPU time"
	echo "    the floor of a query is count(line) of the table it reads; speedup_vs_pd: over percentile_disc on a plain-SQL parse of the same lines"
	lp_psql -P footer=off <<-EOF
		WITH q(name, label, ord, floor, pd) AS (VALUES $vals),
		m AS (SELECT query, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS med,
				percentile_cont(0.5) WITHIN GROUP (ORDER BY cpu_ms) AS cpu,
				min(ms) AS lo, max(ms) AS hi, count(*) AS runs
			FROM bench_times WHERE size = $n AND run > 0 GROUP BY query)
		SELECT q.label AS query, round(m.med::numeric, 1) AS median_ms,
			round(m.lo::numeric, 1) || '..' || round(m.hi::numeric, 1) AS range_ms,
			round((m.med / fl.med)::numeric, 2) AS x_floor,
			round((m.lo / fl.lo)::numeric, 2) AS best_x_floor,
			round((pd.med / m.med)::numeric, 1) AS speedup_vs_pd,
			round(m.cpu::numeric, 1) AS cpu_ms,
			round((m.cpu / fl.cpu)::numeric, 2) AS cpu_x_floor,
			c.verdict AS exact
		FROM q JOIN m ON m.query = q.name
		LEFT JOIN m fl ON fl.query = q.floor
		LEFT JOIN m pd ON pd.query = q.pd
		LEFT JOIN bench_checks c ON c.size = $n AND c.query = q.name
		ORDER BY q.ord;
	EOF
	lp_psql -At -F ': ' -c "SELECT '  reference of ' || substr(query, 5), verdict FROM bench_checks WHERE size = $n AND query LIKE 'ref\_%' ORDER BY query"
}

# Time the steps of a psql script: bench_steps what runs, reading lines
# "label<TAB>step<TAB>SQL" on stdin; each run runs every label's steps in
# order (labels interleaved, one warm-up run 0), psql \timing per step
# (a step of several statements: their sum), serial.
# Stores (what, label, step, run, ms) in bench_steps and prints, per label,
# the median and fastest total and the median of each step.
bench_steps() {
	local what=$1 runs=$2 r label step sql script=$WORK/steps-$1.sql lines=()
	mapfile -t lines
	{
		echo '\o /dev/null'
		echo 'SET max_parallel_workers_per_gather = 0;'	# every step serial
	} > "$script"
	for r in $(seq 0 "$runs"); do
		for l in "${lines[@]}"; do
			IFS=$'\t' read -r label step sql <<< "$l"
			{
				echo "\\echo @@ $r $label $step"
				echo '\timing on'
				echo "$sql"
				echo '\timing off'
			} >> "$script"
		done
	done
	lp_psql -f "$script" > "$WORK/steps-$what.out"
	awk -v w="$what" '
		/^@@ / {k = $2 "\t" $3 "\t" $4; n++}
		/^Time: / {print w "\t" k "\t" $2 "\t" n}' "$WORK/steps-$what.out" |
		awk -F '\t' '{print $1 "\t" $3 "\t" $4 "\t" $2 "\t" $5 "\t" $6}' > "$WORK/steps-$what.tsv"
	lp_psql -c "CREATE TABLE IF NOT EXISTS bench_steps(what text, label text, step text, run int, ms float8, ord int)" \
		-c "\\copy bench_steps FROM '$WORK/steps-$what.tsv'"
	lp_psql -P footer=off <<-EOF
		WITH t AS (SELECT label, run, sum(ms) AS ms FROM bench_steps WHERE what = '$what' AND run > 0 GROUP BY 1, 2),
		st AS (SELECT label, string_agg(step || ' ' || round(med::numeric, 1), ', ' ORDER BY ord) AS steps
			FROM (SELECT label, step, min(ord) AS ord,
					percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS med
				FROM (SELECT label, step, run, min(ord) AS ord, sum(ms) AS ms
					FROM bench_steps WHERE what = '$what' AND run > 0 GROUP BY 1, 2, 3) r
				GROUP BY 1, 2) x GROUP BY 1)
		SELECT t.label, round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1) AS median_ms,
			round(min(ms)::numeric, 1) AS fastest_ms, st.steps AS median_ms_by_step
		FROM t JOIN st USING (label) GROUP BY t.label, st.steps ORDER BY min(t.run), t.label;
	EOF
}

# logp95_merge throughput: MERGE_STATES hourly states of 300 routes (3,000
# generated lines each, seeds 1..MERGE_STATES: about 290 of the 300 routes
# in each), merged serially; checked against the report of all their lines.
bench_merge() {
	local k=$MERGE_STATES
	[ "$k" -gt 0 ] || return 0
	echo
	echo "=== logp95_merge: $k hourly states of $ROUTES routes (3,000 lines each), serial, median of $RUNS runs"
	lp_psql <<-EOF
		$(bench_settings 0)
		DROP TABLE IF EXISTS bench_hourly, merge_ref, merge_res;
		CREATE TABLE bench_hourly AS
			SELECT h, (SELECT logp95_agg(l) FROM logp95_generate(3000, $ROUTES, h) l) AS state
			FROM generate_series(1, $k) h;
		VACUUM ANALYZE bench_hourly;
		CREATE TABLE merge_ref AS SELECT * FROM logp95_report((SELECT logp95_agg(l)
			FROM generate_series(1, $k) h, logp95_generate(3000, $ROUTES, h) l));
		CREATE TABLE merge_res AS SELECT * FROM logp95_report((SELECT logp95_merge(state) FROM bench_hourly));
	EOF
	lp_psql -At -c "SELECT '  states: ' || count(*) || ', ' || round(avg((SELECT count(*) FROM logp95_report(state)))) || ' routes each on average, '
			|| pg_size_pretty(sum(pg_column_size(state))) || ' stored; merged report '
			|| CASE WHEN (SELECT count(*) FROM (TABLE merge_ref EXCEPT ALL TABLE merge_res) a) = 0
				AND (SELECT count(*) FROM (TABLE merge_res EXCEPT ALL TABLE merge_ref) b) = 0
				THEN 'equals the report of all ' || 3000 * count(*) || ' lines (exact)' ELSE 'DIFFERS from the report of all lines' END
		FROM bench_hourly"
	printf '%s\t%s\t%s\n' \
		merge merge "SELECT count(s.*) FROM (SELECT logp95_merge(state) FROM bench_hourly) s;" \
		merge_report merge+report "SELECT count(s.*) FROM logp95_report((SELECT logp95_merge(state) FROM bench_hourly)) s;" |
		bench_steps merge "$RUNS"
	lp_psql -At -c "SELECT '  logp95_merge: ' || round($k / (percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) / 1000))
			|| ' states/s by median, ' || round($k / (min(ms) / 1000)) || ' by the fastest run'
		FROM (SELECT run, sum(ms) AS ms FROM bench_steps WHERE what = 'merge' AND label = 'merge' AND run > 0 GROUP BY run) r"
}

# Loading: the generated log written to a file (COPY TO), then COPY FROM
# into a table + the report, against a file_fdw foreign table over the same
# file + the report; both reports checked against the report of the same
# lines from the generator.
bench_loading() {
	local n f=combined file
	[ -n "$LOAD_SIZES" ] || return 0
	case " $FORMATS " in *" combined "*) ;; *) f=default ;; esac
	if ! lp_psql -c "CREATE EXTENSION IF NOT EXISTS file_fdw" > "$WORK/fdw.err" 2>&1; then
		cat "$WORK/fdw.err"
		echo "*** file_fdw is not available: loading comparison SKIPPED"
		return 0
	fi
	for n in $LOAD_SIZES; do
		file=$LP_TMP/access-$n.log
		echo
		echo "=== loading $n $f lines: COPY FROM a file into a table + report vs file_fdw over the file + report, serial, median of $RUNS runs"
		lp_psql <<-EOF
			COPY (SELECT logp95_generate($n, $ROUTES, $SEED, '$f')) TO '$file'
				WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02');
			DROP SERVER IF EXISTS bench_files CASCADE;
			CREATE SERVER bench_files FOREIGN DATA WRAPPER file_fdw;
			CREATE FOREIGN TABLE log_fdw(line text) SERVER bench_files
				OPTIONS (filename '$file', format 'csv', delimiter E'\x01', quote E'\x02');
			DROP TABLE IF EXISTS load_ref, load_copy_res, load_fdw_res, load_copy;
			CREATE TABLE load_ref AS SELECT * FROM logp95_report((SELECT logp95_agg(l, '$f') FROM logp95_generate($n, $ROUTES, $SEED, '$f') l));
			CREATE TABLE load_copy(line text);
			COPY load_copy FROM '$file' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02');
			CREATE TABLE load_copy_res AS SELECT * FROM logp95_report((SELECT logp95_agg(line, '$f') FROM load_copy));
			CREATE TABLE load_fdw_res AS SELECT * FROM logp95_report((SELECT logp95_agg(line, '$f') FROM log_fdw));
		EOF
		lp_psql -At -c "SELECT '  file: ' || pg_size_pretty((pg_stat_file('$file')).size) || '; COPY + report '
				|| CASE WHEN (SELECT count(*) FROM (SELECT * FROM (TABLE load_ref EXCEPT ALL TABLE load_copy_res) a
					UNION ALL SELECT * FROM (TABLE load_copy_res EXCEPT ALL TABLE load_ref) b) d) = 0 THEN 'exact' ELSE 'DIFFERS' END
				|| ', file_fdw + report '
				|| CASE WHEN (SELECT count(*) FROM (SELECT * FROM (TABLE load_ref EXCEPT ALL TABLE load_fdw_res) a
					UNION ALL SELECT * FROM (TABLE load_fdw_res EXCEPT ALL TABLE load_ref) b) d) = 0 THEN 'exact' ELSE 'DIFFERS' END
				|| ' (against the report of the generated lines)'"
		printf '%s\t%s\t%s\n' \
			"copy_$n" drop "DROP TABLE IF EXISTS load_copy; CREATE TABLE load_copy(line text);" \
			"copy_$n" copy "COPY load_copy FROM '$file' WITH (FORMAT csv, DELIMITER E'\\x01', QUOTE E'\\x02');" \
			"copy_$n" report "SELECT count(s.*) FROM logp95_report((SELECT logp95_agg(line, '$f') FROM load_copy)) s;" \
			"file_fdw_$n" report "SELECT count(s.*) FROM logp95_report((SELECT logp95_agg(line, '$f') FROM log_fdw)) s;" |
			bench_steps "load_$n" "$RUNS"
		echo "  (copy_$n: drop = DROP + CREATE TABLE, copy = COPY FROM, report = the report over the new table;"
		echo "   file_fdw_$n: the report reading the file in place; the file is in the page cache)"
	done
}

# Peak memory of a query at the largest size: VmHWM of a fresh backend after
# the query minus VmHWM after a count(line) scan of the same table (which maps
# every shared-buffer page of the table into the backend first).
bench_memory() {
	local q hwm0 hwm1
	echo
	echo "=== peak memory at $(bench_largest) lines: backend VmHWM (/proc/<pg_backend_pid()>/status) growth over a count(line) scan, serial"
	for q in logp95 logp95_pairs pd_raw pd_parsed $([ "$HAVE_TD" = 1 ] && echo tdigest); do
		lp_psql -At <<-EOF > "$WORK/mem-$q.out"
			$(bench_settings 0)
			SELECT pg_backend_pid() AS pid \gset
			\setenv LP_PID :pid
			\o /dev/null
			SELECT count(line) FROM access_log;
			SELECT count(s.*) FROM (SELECT count(*) FROM access_parsed) s;
			\o
			\! awk '/VmHWM/ {print "hwm0", \$2}' /proc/\$LP_PID/status
			\o /dev/null
			SELECT count(s.*) FROM (${Q_SQL[$q]}) s;
			\o
			\! awk '/VmHWM/ {print "hwm1", \$2}' /proc/\$LP_PID/status
		EOF
		hwm0=$(awk '$1 == "hwm0" {print $2}' "$WORK/mem-$q.out")
		hwm1=$(awk '$1 == "hwm1" {print $2}' "$WORK/mem-$q.out")
		printf '  %-62s %8s MB  (VmHWM %d -> %d kB)\n' "${Q_LABEL[$q]}" \
			"$(bench_div "$((hwm1 - hwm0))" 1024)" "$hwm0" "$hwm1"
	done
}

# Print the state size at the largest size and the targets of issue 3.
bench_targets() {
	local big
	big=$(bench_largest)
	echo
	echo "=== state at $big lines (stored in a table first)"
	lp_psql -P footer=off -c "SELECT size AS lines, pg_column_size(st) AS pg_column_size_bytes,
		octet_length(st::text) AS text_octet_length,
		(octet_length(st::text) - 2) / 2 AS encoded_bytes FROM bench_state"
	echo
	echo "=== targets of issue 3 (judged on medians; also by backend CPU time and by the fastest run of each query)"
	lp_psql -P footer=off <<-EOF
		WITH s AS (SELECT size, query,
				percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS med,
				percentile_cont(0.5) WITHIN GROUP (ORDER BY cpu_ms) AS cpu,
				min(ms) AS best
			FROM bench_times WHERE run > 0 GROUP BY size, query),
		-- each time target is a ratio num / den of two queries, with bounds lo .. hi
		t(ord, target, nsize, nq, dsize, dq, lo, hi, digits) AS (VALUES
			(1, 'serial report <= 1.5x floor at 400000', 400000, 'logp95', 400000, 'floor', NULL, 1.5, 2),
			(2, 'serial report <= 1.5x floor at 4000000', 4000000, 'logp95', 4000000, 'floor', NULL, 1.5, 2),
			(3, '>= 15x faster than percentile_disc on raw lines at 400000',
				400000, 'pd_raw', 400000, 'logp95', 15, NULL, 1),
			(4, '2 workers >= 1.6x faster than serial at 4000000',
				4000000, 'logp95', 4000000, 'logp95_par', 1.6, NULL, 2),
			(5, 'serial report time 4000000 / 400000 between 8 and 12',
				4000000, 'logp95', 400000, 'logp95', 8, 12, 2)),
		r AS (SELECT t.*, n.med / d.med AS med_x, n.cpu / d.cpu AS cpu_x, n.best / d.best AS best_x
			FROM t LEFT JOIN s n ON n.size = t.nsize AND n.query = t.nq
			LEFT JOIN s d ON d.size = t.dsize AND d.query = t.dq)
		SELECT target, value, result, same_by_backend_cpu, same_by_best_runs FROM (
			SELECT ord, target, coalesce(round(med_x::numeric, digits) || 'x', '-') AS value,
				CASE WHEN med_x IS NULL THEN 'n/a (size not run)'
					WHEN (lo IS NULL OR med_x >= lo) AND (hi IS NULL OR med_x <= hi) THEN 'PASS'
					ELSE 'MISS' END AS result,
				-- a parallel query's CPU time is the leader's only: no ratio
				CASE WHEN 'logp95_par' IN (nq, dq) THEN '-'
					ELSE coalesce(round(cpu_x::numeric, digits) || 'x', '-') END AS same_by_backend_cpu,
				coalesce(round(best_x::numeric, digits) || 'x', '-') AS same_by_best_runs
			FROM r
			UNION ALL
			SELECT 6, 'state pg_column_size at 4000000 < 1 MB',
				coalesce((SELECT pg_column_size(st) || ' bytes' FROM bench_state WHERE size = 4000000), '-'),
				coalesce((SELECT CASE WHEN pg_column_size(st) < 1048576 THEN 'PASS' ELSE 'MISS' END
					FROM bench_state WHERE size = 4000000), 'n/a (size not run)'), '-', '-') x
		ORDER BY ord;
	EOF
}

# The timing run: every size, then memory, state size and targets.
bench_main() {
	local n
	echo "logp95 benchmark, $(date -u '+%Y-%m-%d %H:%M UTC'); sizes: $SIZES; runs: $RUNS (+1 warm-up)"
	bench_start
	lp_psql -c "CREATE EXTENSION logp95"
	# with LP_PG_BINDIR, never install packages into the Debian server's directories
	if { [ -z "${LP_PG_BINDIR:-}" ] && ! lp_apt postgresql-$PG_MAJOR-tdigest > "$WORK/ext.err" 2>&1; } ||
		! lp_psql -c "CREATE EXTENSION tdigest" >> "$WORK/ext.err" 2>&1; then
		cat "$WORK/ext.err"
		echo "*** t-digest (postgresql-$PG_MAJOR-tdigest) could not be installed or created: t-digest SKIPPED"
		HAVE_TD=0
		local keep=() q
		for q in "${Q_NAMES[@]}"; do [ "$q" = tdigest ] || keep+=("$q"); done
		Q_NAMES=("${keep[@]}")
	else
		echo "t-digest: $(lp_psql -At -c "SELECT 'tdigest ' || extversion FROM pg_extension WHERE extname = 'tdigest'")"
	fi
	echo "timing: psql \\timing (client side, one session, result rows not printed) of SELECT count(s.*) FROM (<query>) s;"
	echo "        count(s.*) keeps every output column (count(*) would let the planner drop the percentile aggregates);"
	echo "        rounds interleaved round-robin over all queries; 'serial' = max_parallel_workers_per_gather = 0;"
	echo "        '2 workers' = max_parallel_workers_per_gather = 2, parallel_setup_cost = parallel_tuple_cost = 0"
	for n in $SIZES; do
		echo
		lp_say "size $n: loading"
		bench_load "$n"
		bench_check_parallel_plan
		lp_say "size $n: reference and correctness checks"
		bench_correctness "$n"
		lp_say "size $n: timing"
		bench_time "$n"
		bench_table "$n"
	done
	bench_merge
	bench_loading
	bench_memory
	bench_targets
	echo
	echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) (other processes on the machine add noise; see range_ms)"
}

# The Debian postgres binary is stripped: its static functions appear as raw
# addresses.  Copy stdin to stdout, naming after each such address the nearest
# exported symbol below it (the static function sits after it in the source).
bench_name_addrs() {
	local in=$WORK/annot.in addrs
	cat > "$in"
	addrs=$(grep -oE '0x[0-9a-f]{6,16}' "$in" | sort -u || true)
	if [ -z "$addrs" ]; then
		cat "$in"
		return
	fi
	{
		nm -D --defined-only "$PGBIN/postgres" 2>/dev/null | awk 'NF == 3 {print $1, $3}'
		for a in $addrs; do
			printf '%016x ~%s\n' "$((a))" "$a"
		done
	} | LC_ALL=C sort | awk '$2 !~ /^~/ {sym = $2} $2 ~ /^~/ {print "/postgres/s/" substr($2, 2) "/" substr($2, 2) " (static, after " sym ")/"}' \
		> "$WORK/annot.sed"
	sed -f "$WORK/annot.sed" "$in"
}

# ---------------------------------------------------------------------------
# callgrind mode
# ---------------------------------------------------------------------------

# Run one single-user backend under callgrind; print the Ir total it collected.
bench_callgrind_run() {
	local name=$1 sql=$2
	printf '%s\n' "SELECT logp95_agg(line) IS NOT NULL FROM (SELECT line FROM access_log LIMIT 1) s;" "$sql" \
		> "$LP_TMP/cg-$name.sql"
	lp_as_pg valgrind --tool=callgrind --collect-atstart=no --toggle-collect=standard_ExecutorRun \
		--callgrind-out-file="$LP_TMP/cg-$name.out" \
		"$PGBIN/postgres" --single -D "$LP_TMP/data" -c shared_buffers=64MB -c max_parallel_workers_per_gather=0 \
		-c jit=off postgres < "$LP_TMP/cg-$name.sql" > "$WORK/cg-$name.log" 2>&1
	awk '/^(summary|totals):/ {print $2; exit}' "$LP_TMP/cg-$name.out"
}

# Inclusive Ir of one function in a callgrind run (0 when absent).
bench_callgrind_fn() {
	{ callgrind_annotate --inclusive=yes --threshold=100 "$LP_TMP/cg-$1.out" 2>/dev/null || true; } |
		awk -v f=":$2 [" 'index($0, f) {gsub(",", "", $1); print $1; found = 1; exit} END {if (!found) print 0}'
}

# Instructions per line of the aggregate, and where they go.
bench_callgrind() {
	local ir_floor ir_agg ir_pairs fin_agg fin_pairs
	local tbl=${F_TABLE[$PROF_FORMAT]} agg
	agg=$([ "$PROF_FORMAT" = default ] && echo "logp95_agg(line)" || echo "logp95_agg(line, '$PROF_FORMAT')")
	echo "logp95 callgrind, $(date -u '+%Y-%m-%d %H:%M UTC'); $CG_LINES lines, $ROUTES routes, format $PROF_FORMAT ($tbl)"
	bench_start
	lp_apt valgrind
	lp_psql -c "CREATE EXTENSION logp95"
	bench_load "$CG_LINES"
	lp_psql -c "CHECKPOINT"
	lp_as_pg "$PGBIN/pg_ctl" -D "$LP_TMP/data" -m fast -w stop >/dev/null
	echo "single-user postgres under valgrind --tool=callgrind, collecting inside standard_ExecutorRun only;"
	echo "each run first aggregates 1 line (loads the library and caches), then the measured query"
	lp_say "callgrind: count(line)"
	ir_floor=$(bench_callgrind_run floor "SELECT count(line) FROM $tbl;")
	lp_say "callgrind: $agg"
	ir_agg=$(bench_callgrind_run agg "SELECT $agg IS NOT NULL FROM $tbl;")
	lp_say "callgrind: logp95_agg(route, latency)"
	ir_pairs=$(bench_callgrind_run pairs "SELECT logp95_agg(route, latency) IS NOT NULL FROM access_parsed;")
	echo
	printf '  %-58s %14s %10s\n' "run" "Ir" "Ir/line"
	printf '  %-58s %14d %10s\n' "SELECT count(line) FROM $tbl" "$ir_floor" "$(bench_div "$ir_floor" "$CG_LINES")"
	printf '  %-58s %14d %10s\n' "SELECT $agg FROM $tbl" "$ir_agg" "$(bench_div "$ir_agg" "$CG_LINES")"
	printf '  %-58s %14d %10s\n' "SELECT logp95_agg(route, latency) FROM access_parsed" "$ir_pairs" "$(bench_div "$ir_pairs" "$CG_LINES")"
	fin_agg=$(bench_callgrind_fn agg logp95_final)
	fin_pairs=$(bench_callgrind_fn pairs logp95_final)
	echo
	printf '  instructions per line of %s over count(line): %s\n' "$agg" "$(bench_div "$((ir_agg - ir_floor))" "$CG_LINES")"
	printf '    of which the final function (sort + encode the state once, %d Ir): %s per line at %d lines\n' \
		"$fin_agg" "$(bench_div "$fin_agg" "$CG_LINES")" "$CG_LINES"
	printf '    transition only (without logp95_final): %s per line\n' "$(bench_div "$((ir_agg - fin_agg - ir_floor))" "$CG_LINES")"
	printf '  instructions per line of logp95_agg(route, latency) on access_parsed over count(line) on %s: %s\n' "$tbl" \
		"$(bench_div "$((ir_pairs - ir_floor))" "$CG_LINES")"
	printf '    transition only (without logp95_final, %d Ir): %s per line\n' "$fin_pairs" \
		"$(bench_div "$((ir_pairs - fin_pairs - ir_floor))" "$CG_LINES")"
	printf '  %s / count(line) in instructions: %sx (without the final function: %sx)\n' "$agg" \
		"$(bench_div "$ir_agg" "$ir_floor" 2)" "$(bench_div "$((ir_agg - fin_agg))" "$ir_floor" 2)"
	echo
	echo "=== top functions by Ir (self), $agg run"
	echo "    (the Debian postgres binary is stripped: its static functions show as addresses)"
	{ callgrind_annotate --threshold=99 "$LP_TMP/cg-agg.out" 2>/dev/null || true; } |
		sed -n '/^Ir  *file:function/,$p' | sed -n '3,30p' | bench_name_addrs
	echo
	echo "=== top functions by Ir, inclusive, $agg run"
	{ callgrind_annotate --inclusive=yes --threshold=99 "$LP_TMP/cg-agg.out" 2>/dev/null || true; } |
		sed -n '/^Ir  *file:function/,$p' | sed -n '3,22p' | bench_name_addrs
}

# ---------------------------------------------------------------------------
# profile mode
# ---------------------------------------------------------------------------

# perf record -g of the backend during the serial report query.
bench_profile() {
	local pid data=$WORK/perf.data i client q=logp95
	[ "$PROF_FORMAT" = default ] || q=logp95_$PROF_FORMAT
	echo "logp95 profile, $(date -u '+%Y-%m-%d %H:%M UTC'); $PROF_LINES lines, $ROUTES routes"
	if ! perf record -q -o "$WORK/probe.data" -- true >/dev/null 2>&1; then
		echo "*** perf record is not permitted here (perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)); falling back to callgrind"
		LP_CALLGRIND_LINES=$CG_LINES bench_callgrind
		return
	fi
	bench_start
	lp_psql -c "CREATE EXTENSION logp95"
	bench_load "$PROF_LINES"
	if perf stat -e cycles true 2>&1 | grep -q 'not supported'; then
		echo "perf: no hardware counters in this sandbox; sampling the cpu-clock software event"
	fi
	# the backend waits 1 s (time to attach), then runs the report 3 times
	PGAPPNAME=logp95_profile lp_psql -c "SELECT pg_sleep(1)" \
		-c "$(bench_settings 0) SELECT count(s.*) FROM (${Q_SQL[$q]}) s" \
		-c "$(bench_settings 0) SELECT count(s.*) FROM (${Q_SQL[$q]}) s" \
		-c "$(bench_settings 0) SELECT count(s.*) FROM (${Q_SQL[$q]}) s" >/dev/null &
	client=$!
	for i in $(seq 1 50); do
		pid=$(lp_psql -At -c "SELECT pid FROM pg_stat_activity WHERE application_name = 'logp95_profile'")
		[ -n "$pid" ] && break
		sleep 0.1
	done
	perf record -e cpu-clock -g -p "$pid" -o "$data" >/dev/null 2>"$WORK/perf.err" || cat "$WORK/perf.err"
	wait "$client"
	echo "perf record -e cpu-clock -g -p <backend> during 3 serial runs of: ${Q_SQL[$q]}"
	echo "(the Debian postgres binary is stripped: its static functions show as addresses)"
	echo
	echo "=== by shared object"
	{ perf report -i "$data" --stdio --no-children --sort dso -g none 2>/dev/null || true; } |
		grep -v -e '^#' -e '^$' | sed -n '1,8p'
	echo
	echo "=== top 25: perf report --stdio --no-children"
	{ perf report -i "$data" --stdio --no-children --sort dso,symbol -g none 2>/dev/null || true; } |
		grep -v -e '^#' -e '^$' | sed -E 's/[[:space:]]+-[[:space:]]+-[[:space:]]*$//' | sed -n '1,25p' | bench_name_addrs
	echo
	echo "=== call chains (entries >= 3%, chains >= 1%; postgres is built without frame pointers, so chains through it are partial)"
	{ perf report -i "$data" --stdio --no-children --sort dso,symbol --percent-limit 3 -g caller,1,callee 2>/dev/null || true; } |
		grep -v -e '^#' -e '^$' | sed -E 's/[[:space:]]+-[[:space:]]+-[[:space:]]*$//' | sed -n '1,80p' | bench_name_addrs
	# LP_PROFILE_ANNOTATE=<symbol>: where in that function the samples fell
	if [ -n "${LP_PROFILE_ANNOTATE:-}" ]; then
		echo
		echo "=== perf annotate $LP_PROFILE_ANNOTATE (instructions with 0.5 % of its samples or more)"
		{ perf annotate -i "$data" --stdio -s "$LP_PROFILE_ANNOTATE" 2>/dev/null || true; } |
			awk -F: '$1 ~ /^ *[0-9]+\.[0-9]+ *$/ && $1 + 0 >= 0.5'
	fi
}

case "$MODE" in
	bench) bench_main ;;
	callgrind) bench_callgrind ;;
	profile) bench_profile ;;
esac
echo
echo "output saved to $LOG"
