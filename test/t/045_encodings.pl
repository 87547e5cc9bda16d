# test/t/045_encodings.pl -- states move between databases of different encodings
#
# Routes are bytes of the database encoding.  The text and binary forms of
# a state with a non-ASCII route name that encoding (UTF8:\x..., a binary
# envelope), and the input and receive functions convert the routes into
# the database's encoding, or refuse the state with 22P05 when it cannot
# hold a route: never a silently different route.  One cluster holds a UTF8,
# a LATIN1 and a WIN1252 database; states go between them through pg_dump
# (plain format) restored with psql, and through binary COPY, both ways.
# The source is UTF-8 bytes (no `use utf8`): what psql sends and prints with
# client_encoding UTF8.
use strict;
use warnings FATAL => 'all';

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;			# skips the whole test as root (initdb refuses root)

my $node = lp_node('encodings');
my $dir = $node->basedir;

# SQL through psql with client_encoding UTF8, whatever the database's encoding.
sub q8
{
	my ($db, $sql) = @_;
	local $ENV{PGCLIENTENCODING} = 'UTF8';
	return $node->safe_psql($db, $sql);
}

# pg_dump (plain, in the database's own encoding) of some tables of db into file.
sub dump_tables
{
	my ($db, $file, @tables) = @_;
	delete local $ENV{PGCLIENTENCODING};
	$node->command_ok([ 'pg_dump', '-d', $node->connstr($db), '-f', $file, map { ('-t', $_) } @tables ],
		"pg_dump of @tables from $db");
}

# Restore a plain dump with psql, going on after errors as a restore does;
# returns (exit code, stderr).
sub restore
{
	my ($db, $file) = @_;
	delete local $ENV{PGCLIENTENCODING};
	my ($ret, $out, $err) = $node->psql($db, undef, on_error_stop => 0, extra_params => [ '-f', $file ]);
	return ($ret, $err);
}

for my $db ([ 'u8', 'UTF8' ], [ 'u8b', 'UTF8' ], [ 'l1', 'LATIN1' ], [ 'l1bad', 'LATIN1' ], [ 'w1252', 'WIN1252' ])
{
	$node->safe_psql('postgres',
		"CREATE DATABASE $db->[0] ENCODING '$db->[1]' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0");
}
for my $db (qw(u8 u8b l1 l1bad w1252))
{
	$node->safe_psql($db, 'CREATE EXTENSION logp95');
}

# ---- states built in the UTF8 database ----
q8('u8', q{
	CREATE TABLE lines(line text);
	INSERT INTO lines SELECT 't GET ' || r || ' ' || (g * k % 97)
	  FROM (VALUES ('/café', 3), ('/naïve', 5), ('/plain', 7)) v(r, k), generate_series(1, 300) g;
	CREATE TABLE st(id int, s logp95_state);
	INSERT INTO st SELECT 1, logp95_agg(line) FROM lines;
	INSERT INTO st SELECT 2, logp95_agg(line) FROM lines WHERE line LIKE '%/plain %';
});
my $report_sql = q{SELECT route, requests, p50_ms, p95_ms, p99_ms, max_ms FROM logp95_report((SELECT s FROM st WHERE id = 1)) ORDER BY route COLLATE "C"};
my $u8_report = q8('u8', $report_sql);
my $u8_text = q8('u8', 'SELECT s::text FROM st ORDER BY id');
like($u8_text, qr/^UTF8:\\x01.*\n\\x01/s, 'UTF8: the state with /café is tagged, the ASCII one is not');
my $cafe = q8('u8', q{SELECT logp95_percentile(s, '/café', 0.5) FROM st WHERE id = 1});

# ---- UTF8 -> LATIN1 through pg_dump and psql ----
dump_tables('u8', "$dir/u8.sql", 'lines', 'st');
like(slurp_file("$dir/u8.sql"), qr/SET client_encoding = 'UTF8'.*\tUTF8:\\\\x01/s, 'the dump holds the tagged text form');
my ($ret, $err) = restore('l1', "$dir/u8.sql");
is($err, '', 'UTF8 dump restored into LATIN1 without an error') or diag $err;
is(q8('l1', q{SELECT logp95_percentile(s, '/café', 0.5) FROM st WHERE id = 1}), $cafe,
	'LATIN1: logp95_percentile(s, \'/café\', 0.5) answers as in UTF8');
is(q8('l1', $report_sql), $u8_report, 'LATIN1: the report equals the UTF8 one');
is(q8('l1', q{SELECT (SELECT s FROM st WHERE id = 1)::text = (SELECT logp95_agg(line) FROM lines)::text}),
	't', 'LATIN1: the converted state equals, byte for byte, the state aggregated there from the same lines');
like(q8('l1', 'SELECT s::text FROM st ORDER BY id'), qr/^LATIN1:\\x01.*\n\\x01/s,
	'LATIN1: the state is now tagged LATIN1, the ASCII state unchanged');
is(q8('l1', 'SELECT s::text FROM st WHERE id = 2'), q8('u8', 'SELECT s::text FROM st WHERE id = 2'),
	'the ASCII-only state has the same text form in both databases');

# ---- LATIN1 -> UTF8 through pg_dump (written in LATIN1) and psql ----
dump_tables('l1', "$dir/l1.sql", 'lines', 'st');
like(slurp_file("$dir/l1.sql"), qr/SET client_encoding = 'LATIN1'.*\tLATIN1:\\\\x01/s, 'the LATIN1 dump holds the LATIN1-tagged form');
($ret, $err) = restore('u8b', "$dir/l1.sql");
is($err, '', 'LATIN1 dump restored into UTF8 without an error') or diag $err;
is(q8('u8b', 'SELECT s::text FROM st ORDER BY id'), $u8_text,
	'UTF8 -> LATIN1 -> UTF8: the states are the original ones, byte for byte');
is(q8('u8b', $report_sql), $u8_report, 'UTF8 again: the report equals the original');

# ---- binary COPY, both ways ----
q8('u8', qq{COPY st TO '$dir/st_u8.bin' (FORMAT binary)});
q8('l1', qq{CREATE TABLE st_bin(id int, s logp95_state); COPY st_bin FROM '$dir/st_u8.bin' (FORMAT binary)});
is(q8('l1', 'SELECT count(*) FROM st_bin a JOIN st b USING (id) WHERE a.s::text = b.s::text'), '2',
	'binary COPY UTF8 -> LATIN1: the states equal those restored from the dump');
q8('l1', qq{COPY st_bin TO '$dir/st_l1.bin' (FORMAT binary)});
q8('u8', qq{CREATE TABLE st_bin(id int, s logp95_state); COPY st_bin FROM '$dir/st_l1.bin' (FORMAT binary)});
is(q8('u8', 'SELECT count(*) FROM st_bin a JOIN st b USING (id) WHERE a.s::text = b.s::text'), '2',
	'binary COPY LATIN1 -> UTF8: the original states, byte for byte');
is(q8('u8', q{SELECT logp95_percentile(s, '/naïve', 0.95) FROM st_bin WHERE id = 1}),
	q8('u8', q{SELECT logp95_percentile(s, '/naïve', 0.95) FROM st WHERE id = 1}), 'binary COPY: /naïve answers the same');

# ---- routes LATIN1 cannot hold: refused, nothing silently changed ----
q8('u8', q{
	CREATE TABLE bad(id int, s logp95_state);
	INSERT INTO bad SELECT 1, logp95_agg(l) FROM (VALUES ('t GET /plain 1')) v(l);
	INSERT INTO bad SELECT 2, logp95_agg(l) FROM (VALUES ('t GET /price/€ 1'), ('t GET /café 2')) v(l);
	INSERT INTO bad SELECT 3, logp95_agg(l) FROM (VALUES ('t GET /日本 1')) v(l);
	CREATE TABLE good(id int, s logp95_state);
	INSERT INTO good SELECT id, s FROM st;
});
dump_tables('u8', "$dir/bad.sql", 'bad', 'good');
($ret, $err) = restore('l1bad', "$dir/bad.sql");
like($err, qr/logp95_state route cannot be converted from encoding "UTF8" to encoding "LATIN1"/,
	'restore into LATIN1: the error names both encodings');
like($err, qr{DETAIL:  The route that starts "/price/" continues with the character with byte sequence 0xe2 0x82 0xac in encoding "UTF8", which has no equivalent in encoding "LATIN1"},
	'restore into LATIN1: the detail names the route and the character');
note $err;
is(q8('l1bad', 'SELECT count(*) FROM bad'), '0', 'the table with the refused state loads no row (COPY is all or nothing)');
is(q8('l1bad', 'SELECT count(*) FROM good'), '2', 'the other table of the dump loads');
q8('u8', qq{COPY bad TO '$dir/bad.bin' (FORMAT binary)});
my $out = lp_psql_verbose($node, 'l1bad', qq{COPY bad FROM '$dir/bad.bin' (FORMAT binary)});
like($out, qr/ERROR:  22P05: logp95_state route cannot be converted/, 'binary COPY into LATIN1: 22P05');
q8('u8', 'DELETE FROM bad WHERE id = 2');
q8('u8', qq{COPY bad TO '$dir/bad3.bin' (FORMAT binary)});
$out = lp_psql_verbose($node, 'l1bad', qq{COPY bad FROM '$dir/bad3.bin' (FORMAT binary)});
like($out, qr/ERROR:  22P05: .*byte sequence 0xe6 0x97 0xa5/s, 'a CJK route: 22P05 naming its first character');

# ---- conversions that reorder routes: UTF8 <-> WIN1252 ----
# WIN1252 bytes: € 0x80 < Ÿ 0x9f < é 0xe9; UTF8: é c3 a9 < Ÿ c5 b8 < € e2 82 ac
q8('u8', q{
	CREATE TABLE lines_w(line text);
	INSERT INTO lines_w SELECT 't GET ' || r || ' ' || (g * k % 89)
	  FROM (VALUES ('/€', 3), ('/Ÿ', 5), ('/é', 7), ('/e', 11)) v(r, k), generate_series(1, 100) g;
	CREATE TABLE st_w AS SELECT logp95_agg(line) AS s FROM lines_w;
});
dump_tables('u8', "$dir/w.sql", 'lines_w', 'st_w');
($ret, $err) = restore('w1252', "$dir/w.sql");
is($err, '', 'UTF8 dump restored into WIN1252 without an error') or diag $err;
is(q8('w1252', q{SELECT (SELECT s FROM st_w)::text = (SELECT logp95_agg(line) FROM lines_w)::text}), 't',
	'WIN1252: the re-sorted state equals, byte for byte, the state aggregated there');
is(q8('w1252', q{SELECT string_agg(route, ' ' ORDER BY ord) FROM logp95_report((SELECT s FROM st_w)) WITH ORDINALITY r(route, a, b, c, d, e, ord)}),
	q8('u8', q{SELECT string_agg(route, ' ' ORDER BY route COLLATE "C") FROM logp95_report((SELECT s FROM st_w)) r}) eq '/e /é /Ÿ /€' ? '/e /€ /Ÿ /é' : 'unexpected UTF8 order',
	'WIN1252: the routes are in WIN1252 byte order (/€ first), in UTF8 /€ last');
is(q8('w1252', 'SELECT logp95_percentile(s, \'/€\', 0.5) FROM st_w'), q8('u8', 'SELECT logp95_percentile(s, \'/€\', 0.5) FROM st_w'),
	'WIN1252: /€ answers as in UTF8');
q8('w1252', qq{COPY st_w TO '$dir/w.bin' (FORMAT binary)});
q8('u8', qq{CREATE TABLE st_w_bin(s logp95_state); COPY st_w_bin FROM '$dir/w.bin' (FORMAT binary)});
is(q8('u8', 'SELECT (SELECT s FROM st_w_bin)::text = (SELECT s FROM st_w)::text'), 't',
	'binary COPY WIN1252 -> UTF8: re-sorted back to the original bytes');

done_testing();
