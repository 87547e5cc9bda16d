-- logp95.prefetch_distance: a hint to the CPU, never a change of result.
-- Every value gives the same state byte for byte, for the default and the
-- combined formats and for combined lines of 100 bytes to 2 kB (the
-- default, -1, asks two rows ahead by each row's own size), serial;
-- out-of-range values are refused.
CREATE TEMP TABLE pf_default AS SELECT line FROM logp95_generate(20000, 50, 7) AS line;
CREATE TEMP TABLE pf_combined AS SELECT line FROM logp95_generate(20000, 50, 7, 'combined') AS line;
CREATE TEMP TABLE pf_long AS
SELECT regexp_replace(line, '"Mozilla[^"]*"', '"' || repeat('Mozilla ', (n % 250)::int) || '"') AS line
FROM logp95_generate(20000, 50, 7, 'combined') WITH ORDINALITY AS g(line, n);
SELECT min(length(line)) < 150 AND max(length(line)) > 2000 AS long_lines FROM pf_long;
SET max_parallel_workers_per_gather = 0;
SHOW logp95.prefetch_distance;
CREATE TEMP TABLE pf_states (distance int, fmt text, st logp95_state);
CREATE PROCEDURE pf_run(d int) LANGUAGE sql AS $$
INSERT INTO pf_states SELECT d, 'default', logp95_agg(line) FROM pf_default;
INSERT INTO pf_states SELECT d, 'combined', logp95_agg(line, 'combined') FROM pf_combined;
INSERT INTO pf_states SELECT d, 'long', logp95_agg(line, 'combined') FROM pf_long;
$$;
SET logp95.prefetch_distance = 0;
CALL pf_run(0);
SET logp95.prefetch_distance = 64;
CALL pf_run(64);
SET logp95.prefetch_distance = 512;
CALL pf_run(512);
RESET logp95.prefetch_distance;
CALL pf_run(-1);
SET logp95.prefetch_distance = '64kB';
CALL pf_run(65536);
RESET logp95.prefetch_distance;
-- one distinct state per format, and the combined lines count what the default ones do
SELECT fmt, count(*) AS runs, count(DISTINCT st::text) AS distinct_states
FROM pf_states GROUP BY fmt ORDER BY fmt;
SELECT (SELECT st::text FROM pf_states WHERE fmt = 'default' AND distance = 0) =
       (SELECT st::text FROM pf_states WHERE fmt = 'combined' AND distance = 0) AS same_counts,
       (SELECT st::text FROM pf_states WHERE fmt = 'long' AND distance = -1) =
       (SELECT st::text FROM pf_states WHERE fmt = 'combined' AND distance = 0) AS long_same_counts;
SELECT requests, p95_ms FROM logp95_report((SELECT st FROM pf_states WHERE fmt = 'combined' AND distance = 512))
ORDER BY requests DESC, route LIMIT 3;
-- out of range (PostgreSQL 18 prints the range with its unit, "(-1 B .. 65536 B)":
-- expected/prefetch_1.out)
SET logp95.prefetch_distance = -2;
SET logp95.prefetch_distance = '65537';
SET logp95.prefetch_distance = '1MB';
DROP PROCEDURE pf_run(int);
