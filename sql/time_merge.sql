-- logp95_line_time (timestamptz) and logp95_merge(a, b) / operator + (1.2)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;

-- true when the plan of query q reads an index
CREATE FUNCTION plan_uses_index(q text) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
	FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF l ~ 'Index' THEN RETURN true; END IF;
	END LOOP;
	RETURN false;
END $$;

-- ---- logp95_line_time: the same instant in every TimeZone ----
-- reference: PostgreSQL's own parsers of the time field
CREATE TABLE tl(line text, fmt text, ref timestamptz);
INSERT INTO tl VALUES
	('2026-11-07T01:00:00Z GET /a 5', 'default', '2026-11-07 01:00:00+00'),
	('2026-11-07T01:00:00.25+05:30 GET /a 5', 'default', '2026-11-06 19:30:00.25+00'),
	('2026-11-07 GET /a 5', 'default', NULL),
	('1.2.3.4 - - [07/Nov/2026:01:00:00 +0100] "GET /a HTTP/1.1" 200 1 "-" "x" 0.005', 'combined',
	 to_timestamp('07/Nov/2026:01:00:00 +0100', 'DD/Mon/YYYY:HH24:MI:SS TZHTZM')),
	('1.2.3.4 - - [07/Nov/2026:23:59:59 -0800] "GET /a HTTP/1.1" 200 1 "-" "x" 5', 'combined_us',
	 to_timestamp('07/Nov/2026:23:59:59 -0800', 'DD/Mon/YYYY:HH24:MI:SS TZHTZM')),
	('1.2.3.4 - - [07/Nov/2026:23:59:59] "GET /a HTTP/1.1" 200 1 "-" "x" 5', 'combined', NULL);
SET TimeZone = 'UTC';
SELECT fmt, logp95_line_time(line, fmt) AS t, logp95_line_time(line, fmt) IS NOT DISTINCT FROM ref AS same,
	logp95_line_ts(line, fmt) AS ts FROM tl ORDER BY ref NULLS LAST, fmt;
SET TimeZone = 'Europe/Berlin';
SELECT count(*) FILTER (WHERE logp95_line_time(line, fmt) IS NOT DISTINCT FROM ref) AS same,
	count(*) FILTER (WHERE logp95_line_time(line, fmt) IS NOT DISTINCT FROM logp95_line_ts(line, fmt) AT TIME ZONE 'UTC') AS as_ts
FROM tl;
-- the one-argument form is the default format
SELECT logp95_line_time(line) = logp95_line_time(line, 'default') FROM tl WHERE fmt = 'default' AND ref IS NOT NULL;
-- an unknown format is an error, as for logp95_line_ts
SELECT logp95_line_time('x', 'nope');

-- ---- an expression index serves now() - interval windows in every TimeZone ----
-- one line a minute for the last two hours (whole seconds, so the line
-- 60 minutes back falls at or before the bound: 60 lines in the last hour)
CREATE TABLE recent(line text);
INSERT INTO recent
	SELECT to_char((now() AT TIME ZONE 'UTC') - i * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || ' GET /r ' || i
	FROM generate_series(0, 119) i;
INSERT INTO recent SELECT 'no time here' FROM generate_series(1, 10);
INSERT INTO recent SELECT '2001-01-01T00:00:00Z GET /old 1' FROM generate_series(1, 2000);
CREATE INDEX recent_time ON recent (logp95_line_time(line));
ANALYZE recent;
SET enable_seqscan = off;
SELECT plan_uses_index($$SELECT count(*) FROM recent WHERE logp95_line_time(line) > now() - interval '1 hour'$$);
SET TimeZone = 'UTC';
SELECT count(*) FROM recent WHERE logp95_line_time(line) > now() - interval '1 hour';
SET TimeZone = 'Europe/Berlin';
SELECT count(*) FROM recent WHERE logp95_line_time(line) > now() - interval '1 hour';
SET TimeZone = 'America/New_York';
SELECT count(*) FROM recent WHERE logp95_line_time(line) > now() - interval '1 hour';
SET TimeZone = 'Asia/Kolkata';
SELECT count(*) FROM recent WHERE logp95_line_time(line) > now() - interval '1 hour';
-- the same through a sequential scan
RESET enable_seqscan;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SELECT count(*) FROM recent WHERE logp95_line_time(line) > now() - interval '1 hour';
RESET enable_indexscan;
RESET enable_bitmapscan;
-- logp95_line_ts (a UTC timestamp) read as local time is off by the offset
SET TimeZone = 'Asia/Kolkata';
SELECT count(*) FROM recent WHERE logp95_line_ts(line) > now() - interval '1 hour';
RESET TimeZone;

-- ---- logp95_merge(a, b) and + ----
CREATE TABLE lines AS
	SELECT g AS i, g % 3 AS part, l AS line
	FROM logp95_generate(3000, 20, 5) WITH ORDINALITY AS x(l, g);
CREATE TABLE parts AS SELECT part, logp95_agg(line) AS state FROM lines GROUP BY part;
-- the union of the parts equals the aggregate over all lines
SELECT (SELECT state FROM parts WHERE part = 0) + (SELECT state FROM parts WHERE part = 1)
	+ (SELECT state FROM parts WHERE part = 2) = (SELECT logp95_agg(line) FROM lines) AS sum_is_whole;
SELECT logp95_merge((SELECT state FROM parts WHERE part = 0), (SELECT state FROM parts WHERE part = 1))
	= (SELECT logp95_merge(state) FROM parts WHERE part IN (0, 1)) AS pair_is_aggregate;
-- commutative, and the empty state is neutral
SELECT a.state + b.state = b.state + a.state AS commutes FROM parts a, parts b WHERE a.part = 0 AND b.part = 2;
SELECT state + '\x010000'::logp95_state = state AS empty_neutral FROM parts WHERE part = 1;
-- a NULL side gives the other side; two NULLs give NULL
SELECT NULL::logp95_state + state = state AS left_null, state + NULL = state AS right_null,
	logp95_merge(NULL, NULL) IS NULL AS both_null FROM parts WHERE part = 0;
-- a state merged with itself doubles every count
SELECT r1.route, r1.requests * 2 = r2.requests AS doubled, r1.p95_ms = r2.p95_ms AS same_p95
FROM parts p, logp95_report(p.state) r1, logp95_report(p.state + p.state) r2
WHERE p.part = 0 AND r1.route = r2.route ORDER BY r1.route LIMIT 3;

-- ---- logp95_subtract(a, b) and - ----
-- (a + b) - b = a; s - s is empty; the report of a difference is the
-- report of the lines left
SELECT (a.state + b.state) - b.state = a.state AS round_trip
FROM parts a, parts b WHERE a.part = 0 AND b.part = 1;
SELECT state - state = '\x010000'::logp95_state AS empty FROM parts WHERE part = 2;
SELECT (SELECT logp95_agg(line) FROM lines) - (SELECT state FROM parts WHERE part = 1)
	= (SELECT logp95_agg(line) FROM lines WHERE part <> 1) AS difference_is_rest;
-- what does not fit is an error naming the route, or the malformed count
SELECT a.state - b.state FROM parts a, parts b WHERE a.part = 0 AND b.part = 1;
SELECT logp95_agg(l) - (SELECT logp95_agg(x) FROM (VALUES ('2026-11-07T00:00:00Z GET /a 5'), ('2026-11-07T00:00:00Z GET /a 6')) v(x))
FROM (VALUES ('2026-11-07T00:00:00Z GET /a 5'), ('2026-11-07T00:00:00Z GET /a 5')) v(l);
SET logp95.on_malformed = skip;
SELECT logp95_malformed(logp95_agg(l) - logp95_agg(l)) FROM (VALUES ('x'), ('2026-11-07T00:00:00Z GET /a 5')) v(l);
SELECT logp95_agg(l) - (SELECT logp95_agg(x) FROM (VALUES ('x')) v(x))
FROM (VALUES ('2026-11-07T00:00:00Z GET /a 5')) v(l);
RESET logp95.on_malformed;

-- ---- sliding windows: one state added and one subtracted a row ----
-- a reference aggregate without the inverse re-merges the whole frame
CREATE AGGREGATE remerge(logp95_state) (SFUNC = logp95_merge_combine, STYPE = logp95_state, INITCOND = '\x010000');
CREATE TABLE minutes AS
	SELECT (i - 1) / 25 AS minute, logp95_agg(line) AS state
	FROM lines GROUP BY 1;
-- gaps for the RANGE frame, and a NULL state
DELETE FROM minutes WHERE minute IN (7, 8, 50);
INSERT INTO minutes VALUES (200, NULL);
-- logp95_merge has a moving-aggregate implementation with an inverse
SELECT aggmtransfn, aggminvtransfn, aggmtranstype::regtype, aggminitval
FROM pg_aggregate WHERE aggfnoid = 'logp95_merge(logp95_state)'::regprocedure;
SELECT count(*) AS rows, count(*) FILTER (WHERE moving = remerged) AS same
FROM (SELECT logp95_merge(state) OVER w AS moving, remerge(state) OVER w AS remerged
	  FROM minutes WINDOW w AS (ORDER BY minute ROWS BETWEEN 9 PRECEDING AND CURRENT ROW)) x;
SELECT count(*) AS rows, count(*) FILTER (WHERE moving = remerged) AS same
FROM (SELECT logp95_merge(state) OVER w AS moving, remerge(state) OVER w AS remerged
	  FROM minutes WINDOW w AS (ORDER BY minute RANGE BETWEEN 9 PRECEDING AND CURRENT ROW)) x;
-- against the raw lines of each frame (an independent reference)
SELECT count(*) AS rows, count(*) FILTER (WHERE w.moving = r.state) AS same
FROM (SELECT minute, logp95_merge(state) OVER (ORDER BY minute RANGE BETWEEN 9 PRECEDING AND CURRENT ROW) AS moving
	  FROM minutes) w
JOIN LATERAL (SELECT logp95_agg(line) AS state FROM lines
			  WHERE (i - 1) / 25 BETWEEN w.minute - 9 AND w.minute
				AND (i - 1) / 25 IN (SELECT minute FROM minutes WHERE state IS NOT NULL)) r ON true;
DROP AGGREGATE remerge(logp95_state);
DROP TABLE minutes;

-- the upsert a rollup uses: each batch added to its bucket
CREATE TABLE rollup(bucket int PRIMARY KEY, state logp95_state NOT NULL);
INSERT INTO rollup SELECT i % 4, logp95_agg(line) FROM lines WHERE i <= 1000 GROUP BY 1;
INSERT INTO rollup SELECT i % 4, logp95_agg(line) FROM lines WHERE i > 1000 GROUP BY 1
	ON CONFLICT (bucket) DO UPDATE SET state = rollup.state + excluded.state;
SELECT r.bucket, r.state = d.state AS exact
FROM rollup r JOIN (SELECT i % 4 AS bucket, logp95_agg(line) AS state FROM lines GROUP BY 1) d USING (bucket)
ORDER BY 1;

DROP TABLE tl, recent, lines, parts, rollup;
DROP FUNCTION plan_uses_index(text);
