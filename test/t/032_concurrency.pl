# test/t/032_concurrency.pl -- concurrent load: pgbench with 8 clients runs
# report queries for LP_PGBENCH_SECONDS (default 10; 30 for the long run)
# while another client appends generated lines with COPY in a bounded loop.
# Passes when pgbench exits 0 with 0 failed transactions, every COPY
# succeeded, and the final report equals a window-function reference over
# the final table (as in sql/reference.sql).  Unix socket only.

use strict;
use warnings FATAL => 'all';

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;

my $db = 'lp_t32';
my $secs = $ENV{LP_PGBENCH_SECONDS} // 10;
my $clients = 8;
my $max_batches = 1000;    # the writer stops after this many COPYs at most
my $batch = 1000;          # lines per COPY

my $node = lp_node('concurrency');
$node->safe_psql('postgres', "CREATE DATABASE $db");
$node->safe_psql(
	$db, q{
CREATE EXTENSION logp95;
CREATE TABLE access_log(line text);
INSERT INTO access_log SELECT l FROM logp95_generate(100000, 300, 1) l;});

# What every pgbench client runs, over and over.
my $work = PostgreSQL::Test::Utils::tempdir();
my $script = "$work/report.sql";
append_to_file(
	$script, q{
SELECT count(*), sum(requests), max(p95_ms) FROM logp95_report((SELECT logp95_agg(line) FROM access_log));
SELECT logp95_percentile(logp95_agg(line), '/api/v1/resource1/items', 0.95) FROM access_log;
});

# pgbench writes to a file: with no pipe to drain, pumpable() says whether
# it still runs.
my $bench = IPC::Run::start(
	[
		'pgbench', '-n', '-c', $clients, '-j', 2, '-T', $secs,
		'-f', $script, '-h', $node->host, '-p', $node->port, $db
	],
	'>' => "$work/pgbench.out",
	'2>&1');

# The writer: appends BATCH lines per COPY (seeds 1000, 1001, ...) until
# pgbench ends or MAX_BATCHES is reached; each COPY goes through two
# clients, COPY TO STDOUT piped into COPY FROM STDIN.
my @psql = ('psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr($db));
my ($batches, $copy_failures) = (0, 0);
while ($bench->pumpable && $batches < $max_batches)
{
	my $seed = 1000 + $batches;
	my ($err_to, $err_from) = ('', '');
	IPC::Run::run(
		[ @psql, '-c', "COPY (SELECT l FROM logp95_generate($batch, 300, $seed) l) TO STDOUT" ],
		'2>' => \$err_to,
		'|', [ @psql, '-c', 'COPY access_log(line) FROM STDIN' ],
		'2>' => \$err_from)
	  or do { $copy_failures++; diag("COPY of seed $seed: $err_to$err_from"); };
	$batches++;
}
$bench->finish;
# pgbench's exit code, or the signal that ended it
my $status = $bench->full_result(0);
my $brc = $status & 127 ? 'signal ' . ($status & 127) : $status >> 8;
my $bench_out = slurp_file("$work/pgbench.out");

note(join("\n",
	grep { /^(number of (clients|transactions actually processed|failed transactions)|tps|latency average)/ }
	  split /\n/, $bench_out));
is($brc, 0, 'pgbench exit code') or diag($bench_out);
my ($bench_failed) = $bench_out =~ /^number of failed transactions: (\d+)/m;
is($bench_failed, '0', 'pgbench failed transactions');
is($copy_failures, 0, 'COPY failures');
note("writer: $batches COPYs of $batch lines during the run");
my $rows = 100000 + $batches * $batch;
is($node->safe_psql($db, 'SELECT count(*) FROM access_log'),
	$rows, 'rows in the final table');

# The final report against a plain-SQL reference (sql/reference.sql's rule).
$node->safe_psql(
	$db,
	lp_ref_sql('ref',
		"SELECT split_part(line, ' ', 3) AS route, split_part(line, ' ', 4)::bigint AS ms FROM access_log"
	  )
	  . q{
CREATE VIEW want AS SELECT route, requests, p50_ms, p95_ms, p99_ms, max_ms FROM ref;
CREATE TABLE got AS SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM access_log));});
lp_report_equals($node, $db, 'got', 'want', 300, $rows,
	'final report vs reference');

done_testing();
