#!/usr/bin/env bash
# run.sh -- the main job: start a throwaway cluster, load access logs, say what could not be read, print which routes are slow
#
#   sudo ./run.sh                               # a generated 400,000-line / 300-route combined sample
#   sudo ./run.sh access.log                    # your own log, its format detected
#   sudo ./run.sh access.log access.log.2.gz    # several files, .gz ones through zcat, in this order
#   sudo ./run.sh --format combined_us access.log
#   sudo ./run.sh --options templates --min-requests 5 --html report.html access.log
#   sudo ./run.sh --full access.log             # every route, and the full report
#   LP_LINES=4000000 ./run.sh                   # a bigger sample
#
# Options:
#   --format F        the log's format: any format logp95_agg takes (a name
#                     or a definition); without it, detected from the first
#                     1,000 lines (logp95_detect_format)
#   --options O       logp95_agg's per-call options (templates, query, ...);
#                     skip is always added: run.sh counts what fails instead
#   --min-requests N  routes with fewer requests are left out of the slowest
#                     20 (default 20; how many were left out is said)
#   --html FILE       also write a self-contained HTML report (charts drawn
#                     offline with Debian's libjs-chart.js, inlined)
#   --full            every route, whatever its requests, and the full report
#
# Every line is loaded byte for byte into a bytea column, whatever it holds
# (CR, a line "\.", tabs, backslashes, bytes that are not UTF-8), and read
# with logp95's bytea functions; a line ending in CR LF is read without its
# CR.  It prints the format, how many lines could not be read and the five
# most frequent reasons with a sample line each, the log's time span, the
# whole service (requests, per second, 5xx share, p50/p95/p99/max), the 20
# slowest routes by p95 and the latency histogram of the slowest.  It exits
# with 1 when fewer than half the lines could be read, with 2 on a wrong
# option, file, format or option of logp95_agg.
#
# When logp95.so in the server's library directory belongs to a Debian
# package (postgresql-15-logp95), that packaged extension is used, if it is
# this source tree's version; otherwise run.sh says why it cannot and
# installs into a private copy of the server under /var/tmp, never over the
# package's files.
set -euo pipefail
. "$(dirname "$0")/test/lib/cluster.sh"

usage() {
	sed -n '/^# Options:/,/^#   --full/p' "$0" | sed 's/^# \{0,1\}//'
	echo "usage: run.sh [--format F] [--options O] [--min-requests N] [--html FILE] [--full] [FILE ...]"
}
die() { echo "run.sh: $*" >&2; exit 2; }

full=${LP_FULL:-0}
format=
options=
min_requests=20
html=
files=()
while [ $# -gt 0 ]; do
	case $1 in
		--full) full=1 ;;
		--format|--options|--min-requests|--html)
			[ $# -ge 2 ] || die "option $1 needs a value"
			case $1 in
				--format) format=$2 ;;
				--options) options=$2 ;;
				--min-requests) min_requests=$2 ;;
				--html) html=$2 ;;
			esac
			shift ;;
		--format=*) format=${1#*=} ;;
		--options=*) options=${1#*=} ;;
		--min-requests=*) min_requests=${1#*=} ;;
		--html=*) html=${1#*=} ;;
		-h|--help) usage; exit 0 ;;
		--) shift; files+=("$@"); break ;;
		-*) usage >&2; die "unknown option '$1'" ;;
		*) files+=("$1") ;;
	esac
	shift
done
[[ $min_requests =~ ^[0-9]+$ ]] || die "--min-requests takes a whole number, not '$min_requests'"
for f in "${files[@]}"; do
	[ -f "$f" ] && [ -r "$f" ] || die "cannot read log file '$f'"
done
if [ -n "$html" ]; then
	case $html in /*) ;; *) html=$PWD/$html ;; esac
	[ -d "$(dirname "$html")" ] || die "no directory for the HTML report '$html'"
fi

# ---------- the extension: built from source, or the Debian package's ----------

# The version CREATE EXTENSION installs, from a control file.
lp_control_version() { sed -n "s/^default_version = '\(.*\)'/\1/p" "$1" 2>/dev/null; }

# No make install over a Debian package's files: with a packaged logp95.so
# in the server's library directory, use it when it is this tree's version,
# else build into a private copy of the server (as test/run.sh does).
private_root=
lp_extension() {
	local so owner pkgver srcver
	so=$("$PG_CONFIG" --pkglibdir)/logp95.so
	if command -v dpkg >/dev/null && owner=$(dpkg -S "$so" 2>/dev/null); then
		owner=${owner%%:*}
		pkgver=$(lp_control_version "$("$PG_CONFIG" --sharedir)/extension/logp95.control")
		srcver=$(lp_control_version "$LP_ROOT/logp95.control")
		if [ "$pkgver" = "$srcver" ]; then
			lp_say "using the logp95 $pkgver of the Debian package $owner ($so): nothing built or installed"
			return
		fi
		private_root=$(mktemp -d /var/tmp/logp95-run.XXXXXX)
		chmod 755 "$private_root"
		lp_say "$so belongs to the Debian package $owner, which installs logp95 ${pkgver:-(unknown version)}; run.sh needs $srcver (the bytea functions, logp95_parse, logp95_detect_format): it builds into a private copy of PostgreSQL $PG_MAJOR under $private_root instead of over the package's files"
		LP_PG_ROOT=$private_root
		unset LP_PG_BINDIR
		lp_kit_install "$PG_MAJOR" >&2 || die "could not make a private copy of PostgreSQL $PG_MAJOR"
		lp_use_version "$PG_MAJOR"
		# built in a copy of the tree: its objects may be another version's
		lp_say "building logp95 for the private copy"
		rsync -a --exclude .git --exclude '*.o' --exclude '*.bc' --exclude '*.so' \
			--exclude results --exclude tmp_check "$LP_ROOT/" "$private_root/build/"
		make -C "$private_root/build" -s PG_CONFIG="$PG_CONFIG" >/dev/null
		make -C "$private_root/build" -s PG_CONFIG="$PG_CONFIG" install >/dev/null
		return
	fi
	lp_build_install
}

# every time shown in UTC, whatever the server's or the shell's zone
export PGTZ=UTC
# at exit: the cluster stopped, a private copy of the server removed
lp_done() {
	lp_cluster_stop
	[ -n "$private_root" ] && rm -rf "$private_root"
	return 0
}
trap lp_done EXIT
lp_deps
lp_extension
lp_cluster_start
trap lp_done EXIT		# lp_cluster_start set its own
lp_say "cluster on $PGHOST port $PGPORT"

q() { lp_psql -tA "$@"; }
# SQL $1 with the format and options as psql variables :'fmt' and :'opts'
# (quoted by psql itself: any format string is safe), and :minreq
qv() { printf '%s\n' "$1" | q -v fmt="$format" -v opts="$options" -v minreq="${2:-$min_requests}" -f -; }

# ---------- loading ----------

# access_log: one row per line, n from 1 in file order, the line's bytes
# as they are (bytea: no byte is refused, no escape interpreted) and
# whether they are valid UTF-8 (for showing and detecting only).
lp_psql -c "CREATE EXTENSION logp95" \
	-c "CREATE TABLE access_log (n bigint PRIMARY KEY, line bytea NOT NULL, utf8 bool NOT NULL)"
if [ ${#files[@]} -gt 0 ]; then
	lp_say "loading ${files[*]}"
	# Each line into COPY's text format as n, \\x<hex of its bytes>, utf8:
	# hex holds every byte (CR, tabs, backslashes, "\.", NUL, invalid
	# UTF-8) and nothing in it means anything to COPY.  A file's last line
	# without a newline is a line too; files are read in the order given.
	perl -e '
		use strict;
		my $n = 0;
		# strict UTF-8 as PostgreSQL takes it: no overlong forms, surrogates
		# or NUL; one character (or ASCII run) a match, so that no line is
		# too long for the regex engine
		my $char = qr/\G(?:[\x01-\x7f]+|[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]
			|[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]
			|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}|\xf4[\x80-\x8f][\x80-\xbf]{2})/x;
		sub utf8_ok {
			my $s = shift;
			pos($s) = 0;
			1 while $s =~ /$char/gc;
			return (pos($s) // 0) == length($s);
		}
		for my $f (@ARGV) {
			my $fh;
			if ($f =~ /\.gz\z/) {
				open($fh, "-|", "zcat", "--", $f) or die "run.sh: cannot run zcat on $f: $!\n";
			} else {
				open($fh, "<", $f) or die "run.sh: cannot read $f: $!\n";
			}
			binmode $fh;
			binmode STDOUT;
			while (my $l = <$fh>) {
				chomp $l;
				$n++;
				my $ok = ($l !~ /[^\x01-\x7f]/ || utf8_ok($l)) ? "t" : "f";
				print $n, "\t\\\\x", unpack("H*", $l), "\t", $ok, "\n";
			}
			close $fh or die "run.sh: could not read all of $f (zcat: $?)\n";
		}' -- "${files[@]}" |
		lp_psql -c "\\copy access_log (n, line, utf8) FROM pstdin"
	source_label="${#files[@]} file(s)"
else
	lines=${LP_LINES:-400000}
	routes=${LP_ROUTES:-300}
	lp_say "generating $lines combined lines over $routes routes"
	lp_psql -c "INSERT INTO access_log SELECT n, convert_to(l, 'UTF8'), true FROM logp95_generate($lines, $routes, 42, 'combined') WITH ORDINALITY g(l, n)"
	[ -n "$format" ] || format=combined
	source_label="the generated sample"
fi
lp_psql -c "VACUUM ANALYZE access_log"
total=$(q -c "SELECT count(*) FROM access_log")
[ "$total" -gt 0 ] || die "no lines in ${files[*]:-the sample}"
echo "$(q -c "SELECT format('%s lines (%s) from %s', to_char($total, 'FM999,999,999,999'), pg_size_pretty(sum(octet_length(line) + 1)), '${source_label//\'/\'\'}') FROM access_log")"

# A hook for the tests (test/main_command.sh): SQL run once the lines are
# loaded, its output printed after "check:".
if [ -n "${LP_RUN_CHECK_SQL:-}" ]; then
	q -c "$LP_RUN_CHECK_SQL" | sed 's/^/check: /'
fi

# What the lines are read as: without the CR of a CR LF line end.
lp_psql -c "CREATE VIEW log_lines AS SELECT n, rtrim(line, '\\x0d'::bytea) AS line, utf8 FROM access_log"

# ---------- the format ----------
if [ -z "$format" ]; then
	# the first 1,000 lines that are UTF-8 (logp95_detect_format takes text)
	read -r sample detected < <(q -F ' ' -c "
		SELECT to_char(count(*), 'FM999,999'), coalesce(logp95_detect_format(array_agg(convert_from(line, 'UTF8') ORDER BY n)), '-')
		  FROM (SELECT n, line FROM log_lines WHERE utf8 ORDER BY n LIMIT 1000) s")
	if [ "$detected" = - ]; then
		format=combined
		echo "format: none detected (no built-in format reads half of the first $sample lines); reading them as combined"
	else
		format=$detected
		echo "format: $format (detected from $sample lines)"
	fi
else
	# the format is checked here, so that a typo gets logp95's own message
	qv "SELECT logp95_line_time(''::bytea, :'fmt')" >/dev/null ||
		die "logp95 does not know the format '$format'"
	echo "format: $format (given)"
fi
qv "SELECT logp95_agg(''::bytea, :'fmt', 'skip' || coalesce(nullif(',' || :'opts', ','), ''))" >/dev/null ||
	die "logp95_agg does not take the options '$options'"

# ---------- one pass: what each line gives ----------
# parsed: per line its time and problem (logp95_parse), for the time span
# and the reasons of the lines that could not be read; the state counts
# statuses too (the option status: RED, logp95_red), so the 5xx share
# comes from it.
qv "CREATE TABLE parsed AS
	SELECT l.n, p.ts, p.problem
	  FROM log_lines l, logp95_parse(l.line, :'fmt') p" >/dev/null
qv "CREATE TABLE job AS
	WITH a AS (
	SELECT logp95_agg(l.line, :'fmt', 'skip,status' || coalesce(nullif(',' || :'opts', ','), '')) AS s,
	       min(p.ts) AS t0, max(p.ts) AS t1,
	       extract(epoch FROM max(p.ts) - min(p.ts)) AS seconds
	  FROM log_lines l JOIN parsed p USING (n))
	SELECT a.*,
	       (SELECT coalesce(sum(s1xx + s2xx + s3xx + s4xx + s5xx), 0) > 0
	          FROM logp95_status(logp95_total(a.s))) AS has_status
	  FROM a" >/dev/null

# ---------- what could not be read ----------
bad=$(q -c "SELECT count(*) FROM parsed WHERE problem IS NOT NULL")
echo
if [ "$bad" = 0 ]; then
	q -c "SELECT format('every line read: %s of %s', to_char($total, 'FM999,999,999,999'), to_char($total, 'FM999,999,999,999'))"
else
	q -c "SELECT format('%s of %s lines (%s %%) could not be read; the most frequent reasons:',
	                    to_char($bad, 'FM999,999,999,999'), to_char($total, 'FM999,999,999,999'),
	                    to_char(100.0 * $bad / $total, 'FM990.0'))"
	# a sample line of each reason, shown as text: bytes that are not UTF-8
	# as \ooo, tabs and CRs as \t and \r, cut at 160 characters
	q -c "
	WITH r AS (
		SELECT problem, count(*) AS lines, min(n) AS first
		  FROM parsed WHERE problem IS NOT NULL
		 GROUP BY problem ORDER BY count(*) DESC, problem LIMIT 5)
	SELECT format(E'%8s  %s\n          line %s: %s', r.lines, r.problem, r.first,
	              left(replace(replace(CASE WHEN a.utf8 THEN convert_from(a.line, 'UTF8') ELSE encode(a.line, 'escape') END,
	                                   E'\t', '\\t'), E'\r', '\\r'), 160))
	  FROM r JOIN access_log a ON a.n = r.first
	 ORDER BY r.lines DESC, r.problem"
	if [ $((2 * bad)) -gt "$total" ]; then
		echo
		echo "run.sh: fewer than half the lines could be read as '$format'." >&2
		# the known formats, as logp95 itself lists them in its hint
		known=$(q -c "SELECT logp95_line_time(''::bytea, '?')" 2>&1 | sed -n 's/^HINT: *Known formats are: \(.*\)\.$/\1/p' || true)
		echo "Pass your log's format with --format: one of ${known:-the formats of docs/formats.md}, or a definition (docs/formats.md)." >&2
		# what detection makes of the first lines, when it is another format
		guess=$(q -c "SELECT logp95_detect_format(array_agg(convert_from(line, 'UTF8') ORDER BY n))
		                FROM (SELECT n, line FROM log_lines WHERE utf8 ORDER BY n LIMIT 1000) s")
		if [ -n "$guess" ] && [ "$guess" != "$format" ]; then
			echo "The first lines read best as '$guess': run.sh --format $guess ..." >&2
		fi
		exit 1
	fi
fi

# ---------- the screen ----------
echo
q -c "
SELECT CASE WHEN t0 IS NULL THEN 'time span: unknown (the lines give no time)'
       ELSE format('time span: %s to %s (%s)', t0, t1, justify_hours(t1 - t0)) END
  FROM job"
q -c "
SELECT format('whole service: %s requests, %s per second, 5xx %s, p50 %s ms, p95 %s ms, p99 %s ms, max %s ms; %s routes',
	r.requests,
	coalesce(to_char(r.requests / nullif(j.seconds, 0), 'FM999999990.0'), 'n/a'),
	CASE WHEN j.has_status THEN to_char(100.0 * e.errors / nullif(e.requests, 0), 'FM990.00') || ' %'
	     ELSE 'n/a (the format has no status)' END,
	r.p50_ms, r.p95_ms, r.p99_ms, r.max_ms,
	(SELECT count(*) FROM logp95_report(j.s)))
  FROM job j
  CROSS JOIN logp95_report(logp95_total(j.s)) r
  LEFT JOIN logp95_red(logp95_total(j.s)) e ON true"

# the routes shown: with at least --min-requests requests (every route with --full)
minreq=$min_requests
[ "$full" = 1 ] && minreq=0
lp_psql -c "CREATE VIEW routes AS
	SELECT r.*, coalesce(e.errors, 0) AS errors,
	       r.requests / nullif(j.seconds, 0) AS per_second,
	       CASE WHEN j.has_status THEN 100.0 * e.errors / nullif(e.requests, 0) END AS error_pct
	  FROM job j
	  CROSS JOIN logp95_report(j.s) r
	  LEFT JOIN logp95_red(j.s) e USING (route)"
read -r nroutes nshown < <(q -F ' ' -c "SELECT count(*), count(*) FILTER (WHERE requests >= $minreq) FROM routes")
echo
limit="LIMIT 20"
if [ "$full" = 1 ]; then
	limit=
	echo "every route by p95, slowest first ($nroutes routes; bar: p95, the longest = the slowest; routes cut to 40 characters for display only):"
else
	hidden=$((nroutes - nshown))
	echo "the 20 slowest routes by p95 among the $nshown with at least $min_requests requests ($hidden routes with fewer hidden: --min-requests N or --full shows them; bar: p95):"
fi
lp_psql -c "
SELECT CASE WHEN length(route) > 40 THEN left(route, 39) || '…' ELSE route END AS route,
	requests, round(per_second::numeric, 3) AS per_s, round(error_pct, 1) AS \"5xx_%\",
	p50_ms, p95_ms, p99_ms, max_ms,
	repeat('#', greatest(1, round(30.0 * p95_ms / nullif(max(p95_ms) OVER (), 0))::int)) AS p95
FROM routes WHERE requests >= $minreq
ORDER BY p95_ms DESC, route $limit"

slowest=$(q -c "SELECT route FROM routes WHERE requests >= $minreq ORDER BY p95_ms DESC, route LIMIT 1")
if [ -n "$slowest" ]; then
	q -c "
	SELECT format('latency histogram of the slowest route, %s (%s requests; le = at most, ms):',
	              CASE WHEN length(route) > 40 THEN left(route, 39) || '…' ELSE route END, requests)
	  FROM routes WHERE requests >= $minreq ORDER BY p95_ms DESC, route LIMIT 1"
	lp_psql -c "
	WITH slow AS (SELECT route FROM routes WHERE requests >= $minreq ORDER BY p95_ms DESC, route LIMIT 1)
	SELECT coalesce(h.le_ms::text, '+Inf') AS le_ms, h.requests, h.cumulative,
		repeat('#', CASE WHEN h.requests > 0 THEN greatest(1, round(40.0 * h.requests / max(h.requests) OVER ())::int) ELSE 0 END) AS requests_bar
	FROM slow, logp95_histogram((SELECT s FROM job), slow.route) h"
fi
if [ "$full" = 1 ]; then
	echo "the full report, every route (byte order):"
	lp_psql -c "SELECT * FROM logp95_report((SELECT s FROM job))"
else
	echo "(every route and the full report: run.sh --full)"
fi

# ---------- the HTML report ----------
[ -z "$html" ] && exit 0
. "$LP_ROOT/test/lib/report_html.sh"
lp_report_html "$html" "$minreq" "$full"
lp_say "HTML report: $html"
