-- sql/reference.sql -- the report equals a plain-SQL reference on generated data
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;
CREATE TABLE ref_log(line text);
INSERT INTO ref_log SELECT l FROM logp95_generate(100000, 300, 42) l;

CREATE TABLE ref AS
WITH parsed AS (
  SELECT split_part(line, ' ', 3) AS route, split_part(line, ' ', 4)::bigint AS ms FROM ref_log
), ranked AS (
  SELECT route, ms,
         row_number() OVER (PARTITION BY route ORDER BY ms) - 1 AS rk,
         count(*) OVER (PARTITION BY route) AS n
  FROM parsed
)
SELECT route, n AS requests,
       max(ms) FILTER (WHERE rk = least(n * 50 / 100, n - 1)) AS p50_ms,
       max(ms) FILTER (WHERE rk = least(n * 95 / 100, n - 1)) AS p95_ms,
       max(ms) FILTER (WHERE rk = least(n * 99 / 100, n - 1)) AS p99_ms,
       max(ms) AS max_ms
FROM ranked GROUP BY route, n;

CREATE TABLE got AS SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM ref_log));

SELECT (SELECT count(*) FROM ref) AS reference_routes, (SELECT count(*) FROM got) AS report_routes,
       (SELECT sum(requests) FROM got) AS requests;
SELECT 'missing' AS side, * FROM (TABLE ref EXCEPT ALL TABLE got) a
UNION ALL
SELECT 'extra', * FROM (TABLE got EXCEPT ALL TABLE ref) b;

-- rows come in byte order of the route
SELECT array_agg(route) = (SELECT array_agg(route ORDER BY route COLLATE "C") FROM got) AS byte_ordered
FROM logp95_report((SELECT logp95_agg(line) FROM ref_log));

-- logp95_percentile agrees with the report for every route
SELECT count(*) FILTER (WHERE logp95_percentile(s, route, 0.95) <> p95_ms
                           OR logp95_percentile(s, route, 0.5) <> p50_ms
                           OR logp95_percentile(s, route, 1) <> max_ms) AS disagreements
FROM got, (SELECT logp95_agg(line) AS s FROM ref_log) x;

-- a few rows as they are, to see real values
SELECT * FROM got ORDER BY route COLLATE "C" LIMIT 5;
