-- sql/merge.sql -- merging parts gives exactly the aggregate of the whole
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;
CREATE TABLE merge_log(id bigserial, line text);
INSERT INTO merge_log(line) SELECT l FROM logp95_generate(30000, 50, 11) l;
CREATE TABLE whole AS SELECT logp95_agg(line) AS s FROM merge_log;

-- the encoding is canonical: equal distributions give equal bytes
SELECT (SELECT logp95_merge(s) FROM (SELECT logp95_agg(line) AS s FROM merge_log GROUP BY id % 3) p)::text
     = (SELECT s FROM whole)::text AS three_parts_equal_whole,
       (SELECT logp95_merge(s) FROM (SELECT logp95_agg(line) AS s FROM merge_log GROUP BY id / 1000) p)::text
     = (SELECT s FROM whole)::text AS thirty_time_slices_equal_whole,
       (SELECT logp95_merge(s) FROM (SELECT logp95_agg(line) AS s FROM merge_log GROUP BY id) p)::text
     = (SELECT s FROM whole)::text AS one_state_per_line_equal_whole;

-- and route for route in the report
SELECT count(*) AS differences FROM (
  (SELECT * FROM logp95_report((SELECT logp95_merge(s) FROM (SELECT logp95_agg(line) AS s FROM merge_log GROUP BY id % 7) p))
   EXCEPT ALL SELECT * FROM logp95_report((SELECT s FROM whole)))
  UNION ALL
  (SELECT * FROM logp95_report((SELECT s FROM whole))
   EXCEPT ALL SELECT * FROM logp95_report((SELECT logp95_merge(s) FROM (SELECT logp95_agg(line) AS s FROM merge_log GROUP BY id % 7) p)))) d;

-- merging a state with itself doubles every count and keeps every percentile
SELECT bool_and(d.requests = 2 * w.requests AND d.p50_ms = w.p50_ms AND d.p95_ms = w.p95_ms
                AND d.p99_ms = w.p99_ms AND d.max_ms = w.max_ms) AS doubled, count(*) AS routes
FROM logp95_report((SELECT s FROM whole)) w
JOIN logp95_report((SELECT logp95_merge(s) FROM (SELECT s FROM whole UNION ALL SELECT s FROM whole) x)) d USING (route);

-- merge of merges (rollups of rollups), and merge of a single state is that state
SELECT (SELECT logp95_merge(m) FROM (SELECT logp95_merge(s) AS m FROM (SELECT id % 10 AS k, logp95_agg(line) AS s FROM merge_log GROUP BY 1) a GROUP BY k % 3) b)::text
     = (SELECT s FROM whole)::text AS nested_equal,
       (SELECT logp95_merge(s) FROM whole)::text = (SELECT s FROM whole)::text AS single_equal;

-- the structured aggregate agrees with the line aggregate
SELECT (SELECT logp95_agg(split_part(line, ' ', 3), split_part(line, ' ', 4)::bigint) FROM merge_log)::text
     = (SELECT s FROM whole)::text AS structured_equal_lines;
