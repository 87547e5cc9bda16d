-- sql/sre_timeseries.sql -- time series without new functions: per-route p95 per minute from raw lines and from a rollup table, Grafana's heatmap and p95 queries
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;

-- 30 minutes of generated log (10 lines a second from 2026-11-07T00:00:00), 12 routes,
-- and a parsed copy for the reference (split_part, never a logp95 function)
CREATE TABLE ts_log(line text);
INSERT INTO ts_log SELECT logp95_generate(18000, 12, 3);
CREATE TABLE ts_parsed AS
	SELECT split_part(line, ' ', 1)::timestamp AS ts, split_part(line, ' ', 3) AS route,
	       split_part(line, ' ', 4)::bigint AS ms
	FROM ts_log;

-- the reference of per-route p95 per bucket of `width`: row_number ranks, logp95's rule
CREATE FUNCTION ts_ref(width interval) RETURNS TABLE(bucket timestamp, route text, requests bigint, p95_ms bigint)
LANGUAGE sql AS $$
	SELECT bucket, route, n, min(ms) FILTER (WHERE rk = least(n * 95 / 100, n - 1))
	FROM (SELECT date_bin(width, ts, timestamp '2000-01-01') AS bucket, route, ms,
	             row_number() OVER (PARTITION BY date_bin(width, ts, timestamp '2000-01-01'), route ORDER BY ms) - 1 AS rk,
	             count(*) OVER (PARTITION BY date_bin(width, ts, timestamp '2000-01-01'), route) AS n
	      FROM ts_parsed) r
	GROUP BY bucket, route, n
$$;

-- Recipe 1: per-route p95 per minute straight from the raw lines
CREATE TABLE ts_minute AS
	SELECT m.minute AS bucket, r.route, r.requests, r.p95_ms
	FROM (SELECT date_bin('1 minute', logp95_line_ts(line), timestamp '2000-01-01') AS minute,
	             logp95_agg(line) AS state
	      FROM ts_log GROUP BY 1) m,
	     LATERAL logp95_report(m.state) r;
SELECT (SELECT count(DISTINCT bucket) FROM ts_minute) AS minutes, (SELECT count(*) FROM ts_minute) AS got_rows,
       (SELECT count(*) FROM ts_ref('1 minute')) AS ref_rows,
       (SELECT count(*) FROM (SELECT * FROM ts_minute EXCEPT SELECT * FROM ts_ref('1 minute')) d) AS not_in_ref,
       (SELECT count(*) FROM (SELECT * FROM ts_ref('1 minute') EXCEPT SELECT * FROM ts_minute) d) AS missing;
SELECT * FROM ts_minute WHERE route = '/api/v1/resource0/items' ORDER BY bucket LIMIT 3;

-- Recipe 2: a rollup table of one state per minute, built with logp95_line_ts; any
-- coarser width (here 5 minutes and 1 hour) is a logp95_merge of its rows
CREATE TABLE ts_rollup(minute timestamp PRIMARY KEY, state logp95_state NOT NULL);
INSERT INTO ts_rollup
	SELECT date_bin('1 minute', logp95_line_ts(line), timestamp '2000-01-01'), logp95_agg(line)
	FROM ts_log GROUP BY 1;
CREATE TABLE ts_five AS
	SELECT b.bucket, r.route, r.requests, r.p95_ms
	FROM (SELECT date_bin('5 minutes', minute, timestamp '2000-01-01') AS bucket, logp95_merge(state) AS state
	      FROM ts_rollup GROUP BY 1) b,
	     LATERAL logp95_report(b.state) r;
SELECT (SELECT count(*) FROM ts_five) AS got_rows, (SELECT count(*) FROM ts_ref('5 minutes')) AS ref_rows,
       (SELECT count(*) FROM (SELECT * FROM ts_five EXCEPT SELECT * FROM ts_ref('5 minutes')) d) AS not_in_ref,
       (SELECT count(*) FROM (SELECT * FROM ts_ref('5 minutes') EXCEPT SELECT * FROM ts_five) d) AS missing;
-- an hourly rollup from the raw lines, the way the docs build it
CREATE TABLE ts_hourly(hour timestamp PRIMARY KEY, state logp95_state NOT NULL);
INSERT INTO ts_hourly
	SELECT date_trunc('hour', logp95_line_ts(line)), logp95_agg(line) FROM ts_log
	WHERE logp95_line_ts(line) >= '2026-11-07' AND logp95_line_ts(line) < '2026-11-08'
	GROUP BY 1;
SELECT count(*) AS routes_differing
FROM (SELECT h.hour AS bucket, r.route, r.requests, r.p95_ms FROM ts_hourly h, LATERAL logp95_report(h.state) r
      EXCEPT SELECT * FROM ts_ref('1 hour')) d;
SELECT (SELECT state FROM ts_hourly)::text = (SELECT logp95_merge(state) FROM ts_rollup)::text AS hour_equals_merged_minutes;

-- Grafana, p95 time series panel: one series per route ("time", metric, value)
SELECT b.bucket AS "time", r.route AS metric, r.p95_ms AS value
FROM (SELECT date_bin('10 minutes', minute, timestamp '2000-01-01') AS bucket, logp95_merge(state) AS state
      FROM ts_rollup WHERE minute >= '2026-11-07T00:00:00' AND minute < '2026-11-07T00:30:00' GROUP BY 1) b,
     LATERAL logp95_report(b.state) r
WHERE r.route IN ('/api/v1/resource0/items', '/api/v1/resource1')
ORDER BY 1, 2;

-- Grafana, heatmap panel: (time, le, count), one row per bucket and bound, for one route
-- (or for the whole service with logp95_total(state) and route '*')
CREATE TABLE ts_heat AS
	SELECT t.minute AS "time", coalesce(h.le_ms::text, '+Inf') AS le, h.requests AS count
	FROM ts_rollup t,
	     LATERAL logp95_histogram(logp95_total(t.state), '*', '{10, 25, 50, 100, 250, 500, 1000}') h;
SELECT * FROM ts_heat WHERE "time" = '2026-11-07T00:00:00' ORDER BY count DESC, le;
-- the heatmap's counts against the parsed copy, every minute and bucket
SELECT count(*) AS cells,
       count(*) FILTER (WHERE h.count <> coalesce(ref.n, 0)) AS wrong,
       sum(h.count) AS requests
FROM ts_heat h
LEFT JOIN (SELECT date_bin('1 minute', ts, timestamp '2000-01-01') AS "time",
                  CASE WHEN ms <= 10 THEN '10' WHEN ms <= 25 THEN '25' WHEN ms <= 50 THEN '50'
                       WHEN ms <= 100 THEN '100' WHEN ms <= 250 THEN '250' WHEN ms <= 500 THEN '500'
                       WHEN ms <= 1000 THEN '1000' ELSE '+Inf' END AS le,
                  count(*) AS n
           FROM ts_parsed GROUP BY 1, 2) ref USING ("time", le);
