#!/usr/bin/env bash
# test/bench/stype.sh -- logp95_agg's transition type: logp95_state (1.1) against internal (1.0), side by side
#
#   test/bench/stype.sh                    # 400,000 and 4,000,000 lines, 9 rounds
#   LP_PG_BINDIR=/opt/pg15c/usr/lib/postgresql/15/bin test/bench/stype.sh   # another installation
#
# Settings (environment): LP_BENCH_SIZES, LP_BENCH_RUNS as in bench.sh.
# Builds and installs logp95 into the installation, starts a throwaway
# cluster with bench.sh's settings, creates test/bench/internal_agg.sql (1.0's
# aggregates over the C functions the library keeps) and times, rounds
# interleaved, the report over logp95_agg and over logp95_agg_internal,
# serial and with 2 workers, plus logp95_agg(route, latency).  Checks first
# that both give the same bytes.  A benchmark: asserts nothing.
set -euo pipefail
. "$(dirname "$0")/../lib/cluster.sh"
cd "$LP_ROOT"
SIZES=${LP_BENCH_SIZES:-400000 4000000}
RUNS=${LP_BENCH_RUNS:-9}
export PGOPTIONS="-c client_min_messages=warning"
CONF=(shared_buffers=2GB work_mem=256MB jit=off max_parallel_workers_per_gather=2
	max_worker_processes=8 max_parallel_workers=8 huge_pages=off)
WORK=$(mktemp -d /tmp/logp95-stype.XXXXXX)
trap 'lp_cluster_stop; rm -rf "$WORK"' EXIT

lp_build_install
lp_cluster_start "${CONF[@]}"
trap 'lp_cluster_stop; rm -rf "$WORK"' EXIT
lp_psql -At -c "SELECT version()"
echo "machine: $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); logp95 $(git rev-parse --short HEAD)$(git diff --quiet -- src || echo ' (+ uncommitted src)')"
lp_psql -c "CREATE EXTENSION logp95" -f test/bench/internal_agg.sql

ser="SET max_parallel_workers_per_gather = 0;"
par="SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;"
NAMES=(new_ser old_ser new_par old_par new_pairs old_pairs)
declare -A SQL=(
	[new_ser]="$ser SELECT count(s.*) FROM logp95_report((SELECT logp95_agg(line) FROM access_log)) s"
	[old_ser]="$ser SELECT count(s.*) FROM logp95_report((SELECT logp95_agg_internal(line) FROM access_log)) s"
	[new_par]="$par SELECT count(s.*) FROM logp95_report((SELECT logp95_agg(line) FROM access_log)) s"
	[old_par]="$par SELECT count(s.*) FROM logp95_report((SELECT logp95_agg_internal(line) FROM access_log)) s"
	[new_pairs]="$ser SELECT count(s.*) FROM logp95_report((SELECT logp95_agg(route, latency) FROM access_parsed)) s"
	[old_pairs]="$ser SELECT count(s.*) FROM logp95_report((SELECT logp95_agg_internal(route, latency) FROM access_parsed)) s"
)
for n in $SIZES; do
	lp_psql <<-EOF
		DROP TABLE IF EXISTS access_log, access_parsed;
		CREATE TABLE access_log(line text);
		INSERT INTO access_log SELECT logp95_generate($n, 300, 42);
		CREATE TABLE access_parsed AS SELECT split_part(line, ' ', 3) AS route, split_part(line, ' ', 4)::bigint AS latency FROM access_log;
		VACUUM ANALYZE access_log; VACUUM ANALYZE access_parsed;
	EOF
	echo "== $n lines: same bytes (serial, parallel, pairs): $(lp_psql -At -c "$ser" -c "SELECT (SELECT logp95_agg(line) FROM access_log)::text = (SELECT logp95_agg_internal(line) FROM access_log)::text" \
		-c "$par" -c "SELECT (SELECT logp95_agg(line) FROM access_log)::text = (SELECT logp95_agg_internal(line) FROM access_log)::text" \
		-c "SELECT (SELECT logp95_agg(route, latency) FROM access_parsed)::text = (SELECT logp95_agg_internal(route, latency) FROM access_parsed)::text" | tr '\n' ' ')"
	echo "   parallel plan: $(lp_psql -At -c "$par" -c "EXPLAIN (COSTS OFF) SELECT logp95_agg(line) FROM access_log" | grep -c -e 'Workers Planned: 2' -e 'Partial Aggregate') of 2 markers"
	: > "$WORK/s.sql"
	for r in $(seq 0 "$RUNS"); do
		for q in "${NAMES[@]}"; do
			printf '%s\n' "\\echo @@ $r $q" "${SQL[$q]%%SELECT count*}" '\timing on' "SELECT ${SQL[$q]#*SELECT };" '\timing off' >> "$WORK/s.sql"
		done
	done
	lp_psql -o /dev/null -f "$WORK/s.sql" | awk -v n="$n" '
		/^@@ / {r = $2; q = $3}
		/^Time: / && r > 0 {t[q] = t[q] " " $2}
		END {for (q in t) print n, q, t[q]}' > "$WORK/t.txt"
	printf '   %-10s %9s %9s   %s\n' query median_ms fastest all_ms
	for q in "${NAMES[@]}"; do
		awk -v q="$q" '$2 == q {for (i = 3; i <= NF; i++) print $i}' "$WORK/t.txt" | sort -n |
			awk -v q="$q" '{a[++m] = $1; s = s sprintf(" %.0f", $1)}
				END {med = (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2;
					printf "   %-10s %9.0f %9.0f  %s\n", q, med, a[1], s}'
	done
done
