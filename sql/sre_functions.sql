-- sql/sre_functions.sql -- logp95_percentiles, logp95_within, logp95_stats, logp95_total, logp95_histogram against references computed outside the extension
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;

-- the SQLSTATE a statement raises, or 'ok'
CREATE FUNCTION sre_sqlstate(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE q;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE;
END $$;

-- A generated log with a long tail (20,000 lines, 40 routes) and a parsed copy:
-- the reference reads only the parsed copy, never a logp95 function.
CREATE TABLE sre_log(line text);
INSERT INTO sre_log SELECT logp95_generate(20000, 40, 15);
CREATE TABLE sre_parsed AS
	SELECT split_part(line, ' ', 3) AS route, split_part(line, ' ', 4)::bigint AS ms FROM sre_log;
CREATE TABLE sre_state AS SELECT logp95_agg(line) AS s FROM sre_log;
-- every latency's 0-based rank within its route, and the route's count
CREATE TABLE sre_ranked AS
	SELECT route, ms, row_number() OVER (PARTITION BY route ORDER BY ms) - 1 AS rk,
	       count(*) OVER (PARTITION BY route) AS n
	FROM sre_parsed;
SELECT count(DISTINCT route) AS routes, count(*) AS requests, max(ms) AS max_ms,
       percentile_disc(0.5) WITHIN GROUP (ORDER BY ms) AS median_ms FROM sre_parsed;

-- ---------- logp95_percentiles ----------
-- fractions in any order, repeated, with 0 and 1; the rule: rank min(floor(n*f), n-1)
CREATE TABLE sre_fr AS
	SELECT f, i FROM unnest('{0.999, 0.5, 0, 0.95, 1, 0.5, 0.25, 0.99}'::float8[]) WITH ORDINALITY AS u(f, i);
CREATE TABLE sre_pct_ref AS
	SELECT r.route, r.n AS requests, fr.i, min(r.ms) AS ms
	FROM sre_ranked r CROSS JOIN sre_fr fr
	WHERE r.rk = least(floor(r.n * fr.f)::bigint, r.n - 1)
	GROUP BY r.route, r.n, fr.i;
CREATE TABLE sre_pct AS
	SELECT p.route, p.requests, e.i, e.ms
	FROM logp95_percentiles((SELECT s FROM sre_state), '{0.999, 0.5, 0, 0.95, 1, 0.5, 0.25, 0.99}') p,
	     unnest(p.latencies_ms) WITH ORDINALITY AS e(ms, i);
SELECT (SELECT count(*) FROM sre_pct) AS got_values, (SELECT count(*) FROM sre_pct_ref) AS ref_values,
       (SELECT count(*) FROM (SELECT * FROM sre_pct EXCEPT SELECT * FROM sre_pct_ref) d) AS not_in_ref,
       (SELECT count(*) FROM (SELECT * FROM sre_pct_ref EXCEPT SELECT * FROM sre_pct) d) AS missing;
-- the same values as logp95_percentile one fraction at a time, and as the report
SELECT count(*) AS disagreeing_with_percentile
FROM sre_pct p JOIN sre_fr fr USING (i)
WHERE p.ms IS DISTINCT FROM logp95_percentile((SELECT s FROM sre_state), p.route, fr.f);
SELECT count(*) AS disagreeing_with_report
FROM logp95_percentiles((SELECT s FROM sre_state), '{0.5, 0.95, 0.99, 1}') p
JOIN logp95_report((SELECT s FROM sre_state)) r USING (route)
WHERE p.latencies_ms <> ARRAY[r.p50_ms, r.p95_ms, r.p99_ms, r.max_ms] OR p.requests <> r.requests;
-- byte order of routes, as the report
SELECT array_agg(route ORDER BY route COLLATE "C") = array_agg(route) AS byte_order
FROM logp95_percentiles((SELECT s FROM sre_state), '{0.5}');
-- an empty fractions array: an empty array per route
SELECT count(*) AS routes, bool_and(latencies_ms = '{}') AS all_empty
FROM logp95_percentiles((SELECT s FROM sre_state), '{}');
-- the rank edge where n*f is whole: n = 20, f = 0.95 -> index 19; n = 100, f = 0.5 -> index 50
-- (percentile_disc takes ceil(n*f)-1: 19 and 50, one lower)
SELECT p.latencies_ms AS logp95,
       (SELECT ARRAY[percentile_disc(0.95) WITHIN GROUP (ORDER BY v), percentile_disc(0.5) WITHIN GROUP (ORDER BY v)]
        FROM generate_series(1, 20) v) AS percentile_disc
FROM logp95_percentiles((SELECT logp95_agg('/twenty', v) FROM generate_series(1, 20) v), '{0.95, 0.5}') p;
SELECT p.latencies_ms AS logp95
FROM logp95_percentiles((SELECT logp95_agg('/hundred', v) FROM generate_series(1, 100) v), '{0.5, 0.95, 0.99, 0.01}') p;
-- errors: 22003 for a NULL or out-of-range fraction, as logp95_percentile
SELECT sre_sqlstate($$SELECT * FROM logp95_percentiles((SELECT s FROM sre_state), '{0.5, NULL}')$$) AS null_fraction,
       sre_sqlstate($$SELECT * FROM logp95_percentiles((SELECT s FROM sre_state), '{1.5}')$$) AS above_one,
       sre_sqlstate($$SELECT * FROM logp95_percentiles((SELECT s FROM sre_state), '{-0.01}')$$) AS negative,
       sre_sqlstate($$SELECT * FROM logp95_percentiles((SELECT s FROM sre_state), '{NaN}')$$) AS nan;
SELECT * FROM logp95_percentiles((SELECT s FROM sre_state), '{0.5, NULL}');
SELECT * FROM logp95_percentiles((SELECT s FROM sre_state), '{0.5, 2}');

-- ---------- logp95_within ----------
CREATE TABLE sre_thr AS SELECT unnest('{-1, 0, 10, 50, 100, 300, 1000, 9223372036854775807}'::bigint[]) AS t;
SELECT count(*) AS rows_compared,
       count(*) FILTER (WHERE w.requests <> r.n OR w.within <> r.within OR w.share <> r.within::float8 / r.n) AS wrong
FROM sre_thr,
     LATERAL (SELECT route, count(*) AS n, count(*) FILTER (WHERE ms <= t) AS within FROM sre_parsed GROUP BY route) r
     JOIN LATERAL logp95_within((SELECT s FROM sre_state), t) w USING (route);
-- the SLO question: which routes do not serve 99 % within 300 ms?
SELECT route, requests, within, round(share::numeric, 4) AS share
FROM logp95_within((SELECT s FROM sre_state), 300) WHERE share < 0.99 ORDER BY share LIMIT 5;

-- ---------- logp95_stats ----------
SELECT count(*) AS routes,
       count(*) FILTER (WHERE s.requests <> r.n OR s.min_ms <> r.mn OR s.max_ms <> r.mx OR s.mean_ms <> r.mean) AS wrong
FROM logp95_stats((SELECT s FROM sre_state)) s
JOIN (SELECT route, count(*) AS n, min(ms) AS mn, max(ms) AS mx, avg(ms::numeric)::float8 AS mean
      FROM sre_parsed GROUP BY route) r USING (route);
SELECT * FROM logp95_stats((SELECT s FROM sre_state)) ORDER BY route LIMIT 3;

-- ---------- logp95_total ----------
-- the whole service is route "*": the same bytes as aggregating every latency under "*"
SELECT logp95_total(s)::text = (SELECT logp95_agg('*', ms) FROM sre_parsed)::text AS same_bytes
FROM sre_state;
SELECT * FROM logp95_report((SELECT logp95_total(s) FROM sre_state));
SELECT route, n AS requests,
       min(ms) FILTER (WHERE rk = least(n * 50 / 100, n - 1)) AS p50_ms,
       min(ms) FILTER (WHERE rk = least(n * 95 / 100, n - 1)) AS p95_ms,
       min(ms) FILTER (WHERE rk = least(n * 99 / 100, n - 1)) AS p99_ms, max(ms) AS max_ms
FROM (SELECT '*' AS route, ms, row_number() OVER (ORDER BY ms) - 1 AS rk, count(*) OVER () AS n FROM sre_parsed) t
GROUP BY route, n;
SELECT * FROM logp95_stats((SELECT logp95_total(s) FROM sre_state));
SELECT avg(ms::numeric)::float8 AS ref_mean FROM sre_parsed;
-- the malformed count carries over; the empty state stays empty (no "*" route)
SET logp95.on_malformed = skip;
SELECT logp95_malformed(logp95_total(logp95_agg(l))) AS malformed,
       (SELECT requests FROM logp95_report(logp95_total(logp95_agg(l)))) AS requests
FROM unnest('{"2026-11-07T00:00:00 GET /a 5", "broken", "2026-11-07T00:00:00 GET /b 7"}'::text[]) l;
RESET logp95.on_malformed;
SELECT logp95_total('\x010000')::text AS empty_total;
-- a total past bigint: three routes of 2^62 requests each -> 22003
WITH RECURSIVE d(k, s) AS (
	SELECT 0, logp95_agg(r, 1) FROM unnest('{/a,/b,/c}'::text[]) r
	UNION ALL SELECT k + 1, logp95_merge_combine(s, s) FROM d WHERE k < 62)
SELECT (SELECT array_agg(requests) FROM logp95_report(s)) AS per_route,
       sre_sqlstate(format('SELECT logp95_total(%L::logp95_state)', s::text)) AS total_sqlstate
FROM d WHERE k = 62;
WITH RECURSIVE d(k, s) AS (
	SELECT 0, logp95_agg(r, 1) FROM unnest('{/a,/b,/c}'::text[]) r
	UNION ALL SELECT k + 1, logp95_merge_combine(s, s) FROM d WHERE k < 62)
SELECT logp95_total(s) FROM d WHERE k = 62;

-- ---------- logp95_histogram ----------
-- every route, default bounds: counts per (previous, le] and running totals
CREATE TABLE sre_default_bounds AS
	SELECT b, i FROM unnest('{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000}'::bigint[]) WITH ORDINALITY AS u(b, i);
CREATE TABLE sre_hist_ref AS
	SELECT route, le_ms, requests, sum(requests) OVER (PARTITION BY route ORDER BY le_ms NULLS LAST)::bigint AS cumulative
	FROM (SELECT p.route, bk.b AS le_ms,
	             count(p.ms) FILTER (WHERE (bk.prev IS NULL OR p.ms > bk.prev) AND (bk.b IS NULL OR p.ms <= bk.b)) AS requests
	      FROM sre_parsed p
	      CROSS JOIN (SELECT b, lag(b) OVER (ORDER BY i) AS prev FROM sre_default_bounds
	                  UNION ALL SELECT NULL, 10000) bk
	      GROUP BY p.route, bk.b) x;
CREATE TABLE sre_hist AS
	SELECT r.route, h.* FROM (SELECT DISTINCT route FROM sre_parsed) r,
	     LATERAL logp95_histogram((SELECT s FROM sre_state), r.route) h;
SELECT (SELECT count(*) FROM sre_hist) AS got_rows, (SELECT count(*) FROM sre_hist_ref) AS ref_rows,
       (SELECT count(*) FROM (SELECT * FROM sre_hist EXCEPT SELECT * FROM sre_hist_ref) d) AS not_in_ref,
       (SELECT count(*) FROM (SELECT * FROM sre_hist_ref EXCEPT SELECT * FROM sre_hist) d) AS missing;
-- the slowest route by p95, with given bounds
SELECT h.* FROM logp95_histogram((SELECT s FROM sre_state),
	(SELECT route FROM logp95_report((SELECT s FROM sre_state)) ORDER BY p95_ms DESC, route LIMIT 1),
	'{10, 50, 100, 250, 1000}') h;
SELECT count(*) FILTER (WHERE ms <= 10) AS le_10, count(*) FILTER (WHERE ms > 10 AND ms <= 50) AS le_50,
       count(*) FILTER (WHERE ms > 50 AND ms <= 100) AS le_100, count(*) FILTER (WHERE ms > 100 AND ms <= 250) AS le_250,
       count(*) FILTER (WHERE ms > 250 AND ms <= 1000) AS le_1000, count(*) FILTER (WHERE ms > 1000) AS inf
FROM sre_parsed
WHERE route = (SELECT route FROM logp95_report((SELECT s FROM sre_state)) ORDER BY p95_ms DESC, route LIMIT 1);
-- no bounds: just +Inf; an absent route: no rows; a negative bound is allowed
SELECT * FROM logp95_histogram((SELECT s FROM sre_state), '/api/v1/resource0/items', '{}');
SELECT count(*) AS absent_route_rows FROM logp95_histogram((SELECT s FROM sre_state), '/nope');
SELECT * FROM logp95_histogram((SELECT logp95_agg('/x', 0)), '/x', '{-5, 0}');
-- errors: 22023 for unsorted or duplicate bounds, 22004 for a NULL bound
SELECT sre_sqlstate($$SELECT * FROM logp95_histogram((SELECT s FROM sre_state), '/x', '{10, 5}')$$) AS unsorted,
       sre_sqlstate($$SELECT * FROM logp95_histogram((SELECT s FROM sre_state), '/x', '{5, 5}')$$) AS duplicate,
       sre_sqlstate($$SELECT * FROM logp95_histogram((SELECT s FROM sre_state), '/x', '{5, NULL}')$$) AS null_bound;
SELECT * FROM logp95_histogram((SELECT s FROM sre_state), '/x', '{1, 10, 10}');
SELECT * FROM logp95_histogram((SELECT s FROM sre_state), '/x', '{1, NULL}');

-- ---------- empty, NULL and single-value states ----------
SELECT (SELECT count(*) FROM logp95_percentiles('\x010000', '{0.5}')) AS percentiles,
       (SELECT count(*) FROM logp95_within('\x010000', 10)) AS within,
       (SELECT count(*) FROM logp95_stats('\x010000')) AS stats,
       (SELECT count(*) FROM logp95_histogram('\x010000', '*')) AS histogram,
       (SELECT count(*) FROM logp95_stats(NULL)) AS null_state,
       logp95_total(NULL) IS NULL AS null_total;
CREATE TABLE sre_one AS SELECT logp95_agg('/one', 42) AS s;
SELECT * FROM logp95_percentiles((SELECT s FROM sre_one), '{0, 0.5, 0.95, 1}');
SELECT * FROM logp95_within((SELECT s FROM sre_one), 41) UNION ALL SELECT * FROM logp95_within((SELECT s FROM sre_one), 42);
SELECT * FROM logp95_stats((SELECT s FROM sre_one));
SELECT * FROM logp95_report((SELECT logp95_total(s) FROM sre_one));
SELECT * FROM logp95_histogram((SELECT s FROM sre_one), '/one', '{41, 42}');

-- ---------- counts past 2^32: latencies 1, 2, 3, each 2^33 times ----------
CREATE TABLE sre_big AS
	WITH RECURSIVE d(k, s) AS (
		SELECT 0, logp95_agg('/big', v) FROM generate_series(1, 3) v
		UNION ALL SELECT k + 1, logp95_merge_combine(s, s) FROM d WHERE k < 33)
	SELECT s FROM d WHERE k = 33;
-- n = 3 * 2^33 = 25769803776; ranks: 0 -> 1, n*0.25 = 6442450944 -> 1 (< 2^33),
-- n*0.5 = 12884901888 -> 2, n*0.75 = 19327352832 -> 3 (>= 2^34), 1 -> 3
SELECT requests, requests = 3 * 2::numeric ^ 33 AS is_3x2_33, latencies_ms
FROM logp95_percentiles((SELECT s FROM sre_big), '{0, 0.25, 0.5, 0.75, 1}');
-- the edge: rank 2^33 - 1 is the last 1, rank 2^33 the first 2 (f = 1/3 exactly is not a float8)
SELECT latencies_ms,
       floor(25769803776 * (8589934591::float8 / 25769803776))::bigint AS rank_last_1,
       floor(25769803776 * (8589934592::float8 / 25769803776))::bigint AS rank_first_2
FROM logp95_percentiles((SELECT s FROM sre_big), ARRAY[8589934591::float8 / 25769803776, 8589934592::float8 / 25769803776]);
SELECT * FROM logp95_within((SELECT s FROM sre_big), 1);
SELECT * FROM logp95_stats((SELECT s FROM sre_big));
SELECT * FROM logp95_histogram((SELECT s FROM sre_big), '/big', '{1, 2}');
SELECT * FROM logp95_report((SELECT logp95_total(s) FROM sre_big));

-- ---------- values near the bigint limit: the mean from an exact sum ----------
CREATE TABLE sre_huge(route text, ms bigint);
INSERT INTO sre_huge VALUES
	('/max', 9223372036854775807), ('/max', 9223372036854775806), ('/max', 9223372036854775805),
	('/mixed', 9223372036854775807), ('/mixed', 0), ('/mixed', 1),
	('/pair', 9223372036854775807), ('/pair', 9223372036854775806);
SELECT s.*, r.mean AS ref_mean, s.mean_ms = r.mean AS same
FROM logp95_stats((SELECT logp95_agg(route, ms) FROM sre_huge)) s
JOIN (SELECT route, avg(ms::numeric)::float8 AS mean FROM sre_huge GROUP BY route) r USING (route);
-- 2^40 requests of the largest value and 2^40 of one less: sum 2^40 * (2^64 - 3)
CREATE TABLE sre_huge_big AS
	WITH RECURSIVE d(k, s) AS (
		SELECT 0, logp95_agg('/h', v) FROM unnest('{9223372036854775807, 9223372036854775806}'::bigint[]) v
		UNION ALL SELECT k + 1, logp95_merge_combine(s, s) FROM d WHERE k < 40)
	SELECT s FROM d WHERE k = 40;
SELECT s.*, ((2::numeric ^ 40) * (9223372036854775807::numeric + 9223372036854775806) / (2::numeric ^ 41))::float8 AS ref_mean
FROM logp95_stats((SELECT s FROM sre_huge_big)) s;
SELECT * FROM logp95_within((SELECT s FROM sre_huge_big), 9223372036854775806);
SELECT * FROM logp95_histogram((SELECT s FROM sre_huge_big), '/h', '{9223372036854775806}');
