-- sql/rollup.sql -- hourly rollups: idempotent refresh, a day from 24 rows, logp95_merge internals
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;

-- One day of generated log: 10 lines a second from 2026-11-07T00:00:00, 300 routes.
CREATE TABLE rollup_log(line text);
INSERT INTO rollup_log SELECT l FROM logp95_generate(864000, 300, 5) l;
ANALYZE rollup_log;

-- The rollup table: one exact state per hour.
CREATE TABLE access_rollup(hour timestamp PRIMARY KEY, state logp95_state NOT NULL);

-- The refresh: recompute every hour in [from_ts, to_ts) from the raw lines and
-- replace its row.  Replacing (not merging) is what makes a re-run harmless.
CREATE FUNCTION refresh_rollup(from_ts timestamp, to_ts timestamp) RETURNS void
LANGUAGE sql AS $$
	INSERT INTO access_rollup(hour, state)
	SELECT date_trunc('hour', split_part(line, ' ', 1)::timestamp), logp95_agg(line)
	FROM rollup_log
	WHERE split_part(line, ' ', 1)::timestamp >= from_ts
	  AND split_part(line, ' ', 1)::timestamp < to_ts
	GROUP BY 1
	ON CONFLICT (hour) DO UPDATE SET state = EXCLUDED.state
$$;

SELECT refresh_rollup('2026-11-07', '2026-11-08');
SELECT count(*) AS hours, min(hour), max(hour) FROM access_rollup;

-- size of one rollup row (300 routes, 36,000 lines): stored and encoded
SELECT count(*) AS rows,
       bool_and(length(logp95_state_send(state)) BETWEEN 20000 AND 100000) AS encoded_20k_to_100k,
       bool_and(pg_column_size(state) BETWEEN 10000 AND 100000) AS stored_10k_to_100k,
       bool_and(pg_column_size(state) <= length(logp95_state_send(state)) + 4) AS stored_not_larger
FROM access_rollup;
SELECT count(*) AS routes, sum(requests) AS requests
FROM logp95_report((SELECT state FROM access_rollup WHERE hour = '2026-11-07 13:00'));

-- re-running an hour (here three) changes nothing
CREATE TABLE rollup_before AS SELECT hour, state::text AS state FROM access_rollup;
SELECT refresh_rollup('2026-11-07 12:00', '2026-11-07 15:00');
SELECT count(*) AS rows,
       count(*) FILTER (WHERE b.state IS NOT DISTINCT FROM a.state::text) AS unchanged
FROM access_rollup a FULL JOIN rollup_before b USING (hour);

-- the day from 24 rows equals the day from 864,000 raw lines, route for route
CREATE TABLE day_from_rollup AS
  SELECT * FROM logp95_report((SELECT logp95_merge(state) FROM access_rollup
                               WHERE hour >= '2026-11-07' AND hour < '2026-11-08'));
CREATE TABLE raw_day AS SELECT logp95_agg(line) AS state FROM rollup_log;
CREATE TABLE day_from_raw AS SELECT * FROM logp95_report((SELECT state FROM raw_day));
SELECT (SELECT count(*) FROM day_from_rollup) AS rollup_routes,
       (SELECT count(*) FROM day_from_raw) AS raw_routes,
       (SELECT sum(requests) FROM day_from_rollup) AS rollup_requests,
       (SELECT count(*) FROM (TABLE day_from_rollup EXCEPT TABLE day_from_raw) x) AS only_in_rollup,
       (SELECT count(*) FROM (TABLE day_from_raw EXCEPT TABLE day_from_rollup) x) AS only_in_raw;
SELECT * FROM day_from_rollup ORDER BY route LIMIT 3;

-- the output function prints the flat, canonical form of the merged
-- (expanded) value: the same text as the aggregate over the raw lines
SELECT (SELECT logp95_merge(state) FROM access_rollup)::text
     = (SELECT state FROM raw_day)::text AS merged_text_equals_raw_text;
SELECT logp95_merge(s) AS merged, logp95_merge(s)::text = (SELECT logp95_agg(l) FROM (VALUES
         ('2026-11-07T00:00:00 GET /a 5'), ('2026-11-07T00:00:01 GET /a 7'),
         ('2026-11-07T00:00:02 GET /b 5')) v(l))::text AS equals_agg_of_lines
FROM (SELECT logp95_agg(l) FROM (VALUES ('2026-11-07T00:00:00 GET /a 5')) v(l)
      UNION ALL SELECT logp95_agg(l) FROM (VALUES ('2026-11-07T00:00:01 GET /a 7'),
                                               ('2026-11-07T00:00:02 GET /b 5')) v(l)) p(s);
-- merged values stored in a table read back the same
CREATE TABLE merged_day AS SELECT logp95_merge(state) AS state FROM access_rollup;
SELECT state::text = (SELECT state FROM raw_day)::text AS stored_equals_raw
FROM merged_day;

-- logp95_merge: no rows and only NULLs give the empty state; NULLs are skipped
SELECT logp95_merge(state) AS no_rows FROM access_rollup WHERE false;
SELECT logp95_merge(NULL::logp95_state) AS only_null;
SELECT (SELECT logp95_merge(s) FROM (SELECT state FROM access_rollup UNION ALL SELECT NULL) x(s))::text
     = (SELECT state FROM merged_day)::text AS nulls_skipped;
-- its transition function used directly is a plain union of two states
SELECT logp95_merge_combine(a.state, b.state)::text
     = (SELECT logp95_merge(state) FROM access_rollup WHERE hour IN ('2026-11-07 01:00', '2026-11-07 02:00'))::text
       AS combine_equals_merge,
       a.state::text = (SELECT state::text FROM rollup_before WHERE hour = '2026-11-07 01:00') AS argument_unchanged
FROM access_rollup a, access_rollup b
WHERE a.hour = '2026-11-07 01:00' AND b.hour = '2026-11-07 02:00';

-- late lines: re-running their hour takes them in, and the day still matches
INSERT INTO rollup_log VALUES ('2026-11-07T05:59:59 GET /late 123456'), ('2026-11-07T05:00:00 GET /late 7');
SELECT refresh_rollup('2026-11-07 05:00', '2026-11-07 06:00');
SELECT * FROM logp95_report((SELECT state FROM access_rollup WHERE hour = '2026-11-07 05:00')) WHERE route = '/late';
SELECT (SELECT logp95_merge(state) FROM access_rollup)::text
     = (SELECT logp95_agg(line) FROM rollup_log)::text AS day_still_equals_raw;

-- rollups of rollups: per-minute states of the first four hours merged per
-- hour (sorted and hashed grouping) equal the hourly rows; a running total
CREATE TABLE minute_rollup AS
  SELECT date_trunc('minute', split_part(line, ' ', 1)::timestamp) AS minute, logp95_agg(line) AS state
  FROM rollup_log WHERE line < '2026-11-07T04' GROUP BY 1;
CREATE STATISTICS minute_rollup_hour ON (date_trunc('hour', minute)) FROM minute_rollup;
ANALYZE minute_rollup;
SET enable_sort = off;
SELECT count(*) AS hours, count(*) FILTER (WHERE m.state::text = a.state::text) AS equal
FROM (SELECT date_trunc('hour', minute) AS hour, logp95_merge(state) AS state FROM minute_rollup GROUP BY 1) m
JOIN access_rollup a USING (hour);
RESET enable_sort;
SET enable_hashagg = off;
SELECT count(*) AS hours, count(*) FILTER (WHERE m.state::text = a.state::text) AS equal
FROM (SELECT date_trunc('hour', minute) AS hour, logp95_merge(state) AS state FROM minute_rollup GROUP BY 1) m
JOIN access_rollup a USING (hour);
RESET enable_hashagg;
SELECT hour, r.route, r.requests
FROM (SELECT hour, logp95_merge(state) OVER (ORDER BY hour) AS running FROM access_rollup) w,
     LATERAL logp95_report(w.running) r
WHERE r.route IN ('/late', '/api/v1/resource0/items')
  AND hour IN ('2026-11-07 00:00', '2026-11-07 04:00', '2026-11-07 05:00', '2026-11-07 23:00')
ORDER BY hour, r.route;

-- a forced parallel plan over the table of states gives the serial result
SET max_parallel_workers_per_gather = 0;
CREATE TABLE serial_merge AS SELECT logp95_merge(state) AS state FROM minute_rollup;
CREATE TABLE serial_by_hour AS
  SELECT date_trunc('hour', minute) AS hour, logp95_merge(state) AS state FROM minute_rollup GROUP BY 1;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT logp95_merge(state) FROM minute_rollup;
SELECT (SELECT logp95_merge(state) FROM minute_rollup)::text
     = (SELECT state FROM serial_merge)::text AS parallel_equals_serial;
SET parallel_leader_participation = off;
SELECT (SELECT logp95_merge(state) FROM minute_rollup)::text
     = (SELECT state FROM serial_merge)::text AS workers_only_equal_serial;
RESET parallel_leader_participation;
EXPLAIN (COSTS OFF)
  SELECT date_trunc('hour', minute), logp95_merge(state) FROM minute_rollup GROUP BY 1;
SELECT count(*) AS hours, count(*) FILTER (WHERE p.state::text = s.state::text) AS equal
FROM (SELECT date_trunc('hour', minute) AS hour, logp95_merge(state) AS state FROM minute_rollup GROUP BY 1) p
JOIN serial_by_hour s USING (hour);
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;

-- the aggregate's definition: a real transition type with a combine function
SELECT aggtranstype::regtype, aggcombinefn, aggserialfn, aggdeserialfn, aggfinalfn, agginitval
FROM pg_aggregate WHERE aggfnoid = 'logp95_merge(logp95_state)'::regprocedure;
