# test/t/081_bytea_encodings.pl -- lines given as bytea in databases of other encodings
#
# logp95_agg(bytea, ...), logp95_parse(bytea, ...) keep a route's bytes
# where they are text in the database encoding and write every other byte
# as \xHH (sql/bytea_input.sql covers UTF8).  In LATIN1 every byte but NUL
# is text, so a Latin-1 route keeps its byte 0xE9 (and counts with the same
# route given as text), while in UTF8 the same bytes give /caf\xe9; a
# UTF-8 route in a SQL_ASCII database is kept as it is; NUL is escaped in
# all three.  The lines are sent as hex, so no client encoding is involved.
use strict;
use warnings FATAL => 'all';

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;			# skips the whole test as root (initdb refuses root)

my $node = lp_node('bytea_encodings');

for my $db ([ 'u8', 'UTF8' ], [ 'l1', 'LATIN1' ], [ 'sqlascii', 'SQL_ASCII' ])
{
	$node->safe_psql('postgres',
		"CREATE DATABASE $db->[0] ENCODING '$db->[1]' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0");
	$node->safe_psql($db->[0], 'CREATE EXTENSION logp95');
}

# default-format lines: /caf<E9> 10 ms (Latin-1), /caf<C3 A9> 20 ms (UTF-8),
# /n<00>ul 30 ms, as hex
my $lines = join(', ',
	map { "(decode('" . unpack('H*', $_) . "', 'hex'))" }
	  "2026-11-07T12:00:00 GET /caf\xe9 10",
	"2026-11-07T12:00:01 GET /caf\xc3\xa9 20",
	"2026-11-07T12:00:02 GET /n\x00ul 30");

# The routes of the state as hex of their bytes in the database encoding,
# with their requests: output that is ASCII whatever the client encoding.
sub routes
{
	my ($db) = @_;
	return $node->safe_psql($db, qq{
SELECT string_agg(encode(convert_to(route, getdatabaseencoding()), 'hex') || ':' || requests, ' ' ORDER BY route)
  FROM logp95_report((SELECT logp95_agg(l, 'default') FROM (VALUES $lines) v(l)))});
}

# "/caf" 2f636166, e9; \xe9 = 5c786539; \x00 = 5c783030
is(routes('u8'), '2f6361665c786539:1 2f636166c3a9:1 2f6e5c783030756c:1',
	'UTF8: the Latin-1 byte written \xe9, the UTF-8 route kept, NUL written \x00');
is(routes('l1'), '2f636166c3a9:1 2f636166e9:1 2f6e5c783030756c:1',
	'LATIN1: both routes kept as bytes (0xC3 0xA9 are two Latin-1 characters), NUL written \x00');
is(routes('sqlascii'), '2f636166c3a9:1 2f636166e9:1 2f6e5c783030756c:1',
	'SQL_ASCII: every byte but NUL kept, NUL written \x00');

# in LATIN1 the bytea route and the same route as text are one route
{
	is( $node->safe_psql('l1', qq{
SELECT string_agg(encode(convert_to(route, 'LATIN1'), 'hex') || ':' || requests, ' ' ORDER BY route)
  FROM logp95_report((SELECT logp95_agg(l, 'default') FROM (VALUES $lines) v(l))
                     + (SELECT logp95_agg(convert_from(decode('323032362d31312d30375431323a30303a303320474554202f636166e9203430', 'hex'), 'LATIN1'), 'default')))}),
		'2f636166c3a9:1 2f636166e9:2 2f6e5c783030756c:1',
		'LATIN1: the text line for /caf\xe9 counts with the bytea one');
}

# logp95_parse and the error message quote the same way
is( $node->safe_psql('u8', q{
SELECT encode(convert_to(route, 'UTF8'), 'hex') FROM logp95_parse(decode('323032362d31312d30375431323a30303a303020474554202f636166e9203130', 'hex'))}),
	'2f6361665c786539', 'UTF8: logp95_parse gives /caf\xe9');
my ($ret, $out, $err) = $node->psql('u8', q{
SELECT logp95_agg(decode('323032362d31312d30375431323a30303a303020474554202f636166e920313078', 'hex'), 'default')});
like($err, qr{DETAIL:  The line was "2026-11-07T12:00:00 GET /caf\\xe9 10x"\.},
	'UTF8: the error quotes the line with the byte written \xe9');

$node->stop;
done_testing();
