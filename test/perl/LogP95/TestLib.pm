# test/perl/LogP95/TestLib.pm -- helpers shared by logp95's TAP tests
#
# One home for what several test/t/*.pl files need: a throwaway cluster with
# the settings the tests were written for, the window-function reference of
# a report (logp95's rank rule and percentile_disc's), a "report equals
# reference" check, psql output with errors in verbose form, and a timer.
#
# PostgreSQL refuses to run as root (initdb says so), so as root every test
# is skipped with a pointer to test/prove.sh, which runs them as postgres.

package LogP95::TestLib;

use strict;
use warnings FATAL => 'all';

use Exporter 'import';
use File::Basename qw(dirname);
use Cwd qw(abs_path);
use IPC::Run;
use Time::HiRes;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

our @EXPORT = qw(
  lp_node
  lp_ref_sql
  lp_report_equals
  lp_psql_verbose
  lp_timed
  lp_source_dir
  lp_writable_tree
  lp_run_logged
);

if ($> == 0)
{
	plan skip_all =>
	  'PostgreSQL does not run as root: run test/prove.sh NN, which runs these tests as the postgres OS user';
}

=pod

=item lp_node(name, setting => value, ...)

Start a throwaway cluster (PostgreSQL::Test::Cluster picks a free port and
a socket directory), UTF8 with the C.UTF-8 locale.  The settings default to
those the tests were measured with (shared_buffers 512MB, two parallel
workers per gather); the caller's override or add to them.  The cluster
stops when the test ends.

=cut

sub lp_node
{
	my ($name, %settings) = @_;
	my %conf = (
		shared_buffers => '512MB',
		max_parallel_workers_per_gather => 2,
		%settings);
	my $node = PostgreSQL::Test::Cluster->new($name);

	$node->init(extra => [ '--encoding=UTF8', '--locale=C.UTF-8' ]);
	$node->append_conf('postgresql.conf',
		join("\n", map { "$_ = $conf{$_}" } sort keys %conf));
	$node->start;
	return $node;
}

=pod

=item lp_ref_sql(table, query)

SQL that builds TABLE with the exact report computed in plain SQL from
QUERY, which yields (route, ms): one row per route with requests, p50_ms,
p95_ms, p99_ms, max_ms under logp95's rule (0-based rank
min(floor(n*K/100), n-1)) and p95_disc under percentile_disc's (0-based
rank ceil(n*0.95)-1): test/lib/ref_report.sql with its placeholders filled,
the file lp_ref_sql in test/lib/cluster.sh (the benchmark's) reads too.

=cut

sub lp_ref_sql
{
	my ($table, $query) = @_;
	my $sql = PostgreSQL::Test::Utils::slurp_file(lp_source_dir() . '/test/lib/ref_report.sql');

	$sql =~ s/\@TABLE\@/$table/g;
	$sql =~ s/\@QUERY\@/$query/g;
	return $sql;
}

=pod

=item lp_report_equals(node, db, got, want, routes, requests, label)

Check that relation GOT (a logp95_report) equals relation WANT (another
report, or the report columns of an lp_ref_sql table) row for row: each
holds ROUTES rows, GOT counts REQUESTS requests, and no row of either is
missing from the other (EXCEPT ALL both ways).  Five assertions.

=cut

sub lp_report_equals
{
	my ($node, $db, $got, $want, $routes, $requests, $label) = @_;
	my $res = $node->safe_psql(
		$db, qq{
SELECT (SELECT count(*) FROM $got), (SELECT count(*) FROM $want),
       (SELECT sum(requests) FROM $got),
       (SELECT count(*) FROM (TABLE $got EXCEPT ALL TABLE $want) a),
       (SELECT count(*) FROM (TABLE $want EXCEPT ALL TABLE $got) b)});
	my ($n_got, $n_want, $req, $only_got, $only_want) = split /\|/, $res;

	is($n_got, $routes, "$label: routes in $got");
	is($n_want, $routes, "$label: routes in $want");
	is($req, $requests, "$label: requests in $got");
	is($only_got, 0, "$label: rows only in $got");
	is($only_want, 0, "$label: rows only in $want");
	return;
}

=pod

=item lp_psql_verbose(node, db, sql, user => name)

Run SQL through psql as the bootstrap superuser or USER, errors in verbose
form (with the SQLSTATE), going on after an error.  Returns what psql wrote,
stdout then stderr, without the trailing newline.

=cut

sub lp_psql_verbose
{
	my ($node, $db, $sql, %params) = @_;
	my @user = defined $params{user} ? ('-U', $params{user}) : ();
	my ($stdout, $stderr) = ('', '');

	IPC::Run::run(
		[ 'psql', '-XAtq', @user, '-d', $node->connstr($db) ],
		'<' => \"\\set VERBOSITY verbose\n$sql\n",
		'>' => \$stdout,
		'2>' => \$stderr);
	my $out = join("\n", grep { $_ ne '' } $stdout, $stderr);
	$out =~ s/\n+\z//;
	return $out;
}

=pod

=item lp_timed(code)

Run CODE; return the seconds it took (to 0.01 s) and what it returned.

=cut

sub lp_timed
{
	my ($code) = @_;
	my $t0 = Time::HiRes::time();
	my @res = $code->();
	return (sprintf('%.2f', Time::HiRes::time() - $t0), @res);
}

=pod

=item lp_source_dir()

The top of the logp95 source tree these tests came with.

=cut

sub lp_source_dir
{
	return abs_path(dirname(__FILE__) . '/../../..');
}

=pod

=item lp_writable_tree(path, ...)

A source tree in which make may write: lp_source_dir() when each PATH
(relative to it; those that exist) is writable, else a copy of it (without
.git and build products) in a temporary directory of the test.  For the
make targets of test/unit and test/fuzz, which build next to their sources.

=cut

sub lp_writable_tree
{
	my (@paths) = @_;
	my $src = lp_source_dir();
	return $src unless grep { -e "$src/$_" && !-w "$src/$_" } @paths;

	my $copy = PostgreSQL::Test::Utils::tempdir('tree');
	my @exclude = map { "--exclude=$_" } qw(.git tmp_check results *.o *.so
	  *.bc test/fuzz/build test/unit/test_units test/unit/test_units_san
	  test/bench/out);
	IPC::Run::run([ 'tar', '-C', $src, @exclude, '-cf', '-', '.' ],
		'|', [ 'tar', '-C', $copy, '-xf', '-' ])
	  or die "cannot copy $src to $copy";
	note("$src is not writable: building in a copy, $copy");
	return $copy;
}

=pod

=item lp_run_logged(command, ...)

Run COMMAND (a list, no shell) with stdout and stderr together; return its
exit status (0 for success) and its output.

=cut

sub lp_run_logged
{
	my (@cmd) = @_;
	my $out = '';
	IPC::Run::run(\@cmd, '>&' => \$out);
	return ($? >> 8 || $? & 127, $out);
}

1;
