-- sql/time_window.sql -- logp95_line_ts, a time-window report an expression index serves, row estimates
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;
-- serial plans: the point here is the scan under the aggregate
SET max_parallel_workers_per_gather = 0;

-- the first field, ISO 8601; a fraction keeps 6 digits, the 7th rounds half up
SELECT logp95_line_ts('2026-11-07T12:00:05 GET /api/users 10') AS plain,
       logp95_line_ts(E' \t2026-11-07T12:00:05.25 GET /x 1\r') AS blanks_fraction,
       logp95_line_ts('2026-11-07T12:00:05.1234565 GET /x 1') AS seven_digits_up,
       logp95_line_ts('2026-11-07T12:00:05.1234564999 GET /x 1') AS seven_digits_down,
       logp95_line_ts('2026-12-31T23:59:59.9999995 GET /x 1') AS carry_into_next_year;
-- Z is UTC; an offset is converted to UTC (the result is UTC wall-clock time)
SELECT logp95_line_ts('2026-11-07T12:00:05Z GET /x 1') AS z,
       logp95_line_ts('2026-11-07T12:00:05+02:00 GET /x 1') AS plus_two,
       logp95_line_ts('2026-11-07T12:00:05-0530 GET /x 1') AS minus_five_thirty,
       logp95_line_ts('2026-11-07T00:30:00+01 GET /x 1') AS previous_day;
-- leap years: 2024 and 2000 have a 29 February, 2026 and 1900 do not
SELECT logp95_line_ts('2024-02-29T00:00:00 GET /x 1') AS leap_2024,
       logp95_line_ts('2000-02-29T00:00:00 GET /x 1') AS leap_2000,
       logp95_line_ts('0001-01-01T00:00:00 GET /x 1') AS first_year,
       logp95_line_ts('9999-12-31T23:59:59.999999 GET /x 1') AS last_year;
-- each bad field: NULL since 1.1 (no line makes an INSERT into a table indexed on logp95_line_ts fail; 1.0 raised 22007)
\set VERBOSITY default
SELECT logp95_line_ts('2026-02-29T00:00:00 GET /x 1');
SELECT logp95_line_ts('1900-02-29T00:00:00 GET /x 1');
SELECT logp95_line_ts('2026-04-31T00:00:00 GET /x 1');
SELECT logp95_line_ts('2026-13-01T00:00:00 GET /x 1');
SELECT logp95_line_ts('2026-00-01T00:00:00 GET /x 1');
SELECT logp95_line_ts('2026-11-00T00:00:00 GET /x 1');
SELECT logp95_line_ts('2026-11-07T24:00:00 GET /x 1');
SELECT logp95_line_ts('2026-11-07T12:60:00 GET /x 1');
SELECT logp95_line_ts('2026-11-07T12:00:60 GET /x 1');
SELECT logp95_line_ts('0000-11-07T12:00:00 GET /x 1');
SELECT logp95_line_ts('26-11-07T12:00:00 GET /x 1');
SELECT logp95_line_ts('2026/11/07T12:00:00 GET /x 1');
SELECT logp95_line_ts('2026-11-07 12:00:00 GET /x 1');
SELECT logp95_line_ts('2026-11-07T12:0:00 GET /x 1');
SELECT logp95_line_ts('2026-11-07T12:00 GET /x 1');
SELECT logp95_line_ts('2026-11-07T12:00:05. GET /x 1');
SELECT logp95_line_ts('2026-11-07T12:00:05+2 GET /x 1');
SELECT logp95_line_ts('2026-11-07T12:00:05+16:00 GET /x 1');
SELECT logp95_line_ts('2026-11-07T12:00:05ms GET /x 1');
SELECT logp95_line_ts('');
SELECT logp95_line_ts(E' \t ');
-- a long line with a bad time: NULL as well
SELECT logp95_line_ts('2026-11-07T12:00:05x GET /' || repeat('a', 300) || ' 1');
\set VERBOSITY sqlstate
SELECT logp95_line_ts('2026-11-07T25:00:00 GET /x 1');
\set VERBOSITY default
-- NULL in, NULL out (STRICT)
SELECT logp95_line_ts(NULL) IS NULL AS null_is_null;

-- a table of generated lines: 50,000 lines, ten per second from 2026-11-07T00:00:00
CREATE TABLE tw_log(line text);
INSERT INTO tw_log SELECT l FROM logp95_generate(50000, 20, 7) l;
ANALYZE tw_log;

-- the parser agrees with PostgreSQL's own timestamp input on every line
SELECT count(*) AS lines,
       count(*) FILTER (WHERE logp95_line_ts(line) = split_part(line, ' ', 1)::timestamp) AS same
FROM tw_log;

-- without an index: a sequential scan under the aggregate
-- (PostgreSQL 17 and later print InitPlans as "InitPlan 1" and their value as
-- "(InitPlan 1).col1": expected/time_window_1.out)
EXPLAIN (COSTS OFF)
SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM tw_log
	WHERE logp95_line_ts(line) >= '2026-11-07T01:00:00'
	  AND logp95_line_ts(line) < '2026-11-07T01:05:00'));

-- an expression index on the line's timestamp (IMMUTABLE allows it)
CREATE INDEX tw_log_ts ON tw_log (logp95_line_ts(line));
ANALYZE tw_log;

-- with it: the window is read through the index (no enable_seqscan change needed)
EXPLAIN (COSTS OFF)
SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM tw_log
	WHERE logp95_line_ts(line) >= '2026-11-07T01:00:00'
	  AND logp95_line_ts(line) < '2026-11-07T01:05:00'));

-- the window report equals a reference that filters with PostgreSQL's timestamp input
CREATE TABLE tw_window_report AS
SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM tw_log
	WHERE logp95_line_ts(line) >= '2026-11-07T01:00:00'
	  AND logp95_line_ts(line) < '2026-11-07T01:05:00'));
CREATE TABLE tw_reference_report AS
SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM tw_log
	WHERE split_part(line, ' ', 1)::timestamp >= '2026-11-07T01:00:00'
	  AND split_part(line, ' ', 1)::timestamp < '2026-11-07T01:05:00'));
SELECT (SELECT count(*) FROM tw_window_report) AS routes,
       (SELECT sum(requests) FROM tw_window_report) AS requests,
       (SELECT count(*) FROM (TABLE tw_window_report EXCEPT TABLE tw_reference_report) d) AS only_in_window,
       (SELECT count(*) FROM (TABLE tw_reference_report EXCEPT TABLE tw_window_report) d) AS only_in_reference;
-- 5 minutes at ten lines a second
SELECT count(*) AS lines_in_window FROM tw_log
WHERE split_part(line, ' ', 1)::timestamp >= '2026-11-07T01:00:00'
  AND split_part(line, ' ', 1)::timestamp < '2026-11-07T01:05:00';
SELECT * FROM tw_window_report ORDER BY route LIMIT 5;

-- the same window, read through the index with a bitmap scan
SET enable_indexscan = off;
EXPLAIN (COSTS OFF)
SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM tw_log
	WHERE logp95_line_ts(line) >= '2026-11-07T01:00:00'
	  AND logp95_line_ts(line) < '2026-11-07T01:05:00'));
SELECT count(*) AS differing_rows FROM (
	(SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM tw_log
		WHERE logp95_line_ts(line) >= '2026-11-07T01:00:00'
		  AND logp95_line_ts(line) < '2026-11-07T01:05:00'))
	 EXCEPT TABLE tw_reference_report)
	UNION ALL
	(TABLE tw_reference_report EXCEPT
	 SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM tw_log
		WHERE logp95_line_ts(line) >= '2026-11-07T01:00:00'
		  AND logp95_line_ts(line) < '2026-11-07T01:05:00')))) d;
RESET enable_indexscan;

-- EXPLAIN VERBOSE names where each output column of the report comes from
EXPLAIN (VERBOSE, COSTS OFF)
SELECT route, p95_ms FROM logp95_report((SELECT logp95_agg(line) FROM tw_log
	WHERE logp95_line_ts(line) >= '2026-11-07T01:00:00'
	  AND logp95_line_ts(line) < '2026-11-07T01:05:00'));

-- row estimates: a constant state gives its exact route count (planner
-- support function); a state computed by a query gives the ROWS figure, 300
CREATE FUNCTION tw_plan_rows(query text) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
	RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
END
$$;
SELECT logp95_agg(line)::text AS window_state FROM tw_log
WHERE logp95_line_ts(line) >= '2026-11-07T01:00:00'
  AND logp95_line_ts(line) < '2026-11-07T01:05:00' \gset
SELECT tw_plan_rows(format('SELECT * FROM logp95_report(%L)', :'window_state')) AS report_const,
       tw_plan_rows(format('SELECT * FROM logp95_report_rows(%L)', :'window_state')) AS report_rows_const,
       (SELECT count(*) FROM tw_window_report) AS real_routes,
       tw_plan_rows('SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM tw_log))') AS report_subquery,
       tw_plan_rows('SELECT * FROM logp95_report(''\x010000'')') AS report_empty_clamped_to_1;
-- as EXPLAIN prints it: a state from a sub-select is not a constant (ROWS 300),
-- a constant state of 2 routes gives rows=2
EXPLAIN SELECT * FROM logp95_report(
	(SELECT logp95_agg(r, l) FROM (VALUES ('/a', 1::bigint), ('/b', 2)) v(r, l))::text::logp95_state);
SELECT logp95_agg(r, l)::text AS two_routes FROM (VALUES ('/a', 1::bigint), ('/b', 2)) v(r, l) \gset
EXPLAIN SELECT * FROM logp95_report(:'two_routes');
EXPLAIN SELECT * FROM logp95_report_rows(:'two_routes');

DROP FUNCTION tw_plan_rows(text);
DROP TABLE tw_log, tw_window_report, tw_reference_report;
