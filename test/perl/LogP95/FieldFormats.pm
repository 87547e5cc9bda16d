# test/perl/LogP95/FieldFormats.pm -- the steps the definition and preset
# field tests share (test/field/052 to 057, issue 23)
#
# Each of those tests runs a real server from Debian under wrk and
# test/field/hostile.py (the steps of LogP95::Field), then reads its log
# with the format copied from the running server's configuration (an nginx
# log_format, an Apache LogFormat, lighttpd's accesslog.format, varnishncsa's
# -F, or a preset) and compares logp95 with test/field/ref_formats.py, an
# independent reference written from the vendors' documentation: the
# report route by route, the malformed count, each line's route and
# latency (logp95_parse) and each line's time (logp95_line_time, and
# logp95_line_ts through an expression index).  Helpers to copy a format
# out of a configuration file are here too.
#
# A format the SQL functions do not know yet ("unknown log format") gives
# a skip line, not a failure: the rest of the file still runs.

package LogP95::FieldFormats;

use strict;
use warnings FATAL => 'all';

use Exporter 'import';
use File::Copy qw(copy);
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;
use LogP95::Field;

our @EXPORT = qw(
  ff_nginx_log_format
  ff_apache_log_format
  ff_lighttpd_format
  ff_sql_literal
  ff_node
  ff_check
  ff_same_reports
);

my $db = 'postgres';

=pod

=item ff_nginx_log_format(conf, name)

The text of the log_format directive NAME in the nginx configuration file
CONF after the format's name, exactly as it stands there (its pieces, line
ends, indentation and the closing ';'), as a user copies it.

=cut

sub ff_nginx_log_format
{
	my ($conf, $name) = @_;
	my $text = slurp_file($conf);
	$text =~ /\blog_format[ \t]+\Q$name\E(?=\s)/g
	  or die "no log_format $name in $conf";
	my $start = pos($text);

	# the first ';' outside quotes ends the directive
	my $q = '';
	for (my $i = $start; $i < length($text); $i++)
	{
		my $c = substr($text, $i, 1);
		if ($q ne '')
		{
			if ($c eq '\\') { $i++; next; }
			$q = '' if $c eq $q;
		}
		elsif ($c eq "'" || $c eq '"') { $q = $c; }
		elsif ($c eq ';')
		{
			return substr($text, $start, $i + 1 - $start) =~ s/^\s+//r;
		}
	}
	die "log_format $name in $conf has no end";
}

=pod

=item ff_apache_log_format(conf, nickname)

The format string of the LogFormat directive with NICKNAME in the Apache
configuration CONF, with its quotes, as it stands there.

=cut

sub ff_apache_log_format
{
	my ($conf, $nick) = @_;
	my $text = slurp_file($conf);
	$text =~ /^\s*LogFormat\s+("(?:[^"\\]|\\.)*")\s+\Q$nick\E\s*$/m
	  or die "no LogFormat ... $nick in $conf";
	return $1;
}

=pod

=item ff_lighttpd_format(conf)

The value of accesslog.format in the lighttpd configuration CONF, with its
quotes, as it stands there.

=cut

sub ff_lighttpd_format
{
	my ($conf) = @_;
	my $text = slurp_file($conf);
	$text =~ /^\s*accesslog\.format\s*=\s*("(?:[^"\\]|\\.)*")\s*$/m
	  or die "no accesslog.format in $conf";
	return $1;
}

=pod

=item ff_sql_literal(text)

TEXT as a SQL string literal (dollar-quoted; the text may hold quotes).

=cut

sub ff_sql_literal
{
	my ($text) = @_;
	my $tag = '$lpfmt$';
	die "format holds $tag" if index($text, $tag) >= 0;
	return "$tag$text$tag";
}

=pod

=item ff_node(name)

A cluster (lp_node) with logp95 and the tables the checks use.

=cut

sub ff_node
{
	my ($name) = @_;
	my $node = lp_node($name, shared_buffers => '128MB');
	$node->safe_psql($db, 'CREATE EXTENSION logp95;');
	return $node;
}

# ref_formats.py on LOG: its summary as a hash reference, or undef.
sub ff_reference
{
	my ($log, $layout, $dir, $t) = @_;
	my $out = '';
	my $ok = IPC::Run::run(
		[ $LogP95::Field::python, "$LogP95::Field::field/ref_formats.py", $log, '--layout', $layout,
		  '--loadable', "$dir/${t}_loadable.log", '--routes', "$dir/${t}_routes.csv",
		  '--lines', "$dir/${t}_lines.csv" ],
		'>', \$out, '2>&1');
	ok($ok, "$t: ref_formats.py --layout $layout ran") or diag($out);
	return undef unless $ok;
	return { map { split(/ /, $_, 2) } split /\n/, $out };
}

=pod

=item ff_check(node, t => name, format => text, log => file, layout => name, dir => dir, malformed => bool, detect => name)

The whole comparison of one log: the reference (ref_formats.py --layout),
the log's loadable lines COPYed into T_log with an index on
logp95_line_ts(line, FORMAT), then against the reference: the report
route by route, logp95_malformed, logp95_parse's route and latency of every
line, and logp95_line_time of every line.  MALFORMED: the log must hold
malformed lines (the hostile requests the server logged).  DETECT: what
logp95_detect_format must make of the log's lines (a preset's name, or
'NULL' for a layout no preset reads).  Returns true
when logp95 knew the format (the checks ran), false when they were
skipped.

=cut

sub ff_check
{
	my ($node, %a) = @_;
	my ($t, $format, $log, $layout, $dir) = @a{qw(t format log layout dir)};
	my $f = ff_sql_literal($format);
	my $ref = ff_reference($log, $layout, $dir, $t);
	return 0 unless $ref;
	my ($hostile) = $ref->{clients} =~ /(?:^|\s)127\.0\.0\.2:(\d+)/;
	$hostile //= 0;
	note("$t: $ref->{lines} lines, $ref->{routes} routes, $ref->{requests} requests, "
		  . "$ref->{malformed} malformed, $ref->{no_time} without a time, $ref->{dropped} not loadable "
		  . "(not UTF-8), $hostile from 127.0.0.2; clients $ref->{clients}");
	note("$t: format $format");
	cmp_ok($ref->{lines}, '>', 300, "$t: the log has some volume");
	cmp_ok($hostile, '>', 0, "$t: the log has lines of the hostile requests");
	cmp_ok($ref->{malformed}, '>', 0, "$t: the log has malformed lines") if $a{malformed};
	if ($ENV{LP_FIELD_KEEP})
	{
		mkdir $ENV{LP_FIELD_KEEP};
		copy("$dir/$_", "$ENV{LP_FIELD_KEEP}/$_")
		  for ("${t}_loadable.log", "${t}_routes.csv", "${t}_lines.csv");
	}

	# Does logp95 know the format?  ("unknown log format": skip)
	my ($known, $probe) = field_try_sql($node,
		"SET logp95.on_malformed = skip;\nSELECT logp95_malformed(logp95_agg(l, $f)) FROM (VALUES ('x')) v(l);");
  SKIP:
	{
		if (!$known && $probe =~ /unknown log format/)
		{
			my ($first) = $probe =~ /(unknown log format[^\n]*)/;
			note("$t: $probe");
			skip("$t: logp95 does not read this format yet ($first)", 11);
		}
		ok($known, "$t: logp95 accepts the format") or diag($probe);
		skip("$t: the format is refused", 10) unless $known;

		my $loadable = "$dir/${t}_loadable.log";
		my ($copied, $res) = field_try_sql($node, qq{
CREATE TABLE ${t}_ref_report(route text, requests bigint, p50_ms bigint, p95_ms bigint, p99_ms bigint, max_ms bigint);
CREATE TABLE ${t}_ref_lines(n bigint PRIMARY KEY, ts timestamp, route text, ms bigint, client text);
COPY ${t}_ref_report FROM '$dir/${t}_routes.csv' WITH (FORMAT csv);
COPY ${t}_ref_lines FROM '$dir/${t}_lines.csv' WITH (FORMAT csv);
CREATE TABLE ${t}_log(n bigint GENERATED ALWAYS AS IDENTITY, line text);
CREATE INDEX ${t}_log_ts ON ${t}_log (logp95_line_ts(line, $f));
COPY ${t}_log(line) FROM '$loadable' WITH (FORMAT csv, DELIMITER E'\\x01', QUOTE E'\\x02');
SELECT count(*) FROM ${t}_log;});
		ok($copied, "$t: COPY into a table with the logp95_line_ts(line, format) index") or diag($res);
		is($copied ? $res : -1, $ref->{lines}, "$t: every loadable line of the log loaded");

		# The report, route by route, and the malformed count.
		my ($rep_ok, $rep) = field_try_sql($node, qq{
SET logp95.on_malformed = skip;
CREATE TABLE ${t}_got AS SELECT * FROM logp95_report((SELECT logp95_agg(line, $f) FROM ${t}_log));
SELECT logp95_malformed(logp95_agg(line, $f)) FROM ${t}_log;});
		if ($rep_ok)
		{
			my $diff = $node->safe_psql($db, qq{
SELECT (SELECT count(*) FROM ${t}_got), (SELECT coalesce(sum(requests), 0) FROM ${t}_got),
       (SELECT count(*) FROM (TABLE ${t}_got EXCEPT ALL TABLE ${t}_ref_report) a)
     + (SELECT count(*) FROM (TABLE ${t}_ref_report EXCEPT ALL TABLE ${t}_got) b)});
			my ($routes, $requests, $differ) = split /\|/, $diff;
			is("$routes routes, $requests requests", "$ref->{routes} routes, $ref->{requests} requests",
				"$t: routes and requests of the report equal the reference's");
			is($differ, 0, "$t: every route's requests, p50, p95, p99 and max equal the reference's");
			diag("$t: differing routes (logp95 | reference), 20 at most:\n" . $node->safe_psql($db, qq{
SELECT coalesce(g.route, w.route) || ': ' || coalesce(row(g.*)::text, 'none') || ' | ' || coalesce(row(w.*)::text, 'none')
FROM ${t}_got g FULL JOIN ${t}_ref_report w ON g.route = w.route
WHERE row(g.*) IS DISTINCT FROM row(w.*) ORDER BY 1 LIMIT 20})) if $differ ne '0';
			is((split /\n/, $rep)[-1], $ref->{malformed}, "$t: logp95_malformed equals the reference's");
		}
		else
		{
			fail("$t: report") for 1 .. 3;
			diag("$t: $rep");
		}

		# Line by line: logp95_parse's route and latency (or a problem)
		# against the reference's route and ms (or malformed).
		my ($lines_ok, $lines) = field_try_sql($node, qq{
CREATE TABLE ${t}_parsed AS SELECT l.n, p.route, p.latency_ms, p.problem, l.line
FROM ${t}_log l, LATERAL logp95_parse(l.line, $f) p;
SELECT count(*), count(*) FILTER (WHERE (CASE WHEN p.problem IS NULL THEN p.route END,
                                          CASE WHEN p.problem IS NULL THEN p.latency_ms END)
                                         IS DISTINCT FROM (r.route, r.ms))
FROM ${t}_parsed p FULL JOIN ${t}_ref_lines r USING (n);});
		my ($n, $ndiff) = $lines_ok ? split(/\|/, $lines) : (-1, -1);
		ok($lines_ok, "$t: logp95_parse of every line without an error") or diag($lines);
		is("$n lines, $ndiff differ", "$ref->{lines} lines, 0 differ",
			"$t: every line's route and latency (logp95_parse) equal the reference's, or both malformed");
		diag("$t: lines that differ (logp95 | reference), 30 at most:\n" . $node->safe_psql($db, qq{
SELECT n || ': ' || coalesce(p.route, '-') || ' ' || coalesce(p.latency_ms::text, '-') || ' ' || coalesce(p.problem, 'ok')
       || ' | ' || coalesce(r.route, 'malformed') || ' ' || coalesce(r.ms::text, '') || E'\\n    ' || left(p.line, 160)
FROM ${t}_parsed p FULL JOIN ${t}_ref_lines r USING (n)
WHERE (CASE WHEN p.problem IS NULL THEN p.route END, CASE WHEN p.problem IS NULL THEN p.latency_ms END)
      IS DISTINCT FROM (r.route, r.ms)
ORDER BY n LIMIT 30})) if $lines_ok && $ndiff ne '0';

		# Every line's time: logp95_line_time (timestamptz) and the
		# indexed logp95_line_ts (UTC timestamp) against the reference's.
		my ($ts_ok, $ts) = field_try_sql($node, qq{
SET TimeZone = 'Asia/Kolkata';
SELECT count(*),
       count(*) FILTER (WHERE logp95_line_time(l.line, $f) AT TIME ZONE 'UTC' IS DISTINCT FROM r.ts),
       count(*) FILTER (WHERE logp95_line_ts(l.line, $f) IS DISTINCT FROM r.ts),
       count(r.ts)
FROM ${t}_log l JOIN ${t}_ref_lines r USING (n);});
		my ($tn, $tdiff, $tsdiff, $with_time) = $ts_ok ? split(/\|/, $ts) : (-1, -1, -1, 0);
		ok($ts_ok, "$t: logp95_line_time and logp95_line_ts of every line without an error") or diag($ts);
		is("$tn lines, $tdiff differ", "$ref->{lines} lines, 0 differ",
			"$t: every line's logp95_line_time equals the reference's time ($with_time with a time)");
		is($tsdiff, 0, "$t: every line's logp95_line_ts equals the reference's UTC time");
		diag("$t: times that differ (logp95 | reference), 10 at most:\n" . $node->safe_psql($db, qq{
SET TimeZone = 'UTC';
SELECT n || ': ' || coalesce(logp95_line_time(l.line, $f)::text, 'null') || ' | ' || coalesce(r.ts::text, 'null')
       || E'\\n    ' || left(l.line, 160)
FROM ${t}_log l JOIN ${t}_ref_lines r USING (n)
WHERE logp95_line_time(l.line, $f) AT TIME ZONE 'UTC' IS DISTINCT FROM r.ts ORDER BY n LIMIT 10})) if $ts_ok && $tdiff ne '0';

		# What logp95_detect_format makes of the whole log: the preset, or
		# NULL for a layout of the server's own (no preset parses half).
		if (defined $a{detect})
		{
			my ($d_ok, $d) = field_try_sql($node,
				"SELECT coalesce(logp95_detect_format(array_agg(line ORDER BY n)), 'NULL') FROM ${t}_log;");
			is($d_ok ? $d : "error: $d", $a{detect}, "$t: logp95_detect_format of the log's lines gives $a{detect}");
		}
		return 1;
	}
	return 0;
}

=pod

=item ff_same_reports(node, label, t1, t2, except)

The reports of two logs of the same requests (T1_got and T2_got, made by
ff_check) are equal, route by route; EXCEPT (optional) is a condition on
route for the routes left out.

=cut

sub ff_same_reports
{
	my ($node, $label, $t1, $t2, $except) = @_;
	my $keep = defined $except ? "WHERE NOT ($except)" : '';
	my $res = $node->safe_psql($db, qq{
CREATE TEMP VIEW ${t1}_cmp AS SELECT * FROM ${t1}_got $keep;
CREATE TEMP VIEW ${t2}_cmp AS SELECT * FROM ${t2}_got $keep;
SELECT (SELECT count(*) FROM (TABLE ${t1}_cmp EXCEPT ALL TABLE ${t2}_cmp) a)
     + (SELECT count(*) FROM (TABLE ${t2}_cmp EXCEPT ALL TABLE ${t1}_cmp) b), (SELECT count(*) FROM ${t1}_cmp)});
	my ($differ, $routes) = split /\|/, $res;
	is($differ, 0, "$label: the same requests count under the same routes, with the same latencies ($routes routes)");
	diag("$label: routes that differ ($t1 | $t2):\n" . $node->safe_psql($db, qq{
SELECT coalesce(a.route, b.route) || ': ' || coalesce(row(a.*)::text, 'none') || ' | ' || coalesce(row(b.*)::text, 'none')
FROM (SELECT * FROM ${t1}_got $keep) a FULL JOIN (SELECT * FROM ${t2}_got $keep) b ON a.route = b.route
WHERE row(a.*) IS DISTINCT FROM row(b.*) ORDER BY 1 LIMIT 20})) if $differ ne '0';
	return;
}

1;
