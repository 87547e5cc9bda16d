-- sql/rollup_continuous.sql -- continuous rollups: logp95_rollup_create, _refresh, _state, _drop (1.2)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;
-- buckets are aligned in UTC whatever the session's zone
SET TimeZone = 'Asia/Kolkata';

-- An error as 'SQLSTATE: message' (the same text on every server version).
CREATE FUNCTION try(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE q;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- Every bucket of rollup r against the lines of src re-aggregated by
-- logp95_agg (grouped the same way, skip added to the options): the
-- buckets, how many differ (a bucket missing on either side differs), and
-- whether the union of all buckets is logp95_agg over the whole source.
CREATE FUNCTION rollup_diff(r regclass, src regclass, w interval,
							fmt text DEFAULT 'default', col name DEFAULT 'line', opts text DEFAULT '')
RETURNS TABLE(buckets bigint, differ bigint, whole bool)
LANGUAGE plpgsql AS $$
DECLARE
	o text := CASE WHEN opts = '' THEN 'skip' ELSE 'skip,' || opts END;
BEGIN
	RETURN QUERY EXECUTE format($q$
		WITH want AS (
			SELECT COALESCE(date_bin(%1$L, logp95_line_time(%5$I, %2$L), 'epoch'), '-infinity') AS bucket,
				   logp95_agg(%5$I, %2$L, %3$L) AS state
			  FROM %4$s WHERE %5$I IS NOT NULL GROUP BY 1)
		SELECT (SELECT count(*) FROM %6$s),
			   (SELECT count(*) FROM want w FULL JOIN %6$s g USING (bucket)
				 WHERE w.state IS DISTINCT FROM g.state),
			   (SELECT logp95_merge(state) FROM %6$s) = (SELECT logp95_agg(%5$I, %2$L, %3$L) FROM %4$s)$q$,
		w, fmt, o, src, col, r);
END $$;

-- ---- create: a table named after the source and the bucket, filled ----
-- 20 minutes of generated lines (10 a second), and lines that are not
-- ordinary: no time, a malformed latency, a NULL, hostile text
-- (basic.sql leaves a table of this name behind)
SET client_min_messages = warning;
DROP TABLE IF EXISTS access_log;
RESET client_min_messages;
-- rollup-named tables of earlier tests, left out of the count below
DO $$ BEGIN CREATE TEMP TABLE rc_earlier AS SELECT oid FROM pg_class WHERE relname LIKE '%\_rollup\_%' AND relkind = 'r'; END $$;
CREATE TABLE access_log(id bigserial, line text);
INSERT INTO access_log(line) SELECT logp95_generate(12000, 20, 7);
INSERT INTO access_log(line) VALUES
	('notime GET /nt 5'),
	('2026-11-07T00:03:00Z GET /bad 12ms'),
	(NULL),
	('2026-11-07T00:04:00Z GET /q''uote$body$;DROP_TABLE_access_log;-- 7'),
	('2026-11-07T00:04:00Z GET /back\slash 8');
SELECT logp95_rollup_create('access_log', '1 minute');
SELECT * FROM rollup_diff('access_log_rollup_1min', 'access_log', '1 minute');
-- the columns, the owner, the definition
SELECT attname, atttypid::regtype, attnotnull, attstorage FROM pg_attribute
 WHERE attrelid = 'access_log_rollup_1min'::regclass AND attnum > 0 ORDER BY attnum;
SELECT pg_get_indexdef(indexrelid) FROM pg_index WHERE indrelid = 'access_log_rollup_1min'::regclass;
SELECT reloptions FROM pg_class WHERE oid = 'access_log_rollup_1min'::regclass;
SELECT relowner::regrole = current_user::regrole AS owned_by_caller
  FROM pg_class WHERE oid = 'access_log_rollup_1min'::regclass;
SELECT * FROM logp95_rollups;
-- the trigger: one, statement-level, AFTER INSERT, with a transition table
SELECT tgname, tgtype & 1 = 0 AS statement_level, tgtype & 2 = 0 AS after, tgtype & 4 <> 0 AS on_insert,
	   tgtype & (8 | 16 | 32) = 0 AS insert_only, tgnewtable, tgfoid::regprocedure
  FROM pg_trigger WHERE tgrelid = 'access_log'::regclass;
-- its function: SECURITY DEFINER as the caller, search_path pinned, not for PUBLIC
SELECT proname, prosecdef, proowner::regrole = current_user::regrole AS owned_by_caller, proconfig,
	   has_function_privilege('public', oid, 'EXECUTE') AS public_execute
  FROM pg_proc p
 WHERE p.oid = 'access_log_rollup_1min_trigger()'::regprocedure;
SELECT obj_description('access_log_rollup_1min'::regclass, 'pg_class');
-- the bucket without a time holds the two lines without one; the malformed
-- line is counted in its minute
SELECT bucket, (SELECT sum(requests) FROM logp95_report(state)) AS requests, logp95_malformed(state)
  FROM access_log_rollup_1min WHERE bucket = '-infinity' OR logp95_malformed(state) > 0 ORDER BY bucket;

-- A reference in plain SQL for the default format: requests and the
-- largest latency per (UTC minute, route), against the reports of the
-- buckets (well-formed lines in whole seconds of UTC only: the lines with
-- fractions or an offset are counted in the rollup and not here).
CREATE FUNCTION plain_diff(r regclass) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
	EXECUTE format($q$
		WITH ref AS (
			SELECT to_timestamp(floor(extract(epoch FROM (rtrim(split_part(line, ' ', 1), 'Z') || '+00')::timestamptz) / 60) * 60) AS bucket,
				   split_part(line, ' ', 3) AS route, count(*) AS requests, max(split_part(line, ' ', 4)::bigint) AS max_ms
			  FROM access_log WHERE line ~ '^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ? \S+ \S+ \d+$' GROUP BY 1, 2),
		got AS (
			SELECT g.bucket, rep.route, rep.requests, rep.max_ms FROM %s g, LATERAL logp95_report(g.state) rep
			 WHERE g.bucket > '-infinity')
		SELECT count(*) FROM (SELECT * FROM (TABLE ref EXCEPT ALL TABLE got) a
							  UNION ALL SELECT * FROM (TABLE got EXCEPT ALL TABLE ref) b) d$q$, r) INTO n;
	RETURN n;
END $$;
SELECT plain_diff('access_log_rollup_1min');

-- ---- later inserts: one row, many rows, INSERT ... SELECT, COPY ----
INSERT INTO access_log(line) VALUES ('2026-11-07T00:00:01Z GET /one 3');
INSERT INTO access_log(line) SELECT logp95_generate(3000, 20, 8);
INSERT INTO access_log(line) SELECT replace(l, '2026-11-07T00:', '2026-11-07T01:') FROM logp95_generate(600, 5, 9) l;
SET logp95.on_malformed = error;	-- the rollup counts malformed lines whatever the setting says
COPY access_log(line) FROM STDIN;
2026-11-07T00:05:00Z GET /copy 10
2026-11-07T00:05:01Z GET /copy 11
2026-11-07T00:05:02Z GET /copy nope
not a log line at all
2026-11-07T00:59:59.999Z GET /copy 12
2026-11-07T00:05:00+05:30 GET /copy 13
2026-11-07T00:05:00.5Z GET /copy 14
\.
RESET logp95.on_malformed;
SELECT * FROM rollup_diff('access_log_rollup_1min', 'access_log', '1 minute');
SELECT plain_diff('access_log_rollup_1min') AS lines_with_fraction_or_offset;
-- an insert of no rows changes nothing
INSERT INTO access_log(line) SELECT line FROM access_log WHERE false;
SELECT * FROM rollup_diff('access_log_rollup_1min', 'access_log', '1 minute');
-- a statement that fails leaves the rollup as it was
SELECT try($$INSERT INTO access_log(id, line) VALUES (-1, '2026-11-07T00:00:00Z GET /x 1'), (-1, 1/0)$$);
SELECT * FROM rollup_diff('access_log_rollup_1min', 'access_log', '1 minute');

-- a long hostile line: counted, the insert goes through
INSERT INTO access_log(line) VALUES ('2026-11-07T00:06:00Z GET /' || repeat('x''"\$', 50000) || ' 9'),
	(repeat('[', 100000)), (E'2026-11-07T00:06:00Z GET /tab\t77');
SELECT * FROM rollup_diff('access_log_rollup_1min', 'access_log', '1 minute');

-- ---- logp95_rollup_state: the buckets in [from, to) ----
SELECT logp95_rollup_state('access_log_rollup_1min', '-infinity', 'infinity')
	 = (SELECT logp95_agg(line, 'default', 'skip') FROM access_log) AS everything;
SELECT logp95_rollup_state('access_log_rollup_1min', '2026-11-07 00:05:00+00', '2026-11-07 00:10:00+00')
	 = (SELECT logp95_agg(line, 'default', 'skip') FROM access_log
		 WHERE logp95_line_time(line) >= '2026-11-07 00:05:00+00' AND logp95_line_time(line) < '2026-11-07 00:10:00+00') AS five_minutes;
-- from -infinity: the lines without a time too
SELECT logp95_rollup_state('access_log_rollup_1min', '-infinity', '2026-11-07 00:01:00+00')
	 = (SELECT logp95_agg(line, 'default', 'skip') FROM access_log
		 WHERE logp95_line_time(line) IS NULL OR logp95_line_time(line) < '2026-11-07 00:01:00+00') AS first_minute;
-- an empty range, a range with no bucket, NULL
SELECT logp95_rollup_state('access_log_rollup_1min', '2026-11-07 00:05:00+00', '2026-11-07 00:05:00+00') AS empty,
	   logp95_rollup_state('access_log_rollup_1min', '2030-01-01 00:00:00+00', 'infinity') AS none,
	   logp95_rollup_state('access_log_rollup_1min', NULL, 'infinity') IS NULL AS null_bound;
-- bounds not on a bucket edge, reversed bounds, not a rollup
SELECT try($$SELECT logp95_rollup_state('access_log_rollup_1min', '2026-11-07 00:05:30+00', 'infinity')$$);
SELECT try($$SELECT logp95_rollup_state('access_log_rollup_1min', '-infinity', '2026-11-07 00:05:00.000001+00')$$);
SELECT try($$SELECT logp95_rollup_state('access_log_rollup_1min', 'infinity', '-infinity')$$);
SELECT try($$SELECT logp95_rollup_state('access_log', '-infinity', 'infinity')$$);

-- ---- UPDATE, DELETE and TRUNCATE leave the rollup as it is ----
CREATE TABLE kept AS SELECT * FROM access_log_rollup_1min;
DELETE FROM access_log WHERE logp95_line_time(line) < '2026-11-07 00:10:00+00' OR logp95_line_time(line) IS NULL;
UPDATE access_log SET line = 'changed' WHERE id % 10 = 0;
SELECT count(*) AS changed_buckets FROM (TABLE kept EXCEPT TABLE access_log_rollup_1min) d;
-- logp95_rollup_refresh recomputes a range from the source: the buckets
-- of [00:00, 00:10) go (their lines were deleted; the one left before
-- 00:10 is 2026-11-06 23:35 UTC, outside the range), those outside the
-- range are untouched
SELECT logp95_rollup_refresh('access_log_rollup_1min', '2026-11-07 00:00:00+00', '2026-11-07 00:10:00+00') AS written;
SELECT count(*) AS buckets_before_10 FROM access_log_rollup_1min
 WHERE bucket > '-infinity' AND bucket < '2026-11-07 00:10:00+00';
SELECT count(*) AS untouched FROM kept k JOIN access_log_rollup_1min r USING (bucket, state)
 WHERE k.bucket >= '2026-11-07 00:10:00+00' OR k.bucket = '-infinity';
-- the -infinity bucket only when from is -infinity; then everything is exact again
SELECT logp95_rollup_refresh('access_log_rollup_1min', '-infinity', '2026-11-07 00:00:00+00') AS written;
SELECT logp95_rollup_refresh('access_log_rollup_1min', '2026-11-07 00:00:00+00', 'infinity') AS written;
SELECT * FROM rollup_diff('access_log_rollup_1min', 'access_log', '1 minute');
SELECT try($$SELECT logp95_rollup_refresh('access_log_rollup_1min', '2026-11-07 00:00:01+00', 'infinity')$$);
SELECT try($$SELECT logp95_rollup_refresh('access_log_rollup_1min', NULL, 'infinity')$$);
SELECT try($$SELECT logp95_rollup_refresh('access_log_rollup_1min', 'infinity', '-infinity')$$);
SELECT try($$SELECT logp95_rollup_refresh('kept', '-infinity', 'infinity')$$);
-- TRUNCATE: the summaries stay
TRUNCATE access_log;
SELECT count(*) > 0 AS kept_after_truncate FROM access_log_rollup_1min;
SELECT logp95_rollup_refresh('access_log_rollup_1min', '-infinity', 'infinity') AS written;
SELECT count(*) AS buckets FROM access_log_rollup_1min;

-- ---- the rollup table cannot be dropped alone (it would break inserts) ----
SELECT try($$DROP TABLE access_log_rollup_1min$$);

-- ---- a second rollup of the same source, hourly; and drop ----
INSERT INTO access_log(line) SELECT logp95_generate(6000, 20, 11);
SELECT logp95_rollup_create('access_log', '1 hour');
SELECT try($$SELECT logp95_rollup_create('access_log', '60 minutes')$$);
INSERT INTO access_log(line) SELECT logp95_generate(6000, 20, 12);
SELECT * FROM rollup_diff('access_log_rollup_1h', 'access_log', '1 hour');
SELECT logp95_rollup_drop('access_log_rollup_1h');
SELECT to_regclass('access_log_rollup_1h') AS tbl, to_regprocedure('access_log_rollup_1h_trigger()') AS fn,
	   (SELECT count(*) FROM pg_trigger WHERE tgname = 'access_log_rollup_1h') AS triggers,
	   (SELECT count(*) FROM logp95_rollups WHERE trigger_name = 'access_log_rollup_1h') AS rows;
-- the other rollup goes on
INSERT INTO access_log(line) VALUES ('2026-11-07T00:00:02Z GET /after-drop 4');
SELECT logp95_rollup_refresh('access_log_rollup_1min', '-infinity', '2026-11-07 00:00:00+00');
SELECT logp95_rollup_refresh('access_log_rollup_1min', '2026-11-07 00:00:00+00', '2026-11-07 00:00:00+00');
SELECT * FROM rollup_diff('access_log_rollup_1min', 'access_log', '1 minute');

-- ---- bucket widths: UTC days, seconds, names ----
CREATE TABLE days(line text);
INSERT INTO days VALUES ('2026-11-07T23:59:59Z GET /d 1'), ('2026-11-08T00:00:00Z GET /d 2'),
	('2026-11-08T05:29:59+05:30 GET /d 3');
SELECT logp95_rollup_create('days', '1 day');
SELECT bucket, (SELECT sum(requests) FROM logp95_report(state)) FROM days_rollup_1d ORDER BY 1;
SELECT logp95_rollup_create('days', '90 seconds'), logp95_rollup_create('days', '1.5 seconds'),
	   logp95_rollup_create('days', '7 days'), logp95_rollup_create('days', '1 microsecond');
SELECT * FROM rollup_diff('days_rollup_90s', 'days', '90 seconds');
SELECT * FROM rollup_diff('days_rollup_1500ms', 'days', '1.5 seconds');

-- ---- another format, a column of another name, options ----
CREATE TABLE nginx(host text, msg varchar);
INSERT INTO nginx(host, msg) SELECT 'a', l FROM logp95_generate(3000, 30, 3, 'combined_query') l;
SELECT logp95_rollup_create('nginx', '5 minutes', 'combined', 'msg', 'templates,query');
INSERT INTO nginx(host, msg) SELECT 'b', l FROM logp95_generate(3000, 30, 4, 'combined_query') l;
INSERT INTO nginx(host, msg) VALUES ('c', '1.2.3.4 - - [07/Nov/2026:00:00:00 +0000] "GET /u/12345?x=1 HTTP/1.1" 200 1 "-" "x" 0.010'),
	('c', 'garbage');
SELECT * FROM rollup_diff('nginx_rollup_5min', 'nginx', '5 minutes', 'combined', 'msg', 'templates,query');
SELECT route FROM logp95_report(logp95_rollup_state('nginx_rollup_5min', '2026-11-07 00:00:00+00', '2026-11-07 00:05:00+00'))
 WHERE route LIKE '/u/%';
SELECT logp95_malformed(logp95_rollup_state('nginx_rollup_5min', '-infinity', 'infinity'));
-- skip given or not, blanks: the same rollup
SELECT logp95_rollup_create('nginx', '10 minutes', 'combined', 'msg', ' skip , templates ');
SELECT * FROM rollup_diff('nginx_rollup_10min', 'nginx', '10 minutes', 'combined', 'msg', 'templates');

-- ---- logp95_rollup_rows: a rollup's rows from the lines of a cursor ----
-- what the trigger, create and refresh run: the lines in the order the
-- cursor gives them, one running state for the bucket being read; lines
-- out of order make more runs of their bucket, merged.  Combined lines
-- without templates take the parser's own time (kept from line to line).
CREATE TABLE rr(n int, line text);
INSERT INTO rr SELECT n, l FROM logp95_generate(3000, 30, 21, 'combined') WITH ORDINALITY g(l, n);
INSERT INTO rr VALUES
	(3001, '1.2.3.4 - - [07/Nov/2026:00:00:00 +0000] "GET /cr HTTP/1.1" 200 1 "-" "x" 0.010' || E'\r'),
	(3002, '1.2.3.4 - - [07/Nov/2026:00:01:00 +0100] "GET /offset HTTP/1.1" 200 1 "-" "x" 0.020'),
	(3003, '1.2.3.4 - - [31/Feb/2026:00:00:00 +0000] "GET /badtime HTTP/1.1" 200 1 "-" "x" 0.030'),
	(3004, '1.2.3.4 - - [] "GET /notime HTTP/1.1" 200 1 "-" "x" 0.040'),
	(3005, '1.2.3.4 - - [' || repeat('9', 80) || '] "GET /longtime HTTP/1.1" 200 1 "-" "x" 0.050'),
	(3006, '1.2.3.4 - - [07/Nov/2026:00:02:00 +0000] "GET /bad HTTP/1.1" 200 1 "-" "x" soon'),
	(3007, '1.2.3.4 - - [07/Nov/2026:00:02:00 +0000] "GET http://h HTTP/1.1" 200 1 "-" "x" 0.060'),
	(3008, NULL),
	(3009, 'no time, no request');
-- the reference: logp95_agg of each bucket's lines, grouped as the rollups group
CREATE FUNCTION rr_diff(q text, w interval, fmt text, opts text) RETURNS TABLE(buckets bigint, differ bigint, in_order bool)
LANGUAGE plpgsql AS $$
DECLARE
	c refcursor;
BEGIN
	OPEN c NO SCROLL FOR EXECUTE q;
	CREATE TEMP TABLE rr_got AS SELECT * FROM logp95_rollup_rows(c, w, fmt, opts) WITH ORDINALITY g(bucket, state, o);
	CLOSE c;
	RETURN QUERY
	SELECT (SELECT count(*) FROM rr_got),
		   (SELECT count(*) FROM (
				SELECT COALESCE(date_bin(w, logp95_line_time(line, fmt), 'epoch'), '-infinity') AS bucket,
					   logp95_agg(line, fmt, CASE WHEN opts = '' THEN 'skip' ELSE 'skip,' || opts END) AS state
				  FROM rr WHERE line IS NOT NULL GROUP BY 1) want
			 FULL JOIN rr_got g USING (bucket) WHERE want.state IS DISTINCT FROM g.state),
		   (SELECT array_agg(bucket ORDER BY o) = array_agg(bucket ORDER BY bucket) FROM rr_got);
	DROP TABLE rr_got;
END $$;
-- in order, shuffled, backwards; another width; options
SELECT * FROM rr_diff('SELECT line FROM rr ORDER BY n', '1 minute', 'combined', '');
SELECT * FROM rr_diff('SELECT line FROM rr ORDER BY (n * 7919) % 3011', '1 minute', 'combined', '');
SELECT * FROM rr_diff('SELECT line FROM rr ORDER BY n DESC', '90 seconds', 'combined', '');
-- two, four and five runs of every bucket (added by walks, then decoded)
SELECT * FROM rr_diff('SELECT line FROM rr ORDER BY n % 2, n', '1 minute', 'combined', '');
SELECT * FROM rr_diff('SELECT line FROM rr ORDER BY n % 4, n', '1 minute', 'combined', '');
SELECT * FROM rr_diff('SELECT line FROM rr ORDER BY n % 5, n', '1 minute', 'combined', '');
SELECT * FROM rr_diff('SELECT line FROM rr ORDER BY n', '1 minute', 'combined', 'templates');
SELECT * FROM rr_diff('SELECT line FROM rr ORDER BY n', '1 hour', 'combined_us_query', 'skip');
SELECT * FROM rr_diff('SELECT line::varchar FROM rr ORDER BY n', '1 minute', 'default', '');
-- malformed lines are counted whatever logp95.on_malformed says; the lines
-- of the -infinity bucket
SET logp95.on_malformed = error;
SELECT * FROM rr_diff('SELECT line FROM rr ORDER BY n', '1 minute', 'combined', '');
RESET logp95.on_malformed;
BEGIN;
DECLARE rrc NO SCROLL CURSOR FOR SELECT line FROM rr WHERE n > 3000 ORDER BY n;
SELECT bucket, (SELECT string_agg(route, ' ' ORDER BY route) FROM logp95_report(state)) AS routes,
	   logp95_malformed(state) FROM logp95_rollup_rows('rrc', '1 minute', 'combined', '');
-- what the cursor returned is gone: a second read counts nothing
SELECT count(*) FROM logp95_rollup_rows('rrc', '1 minute', 'combined', '');
COMMIT;
-- a cursor that is not there, or not of lines; options and widths it refuses
SELECT try($$SELECT * FROM logp95_rollup_rows('no_such_cursor', '1 minute', 'default', '')$$);
BEGIN;
DECLARE rrn NO SCROLL CURSOR FOR SELECT n FROM rr;
DECLARE rr2 NO SCROLL CURSOR FOR SELECT line, line FROM rr;
DECLARE rrl NO SCROLL CURSOR FOR SELECT line FROM rr;
SELECT try($$SELECT * FROM logp95_rollup_rows('rrn', '1 minute', 'default', '')$$);
SELECT try($$SELECT * FROM logp95_rollup_rows('rr2', '1 minute', 'default', '')$$);
SELECT try($$SELECT * FROM logp95_rollup_rows('rrl', '1 minute', 'default', 'error')$$);
SELECT try($$SELECT * FROM logp95_rollup_rows('rrl', '1 minute', 'default', 'bogus')$$);
SELECT try($$SELECT * FROM logp95_rollup_rows('rrl', '1 minute', 'apache', '')$$);
SELECT try($$SELECT * FROM logp95_rollup_rows('rrl', '1 month', 'default', '')$$);
SELECT try($$SELECT * FROM logp95_rollup_rows('rrl', '0 seconds', 'default', '')$$);
SELECT count(*) FROM logp95_rollup_rows(NULL, '1 minute', 'default', '');
-- the cursor of the statement that runs it: PostgreSQL refuses to run a
-- portal that is running
DECLARE rrself NO SCROLL CURSOR FOR
	SELECT (SELECT count(*) FROM logp95_rollup_rows('rrself', '1 minute', 'default', ''))::text AS line;
SELECT try($$FETCH ALL FROM rrself$$);
COMMIT;
-- a cursor held past its transaction (its rows kept in a tuplestore)
BEGIN;
DECLARE rrhold NO SCROLL CURSOR WITH HOLD FOR SELECT line FROM rr WHERE n <= 100 ORDER BY n;
COMMIT;
SELECT count(*) AS buckets, sum((SELECT sum(requests) FROM logp95_report(state))) AS requests
  FROM logp95_rollup_rows('rrhold', '1 minute', 'combined', '');
CLOSE rrhold;
DROP FUNCTION rr_diff(text, interval, text, text);
DROP TABLE rr;

-- ---- names that need quoting ----
CREATE SCHEMA "odd ""schema""";
CREATE TABLE "odd ""schema""".")weird; name" ("li""ne" text);
INSERT INTO "odd ""schema""".")weird; name" SELECT logp95_generate(1200, 5, 1);
SELECT logp95_rollup_create('"odd ""schema""".")weird; name"', '2 minutes', 'default', 'li"ne');
INSERT INTO "odd ""schema""".")weird; name" SELECT logp95_generate(1200, 5, 2);
SELECT * FROM rollup_diff('"odd ""schema""".")weird; name_rollup_2min"', '"odd ""schema""".")weird; name"', '2 minutes', 'default', 'li"ne');
-- a long source name is shortened to fit
CREATE TABLE a_source_table_with_a_name_long_enough_to_need_shortening_xyz(line text);
SELECT logp95_rollup_create('a_source_table_with_a_name_long_enough_to_need_shortening_xyz', '15 minutes');
SELECT logp95_rollup_drop('"odd ""schema""".")weird; name_rollup_2min"');
SELECT count(*) FROM pg_proc WHERE pronamespace = '"odd ""schema"""'::regnamespace;

-- ---- a partitioned source ----
CREATE TABLE plog(line text, part int) PARTITION BY LIST (part);
CREATE TABLE plog_0 PARTITION OF plog FOR VALUES IN (0);
CREATE TABLE plog_1 PARTITION OF plog FOR VALUES IN (1);
INSERT INTO plog SELECT l, n % 2 FROM logp95_generate(3000, 10, 5) WITH ORDINALITY g(l, n);
SELECT logp95_rollup_create('plog', '1 minute');
-- through the parent: covered (INSERT and COPY)
INSERT INTO plog SELECT l, n % 2 FROM logp95_generate(3000, 10, 6) WITH ORDINALITY g(l, n);
COPY plog(line, part) FROM STDIN;
2026-11-07T00:01:00Z GET /p 5	0
2026-11-07T00:01:00Z GET /p 6	1
\.
SELECT * FROM rollup_diff('plog_rollup_1min', 'plog', '1 minute');
-- straight into a partition, or a partition attached: no trigger fires on
-- the parent; logp95_rollup_refresh is the remedy
INSERT INTO plog_1 VALUES ('2026-11-07T00:02:00Z GET /direct 7', 1);
CREATE TABLE plog_2 (line text, part int);
INSERT INTO plog_2 VALUES ('2026-11-07T00:03:00Z GET /attached 8', 2);
ALTER TABLE plog ATTACH PARTITION plog_2 FOR VALUES IN (2);
SELECT * FROM rollup_diff('plog_rollup_1min', 'plog', '1 minute');
SELECT logp95_rollup_refresh('plog_rollup_1min', '2026-11-07 00:02:00+00', '2026-11-07 00:04:00+00');
SELECT * FROM rollup_diff('plog_rollup_1min', 'plog', '1 minute');

-- ---- bad arguments ----
SELECT try($$SELECT logp95_rollup_create('days', '1 month')$$);
SELECT try($$SELECT logp95_rollup_create('days', '1 year 2 days')$$);
SELECT try($$SELECT logp95_rollup_create('days', '0 minutes')$$);
SELECT try($$SELECT logp95_rollup_create('days', '-5 minutes')$$);
SELECT try($$SELECT logp95_rollup_create('days', '1 day -86400 seconds')$$);
SELECT try($$SELECT logp95_rollup_create('days', NULL)$$);
SELECT try($$SELECT logp95_rollup_create('days', '1 minute', 'apache')$$);
SELECT try($$SELECT logp95_rollup_create('days', '1 minute', 'default', 'line', 'bogus')$$);
SELECT try($$SELECT logp95_rollup_create('days', '1 minute', 'default', 'line', 'error')$$);
SELECT try($$SELECT logp95_rollup_create('days', '1 minute', 'default', 'line', 'skip, error')$$);
SELECT try($$SELECT logp95_rollup_create('days', '1 minute', 'default', 'line', 'templates,')$$);
SELECT try($$SELECT logp95_rollup_create('days', '1 minute', 'default', 'nope')$$);
SELECT try($$SELECT logp95_rollup_create('access_log', '1 minute', 'default', 'id')$$);
CREATE VIEW days_view AS SELECT * FROM days;
SELECT try($$SELECT logp95_rollup_create('days_view', '1 minute')$$);
CREATE TEMP TABLE tmp_log(line text);
SELECT try($$SELECT logp95_rollup_create('tmp_log', '1 minute')$$);
SELECT try($$SELECT logp95_rollup_drop('days')$$);
-- nothing was left behind by the refusals
SELECT count(*) AS rollups FROM logp95_rollups;
SELECT count(*) AS tables FROM pg_class WHERE relname LIKE '%\_rollup\_%' AND relkind = 'r'
	AND oid NOT IN (SELECT oid FROM rc_earlier);

-- ---- recipes of docs/sre.md, on two days of lines ending now ----
-- (one transaction, so that now() is one instant for the data and the queries)
BEGIN;
CREATE TABLE web_log(line text);
-- two lines a minute per route for 48 hours before the current hour;
-- /checkout gets 200 ms slower 5 hours before the current hour
INSERT INTO web_log
SELECT to_char((date_bin('1 hour', now(), 'epoch') - m * interval '1 minute' + i * interval '20 seconds') AT TIME ZONE 'UTC',
			   'YYYY-MM-DD"T"HH24:MI:SS"Z"')
	   || ' GET ' || r || ' '
	   || (10 + (m * 7 + i * 13) % 20
		   + CASE WHEN r = '/checkout' AND m <= 300 THEN 200 ELSE 0 END)
  FROM generate_series(1, 48 * 60) m, generate_series(0, 1) i, unnest(ARRAY['/home', '/checkout']) r;
SELECT logp95_rollup_create('web_log', '1 minute');
CREATE INDEX web_log_time ON web_log (logp95_line_time(line));

-- p95 per route for the last hour, from the rollup
CREATE TEMP TABLE last_hour AS
SELECT * FROM logp95_report(logp95_rollup_state('web_log_rollup_1min',
		date_bin('1 minute', now(), 'epoch') - interval '1 hour', 'infinity'));
SELECT route FROM last_hour ORDER BY route;
-- the same from the raw lines (the lines end at the current hour, so how
-- many of them fall in the last 60 minutes depends on the time of the run)
SELECT count(*) AS differ FROM (
	(TABLE last_hour EXCEPT ALL
	 SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM web_log
		WHERE logp95_line_time(line) >= date_bin('1 minute', now(), 'epoch') - interval '1 hour')))
	UNION ALL
	(SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM web_log
		WHERE logp95_line_time(line) >= date_bin('1 minute', now(), 'epoch') - interval '1 hour'))
	 EXCEPT ALL TABLE last_hour)) d;

-- a long window from two rollups: the last 6 hours to the minute, the
-- whole hours from an hourly rollup, the minutes before them from the minute one
SELECT logp95_rollup_create('web_log', '1 hour');
CREATE TEMP TABLE six_hours AS
SELECT r.*
FROM (SELECT date_bin('1 minute', now(), 'epoch') - interval '6 hours' AS from_minute) w,
	 LATERAL (SELECT date_bin('1 hour', w.from_minute - interval '1 microsecond', 'epoch') + interval '1 hour' AS from_hour) h,
	 LATERAL logp95_report((
		SELECT logp95_merge(u.state)
		  FROM (SELECT state FROM web_log_rollup_1min WHERE bucket >= w.from_minute AND bucket < h.from_hour
				UNION ALL
				SELECT state FROM web_log_rollup_1h WHERE bucket >= h.from_hour) u)) r;
SELECT route FROM six_hours ORDER BY route;
SELECT count(*) AS differ FROM (
	(TABLE six_hours EXCEPT ALL
	 SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM web_log
		WHERE logp95_line_time(line) >= date_bin('1 minute', now(), 'epoch') - interval '6 hours')))
	UNION ALL
	(SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM web_log
		WHERE logp95_line_time(line) >= date_bin('1 minute', now(), 'epoch') - interval '6 hours'))
	 EXCEPT ALL TABLE six_hours)) d;
-- hour edges of the cut: on an edge, the minutes add nothing; one minute
-- after, 59 minutes and the hours from the next edge
SELECT t AT TIME ZONE 'UTC' AS from_minute_utc,
	   (date_bin('1 hour', t - interval '1 microsecond', 'epoch') + interval '1 hour') AT TIME ZONE 'UTC' AS from_hour_utc
  FROM (VALUES (timestamptz '2026-11-09 09:00:00+00'), ('2026-11-09 09:01:00+00'), ('2026-11-09 09:59:00+00')) v(t);

-- a rolling 60-minute p95 per minute for the last 6 hours
CREATE TEMP TABLE rolling AS
SELECT w.bucket, r.route, r.p95_ms
FROM (SELECT bucket,
			 logp95_merge(state) OVER (ORDER BY bucket RANGE BETWEEN '59 minutes' PRECEDING AND CURRENT ROW) AS state
		FROM web_log_rollup_1min
	   WHERE bucket >= now() - interval '7 hours') w,
	 LATERAL logp95_report(w.state) r
WHERE w.bucket >= now() - interval '6 hours'
ORDER BY 1, 2;
SELECT count(*) = 2 * count(DISTINCT bucket) AS two_routes_a_minute,
	   count(DISTINCT bucket) = (SELECT count(*) FROM web_log_rollup_1min WHERE bucket >= now() - interval '6 hours') AS every_minute
  FROM rolling;
-- each row against the raw lines of its 60 minutes
SELECT count(*) AS differ FROM rolling g
 WHERE g.p95_ms IS DISTINCT FROM (
	SELECT r.p95_ms FROM logp95_report((SELECT logp95_agg(line) FROM web_log
		WHERE logp95_line_time(line) >= g.bucket - interval '59 minutes'
		  AND logp95_line_time(line) < g.bucket + interval '1 minute')) r WHERE r.route = g.route);
SELECT route, min(p95_ms), max(p95_ms) FROM rolling GROUP BY route ORDER BY route;

-- since when: the first complete hour of the last day whose p95 left the
-- band of the day before (its lowest to highest hourly p95)
CREATE TEMP TABLE since AS
WITH hourly AS (
	SELECT h.hour, r.route, r.p95_ms
	FROM (SELECT date_bin('1 hour', bucket, 'epoch') AS hour, logp95_merge(state) AS state
			FROM web_log_rollup_1min
		   WHERE bucket >= date_bin('1 hour', now(), 'epoch') - interval '48 hours'
		   GROUP BY 1) h,
		 LATERAL logp95_report(h.state) r),
band AS (
	SELECT route, min(p95_ms) AS lo, max(p95_ms) AS hi FROM hourly
	 WHERE hour < date_bin('1 hour', now(), 'epoch') - interval '24 hours'
	 GROUP BY route)
SELECT DISTINCT ON (route) route, hour AS since, p95_ms, lo, hi
  FROM hourly JOIN band USING (route)
 WHERE hour >= date_bin('1 hour', now(), 'epoch') - interval '24 hours'
   AND hour < date_bin('1 hour', now(), 'epoch')
   AND p95_ms NOT BETWEEN lo AND hi
 ORDER BY route, hour;
SELECT route, since = date_bin('1 hour', now(), 'epoch') - interval '5 hours' AS five_hours_ago, p95_ms, lo, hi
  FROM since;
COMMIT;

-- ---- drop everything ----
SELECT logp95_rollup_drop(rollup) FROM logp95_rollups ORDER BY rollup::text;
SELECT count(*) FROM logp95_rollups;
SELECT count(*) AS rollup_triggers FROM pg_trigger WHERE tgname LIKE '%\_rollup\_%';
