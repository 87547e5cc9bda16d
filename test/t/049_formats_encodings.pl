# test/t/049_formats_encodings.pl -- unescaped routes and the database encoding
#
# Definitions, presets and (with the option unescape) the built-in formats
# undo the server's log escaping in a route.  The decoded bytes count
# when they are valid in the database encoding; otherwise the line counts
# under its logged route (the glue checks with pg_verifymbstr and parses
# again as logged).  One cluster holds a UTF8, a LATIN1 and an SQL_ASCII
# database; the same lines give, in each, the routes that encoding can
# hold.  Routes are compared as bytes (their hex), so the client encoding
# plays no part.
use strict;
use warnings FATAL => 'all';

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;			# skips the whole test as root (initdb refuses root)

my $node = lp_node('formats_encodings');

for my $db ([ 'u8', 'UTF8' ], [ 'l1', 'LATIN1' ], [ 'sqlascii', 'SQL_ASCII' ])
{
	$node->safe_psql('postgres',
		"CREATE DATABASE $db->[0] ENCODING '$db->[1]' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0");
	$node->safe_psql($db->[0], 'CREATE EXTENSION logp95');
}

# The lines are ASCII (every escape is text), so every database takes them as they are.
my $nginx = q{'nginx:' || $d$'$remote_addr [$time_local] "$request" $status $request_time'$d$};
my $setup = q{
	CREATE TABLE l(n int, fmt text, line text);
	INSERT INTO l VALUES
	 (1, 'N', '10.0.0.1 [07/Nov/2026:01:00:00 +0000] "GET /caf\xC3\xA9 HTTP/1.1" 200 0.001'),
	 (2, 'N', '10.0.0.1 [07/Nov/2026:01:00:00 +0000] "GET /a\xFFb HTTP/1.1" 200 0.002'),
	 (3, 'haproxy', '10.0.0.1:5000 [07/Nov/2026:01:00:00.000] fe be/s1 0/0/1/2/3 200 512 - - ---- 1/1/0/0/0 0/0 "GET /h#C3#A9 HTTP/1.1"'),
	 (4, 'haproxy', '10.0.0.1:5000 [07/Nov/2026:01:00:00.000] fe be/s1 0/0/1/2/4 200 512 - - ---- 1/1/0/0/0 0/0 "GET /h#FF HTTP/1.1"'),
	 (5, 'json:route=u, latency=d:ms', '{"u":"/j\u00e9","d":5}'),
	 (6, 'combined', '10.0.0.1 - - [07/Nov/2026:01:00:00 +0000] "GET /c\xE9 HTTP/1.1" 200 1 "-" "-" 0.006');
	UPDATE l SET fmt = } . $nginx . q{ WHERE fmt = 'N';
};

# Each line's counted route, as the hex of its bytes in the database
# encoding: the aggregate's (through the report, one line a state) and
# logp95_parse's.
my $routes_sql = q{
	SELECT string_agg(l.n || '=' || x.h, ' ' ORDER BY l.n)
	  FROM l, LATERAL (SELECT encode(convert_to(r.route, getdatabaseencoding()), 'hex') AS h
	                     FROM (SELECT logp95_agg(l2.line, l2.fmt, CASE WHEN l2.fmt = 'combined' THEN 'unescape' END) AS s
	                             FROM l l2 WHERE l2.n = l.n) a, logp95_report(a.s) r) x};
my $parse_sql = q{
	SELECT string_agg(n || '=' || encode(convert_to(p.route, getdatabaseencoding()), 'hex'), ' ' ORDER BY n)
	  FROM l, logp95_parse(line, fmt) p WHERE fmt <> 'combined'};

# hex of the routes: decoded bytes, or the logged text
my %want = (
	# UTF8: \xC3\xA9, #C3#A9 and \u00e9 are é; \xFF, #FF and \xE9 alone are no
	# UTF-8: logged ("/a\xFFb", "/h#FF", "/c\xE9")
	u8 => '1=2f636166c3a9 2=2f615c78464662 3=2f68c3a9 4=2f68234646 5=2f6ac3a9 6=2f635c784539',
	# LATIN1 and SQL_ASCII: every byte is valid, so every route is decoded
	l1 => '1=2f636166c3a9 2=2f61ff62 3=2f68c3a9 4=2f68ff 5=2f6ac3a9 6=2f63e9',
	sqlascii => '1=2f636166c3a9 2=2f61ff62 3=2f68c3a9 4=2f68ff 5=2f6ac3a9 6=2f63e9',
);

for my $db (qw(u8 l1 sqlascii))
{
	$node->safe_psql($db, $setup);
	is($node->safe_psql($db, $routes_sql), $want{$db}, "$db: the routes logp95_agg counts");
	my $parse_want = join(' ', grep { !/^6=/ } split / /, $want{$db});
	is($node->safe_psql($db, $parse_sql), $parse_want, "$db: logp95_parse gives the same routes");
}

$node->stop;
done_testing();
