# test/t/042_formats_vs_1_1.pl -- every released format reads every line as the 1.1 library did
#
# Issue 23 rebuilt the format layer (one status enum, entries that carry
# their behaviour, direct parsers, named SIMD primitives, the glue split).
# logp95_line_ts and logp95_generate are IMMUTABLE and the states of
# logp95_agg are stored, so every released format must give, for every
# line, byte for byte what the released 1.1 library gives:
#
#   - states: logp95_state_send(logp95_agg(line, format [, options])) of
#     each line alone, in skip mode, for every format and the option sets
#     none, templates, query, templates+query, skip (and logp95_agg(line));
#     and the state of all the lines at once in each of those;
#   - errors: SQLSTATE, message, detail and hint of logp95_agg(line, format)
#     for each line in error mode (logp95.on_malformed = error, and the
#     option 'error' with templates under skip), and of logp95_agg(line);
#   - times: logp95_line_ts(line, format) and logp95_line_ts(line);
#   - logp95_generate(2000, 40, 11, format) for every format it writes.
#
# The lines: every seed of the fuzz corpora (test/fuzz/corpus/*, each file
# whole and each of its lines, NUL bytes dropped), the field logs in
# test/data, the logs the field tests write (LP_FORMATS_LOGS: files or
# directories of *.log, colon-separated; test/field's LP_FIELD_KEEP keeps
# them; at most LP_FORMATS_LOG_LINES lines a file, default 15000, evenly
# spread, plus every line not from 127.0.0.1, the field tests' hostile and
# tricky clients), every prefix of a line of each format, four mutations
# of each of those lines (a byte replaced, inserted or deleted, the line
# cut), and the lines logp95_generate writes in each format.  They go into
# a SQL_ASCII database (any byte but NUL) and, those that are valid UTF-8,
# a UTF8 database.
#
# Under the 1.1 library (built from bbdeb19, LP_RELEASED_SRC, as in
# test/t/041_upgrade_libraries.pl) each database is created at 1.1 and
# every answer stored in a table; then the current library is installed
# and the same answers computed in the same database at 1.1, and again
# after ALTER EXTENSION logp95 UPDATE (1.2, which also binds
# logp95_line_time: its instant must be logp95_line_ts's).  A difference
# names the check (state, error, time, generate; the format and the
# options), the line and both answers.  Without the released sources the
# test skips and says so.
use strict;
use warnings FATAL => 'all';

use File::Basename qw(dirname);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;			# lp_run_logged; skips the whole test as root
use LogP95::Libraries;

my %commit = lp_released_commits();
plan skip_all =>
  'no released sources: LP_RELEASED_SRC is not set (test/prove.sh sets it, from a git clone, through test/lib/released.sh)'
  unless $commit{'1.1'};

my @formats = qw(default combined combined_query combined_us combined_us_query);
my @options = ('', 'templates', 'query', 'templates,query', 'skip');

# ---------------------------------------------------------------------
# The lines
# ---------------------------------------------------------------------

my $src = dirname(dirname(dirname(__FILE__)));    # the source tree
my (@lines, %seen, %from);

# Add a line from SOURCE (once; NUL bytes dropped, they cannot be text).
sub add_line
{
	my ($source, $l) = @_;
	$l =~ s/\0//g;
	return if $seen{$l}++;
	push @lines, $l;
	$from{$source}++;
	return;
}

for my $f (sort glob("$src/test/fuzz/corpus/*/*"))
{
	my $c = slurp_file($f);
	add_line('fuzz corpora', $c);
	if ($c =~ /\n/)
	{
		add_line('fuzz corpora', $_) for split /\r?\n/, $c;
	}
}
for my $f (sort glob("$src/test/data/*.log"))
{
	add_line('test/data', $_) for split /\n/, slurp_file($f);
}
my $per_file = $ENV{LP_FORMATS_LOG_LINES} // 15000;
my @logs = map { -d $_ ? sort(glob("$_/*.log")) : ($_) } grep { length } split /:/, ($ENV{LP_FORMATS_LOGS} // '');
for my $f (@logs)
{
	my @l = split /\n/, slurp_file($f);
	my $step = @l > $per_file ? @l / $per_file : 1;
	my %take = map { (int($_ * $step) => 1) } 0 .. ($per_file - 1);
	for my $i (0 .. $#l)
	{
		add_line('field logs', $l[$i]) if $take{$i} || $l[$i] !~ /^127\.0\.0\.1 /;
	}
}
note 'field logs: ' . (@logs ? join(', ', @logs) : 'none (LP_FORMATS_LOGS is not set)');

# every prefix of a line of each format and of a hostile one
my @whole = (
	'2026-11-07T12:00:05.123+01:00 GET /api/users/42?x=1 214',
	'10.0.0.1 - frank [07/Nov/2026:12:00:05 +0100] "GET /api/users?id=7 HTTP/1.1" 200 512 "-" "curl/8" 0.214',
	'10.0.0.1 - - [07/Nov/2026:12:00:05 +0100] "GET http://h/a/b?q HTTP/1.1" 200 512 "https://r/x" "Mozilla/5.0 (X11; Linux x86_64)" 214567',
	'127.0.0.1 - [01/Jan/2000:00:00:00 +0000] \x22GET /fake HTTP/1.1\x22 [30/Nov/2026:23:52:47 +0545] "GET /a\"b HTTP/1.1" 400 24 "-" "a \" b" 0.012');
for my $w (@whole)
{
	add_line('prefixes', substr($w, 0, $_)) for 0 .. length($w);
}

# four mutations of each line so far (a fixed generator: the same lines everywhere)
my $seed = 20261201;

sub rnd
{
	$seed = ($seed * 1103515245 + 12345) % 2147483648;
	return int($seed / 2147483648 * $_[0]);
}
my @special = ('"', '\\', '[', ']', ' ', "\t", '?', '/', '-', '.', '0', '9', "\r", ':', 'x', "\x80", "\xff");
for my $l (@lines[ 0 .. $#lines ])
{
	next if length($l) > 4096;
	for my $k (1 .. 4)
	{
		my $m = $l;
		my $p = length($m) ? rnd(length($m)) : 0;
		my $c = $special[ rnd(scalar @special) ];
		if ($k == 1 && length $m) { substr($m, $p, 1) = $c }
		elsif ($k == 2) { substr($m, $p, 0) = $c }
		elsif ($k == 3 && length $m) { substr($m, $p, 1) = '' }
		else { $m = substr($m, 0, $p) }
		add_line('mutations', $m);
	}
}
note scalar(@lines) . ' lines: ' . join(', ', map { "$_ $from{$_}" } sort keys %from)
  . ', and the lines logp95_generate writes';

# COPY text form: id, line; the lines that are valid UTF-8 in a file of their own
my $dir = PostgreSQL::Test::Utils::tempdir('lines');
my %file = (ascii => "$dir/ascii.tsv", utf8 => "$dir/utf8.tsv");
my %count;
open(my $fa, '>:raw', $file{ascii}) or die "cannot write $file{ascii}: $!";
open(my $fu, '>:raw', $file{utf8}) or die "cannot write $file{utf8}: $!";
for my $i (0 .. $#lines)
{
	my $l = $lines[$i];
	my $u = $l;
	my $valid = utf8::decode($u);
	$l =~ s/\\/\\\\/g;
	$l =~ s/\t/\\t/g;
	$l =~ s/\r/\\r/g;
	$l =~ s/\n/\\n/g;
	print $fa ($i + 1) . "\t$l\n";
	$count{ascii}++;
	if ($valid)
	{
		print $fu ($i + 1) . "\t$l\n";
		$count{utf8}++;
	}
}
close($fa);
close($fu);
chmod 0644, values %file;

# ---------------------------------------------------------------------
# The libraries and the cluster
# ---------------------------------------------------------------------

my $inst = lp_install_copy();
my %library = (current => lp_library_stash('current', $inst->{orig}{pkglibdir}, $inst->{orig}{sharedir}));
$library{'1.1'} = lp_library_build('1.1', $commit{'1.1'}, $inst);
lp_library_install($library{'1.1'}, $inst);

my $node = PostgreSQL::Test::Cluster->new('formats', install_path => dirname($inst->{copy}{bindir}));
$node->init(extra => [ '--encoding=UTF8', '--locale=C.UTF-8' ]);
$node->append_conf('postgresql.conf', "jit = off\nautovacuum = off\nmax_parallel_workers_per_gather = 0\n");
$node->start;

my %db = (ascii => q{ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C'},
	utf8 => q{ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8'});
my $fmts = 'ARRAY[' . join(', ', map { "'$_'" } @formats) . ']';

for my $d (sort keys %db)
{
	$node->safe_psql('postgres', "CREATE DATABASE $d TEMPLATE template0 $db{$d}");
	$node->safe_psql($d, qq{
		CREATE EXTENSION logp95 VERSION '1.1';
		CREATE TABLE lines(id int PRIMARY KEY, line text NOT NULL);
		COPY lines FROM '$file{$d}';
		-- the generated lines, as the released library writes them
		INSERT INTO lines SELECT 1000000 + 10000 * f.n + g.i, g.l
		  FROM unnest($fmts) WITH ORDINALITY f(fmt, n),
		       LATERAL logp95_generate(2000, 40, 11, f.fmt) WITH ORDINALITY g(l, i);
		ANALYZE lines;
		-- one line's error in error mode: sqlstate|message|detail|hint, or ok
		CREATE FUNCTION line_errors(fmt text, opts text) RETURNS TABLE(id int, val text)
		LANGUAGE plpgsql AS \$\$
		DECLARE
			r record;
			st text;
			m text;
			dt text;
			h text;
		BEGIN
			FOR r IN SELECT l.id, l.line FROM lines l ORDER BY l.id LOOP
				BEGIN
					IF fmt IS NULL THEN
						PERFORM logp95_agg(r.line);
					ELSIF opts IS NULL THEN
						PERFORM logp95_agg(r.line, fmt);
					ELSE
						PERFORM logp95_agg(r.line, fmt, opts);
					END IF;
					id := r.id;
					val := 'ok';
				EXCEPTION WHEN others THEN
					GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, m = MESSAGE_TEXT,
						dt = PG_EXCEPTION_DETAIL, h = PG_EXCEPTION_HINT;
					id := r.id;
					val := st || '|' || m || '|' || dt || '|' || h;
				END;
				RETURN NEXT;
			END LOOP;
		END \$\$;
	});
	my $n = $node->safe_psql($d, 'SELECT count(*) FROM lines');
	note "database $d: $n lines ($count{$d} read, the rest generated)";
}

# Compute every answer of the library installed now into table res_TAG.
sub answers
{
	my ($d, $tag, $v12) = @_;
	my $sql = qq{
		DROP TABLE IF EXISTS res_$tag;
		CREATE TABLE res_$tag(chk text, id int, val text);
		SET logp95.on_malformed = skip;
		INSERT INTO res_$tag SELECT 'state logp95_agg(line)', id,
			encode(logp95_state_send(logp95_agg(line)), 'hex') FROM lines GROUP BY id;
		INSERT INTO res_$tag SELECT 'state of all lines, logp95_agg(line)', 0,
			encode(logp95_state_send(logp95_agg(line ORDER BY id)), 'hex') FROM lines;
	};
	for my $f (@formats)
	{
		for my $o (@options)
		{
			my $args = $o eq '' ? "line, '$f'" : "line, '$f', '$o'";
			$sql .= qq{
				INSERT INTO res_$tag SELECT 'state $f [$o]', id,
					encode(logp95_state_send(logp95_agg($args)), 'hex') FROM lines GROUP BY id;
				INSERT INTO res_$tag SELECT 'state of all lines, $f [$o]', 0,
					encode(logp95_state_send(logp95_agg($args ORDER BY id)), 'hex') FROM lines;
			};
		}
		$sql .= qq{
			INSERT INTO res_$tag SELECT 'error $f [error,templates]', id, val FROM line_errors('$f', 'error,templates');
			SET logp95.on_malformed = error;
			INSERT INTO res_$tag SELECT 'error $f', id, val FROM line_errors('$f', NULL);
			SET logp95.on_malformed = skip;
			INSERT INTO res_$tag SELECT 'time $f', id, coalesce(logp95_line_ts(line, '$f')::text, 'NULL') FROM lines;
			INSERT INTO res_$tag SELECT 'generate $f', i::int, l FROM logp95_generate(2000, 40, 11, '$f') WITH ORDINALITY g(l, i);
		};
		# 1.2: logp95_line_time is the same instant as logp95_line_ts
		$sql .= qq{
			INSERT INTO res_$tag SELECT 'time $f', id, coalesce((logp95_line_time(line, '$f') AT TIME ZONE 'UTC')::text, 'NULL') FROM lines;
		} if $v12;
	}
	$sql .= qq{
		SET logp95.on_malformed = error;
		INSERT INTO res_$tag SELECT 'error logp95_agg(line)', id, val FROM line_errors(NULL, NULL);
		INSERT INTO res_$tag SELECT 'time logp95_line_ts(line)', id, coalesce(logp95_line_ts(line)::text, 'NULL') FROM lines;
		INSERT INTO res_$tag SELECT 'generate logp95_generate(n, routes, seed)', i::int, l FROM logp95_generate(2000, 40, 11) WITH ORDINALITY g(l, i);
		SELECT count(*) FROM res_$tag;
	};
	my $n = $node->safe_psql($d, $sql);
	note "database $d: $n answers of the $tag library";
	return $n;
}

# Compare res_A with res_B check by check: one assertion a kind of check,
# the first differences named.  In res_B a check may hold two answers a
# line (1.2's logp95_line_time beside logp95_line_ts): each must be A's.
sub compare
{
	my ($d, $a, $b, $what) = @_;
	my $diffs = $node->safe_psql($d, qq{
		SELECT split_part(chk, ' ', 1), count(*) FROM (
			SELECT coalesce(x.chk, y.chk) AS chk FROM res_$a x FULL JOIN res_$b y
			  ON x.chk = y.chk AND x.id = y.id
			 WHERE x.val IS DISTINCT FROM y.val) d
		 GROUP BY 1 ORDER BY 1});
	my %n = map { split /\|/ } grep { length } split /\n/, $diffs;
	my $checks = $node->safe_psql($d, qq{
		SELECT split_part(chk, ' ', 1), count(DISTINCT chk), count(*) FROM res_$a GROUP BY 1 ORDER BY 1});
	for my $row (split /\n/, $checks)
	{
		my ($kind, $nchk, $nrows) = split /\|/, $row;
		my $bad = $n{$kind} // 0;
		is($bad, 0, "$d: $what: $kind, $nchk checks, $nrows answers the same")
		  or diag($node->safe_psql($d, qq{
			SELECT format('%s, line %s %s: 1.1 gave %s, got %s', coalesce(x.chk, y.chk), coalesce(x.id, y.id),
			              left(quote_literal(l.line), 300), left(coalesce(x.val, '(none)'), 400),
			              left(coalesce(y.val, '(none)'), 400))
			  FROM res_$a x FULL JOIN res_$b y ON x.chk = y.chk AND x.id = y.id
			  LEFT JOIN lines l ON l.id = coalesce(x.id, y.id)
			 WHERE x.val IS DISTINCT FROM y.val AND split_part(coalesce(x.chk, y.chk), ' ', 1) = '$kind'
			 ORDER BY coalesce(x.id, y.id) LIMIT 5}));
	}
	return;
}

answers($_, 'v11', 0) for sort keys %db;

# the current library, at 1.1 and then at 1.2
$node->stop;
lp_library_install($library{current}, $inst);
$node->start;
for my $d (sort keys %db)
{
	answers($d, 'cur11', 0);
	compare($d, 'v11', 'cur11', 'the current library at 1.1 = the 1.1 library');
	$node->safe_psql($d, 'ALTER EXTENSION logp95 UPDATE');
	is($node->safe_psql($d, q{SELECT extversion FROM pg_extension WHERE extname = 'logp95'}),
		$node->safe_psql('postgres', q{SELECT default_version FROM pg_available_extensions WHERE name = 'logp95'}),
		"$d: updated to the default version");
	answers($d, 'cur12', 1);
	compare($d, 'v11', 'cur12', 'the current library at 1.2 = the 1.1 library');
}

$node->stop;
done_testing();
