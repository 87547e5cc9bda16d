#!/usr/bin/env bash
# test/bench/formats_sql.sh -- every preset, definition and JSON format beside combined, in SQL (issue 23)
#
#   sudo test/bench/formats_sql.sh        # or: sudo test/bench/bench.sh formats
#   LP_PG_BINDIR=/opt/pg18-x/bin test/bench/formats_sql.sh   # another installation
#
# Settings (environment):
#   LP_FORMATS_LINES=400000      lines of each format's table
#   LP_BENCH_RUNS=7              timed runs of each query (rounds interleaved)
#   LP_FORMATS_ONLY='alb|caddy'  time only the formats so named (a regular
#                                expression over formats_driver --list's names)
#
# formats_driver (formats_driver.c) writes the same requests in every
# format's layout (--write); each goes into a table of its own, and the
# serial report of each table, logp95_report((SELECT logp95_agg(line,
# format) FROM t)), is timed in rounds with the combined table's.  The
# formats are reachable from SQL once the format argument takes them
# (logp95_parse and logp95_agg with 'haproxy', 'nginx:...'): until then
# the run says so and skips them; a format whose lines do not all parse
# (logp95_parse(line, format) has a problem) is skipped with a line.
# Printed: each format's median ms, its bytes a line, and its ratio to
# combined's median of the same rounds; then the median of count(line) on
# the same table in the same rounds (the floor: the scan alone, dearer for
# longer lines), the report's median less it, and that against combined's.
# A benchmark: it asserts nothing and exits 0 once it has printed.
set -euo pipefail
. "$(dirname "$0")/../lib/cluster.sh"
cd "$LP_ROOT"

LINES=${LP_FORMATS_LINES:-400000}
RUNS=${LP_BENCH_RUNS:-7}
ONLY=${LP_FORMATS_ONLY:-.}
export PGOPTIONS="-c client_min_messages=warning"
CONF=(shared_buffers=2GB work_mem=64MB jit=off max_parallel_workers_per_gather=0 huge_pages=off)

OUTDIR=$LP_ROOT/test/bench/out
mkdir -p "$OUTDIR"
LOG=$OUTDIR/formats-$(date +%Y%m%d-%H%M%S).txt
exec > >(tee "$LOG") 2>&1

WORK=$(mktemp -d /tmp/logp95-formats-bench.XXXXXX)
chmod 755 "$WORK"
trap 'lp_cluster_stop; rm -rf "$WORK"' EXIT

make -s -C "$LP_ROOT/test/bench" formats_driver
DRIVER=$LP_ROOT/test/bench/formats_driver
lp_deps
lp_build_install
lp_cluster_start "${CONF[@]}"
trap 'lp_cluster_stop; rm -rf "$WORK"' EXIT
echo "logp95 formats benchmark, $(date -u '+%Y-%m-%d %H:%M UTC'); $LINES lines a format, runs: $RUNS"
lp_psql -At -c "SELECT version()"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "logp95 commit: $(git -C "$LP_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
lp_psql -c "CREATE EXTENSION logp95"

if ! lp_psql -At -c "SELECT count(*) FROM logp95_parse('x', 'haproxy')" >/dev/null 2>&1; then
	echo "formats: skipped: logp95_parse(line, 'haproxy') is not there yet (the new formats are not reachable from SQL in this build)"
	exit 0
fi

# the formats and their SQL format arguments, into a table (no tab or backslash in them)
"$DRIVER" --list > "$WORK/formats.tsv"
lp_psql -c "CREATE TABLE fmts(name text PRIMARY KEY, fmt text NOT NULL)"
lp_psql -c "\\copy fmts FROM '$WORK/formats.tsv'"

# each format's lines into t_<name> (a delimiter that no line holds: CloudFront's are tab-separated)
names=()
while IFS=$'\t' read -r name fmt; do
	[ "$name" = combined ] || [[ "$name" =~ $ONLY ]] || continue
	tbl="t_${name//-/_}"
	"$DRIVER" --write "$LINES" "$name" > "$WORK/lines"
	lp_psql -c "CREATE TABLE $tbl(line text)" -c "\\copy $tbl FROM '$WORK/lines' WITH (DELIMITER E'\\x01')" \
		-c "VACUUM ANALYZE $tbl"
	bad=$(lp_psql -At -c "SELECT count(*) FILTER (WHERE p.problem IS NOT NULL) || ' ' || coalesce(min(p.problem), '')
		FROM $tbl, fmts, LATERAL logp95_parse(line, fmts.fmt) p WHERE fmts.name = '$name'" 2>&1) || bad="error $bad"
	if [ "${bad%% *}" != 0 ]; then
		echo "formats: $name skipped: its lines do not all parse in SQL ($bad)"
		lp_psql -c "DROP TABLE $tbl"
		continue
	fi
	names+=("$name")
done < "$WORK/formats.tsv"

# the serial report of one format's table, and its floor (count(line): the
# scan of the same lines, which longer lines make dearer): wall ms, one line
# each.  Each pair runs in a session of its own, which first reads the table
# once untimed: a new backend's first read of each shared buffer costs it a
# page fault (about 1.5 us a 4 kB page here, 20-90 ms a table), which would
# otherwise fall on the report alone, the floor coming after it.
timed() {
	lp_psql -At <<-SQL | awk '/^Time: / {print $2}'
		SELECT fmt AS fmt FROM fmts WHERE name = '$1' \gset
		\o /dev/null
		SELECT count(line) FROM t_${1//-/_};
		\timing on
		SELECT count(*) FROM logp95_report((SELECT logp95_agg(line, :'fmt') FROM t_${1//-/_}));
		SELECT count(line) FROM t_${1//-/_};
		\timing off
	SQL
}

declare -A T F
for ((r = 0; r < RUNS + 1; r++)); do
	for name in "${names[@]}"; do
		ms=$(timed "$name")
		[ "$r" = 0 ] && continue	# round 0 warms up
		T[$name]="${T[$name]:-} $(echo "$ms" | sed -n 1p)"
		F[$name]="${F[$name]:-} $(echo "$ms" | sed -n 2p)"
	done
done
median() { printf '%s\n' $1 | sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
cmed=$(median "${T[combined]}")
cfloor=$(median "${F[combined]}")
# over floor: the report's median less its floor's, against combined's the same way
printf '%-16s %8s %10s %8s %9s %10s %8s\n' format bytes "median ms" "x combined" "floor ms" "over floor" "x combined"
for name in "${names[@]}"; do
	bytes=$(lp_psql -At -c "SELECT round(avg(octet_length(line)), 1) FROM t_${name//-/_}")
	m=$(median "${T[$name]}")
	f=$(median "${F[$name]}")
	awk -v n="$name" -v b="$bytes" -v m="$m" -v cm="$cmed" -v f="$f" -v cf="$cfloor" 'BEGIN {
		printf "%-16s %8s %10s %7.2fx %9s %10.3f %7.2fx\n", n, b, m, m / cm, f, m - f, (m - f) / (cm - cf) }'
done
