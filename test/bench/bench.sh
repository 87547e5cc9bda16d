#!/usr/bin/env bash
# test/bench/bench.sh -- benchmark and profiling harness for logp95 (issue 3)
#
#   sudo test/bench/bench.sh              # timings at 400,000 and 4,000,000 lines, targets
#   sudo test/bench/bench.sh callgrind    # instructions per line under valgrind (50,000 lines)
#   sudo test/bench/bench.sh profile      # perf record -g of the report query at 4,000,000 lines
#
# Settings (environment):
#   LP_BENCH_SIZES="400000 4000000"   line counts of the timing run
#   LP_BENCH_RUNS=7                   timed runs per query (after one warm-up round)
#   LP_CALLGRIND_LINES=50000          lines of the callgrind run
#   LP_PROFILE_LINES=4000000          lines of the profile run
#   LP_BENCH_HUGEPAGES=1              run the server with huge_pages = on: reserves
#                                     vm.nr_hugepages for shared_buffers for the run
#                                     and puts the old value back at the end (root)
#
# Every run starts its own throwaway cluster (test/lib/cluster.sh) and stops it
# at the end.  Everything printed is also written to test/bench/out/.
# This is a benchmark, not a test: it asserts nothing and always exits 0 once
# it has printed its figures.
set -euo pipefail
. "$(dirname "$0")/../lib/cluster.sh"
cd "$LP_ROOT"

MODE=${1:-bench}
SIZES=${LP_BENCH_SIZES:-400000 4000000}
RUNS=${LP_BENCH_RUNS:-7}
CG_LINES=${LP_CALLGRIND_LINES:-50000}
PROF_LINES=${LP_PROFILE_LINES:-4000000}
ROUTES=300
SEED=42

case "$MODE" in
	bench | callgrind | profile) ;;
	*)
		echo "usage: $0 [bench|callgrind|profile]" >&2
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

# The timed queries, in the order of the tables: bench_query name workers
# label SQL (workers: max_parallel_workers_per_gather for it).
Q_NAMES=()
declare -A Q_SQL Q_WORKERS Q_LABEL
bench_query() {
	Q_NAMES+=("$1")
	Q_WORKERS[$1]=$2
	Q_LABEL[$1]=$3
	Q_SQL[$1]=$4
}
REPORT_SQL="SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM access_log))"
bench_query floor 0 "floor: count(line), serial" "SELECT count(line) FROM access_log"
bench_query floor_par 2 "count(line), 2 workers (the scan alone, in parallel)" "SELECT count(line) FROM access_log"
bench_query logp95 0 "logp95 report, serial" "$REPORT_SQL"
bench_query logp95_par 2 "logp95 report, 2 workers" "$REPORT_SQL"
bench_query logp95_pairs 0 "logp95_agg(route, latency) on access_parsed, serial" \
	"SELECT * FROM logp95_report((SELECT logp95_agg(route, latency) FROM access_parsed))"
bench_query pd_raw 0 "split_part + percentile_disc, raw lines, serial" \
	"SELECT split_part(line, ' ', 3) AS route, percentile_disc(0.95) WITHIN GROUP (ORDER BY split_part(line, ' ', 4)::bigint) AS p95 FROM access_log GROUP BY 1"
bench_query pd_parsed 0 "percentile_disc on access_parsed, serial" \
	"SELECT route, percentile_disc(0.95) WITHIN GROUP (ORDER BY latency) AS p95 FROM access_parsed GROUP BY route"
bench_query tdigest 0 "tdigest_percentile(latency, 100, 0.95) on access_parsed, serial" \
	"SELECT route, tdigest_percentile(latency, 100, 0.95) AS p95 FROM access_parsed GROUP BY route"

# SET commands that select serial or parallel execution for a query.
bench_settings() {
	if [ "$1" = 0 ]; then
		echo "SET max_parallel_workers_per_gather = 0; RESET parallel_setup_cost; RESET parallel_tuple_cost;"
	else
		echo "SET max_parallel_workers_per_gather = $1; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;"
	fi
}

# LP_BENCH_HUGEPAGES=1: reserve 2 MB pages for shared_buffers (2 GB) plus
# the rest of the server's shared memory, and ask for huge_pages = on.  Fresh
# parallel workers then map shared buffers with 2 MB pages instead of
# faulting them in 4 kB at a time.
bench_hugepages() {
	local want=1200 got
	if [ "${LP_BENCH_HUGEPAGES:-0}" != 1 ]; then
		CONF+=(huge_pages=off)	# the same run whatever the machine has reserved
		return 0
	fi
	if [ "$(id -u)" != 0 ]; then
		echo "huge pages: skipped (LP_BENCH_HUGEPAGES=1 needs root to set vm.nr_hugepages)"
		CONF+=(huge_pages=off)
		return 0
	fi
	HUGE_OLD=$(cat /proc/sys/vm/nr_hugepages)
	echo "$want" > /proc/sys/vm/nr_hugepages
	got=$(cat /proc/sys/vm/nr_hugepages)
	if [ "$got" -lt "$want" ]; then
		echo "huge pages: skipped (only $got of $want 2 MB pages could be reserved)"
		echo "$HUGE_OLD" > /proc/sys/vm/nr_hugepages
		HUGE_OLD=
		CONF+=(huge_pages=off)
		return 0
	fi
	CONF+=(huge_pages=on)
	echo "huge pages: vm.nr_hugepages $HUGE_OLD -> $got for this run; huge_pages = on"
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

# Load N generated lines into access_log and the parsed copy into access_parsed.
bench_load() {
	local n=$1 t0 t1
	t0=$(date +%s.%N)
	lp_psql <<-EOF
		DROP TABLE IF EXISTS access_log, access_parsed;
		CREATE TABLE access_log(line text);
		INSERT INTO access_log SELECT logp95_generate($n, $ROUTES, $SEED);
		CREATE TABLE access_parsed(route text, latency bigint);
		INSERT INTO access_parsed
			SELECT split_part(line, ' ', 3), split_part(line, ' ', 4)::bigint FROM access_log;
		VACUUM ANALYZE access_log;
		VACUUM ANALYZE access_parsed;
	EOF
	t1=$(date +%s.%N)
	lp_psql -At -F ' ' -c "SELECT 'loaded ' || (SELECT count(*) FROM access_log) || ' lines in ' || round(($t1 - $t0)::numeric, 1) || ' s; access_log ' || pg_size_pretty(pg_table_size('access_log')) || ', access_parsed ' || pg_size_pretty(pg_table_size('access_parsed'))"
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
	local n=$1 q logp95_checks="" pd_checks=""
	for q in logp95 logp95_pairs logp95_par; do
		logp95_checks="$logp95_checks${logp95_checks:+ UNION ALL }
			SELECT '$q' AS q, count(*) AS total,
				count(*) FILTER (WHERE (r.requests, r.p50_ms, r.p95_ms, r.p99_ms, r.max_ms)
					IS DISTINCT FROM (f.requests, f.p50_ms, f.p95_ms, f.p99_ms, f.max_ms)) AS bad
			FROM res_$q r FULL JOIN ref f USING (route)"
	done
	for q in pd_raw pd_parsed; do
		pd_checks="$pd_checks${pd_checks:+ UNION ALL }
			SELECT '$q' AS q, count(*) AS total,
				count(*) FILTER (WHERE r.p95 IS DISTINCT FROM f.p95_disc) AS bad,
				count(*) FILTER (WHERE r.p95 IS DISTINCT FROM f.p95_ms) AS rule_diff
			FROM res_$q r FULL JOIN ref f USING (route)"
	done
	lp_psql <<-EOF
		-- the exact answers, from the parsed fields with window functions
		DROP TABLE IF EXISTS ref;
		$(lp_ref_sql ref "SELECT route, latency AS ms FROM access_parsed")

		-- every query's answer once, with its own serial or parallel setting
		$(for q in "${Q_NAMES[@]}"; do
			[ "$q" = tdigest ] && [ "$HAVE_TD" != 1 ] && continue
			echo "$(bench_settings "${Q_WORKERS[$q]}") DROP TABLE IF EXISTS res_$q; CREATE TABLE res_$q AS ${Q_SQL[$q]};"
		done)
		DROP TABLE IF EXISTS st_serial, st_par;
		$(bench_settings 0)
		CREATE TABLE st_serial AS SELECT logp95_agg(line) AS st FROM access_log;
		$(bench_settings 2)
		CREATE TABLE st_par AS SELECT logp95_agg(line) AS st FROM access_log;
		$(bench_settings 0)

		CREATE TABLE IF NOT EXISTS bench_checks(size bigint, query text, verdict text);
		INSERT INTO bench_checks
		SELECT $n, q, CASE WHEN count = $n THEN 'count = ' || count ELSE 'WRONG count ' || count END
		FROM (SELECT 'floor' AS q, count FROM res_floor UNION ALL SELECT 'floor_par', count FROM res_floor_par) c;
		-- logp95: every column of the report against the reference
		INSERT INTO bench_checks
		SELECT $n, q, CASE WHEN bad = 0 THEN 'yes: all ' || total || ' routes, p50/p95/p99/max/requests'
			ELSE 'NO: ' || bad || ' of ' || total || ' routes differ' END
		FROM ($logp95_checks) c;
		UPDATE bench_checks SET verdict = verdict ||
			CASE WHEN (SELECT st::text FROM st_serial) = (SELECT st::text FROM st_par)
				THEN '; state = serial state' ELSE '; STATE DIFFERS from serial' END
		WHERE size = $n AND query = 'logp95_par';
		-- percentile_disc: against its own rule, and how often that rule differs from logp95's
		INSERT INTO bench_checks
		SELECT $n, q, CASE WHEN bad = 0 THEN 'yes (own rule, ' || total || ' routes); '
			ELSE 'NO: ' || bad || ' of ' || total || ' routes differ from its own rule; ' END
			|| rule_diff || ' routes differ from logp95 rule'
		FROM ($pd_checks) c;
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
				bench_settings "${Q_WORKERS[$q]}"
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
		vals="$vals${vals:+, }('$q', '${Q_LABEL[$q]}', $i)"
	done
	echo
	echo "=== $n lines, $ROUTES routes: median of $RUNS runs after 1 warm-up, ms (psql \\timing of SELECT count(s.*) FROM (<query>) s)"
	echo "    best_x_floor: fastest run / fastest floor run (what the code costs when the host does not interfere)"
	echo "    cpu_ms: CPU time of the backend (leader only for '2 workers'); cpu_x_floor: the same ratio by CPU time"
	lp_psql -P footer=off <<-EOF
		WITH q(name, label, ord) AS (VALUES $vals),
		m AS (SELECT query, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS med,
				percentile_cont(0.5) WITHIN GROUP (ORDER BY cpu_ms) AS cpu,
				min(ms) AS lo, max(ms) AS hi, count(*) AS runs
			FROM bench_times WHERE size = $n AND run > 0 GROUP BY query)
		SELECT q.label AS query, round(m.med::numeric, 1) AS median_ms,
			round(m.lo::numeric, 1) || '..' || round(m.hi::numeric, 1) AS range_ms,
			round((m.med / fl.med)::numeric, 2) AS x_floor,
			round((m.lo / fl.lo)::numeric, 2) AS best_x_floor,
			round((pd.med / m.med)::numeric, 1) AS speedup_vs_pd_raw,
			round(m.cpu::numeric, 1) AS cpu_ms,
			round((m.cpu / fl.cpu)::numeric, 2) AS cpu_x_floor,
			c.verdict AS exact
		FROM q JOIN m ON m.query = q.name
		CROSS JOIN (SELECT med, cpu, lo FROM m WHERE query = 'floor') fl
		CROSS JOIN (SELECT med FROM m WHERE query = 'pd_raw') pd
		LEFT JOIN bench_checks c ON c.size = $n AND c.query = q.name
		ORDER BY q.ord;
	EOF
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
	if ! lp_apt postgresql-$PG_MAJOR-tdigest > "$WORK/ext.err" 2>&1 ||
		! lp_psql -c "CREATE EXTENSION tdigest" >> "$WORK/ext.err" 2>&1; then
		cat "$WORK/ext.err"
		echo "*** t-digest (postgresql-$PG_MAJOR-tdigest) could not be installed or created: t-digest SKIPPED"
		HAVE_TD=0
		Q_NAMES=(floor logp95 logp95_par logp95_pairs pd_raw pd_parsed)
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
	echo "logp95 callgrind, $(date -u '+%Y-%m-%d %H:%M UTC'); $CG_LINES lines, $ROUTES routes"
	bench_start
	lp_apt valgrind
	lp_psql -c "CREATE EXTENSION logp95"
	bench_load "$CG_LINES"
	lp_psql -c "CHECKPOINT"
	lp_as_pg "$PGBIN/pg_ctl" -D "$LP_TMP/data" -m fast -w stop >/dev/null
	echo "single-user postgres under valgrind --tool=callgrind, collecting inside standard_ExecutorRun only;"
	echo "each run first aggregates 1 line (loads the library and caches), then the measured query"
	lp_say "callgrind: count(line)"
	ir_floor=$(bench_callgrind_run floor "SELECT count(line) FROM access_log;")
	lp_say "callgrind: logp95_agg(line)"
	ir_agg=$(bench_callgrind_run agg "SELECT logp95_agg(line) IS NOT NULL FROM access_log;")
	lp_say "callgrind: logp95_agg(route, latency)"
	ir_pairs=$(bench_callgrind_run pairs "SELECT logp95_agg(route, latency) IS NOT NULL FROM access_parsed;")
	echo
	printf '  %-58s %14s %10s\n' "run" "Ir" "Ir/line"
	printf '  %-58s %14d %10s\n' "SELECT count(line) FROM access_log" "$ir_floor" "$(bench_div "$ir_floor" "$CG_LINES")"
	printf '  %-58s %14d %10s\n' "SELECT logp95_agg(line) FROM access_log" "$ir_agg" "$(bench_div "$ir_agg" "$CG_LINES")"
	printf '  %-58s %14d %10s\n' "SELECT logp95_agg(route, latency) FROM access_parsed" "$ir_pairs" "$(bench_div "$ir_pairs" "$CG_LINES")"
	fin_agg=$(bench_callgrind_fn agg logp95_final)
	fin_pairs=$(bench_callgrind_fn pairs logp95_final)
	echo
	printf '  instructions per line of logp95_agg(line) over count(line): %s\n' "$(bench_div "$((ir_agg - ir_floor))" "$CG_LINES")"
	printf '    of which the final function (sort + encode the state once, %d Ir): %s per line at %d lines\n' \
		"$fin_agg" "$(bench_div "$fin_agg" "$CG_LINES")" "$CG_LINES"
	printf '    transition only (without logp95_final): %s per line\n' "$(bench_div "$((ir_agg - fin_agg - ir_floor))" "$CG_LINES")"
	printf '  instructions per line of logp95_agg(route, latency) on access_parsed over count(line) on access_log: %s\n' \
		"$(bench_div "$((ir_pairs - ir_floor))" "$CG_LINES")"
	printf '    transition only (without logp95_final, %d Ir): %s per line\n' "$fin_pairs" \
		"$(bench_div "$((ir_pairs - fin_pairs - ir_floor))" "$CG_LINES")"
	printf '  logp95_agg(line) / count(line) in instructions: %sx (without the final function: %sx)\n' \
		"$(bench_div "$ir_agg" "$ir_floor" 2)" "$(bench_div "$((ir_agg - fin_agg))" "$ir_floor" 2)"
	echo
	echo "=== top functions by Ir (self), logp95_agg(line) run"
	echo "    (the Debian postgres binary is stripped: its static functions show as addresses)"
	{ callgrind_annotate --threshold=99 "$LP_TMP/cg-agg.out" 2>/dev/null || true; } |
		sed -n '/^Ir  *file:function/,$p' | sed -n '3,30p' | bench_name_addrs
	echo
	echo "=== top functions by Ir, inclusive, logp95_agg(line) run"
	{ callgrind_annotate --inclusive=yes --threshold=99 "$LP_TMP/cg-agg.out" 2>/dev/null || true; } |
		sed -n '/^Ir  *file:function/,$p' | sed -n '3,22p' | bench_name_addrs
}

# ---------------------------------------------------------------------------
# profile mode
# ---------------------------------------------------------------------------

# perf record -g of the backend during the serial report query.
bench_profile() {
	local pid data=$WORK/perf.data i client
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
		-c "$(bench_settings 0) SELECT count(s.*) FROM (${Q_SQL[logp95]}) s" \
		-c "$(bench_settings 0) SELECT count(s.*) FROM (${Q_SQL[logp95]}) s" \
		-c "$(bench_settings 0) SELECT count(s.*) FROM (${Q_SQL[logp95]}) s" >/dev/null &
	client=$!
	for i in $(seq 1 50); do
		pid=$(lp_psql -At -c "SELECT pid FROM pg_stat_activity WHERE application_name = 'logp95_profile'")
		[ -n "$pid" ] && break
		sleep 0.1
	done
	perf record -e cpu-clock -g -p "$pid" -o "$data" >/dev/null 2>"$WORK/perf.err" || cat "$WORK/perf.err"
	wait "$client"
	echo "perf record -e cpu-clock -g -p <backend> during 3 serial runs of: ${Q_SQL[logp95]}"
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
}

case "$MODE" in
	bench) bench_main ;;
	callgrind) bench_callgrind ;;
	profile) bench_profile ;;
esac
echo
echo "output saved to $LOG"
