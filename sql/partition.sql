-- sql/partition.sql -- a log partitioned by day: partitionwise aggregation gives the unpartitioned report
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;

-- 90,000 generated lines spread over three days (line n goes to day n % 3),
-- the date in the line rewritten to match its partition.
CREATE TABLE part_src(day date, line text);
INSERT INTO part_src
SELECT d, to_char(d, 'YYYY-MM-DD') || substr(l, 11)
FROM logp95_generate(90000, 300, 17) WITH ORDINALITY g(l, n),
     LATERAL (SELECT date '2026-11-07' + (n % 3)::int AS d) x;

CREATE TABLE part_log(day date NOT NULL, line text) PARTITION BY RANGE (day);
CREATE TABLE part_log_1107 PARTITION OF part_log FOR VALUES FROM ('2026-11-07') TO ('2026-11-08');
CREATE TABLE part_log_1108 PARTITION OF part_log FOR VALUES FROM ('2026-11-08') TO ('2026-11-09');
CREATE TABLE part_log_1109 PARTITION OF part_log FOR VALUES FROM ('2026-11-09') TO ('2026-11-10');
INSERT INTO part_log SELECT day, line FROM part_src;
CREATE TABLE flat_log AS SELECT line FROM part_src;
ANALYZE part_log;
ANALYZE flat_log;
SELECT tableoid::regclass AS partition, count(*), min(split_part(line, ' ', 1)), max(split_part(line, ' ', 1))
FROM part_log GROUP BY 1 ORDER BY 1;

SET max_parallel_workers_per_gather = 0;
SET enable_partitionwise_aggregate = on;

-- one state per partition (Partial Aggregate), merged once (Finalize Aggregate)
-- (PostgreSQL 17 and later print the InitPlan as "InitPlan 1": expected/partition_1.out)
EXPLAIN (COSTS OFF) SELECT logp95_agg(line) FROM part_log;
EXPLAIN (COSTS OFF) SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM part_log));

CREATE TABLE report_flat AS SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM flat_log));
CREATE TABLE report_part AS SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM part_log));
SELECT (SELECT count(*) FROM report_part) AS part_routes,
       (SELECT count(*) FROM report_flat) AS flat_routes,
       (SELECT sum(requests) FROM report_part) AS part_requests,
       (SELECT count(*) FROM (TABLE report_part EXCEPT TABLE report_flat) x) AS only_partitioned,
       (SELECT count(*) FROM (TABLE report_flat EXCEPT TABLE report_part) x) AS only_unpartitioned;
SELECT (SELECT logp95_agg(line) FROM part_log)::text
     = (SELECT logp95_agg(line) FROM flat_log)::text AS same_state;

-- grouping by the partition key: one complete aggregate per partition
EXPLAIN (COSTS OFF) SELECT day, logp95_agg(line) FROM part_log GROUP BY day;
SELECT p.day, count(*) AS routes, sum(r.requests) AS requests
FROM (SELECT day, logp95_agg(line) AS s FROM part_log GROUP BY day) p, LATERAL logp95_report(p.s) r
GROUP BY p.day ORDER BY p.day;
SELECT count(*) AS days,
       count(*) FILTER (WHERE p.s::text = f.s::text) AS equal_to_unpartitioned
FROM (SELECT day, logp95_agg(line) AS s FROM part_log GROUP BY day) p
JOIN (SELECT day, logp95_agg(line) AS s FROM part_src GROUP BY day) f USING (day);

-- daily states in a partitioned table: logp95_merge runs per partition and
-- its combine function merges the partial (expanded) states
CREATE TABLE part_rollup(day date NOT NULL, state logp95_state) PARTITION BY RANGE (day);
CREATE TABLE part_rollup_1107 PARTITION OF part_rollup FOR VALUES FROM ('2026-11-07') TO ('2026-11-08');
CREATE TABLE part_rollup_1108 PARTITION OF part_rollup FOR VALUES FROM ('2026-11-08') TO ('2026-11-09');
CREATE TABLE part_rollup_1109 PARTITION OF part_rollup FOR VALUES FROM ('2026-11-09') TO ('2026-11-10');
INSERT INTO part_rollup
SELECT day, logp95_agg(line) FROM part_log GROUP BY day, split_part(line, ' ', 2);
ANALYZE part_rollup;
SELECT count(*) AS states FROM part_rollup;
EXPLAIN (COSTS OFF) SELECT logp95_merge(state) FROM part_rollup;
SELECT (SELECT logp95_merge(state) FROM part_rollup)::text
     = (SELECT logp95_agg(line) FROM flat_log)::text AS merged_equals_unpartitioned;
SELECT count(*) AS differences FROM (
  (SELECT * FROM logp95_report((SELECT logp95_merge(state) FROM part_rollup)) EXCEPT ALL TABLE report_flat)
  UNION ALL
  (TABLE report_flat EXCEPT ALL SELECT * FROM logp95_report((SELECT logp95_merge(state) FROM part_rollup)))) d;

-- and with partitionwise aggregation off: one Aggregate over the Append, same answer
SET enable_partitionwise_aggregate = off;
EXPLAIN (COSTS OFF) SELECT logp95_agg(line) FROM part_log;
SELECT (SELECT logp95_agg(line) FROM part_log)::text
     = (SELECT logp95_agg(line) FROM flat_log)::text AS same_state_without_partitionwise;
RESET enable_partitionwise_aggregate;
RESET max_parallel_workers_per_gather;
