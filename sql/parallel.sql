-- sql/parallel.sql -- a forced parallel plan gives exactly the serial result
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;
CREATE TABLE par_log(line text);
INSERT INTO par_log SELECT l FROM logp95_generate(60000, 100, 21) l;
ANALYZE par_log;

SET max_parallel_workers_per_gather = 0;
CREATE TABLE serial_state AS SELECT logp95_agg(line) AS s FROM par_log;
CREATE TABLE serial_pairs AS
  SELECT logp95_agg(split_part(line, ' ', 3), split_part(line, ' ', 4)::bigint) AS s FROM par_log;

SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET parallel_leader_participation = off;

EXPLAIN (COSTS OFF) SELECT logp95_agg(line) FROM par_log;
-- the workers really ran and handed their states over (row counts are per worker)
-- Versions print plans differently: from PostgreSQL 17 on an InitPlan is
-- "InitPlan 1" and its value "(InitPlan 1).col1" (expected/parallel_1.out);
-- 18 also prints row counts with two decimals (expected/parallel_2.out).
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) SELECT logp95_agg(line) FROM par_log;
SELECT (SELECT logp95_agg(line) FROM par_log)::text = (SELECT s FROM serial_state)::text AS parallel_equals_serial;

EXPLAIN (COSTS OFF) SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM par_log));
SELECT count(*) AS differences FROM (
  (SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM par_log))
   EXCEPT ALL SELECT * FROM logp95_report((SELECT s FROM serial_state)))
  UNION ALL
  (SELECT * FROM logp95_report((SELECT s FROM serial_state))
   EXCEPT ALL SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM par_log)))) d;

EXPLAIN (COSTS OFF) SELECT logp95_agg(split_part(line, ' ', 3), split_part(line, ' ', 4)::bigint) FROM par_log;
SELECT (SELECT logp95_agg(split_part(line, ' ', 3), split_part(line, ' ', 4)::bigint) FROM par_log)::text
     = (SELECT s FROM serial_pairs)::text AS structured_parallel_equals_serial;

-- skip mode in workers: malformed lines counted once each
CREATE TABLE par_bad AS SELECT CASE WHEN n % 100 = 0 THEN 'broken line' ELSE l END AS line
FROM logp95_generate(20000, 10, 3) WITH ORDINALITY AS g(l, n);
ANALYZE par_bad;
SET logp95.on_malformed = skip;
EXPLAIN (COSTS OFF) SELECT logp95_agg(line) FROM par_bad;
SELECT logp95_malformed(logp95_agg(line)) FROM par_bad;
RESET logp95.on_malformed;

-- merge aggregate over a table of states, in parallel
CREATE TABLE par_states AS SELECT n % 500 AS k, logp95_agg(line) AS s
FROM par_log, LATERAL (SELECT hashtext(line) AS n) h GROUP BY 1;
ANALYZE par_states;
EXPLAIN (COSTS OFF) SELECT logp95_merge(s) FROM par_states;
SELECT (SELECT logp95_merge(s) FROM par_states)::text = (SELECT s FROM serial_state)::text AS merge_parallel_equals_serial;

-- the leader takes part: its own state comes to the combine as an expanded
-- state, kept encoded beside the workers' and summed when flattened
SET parallel_leader_participation = on;
SELECT (SELECT logp95_agg(line) FROM par_log)::text = (SELECT s FROM serial_state)::text AS leader_parallel_equals_serial;
SELECT (SELECT logp95_merge(s) FROM par_states)::text = (SELECT s FROM serial_state)::text AS leader_merge_parallel_equals_serial;
RESET parallel_leader_participation;
SET max_parallel_workers_per_gather = 0;
-- logp95_merge over more states than are kept encoded at once (8): the same sum
SELECT (SELECT logp95_merge(s) FROM (SELECT s FROM par_states ORDER BY k) o)::text
     = (SELECT s FROM serial_state)::text AS merge_many_equals_serial;
-- as a window function the running state is flattened at every row: each
-- row's state is the merge of the states up to it
SELECT bool_and(w::text = (SELECT logp95_merge(s) FROM par_states p2 WHERE p2.k <= w1.k)::text)
       AS window_merge_equals_prefix_merge
FROM (SELECT k, logp95_merge(s) OVER (ORDER BY k) AS w FROM par_states WHERE k < 40) w1;
