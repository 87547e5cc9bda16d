# test/t/030_limits.pl -- limits: a 1 MB route, many routes, many distinct
# latencies give exact results (checked against arithmetic), and a state
# past the 1 GB varlena limit fails cleanly with ERROR 54000.
#
# The normal run uses cheap sizes; LP_LONG=1 uses the sizes of issue 4:
# 1,000,000 routes, 10,000,000 distinct latencies, a 100 MB route and a
# state of about 1.1 GB (about 3.5 GB of backend memory).  Peak backend
# memory (VmHWM of /proc/<backend>/status, read through pg_read_file as
# superuser) is reported for every case; it includes the shared buffers the
# backend touched.

use strict;
use warnings FATAL => 'all';

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;

my $long = ($ENV{LP_LONG} // 0) eq '1';
my $db = 'lp_t30';
my ($route_mb, $nroutes, $nvalues) =
  $long ? (100, 1000000, 10000000) : (1, 100000, 1000000);

# SQL that yields the backend's peak resident memory in MB.
my $hwm =
  q{(substring(pg_read_file('/proc/self/status') from 'VmHWM:\s*(\d+)')::bigint / 1024)};

my $node = lp_node('limits');
$node->safe_psql('postgres', "CREATE DATABASE $db");
$node->safe_psql($db, 'CREATE EXTENSION logp95');

# Run SQL in one session, timed: the seconds and the output lines.
sub timed_lines
{
	my ($sql) = @_;
	my ($secs, $out) = lp_timed(sub { $node->safe_psql($db, $sql) });
	return ($secs, split(/\n/, $out));
}

# Report what a case cost: the output lines hold VmHWM before and after the
# aggregate, then "stored|encoded" sizes of the state.
sub size_note
{
	my ($name, $secs, $before, $after, $sizes) = @_;
	my ($stored, $encoded) = split /\|/, $sizes;
	note("$name: $secs s, state $encoded bytes encoded ($stored stored), "
		  . "backend VmHWM $before MB before, $after MB after the aggregate");
	return;
}

# How many lines of TEXT match RE.
sub count_matches
{
	my ($text, $re) = @_;
	return scalar grep { $_ =~ $re } split /\n/, $text;
}

# ---------------------------------------------------------------------------
# 1. A long route in one line: 1 MB (100 MB with LP_LONG=1), NL lines with
#    latencies 1..NL, so pK is min(floor(NL*K/100), NL-1) + 1.
# ---------------------------------------------------------------------------
my $len = $route_mb * 1024 * 1024;
my $nl = $long ? 3 : 20;

# pK of 1..NL under logp95's rule.
sub pk
{
	my ($k) = @_;
	my $i = int($nl * $k / 100);
	$i = $nl - 1 if $i >= $nl;
	return $i + 1;
}

my ($secs, @got) = timed_lines(
	qq{
CREATE TEMP TABLE big_line AS
  SELECT '2026-11-07T00:00:00 GET ' || repeat('/a', $len / 2) || ' ' || i AS line
  FROM generate_series(1, $nl) i;
CREATE TEMP TABLE s1 AS SELECT logp95_agg(line) AS s FROM big_line;
SELECT length(route), requests, p50_ms, p95_ms, p99_ms, max_ms, route = repeat('/a', $len / 2)
  FROM s1, logp95_report(s);
SELECT logp95_percentile(s, repeat('/a', $len / 2), 0.5), pg_column_size(s) > 0 FROM s1;
-- the state survives its text form and the binary round trip
SELECT (s::text)::logp95_state::text = s::text, length(logp95_state_send(s)) > $len FROM s1;
SELECT $hwm;});
is($got[0],
	join('|', $len, $nl, pk(50), pk(95), pk(99), $nl, 't'),
	"route of $route_mb MB: length, requests, p50, p95, p99, max, bytes equal"
);
is($got[1], pk(50) . '|t', "route of $route_mb MB: logp95_percentile(0.5)");
is($got[2], 't|t', "route of $route_mb MB: text round trip, send size");
note("route of $route_mb MB: $secs s, backend VmHWM $got[3] MB");

# ---------------------------------------------------------------------------
# 2. Many distinct routes: NROUTES lines "/r<i>" with latency i % 1000.
# ---------------------------------------------------------------------------
($secs, @got) = timed_lines(
	qq{
SELECT $hwm;
CREATE TABLE many_routes AS
  SELECT logp95_agg('2026-11-07T00:00:00 GET /r' || i || ' ' || (i % 1000)) AS s
  FROM generate_series(1, $nroutes) i;
SELECT $hwm;
SELECT pg_column_size(s), length(logp95_state_send(s)) FROM many_routes;
SELECT count(*), sum(requests), sum(p95_ms), sum(max_ms),
       bool_and(p50_ms = p95_ms AND p95_ms = max_ms)
  FROM many_routes, logp95_report(s);
SELECT sum(i % 1000) FROM generate_series(1, $nroutes) i;
SELECT logp95_percentile(s, '/r$nroutes', 1), logp95_percentile(s, '/r0', 1) IS NULL FROM many_routes;
-- rows in byte order of the route
SELECT bool_and(prev < route COLLATE "C") FROM (
  SELECT route, lag(route) OVER () AS prev FROM many_routes, logp95_report(s)) x WHERE prev IS NOT NULL;});
my $sum = $got[4];
is($got[3], "$nroutes|$nroutes|$sum|$sum|t",
	"$nroutes routes: routes, requests, sum p95, sum max, p50=p95=max");
is($got[5], ($nroutes % 1000) . '|t',
	"$nroutes routes: percentile of the last route, absent route");
is($got[6], 't', "$nroutes routes: byte order");
size_note("$nroutes routes", $secs, @got[ 0 .. 2 ]);

# The same state merged with itself: every count doubles.
is( $node->safe_psql(
		$db,
		'SELECT count(*), sum(requests) FROM logp95_report((SELECT logp95_merge(s) FROM (SELECT s FROM many_routes UNION ALL SELECT s FROM many_routes) x))'
	),
	"$nroutes|" . (2 * $nroutes),
	"$nroutes routes: merged with itself");

# ---------------------------------------------------------------------------
# 3. One route, NVALUES rows, all latencies distinct: a permutation of
#    0..N-1 (7919 is prime and does not divide N), so pK = floor(N*K/100).
# ---------------------------------------------------------------------------
my $n = $nvalues;
($secs, @got) = timed_lines(
	qq{
SELECT $hwm;
CREATE TABLE many_values AS
  SELECT logp95_agg('/one', (i * 7919) % $n) AS s FROM generate_series(0::bigint, $n - 1) i;
SELECT $hwm;
SELECT pg_column_size(s), length(logp95_state_send(s)) FROM many_values;
SELECT route, requests, p50_ms, p95_ms, p99_ms, max_ms FROM many_values, logp95_report(s);
SELECT logp95_percentile(s, '/one', 0), logp95_percentile(s, '/one', 0.25), logp95_percentile(s, '/one', 1) FROM many_values;});
is( $got[3],
	join('|',
		'/one', $n,
		int($n * 50 / 100),
		int($n * 95 / 100),
		int($n * 99 / 100),
		$n - 1),
	"$n distinct latencies: route, requests, p50, p95, p99, max");
is($got[4], join('|', 0, int($n / 4), $n - 1),
	"$n distinct latencies: logp95_percentile 0, 0.25, 1");
size_note("$n distinct latencies", $secs, @got[ 0 .. 2 ]);

# The structured aggregate and the line aggregate agree on a smaller sample.
is( $node->safe_psql(
		$db,
		q{SELECT (SELECT logp95_agg('/one', (i * 7919) % 100003)::text FROM generate_series(0, 100002) i) = (SELECT logp95_agg('t GET /one ' || ((i * 7919) % 100003))::text FROM generate_series(0, 100002) i)}
	),
	't',
	'pair and line aggregates give the same state');

# ---------------------------------------------------------------------------
# 4. Past 1 GB (LP_LONG=1 only: about 3.5 GB of backend memory).
#    1,100 routes of 1 MB each: the encoding would be about 1.1 GB, more
#    than a varlena holds.  The final function must fail cleanly with 54000
#    before any allocation fails, and the server must stay up.
#    Then a state of about 600 MB: fine as a value, but its text form would
#    pass 1 GB: text output fails with 54000 too; the report still works.
# ---------------------------------------------------------------------------
if ($long)
{
	my ($secs, $out) = lp_timed(
		sub {
			lp_psql_verbose($node, $db,
				"SELECT logp95_malformed(logp95_agg(lpad(i::text, 1000000, 'x'), 1)) FROM generate_series(1, 1100) i;\n"
				  . "SELECT 'hwm', $hwm;");
		});
	note($out);
	is(count_matches($out, qr/ERROR:  54000: logp95_state is too large/),
		1, 'state of ~1.1 GB: ERROR 54000 naming the limit');
	is(count_matches($out, qr/at most 1 GB once encoded/),
		1, 'state of ~1.1 GB: detail names the 1 GB limit');
	my ($hwm_mb) = $out =~ /^hwm\|(\d+)$/m;
	note("state of ~1.1 GB: failed after $secs s, backend VmHWM "
		  . ($hwm_mb // '?') . ' MB');
	is($node->safe_psql($db, 'SELECT 1'), '1', 'server still answers');

	($secs, $out) = lp_timed(
		sub {
			lp_psql_verbose(
				$node, $db, qq{
CREATE TEMP TABLE half AS SELECT logp95_agg(lpad(i::text, 1000000, 'x'), i) AS s FROM generate_series(1, 600) i;
SELECT 'size', length(logp95_state_send(s)) FROM half;
SELECT 'report', count(*), sum(requests), sum(max_ms) FROM half, logp95_report(s);
SELECT length(s::text) FROM half;
SELECT 'hwm', $hwm;});
		});
	note($out);
	my ($report) = $out =~ /^(report\|.*)$/m;
	is($report, 'report|600|600|180300', 'state of ~600 MB: report');
	is( count_matches(
			$out, qr/ERROR:  54000: logp95_state is too large for text output/),
		1,
		'state of ~600 MB: text output fails with 54000');
	($hwm_mb) = $out =~ /^hwm\|(\d+)$/m;
	note("state of ~600 MB: $secs s, backend VmHWM "
		  . ($hwm_mb // '?') . ' MB');
}
else
{
	note('the >1 GB state case runs with LP_LONG=1');
}

done_testing();
