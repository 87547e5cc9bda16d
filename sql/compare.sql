-- sql/compare.sql -- logp95_compare against scipy (values from test/lib/compare_reference.py)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;

-- The data: (side, route, latency_ms) from generate_series formulas, no
-- logp95 function involved.  test/lib/compare_reference.py runs the
-- statement between the two marker lines itself, computes every column
-- with scipy from the raw rows, and prints the INSERT into compare_expected
-- below (python3 test/lib/compare_reference.py --print).
-- compare data: begin
CREATE TABLE compare_raw AS
SELECT side, route, latency_ms::bigint AS latency_ms FROM (
	-- ties: 2,000 requests a side on 7 and 9 distinct latencies
	SELECT 'before' AS side, 'ties' AS route, (i % 7) * 10 AS latency_ms FROM generate_series(1, 2000) i
	UNION ALL SELECT 'after', 'ties', (i % 9) * 10 FROM generate_series(1, 2000) i
	-- small counts: 1 and 1, 2 and 3 (with a tie across), 3 and 3
	UNION ALL SELECT 'before', 'n1', 100
	UNION ALL SELECT 'after', 'n1', 120
	UNION ALL SELECT 'before', 'n2_n3', 100 FROM generate_series(1, 2)
	UNION ALL SELECT 'after', 'n2_n3', v FROM unnest(ARRAY[100, 130, 140]) v
	UNION ALL SELECT 'before', 'n3', v FROM unnest(ARRAY[5, 9, 12]) v
	UNION ALL SELECT 'after', 'n3', v FROM unnest(ARRAY[7, 9, 15]) v
	-- one latency for every request of both sides: no spread at all
	UNION ALL SELECT 'before', 'all_tied', 42 FROM generate_series(1, 500)
	UNION ALL SELECT 'after', 'all_tied', 42 FROM generate_series(1, 300)
	-- a few hundred a side, p-values in the usual range
	UNION ALL SELECT 'before', 'moderate', (i * 13) % 50 FROM generate_series(1, 300) i
	UNION ALL SELECT 'after', 'moderate', (i * 17) % 53 FROM generate_series(1, 280) i
	-- 100,000 a side, every request 5 ms slower: both p-values underflow to 0
	UNION ALL SELECT 'before', 'large', 20 + (i * 7919) % 60 FROM generate_series(1, 100000) i
	UNION ALL SELECT 'after', 'large', 25 + (i * 7919) % 60 FROM generate_series(1, 100000) i
	-- 120,000 and 100,000, 0..999 against 0..1002: small p-values that do not underflow
	UNION ALL SELECT 'before', 'large_close', (i * 7919) % 1000 FROM generate_series(1, 120000) i
	UNION ALL SELECT 'after', 'large_close', (i * 7919) % 1003 FROM generate_series(1, 100000) i
	-- the same histogram on both sides
	UNION ALL SELECT 'before', 'same', (i * 37) % 1000 FROM generate_series(1, 50000) i
	UNION ALL SELECT 'after', 'same', (i * 37) % 1000 FROM generate_series(1, 50000) i
	-- the same median, a fatter tail: 5 % of requests moved to 500 ms and
	-- 5 % to 50 ms, so the ranks balance and Mann-Whitney sees little
	UNION ALL SELECT 'before', 'tail_only', 90 + (i * 8) % 21 FROM generate_series(1, 20000) i
	UNION ALL SELECT 'after', 'tail_only',
		CASE WHEN i % 20 = 0 THEN 500 WHEN i % 20 = 10 THEN 50 ELSE 90 + (i * 8) % 21 END
		FROM generate_series(1, 20000) i
	-- one side only
	UNION ALL SELECT 'before', 'gone', 10 * i FROM generate_series(1, 20) i
	UNION ALL SELECT 'after', 'new', 10 * i FROM generate_series(1, 30) i
) d;
-- compare data: end

CREATE TABLE compare_states AS
SELECT (SELECT logp95_agg(route, latency_ms) FROM compare_raw WHERE side = 'before') AS before,
       (SELECT logp95_agg(route, latency_ms) FROM compare_raw WHERE side = 'after') AS after;
SELECT side, count(DISTINCT route) AS routes, count(*) AS requests FROM compare_raw GROUP BY side ORDER BY side;

-- What scipy says (python3 test/lib/compare_reference.py --print, scipy
-- 1.10.1): mannwhitneyu(method='asymptotic', use_continuity=True) and
-- binomtest(k, n, 0.05, alternative='greater'); the script's header gives
-- each column's definition.
CREATE TABLE compare_expected (route text, requests_before bigint, requests_after bigint,
	p95_before_ms bigint, p95_after_ms bigint, p95_change_ms bigint,
	slower_share float8, p_value float8, tail_p_value float8);
INSERT INTO compare_expected VALUES
	('all_tied', 500, 300, 42, 42, 0, 0.5, 1.0, 1.0),
	('gone', 20, 0, 200, NULL, NULL, NULL, NULL, NULL),
	('large', 100000, 100000, 77, 82, 5, 0.57986181125, 0.0, 0.0),
	('large_close', 120000, 100000, 950, 952, 2, 0.501502395, 0.2241772737951243, 0.0040309574486037504),
	('moderate', 300, 280, 47, 50, 3, 0.5325714285714286, 0.1748805764786069, 0.000952418044858187),
	('n1', 1, 1, 100, 120, 20, 1.0, 1.0, 0.05),
	('n2_n3', 2, 3, 100, 140, 40, 0.8333333333333334, 0.3329216080655659, 0.007250000000000001),
	('n3', 3, 3, 12, 15, 3, 0.6111111111111112, 0.8247780950825133, 0.14262500000000003),
	('new', 0, 30, NULL, 290, NULL, NULL, NULL, NULL),
	('same', 50000, 50000, 950, 950, 0, 0.5, 1.0, 0.8500113292902518),
	('tail_only', 20000, 20000, 109, 500, 391, 0.50001142875, 0.996838415971098, 6.085981919711943e-138),
	('ties', 2000, 2000, 60, 80, 20, 0.6107855, 2.3005950057586966e-34, 9.027016304951774e-155);

-- a p-value agrees when both are NULL, both underflow (below 1e-300), or
-- they are within a relative 1e-9
CREATE FUNCTION compare_close(got float8, want float8) RETURNS bool LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN got IS NULL OR want IS NULL THEN got IS NULL AND want IS NULL
	            ELSE (got < 1e-300 AND want < 1e-300) OR abs(got - want) <= 1e-9 * abs(want) END
$$;

-- every route of both sides, in byte order; integers and slower_share (a
-- ratio of integers below 2^53) exactly, p-values within the tolerance
SELECT coalesce(c.route, e.route) AS route,
       c.route IS NOT NULL AND e.route IS NOT NULL AS both_listed,
       c.requests_before = e.requests_before AND c.requests_after = e.requests_after AS requests,
       c.p95_before_ms IS NOT DISTINCT FROM e.p95_before_ms
         AND c.p95_after_ms IS NOT DISTINCT FROM e.p95_after_ms
         AND c.p95_change_ms IS NOT DISTINCT FROM e.p95_change_ms AS p95,
       c.slower_share IS NOT DISTINCT FROM e.slower_share AS share,
       compare_close(c.p_value, e.p_value) AS p_value,
       compare_close(c.tail_p_value, e.tail_p_value) AS tail_p_value
FROM (SELECT row_number() OVER () AS pos, * FROM logp95_compare(
        (SELECT before FROM compare_states), (SELECT after FROM compare_states))) c
FULL JOIN compare_expected e ON e.route = c.route
ORDER BY c.pos, e.route COLLATE "C";

-- the rows themselves, p-values as verdicts: tail_only has the same
-- median and a fatter tail, which Mann-Whitney misses and the tail test
-- catches; the routes on one side only have NULLs where a side is missing
SELECT route, requests_before, requests_after, p95_before_ms, p95_after_ms, p95_change_ms,
       slower_share, p_value < 0.05 AS shifted, tail_p_value < 0.05 AS tail_worse
FROM logp95_compare((SELECT before FROM compare_states), (SELECT after FROM compare_states));

-- "which routes got slower": underflowed p-values are 0, so they sort first
SELECT route, p_value = 0 AS underflowed
FROM logp95_compare((SELECT before FROM compare_states), (SELECT after FROM compare_states))
WHERE p_value < 0.05
ORDER BY p_value, route;

-- the arguments' order: swapping them swaps the sides and mirrors the share
SELECT bool_and(a.requests_before = b.requests_after AND a.requests_after = b.requests_before
                AND a.p95_change_ms = -b.p95_change_ms AND abs(a.slower_share + b.slower_share - 1) < 1e-15
                AND compare_close(a.p_value, b.p_value)) AS mirrored,
       count(*) AS routes
FROM logp95_compare((SELECT before FROM compare_states), (SELECT after FROM compare_states)) a
JOIN logp95_compare((SELECT after FROM compare_states), (SELECT before FROM compare_states)) b
  USING (route)
WHERE a.p_value IS NOT NULL;

-- a state against itself: no change, share 1/2, p-value 1
SELECT bool_and(p95_change_ms = 0 AND slower_share = 0.5 AND p_value = 1) AS unchanged, count(*) AS routes
FROM logp95_compare((SELECT before FROM compare_states), (SELECT before FROM compare_states));

-- empty states: no rows, or one-sided rows only
SELECT count(*) AS rows FROM logp95_compare('\x010000', '\x010000');
SELECT count(*) AS rows, bool_and(requests_after = 0 AND p95_after_ms IS NULL AND p95_change_ms IS NULL
                                  AND slower_share IS NULL AND p_value IS NULL AND tail_p_value IS NULL) AS before_only
FROM logp95_compare((SELECT before FROM compare_states), '\x010000');
SELECT count(*) AS rows, bool_and(requests_before = 0 AND p95_before_ms IS NULL AND p95_after_ms IS NOT NULL) AS after_only
FROM logp95_compare('\x010000', (SELECT after FROM compare_states));
-- STRICT: a NULL side gives no rows
SELECT count(*) AS rows FROM logp95_compare(NULL, (SELECT after FROM compare_states));

-- counts no sample could hold (hand-made states): 2^62 requests at 10 ms
-- before; 2^62 at 10 ms and 2^61 at 11 ms after.  U = 2^123 + 2^123 of
-- 2^62 * 3 * 2^61 pairs: 2/3; both p-values underflow.
SELECT route, requests_before, requests_after, p95_before_ms, p95_after_ms, p95_change_ms,
       slower_share = 2::float8 / 3 AS two_thirds, p_value, tail_p_value
FROM logp95_compare('\x0100010172010a0a808080808080808040',
                    '\x010001017202140a80808080808080804001808080808080808020');

-- The recipe of docs/sre.md and the example of docs/reference.md, "which
-- routes got slower after the 14:05 deploy", on a generated log moved to
-- 13:00-15:10 UTC, in which after 14:05 every request of
-- /api/v1/resource13 takes a fifth longer and 1 request in 25 of
-- /static/app11.js a second longer (the same median, a fatter tail).
-- A schema of its own: other tests leave a table access_log behind.
CREATE SCHEMA compare_recipe;
SET search_path = compare_recipe, public;
CREATE TABLE access_log(line text);
INSERT INTO access_log
SELECT concat_ws(' ', to_char(ts, 'YYYY-MM-DD"T"HH24:MI:SS'), method, route,
       CASE WHEN ts < '2026-11-07 14:05' THEN ms
            WHEN route = '/api/v1/resource13' THEN ms * 6 / 5
            WHEN route = '/static/app11.js' AND k % 25 = 0 THEN ms + 1000
            ELSE ms END)
FROM (SELECT split_part(line, ' ', 1)::timestamp + interval '13 hours' AS ts,
             split_part(line, ' ', 2) AS method, split_part(line, ' ', 3) AS route,
             split_part(line, ' ', 4)::bigint AS ms,
             row_number() OVER (PARTITION BY split_part(line, ' ', 3) ORDER BY n) AS k
      FROM logp95_generate(78000, 20, 7) WITH ORDINALITY AS g(line, n)) g;
SELECT count(*) AS lines, min(logp95_line_time(line)) AT TIME ZONE 'UTC' AS first_utc,
       max(logp95_line_time(line)) AT TIME ZONE 'UTC' AS last_utc
FROM access_log;

-- the recipe, as docs/sre.md gives it
SELECT route, requests_before AS before, requests_after AS after,
       p95_before_ms, p95_after_ms, round(slower_share::numeric, 3) AS slower_share,
       to_char(p_value, '9.9EEEE') AS p_value, to_char(tail_p_value, '9.9EEEE') AS tail_p_value
FROM logp95_compare(
       (SELECT logp95_agg(line) FROM access_log
         WHERE logp95_line_time(line) >= timestamptz '2026-11-07 13:05 UTC'
           AND logp95_line_time(line) <  timestamptz '2026-11-07 14:05 UTC'),
       (SELECT logp95_agg(line) FROM access_log
         WHERE logp95_line_time(line) >= timestamptz '2026-11-07 14:05 UTC'
           AND logp95_line_time(line) <  timestamptz '2026-11-07 15:05 UTC'))
WHERE p_value < 0.001 OR tail_p_value < 0.001
ORDER BY least(p_value, tail_p_value), route;
DROP TABLE access_log;
RESET search_path;
DROP SCHEMA compare_recipe;

SELECT obj_description('logp95_compare(logp95_state, logp95_state)'::regprocedure, 'pg_proc') IS NOT NULL AS commented;

DROP FUNCTION compare_close(float8, float8);
DROP TABLE compare_raw, compare_states, compare_expected;
