# test/t/040_upgrade.pl -- a database created at 1.0 keeps working and updates to 1.1
#
# Version 1.0 is released: its install script never changes, and the same
# logp95.so serves databases at 1.0 and at the current version.  This test
# creates the extension at 1.0, stores states in a table, indexes a table on
# logp95_line_ts and puts a view over logp95_report; it reads them with the
# new library before and after ALTER EXTENSION logp95 UPDATE, and compares
# the updated database's objects with those of a fresh install of the
# default version.  Run on every PostgreSQL version the test command finds.
use strict;
use warnings FATAL => 'all';

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;			# lp_psql_verbose; skips the whole test as root (initdb refuses root)

# The version CREATE EXTENSION installs, from the control file PGXS installed.
my $sharedir = `pg_config --sharedir`;
chomp $sharedir;
my $control = slurp_file("$sharedir/extension/logp95.control");
my ($default_version) = $control =~ /^default_version\s*=\s*'([^']+)'/m;
ok(defined $default_version, "default_version read from the control file");

my $node = PostgreSQL::Test::Cluster->new('upgrade');
$node->init;
$node->start;
my $major = int($node->safe_psql('postgres', 'SHOW server_version_num') / 10000);
note "PostgreSQL server_version_num major $major, default_version $default_version";

$node->safe_psql('postgres', 'CREATE DATABASE old_db');
$node->safe_psql('postgres', 'CREATE DATABASE new_db');

# ---- a database at 1.0 with everything a user keeps ----
$node->safe_psql('old_db', q{
	CREATE EXTENSION logp95 VERSION '1.0';
	CREATE TABLE access_log(line text);
	INSERT INTO access_log SELECT logp95_generate(80000, 40, 7);
	CREATE INDEX access_log_ts ON access_log (logp95_line_ts(line));
	ANALYZE access_log;
	CREATE TABLE hourly(hour timestamp PRIMARY KEY, state logp95_state);
	INSERT INTO hourly
		SELECT date_trunc('hour', logp95_line_ts(line)), logp95_agg(line)
		FROM access_log GROUP BY 1;
	CREATE VIEW route_report AS
		SELECT * FROM logp95_report((SELECT logp95_merge(state) FROM hourly));
});
is($node->safe_psql('old_db', q{SELECT extversion FROM pg_extension WHERE extname = 'logp95'}),
	'1.0', 'the extension is at 1.0');

# What a 1.0 database holds, read with today's library.
my $states_sql = q{SELECT hour, logp95_state_send(state) FROM hourly ORDER BY hour};
my $view_sql = q{SELECT * FROM route_report ORDER BY route};
my $window_sql = q{
	SELECT count(*) FROM access_log
	WHERE logp95_line_ts(line) >= (SELECT min(hour) FROM hourly)
	  AND logp95_line_ts(line) < (SELECT min(hour) FROM hourly) + interval '1 hour'};
my $states_before = $node->safe_psql('old_db', $states_sql);
my $view_before = $node->safe_psql('old_db', $view_sql);
my $window_before = $node->safe_psql('old_db', $window_sql);
cmp_ok(scalar(split /\n/, $states_before), '>', 1, 'several hourly states stored at 1.0');
cmp_ok(scalar(split /\n/, $view_before), '==', 40, 'the view over logp95_report answers at 1.0 (40 routes)');

# The view's report equals a report computed from the raw lines by SQL alone
# (rank min(floor(n*K/100), n-1) over each route's sorted latencies).
my $reference_sql = q{
	SELECT route, n, min(ms) FILTER (WHERE rk = least(n * 50 / 100, n - 1)),
		min(ms) FILTER (WHERE rk = least(n * 95 / 100, n - 1)),
		min(ms) FILTER (WHERE rk = least(n * 99 / 100, n - 1)), max(ms)
	FROM (SELECT route, ms, row_number() OVER w - 1 AS rk, count(*) OVER (PARTITION BY route) AS n
		FROM (SELECT split_part(line, ' ', 3) AS route, split_part(line, ' ', 4)::bigint AS ms
			FROM access_log) p
		WINDOW w AS (PARTITION BY route ORDER BY ms)) r
	GROUP BY route, n ORDER BY route COLLATE "C"};
is($view_before, $node->safe_psql('old_db', $reference_sql),
	'the 1.0 view equals the SQL reference');

# ---- update ----
# 1.1 recreates the logp95_agg aggregates (a new transition type, which
# ALTER AGGREGATE cannot change): a view over logp95_agg stops the update
# with a message naming it, and the database stays at 1.0.
$node->safe_psql('old_db', q{CREATE VIEW all_lines_state AS SELECT logp95_agg(line) AS state FROM access_log});
my $blocked = lp_psql_verbose($node, 'old_db', 'ALTER EXTENSION logp95 UPDATE');
like($blocked, qr/2BP01.*cannot update logp95 to 1\.1 while other objects use logp95_agg/s,
	'a view over logp95_agg stops the update (SQLSTATE 2BP01)');
like($blocked, qr/view all_lines_state \(logp95_agg\(text\)\)/, 'the message names the view and the aggregate');
is($node->safe_psql('old_db', q{SELECT extversion FROM pg_extension WHERE extname = 'logp95'}),
	'1.0', 'the failed update left the database at 1.0');
my $agg_view_before = $node->safe_psql('old_db', 'SELECT state::text FROM all_lines_state');
# what the hint says: drop the view, update, create it again
my $agg_view_def = $node->safe_psql('old_db', q{SELECT pg_get_viewdef('all_lines_state')});
$node->safe_psql('old_db', 'DROP VIEW all_lines_state');

$node->safe_psql('old_db', 'ALTER EXTENSION logp95 UPDATE');
$node->safe_psql('old_db', "CREATE VIEW all_lines_state AS $agg_view_def");
is($node->safe_psql('old_db', 'SELECT state::text FROM all_lines_state'), $agg_view_before,
	'the view over logp95_agg, created again after the update, gives the same state');
$node->safe_psql('old_db', 'DROP VIEW all_lines_state');
is($node->safe_psql('old_db', q{SELECT extversion FROM pg_extension WHERE extname = 'logp95'}),
	$default_version, "ALTER EXTENSION logp95 UPDATE reaches $default_version");

is($node->safe_psql('old_db', $states_sql), $states_before,
	'stored states read back byte for byte after the update');
is($node->safe_psql('old_db', $view_sql), $view_before, 'the view answers the same after the update');
is($node->safe_psql('old_db', $window_sql), $window_before, 'the time window counts the same rows');

# The expression index is still valid and the planner still uses it.
is($node->safe_psql('old_db',
		q{SELECT indisvalid FROM pg_index WHERE indexrelid = 'access_log_ts'::regclass}),
	't', 'the logp95_line_ts index is valid after the update');
my $plan = $node->safe_psql('old_db', "SET enable_seqscan = off; EXPLAIN (COSTS OFF) $window_sql");
like($plan, qr/Index (Only )?Scan using access_log_ts|Bitmap Index Scan on access_log_ts/,
	'the planner uses the logp95_line_ts index after the update');

# A state made after the update merges with the stored ones exactly.
is($node->safe_psql('old_db',
		q{SELECT (SELECT logp95_merge(state) FROM hourly)::text = (SELECT logp95_agg(line) FROM access_log)::text}),
	't', 'merging the stored states equals aggregating the lines again');

# ---- issue 24: states of 1.0 and 1.1 read and merge with version 2 states ----
# A version 2 state (statuses counted) merged with the states stored at 1.0,
# and with a state literal as 1.1 writes it (encoding version 1, which 1.0
# and 1.1 share): their requests count as unknown, the other classes are
# the new state's, and subtracting the new state gives back the old bytes.
my $red_sql = q{
	WITH old AS (SELECT logp95_merge(state) AS s FROM hourly),
		 v11 AS (SELECT '\x010002172f6170692f76312f7265736f75726365302f6974656d73050b60011001090120019f0101112f6170692f76312f7265736f75726365310103a00101'::logp95_state AS s),
		 new AS (SELECT logp95_agg(l, 'combined', 'status') AS s
				 FROM logp95_generate(5000, 40, 7, 'combined') l),
		 sum AS (SELECT o.s + v.s + n.s AS s FROM old o, v11 v, new n)
	SELECT (SELECT sum(unknown) FROM logp95_status((SELECT s FROM sum)))
			 = (SELECT sum(requests) FROM logp95_report((SELECT s FROM old)))
			   + (SELECT sum(requests) FROM logp95_report((SELECT s FROM v11)))
			   + (SELECT sum(unknown) FROM logp95_status((SELECT s FROM new))),
		   (SELECT sum(s2xx) + sum(s5xx) FROM logp95_status((SELECT s FROM sum)))
			 = (SELECT sum(s2xx) + sum(s5xx) FROM logp95_status((SELECT s FROM new))),
		   ((SELECT s FROM sum) - (SELECT s FROM new))::text = ((SELECT s FROM old) + (SELECT s FROM v11))::text,
		   left((SELECT s FROM new)::text, 4), left((SELECT s FROM sum)::text, 4)
};
is($node->safe_psql('old_db', $red_sql), "t|t|t|\\x02|\\x02",
	'1.0 and 1.1 states merge exactly with a version 2 state after the update');

# ---- a fresh install of the default version has the same objects ----
$node->safe_psql('new_db', 'CREATE EXTENSION logp95');

# Every member object of the extension with what defines it: functions and
# aggregates by their definition, the rest by their description; comments too.
my $objects_sql = q{
	SELECT pg_describe_object(d.classid, d.objid, 0) AS object,
		CASE WHEN d.classid = 'pg_proc'::regclass THEN
			(SELECT concat_ws(' | ', p.prokind, p.provolatile, p.proparallel, p.proisstrict,
				p.prorows, p.prosupport::regproc, p.prosrc, p.probin IS NOT NULL,
				pg_get_function_arguments(p.oid), pg_get_function_result(p.oid),
				(SELECT concat_ws(' ', a.aggtransfn::regproc, a.aggfinalfn::regproc, a.aggcombinefn::regproc,
					a.aggserialfn::regproc, a.aggdeserialfn::regproc, a.aggtranstype::regtype,
					a.aggtransspace, a.agginitval, a.aggfinalmodify)
				 FROM pg_aggregate a WHERE a.aggfnoid = p.oid))
			 FROM pg_proc p WHERE p.oid = d.objid)
		WHEN d.classid = 'pg_type'::regclass THEN
			(SELECT concat_ws(' | ', t.typinput::regproc, t.typoutput::regproc, t.typreceive::regproc,
				t.typsend::regproc, t.typstorage, t.typlen)
			 FROM pg_type t WHERE t.oid = d.objid)
		END AS definition,
		obj_description(d.objid, d.classid::regclass::name) AS comment
	FROM pg_depend d
	WHERE d.refclassid = 'pg_extension'::regclass
	  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'logp95')
	  AND d.deptype = 'e'
	ORDER BY 1};
my $objects_updated = $node->safe_psql('old_db', $objects_sql);
my $objects_fresh = $node->safe_psql('new_db', $objects_sql);
cmp_ok(scalar(split /\n/, $objects_fresh), '>=', 20, 'a fresh install has its objects');
is($objects_updated, $objects_fresh, 'an updated database has exactly the objects of a fresh install');

# Every member object has a comment (but the array type PostgreSQL makes for
# a type, and the row type of a table, members of their own from 17 on).
is($node->safe_psql('new_db',
		qq{SELECT string_agg(object, ', ') FROM ($objects_sql) o
		   WHERE comment IS NULL AND object NOT LIKE 'type %[]'
		     AND object NOT IN (SELECT format('type %s', t.typname) FROM pg_type t
		                        JOIN pg_class c ON c.oid = t.typrelid AND c.relkind = 'r')}),
	'', 'every object of the extension has a COMMENT');

# PostgreSQL 18 records the library's name and version.
SKIP:
{
	skip "pg_get_loaded_modules() exists from PostgreSQL 18 on", 1 if $major < 18;
	is($node->safe_psql('new_db',
			q{SELECT logp95_malformed('\x010000'::logp95_state);
			  SELECT module_name || ' ' || version FROM pg_get_loaded_modules()
			  WHERE file_name LIKE 'logp95%'}),
		"0\nlogp95 $default_version", "pg_get_loaded_modules() shows logp95 $default_version");
}

$node->stop;
done_testing();
