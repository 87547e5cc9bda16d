# test/t/046_replication_equality.pl -- logical replication of a state table without a primary key
#
# Issue 21: a table of states without a primary key is replicated with
# REPLICA IDENTITY FULL, and the apply worker finds the row an UPDATE or a
# DELETE is about by comparing every column with its type's equality
# operator.  Before 1.2 logp95_state had none: the worker failed on the
# first UPDATE with "could not identify an equality operator for type
# logp95_state", retried for ever, and the slot kept WAL.
#
# A publisher and a subscriber cluster; the publisher's table holds states
# of every kind (empty, malformed lines only, non-ASCII routes, a state
# stored compressed and out of line, two identical rows), and two
# subscriptions copy it, one in text and one in binary (binary = true,
# where the state goes through its send and receive functions; its
# subscriber table also has an index on id, which PostgreSQL 16 and later
# use to find the row before comparing the rest).  Inserts, UPDATEs of
# other columns and of states, an UPDATE and a DELETE of one of two
# identical rows, and DELETEs: each subscriber catches up (waits are
# bounded by PostgreSQL::Test::Utils's timeout) and holds the publisher's
# rows, states compared byte for byte (their stored bytes, through a cast
# to bytea without function).
#
# Then the failure the operator fixes: both sides at 1.1, an UPDATE stops
# the apply worker (its error count rises, the log names the missing
# operator, the row stays old); updating the subscriber's extension to the
# current version and enabling the subscription again applies it.
use strict;
use warnings FATAL => 'all';

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;			# lp_node; skips the whole test as root

my $pub = lp_node('publisher', wal_level => 'logical', max_wal_senders => 10, max_replication_slots => 10);
my $sub = lp_node('subscriber');
my $pub_connstr = $pub->connstr;

# The rows of a state table, states by their stored bytes.
my $rows_sql = q{
	SELECT id, note, length(s::bytea), encode(sha256(s::bytea), 'hex')
	FROM st ORDER BY 1, 2, 4};

my $table_sql = q{
	CREATE CAST (logp95_state AS bytea) WITHOUT FUNCTION;
	CREATE TABLE st(id int, note text, s logp95_state);
};

# ---- the publisher ----
$pub->safe_psql('postgres', 'CREATE DATABASE cur');
$pub->safe_psql('cur', qq{
	CREATE EXTENSION logp95;
	$table_sql
	ALTER TABLE st REPLICA IDENTITY FULL;
	INSERT INTO st VALUES
		(1, 'empty', '\\x010000'),
		(2, 'malformed lines only', '\\x010300'),
		(3, 'non-ASCII routes', (SELECT logp95_agg(r, ms) FROM (VALUES ('/café', 3), ('/日本', 5), ('/naïve', 7)) v(r, ms))),
		(4, 'lines', (SELECT logp95_agg(l) FROM logp95_generate(5000, 20, 4) l)),
		(5, 'twin', (SELECT logp95_agg('/t', 1))),
		(5, 'twin', (SELECT logp95_agg('/t', 1)));
	CREATE PUBLICATION pub FOR TABLE st;
});

# ---- two subscribers: text and binary ----
for my $db ('text', 'bin')
{
	$sub->safe_psql('postgres', "CREATE DATABASE $db");
	$sub->safe_psql($db, "CREATE EXTENSION logp95; $table_sql");
}
$sub->safe_psql('bin', 'CREATE INDEX st_id ON st (id)');
$sub->safe_psql('text', "CREATE SUBSCRIPTION sub_text CONNECTION '$pub_connstr dbname=cur' PUBLICATION pub");
$sub->safe_psql('bin',
	"CREATE SUBSCRIPTION sub_bin CONNECTION '$pub_connstr dbname=cur' PUBLICATION pub WITH (binary = true)");
$sub->wait_for_subscription_sync($pub, 'sub_text', 'text');
$sub->wait_for_subscription_sync($pub, 'sub_bin', 'bin');

my $want = $pub->safe_psql('cur', $rows_sql);
is(scalar(split /\n/, $want), 6, 'the publisher holds six rows');
for my $db ('text', 'bin')
{
	is($sub->safe_psql($db, $rows_sql), $want, "sub_$db: the initial copy holds the publisher's rows byte for byte");
}

# ---- changes: each finds its row by every column, the state too ----
$pub->safe_psql('cur', q{
	-- a state stored compressed and out of line (some 60 kB)
	INSERT INTO st SELECT 7, 'large', logp95_agg('/route/' || (i % 5000), (i * 31) % 1009)
		FROM generate_series(1, 20000) i;
	INSERT INTO st VALUES (8, 'tagged', 'LATIN1:\x010001052f636166e901020301');
});
is($pub->safe_psql('cur', q{SELECT pg_column_size(s) < length(logp95_state_send(s)) FROM st WHERE id = 7}),
	't', 'the large state is stored compressed');
$pub->safe_psql('cur', q{
	UPDATE st SET note = note || ', touched' WHERE id IN (1, 3, 4, 7);
	UPDATE st SET s = logp95_merge_combine(s, '\x010100') WHERE id IN (2, 8);
	UPDATE st SET s = logp95_merge_combine(s, s) WHERE id = 7;
	-- one of two identical rows
	UPDATE st SET note = 'one twin' WHERE ctid = (SELECT min(ctid) FROM st WHERE id = 5);
	DELETE FROM st WHERE id = 3;
});
$pub->safe_psql('cur', q{
	INSERT INTO st VALUES (9, 'twin again', '\x010000'), (9, 'twin again', '\x010000');
	DELETE FROM st WHERE ctid = (SELECT min(ctid) FROM st WHERE id = 9);
	DELETE FROM st WHERE id = 8;
	UPDATE st SET s = '\x010000', note = 'emptied' WHERE id = 4;
});
$want = $pub->safe_psql('cur', $rows_sql);
# Independent of the publisher's own answer: what each row must hold now.
is($pub->safe_psql('cur', q{
	SELECT string_agg(format('%s %s %s', id, note, s::text), '; ' ORDER BY id, note) FROM st
	WHERE id <> 7}),
	"1 empty, touched \\x010000; 2 malformed lines only \\x010400; 4 emptied \\x010000; "
	  . "5 one twin \\x010001022f7401020101; 5 twin \\x010001022f7401020101; 9 twin again \\x010000",
	'the publisher holds what the changes make');
is($pub->safe_psql('cur', q{
	SELECT s = logp95_merge_combine(x, x) FROM st,
		(SELECT logp95_agg('/route/' || (i % 5000), (i * 31) % 1009) AS x FROM generate_series(1, 20000) i) a
	WHERE id = 7}),
	't', 'the large state is the doubled aggregate');

for my $db ('text', 'bin')
{
	$pub->wait_for_catchup("sub_$db");
	is($sub->safe_psql($db, $rows_sql), $want, "sub_$db: after inserts, updates and deletes the rows equal the publisher's byte for byte");
	is($sub->safe_psql('postgres', "SELECT apply_error_count FROM pg_stat_subscription_stats WHERE subname = 'sub_$db'"),
		'0', "sub_$db: the apply worker met no error");
}

# ---- without the operator: both sides at 1.1 ----
# The apply worker cannot compare states: the UPDATE stops it.  Detected
# through the error count (pg_stat_subscription_stats, 15 and later) and
# the log, both polled with PostgreSQL::Test::Utils's timeout; then the
# subscription is disabled so that the worker stops retrying.
$pub->safe_psql('postgres', 'CREATE DATABASE old');
$pub->safe_psql('old', qq{
	CREATE EXTENSION logp95 VERSION '1.1';
	$table_sql
	ALTER TABLE st REPLICA IDENTITY FULL;
	INSERT INTO st VALUES (1, 'a', '\\x010000'), (2, 'b', (SELECT logp95_agg('/b', 2)));
	CREATE PUBLICATION pub_old FOR TABLE st;
});
$sub->safe_psql('postgres', 'CREATE DATABASE old');
$sub->safe_psql('old', "CREATE EXTENSION logp95 VERSION '1.1'; $table_sql");
is($sub->safe_psql('old', q{SELECT count(*) FROM pg_operator WHERE oprleft = 'logp95_state'::regtype}),
	'0', 'at 1.1 logp95_state has no operator');
my $log_offset = -s $sub->logfile;
$sub->safe_psql('old', "CREATE SUBSCRIPTION sub_old CONNECTION '$pub_connstr dbname=old' PUBLICATION pub_old");
$sub->wait_for_subscription_sync($pub, 'sub_old', 'old');
is($sub->safe_psql('old', $rows_sql), $pub->safe_psql('old', $rows_sql),
	'sub_old: inserts need no operator: the initial copy arrives');

$pub->safe_psql('old', q{UPDATE st SET note = 'changed' WHERE id = 2});
ok( $sub->poll_query_until('postgres',
		q{SELECT apply_error_count > 0 FROM pg_stat_subscription_stats WHERE subname = 'sub_old'}),
	'sub_old: the UPDATE makes the apply worker fail');
ok( eval { $sub->wait_for_log(qr/could not identify an equality operator for type (?:public\.)?logp95_state/, $log_offset); 1 },
	'sub_old: the log says: could not identify an equality operator for type logp95_state');
is($sub->safe_psql('old', q{SELECT note FROM st WHERE id = 2}), 'b', 'sub_old: the row is not updated');
$sub->safe_psql('old', 'ALTER SUBSCRIPTION sub_old DISABLE');

# The update gives the subscriber the operator: the change applies.
$sub->safe_psql('old', 'ALTER EXTENSION logp95 UPDATE');
$sub->safe_psql('old', 'ALTER SUBSCRIPTION sub_old ENABLE');
$pub->wait_for_catchup('sub_old');
is($sub->safe_psql('old', $rows_sql), $pub->safe_psql('old', $rows_sql),
	'sub_old: after ALTER EXTENSION logp95 UPDATE on the subscriber the UPDATE applies');

$sub->stop;
$pub->stop;
done_testing();
