# test/t/034_hostile.pl -- the attacks of issue 14 end with the exact answer
# or a clean error.
#
#   flood-routes  20,000 printable routes that all share one 64-bit hash under
#                 the old unkeyed hash, through logp95_agg(route, latency) and a
#                 merge of the resulting state: exact counts
#   flood-values  one route of 100,000 values t * inverse(0x9E3779B97F4A7C15)
#                 mod 2^54 (all in slot 0 under the old value hash), merged
#   memory        the issue's 50 MB state of 25M values under
#                 logp95.max_state_memory = 64MB: 54000 naming the setting;
#                 under 4GB: the exact 50,000,015 bytes
#   phases        statement_timeout of 50, 150, 400 and 1000 ms on a merge of a
#                 state of 300,000 routes (decode, grow, rehash, sort, encode):
#                 57014; and pg_cancel_backend 0.5 s in: 57014
# One assertion per ok(), on the answer; no assertion on time.  How long each
# case took is a note (the lag after a timeout or a cancel too), and a diag
# when it passes the case's usual bound (LP_HOSTILE_BOUND seconds, default
# 30; 10 s for the refusal of the memory case; 1 s after a timeout or a
# cancel): a figure to look at, not a failure on a loaded machine.  A case
# that never ends fails on the harness's timeout (safe_psql's
# $PostgreSQL::Test::Utils::timeout_default) or on the wrong answer.
# logp95.max_state_memory is PGC_SUSET: the test user is the cluster's
# superuser.

use strict;
use warnings FATAL => 'all';

use IPC::Run;
use Time::HiRes qw(usleep);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;

my $db = 'lp_t34';
my $bound = $ENV{LP_HOSTILE_BOUND} // 30;
my $work = PostgreSQL::Test::Utils::tempdir('hostile');

# One case: GOT equals WANT (the assertion); SECS, how long it took, is a
# note, and a diag when it passes BOUND (default $bound).
sub check
{
	my ($name, $got, $want, $secs, $b) = @_;
	$b //= $bound;
	is($got, $want, "$name: $want");
	note("$name: $secs s (usually under $b s)");
	diag("$name: $secs s, past the usual $b s (a figure, not a failure)")
	  if $secs >= $b;
	return;
}

# Printable 16-byte keys sharing one 64-bit hash under the pre-issue-14 route hash.
my $collide_c = <<'C';
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static uint64_t w(uint64_t h, uint64_t x) { h = (h ^ x) * 0xbf58476d1ce4e5b9ULL; return h ^ (h >> 31); }
int main(int argc, char **argv)
{
	long n = atol(argv[1]), found = 0;
	uint64_t ci = 0xbf58476d1ce4e5b9ULL, t = 0x0123456789abcdefULL, y, i;
	int k;
	for (k = 0; k < 6; k++) ci *= 2 - 0xbf58476d1ce4e5b9ULL * ci;
	y = (t ^ (t >> 31) ^ (t >> 62)) * ci;
	for (i = 0; found < n; i++)
	{
		char s[17];
		uint64_t w0, w1;
		int ok = 1;
		snprintf(s, 9, "/%07llx", (unsigned long long) i);
		memcpy(&w0, s, 8);
		w1 = w(0x9E3779B97F4A7C15ULL, w0) ^ y;
		memcpy(s + 8, &w1, 8);
		for (k = 8; k < 16; k++)
			ok &= s[k] > 0x20 && s[k] < 0x7f && s[k] != '\\' && s[k] != '"';
		if (!ok) continue;
		s[16] = 0;
		printf("%s\t%ld\n", s, found % 1000);
		found++;
	}
	return 0;
}
C
open(my $fh, '>', "$work/collide.c") or die "cannot write $work/collide.c: $!";
print $fh $collide_c;
close($fh);
my ($rc, $out) = lp_run_logged('cc', '-O2', '-o', "$work/collide", "$work/collide.c");
die "cc collide.c failed:\n$out" if $rc != 0;
IPC::Run::run([ "$work/collide", '20000' ], '>' => "$work/routes.tsv")
  or die "collide failed";

my $node = lp_node('hostile');
$node->safe_psql('postgres', "CREATE DATABASE $db");
$node->safe_psql($db, 'CREATE EXTENSION logp95');
$node->safe_psql($db,
	"CREATE TABLE r (route text, ms bigint);\n\\copy r FROM '$work/routes.tsv'");

# 1. hash flooding with routes
my ($secs, $got) = lp_timed(
	sub {
		$node->safe_psql($db,
			"CREATE TABLE fs AS SELECT logp95_agg(route, ms) AS s FROM r;\n"
			  . 'SELECT count(*), sum(requests) FROM fs, logp95_report(s)');
	});
check('flood-routes: logp95_agg of 20,000 old-colliding routes',
	$got, '20000|20000', $secs);
($secs, $got) = lp_timed(
	sub {
		$node->safe_psql($db,
			'SELECT count(*) FROM logp95_report((SELECT logp95_merge(s) FROM (SELECT s FROM fs UNION ALL SELECT s FROM fs) u))'
		);
	});
check('flood-routes: logp95_merge of that state with itself',
	$got, '20000', $secs);

# 2. hash flooding with values
($secs, $got) = lp_timed(
	sub {
		$node->safe_psql($db,
			q{SELECT requests, max_ms FROM logp95_report((SELECT logp95_merge(s) FROM (SELECT logp95_agg('/v', ((t::numeric * 17428512612931826493::numeric) % 18014398509481984)::bigint) s FROM generate_series(1, 100000) t GROUP BY t % 4) g))}
		);
	});
my $want = $node->safe_psql($db,
	q{SELECT count(*), max(((t::numeric * 17428512612931826493::numeric) % 18014398509481984)::bigint) FROM generate_series(1, 100000) t}
);
check('flood-values: 100,000 old-colliding values, aggregated in 4 parts and merged',
	$got, $want, $secs);

# 3. memory amplification
my $mem =
  q{SELECT length(logp95_state_send(logp95_merge(('\x010001022f6dc0f0f50b81e1eb17802001' || repeat('0101', 25000000 - 1))::logp95_state)))};
my $refusal = '54000: logp95 state needs more than logp95.max_state_memory';
($secs, $out) = lp_timed(
	sub {
		lp_psql_verbose($node, $db,
			"SET work_mem = '64kB';\nSET logp95.max_state_memory = '64MB';\n$mem;");
	});
check('memory: 25M-value state under max_state_memory 64MB',
	(index($out, $refusal) >= 0 ? $refusal : $out), $refusal, $secs, 10);
($secs, $got) = lp_timed(
	sub {
		$node->safe_psql($db, "SET logp95.max_state_memory = '4GB';\n$mem");
	});
check('memory: the same under 4GB, exact', $got, '50000015', $secs);

# 4. interrupts in every phase of a large merge
$node->safe_psql($db,
	q{CREATE TABLE big AS SELECT logp95_agg('/r' || i, i % 5000) AS s FROM generate_series(1, 300000) i}
);
my $big =
  'SELECT length(logp95_state_send(logp95_merge_combine(s, s))) FROM big, generate_series(1, 20)';
my $timeout = '57014: canceling statement due to statement timeout';
for my $ms (50, 150, 400, 1000)
{
	($secs, $out) = lp_timed(
		sub {
			lp_psql_verbose($node, $db,
				"SET statement_timeout = '${ms}ms';\n$big;");
		});
	my $lag = sprintf('%.2f', $secs - $ms / 1000);
	check("phases: statement_timeout ${ms}ms (time: the lag after the timeout)",
		(index($out, $timeout) >= 0 ? $timeout : $out),
		$timeout, $lag, 1);
}

# pg_cancel_backend 0.5 s after the query started, from another session.
my $app = 'lp_t34_cancel';
my $cancel = '57014: canceling statement due to user request';
my ($stdout, $stderr) = ('', '');
my $t_start = Time::HiRes::time();
my $h = IPC::Run::start(
	[
		'psql', '-XAtq', '-v', 'VERBOSITY=verbose',
		'-d', $node->connstr($db) . " application_name=$app",
		'-c', $big
	],
	'>' => \$stdout,
	'2>' => \$stderr);
my $pid = '';
while (Time::HiRes::time() - $t_start < 30)
{
	$pid = $node->safe_psql($db,
		"SELECT pid FROM pg_stat_activity WHERE application_name = '$app' AND state = 'active'"
	);
	last if $pid ne '';
	usleep(20_000);
}
my $wait = 0.5 - (Time::HiRes::time() - $t_start);
Time::HiRes::sleep($wait) if $wait > 0;
($secs) = lp_timed(
	sub {
		$node->safe_psql($db, "SELECT pg_cancel_backend($pid)") if $pid ne '';
		$h->finish;
	});
$out = "$stdout\n$stderr";
ok($pid ne '', 'phases: the merge to cancel showed up as active');
check('phases: pg_cancel_backend 0.5 s into the merge',
	(index($out, $cancel) >= 0 ? $cancel : $out),
	$cancel, $secs, 1);

done_testing();
