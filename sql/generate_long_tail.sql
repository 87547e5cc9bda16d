-- sql/generate_long_tail.sql -- logp95_generate(lines, routes, seed, format, latency): the long-tailed mode, and the released forms unchanged
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;

-- the 1.0 and 1.1 forms are IMMUTABLE: their lines are those of the 1.1
-- release byte for byte (md5 values computed with the library of commit
-- e4363b4), and 'narrow' in the new form writes the same lines
SELECT md5(string_agg(l, E'\n')) = '606d76fef8acdfec1948b0f4d0a5b489' AS default_3arg_same
FROM logp95_generate(20000, 300, 42) l;
SELECT md5(string_agg(l, E'\n')) = 'ebca50cf9d2fd1315994c13f5ffe294e' AS combined_same
FROM logp95_generate(20000, 300, 42, 'combined') l;
SELECT md5(string_agg(l, E'\n')) = 'b2d5bb7d3294d0bc227f9321b8fd2f93' AS combined_us_same
FROM logp95_generate(20000, 300, 42, 'combined_us') l;
SELECT md5(string_agg(l, E'\n')) = '7cd2b0c10afcf21c96664d439206b90e' AS default_4arg_same
FROM logp95_generate(5000, 7, -3, 'default') l;
SELECT md5(string_agg(l, E'\n')) = 'ebca50cf9d2fd1315994c13f5ffe294e' AS narrow_is_combined
FROM logp95_generate(20000, 300, 42, 'combined', 'narrow') l;

-- a few long-tailed lines: the narrow lines' routes and timestamps
SELECT n, line FROM logp95_generate(4, 300, 42, 'default', 'long_tail') WITH ORDINALITY AS g(line, n);
SELECT n, line FROM logp95_generate(2, 300, 42, 'combined', 'long_tail') WITH ORDINALITY AS g(line, n);
SELECT count(*) AS lines,
       count(*) FILTER (WHERE split_part(a, ' ', 3) = split_part(b, ' ', 3)
                          AND split_part(a, ' ', 1) = split_part(b, ' ', 1)) AS same_route_and_time
FROM logp95_generate(10000, 300, 42, 'default', 'long_tail') WITH ORDINALITY AS x(a, n)
JOIN logp95_generate(10000, 300, 42) WITH ORDINALITY AS y(b, n) USING (n);

-- deterministic: the same arguments give the same lines
SELECT (SELECT array_agg(l) FROM logp95_generate(3000, 30, 7, 'default', 'long_tail') l)
     = (SELECT array_agg(l) FROM logp95_generate(3000, 30, 7, 'default', 'long_tail') l) AS repeatable;

-- the shape of the distribution: a long tail out to the 60,000 ms cap,
-- thousands of distinct values, against the narrow mode's few hundred
CREATE TABLE lt AS
  SELECT split_part(l, ' ', 3) AS route, split_part(l, ' ', 4)::bigint AS ms
  FROM logp95_generate(200000, 300, 42, 'default', 'long_tail') l;
CREATE TABLE nw AS
  SELECT split_part(l, ' ', 3) AS route, split_part(l, ' ', 4)::bigint AS ms
  FROM logp95_generate(200000, 300, 42) l;
SELECT 'long_tail' AS mode, count(*) AS lines, count(DISTINCT route) AS routes,
       count(DISTINCT ms) AS distinct_ms, count(DISTINCT (route, ms)) AS pairs,
       min(ms), max(ms), count(*) FILTER (WHERE ms = 60000) AS at_cap,
       percentile_disc(ARRAY[0.5, 0.9, 0.99, 0.999]) WITHIN GROUP (ORDER BY ms) AS pct
FROM lt
UNION ALL
SELECT 'narrow', count(*), count(DISTINCT route), count(DISTINCT ms), count(DISTINCT (route, ms)),
       min(ms), max(ms), count(*) FILTER (WHERE ms = 60000),
       percentile_disc(ARRAY[0.5, 0.9, 0.99, 0.999]) WITHIN GROUP (ORDER BY ms)
FROM nw
ORDER BY mode;
-- the distinct values of the busiest route
SELECT count(DISTINCT ms) AS busiest_route_values, count(*) AS busiest_route_lines
FROM lt WHERE route = (SELECT route FROM lt GROUP BY route ORDER BY count(*) DESC, route LIMIT 1);

-- logp95's report of the long-tailed lines equals the window-function
-- reference (rank rule min(floor(n*K/100), n-1) over the sorted latencies)
CREATE TABLE lt_ref AS
  SELECT route, count(*) AS requests,
         (array_agg(ms ORDER BY ms))[least(count(*) * 50 / 100, count(*) - 1)::int + 1] AS p50,
         (array_agg(ms ORDER BY ms))[least(count(*) * 95 / 100, count(*) - 1)::int + 1] AS p95,
         (array_agg(ms ORDER BY ms))[least(count(*) * 99 / 100, count(*) - 1)::int + 1] AS p99
  FROM lt GROUP BY route;
CREATE TABLE lt_rep AS
  SELECT route, requests, p50_ms AS p50, p95_ms AS p95, p99_ms AS p99
  FROM logp95_report((SELECT logp95_agg(l) FROM logp95_generate(200000, 300, 42, 'default', 'long_tail') l));
SELECT (SELECT count(*) FROM lt_ref) AS routes,
       (SELECT count(*) FROM (TABLE lt_ref EXCEPT ALL TABLE lt_rep) x) AS ref_not_report,
       (SELECT count(*) FROM (TABLE lt_rep EXCEPT ALL TABLE lt_ref) x) AS report_not_ref;
-- the combined lines carry the same routes and latencies
SELECT (SELECT count(*) FROM (
          SELECT * FROM logp95_report((SELECT logp95_agg(l, 'combined') FROM logp95_generate(50000, 300, 42, 'combined', 'long_tail') l))
          EXCEPT ALL
          SELECT * FROM logp95_report((SELECT logp95_agg(l) FROM logp95_generate(50000, 300, 42, 'default', 'long_tail') l))) x)
       AS combined_not_default;

-- errors: an unknown distribution names the known ones
SELECT * FROM logp95_generate(1, 1, 1, 'default', 'wide');
SELECT * FROM logp95_generate(1, 1, 1, 'nope', 'long_tail');
SELECT * FROM logp95_generate(-1, 1, 1, 'default', 'long_tail');

DROP TABLE lt, nw, lt_ref, lt_rep;
