# test/t/020_fdw_shards.pl -- two shard clusters and a coordinator through
# postgres_fdw: logp95_agg runs on each shard (Remote SQL), only states
# travel, and the coordinator's logp95_merge equals one node holding every
# line, route for route and byte for byte; the same through a table
# partitioned by shard.  Per-call options (issue 12): logp95_agg(line,
# 'combined', 'skip') and logp95_agg(route, latency_ms, 'skip') count
# malformed rows exactly on shards whose setting is error.
#
#   LP_FDW_LINES=4000000 test/prove.sh 15 test/t/020_fdw_shards.pl   # a bigger log

use strict;
use warnings FATAL => 'all';

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;

my $lines = $ENV{LP_FDW_LINES} // 400000;
my $routes = $ENV{LP_FDW_ROUTES} // 300;
my $seed = 20;
my $half = int($lines / 2);
my $db = 'lp_fdw_coordinator';
my $all_state = '(SELECT logp95_agg(line) FROM all_lines)::text';

# How many lines of TEXT contain STRING.
sub count_lines
{
	my ($text, $string) = @_;
	return scalar grep { index($_, $string) >= 0 } split /\n/, $text;
}

# Two shards, each holding one half of the same generated log (by line number).
my @shards = map { lp_node("shard$_", shared_buffers => '128MB') } (1, 2);
for my $i (1, 2)
{
	my $cond = $i == 1 ? "n <= $half" : "n > $half";
	$shards[ $i - 1 ]->safe_psql(
		'postgres', qq{
CREATE EXTENSION logp95;
CREATE TABLE access_log(line text);
INSERT INTO access_log SELECT l FROM logp95_generate($lines, $routes, $seed) WITH ORDINALITY g(l, n) WHERE $cond;
ANALYZE access_log;
CREATE VIEW access_log_v AS SELECT $i AS shard, line FROM access_log;});
}

# The coordinator, and on it the single node: every line in one local table.
my $coord = lp_node('coordinator');
$coord->safe_psql('postgres', "CREATE DATABASE $db");
my $user = $coord->safe_psql($db, 'SELECT current_user');
my $servers = '';
for my $i (1, 2)
{
	my $shard = $shards[ $i - 1 ];
	$servers .= sprintf(
		qq{
CREATE SERVER shard$i FOREIGN DATA WRAPPER postgres_fdw
	OPTIONS (host '%s', port '%s', dbname 'postgres', extensions 'logp95', async_capable 'true');
CREATE USER MAPPING FOR CURRENT_USER SERVER shard$i OPTIONS (user '%s');
CREATE FOREIGN TABLE shard${i}_log(line text) SERVER shard$i OPTIONS (schema_name 'public', table_name 'access_log');},
		$shard->host, $shard->port, $user);
}
$coord->safe_psql(
	$db, qq{
CREATE EXTENSION logp95;
CREATE EXTENSION postgres_fdw;
$servers
CREATE TABLE all_lines AS SELECT l AS line FROM logp95_generate($lines, $routes, $seed) l;
ANALYZE all_lines;});

my $query =
  "SELECT logp95_merge(s) FROM (SELECT logp95_agg(line) AS s FROM shard1_log\n"
  . "       UNION ALL SELECT logp95_agg(line) FROM shard2_log) parts";

# The plan: each shard runs logp95_agg itself.
my $plan = $coord->safe_psql($db, "EXPLAIN (VERBOSE, COSTS OFF) $query");
note($plan);
is( count_lines(
		$plan,
		'Remote SQL: SELECT public.logp95_agg(line) FROM public.access_log'),
	2,
	'logp95_agg in the Remote SQL of both shards');
is(count_lines($plan, 'Remote SQL: SELECT line'), 0, 'no raw lines fetched');
is(count_lines($plan, 'Async Foreign Scan'),
	2, 'shards scanned concurrently (Async Foreign Scan)');

# One row (a state) comes back from each shard; 18 prints rows=1.00.
my @scans = grep { /Foreign Scan/ } split /\n/,
  $coord->safe_psql($db,
	"EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) $query");
note(join("\n", @scans));
is(scalar(grep { /actual rows=1(?:\.00)? loops=1\b/ } @scans),
	2, 'one row from each shard');

# The merged report equals the single node's, route for route.
$coord->safe_psql(
	$db, qq{
CREATE TABLE sharded AS SELECT * FROM logp95_report(($query));
CREATE TABLE single AS SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM all_lines));});
lp_report_equals($coord, $db, 'sharded', 'single', $routes, $lines,
	'merged report vs single node');
is($coord->safe_psql($db, "SELECT ($query)::text = $all_state"),
	't', 'identical state bytes');
note($coord->safe_psql($db,
	'SELECT * FROM sharded ORDER BY p95_ms DESC, route LIMIT 3'));

# A table partitioned by shard over the foreign tables: GROUP BY the key
# pushes each aggregate down.
my $parts = "CREATE TABLE sharded_log(shard int NOT NULL, line text) PARTITION BY LIST (shard);\n";
for my $i (1, 2)
{
	$parts .= qq{CREATE FOREIGN TABLE sharded_log_$i PARTITION OF sharded_log FOR VALUES IN ($i)
	SERVER shard$i OPTIONS (schema_name 'public', table_name 'access_log_v');\n};
}
$coord->safe_psql($db, $parts);
my $pquery =
  "SELECT logp95_merge(s) FROM (SELECT shard, logp95_agg(line) AS s FROM sharded_log GROUP BY shard) parts";
my $pplan = $coord->safe_psql($db,
	"SET enable_partitionwise_aggregate = on; EXPLAIN (VERBOSE, COSTS OFF) $pquery");
note($pplan);
is( count_lines(
		$pplan,
		'Remote SQL: SELECT shard, public.logp95_agg(line) FROM public.access_log_v GROUP BY 1'
	),
	2,
	'partitionwise: logp95_agg in the Remote SQL of both shards');
is( $coord->safe_psql(
		$db,
		"SET enable_partitionwise_aggregate = on; SELECT ($pquery)::text = $all_state"
	),
	't',
	'partitionwise: same state as the single node');

# Bytes that travel versus the raw log.
my ($raw_bytes, $text_bytes, $bin_bytes) = split /\|/, $coord->safe_psql(
	$db, q{
WITH s AS (SELECT logp95_agg(line) AS st FROM shard1_log UNION ALL SELECT logp95_agg(line) FROM shard2_log)
SELECT (SELECT sum(octet_length(line) + 1) FROM all_lines),
       (SELECT sum(octet_length(st::text)) FROM s),
       (SELECT sum(length(logp95_state_send(st))) FROM s)});
note("raw log: $lines lines, $raw_bytes bytes (lines + newlines)");
note("states from 2 shards: $text_bytes bytes as text (what postgres_fdw transfers), $bin_bytes bytes encoded");
note(sprintf('travel / raw: %.2f%% as text (%.0fx less), %.2f%% encoded',
	100 * $text_bytes / $raw_bytes, $raw_bytes / $text_bytes,
	100 * $bin_bytes / $raw_bytes));
cmp_ok($text_bytes, '<', $raw_bytes,
	'states travel fewer bytes than the raw log');

# Per-call skip on shards whose logp95.on_malformed is error: SET on the
# coordinator does not reach postgres_fdw's remote sessions, the option does.
# Shard i holds 500 combined lines and i + 2 malformed ones (TLS, GARBAGE,
# the HTTP/2 preface, junk), and (route, latency_ms) rows with i negative.
my $mixed = q{SELECT format('10.0.0.%s - %s [30/Nov/2026:23:52:47 +0000] "GET /api/users/%s HTTP/1.1" 200 24 "-" "curl/7.88.1" 0.%s',
		n % 250, CASE WHEN n % 7 = 0 THEN '[admin]' ELSE '-' END, n % 10, lpad((n % 1000)::text, 3, '0'))
	FROM generate_series(1, 500) n};
my @bad = (
	q{127.0.0.2 - - [30/Nov/2026:23:52:47 +0000] "\x16\x03\x01\x02\x00\x01\x00" 400 157 "-" "-" 0.001},
	q{127.0.0.2 - - [30/Nov/2026:23:52:47 +0000] "GARBAGE" 400 157 "-" "-" 0.000},
	q{127.0.0.2 - - [30/Nov/2026:23:52:47 +0000] "PRI * HTTP/2.0" 400 157 "-" "-" 0.000},
	q{junk});
my $bad_total = 0;
for my $i (1, 2)
{
	my $bad = join(', ', map { "(\$\$$_\$\$)" } @bad[ 0 .. $i + 1 ]);
	$bad_total += $i + 2;
	$shards[ $i - 1 ]->safe_psql(
		'postgres', qq{
ALTER DATABASE postgres SET logp95.on_malformed = error;
CREATE TABLE mixed_log(line text);
INSERT INTO mixed_log $mixed;
INSERT INTO mixed_log VALUES $bad;
CREATE TABLE pairs(route text, ms bigint);
INSERT INTO pairs SELECT '/p/' || (n % 5), CASE WHEN n <= $i THEN -1 ELSE n END FROM generate_series(1, 100) n;});
	$coord->safe_psql(
		$db, qq{
CREATE FOREIGN TABLE shard${i}_mixed(line text) SERVER shard$i OPTIONS (schema_name 'public', table_name 'mixed_log');
CREATE FOREIGN TABLE shard${i}_pairs(route text, ms bigint) SERVER shard$i OPTIONS (schema_name 'public', table_name 'pairs');});
}
my $mquery =
  "SELECT logp95_merge(s) FROM (SELECT logp95_agg(line, 'combined', 'skip') AS s FROM shard1_mixed\n"
  . "       UNION ALL SELECT logp95_agg(line, 'combined', 'skip') FROM shard2_mixed) parts";
my $mplan = $coord->safe_psql($db, "EXPLAIN (VERBOSE, COSTS OFF) $mquery");
note($mplan);
is( count_lines(
		$mplan,
		q{Remote SQL: SELECT public.logp95_agg(line, 'combined'::text, 'skip'::text) FROM public.mixed_log}),
	2,
	'per-call options: logp95_agg(line, format, options) in the Remote SQL of both shards');
is($coord->safe_psql($db, "SELECT logp95_malformed(($mquery))"),
	$bad_total, "per-call skip: exactly the $bad_total malformed lines of the shards");
is( $coord->safe_psql(
		$db, qq{
CREATE TABLE mixed_local AS SELECT line FROM shard1_mixed UNION ALL SELECT line FROM shard2_mixed;
SELECT ($mquery)::text = (SELECT logp95_agg(line, 'combined', 'skip') FROM mixed_local)::text}),
	't',
	'per-call skip: the merged state equals one node\'s');
my ($rc, $out, $err) = $coord->psql($db,
	"SET logp95.on_malformed = skip; SELECT logp95_merge(s) FROM (SELECT logp95_agg(line, 'combined') AS s FROM shard1_mixed) p");
like($err, qr/malformed log line: request .* is not an HTTP request/,
	'the coordinator\'s SET does not reach the shards (their setting, error, holds)');
is( $coord->safe_psql(
		$db,
		"SELECT logp95_malformed(logp95_merge(s)) FROM (SELECT logp95_agg(route, ms, 'skip') AS s FROM shard1_pairs\n"
		  . "       UNION ALL SELECT logp95_agg(route, ms, 'skip') FROM shard2_pairs) p"),
	3,
	'per-call skip, (route, latency_ms) rows: the 3 negative latencies');

done_testing();
