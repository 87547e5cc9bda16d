# test/perl/LogP95/Field.pm -- the steps the field tests share
#
# test/field/050_nginx_field.pl (nginx, format 'combined') and
# test/field/051_apache_field.pl (Apache with %D, format 'combined_us') do the
# same thing around a different web server: the backend (test/field/backend.py)
# behind the server, bounded load from wrk and test/field/hostile.py, then the
# independent reference (test/field/reference.py) of the log, the log loaded
# with the documented COPY recipe into a table with a logp95_line_ts(line,
# FORMAT) expression index, and logp95's report, malformed count and line
# times compared with the reference's: route by route, line by line, through
# file_fdw, with the per-call skip option and on the benign subset.  The
# steps live here, with the format, the node, the log and the reference's
# files as arguments; starting the server, its configuration and its own
# checks stay in each test.
#
# Everything listens on 127.0.0.1; the processes run under timeout(1) and
# are stopped by field_stop_all (and in an END block).

package LogP95::Field;

use strict;
use warnings FATAL => 'all';

use Exporter 'import';
use File::Copy qw(copy);
use IO::Socket::INET;
use IPC::Run;
use Time::HiRes qw(sleep);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;

our @EXPORT = qw(
  field_programs
  field_wait_port
  field_start
  field_stop_all
  field_backend
  field_config
  field_load
  field_reference
  field_database
  field_try_sql
  field_check_report
  field_check_status
  field_check_times
  field_compare
  field_check_log
);

# The python the programs of test/field run with, and where they are.
our $python = '/usr/bin/python3';
our $field = lp_source_dir() . '/test/field';

# The database the field tests use.
my $db = 'postgres';

# What field_start started, in order; field_stop_all stops them last first.
my @running;

=pod

=item field_programs(packages, name, ...)

The path of each program NAME (PATH, then /usr/sbin, /usr/bin, /sbin), or
undef.  When one is missing, try once to install the Debian PACKAGES (a
string) through a password-less sudo (the tests run as postgres,
test/prove.sh), then look again.

=cut

sub field_programs
{
	my ($packages, @names) = @_;
	my $find = sub {
		my ($name) = @_;
		for my $d (split(/:/, $ENV{PATH}), '/usr/sbin', '/usr/bin', '/sbin')
		{
			return "$d/$name" if -x "$d/$name";
		}
		return undef;
	};
	my @paths = map { $find->($_) } @names;
	if (grep { !defined } @paths)
	{
		system('sudo -n true >/dev/null 2>&1') == 0
		  and system(
			"sudo -n env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=120 install -y -q $packages >/dev/null 2>&1"
		  );
		@paths = map { $find->($_) } @names;
	}
	return @paths;
}

=pod

=item field_wait_port(port, what)

Wait until something listens on 127.0.0.1:PORT (at most 10 s); bail out
naming WHAT otherwise.

=cut

sub field_wait_port
{
	my ($port, $what) = @_;
	for (1 .. 100)
	{
		my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $port, Timeout => 1);
		if ($s) { close $s; return 1; }
		sleep 0.1;
	}
	BAIL_OUT("$what does not listen on 127.0.0.1:$port");
}

=pod

=item field_start(command, out, err)

Start COMMAND (an array reference, to run under timeout(1)) with IPC::Run,
its output to the files OUT and ERR, and remember it for field_stop_all.
Returns the harness.

=cut

sub field_start
{
	my ($cmd, $out, $err) = @_;
	my $h = IPC::Run::start($cmd, '>', $out, '2>', $err);
	push @running, $h;
	return $h;
}

=pod

=item field_stop_all()

Stop what field_start started, last first (the server, then the backend):
TERM, then KILL after 2 s if it does not end.  The timeout(1) wrappers stop
them anyway; this runs at the end too.

=cut

sub field_stop_all
{
	for my $h (reverse @running)
	{
		next unless $h && $h->pumpable;
		$h->signal('TERM');
		eval { $h->finish; 1 } or eval { $h->kill_kill(grace => 2) };
	}
	@running = ();
	return;
}
END { field_stop_all(); }

=pod

=item field_backend(dir, life)

Start test/field/backend.py on a free port of 127.0.0.1 for LIFE seconds at
the most, its output in DIR; wait until it listens.  Returns the port.

=cut

sub field_backend
{
	my ($dir, $life) = @_;
	my $port = PostgreSQL::Test::Cluster::get_free_port();
	field_start(
		[ 'timeout', $life, $python, "$field/backend.py", '--port', $port, '--lifetime', $life - 5 ],
		"$dir/backend.out", "$dir/backend.err");
	field_wait_port($port, 'the backend');
	return $port;
}

=pod

=item field_config(template, out, NAME => value, ...)

Write the file OUT from TEMPLATE with every @NAME@ replaced by its value.

=cut

sub field_config
{
	my ($template, $outfile, %subst) = @_;
	open(my $in, '<', $template) or die "$template: $!";
	open(my $out, '>', $outfile) or die "$outfile: $!";
	while (my $l = <$in>)
	{
		$l =~ s/\@$_\@/$subst{$_}/g for keys %subst;
		print $out $l;
	}
	close $in;
	close $out;
	return;
}

=pod

=item field_load(wrk => path, port => port, seconds => s, rounds => n, server => name, dir => dir, after => sub)

Bounded load on 127.0.0.1:PORT: wrk for S seconds, and hostile.py's N
rounds during it; then AFTER (if given, the server's own requests), the
check that hostile.py sent every request, field_stop_all and a note of the
server's error.log in DIR.  Returns the seconds the load took.

=cut

sub field_load
{
	my (%a) = @_;
	my ($seconds, $port) = @a{qw(seconds port)};
	my ($t0) = Time::HiRes::time();
	my ($wrk_out, $hostile_out) = ('', '');
	my $wrk_h = IPC::Run::start(
		[ 'timeout', $seconds + 20, $a{wrk}, '-t2', '-c8', "-d${seconds}s", '--timeout', '5s',
		  '-s', "$field/wrk.lua", "http://127.0.0.1:$port/" ],
		'>', \$wrk_out, '2>&1');
	my $hostile_ok = IPC::Run::run(
		[ 'timeout', $seconds + 30, $python, "$field/hostile.py", '--port', $port,
		  '--rounds', $a{rounds}, '--pause', sprintf('%.1f', $seconds / ($a{rounds} + 1)) ],
		'>', \$hostile_out, '2>&1');
	$wrk_h->finish;
	$a{after}->() if $a{after};
	my $load_secs = sprintf('%.1f', Time::HiRes::time() - $t0);
	note($wrk_out);
	note("hostile requests (kind source count):\n$hostile_out");
	ok($hostile_ok, 'hostile.py sent every request');
	field_stop_all();
	note("$a{server} error.log: "
		  . (-s "$a{dir}/error.log" ? slurp_file("$a{dir}/error.log") =~ tr/\n// : 0) . ' lines');
	return $load_secs;
}

=pod

=item field_reference(format, log, dir, load_secs)

Run reference.py --format FORMAT on LOG: ref_routes.csv and ref_lines.csv
in DIR, and ref_benign.csv for the lines not from 127.0.0.2; check that it
ran and that the log has volume, malformed lines and hostile lines; copy the
files to $LP_FIELD_KEEP if set.  Returns a hash reference: ref and benign
(reference.py's summaries, key => value) and hostile_lines.

=cut

sub field_reference
{
	my ($format, $log, $dir, $load_secs) = @_;
	my ($ref_out, $benign_out) = ('', '');
	my $ok_ref = IPC::Run::run(
		[ $python, "$field/reference.py", $log, '--format', $format, '--routes', "$dir/ref_routes.csv",
		  '--lines', "$dir/ref_lines.csv" ],
		'>', \$ref_out, '2>&1');
	ok($ok_ref, 'reference.py ran') or diag($ref_out);
	my %ref = map { split(/ /, $_, 2) } split /\n/, $ref_out;
	IPC::Run::run(
		[ $python, "$field/reference.py", $log, '--format', $format, '--exclude-client', '127.0.0.2',
		  '--routes', "$dir/ref_benign.csv" ],
		'>', \$benign_out, '2>&1') or diag($benign_out);
	my %benign = map { split(/ /, $_, 2) } split /\n/, $benign_out;
	my ($hostile_lines) = $ref{clients} =~ /127\.0\.0\.2:(\d+)/;
	$hostile_lines //= 0;
	note("field log: $ref{lines} lines in $load_secs s, $ref{routes} routes, $ref{requests} requests, "
		  . "$ref{malformed} malformed, $hostile_lines hostile lines; clients $ref{clients}");
	cmp_ok($ref{lines}, '>', 500, 'the log has some volume');
	cmp_ok($ref{malformed}, '>', 0, 'the log has malformed lines');
	cmp_ok($hostile_lines, '>', 0, 'the log has hostile lines');
	if ($ENV{LP_FIELD_KEEP})
	{
		mkdir $ENV{LP_FIELD_KEEP};
		copy("$dir/$_", "$ENV{LP_FIELD_KEEP}/$_") for qw(access.log ref_routes.csv ref_lines.csv ref_benign.csv);
	}
	return { ref => \%ref, benign => \%benign, hostile_lines => $hostile_lines };
}

=pod

=item field_database(node, format, table, log, dir)

In NODE: logp95 and file_fdw, the foreign table TABLE_file on LOG, the
reference's files of DIR in ref_report, ref_benign and ref_lines, and the
empty table TABLE_log with its logp95_line_ts(line, FORMAT) index.

=cut

sub field_database
{
	my ($node, $format, $table, $log, $dir) = @_;
	$node->safe_psql(
		$db, qq{
CREATE EXTENSION logp95;
CREATE EXTENSION file_fdw;
CREATE SERVER logfiles FOREIGN DATA WRAPPER file_fdw;
CREATE FOREIGN TABLE ${table}_file (line text) SERVER logfiles
	OPTIONS (filename '$log', format 'csv', delimiter E'\\x01', quote E'\\x02');
CREATE TABLE ref_report(route text, requests bigint, p50_ms bigint, p95_ms bigint, p99_ms bigint, max_ms bigint);
CREATE TABLE ref_benign (LIKE ref_report);
CREATE TABLE ref_lines(n bigint PRIMARY KEY, ts timestamp, route text, ms bigint);
COPY ref_report FROM '$dir/ref_routes.csv' WITH (FORMAT csv);
COPY ref_benign FROM '$dir/ref_benign.csv' WITH (FORMAT csv);
COPY ref_lines FROM '$dir/ref_lines.csv' WITH (FORMAT csv);
CREATE TABLE ${table}_log(n bigint GENERATED ALWAYS AS IDENTITY, line text);
CREATE INDEX ${table}_log_ts ON ${table}_log (logp95_line_ts(line, '$format'));});
	return;
}

=pod

=item field_try_sql(node, sql)

Run SQL; return (ok, output) with errors in verbose form, for assertions
that must report today's failures instead of stopping the test.

=cut

sub field_try_sql
{
	my ($node, $sql) = @_;
	my $res = lp_psql_verbose($node, $db, $sql);
	return ($res !~ /^(?:ERROR|psql:)/m, $res);
}

=pod

=item field_check_report(node, label, got, agg, want, routes, requests, malformed)

The report of the aggregate query AGG (in skip mode, or with the 3-argument
form) into table GOT, then the route-by-route comparison with WANT (6
checks, the differing routes in a diag) and logp95_malformed against
MALFORMED (1 check).

=cut

sub field_check_report
{
	my ($node, $label, $got, $agg, $want, $routes, $requests, $malformed) = @_;
	my ($ok, $res) = field_try_sql($node, "SET logp95.on_malformed = skip;\n"
		  . "CREATE TABLE $got AS SELECT * FROM logp95_report(($agg));");
	if (!$ok)
	{
		fail("$label: report") for 1 .. 6;
		diag("$label: $res");
		return;
	}
	lp_report_equals($node, $db, $got, $want, $routes, $requests, $label);
	my $diff = $node->safe_psql(
		$db, qq{
SELECT coalesce(g.route, w.route) || ': logp95 ' || coalesce(row(g.*)::text, 'none')
       || ', reference ' || coalesce(row(w.*)::text, 'none')
FROM $got g FULL JOIN $want w ON g.route = w.route
WHERE row(g.*) IS DISTINCT FROM row(w.*) ORDER BY 1 LIMIT 20});
	diag("$label: differing routes (20 at most):\n$diff") if $diff ne '';
	my $mal = $agg =~ s/^SELECT logp95_agg\(([^)]*)\)/SELECT logp95_malformed(logp95_agg($1))/r;
	my ($ok2, $m) = field_try_sql($node, "SET logp95.on_malformed = skip;\n$mal;");
	is($m, $malformed, "$label: logp95_malformed equals the reference's");
	return;
}

=pod

=item field_check_times(node, format, label, rel, lines)

Every line's time: logp95_line_ts(line, FORMAT) of each line of REL
(columns n and line) against ref_lines (NULL where none); LINES lines
compared (3 checks).

=cut

sub field_check_times
{
	my ($node, $format, $label, $rel, $lines) = @_;
	my ($ok, $res) = field_try_sql($node, qq{
SELECT count(*) FILTER (WHERE logp95_line_ts(l.line, '$format') IS DISTINCT FROM r.ts), count(*)
FROM $rel l JOIN ref_lines r USING (n);});
	ok($ok, "$label: logp95_line_ts of every line without an error") or diag($res);
	my ($differ, $n) = $ok ? split(/\|/, $res) : ('error', 0);
	is($n, $lines, "$label: lines compared with the reference's times");
	is($differ, 0, "$label: logp95_line_ts of every line equals the reference's time");
	return;
}

=pod

=item field_compare(node, format, table, log, r)

After field_database(NODE, FORMAT, TABLE, LOG, ...), with R from
field_reference: COPY into TABLE_log, the report, malformed count and
times from it, the per-call skip option, the same through TABLE_file, line
by line in a table without the index, and the benign subset (the lines not
from 127.0.0.2).

=cut

sub field_compare
{
	my ($node, $format, $table, $log, $r) = @_;
	my ($ref, $benign, $hostile_lines) = @$r{qw(ref benign hostile_lines)};

	# 1. COPY into the table with the expression index: every line arrives.
	my ($copied, $copy_res) = field_try_sql($node,
		"COPY ${table}_log(line) FROM '$log' WITH (FORMAT csv, DELIMITER E'\\x01', QUOTE E'\\x02');");
	ok($copied, "COPY into the table with the logp95_line_ts(line, '$format') index") or diag($copy_res);
	is($node->safe_psql($db, "SELECT count(*) FROM ${table}_log"), $ref->{lines}, 'every line of the file loaded');

	# 2. The report, route by route; the malformed count; every line's time.
	field_check_report($node, 'indexed table', 'got_table', "SELECT logp95_agg(line, '$format') FROM ${table}_log",
		'ref_report', $ref->{routes}, $ref->{requests}, $ref->{malformed});
	field_check_times($node, $format, 'indexed table', "${table}_log", $ref->{lines});

	# 4. The per-call skip option: logp95_agg(line, FORMAT, 'skip'), in error mode.
	my ($ok3, $res3) = field_try_sql($node, qq{
SET logp95.on_malformed = error;
CREATE TABLE got_arg3 AS SELECT * FROM logp95_report((SELECT logp95_agg(line, '$format', 'skip') FROM ${table}_log));
SELECT logp95_malformed(logp95_agg(line, '$format', 'skip')) FROM ${table}_log;});
	is($ok3 ? $res3 : "error: $res3", $ref->{malformed}, "logp95_agg(line, '$format', 'skip'): malformed count");
	if ($ok3)
	{
		lp_report_equals($node, $db, 'got_arg3', 'ref_report', $ref->{routes}, $ref->{requests},
			"logp95_agg(line, '$format', 'skip')");
	}
	else
	{
		fail("logp95_agg(line, '$format', 'skip'): report") for 1 .. 5;
	}

	# 5. The same through file_fdw.
	is($node->safe_psql($db, "SELECT count(*) FROM ${table}_file"), $ref->{lines}, 'file_fdw: every line of the file');
	field_check_report($node, 'file_fdw', 'got_fdw', "SELECT logp95_agg(line, '$format') FROM ${table}_file",
		'ref_report', $ref->{routes}, $ref->{requests}, $ref->{malformed});
	field_check_times($node, $format, 'file_fdw', "(SELECT row_number() OVER () AS n, line FROM ${table}_file)",
		$ref->{lines});

	# 6. Line by line, in a table without the index (so that today's parser
	# can be compared too): logp95's route and latency of each line, or
	# malformed, against the reference's; all lines, then the benign ones
	# (those not from 127.0.0.2).
	$node->safe_psql(
		$db, qq{
CREATE TABLE plain_log(n bigint GENERATED ALWAYS AS IDENTITY, line text);
COPY plain_log(line) FROM '$log' WITH (FORMAT csv, DELIMITER E'\\x01', QUOTE E'\\x02');
CREATE VIEW benign_log AS SELECT n, line FROM plain_log WHERE line NOT LIKE '127.0.0.2 %';
SET logp95.on_malformed = skip;
CREATE TABLE got_lines AS
SELECT l.n, rep.route, rep.max_ms AS ms
FROM (SELECT n, logp95_agg(line, '$format') AS s FROM plain_log GROUP BY n) l
LEFT JOIN LATERAL logp95_report(l.s) rep ON true;
CREATE VIEW line_diff AS
SELECT r.n, g.route AS got_route, g.ms AS got_ms, r.route AS ref_route, r.ms AS ref_ms, p.line
FROM ref_lines r JOIN plain_log p USING (n) LEFT JOIN got_lines g USING (n)
WHERE (g.route, g.ms) IS DISTINCT FROM (r.route, r.ms);});
	is($node->safe_psql($db, 'SELECT count(*) FROM plain_log'), $ref->{lines},
		'table without the index: every line loaded');
	my $ndiff = $node->safe_psql($db, 'SELECT count(*) FROM line_diff');
	is($ndiff, 0, 'every line: the route and latency of the reference (or malformed)');
	diag("lines that differ (logp95 | reference), 40 at most:\n"
		  . $node->safe_psql($db, q{
SELECT n || ': ' || coalesce(got_route, 'malformed') || ' ' || coalesce(got_ms::text, '')
       || ' | ' || coalesce(ref_route, 'malformed') || ' ' || coalesce(ref_ms::text, '')
       || E'\n    ' || left(line, 140)
FROM line_diff ORDER BY n LIMIT 40})) if $ndiff ne '0';
	is($node->safe_psql($db, "SELECT count(*) FROM line_diff WHERE line NOT LIKE '127.0.0.2 %'"),
		0, 'benign subset, every line: the route and latency of the reference');

	# 7. The benign subset, with today's workaround (no index): every line not
	# from 127.0.0.2, in error mode, and every one of their times.
	field_check_report($node, 'benign subset', 'got_benign', "SELECT logp95_agg(line, '$format') FROM benign_log",
		'ref_benign', $benign->{routes}, $benign->{requests}, $benign->{malformed});
	my ($ok_b, $res_b) = field_try_sql($node, qq{
SET logp95.on_malformed = error;
SELECT count(*) FROM logp95_report((SELECT logp95_agg(line, '$format') FROM benign_log));});
	is($res_b, $benign->{routes}, 'benign subset: read in error mode, no malformed line');
	field_check_times($node, $format, 'benign subset', 'benign_log', $benign->{lines} - $hostile_lines);
	return;
}

=pod

=item field_check_log(format, table, node_name, log, dir, load_secs)

The whole check of a field log: field_reference, then a cluster NODE_NAME
(lp_node, shared_buffers 128MB), field_database and field_compare with
FORMAT and TABLE.  Returns the node.

=cut

=pod

=item field_check_status(node, format, table, log, dir)

Issue 24: logp95_status of logp95_agg(line, FORMAT, 'status') over
TABLE_log, route by route, against reference.py --status on LOG.

=cut

sub field_check_status
{
	my ($node, $format, $table, $log, $dir) = @_;
	my $out = '';
	ok(IPC::Run::run([ $python, "$field/reference.py", $log, '--format', $format,
			'--status', "$dir/ref_status.csv" ], '>', \$out, '2>&1'),
		'reference.py --status ran') or diag($out);
	$node->safe_psql($db, qq{
SET logp95.on_malformed = skip;
CREATE TABLE ref_status(route text, requests bigint, s1xx bigint, s2xx bigint, s3xx bigint,
						s4xx bigint, s5xx bigint, unknown bigint);
COPY ref_status FROM '$dir/ref_status.csv' WITH (FORMAT csv);
CREATE TABLE got_status AS
SELECT * FROM logp95_status((SELECT logp95_agg(line, '$format', 'status') FROM ${table}_log));});
	cmp_ok($node->safe_psql($db, 'SELECT count(*) FROM ref_status WHERE s2xx > 0'), '>', 0,
		'the reference counts 2xx responses');
	my $diff = $node->safe_psql($db, q{
SELECT count(*) FROM ((TABLE got_status EXCEPT ALL TABLE ref_status)
					  UNION ALL (TABLE ref_status EXCEPT ALL TABLE got_status)) d});
	is($diff, 0, "logp95_status of logp95_agg(line, '$format', 'status'): every route's classes");
	diag("status rows that differ (got, then reference):\n"
		  . $node->safe_psql($db, q{(TABLE got_status EXCEPT ALL TABLE ref_status) UNION ALL
									(TABLE ref_status EXCEPT ALL TABLE got_status) LIMIT 20}))
	  if $diff ne '0';
	note("status classes of the field log:\n"
		  . $node->safe_psql($db, q{SELECT sum(requests), sum(s1xx), sum(s2xx), sum(s3xx), sum(s4xx),
									 sum(s5xx), sum(unknown) FROM got_status}));
	return;
}

sub field_check_log
{
	my ($format, $table, $node_name, $log, $dir, $load_secs) = @_;
	my $r = field_reference($format, $log, $dir, $load_secs);
	my $node = lp_node($node_name, shared_buffers => '128MB');
	field_database($node, $format, $table, $log, $dir);
	field_compare($node, $format, $table, $log, $r);
	return $node;
}

1;
