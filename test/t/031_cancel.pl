# test/t/031_cancel.pl -- statement_timeout and pg_cancel_backend stop long
# logp95 work promptly with SQLSTATE 57014, and leave the server and the
# stored state intact.
#
# Each long query would run for tens of seconds; with a 1 s timeout, or a
# cancel request sent 1 s after it started, it must end with 57014 (one
# assertion), within LP_CANCEL_BOUND seconds (another: a bounded wait,
# default 10 s, loose for a loaded 2-core machine; it catches a cancel that
# is not acted on, it is not a benchmark).  Queries:
#   agg     logp95_agg over 20,000,000 generated lines
#   report  the report of a state of 1,000,000 routes, 40 times over
#   merge   logp95_merge of that state, 40 times over (decode + merge loops)
#   combine one call of logp95_merge_combine(s, s) on that state: a single
#           function call of several seconds, so only the interrupt hook of
#           the plain C units (lp_interrupt_hook) can stop it early

use strict;
use warnings FATAL => 'all';

use IPC::Run;
use Time::HiRes qw(usleep);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;

my $db = 'lp_t31';
my $bound = $ENV{LP_CANCEL_BOUND} // 10;

my $node = lp_node('cancel');
$node->safe_psql('postgres', "CREATE DATABASE $db");
$node->safe_psql($db, 'CREATE EXTENSION logp95');

my ($secs) = lp_timed(
	sub {
		$node->safe_psql($db,
			"CREATE TABLE st AS SELECT logp95_agg('/r' || i, i % 1000) AS s FROM generate_series(1, 1000000) i"
		);
	});
note("state of 1,000,000 routes built in $secs s");
($secs) = lp_timed(
	sub { $node->safe_psql($db, 'SELECT count(*) FROM st, logp95_report(s)') }
);
note("one report of it: $secs s (the report queries below run it 40 times)");

my %queries = (
	agg =>
	  'SELECT logp95_malformed(logp95_agg(l)) FROM logp95_generate(20000000, 300, 1) l;',
	report =>
	  'SELECT count(*) FROM generate_series(1, 40) g, LATERAL logp95_report((SELECT s FROM st WHERE g > 0)) r;',
	merge =>
	  'SELECT logp95_malformed(logp95_merge(s)) FROM st, generate_series(1, 40);',
	combine =>
	  'SELECT length(logp95_state_send(logp95_merge_combine(s, s))) FROM st;');

# The query ended with 57014 and MESSAGE; and it ended within the bound, a
# bounded wait (a cancel that is never acted on fails here, instead of
# after the harness's timeout), not a measure of speed: one assertion each.
sub verdict
{
	my ($name, $out, $secs, $message) = @_;
	my $got = index($out, "ERROR:  57014: $message") >= 0 ? "57014: $message" : $out;
	is($got, "57014: $message", "$name: 57014");
	cmp_ok($secs, '<', $bound, "$name: ended within the bounded wait of $bound s");
	note("$name: after $secs s");
	return;
}

# statement_timeout = 1s.
for my $name (qw(agg report merge combine))
{
	my ($secs, $out) = lp_timed(
		sub {
			lp_psql_verbose($node, $db,
				"SET statement_timeout = '1s';\n$queries{$name}");
		});
	verdict("statement_timeout 1s, $name",
		$out, $secs, 'canceling statement due to statement timeout');
}

# pg_cancel_backend from another session, 1 s after the query started.
for my $name (qw(agg report merge))
{
	my $app = "lp_t31_$name";
	my ($stdout, $stderr) = ('', '');
	my $h = IPC::Run::start(
		[
			'psql', '-XAtq', '-v', 'VERBOSITY=verbose',
			'-d', $node->connstr($db) . " application_name=$app",
			'-c', $queries{$name}
		],
		'>' => \$stdout,
		'2>' => \$stderr);
	my $pid = '';
	for (1 .. 300)
	{
		$pid = $node->safe_psql($db,
			"SELECT pid FROM pg_stat_activity WHERE application_name = '$app' AND state = 'active'"
		);
		last if $pid ne '';
		usleep(100_000);
	}
	if ($pid eq '')
	{
		fail("pg_cancel_backend, $name: the query never showed up as active");
		$h->finish;
		next;
	}
	sleep 1;
	my ($secs) = lp_timed(
		sub {
			$node->safe_psql($db, "SELECT pg_cancel_backend($pid)");
			$h->finish;
		});
	verdict("pg_cancel_backend, $name", "$stdout\n$stderr", $secs,
		'canceling statement due to user request');
}

# The server and the stored state are fine afterwards.
is($node->safe_psql($db, 'SELECT count(*), sum(requests) FROM st, logp95_report(s)'),
	'1000000|1000000', 'state intact after the cancels');

done_testing();
