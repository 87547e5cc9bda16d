-- sql/basic.sql -- the report, the percentile function and the generator
CREATE EXTENSION logp95;

CREATE TABLE access_log(line text);
INSERT INTO access_log VALUES
 ('2026-11-07T12:00:01 GET /api/users 10'),
 ('2026-11-07T12:00:02 GET /api/users 20'),
 ('2026-11-07T12:00:03 GET /api/users 30'),
 ('2026-11-07T12:00:04 GET /api/users 40'),
 ('2026-11-07T12:00:05 POST /api/orders 500'),
 ('2026-11-07T12:00:06 GET /api/users 1000'),
 ('2026-11-07T12:00:07 GET /health 0');

SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM access_log));

-- the state reads back the same through every function
SELECT logp95_percentile(s, '/api/users', 0) AS min,
       logp95_percentile(s, '/api/users', 0.5) AS median,
       logp95_percentile(s, '/api/users', 0.95) AS p95,
       logp95_percentile(s, '/api/users', 1) AS max,
       logp95_percentile(s, '/nope', 0.5) AS absent,
       logp95_malformed(s) AS malformed
FROM (SELECT logp95_agg(line) AS s FROM access_log) x;

-- core's wording and SQLSTATE for a fraction outside [0, 1]
\set VERBOSITY default
SELECT logp95_percentile(logp95_agg(line), '/api/users', 1.5) FROM access_log;
SELECT logp95_percentile(logp95_agg(line), '/api/users', -0.1) FROM access_log;
SELECT logp95_percentile(logp95_agg(line), '/api/users', 'NaN') FROM access_log;
\set VERBOSITY sqlstate
SELECT logp95_percentile(logp95_agg(line), '/api/users', 2) FROM access_log;
\set VERBOSITY default

-- GROUP BY: one state per group, e.g. per method
SELECT method, (logp95_report(s)).*
FROM (SELECT split_part(line, ' ', 2) AS method, logp95_agg(line) AS s
      FROM access_log GROUP BY 1) g
ORDER BY method, route;

-- the generator: deterministic, ascending timestamps, parseable lines
SELECT * FROM logp95_generate(3, 5, 42);
SELECT count(*), count(DISTINCT l) FROM logp95_generate(1000, 7, 1) l;
SELECT (SELECT array_agg(l) FROM logp95_generate(50, 7, 9) l)
     = (SELECT array_agg(l) FROM logp95_generate(50, 7, 9) l) AS same_seed_same_lines,
       (SELECT array_agg(l) FROM logp95_generate(50, 7, 9) l)
     <> (SELECT array_agg(l) FROM logp95_generate(50, 7, 10) l) AS other_seed_other_lines;
SELECT bool_and(ts >= lag_ts) AS ascending, count(DISTINCT route) AS routes
FROM (SELECT split_part(l, ' ', 1) AS ts, lag(split_part(l, ' ', 1), 1, '') OVER () AS lag_ts,
             split_part(l, ' ', 3) AS route
      FROM logp95_generate(20000, 7, 3) l) x;
SELECT logp95_malformed(logp95_agg(l)) FROM logp95_generate(10000, 300, 5) l;
SELECT * FROM logp95_generate(-1, 5, 1);
SELECT * FROM logp95_generate(1, 0, 1);
-- as a window function: the final function runs on a state that goes on
-- growing (each row is counted by the time the next final call reads it)
SELECT i, (SELECT string_agg(route || ' n=' || requests || ' max=' || max_ms, ', ' ORDER BY route)
           FROM logp95_report(s)) AS running
FROM (SELECT i, logp95_agg(l) OVER (ORDER BY i) AS s
      FROM (VALUES (1, 't GET /a 5'), (2, 't GET /a 7'), (3, 't GET /b 9'),
                   (4, 't GET /a 100000'), (5, 't GET /b 9')) v(i, l)) x
ORDER BY i;
