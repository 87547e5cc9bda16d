-- sql/percentile_rule.sql -- pK is the value at 0-based rank min(floor(n*K/100), n-1)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;
CREATE TABLE lat(route text, ms bigint);

-- n = 1: every percentile is the one value
INSERT INTO lat VALUES ('/one', 42);
-- n = 20, values 1..20: p95 rank floor(19) = 19 -> 20; percentile_disc gives 19
INSERT INTO lat SELECT '/twenty', g FROM generate_series(1, 20) g;
-- n = 100, values 1..100: p50 rank 50 -> 51, p95 rank 95 -> 96, p99 rank 99 -> 100
INSERT INTO lat SELECT '/hundred', g FROM generate_series(1, 100) g;
-- all values equal
INSERT INTO lat SELECT '/same', 7 FROM generate_series(1, 33);
-- the largest latency there is, and zero
INSERT INTO lat VALUES ('/extreme', 0), ('/extreme', 9223372036854775807),
                       ('/extreme', 9223372036854775807);

SELECT * FROM logp95_report((SELECT logp95_agg(route, ms) FROM lat));

-- the same through raw lines
SELECT * FROM logp95_report((SELECT logp95_agg('2026-11-07T00:00:00 GET ' || route || ' ' || ms) FROM lat));

-- side by side with percentile_disc: equal except where n*K/100 is whole
SELECT l.route, r.p95_ms AS logp95_p95,
       percentile_disc(0.95) WITHIN GROUP (ORDER BY ms) AS percentile_disc_p95,
       r.p50_ms AS logp95_p50,
       percentile_disc(0.5) WITHIN GROUP (ORDER BY ms) AS percentile_disc_p50
FROM lat l
JOIN logp95_report((SELECT logp95_agg(route, ms) FROM lat)) r USING (route)
GROUP BY l.route, r.p95_ms, r.p50_ms
ORDER BY l.route COLLATE "C";

-- logp95_percentile uses min(floor(n*fraction), n-1)
SELECT f, logp95_percentile(s, '/twenty', f) AS twenty,
          logp95_percentile(s, '/hundred', f) AS hundred
FROM (SELECT logp95_agg(route, ms) AS s FROM lat) x,
     unnest(ARRAY[0, 0.01, 0.049, 0.05, 0.5, 0.94, 0.95, 0.99, 0.999, 1]::float8[]) f;
