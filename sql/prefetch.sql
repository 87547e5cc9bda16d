-- logp95.prefetch_distance: a hint to the CPU, never a change of result.
-- Every value gives the same state byte for byte, for the default and the
-- combined formats, serial; out-of-range values are refused.
CREATE TEMP TABLE pf_default AS SELECT line FROM logp95_generate(20000, 50, 7) AS line;
CREATE TEMP TABLE pf_combined AS SELECT line FROM logp95_generate(20000, 50, 7, 'combined') AS line;
SET max_parallel_workers_per_gather = 0;
SHOW logp95.prefetch_distance;
CREATE TEMP TABLE pf_states (distance int, fmt text, st logp95_state);
SET logp95.prefetch_distance = 0;
INSERT INTO pf_states SELECT 0, 'default', logp95_agg(line) FROM pf_default;
INSERT INTO pf_states SELECT 0, 'combined', logp95_agg(line, 'combined') FROM pf_combined;
SET logp95.prefetch_distance = 64;
INSERT INTO pf_states SELECT 64, 'default', logp95_agg(line) FROM pf_default;
INSERT INTO pf_states SELECT 64, 'combined', logp95_agg(line, 'combined') FROM pf_combined;
RESET logp95.prefetch_distance;
INSERT INTO pf_states SELECT 512, 'default', logp95_agg(line) FROM pf_default;
INSERT INTO pf_states SELECT 512, 'combined', logp95_agg(line, 'combined') FROM pf_combined;
SET logp95.prefetch_distance = '64kB';
INSERT INTO pf_states SELECT 65536, 'default', logp95_agg(line) FROM pf_default;
INSERT INTO pf_states SELECT 65536, 'combined', logp95_agg(line, 'combined') FROM pf_combined;
RESET logp95.prefetch_distance;
-- one distinct state per format, and the combined lines count what the default ones do
SELECT fmt, count(*) AS runs, count(DISTINCT st::text) AS distinct_states
FROM pf_states GROUP BY fmt ORDER BY fmt;
SELECT (SELECT st::text FROM pf_states WHERE fmt = 'default' AND distance = 0) =
       (SELECT st::text FROM pf_states WHERE fmt = 'combined' AND distance = 0) AS same_counts;
SELECT requests, p95_ms FROM logp95_report((SELECT st FROM pf_states WHERE fmt = 'combined' AND distance = 512))
ORDER BY requests DESC, route LIMIT 3;
-- out of range (PostgreSQL 18 prints the range with its unit, "(0 B .. 65536 B)":
-- expected/prefetch_1.out)
SET logp95.prefetch_distance = -1;
SET logp95.prefetch_distance = '65537';
SET logp95.prefetch_distance = '1MB';
