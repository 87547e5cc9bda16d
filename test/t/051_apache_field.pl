# test/t/051_apache_field.pl -- the field test of issue 12 for Apache with
# %D: Debian's apache2 (mod_proxy_http in front of test/field/backend.py),
# normal load from wrk and hostile requests, its log (LogFormat "%h %l %u %t
# \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\" %D", docs/formats.md) loaded
# with the documented COPY recipe into a table with a
# logp95_line_ts(line, 'combined_us') expression index and read through
# file_fdw; logp95's report, malformed count and line times must equal those
# of test/field/reference.py --format combined_us, computed from the file.
#
#   bash test/prove.sh 16 test/t/051_apache_field.pl
#   LP_FIELD_SECONDS=20 LP_FIELD_KEEP=/tmp/x ...    # longer load; keep the log and the reference's files
#
# The programs and the reference (apache2.conf.in, backend.py, hostile.py,
# reference.py, wrk.lua) live in test/field; test/run.sh installs apache2, wrk
# and python3 before the TAP tests (lp_apt_nostart in test/lib/cluster.sh, so
# that the package does not start the system's apache on port 80).
#
# Everything listens on 127.0.0.1; normal traffic comes from 127.0.0.1,
# hostile requests from 127.0.0.2, tricky-but-valid ones from 127.0.0.3.
# apache2 (-DFOREGROUND) and the backend run under timeout(1) and are stopped
# at the end and in an END block.
#
# What Apache 2.4 logs, as this test checks it (docs/formats.md):
# * %u is r->user, set only where an auth module runs: under /private (Basic
#   auth, no known user) the user name sent is logged even with the 401; an
#   Authorization header on a path without auth logs "-".
# * Basic credentials are split at the first ':', so a user name cannot hold a
#   full fake time: "[01/Jan/2000:00:00:00 +0000]" is logged "[01/Jan/2000".
# * '"' and '\' are logged as \" and \\, other non-printable bytes as \xhh
#   (or \b \n \t ...), in %u, %r and the headers alike.

use strict;
use warnings FATAL => 'all';

use Digest::SHA;
use File::Copy qw(copy);
use IO::Socket::INET;
use IPC::Run;
use MIME::Base64 ();
use Time::HiRes qw(sleep);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;

my $seconds = $ENV{LP_FIELD_SECONDS} // 12;
my $python = '/usr/bin/python3';
my $field = lp_source_dir() . '/test/field';

# The programs, or a clear skip.
sub find_prog
{
	my ($name) = @_;
	for my $d (split(/:/, $ENV{PATH}), '/usr/sbin', '/usr/bin', '/sbin')
	{
		return "$d/$name" if -x "$d/$name";
	}
	return undef;
}
my $apache = find_prog('apache2');
my $wrk = find_prog('wrk');
my $modules = '/usr/lib/apache2/modules';
if (!$apache || !$wrk)
{
	# The test runs as postgres (test/prove.sh): try a password-less sudo.
	system('sudo -n true >/dev/null 2>&1') == 0
	  and system(
		'sudo -n env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=120 install -y -q apache2 wrk >/dev/null 2>&1'
	  );
	$apache = find_prog('apache2');
	$wrk = find_prog('wrk');
}
plan skip_all =>
  'apache2 and wrk are needed (Debian: apt-get install apache2 wrk, without starting the service: lp_apt_nostart in test/lib/cluster.sh; test/run.sh does it as root)'
  if !$apache || !$wrk;
plan skip_all => "apache2's modules are needed in $modules (mod_proxy_http, mod_auth_basic, mod_mpm_event)"
  if !-f "$modules/mod_proxy_http.so" || !-f "$modules/mod_auth_basic.so";
plan skip_all => "$python is needed (the backend, the hostile requests, the reference)"
  if !-x $python;

my $dir = PostgreSQL::Test::Utils::tempdir('apache_field');
my $log = "$dir/access.log";
my ($backend, $apache_h);

# Stop what runs, whatever happens (the timeout(1) wrappers stop it anyway).
sub stop_servers
{
	for my $h ($apache_h, $backend)
	{
		next unless $h && $h->pumpable;
		$h->signal('TERM');
		eval { $h->finish; 1 } or eval { $h->kill_kill(grace => 2) };
	}
	($apache_h, $backend) = (undef, undef);
}
END { stop_servers(); }

# Wait until something listens on 127.0.0.1:PORT (at most 10 s).
sub wait_port
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

# The backend and apache2, on free ports; they stop by themselves after $life s.
my $life = $seconds + 90;
my $port = PostgreSQL::Test::Cluster::get_free_port();
my $backend_port = PostgreSQL::Test::Cluster::get_free_port();
$backend = IPC::Run::start(
	[ 'timeout', $life, $python, "$field/backend.py", '--port', $backend_port, '--lifetime', $life - 5 ],
	'>', "$dir/backend.out", '2>', "$dir/backend.err");
wait_port($backend_port, 'the backend');

# An htpasswd file that knows none of the hostile users.
open(my $pw, '>', "$dir/htpasswd") or die "$dir/htpasswd: $!";
print $pw "alice:{SHA}" . Digest::SHA::sha1_base64('not-sent') . "=\n";
close $pw;
open(my $in, '<', "$field/apache2.conf.in") or die "$field/apache2.conf.in: $!";
open(my $out, '>', "$dir/apache2.conf") or die "$dir/apache2.conf: $!";
while (<$in>)
{
	s/\@DIR\@/$dir/g;
	s/\@PORT\@/$port/g;
	s/\@BACKEND_PORT\@/$backend_port/g;
	s/\@MODULES\@/$modules/g;
	print $out $_;
}
close $in;
close $out;
$apache_h = IPC::Run::start(
	[ 'timeout', $life, $apache, '-f', "$dir/apache2.conf", '-DFOREGROUND' ],
	'>', "$dir/apache2.out", '2>', "$dir/apache2.err");
wait_port($port, 'apache2');
note((`$apache -v 2>&1` =~ /Server version: (\S+)/)[0] . " on 127.0.0.1:$port, backend on 127.0.0.1:$backend_port");

# Bounded load: wrk for $seconds s, and the hostile requests during it.
my ($t0) = Time::HiRes::time();
my ($wrk_out, $hostile_out) = ('', '');
my $wrk_h = IPC::Run::start(
	[ 'timeout', $seconds + 20, $wrk, '-t2', '-c8', "-d${seconds}s", '--timeout', '5s',
	  '-s', "$field/wrk.lua", "http://127.0.0.1:$port/" ],
	'>', \$wrk_out, '2>&1');
my $rounds = 3;
my $hostile_ok = IPC::Run::run(
	[ 'timeout', $seconds + 30, $python, "$field/hostile.py", '--port', $port,
	  '--rounds', $rounds, '--pause', sprintf('%.1f', $seconds / ($rounds + 1)) ],
	'>', \$hostile_out, '2>&1');
$wrk_h->finish;

# An Authorization header on a path without auth (from 127.0.0.3): Apache
# logs %u as '-' there, since no auth module sets the user.
my $probe = IO::Socket::INET->new(
	PeerAddr => '127.0.0.1', PeerPort => $port, LocalAddr => '127.0.0.3', Timeout => 5)
  or die "probe: $!";
print $probe "GET /users/99/authz-probe HTTP/1.1\r\nHost: localhost\r\nAuthorization: Basic "
  . MIME::Base64::encode_base64('[admin]:pw', '') . "\r\nConnection: close\r\n\r\n";
{ local $/; my $answer = <$probe>; }
close $probe;
my $load_secs = sprintf('%.1f', Time::HiRes::time() - $t0);
note($wrk_out);
note("hostile requests (kind source count):\n$hostile_out");
ok($hostile_ok, 'hostile.py sent every request');
stop_servers();
note('apache2 error.log: ' . (-s "$dir/error.log" ? slurp_file("$dir/error.log") =~ tr/\n// : 0) . ' lines');

# What Apache wrote for the users (see the header).
my $text = slurp_file($log);
is(scalar(() = $text =~ /^127\.0\.0\.2 - \[admin\] \[[^]\n]*\] "GET \/private\/area HTTP\/1\.1" 401 /mg),
	$rounds, 'a refused Basic user [admin] is logged as sent, with the 401');
is(scalar(() = $text =~ /^127\.0\.0\.2 - \[01\/Jan\/2000 \[[^]\n]*\] "GET \/private\/area(?:\?x=1)? HTTP\/1\.1" 401 /mg),
	2 * $rounds, 'a fake-time user is cut at its first colon: [01/Jan/2000');
is(scalar(() = $text =~ /^127\.0\.0\.3 - q\\"u\\\\ote \[/mg),
	$rounds, 'a user q"u\\ote is logged q\\"u\\\\ote');
is(scalar(() = $text =~ /^127\.0\.0\.3 - - \[[^]\n]*\] "GET \/users\/99\/authz-probe HTTP\/1\.1" 200 /mg),
	1, 'an Authorization header on a path without auth: %u is -');
note('lines from 127.0.0.2 by request start: '
	  . join(', ', map { my $k = $_; "$k " . scalar(() = $text =~ /^127\.0\.0\.2 - \S+ \[[^]\n]*\] "\Q$k\E/mg) }
		  ('\x16', '\x', 'GARBAGE', 'PRI', 'GET"', 'G{T', 'GET http')));

# The reference, from the file.
my %ref;
my ($ok_ref, $ref_out) = (0, '');
$ok_ref = IPC::Run::run(
	[ $python, "$field/reference.py", $log, '--format', 'combined_us', '--routes', "$dir/ref_routes.csv",
	  '--lines', "$dir/ref_lines.csv" ],
	'>', \$ref_out, '2>&1');
ok($ok_ref, 'reference.py ran') or diag($ref_out);
%ref = map { split(/ /, $_, 2) } split /\n/, $ref_out;
my ($benign_out) = ('');
IPC::Run::run(
	[ $python, "$field/reference.py", $log, '--format', 'combined_us', '--exclude-client', '127.0.0.2',
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

# The database.
my $node = lp_node('apache_field', shared_buffers => '128MB');
my $db = 'postgres';
$node->safe_psql(
	$db, qq{
CREATE EXTENSION logp95;
CREATE EXTENSION file_fdw;
CREATE SERVER logfiles FOREIGN DATA WRAPPER file_fdw;
CREATE FOREIGN TABLE apache_file (line text) SERVER logfiles
	OPTIONS (filename '$log', format 'csv', delimiter E'\\x01', quote E'\\x02');
CREATE TABLE ref_report(route text, requests bigint, p50_ms bigint, p95_ms bigint, p99_ms bigint, max_ms bigint);
CREATE TABLE ref_benign (LIKE ref_report);
CREATE TABLE ref_lines(n bigint PRIMARY KEY, ts timestamp, route text, ms bigint);
COPY ref_report FROM '$dir/ref_routes.csv' WITH (FORMAT csv);
COPY ref_benign FROM '$dir/ref_benign.csv' WITH (FORMAT csv);
COPY ref_lines FROM '$dir/ref_lines.csv' WITH (FORMAT csv);
CREATE TABLE apache_log(n bigint GENERATED ALWAYS AS IDENTITY, line text);
CREATE INDEX apache_log_ts ON apache_log (logp95_line_ts(line, 'combined_us'));});

# Run SQL; return (ok, output) with errors in verbose form, for assertions
# that must report today's failures instead of stopping the test.
sub try_sql
{
	my ($sql) = @_;
	my $res = lp_psql_verbose($node, $db, $sql);
	return ($res !~ /^(?:ERROR|psql:)/m, $res);
}

# The report of SOURCE's lines (in skip mode, or with the 3-argument form)
# into table GOT, then the route-by-route comparison with WANT.
sub check_report
{
	my ($label, $got, $agg, $want, $routes, $requests, $malformed) = @_;
	my ($ok, $res) = try_sql("SET logp95.on_malformed = skip;\n"
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
	my ($ok2, $m) = try_sql("SET logp95.on_malformed = skip;\n$mal;");
	is($m, $malformed, "$label: logp95_malformed equals the reference's");
	return;
}

# Every line's time: logp95_line_ts against the reference (NULL where none).
sub check_times
{
	my ($label, $rel, $lines) = @_;
	my ($ok, $res) = try_sql(qq{
SELECT count(*) FILTER (WHERE logp95_line_ts(l.line, 'combined_us') IS DISTINCT FROM r.ts), count(*)
FROM $rel l JOIN ref_lines r USING (n);});
	ok($ok, "$label: logp95_line_ts of every line without an error") or diag($res);
	my ($differ, $n) = $ok ? split(/\|/, $res) : ('error', 0);
	is($n, $lines, "$label: lines compared with the reference's times");
	is($differ, 0, "$label: logp95_line_ts of every line equals the reference's time");
	return;
}

# 1. COPY into the table with the expression index: every line arrives.
my ($copied, $copy_res) = try_sql(
	"COPY apache_log(line) FROM '$log' WITH (FORMAT csv, DELIMITER E'\\x01', QUOTE E'\\x02');");
ok($copied, 'COPY into the table with the logp95_line_ts(line, \'combined_us\') index') or diag($copy_res);
is($node->safe_psql($db, 'SELECT count(*) FROM apache_log'), $ref{lines}, 'every line of the file loaded');

# 2. The report, route by route; the malformed count; every line's time.
check_report('indexed table', 'got_table', q{SELECT logp95_agg(line, 'combined_us') FROM apache_log},
	'ref_report', $ref{routes}, $ref{requests}, $ref{malformed});
check_times('indexed table', 'apache_log', $ref{lines});

# 4. The per-call skip option: logp95_agg(line, 'combined_us', 'skip'), in error mode.
my ($ok3, $res3) = try_sql(qq{
SET logp95.on_malformed = error;
CREATE TABLE got_arg3 AS SELECT * FROM logp95_report((SELECT logp95_agg(line, 'combined_us', 'skip') FROM apache_log));
SELECT logp95_malformed(logp95_agg(line, 'combined_us', 'skip')) FROM apache_log;});
is($ok3 ? $res3 : "error: $res3", $ref{malformed}, "logp95_agg(line, 'combined_us', 'skip'): malformed count");
if ($ok3)
{
	lp_report_equals($node, $db, 'got_arg3', 'ref_report', $ref{routes}, $ref{requests},
		"logp95_agg(line, 'combined_us', 'skip')");
}
else
{
	fail("logp95_agg(line, 'combined_us', 'skip'): report") for 1 .. 5;
}

# 5. The same through file_fdw.
is($node->safe_psql($db, 'SELECT count(*) FROM apache_file'), $ref{lines}, 'file_fdw: every line of the file');
check_report('file_fdw', 'got_fdw', q{SELECT logp95_agg(line, 'combined_us') FROM apache_file},
	'ref_report', $ref{routes}, $ref{requests}, $ref{malformed});
check_times('file_fdw', '(SELECT row_number() OVER () AS n, line FROM apache_file)', $ref{lines});

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
FROM (SELECT n, logp95_agg(line, 'combined_us') AS s FROM plain_log GROUP BY n) l
LEFT JOIN LATERAL logp95_report(l.s) rep ON true;
CREATE VIEW line_diff AS
SELECT r.n, g.route AS got_route, g.ms AS got_ms, r.route AS ref_route, r.ms AS ref_ms, p.line
FROM ref_lines r JOIN plain_log p USING (n) LEFT JOIN got_lines g USING (n)
WHERE (g.route, g.ms) IS DISTINCT FROM (r.route, r.ms);});
is($node->safe_psql($db, 'SELECT count(*) FROM plain_log'), $ref{lines}, 'table without the index: every line loaded');
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
check_report('benign subset', 'got_benign', q{SELECT logp95_agg(line, 'combined_us') FROM benign_log},
	'ref_benign', $benign{routes}, $benign{requests}, $benign{malformed});
my ($ok_b, $res_b) = try_sql(qq{
SET logp95.on_malformed = error;
SELECT count(*) FROM logp95_report((SELECT logp95_agg(line, 'combined_us') FROM benign_log));});
is($res_b, $benign{routes}, 'benign subset: read in error mode, no malformed line');
check_times('benign subset', 'benign_log', $benign{lines} - $hostile_lines);

done_testing();
