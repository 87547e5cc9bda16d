-- sql/red.sql -- RED per route (issue 24): status classes, errors, rate beside the latency
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;

-- generated combined lines (statuses 200 .. 500) and a few by hand: a
-- status outside 100-599 (999), one that is not three digits (000), a 1xx
-- and a 504 after 60 s on a route of its own method
CREATE TABLE red_log(line text);
INSERT INTO red_log SELECT l FROM logp95_generate(30000, 40, 7, 'combined') l;
INSERT INTO red_log VALUES
  ('10.0.0.1 - - [07/Nov/2026:00:50:00 +0000] "GET /api/v1/resource1 HTTP/1.1" 999 5 "-" "x" 0.010'),
  ('10.0.0.1 - - [07/Nov/2026:00:50:00 +0000] "GET /api/v1/resource1 HTTP/1.1" 000 5 "-" "x" 0.020'),
  ('10.0.0.1 - - [07/Nov/2026:00:50:01 +0000] "GET /ws HTTP/1.1" 101 0 "-" "x" 31.500'),
  ('10.0.0.1 - - [07/Nov/2026:00:50:01 +0000] "PATCH /api/v1/resource1 HTTP/1.1" 503 0 "-" "x" 60.000');

-- the reference, from the raw lines in SQL: request, method, path, status, ms
CREATE TABLE red_ref AS
SELECT split_part(split_part(split_part(line, '"', 2), ' ', 2), '?', 1) AS route,
       split_part(split_part(line, '"', 2), ' ', 1) AS method,
       split_part(split_part(line, '"', 3), ' ', 2) AS status,
       round(regexp_replace(line, '^.* ', '')::numeric * 1000)::bigint AS ms
FROM red_log;
ALTER TABLE red_ref ADD COLUMN cls int;
UPDATE red_ref SET cls = CASE WHEN status ~ '^[1-5][0-9][0-9]$' THEN left(status, 1)::int ELSE 0 END;

-- the reference's status counts per key
CREATE FUNCTION red_want(by_method bool)
RETURNS TABLE(route text, requests bigint, s1xx bigint, s2xx bigint, s3xx bigint,
			  s4xx bigint, s5xx bigint, unknown bigint)
LANGUAGE sql AS $$
  SELECT CASE WHEN by_method THEN method || ' ' || route ELSE route END,
         count(*), count(*) FILTER (WHERE cls = 1), count(*) FILTER (WHERE cls = 2),
         count(*) FILTER (WHERE cls = 3), count(*) FILTER (WHERE cls = 4),
         count(*) FILTER (WHERE cls = 5), count(*) FILTER (WHERE cls = 0)
  FROM red_ref GROUP BY 1
$$;

CREATE TABLE red_states AS
SELECT logp95_agg(line, 'combined') AS plain,
       logp95_agg(line, 'combined', 'status') AS status,
       logp95_agg(line, 'combined', 'method') AS method,
       logp95_agg(line, 'combined', 'ok_latency') AS ok_latency,
       logp95_agg(line, 'combined', 'method, ok_latency, templates') AS meth_ok
FROM red_log;

SELECT (SELECT count(*) FROM red_ref) AS lines,
       (SELECT count(DISTINCT route) FROM red_ref) AS routes,
       (SELECT count(*) FROM red_ref WHERE cls = 5) AS errors,
       (SELECT count(*) FROM red_ref WHERE cls = 0) AS unknown;

-- ---- logp95_status against the reference, with and without method ----
SELECT 'status' AS state, count(*) AS differing_rows FROM (
  (SELECT * FROM logp95_status((SELECT status FROM red_states)) EXCEPT ALL SELECT * FROM red_want(false))
  UNION ALL
  (SELECT * FROM red_want(false) EXCEPT ALL SELECT * FROM logp95_status((SELECT status FROM red_states)))) d
UNION ALL
SELECT 'method', count(*) FROM (
  (SELECT * FROM logp95_status((SELECT method FROM red_states)) EXCEPT ALL SELECT * FROM red_want(true))
  UNION ALL
  (SELECT * FROM red_want(true) EXCEPT ALL SELECT * FROM logp95_status((SELECT method FROM red_states)))) d
UNION ALL
SELECT 'ok_latency', count(*) FROM (
  (SELECT * FROM logp95_status((SELECT ok_latency FROM red_states)) EXCEPT ALL SELECT * FROM red_want(false))
  UNION ALL
  (SELECT * FROM red_want(false) EXCEPT ALL SELECT * FROM logp95_status((SELECT ok_latency FROM red_states)))) d;

SELECT * FROM logp95_status((SELECT method FROM red_states))
 WHERE route LIKE '% /api/v1/resource1' OR route LIKE '% /ws' ORDER BY route COLLATE "C";

-- a state that counted statuses has the plain state's report; without the
-- option every request is unknown
SELECT (SELECT array_agg(r) FROM logp95_report((SELECT status FROM red_states)) r)
     = (SELECT array_agg(r) FROM logp95_report((SELECT plain FROM red_states)) r) AS same_report,
       (SELECT sum(unknown) = sum(requests) AND sum(s5xx) = 0
          FROM logp95_status((SELECT plain FROM red_states))) AS plain_all_unknown,
       (SELECT status <> plain FROM red_states) AS states_differ;

-- the default format has no status: 'status' writes the plain state, byte for byte
SELECT logp95_agg(l, 'default', 'status')::text = logp95_agg(l)::text AS default_status_is_plain,
       logp95_agg(l, 'default', 'status') = logp95_agg(l) AS equal
FROM logp95_generate(2000, 10, 3) l;

-- (route, latency_ms) rows have no status: 'status' writes the plain state;
-- 'method' has no method to add but is recorded
SELECT logp95_agg(r, ms, 'status')::text = logp95_agg(r, ms)::text AS pairs_status_is_plain,
       left(logp95_agg(r, ms, 'method')::text, 6) AS pairs_method_header,
       (SELECT sum(unknown) FROM logp95_status(logp95_agg(r, ms, 'method'))) AS pairs_unknown
FROM (VALUES ('/a', 5::bigint), ('/a', 7), ('/b', 1)) v(r, ms);

-- ---- logp95_red: rate, errors, error share, duration ----
CREATE TABLE red_want_red AS
WITH ranked AS (
  SELECT route, ms, cls,
         row_number() OVER (PARTITION BY route ORDER BY ms) - 1 AS rk,
         count(*) OVER (PARTITION BY route) AS n
  FROM red_ref
)
SELECT route, n AS requests, n::float8 / 3000 AS per_second,
       count(*) FILTER (WHERE cls = 5) AS errors,
       (count(*) FILTER (WHERE cls = 5))::float8 / n AS error_share,
       max(ms) FILTER (WHERE rk = least(n * 50 / 100, n - 1)) AS p50_ms,
       max(ms) FILTER (WHERE rk = least(n * 95 / 100, n - 1)) AS p95_ms,
       max(ms) FILTER (WHERE rk = least(n * 99 / 100, n - 1)) AS p99_ms,
       max(ms) AS max_ms
FROM ranked GROUP BY route, n;

SELECT count(*) AS differing_rows FROM (
  (SELECT * FROM logp95_red((SELECT status FROM red_states), 3000) EXCEPT ALL TABLE red_want_red)
  UNION ALL
  (TABLE red_want_red EXCEPT ALL SELECT * FROM logp95_red((SELECT status FROM red_states), 3000))) d;

-- ok_latency: the percentiles of the lines below 500 only (their own ranks);
-- requests, errors and the rate still count every line
CREATE TABLE red_want_ok AS
WITH ranked AS (
  SELECT route, ms,
         row_number() OVER (PARTITION BY route ORDER BY ms) - 1 AS rk,
         count(*) OVER (PARTITION BY route) AS n
  FROM red_ref WHERE cls <> 5
)
SELECT w.route, w.requests, w.per_second, w.errors, w.error_share,
       k.p50_ms, k.p95_ms, k.p99_ms, k.max_ms
FROM red_want_red w LEFT JOIN (
  SELECT route,
         max(ms) FILTER (WHERE rk = least(n * 50 / 100, n - 1)) AS p50_ms,
         max(ms) FILTER (WHERE rk = least(n * 95 / 100, n - 1)) AS p95_ms,
         max(ms) FILTER (WHERE rk = least(n * 99 / 100, n - 1)) AS p99_ms,
         max(ms) AS max_ms
  FROM ranked GROUP BY route) k USING (route);

SELECT count(*) AS differing_rows FROM (
  (SELECT * FROM logp95_red((SELECT ok_latency FROM red_states), 3000) EXCEPT ALL TABLE red_want_ok)
  UNION ALL
  (TABLE red_want_ok EXCEPT ALL SELECT * FROM logp95_red((SELECT ok_latency FROM red_states), 3000))) d;

-- logp95_report counts the histogram: with ok_latency, the lines below 500
SELECT (SELECT sum(requests) FROM logp95_report((SELECT ok_latency FROM red_states))) AS histogram_requests,
       (SELECT count(*) FROM red_ref WHERE cls <> 5) AS want,
       (SELECT sum(requests) FROM logp95_status((SELECT ok_latency FROM red_states))) AS status_requests;

SELECT * FROM logp95_red((SELECT ok_latency FROM red_states), 3000)
 WHERE route IN ('/api/v1/resource1', '/ws') ORDER BY route COLLATE "C";
SELECT route, requests, per_second IS NULL AS no_rate, errors FROM logp95_red((SELECT ok_latency FROM red_states))
 WHERE route = '/ws';

-- the whole service: logp95_total carries the counts
SELECT * FROM logp95_red(logp95_total((SELECT status FROM red_states)), 3000);
SELECT * FROM logp95_status(logp95_total((SELECT status FROM red_states)));
SELECT count(*) AS want_requests, count(*) FILTER (WHERE cls = 5) AS want_errors FROM red_ref;

-- method with templates and ok_latency: routes as "METHOD route"
SELECT route, requests, errors, p95_ms FROM logp95_red((SELECT meth_ok FROM red_states))
 WHERE route LIKE 'PATCH %' OR route LIKE 'GET /ws';

-- ---- merges with a state written by 1.1 (version 1, a stored literal) ----
CREATE TABLE red_old(s logp95_state);
INSERT INTO red_old VALUES ('\x010002172f6170692f76312f7265736f75726365302f6974656d73050b60011001090120019f0101112f6170692f76312f7265736f75726365310103a00101');
SELECT * FROM logp95_status((SELECT s FROM red_old));
-- its requests count as unknown, the other classes stay
SELECT n.route, n.requests - s.requests AS added, n.unknown - s.unknown AS added_unknown,
       n.s2xx = s.s2xx AND n.s5xx = s.s5xx AS classes_kept
FROM logp95_status((SELECT s FROM red_old) + (SELECT status FROM red_states)) n
JOIN logp95_status((SELECT status FROM red_states)) s USING (route)
WHERE n.requests <> s.requests ORDER BY 1;
-- every way to merge gives the same bytes, and subtraction gives back either side
SELECT ((SELECT s FROM red_old) + (SELECT status FROM red_states))::text
     = ((SELECT status FROM red_states) + (SELECT s FROM red_old))::text AS commutes,
       ((SELECT s FROM red_old) + (SELECT status FROM red_states))::text
     = (SELECT logp95_merge(x)::text FROM (SELECT s FROM red_old UNION ALL SELECT status FROM red_states) m(x)) AS merge_agg,
       (((SELECT s FROM red_old) + (SELECT status FROM red_states)) - (SELECT s FROM red_old))::text
     = (SELECT status FROM red_states)::text AS minus_old,
       (((SELECT s FROM red_old) + (SELECT status FROM red_states)) - (SELECT status FROM red_states))::text
     = (SELECT s FROM red_old)::text AS minus_new_is_v1;
-- a merge of states without anything but unknown is written as 1.1 writes it
SELECT left(((SELECT s FROM red_old) + logp95_agg(l, 'default', 'status'))::text, 4) AS version_byte
FROM logp95_generate(100, 5, 1) l;
SELECT left((SELECT status FROM red_states)::text, 4) AS status_version,
       left((SELECT method FROM red_states)::text, 6) AS method_version_and_options;

-- ---- different options do not merge (22023) ----
\set VERBOSITY default
SELECT (SELECT method FROM red_states) + (SELECT status FROM red_states);
SELECT logp95_merge(x) FROM (SELECT method FROM red_states UNION ALL SELECT ok_latency FROM red_states) m(x);
SELECT (SELECT ok_latency FROM red_states) + (SELECT s FROM red_old);
SELECT logp95_agg(line, 'combined', CASE WHEN line LIKE '%GET%' THEN 'method' ELSE 'status' END) FROM red_log;
\set VERBOSITY terse
-- an empty state takes the other's options
SELECT (logp95_agg(line, 'combined') + (SELECT method FROM red_states))::text = (SELECT method FROM red_states)::text
       AS empty_plus_method
FROM red_log WHERE false;
-- the seconds of logp95_red
SELECT * FROM logp95_red((SELECT status FROM red_states), 0);
SELECT * FROM logp95_red((SELECT status FROM red_states), 'infinity');
SELECT count(*) AS null_state_rows FROM logp95_red(NULL, 60);

-- ---- parallel aggregation equals serial ----
SET max_parallel_workers_per_gather = 0;
CREATE TEMP TABLE red_serial AS
SELECT logp95_agg(line, 'combined', 'status') AS s, logp95_agg(line, 'combined', 'method, ok_latency') AS m FROM red_log;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET parallel_leader_participation = off;
SELECT (SELECT logp95_agg(line, 'combined', 'status')::text FROM red_log) = (SELECT s::text FROM red_serial) AS status_parallel_equals_serial,
       (SELECT logp95_agg(line, 'combined', 'method, ok_latency')::text FROM red_log) = (SELECT m::text FROM red_serial) AS method_parallel_equals_serial;
-- with the leader's own state too (kept encoded beside the workers')
SET parallel_leader_participation = on;
SELECT (SELECT logp95_agg(line, 'combined', 'status')::text FROM red_log) = (SELECT s::text FROM red_serial) AS status_leader_parallel_equals_serial,
       (SELECT logp95_agg(line, 'combined', 'method, ok_latency')::text FROM red_log) = (SELECT m::text FROM red_serial) AS method_leader_parallel_equals_serial;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET parallel_leader_participation;

-- ---- continuous rollups with 'status': each bucket is logp95_agg of its lines ----
CREATE TABLE red_src(line text);
INSERT INTO red_src SELECT line FROM red_log LIMIT 20000;
SELECT logp95_rollup_create('red_src', '5 minutes', 'combined', 'line', 'status');
INSERT INTO red_src SELECT line FROM red_log OFFSET 20000;
CREATE TEMP TABLE red_want_buckets AS
SELECT date_bin('5 minutes', logp95_line_time(line, 'combined'), 'epoch') AS bucket,
       logp95_agg(line, 'combined', 'status,skip') AS state
FROM red_src GROUP BY 1;
SELECT count(*) AS buckets,
       count(*) FILTER (WHERE w.state::text IS DISTINCT FROM r.state::text) AS differ
FROM red_want_buckets w FULL JOIN red_src_rollup_5min r USING (bucket);
SELECT count(*) AS differing_rows FROM (
  (SELECT * FROM logp95_status(logp95_rollup_state('red_src_rollup_5min', '-infinity', 'infinity'))
   EXCEPT ALL SELECT * FROM red_want(false))
  UNION ALL
  (SELECT * FROM red_want(false) EXCEPT ALL
   SELECT * FROM logp95_status(logp95_rollup_state('red_src_rollup_5min', '-infinity', 'infinity')))) d;
SELECT logp95_rollup_drop('red_src_rollup_5min');

DROP TABLE red_log, red_ref, red_states, red_want_red, red_want_ok, red_old, red_src;
DROP FUNCTION red_want(bool);
