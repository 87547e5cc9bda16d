# test/t/047_rollup_concurrency.pl -- a continuous rollup under 8 sessions
# inserting at once: pgbench, 8 clients, each transaction one INSERT of
# generated lines in random order (so that every statement touches several
# one-second buckets, in no particular order, and all sessions the same
# buckets).  Passes when pgbench exits 0 with no failed transaction, the
# server logged no deadlock, and every bucket of the rollup equals
# logp95_agg over the source grouped the same way (and their union the
# whole source's).  LP_ROLLUP_TRANSACTIONS per client (default 25).

use strict;
use warnings FATAL => 'all';

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;

my $db = 'lp_t47';
my $clients = 8;
my $xacts = $ENV{LP_ROLLUP_TRANSACTIONS} // 25;
my $lines = 400;    # lines per INSERT: 40 seconds of generated log

my $node = lp_node('rollup_concurrency', deadlock_timeout => '100ms');
$node->safe_psql('postgres', "CREATE DATABASE $db");
$node->safe_psql(
	$db, q{
CREATE EXTENSION logp95;
CREATE TABLE access_log(line text);
INSERT INTO access_log SELECT logp95_generate(20000, 50, 1);
SELECT logp95_rollup_create('access_log', '1 second');});

my $work = PostgreSQL::Test::Utils::tempdir();
my $script = "$work/insert.sql";
append_to_file(
	$script, qq{
\\set seed random(1, 1000000000)
INSERT INTO access_log SELECT l FROM logp95_generate($lines, 50, :seed) l ORDER BY random();
});

my $log_start = -s $node->logfile;
my ($out, $err) = ('', '');
IPC::Run::run(
	[
		'pgbench', '-n', '-c', $clients, '-j', 2, '-t', $xacts,
		'-f', $script, '-h', $node->host, '-p', $node->port, $db
	],
	'>' => \$out,
	'2>' => \$err);
my $rc = $? >> 8;
note(join("\n",
	grep { /^(number of (clients|transactions actually processed|failed transactions)|tps|latency average)/ }
	  split /\n/, $out));
is($rc, 0, 'pgbench exit code') or diag("$out\n$err");
my ($failed) = $out =~ /^number of failed transactions: (\d+)/m;
# pgbench before 15 prints no such line: no failure then means exit 0
is($failed // '0', '0', 'pgbench failed transactions');
my ($done) = $out =~ /^number of transactions actually processed: (\d+)/m;
is($done, $clients * $xacts, 'transactions processed');

my $log = slurp_file($node->logfile, $log_start);
unlike($log, qr/deadlock detected/, 'no deadlock in the server log');

is($node->safe_psql($db, 'SELECT count(*) FROM access_log'),
	20000 + $clients * $xacts * $lines, 'rows in the source');

# every bucket against logp95_agg over the source, grouped the same way
my $res = $node->safe_psql(
	$db, q{
WITH want AS (
	SELECT COALESCE(date_bin('1 second', logp95_line_time(line), 'epoch'), '-infinity') AS bucket,
		   logp95_agg(line, 'default', 'skip') AS state
	  FROM access_log GROUP BY 1)
SELECT (SELECT count(*) FROM want),
	   (SELECT count(*) FROM access_log_rollup_1s),
	   (SELECT count(*) FROM want w FULL JOIN access_log_rollup_1s r USING (bucket)
		 WHERE w.state IS DISTINCT FROM r.state),
	   (SELECT logp95_merge(state) FROM access_log_rollup_1s)
		 = (SELECT logp95_agg(line, 'default', 'skip') FROM access_log)});
my ($want, $got, $differ, $whole) = split /\|/, $res;
is($got, $want, 'buckets in the rollup');
is($differ, 0, 'buckets that differ from logp95_agg over the source');
is($whole, 't', 'union of the buckets = logp95_agg over the source');
cmp_ok($got, '>=', 2000, 'the inserts shared buckets with the first fill');

done_testing();
