# test/t/048_rollup_security_dump.pl -- who may do what with a continuous
# rollup, and a rollup through pg_dump and restore.
#
# alice owns a database and installs logp95 there (a trusted extension:
# its scripts run as the bootstrap superuser), owns access_log and makes
# its rollup; bob may only INSERT into access_log.  bob's inserts reach
# the rollup (its trigger runs as alice, whatever bob's search_path
# holds), and bob can neither write nor read the rollup, nor add, change
# or remove rows of logp95_rollups for it, nor attach its trigger
# function to a table of his, nor refresh or drop it.  Then pg_dump (as
# alice: no superuser needed) and restore into a fresh database: the
# rollup keeps working there, exact after more inserts.

use strict;
use warnings FATAL => 'all';

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;

my $db = 'lp_t48';
my $node = lp_node('rollup_security');
$node->safe_psql(
	'postgres', qq{
CREATE ROLE alice LOGIN;
CREATE ROLE bob LOGIN;
CREATE DATABASE $db OWNER alice;});
$node->safe_psql('postgres', "GRANT CREATE ON DATABASE $db TO bob");

sub as_alice { return lp_psql_verbose($node, $_[1] // $db, $_[0], user => 'alice'); }
sub as_bob { return lp_psql_verbose($node, $db, $_[0], user => 'bob'); }

# every bucket of the rollup against logp95_agg over the source: the
# number of buckets that differ, and whether their union is the whole
sub rollup_exact
{
	my ($dbname) = @_;
	return $node->safe_psql(
		$dbname, q{
WITH want AS (
	SELECT COALESCE(date_bin('1 minute', logp95_line_time(line), 'epoch'), '-infinity') AS bucket,
		   logp95_agg(line, 'default', 'skip') AS state
	  FROM access_log GROUP BY 1)
SELECT (SELECT count(*) FROM want w FULL JOIN access_log_rollup_1min r USING (bucket)
		 WHERE w.state IS DISTINCT FROM r.state)
	   || ' ' || ((SELECT logp95_merge(state) FROM access_log_rollup_1min)
				  = (SELECT logp95_agg(line, 'default', 'skip') FROM access_log))});
}

# ---- alice: the extension, the log, the rollup ----
is( as_alice(
		q{CREATE EXTENSION logp95;
CREATE TABLE access_log(line text);
INSERT INTO access_log SELECT logp95_generate(6000, 20, 1);
GRANT INSERT ON access_log TO bob;
SELECT logp95_rollup_create('access_log', '1 minute');}),
	'access_log_rollup_1min',
	'alice makes a rollup in her database');
is( $node->safe_psql(
		$db, q{
SELECT c.relowner::regrole || ' ' || p.proowner::regrole || ' ' || p.prosecdef || ' ' ||
	   (SELECT extowner::regrole FROM pg_extension WHERE extname = 'logp95') || ' ' ||
	   (SELECT proowner::regrole FROM pg_proc WHERE proname = 'logp95_rollup_create')
  FROM pg_class c, pg_proc p
 WHERE c.oid = 'access_log_rollup_1min'::regclass AND p.oid = 'access_log_rollup_1min_trigger()'::regprocedure}),
	'alice alice true alice postgres',
	'rollup and SECURITY DEFINER trigger function belong to alice, the extension\'s functions to the bootstrap superuser');

# ---- bob, who may only insert into access_log ----
my $evil = q{CREATE SCHEMA bob;
CREATE FUNCTION bob.logp95_line_time(text, text) RETURNS timestamptz LANGUAGE sql AS $$ SELECT timestamptz '2000-01-01' $$;
CREATE FUNCTION bob.date_bin(interval, timestamptz, timestamptz) RETURNS timestamptz LANGUAGE sql AS $$ SELECT timestamptz '2000-01-01' $$;
CREATE FUNCTION bob.logp95_merge(logp95_state, logp95_state) RETURNS logp95_state LANGUAGE sql AS $$ SELECT $1 $$;};
is(as_bob($evil), '', 'bob makes look-alike functions in a schema of his');
is( as_bob(
		q{SET search_path = bob, public;
INSERT INTO access_log SELECT logp95_generate(3000, 20, 2);
INSERT INTO access_log VALUES ('2026-11-07T00:00:00Z GET /bob 1'), ('bob''s malformed line');}),
	'',
	'bob inserts lines, with his schema first on search_path');
is(rollup_exact($db), '0 true', 'the rollup follows bob\'s inserts, exact (his look-alikes unused)');

like(as_bob(q{INSERT INTO access_log_rollup_1min VALUES ('2030-01-01', '\x010000');}),
	qr/ERROR:  42501: permission denied for table access_log_rollup_1min/,
	'bob cannot insert into the rollup');
like(as_bob(q{UPDATE access_log_rollup_1min SET state = '\x010000';}),
	qr/ERROR:  42501: permission denied/, 'bob cannot update the rollup');
like(as_bob(q{SELECT logp95_rollup_state('access_log_rollup_1min', '-infinity', 'infinity');}),
	qr/ERROR:  42501: permission denied for table access_log_rollup_1min/,
	'bob cannot read the rollup (logp95_rollup_state runs as its caller)');
like(as_bob(q{SELECT logp95_rollup_refresh('access_log_rollup_1min', '-infinity', 'infinity');}),
	qr/ERROR:  42501: permission denied for table access_log/,
	'bob cannot refresh the rollup');
like(as_bob(q{SELECT logp95_rollup_drop('access_log_rollup_1min');}),
	qr/ERROR:  42501: must be owner of table public.access_log_rollup_1min/,
	'bob cannot drop the rollup');

# the configuration table: readable by all, a row writable only by the
# owner of its rollup table
is(as_bob(q{SELECT rollup, source, bucket FROM logp95_rollups;}),
	'access_log_rollup_1min|access_log|00:01:00', 'bob can read logp95_rollups');
like(as_bob(q{DELETE FROM logp95_rollups;}),
	qr/ERROR:  42501: must be owner of table public.access_log_rollup_1min/,
	'bob cannot remove alice\'s row');
like(as_bob(q{UPDATE logp95_rollups SET format = 'combined';}),
	qr/ERROR:  42501: permission denied for table logp95_rollups/,
	'bob cannot change a row');
like(as_bob(q{TRUNCATE logp95_rollups;}),
	qr/ERROR:  42501: permission denied for table logp95_rollups/,
	'bob cannot truncate logp95_rollups');
like(as_bob(q{CREATE TABLE bob.fake(bucket timestamptz, state logp95_state);
INSERT INTO logp95_rollups VALUES ('access_log_rollup_1min', 'bob.fake', '1 hour', 'default', 'line', '', 't', 'f');}),
	qr/ERROR:  42501: must be owner of table public.access_log_rollup_1min/,
	'bob cannot add a row for alice\'s rollup');
is(as_bob(q{INSERT INTO logp95_rollups VALUES ('bob.fake', 'access_log', '1 hour', 'default', 'line', '', 't', 'f');
SELECT logp95_rollup_refresh('bob.fake', '-infinity', 'infinity');}) =~ /42501: permission denied for table access_log/ ? 1 : 0,
	1, 'a row bob adds for his own table gives him no rights on alice\'s source');
as_bob(q{DELETE FROM logp95_rollups WHERE rollup = 'bob.fake'::regclass;});

# the trigger function cannot be attached to another table
like(as_bob(q{CREATE TABLE bob.mine(line text);
CREATE TRIGGER t AFTER INSERT ON bob.mine REFERENCING NEW TABLE AS logp95_new_rows
FOR EACH STATEMENT EXECUTE FUNCTION public.access_log_rollup_1min_trigger();}),
	qr/ERROR:  42501: permission denied for function (public\.)?access_log_rollup_1min_trigger/,
	'bob cannot use the trigger function on a table of his');
is(rollup_exact($db), '0 true', 'the rollup is still exact');

# ---- pg_dump (as alice) and restore into a fresh database ----
$node->safe_psql($db, 'DROP SCHEMA bob CASCADE');
my $dump = PostgreSQL::Test::Utils::tempdir() . '/lp.dump';
my ($rc, $out) = lp_run_logged('pg_dump', '-Fc', '-U', 'alice', '-f', $dump, '-d', $node->connstr($db));
is($rc, 0, 'pg_dump by alice, the database owner') or diag($out);
$node->safe_psql('postgres', "CREATE DATABASE ${db}_restored OWNER alice");
($rc, $out) = lp_run_logged('pg_restore', '--exit-on-error', '-d', $node->connstr("${db}_restored"), $dump);
is($rc, 0, 'pg_restore into a fresh database') or diag($out);
my $r = "${db}_restored";
is( $node->safe_psql(
		$r, q{SELECT rollup || ' ' || source || ' ' || bucket || ' ' || (rollup::oid <> 0) FROM logp95_rollups}),
	'access_log_rollup_1min access_log 00:01:00 true',
	'the rollup\'s definition was restored');
is(rollup_exact($r), '0 true', 'the restored rollup is exact (the source\'s rows were not counted twice)');
is( $node->safe_psql(
		$r, q{SELECT (SELECT count(*) FROM access_log_rollup_1min) = (SELECT count(*) FROM access_log_rollup_1min r
			JOIN pg_catalog.pg_class c ON c.relname = 'access_log_rollup_1min')}),
	't', 'the restored rollup table is there');
is( lp_psql_verbose(
		$node, $r,
		q{INSERT INTO access_log SELECT logp95_generate(4000, 20, 3);
INSERT INTO access_log VALUES ('2026-11-07T00:10:00Z GET /after-restore 5');},
		user => 'bob'),
	'',
	'bob inserts into the restored source');
is(rollup_exact($r), '0 true', 'the restored rollup follows inserts, exact');
is( $node->safe_psql(
		$r,
		q{SELECT count(*) FROM logp95_report(logp95_rollup_state('access_log_rollup_1min', '2026-11-07 00:10:00+00', '2026-11-07 00:11:00+00')) WHERE route = '/after-restore'}
	),
	'1', 'logp95_rollup_state reads the restored definition');
is(as_alice(q{SELECT logp95_rollup_drop('access_log_rollup_1min'); SELECT count(*) FROM logp95_rollups;}, $r),
	"\n0", 'alice drops the restored rollup');

done_testing();
