# test/t/041_upgrade_libraries.pl -- what the released libraries stored stays true under the current one
#
# Issue 21: logp95_line_ts is IMMUTABLE and users index it, but the 1.1
# library returns other values than the 1.0 library for some lines (a
# combined line whose $remote_user holds a bracketed time, instants outside
# years 0001-9999 in UTC), so an index built under 1.0 misses rows once a
# later library is installed.  The update to 1.2 rebuilds every index that
# uses logp95_line_ts and warns about the stored results it cannot rebuild.
#
# The test builds the released libraries from their commits (1.0 = 27d5dff,
# whose source builds on PostgreSQL 15 only; 1.1 = bbdeb19) and, in a
# private copy of the server installation under test, for each of them:
#
#   1. installs that library, creates the extension at its version and
#      builds indexes over a few hundred edge and hostile lines of every
#      format (expression indexes, partial indexes with logp95_line_ts in
#      the predicate, an index of a partitioned table), the issue's two
#      reproduction lines, stored states, views, and a materialized view, a
#      CHECK constraint, a generated column and a partition key on
#      logp95_line_ts; amcheck passes under that library;
#   2. installs the current library (the one installed in the server under
#      test) and, before any update, runs amcheck's bt_index_check(index,
#      true) on every index: on the 1.0 database exactly the indexes that
#      the stored values predict fail (so this check can fail; the issue's
#      "heap tuple (0,1) from table "c" lacks matching index tuple"), on the
#      1.1 database none, and no line's value changed (the rule of
#      docs/architecture.md: the current library returns 1.1's results);
#   3. ALTER EXTENSION logp95 UPDATE: the WARNINGs name the materialized
#      view, the constraint, the generated column and the partition key;
#      then every index passes bt_index_check and gives the rows a
#      sequential scan gives in every window, the states read back byte for
#      byte, the views answer as under the released library, and the
#      statements the WARNINGs give make the stored results current.
#
# The released sources come from test/prove.sh in LP_RELEASED_SRC (made by
# test/lib/released.sh with git archive: the tests run from a copy of the
# tree without .git); without them the test skips and says so.  Each
# library is built with the pg_config under test, installed with DESTDIR
# into a staging directory and copied into the private copy of the
# installation (its bin, share and pkglib directories in their relative
# layout, from which PostgreSQL finds its files), which the cluster runs
# from (install_path).  A replaced library file is unlinked first, never
# overwritten in place; jit and autovacuum are off, so that no background
# process evaluates logp95_line_ts and no bitcode of another library is
# inlined.  On 16 and later only the 1.1 path runs (a skip line says so).
use strict;
use warnings FATAL => 'all';

use File::Basename qw(dirname);
use File::Copy qw(copy);
use File::Path qw(make_path remove_tree);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;			# lp_run_logged; skips the whole test as root

my $released = $ENV{LP_RELEASED_SRC};
plan skip_all =>
  'no released sources: LP_RELEASED_SRC is not set (test/prove.sh sets it, from a git clone, through test/lib/released.sh)'
  unless defined $released && -f "$released/RELEASES";
my %commit = map { split ' ' } split /\n/, slurp_file("$released/RELEASES");

# ---------------------------------------------------------------------
# The installation under test and a private copy of it
# ---------------------------------------------------------------------

# One value of pg_config.
sub pg_config
{
	my ($pg_config, $what) = @_;
	my ($rc, $out) = lp_run_logged($pg_config, "--$what");
	die "$pg_config --$what failed: $out" if $rc;
	chomp $out;
	return $out;
}

my $orig_pg_config = pg_config('pg_config', 'bindir') . '/pg_config';
my %orig = map { $_ => pg_config($orig_pg_config, $_) } qw(bindir sharedir pkglibdir);
my ($major) = pg_config($orig_pg_config, 'version') =~ /^PostgreSQL (\d+)/;
my ($default_version) = slurp_file("$orig{sharedir}/extension/logp95.control") =~
  /^default_version\s*=\s*'([^']+)'/m;
note "PostgreSQL $major, current library at default_version $default_version, "
  . join(', ', map { "$_ $commit{$_}" } sort keys %commit);

# The longest common parent of the three directories is what the copy
# replaces: PostgreSQL finds its share and pkglib directories relative to
# its programs (Debian's 15: /usr/lib/postgresql/15/bin and
# /usr/share/postgresql/15 under /usr; the kits' trees under their top).
my @split = map { [ split m{/}, $orig{$_} ] } sort keys %orig;
my @common;
for (my $i = 0;; $i++)
{
	my $part = $split[0][$i];
	last if !defined $part || grep { !defined $_->[$i] || $_->[$i] ne $part } @split;
	push @common, $part;
}
my $prefix = join('/', @common);
my $inst = PostgreSQL::Test::Utils::tempdir('install');
my %copy;
for my $dir (sort keys %orig)
{
	($copy{$dir} = $orig{$dir}) =~ s/^\Q$prefix\E/$inst/;
	make_path(dirname($copy{$dir}));
	my ($rc, $out) = lp_run_logged('cp', '-a', $orig{$dir}, $copy{$dir});
	die "cannot copy $orig{$dir} to $copy{$dir}: $out" if $rc;
}
is( join(' ', map { pg_config("$copy{bindir}/pg_config", $_) } qw(sharedir pkglibdir)),
	"$copy{sharedir} $copy{pkglibdir}",
	'the private copy of the installation finds its files in the copy');

# ---------------------------------------------------------------------
# The libraries: the current one and the released ones
# ---------------------------------------------------------------------

# A library is a directory holding lib/logp95.so and extension/ (its
# control file and scripts).  Take one from installed directories.
sub stash_library
{
	my ($name, $pkglibdir, $sharedir) = @_;
	my $dir = PostgreSQL::Test::Utils::tempdir("library-$name");
	make_path("$dir/lib", "$dir/extension");
	copy("$pkglibdir/logp95.so", "$dir/lib/logp95.so") or die "no $pkglibdir/logp95.so: $!";
	my @ext = (glob("$sharedir/extension/logp95.control"), glob("$sharedir/extension/logp95--*.sql"));
	die "no logp95 control file in $sharedir/extension" unless grep { /\.control$/ } @ext;
	copy($_, "$dir/extension/") or die "cannot copy $_: $!" for @ext;
	return $dir;
}

# Build a released version from LP_RELEASED_SRC with the pg_config under
# test (warnings not errors: a released source is what it is) and install
# it into a staging directory.
sub build_release
{
	my ($version) = @_;
	my $tree = PostgreSQL::Test::Utils::tempdir("src-$version");
	my $stage = PostgreSQL::Test::Utils::tempdir("stage-$version");
	my ($rc, $out) = lp_run_logged('cp', '-a', "$released/$version/.", $tree);
	die "cannot copy $released/$version: $out" if $rc;
	($rc, $out) = lp_run_logged('make', '-s', '-C', $tree, '-j2', "PG_CONFIG=$orig_pg_config", 'PG_CFLAGS=');
	($rc, $out) = lp_run_logged('make', '-s', '-C', $tree, "PG_CONFIG=$orig_pg_config", "DESTDIR=$stage", 'install')
	  unless $rc;
	ok($rc == 0, "the $version library ($commit{$version}) builds and installs on PostgreSQL $major")
	  or diag($out);
	die "cannot go on without the $version library" if $rc;
	return stash_library($version, "$stage$orig{pkglibdir}", "$stage$orig{sharedir}");
}

my %library = (current => stash_library('current', $orig{pkglibdir}, $orig{sharedir}));
my @paths = ('1.1');
if ($major == 15)
{
	unshift @paths, '1.0';
}
else
{
  SKIP:
	{
		skip "the 1.0 path: the 1.0 source ($commit{'1.0'}) builds on PostgreSQL 15 only "
		  . "(16 and 17 need varatt.h, 18 lost pg_attribute_noreturn), so only 1.1 -> $default_version runs on $major",
		  1;
	}
}
$library{$_} = build_release($_) for @paths;

# Put library NAME into the private copy: the old files are unlinked first
# (a backend that has the old logp95.so mapped keeps it), then copied.
sub install_library
{
	my ($name) = @_;
	my $from = $library{$name};
	unlink("$copy{pkglibdir}/logp95.so", "$copy{pkglibdir}/bitcode/logp95.index.bc",
		glob("$copy{sharedir}/extension/logp95.control"),
		glob("$copy{sharedir}/extension/logp95--*.sql"));
	remove_tree("$copy{pkglibdir}/bitcode/logp95");
	copy("$from/lib/logp95.so", "$copy{pkglibdir}/logp95.so") or die "cannot install $name: $!";
	for my $f (glob("$from/extension/*"))
	{
		copy($f, "$copy{sharedir}/extension/") or die "cannot install $f: $!";
	}
	note "installed the $name library";
	return;
}

# ---------------------------------------------------------------------
# Edge and hostile lines of every format
# ---------------------------------------------------------------------

# A fixed linear congruential generator: the same lines on every machine.
my $seed = 20261107;

sub pick
{
	$seed = ($seed * 1103515245 + 12345) % 2147483648;
	return $_[ int($seed / 2147483648 * @_) ];
}

my @formats = qw(default combined combined_query combined_us combined_us_query);
my @lines;    # [format, line]

# default: the first field is an ISO 8601 instant
my @dates = qw(0001-01-01 0001-01-02 0000-12-31 1969-12-31 1970-01-01 2000-02-29
  2026-11-07 9999-12-31 9999-12-30 2100-02-29 2026-13-01 2026-04-31);
my @times = qw(00:00:00 00:59:59 23:59:59 12:00:00 24:00:00 23:60:00);
my @fractions = ('', '.5', '.999999', '.9999995', '.9999994', '.0000005', '.123456789', '.');
my @zones = ('', 'Z', '+00:00', '+01:00', '-01:00', '+15:00', '-15:00', '+1400', '-14', '+15:59', '+16:00', '+01:0');
my @shapes = ('%s GET /e 1', '%s /api/x 12', ' %s /a 3', "\t%s /tab 4", "%s /cr 5\r", '%s',
	'%s /r%%C3%%A9 7', "%s /\xc3\xa9t\xc3\xa9 8", '%s  /two-blanks 9');
for my $d (@dates)
{
	for my $z (@zones)
	{
		push @lines, [ 'default', sprintf(pick(@shapes), $d . 'T' . pick(@times[ 0 .. 3 ]) . pick(@fractions) . $z) ];
	}
}
for my $d ('0001-01-01T00:00:00', '9999-12-31T23:59:59')
{
	for my $f (@fractions)
	{
		push @lines, [ 'default', "$d$f$_ GET /e 1" ] for @zones[ 0 .. 6 ];
	}
}
push @lines, [ 'default', sprintf(pick(@shapes), pick(@dates) . 'T' . pick(@times) . pick(@fractions) . pick(@zones)) ]
  for 1 .. 60;
push @lines, [ 'default', $_ ]
  for ('', ' ', 'x', '2026-11-07', '2026-11-07T00:00', '2026-11-07 00:00:00 /a 1', 'T00:00:00Z /a 1',
	"\xef\xbc\x92\xef\xbc\x90\xef\xbc\x92\xef\xbc\x96-11-07T00:00:00Z /a 1",
	'2026-11-07T00:00:00Z ' . ('/a' x 2000) . ' 1');

# the combined family: the time is the [...] field before the request
my @clients = ('198.51.100.1', '[2001:db8::1]', '-', '', ' 10.0.0.1');
my @users = ('- -', '- [01/Jan/2000:00:00:00 +0000]', '- [x]', '- "u [01/Jan/2000:00:00:00 +0000]"',
	'a]b [c', '- [31/Dec/9999:23:59:59 -0100]', '- [07/Nov/2026:01:00:00 +0000] ');
my @clf_dates = ('07/Nov/2026', '01/Jan/0001', '31/Dec/9999', '29/Feb/2000', '29/Feb/2100', '07/nov/2026',
	'07/NOV/2026', '01/Jan/1970', '7/Nov/2026', '07/Nox/2026');
my @clf_times = ('01:00:00', '00:00:00', '23:59:59', '24:00:00');
my @offsets = ('+0000', '+0100', '-0100', '+1500', '-1500', '+1459', '+1600', '+01:00', '', '+00');
my @requests = ('"GET /login HTTP/1.1"', '"GET /a[1] HTTP/1.1"', '"-"',
	'"GET /x?y=[07/Nov/2026:01:00:00 +0000] HTTP/1.1"', '', '"POST /api/v1 HTTP/2.0"',
	'"GET http://h/p HTTP/1.1"', '"GET /unterminated');
my %tail = (
	combined => '401 0 "-" "curl/8.0" 0.001',
	combined_query => '200 12 "-" "curl/8.0 [en]" 1.250',
	combined_us => '200 5 "https://r/[x]" "ua" 1234',
	combined_us_query => '304 0 "-" "-" 99');
for my $f (@formats[ 1 .. 4 ])
{
	for my $u (@users)
	{
		for my $d (@clf_dates)
		{
			push @lines, [ $f, join(' ', pick(@clients), $u,
				"[$d:" . pick(@clf_times[ 0 .. 2 ]) . ' ' . pick(@offsets[ 0 .. 5 ]) . ']',
				pick(@requests[ 0 .. 3 ]), $tail{$f}) ];
		}
	}
	push @lines, [ $f, join(' ', pick(@clients), pick(@users),
		'[' . pick(@clf_dates) . ':' . pick(@clf_times) . ' ' . pick(@offsets) . ']',
		pick(@requests), $tail{$f}) ]
	  for 1 .. 30;
	push @lines, map { [ $f, $_ ] } (
		qq{198.51.100.1 - - "GET / HTTP/1.1" [07/Nov/2026:01:00:00 +0000] $tail{$f}},
		qq{198.51.100.1 - - "GET / HTTP/1.1" $tail{$f}},
		qq{198.51.100.1 - - [07/Nov/2026:01:00:00 +0000] [08/Nov/2026:01:00:00 +0000] "GET / HTTP/1.1" $tail{$f}},
		qq{198.51.100.1 - - [07/Nov/2026:01:00:00 +0000]},
		qq{198.51.100.1 - - [07/Nov/2026:01:00:00 +0000] "GET / HTTP/1.1" $tail{$f}\r});
}

# COPY text form: id, format, line
my $lines_file = PostgreSQL::Test::Utils::tempdir('lines') . '/lines.tsv';
open(my $fh, '>:raw', $lines_file) or die "cannot write $lines_file: $!";
for my $i (0 .. $#lines)
{
	my ($f, $l) = @{ $lines[$i] };
	$l =~ s/\\/\\\\/g;
	$l =~ s/\t/\\t/g;
	$l =~ s/\r/\\r/g;
	$l =~ s/\n/\\n/g;
	print $fh ($i + 1) . "\t$f\t$l\n";
}
close($fh);
note scalar(@lines) . " edge and hostile lines: "
  . join(', ', map { my $f = $_; "$f " . scalar(grep { $_->[0] eq $f } @lines) } @formats);

# ---------------------------------------------------------------------
# The indexed tables
# ---------------------------------------------------------------------

# Windows of an index scan against a sequential scan: [label, condition on @E@].
my @windows = (
	[ 'NULL', '@E@ IS NULL' ],
	[ 'before 0001-01-01', q{@E@ < '0001-01-01'} ],
	[ '0001-01-01 .. 2000-01-01', q{@E@ >= '0001-01-01' AND @E@ < '2000-01-01'} ],
	[ '2000-01-01', q{@E@ >= '2000-01-01' AND @E@ < '2000-01-02'} ],
	[ '2000-01-02 .. 2026-11-07', q{@E@ >= '2000-01-02' AND @E@ < '2026-11-07'} ],
	[ '2026-11-07 00:00 .. 00:04', q{@E@ >= '2026-11-07' AND @E@ < '2026-11-07 00:04'} ],
	[ '2026-11-07 00:04 .. 2026-11-08', q{@E@ >= '2026-11-07 00:04' AND @E@ < '2026-11-08'} ],
	[ '2026-11-08 .. 9999-12-31', q{@E@ >= '2026-11-08' AND @E@ < '9999-12-31'} ],
	[ 'from 9999-12-31', q{@E@ >= '9999-12-31'} ]);
my @late_windows = (
	[ 'from 2010-01-01', q{@E@ >= '2010-01-01'} ],
	[ '2026-11-07', q{@E@ >= '2026-11-07' AND @E@ < '2026-11-08'} ],
	[ 'from 9999-12-31', q{@E@ >= '9999-12-31'} ]);

# The kinds of index on an expression @E@ of a table @T@ (one index a
# table, so that the planner has only that index to choose): its
# definition, the windows it serves, and the rows that make amcheck's
# heapallindexed check fail once @E@ is no longer what it was when the row
# went in (ts_then): rows that the predicate takes whose key changed.
my %kinds = (
	ts => {
		sql => 'CREATE INDEX @T@_idx ON @T@ (@E@)',
		windows => \@windows,
		stale => '@E@ IS DISTINCT FROM ts_then' },
	nn => {
		sql => 'CREATE INDEX @T@_idx ON @T@ (@E@) WHERE @E@ IS NOT NULL',
		windows => [ @windows[ 1 .. $#windows ] ],
		stale => '@E@ IS NOT NULL AND @E@ IS DISTINCT FROM ts_then' },
	late => {
		sql => q{CREATE INDEX @T@_idx ON @T@ (id) WHERE @E@ >= '2010-01-01'},
		windows => \@late_windows,
		stale => q{@E@ >= '2010-01-01' AND NOT coalesce(ts_then >= '2010-01-01', false)} });

# The expressions: [table prefix, format of its lines, expression]
my @exprs = (
	[ 'default', 'default', 'logp95_line_ts(line)' ],
	[ 'default2', 'default', q{logp95_line_ts(line, 'default')} ],
	map { [ $_, $_, "logp95_line_ts(line, '$_')" ] } @formats[ 1 .. 4 ]);

sub fill
{
	my ($sql, $table, $expr) = @_;
	$sql =~ s/\@T\@/$table/g;
	$sql =~ s/\@E\@/$expr/g;
	return $sql;
}

my $node = PostgreSQL::Test::Cluster->new('libraries', install_path => dirname($copy{bindir}));
$node->init(extra => [ '--encoding=UTF8', '--locale=C.UTF-8' ]);
$node->append_conf('postgresql.conf', "jit = off\nautovacuum = off\n");
$node->start;

# What each database holds: the indexes to check, by database.
my %indexes;    # db => [ { index, table, expr, windows, stale (undef: none to predict) } ]

# Build everything under the library installed now, in database DB at
# extension version VERSION.
sub build_objects
{
	my ($db, $version) = @_;
	my @ix;

	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, qq{
		CREATE EXTENSION logp95 VERSION '$version';
		CREATE EXTENSION amcheck;
		-- the issue's reproduction
		CREATE TABLE c(id int, line text, ts_then timestamp);
		INSERT INTO c VALUES (1, '198.51.100.1 - [01/Jan/2000:00:00:00 +0000] [07/Nov/2026:01:00:00 +0000] "GET /login HTTP/1.1" 401 0 "-" "curl/8.0" 0.001');
		UPDATE c SET ts_then = logp95_line_ts(line, 'combined');
		CREATE INDEX c_ts ON c (logp95_line_ts(line, 'combined'));
		CREATE TABLE d(id int, line text, ts_then timestamp);
		INSERT INTO d VALUES (1, '9999-12-31T23:59:59.9999995Z GET /e 1');
		UPDATE d SET ts_then = logp95_line_ts(line);
		CREATE INDEX d_ts ON d (logp95_line_ts(line));

		-- the edge and hostile lines; a table takes those on which its
		-- expression does not raise an error under this library (1.0
		-- raised 22007 and 22008, later versions give NULL)
		CREATE TABLE cand(id int, fmt text, line text);
		COPY cand FROM '$lines_file';
		CREATE FUNCTION ts_ok(line text, fmt text) RETURNS bool LANGUAGE plpgsql AS \$\$
		BEGIN
			PERFORM logp95_line_ts(line, fmt);
			IF fmt = 'default' THEN
				PERFORM logp95_line_ts(line);
			END IF;
			RETURN true;
		EXCEPTION WHEN data_exception THEN
			RETURN false;
		END \$\$;
		CREATE TABLE cand_ok AS SELECT id, fmt, line FROM cand WHERE ts_ok(line, fmt);
		CREATE TABLE gen_lines AS SELECT 100000 + i AS id, line
			FROM (SELECT row_number() OVER () AS i, l AS line FROM logp95_generate(5000, 40, 7) l) g;
	});
	push @ix, { index => 'c_ts', table => 'c', expr => q{logp95_line_ts(line, 'combined')},
		windows => \@windows, stale => '@E@ IS DISTINCT FROM ts_then' };
	push @ix, { index => 'd_ts', table => 'd', expr => 'logp95_line_ts(line)',
		windows => \@windows, stale => '@E@ IS DISTINCT FROM ts_then' };

	my $sql = '';
	for my $e (@exprs)
	{
		my ($prefix, $fmt, $expr) = @$e;
		for my $kind (sort keys %kinds)
		{
			my $t = "${prefix}_$kind";
			$sql .= fill(q{
				CREATE TABLE @T@(id int, line text, ts_then timestamp);
				INSERT INTO @T@ SELECT id, line, @E@ FROM cand_ok WHERE fmt = '} . $fmt . q{' ORDER BY id;
				}, $t, $expr);
			$sql .= fill('INSERT INTO @T@ SELECT id, line, @E@ FROM gen_lines ORDER BY id;', $t, $expr)
			  if $fmt eq 'default';
			$sql .= fill("$kinds{$kind}{sql};\n", $t, $expr);
			push @ix, { index => "${t}_idx", table => $t, expr => $expr,
				windows => $kinds{$kind}{windows}, stale => $kinds{$kind}{stale} };
		}
	}

	# an index of a partitioned table: one index a partition, and scans
	# through the parent
	my $pe = q{logp95_line_ts(line, 'combined')};
	$sql .= qq{
		CREATE TABLE part(id int, line text, ts_then timestamp) PARTITION BY HASH (id);
		CREATE TABLE part_0 PARTITION OF part FOR VALUES WITH (MODULUS 3, REMAINDER 0);
		CREATE TABLE part_1 PARTITION OF part FOR VALUES WITH (MODULUS 3, REMAINDER 1);
		CREATE TABLE part_2 PARTITION OF part FOR VALUES WITH (MODULUS 3, REMAINDER 2);
		INSERT INTO part SELECT id, line, $pe FROM cand_ok WHERE fmt = 'combined' ORDER BY id;
		CREATE INDEX part_ts ON part ($pe);
	};

	# stored results that no REINDEX reaches
	$sql .= q{
		CREATE MATERIALIZED VIEW mv_ts AS SELECT id, logp95_line_ts(line) AS ts FROM default_ts;
		CREATE TABLE chk(line text CONSTRAINT chk_ts CHECK (logp95_line_ts(line) IS DISTINCT FROM '1999-01-01'));
		INSERT INTO chk SELECT line FROM default_ts;
		CREATE TABLE gen(id int, line text, ts timestamp GENERATED ALWAYS AS (logp95_line_ts(line)) STORED);
		INSERT INTO gen(id, line) SELECT id, line FROM default_ts;
		CREATE TABLE pkey(id int, line text) PARTITION BY RANGE (logp95_line_ts(line, 'combined'));
		CREATE TABLE pkey_old PARTITION OF pkey FOR VALUES FROM (MINVALUE) TO ('2010-01-01');
		CREATE TABLE pkey_new PARTITION OF pkey FOR VALUES FROM ('2010-01-01') TO (MAXVALUE);
		CREATE TABLE pkey_none PARTITION OF pkey DEFAULT;
		INSERT INTO pkey SELECT id, line FROM combined_ts;
	};

	# states and views
	$sql .= q{
		CREATE TABLE pairs(route text, ms bigint);
		INSERT INTO pairs VALUES ('/été', 5), ('/été', 7), ('/日本語', 12), ('', 0),
			('/big', 9007199254740993), ('/a b', 1);
		CREATE TABLE clean_combined AS
			SELECT format('198.51.100.%s - - [07/Nov/2026:01:%s:00 +0000] "GET /caf%s HTTP/1.1" 200 0 "-" "curl/8.0" 0.%s',
				i % 250, lpad((i % 60)::text, 2, '0'),
				CASE WHEN i % 3 = 0 THEN 'é' ELSE 'e' || (i % 7) END,
				lpad((i % 1000)::text, 3, '0')) AS line
			FROM generate_series(1, 3000) i;
		CREATE TABLE states(id int PRIMARY KEY, what text, state logp95_state);
		INSERT INTO states SELECT 1, 'default-format lines', logp95_agg(line) FROM gen_lines;
		INSERT INTO states SELECT 2, 'combined lines, a non-ASCII route', logp95_agg(line, 'combined') FROM clean_combined;
		INSERT INTO states SELECT 3, 'pairs, non-ASCII routes', logp95_agg(route, ms) FROM pairs;
		INSERT INTO states SELECT 4, '3000 routes (TOASTed)', logp95_agg('/r' || (i % 3000), (i % 997)::bigint)
			FROM generate_series(1, 60000) i;
		SET logp95.on_malformed = skip;
		INSERT INTO states SELECT 5, 'hostile default-format lines', logp95_agg(line) FROM cand WHERE fmt = 'default';
		INSERT INTO states SELECT 6, 'hostile combined lines', logp95_agg(line, 'combined') FROM cand WHERE fmt = 'combined';
		RESET logp95.on_malformed;
		-- the stored bytes, without the type's output or send function
		CREATE CAST (logp95_state AS bytea) WITHOUT FUNCTION;
		CREATE VIEW route_report AS
			SELECT * FROM logp95_report((SELECT logp95_merge(state) FROM states WHERE id <= 4));
		CREATE VIEW minutes AS
			SELECT date_trunc('minute', logp95_line_ts(line)) AS minute, count(*) FROM gen_lines GROUP BY 1;
		ANALYZE;
	};
	$node->safe_psql($db, $sql);

	my $leaves = $node->safe_psql($db, q{
		SELECT i.inhrelid::regclass, x.indrelid::regclass FROM pg_inherits i JOIN pg_index x ON x.indexrelid = i.inhrelid
		WHERE i.inhparent = 'part_ts'::regclass ORDER BY 1::text});
	for (split /\n/, $leaves)
	{
		my ($index, $table) = split /\|/;
		push @ix, { index => $index, table => $table, expr => $pe, windows => [],
			stale => '@E@ IS DISTINCT FROM ts_then' };
	}
	# scans through the parent (its leaves are checked with amcheck above)
	push @ix, { index => 'part_ts', table => 'part', expr => $pe, windows => \@windows, stale => undef };
	is(scalar(@ix), 2 + 6 * 3 + 3 + 1, "$db: indexes built under the $version library");
	$indexes{$db} = \@ix;
	return;
}

# bt_index_check(index, true): '' or the error.
sub amcheck
{
	my ($db, $index) = @_;
	my ($ret, $out, $err) = (0, '', '');
	$ret = $node->psql($db, "SELECT bt_index_check('$index', true)", stdout => \$out, stderr => \$err);
	return $ret == 0 ? '' : $err;
}

# The indexes (leaves, not the partitioned one) that fail bt_index_check.
sub amcheck_failures
{
	my ($db) = @_;
	return join(' ', map { $_->{index} } grep { $_->{index} ne 'part_ts' && amcheck($db, $_->{index}) ne '' }
		  @{ $indexes{$db} });
}

# The indexes whose stored keys the current values contradict, predicted
# from the values stored beside the lines.
sub stale_predicted
{
	my ($db) = @_;
	my @stale;
	for my $ix (grep { defined $_->{stale} } @{ $indexes{$db} })
	{
		my $n = $node->safe_psql($db, fill("SELECT count(*) FROM $ix->{table} WHERE $ix->{stale}", $ix->{table}, $ix->{expr}));
		push @stale, $ix->{index} if $n > 0;
	}
	return join(' ', @stale);
}

# Every window of index IX, by an index scan and by a sequential scan:
# (index result, sequential result, windows whose index plan is not an
# index scan of IX, windows whose sequential plan is not a sequential
# scan).  A result is a window's row count and the md5 of its ids.
sub scans
{
	my ($db, $ix) = @_;
	my $force_idx = 'SET enable_seqscan = off;';
	my $force_seq = 'SET enable_indexscan = off; SET enable_bitmapscan = off; SET enable_indexonlyscan = off;';
	my @labels = map { $_->[0] } @{ $ix->{windows} };
	my @q = map {
		fill("SELECT count(*), coalesce(md5(string_agg(id::text, ',' ORDER BY id)), '-') FROM $ix->{table} WHERE $_->[1]",
			$ix->{table}, $ix->{expr})
	} @{ $ix->{windows} };
	my $label = sub {
		my @r = split /\n/, shift;
		return join("\n", map { "$labels[$_]: $r[$_]" } 0 .. $#labels);
	};
	my $idx = $label->($node->safe_psql($db, join(";\n", $force_idx, @q)));
	my $seq = $label->($node->safe_psql($db, join(";\n", $force_seq, @q)));
	# the plans, one after another, each ending in a line '--'
	my (@bad_idx, @bad_seq);
	my @plans = split /^--\n?/m,
	  $node->safe_psql($db, join(";\n", $force_idx, map { ("EXPLAIN (COSTS OFF) $_", "SELECT '--'") } @q));
	for my $i (0 .. $#labels)
	{
		push @bad_idx, $labels[$i]
		  if $plans[$i] =~ /Seq Scan/ || ($ix->{index} ne 'part_ts' && $plans[$i] !~ /\b\Q$ix->{index}\E\b/);
	}
	@plans = split /^--\n?/m,
	  $node->safe_psql($db, join(";\n", $force_seq, map { ("EXPLAIN (COSTS OFF) $_", "SELECT '--'") } @q));
	for my $i (0 .. $#labels)
	{
		push @bad_seq, $labels[$i] if $plans[$i] =~ /Index|Bitmap/ || $plans[$i] !~ /Seq Scan/;
	}
	return ($idx, $seq, join(', ', @bad_idx), join(', ', @bad_seq));
}

# Every index: bt_index_check and index scan = sequential scan.
sub check_indexes
{
	my ($db, $when) = @_;
	for my $ix (@{ $indexes{$db} })
	{
		if ($ix->{index} ne 'part_ts')
		{
			is(amcheck($db, $ix->{index}), '', "$db $when: bt_index_check($ix->{index}, true) passes");
		}
		next unless @{ $ix->{windows} };
		my ($idx, $seq, $bad_idx, $bad_seq) = scans($db, $ix);
		is($bad_idx . ' | ' . $bad_seq, ' | ', "$db $when: $ix->{index}: the plans are the index and the sequential scan");
		is($idx, $seq, "$db $when: $ix->{index}: index scan = sequential scan in " . scalar(@{ $ix->{windows} }) . ' windows');
	}
	return;
}

# Rows of the lines' tables whose value is no longer the stored one.
sub changed_rows
{
	my ($db) = @_;
	my @q = map { fill('SELECT count(*) FROM @T@ WHERE @E@ IS DISTINCT FROM ts_then', $_->{table}, $_->{expr}) }
	  grep { $_->{index} ne 'part_ts' } @{ $indexes{$db} };
	return $node->safe_psql($db, 'SELECT ' . join(' + ', map { "($_)" } @q));
}

my $states_raw_sql = q{SELECT id, length(state::bytea), encode(sha256(state::bytea), 'hex') FROM states ORDER BY id};
my $states_text_sql = q{SELECT id, state::text FROM states ORDER BY id};
my $views_sql = q{SELECT * FROM route_report ORDER BY route COLLATE "C"; SELECT * FROM minutes ORDER BY 1};
my $stale_sql = q{
	SELECT (SELECT count(*) FROM mv_ts m JOIN default_ts t USING (id) WHERE m.ts IS DISTINCT FROM logp95_line_ts(t.line)),
		(SELECT count(*) FROM gen WHERE ts IS DISTINCT FROM logp95_line_ts(line)),
		(SELECT count(*) FROM pkey WHERE tableoid <> CASE
			WHEN logp95_line_ts(line, 'combined') IS NULL THEN 'pkey_none'
			WHEN logp95_line_ts(line, 'combined') < '2010-01-01' THEN 'pkey_old'
			ELSE 'pkey_new' END::regclass)};
my %before;    # db => what it answered under the library that built it

# ---------------------------------------------------------------------
# 1. build under each released library
# ---------------------------------------------------------------------
for my $version (@paths)
{
	my $db = 'from' . ($version =~ s/\.//r);
	install_library($version);
	build_objects($db, $version);
	is($node->safe_psql($db, q{SELECT extversion FROM pg_extension WHERE extname = 'logp95'}),
		$version, "$db: the extension is at $version");
	my $kept = $node->safe_psql($db, q{SELECT count(*) FROM cand_ok});
	note "$db: $kept of " . scalar(@lines) . " lines have a timestamp or NULL under $version (the rest raise an error)";
	if ($version eq '1.0')
	{
		cmp_ok($kept, '<', scalar(@lines), 'the 1.0 library raises an error on some lines (they cannot be indexed)');
	}
	else
	{
		is($kept, scalar(@lines), "the $version library raises no error on any line");
	}
	is(amcheck_failures($db), '', "$db: every index passes bt_index_check under the $version library");
	$before{$db} = {
		raw => $node->safe_psql($db, $states_raw_sql),
		text => $node->safe_psql($db, $states_text_sql),
		views => $node->safe_psql($db, $views_sql) };
	cmp_ok(scalar(split /\n/, $before{$db}{raw}), '==', 6, "$db: six states stored");

	# Issue 24: a state of encoding version 2 (statuses counted, written by
	# the current library: test/fuzz/corpus/hex/red-status) is refused by
	# the released library as docs/reliability.md says.
	my ($v2_ret, $v2_out, $v2_err) = (0, '', '');
	$v2_ret = $node->psql($db,
		q{SELECT '\x02000203022f6102040501020100010001010001022f620103ac020100000000000100062f6e6f6c6174000001000000000001'::logp95_state},
		stdout => \$v2_out, stderr => \$v2_err);
	like($v2_err, qr/invalid input syntax for type logp95_state.*\n(?:.*\n)*?DETAIL:\s+The header is invalid\./,
		"$db: the $version library refuses a version 2 state: The header is invalid.");
}

# ---------------------------------------------------------------------
# 2. the current library, before the update
# ---------------------------------------------------------------------
install_library('current');

if (grep { $_ eq '1.0' } @paths)
{
	my $db = 'from10';
	my $changed = changed_rows($db);
	cmp_ok($changed, '>', 0, "from10: lines whose value differs under the current library ($changed)");
	my $failures = amcheck_failures($db);
	my $predicted = stale_predicted($db);
	note "from10 before the update: bt_index_check fails on $failures";
	isnt($failures, '', 'from10 before the update: bt_index_check fails on indexes built under 1.0');
	is($failures, $predicted, 'from10 before the update: exactly the indexes the stored values predict fail');
	like(amcheck($db, 'c_ts'), qr/heap tuple \(0,1\) from table "c" lacks matching index tuple/,
		'from10 before the update: the issue\'s c_ts lacks the heap tuple');
	like(amcheck($db, 'd_ts'), qr/heap tuple \(0,1\) from table "d" lacks matching index tuple/,
		'from10 before the update: the issue\'s d_ts lacks the heap tuple');
	my ($c) = grep { $_->{index} eq 'c_ts' } @{ $indexes{$db} };
	my ($idx, $seq) = scans($db, $c);
	isnt($idx, $seq, 'from10 before the update: an index scan of c misses the row a sequential scan finds');
	like($seq, qr/^2026-11-07 00:04 \.\. 2026-11-08: 1\|/m, 'from10: the sequential scan finds c\'s line on 2026-11-07');
	like($idx, qr/^2026-11-07 00:04 \.\. 2026-11-08: 0\|/m, 'from10: the stale index does not');
	# a partial index whose rows left its predicate: amcheck's heap-to-index
	# check cannot see that, an index scan against a sequential scan does
	my ($nn) = grep { $_->{index} eq 'default_nn_idx' } @{ $indexes{$db} };
	($idx, $seq) = scans($db, $nn);
	is(amcheck($db, 'default_nn_idx'), '', 'from10 before the update: bt_index_check passes default_nn_idx');
	isnt($idx, $seq, 'from10 before the update: but an index scan of default_nn_idx returns rows whose value is now NULL');
	my $stale = $node->safe_psql($db, $stale_sql);
	my @stale = split /\|/, $stale;
	my @what = ('the materialized view', 'the generated column', 'the partitions');
	cmp_ok($stale[$_] // 0, '>', 0, "from10 before the update: $what[$_] holds 1.0's results ($stale)")
	  for 0 .. 2;
}
if (grep { $_ eq '1.1' } @paths)
{
	my $db = 'from11';
	is(changed_rows($db), 0, 'from11 before the update: the current library returns 1.1\'s value for every line');
	check_indexes($db, 'before the update');
	is($node->safe_psql($db, $stale_sql), '0|0|0', 'from11 before the update: no stored result differs');
}

# ---------------------------------------------------------------------
# 3. the update
# ---------------------------------------------------------------------
for my $version (@paths)
{
	my $db = 'from' . ($version =~ s/\.//r);
	my ($out, $err) = ('', '');
	my $ret = $node->psql($db, 'ALTER EXTENSION logp95 UPDATE', stdout => \$out, stderr => \$err);
	is($ret, 0, "$db: ALTER EXTENSION logp95 UPDATE succeeds") or diag($err);
	is($node->safe_psql($db, q{SELECT extversion FROM pg_extension WHERE extname = 'logp95'}),
		$default_version, "$db: the extension is at $default_version");
	# the version 2 state the released library refused reads now, and
	# merges with the states stored under it
	is($node->safe_psql($db,
			q{SELECT sum(requests) || '/' || sum(s5xx) || '/' || sum(unknown) FROM logp95_status('\x02000203022f6102040501020100010001010001022f620103ac020100000000000100062f6e6f6c6174000001000000000001'::logp95_state)}),
		'5/1/1', "$db: the current library reads the version 2 state");
	is($node->safe_psql($db, q{
		SELECT (SELECT sum(requests) FROM logp95_status(logp95_merge(state) + '\x02000203022f6102040501020100010001010001022f620103ac020100000000000100062f6e6f6c6174000001000000000001'::logp95_state))
			 = (SELECT sum(requests) FROM logp95_report(logp95_merge(state))) + 5
		FROM states}), 't', "$db: the stored states merge with it");

	# the WARNINGs: what the update could not rebuild, with what to run
	my @warnings = $err =~ /WARNING:\s+(.*)$/mg;
	is(scalar(@warnings), 4, "$db: four WARNINGs") or diag($err);
	for my $w (
		# the block runs with search_path pinned to pg_catalog, so every
		# name it prints is schema-qualified
		[ 'materialized view public.mv_ts', 'REFRESH MATERIALIZED VIEW public.mv_ts;' ],
		[ 'constraint chk_ts on table public.chk', 'ALTER TABLE public.chk DROP CONSTRAINT chk_ts, ADD CONSTRAINT chk_ts CHECK' ],
		[ 'generated column ts of table public.gen', 'UPDATE public.gen SET line = line;' ],
		[ 'partition key of table public.pkey', 'UPDATE public.pkey SET id = id, line = line;' ])
	{
		like($err, qr/WARNING:\s+\Q$w->[0]\E may hold results of logp95_line_ts computed by the 1\.0 library\n(?:DETAIL:.*\n)?HINT:\s+Run: \Q$w->[1]\E/,
			"$db: a WARNING names the $w->[0] and what to run");
	}

	check_indexes($db, 'after the update');

	is($node->safe_psql($db, $states_raw_sql), $before{$db}{raw}, "$db: the stored states read back byte for byte");
	# The text form names the encoding of states with a non-ASCII route
	# from 1.1 on (UTF8:\x...); the bytes after the tag are the same.
	my %old = map { split /\|/, $_, 2 } split /\n/, $before{$db}{text};
	my %non_ascii = map { split /\|/ } split /\n/, $node->safe_psql($db,
		q{SELECT id, bool_or(route ~ '[^\x01-\x7f]') FROM states, logp95_report(state) GROUP BY id});
	my @text_diff;
	for (split /\n/, $node->safe_psql($db, $states_text_sql))
	{
		my ($id, $text) = split /\|/, $_, 2;
		my $want = ($version eq '1.0' && ($non_ascii{$id} // 'f') eq 't') ? "UTF8:$old{$id}" : $old{$id};
		push @text_diff, $id if $text ne $want;
	}
	is(join(',', @text_diff), '', "$db: the text form of every state is the released one"
		  . ($version eq '1.0' ? ' (with UTF8: before a non-ASCII one)' : ''));
	is($node->safe_psql($db, $views_sql), $before{$db}{views}, "$db: the views answer as under the $version library");
	# the stored states are the states the current library makes of the same input
	is($node->safe_psql($db, q{
		SELECT string_agg(id::text, ',' ORDER BY id) FROM states s
		WHERE id <= 4 AND s.state <> CASE id
			WHEN 1 THEN (SELECT logp95_agg(line) FROM gen_lines)
			WHEN 2 THEN (SELECT logp95_agg(line, 'combined') FROM clean_combined)
			WHEN 3 THEN (SELECT logp95_agg(route, ms) FROM pairs)
			ELSE (SELECT logp95_agg('/r' || (i % 3000), (i % 997)::bigint) FROM generate_series(1, 60000) i) END}),
		'', "$db: each stored state = the state the current library makes of the same input");

	# What the WARNINGs say to run makes the stored results current: the
	# statements of the materialized view, the constraint, the generated
	# column and the partition key, as the HINTs give them.
	my @hints = $err =~ /HINT:\s+Run: ((?:REFRESH|ALTER TABLE|UPDATE) [^\n]*)/g;
	is(scalar(@hints), 4, "$db: four HINTs give a statement to run");
	for my $hint (@hints)
	{
		my ($ret_hint, $err_hint) = (0, '');
		$ret_hint = $node->psql($db, $hint, stderr => \$err_hint);
		is($ret_hint, 0, "$db: runs: $hint") or diag($err_hint);
	}
	is($node->safe_psql($db, $stale_sql), '0|0|0',
		"$db: after the WARNINGs' statements no stored result differs from the current one");
}

$node->stop;
done_testing();
