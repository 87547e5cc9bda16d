-- sql/generate_formats.sql -- logp95_generate(lines, routes, seed, format): the combined formats, cross-checked against the default lines
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;

-- a few lines of each format: the same routes, methods, timestamps and latencies
SELECT n, line FROM logp95_generate(3, 300, 42) WITH ORDINALITY AS g(line, n);
SELECT n, line FROM logp95_generate(3, 300, 42, 'combined') WITH ORDINALITY AS g(line, n);
SELECT n, line FROM logp95_generate(3, 300, 42, 'combined_us') WITH ORDINALITY AS g(line, n);
-- 'default' is the three-argument form; the query-string variants write the same lines
SELECT (SELECT array_agg(l) FROM logp95_generate(1000, 30, 7, 'default') l)
     = (SELECT array_agg(l) FROM logp95_generate(1000, 30, 7) l) AS default_same,
       (SELECT array_agg(l) FROM logp95_generate(1000, 30, 7, 'combined_query') l)
     = (SELECT array_agg(l) FROM logp95_generate(1000, 30, 7, 'combined') l) AS query_same,
       (SELECT array_agg(l) FROM logp95_generate(1000, 30, 7, 'combined_us_query') l)
     = (SELECT array_agg(l) FROM logp95_generate(1000, 30, 7, 'combined_us') l) AS us_query_same;

-- what the combined lines hold: clients, users, query strings, statuses, sizes
SELECT count(*) AS lines,
       count(*) FILTER (WHERE line ~ '^[0-9a-f]*:') AS ipv6_clients,
       count(*) FILTER (WHERE line !~ '^\S+ - - \[') AS remote_users,
       count(*) FILTER (WHERE line ~ '^[^"]*"[A-Z]+ [^ "]*\?') AS query_strings,
       count(*) FILTER (WHERE line ~ ' "-" "') AS no_referer,
       count(DISTINCT substring(line from '" ([0-9]{3}) ')) AS statuses,
       min(length(line)) AS min_len, round(avg(length(line))) AS avg_len, max(length(line)) AS max_len
FROM logp95_generate(20000, 300, 42, 'combined') line;
SELECT substring(line from '" ([0-9]{3}) ') AS status, count(*)
FROM logp95_generate(20000, 300, 42, 'combined') line GROUP BY 1 ORDER BY 1;

-- the cross-check: 'combined' and 'combined_us' reports of the same
-- (lines, routes, seed) equal the default report, route for route
CREATE TABLE gen_default AS
  SELECT * FROM logp95_report((SELECT logp95_agg(l) FROM logp95_generate(50000, 300, 42) l));
CREATE TABLE gen_combined AS
  SELECT * FROM logp95_report((SELECT logp95_agg(l, 'combined') FROM logp95_generate(50000, 300, 42, 'combined') l));
CREATE TABLE gen_combined_us AS
  SELECT * FROM logp95_report((SELECT logp95_agg(l, 'combined_us') FROM logp95_generate(50000, 300, 42, 'combined_us') l));
SELECT (SELECT count(*) FROM gen_default) AS routes,
       (SELECT count(*) FROM (TABLE gen_default EXCEPT ALL TABLE gen_combined) x) AS default_not_combined,
       (SELECT count(*) FROM (TABLE gen_combined EXCEPT ALL TABLE gen_default) x) AS combined_not_default,
       (SELECT count(*) FROM (TABLE gen_default EXCEPT ALL TABLE gen_combined_us) x) AS default_not_us,
       (SELECT count(*) FROM (TABLE gen_combined_us EXCEPT ALL TABLE gen_default) x) AS us_not_default;

-- 'combined_query' keeps the query strings, so its routes differ: check it
-- against a reference parsed in SQL (split_part for the route, the last
-- field for the request time) with the rank rule min(floor(n*K/100), n-1)
CREATE TABLE gen_query AS
  SELECT * FROM logp95_report((SELECT logp95_agg(l, 'combined_query') FROM logp95_generate(50000, 300, 42, 'combined_query') l));
CREATE TABLE gen_query_ref AS
  SELECT route, n AS requests,
         min(ms) FILTER (WHERE rk = least(n * 50 / 100, n - 1)) AS p50_ms,
         min(ms) FILTER (WHERE rk = least(n * 95 / 100, n - 1)) AS p95_ms,
         min(ms) FILTER (WHERE rk = least(n * 99 / 100, n - 1)) AS p99_ms,
         max(ms) AS max_ms
  FROM (SELECT route, ms,
               row_number() OVER (PARTITION BY route ORDER BY ms) - 1 AS rk,
               count(*) OVER (PARTITION BY route) AS n
        FROM (SELECT split_part(split_part(l, '"', 2), ' ', 2) AS route,
                     round((regexp_match(l, ' ([0-9.]+)$'))[1]::numeric * 1000)::bigint AS ms
              FROM logp95_generate(50000, 300, 42, 'combined_query') l) parsed) ranked
  GROUP BY route, n;
SELECT (SELECT count(*) FROM gen_query) AS routes,
       (SELECT count(*) FROM gen_query WHERE route LIKE '%?%') AS routes_with_query,
       (SELECT sum(requests) FROM gen_query) AS requests,
       (SELECT count(*) FROM (SELECT route, requests, p50_ms, p95_ms, p99_ms, max_ms FROM gen_query
                              EXCEPT ALL TABLE gen_query_ref) x) AS logp95_not_ref,
       (SELECT count(*) FROM (TABLE gen_query_ref
                              EXCEPT ALL SELECT route, requests, p50_ms, p95_ms, p99_ms, max_ms FROM gen_query) x) AS ref_not_logp95;

-- the timestamps: ten lines a second from 2026-11-07 00:00:00 UTC, in CLF
SELECT bool_and(logp95_line_ts(c, 'combined') = logp95_line_ts(d)) AS same_ts,
       min(logp95_line_ts(c, 'combined')) AS first, max(logp95_line_ts(c, 'combined')) AS last
FROM logp95_generate(25, 3, 1) WITH ORDINALITY AS a(d, n)
JOIN logp95_generate(25, 3, 1, 'combined') WITH ORDINALITY AS b(c, n) USING (n);

-- a format the generator does not write
SELECT logp95_generate(1, 1, 1, 'json');
SELECT count(*) AS strict_no_rows FROM logp95_generate(1, 1, 1, NULL);

DROP TABLE gen_default, gen_combined, gen_combined_us, gen_query, gen_query_ref;
