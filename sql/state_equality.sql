-- sql/state_equality.sql -- =, <>, order and hashing of logp95_state against independent references
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;

-- Whether the plan of a query has a node of that name: plans print
-- differently from version to version, so only the answer is printed.
CREATE FUNCTION eq_plan_has(query text, node text) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
    IF line LIKE '%' || node || '%' THEN
      RETURN true;
    END IF;
  END LOOP;
  RETURN false;
END $$;

-- The canonical bytes of a state, read from its text form (the tag of a
-- state with a non-ASCII route, then \x and the bytes in hex).
CREATE FUNCTION eq_bytes(s logp95_state) RETURNS bytea LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT decode(regexp_replace(s::text, '^([A-Za-z0-9_-]+:)?\\x', ''), 'hex')
$$;

-- ---------------------------------------------------------------------
-- Multisets of requests (route, ms), and near neighbours of them
-- ---------------------------------------------------------------------
CREATE TABLE eq_req(k int, id int, route text, ms bigint);
-- 1: 300 requests over five routes
INSERT INTO eq_req SELECT 1, i, '/r' || (i % 5), (i * 7919) % 500 FROM generate_series(1, 300) i;
-- 2: 1 and one more request with a value 1 has (one count differs)
INSERT INTO eq_req SELECT 2, id, route, ms FROM eq_req WHERE k = 1;
INSERT INTO eq_req SELECT 2, 301, route, ms FROM eq_req WHERE k = 1 AND id = 1;
-- 3: 1 with one value one higher
INSERT INTO eq_req SELECT 3, id, route, ms + (id = 7)::int FROM eq_req WHERE k = 1;
-- 4: 1 with one request on another route
INSERT INTO eq_req SELECT 4, id, CASE WHEN id = 7 THEN '/r5' ELSE route END, ms FROM eq_req WHERE k = 1;
-- 5: non-ASCII routes
INSERT INTO eq_req SELECT 5, i, (ARRAY['/café', '/日本', '/naïve', '/plain'])[1 + i % 4], i % 37
FROM generate_series(1, 200) i;
-- 6, 7, 8: one request each, differing in value or route
INSERT INTO eq_req VALUES (6, 1, '/a', 1), (7, 1, '/a', 2), (8, 1, '/b', 1);
-- 9: 2000 routes, 12000 requests (a state stored compressed or out of line)
INSERT INTO eq_req SELECT 9, i, '/route/' || (i % 2000), (i * 31) % 1009 FROM generate_series(1, 12000) i;
-- 10: 9 and one more request
INSERT INTO eq_req SELECT 10, id, route, ms FROM eq_req WHERE k = 9;
INSERT INTO eq_req VALUES (10, 12001, '/route/0', 1);
-- 11: large values, up to 2^62
INSERT INTO eq_req SELECT 11, i, '/big', (2::numeric ^ (i % 63))::bigint FROM generate_series(1, 100) i;

-- States made of them in different ways; ref is the independent
-- reference: the sorted multiset of requests and the malformed count.
CREATE TABLE eq_states(id serial, k int, malformed int, how text, s logp95_state, ref text);
CREATE FUNCTION eq_ref(kk int, m int) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT md5(coalesce(string_agg(route || ' ' || ms, E'\n' ORDER BY route COLLATE "C", ms), '')) || ' malformed ' || m
  FROM eq_req WHERE k = kk
$$;
INSERT INTO eq_states(k, malformed, how, s)
SELECT k, 0, 'pairs in order', logp95_agg(route, ms ORDER BY id) FROM eq_req GROUP BY k
UNION ALL
SELECT k, 0, 'pairs in reverse order', logp95_agg(route, ms ORDER BY id DESC) FROM eq_req GROUP BY k
UNION ALL
SELECT k, 0, 'pairs shuffled', logp95_agg(route, ms ORDER BY md5(id::text)) FROM eq_req GROUP BY k
UNION ALL
SELECT k, 0, 'lines', logp95_agg('2026-11-07T00:00:00 GET ' || route || ' ' || ms ORDER BY id DESC)
FROM eq_req WHERE route NOT LIKE '% %' GROUP BY k;
-- merged from parts, in both orders
INSERT INTO eq_states(k, malformed, how, s)
SELECT k, 0, 'merged from 3 parts', logp95_merge(s ORDER BY p)
FROM (SELECT k, id % 3 AS p, logp95_agg(route, ms) AS s FROM eq_req GROUP BY 1, 2) parts GROUP BY k
UNION ALL
SELECT k, 0, 'merged from 7 parts, last first', logp95_merge(s ORDER BY p DESC)
FROM (SELECT k, id % 7 AS p, logp95_agg(route, ms) AS s FROM eq_req GROUP BY 1, 2) parts GROUP BY k;
-- malformed lines counted: the same requests with 1 and 2 malformed lines
SET logp95.on_malformed = skip;
INSERT INTO eq_states(k, malformed, how, s)
SELECT k, m, format('lines and %s malformed', m),
       (SELECT logp95_agg(l) FROM (
          SELECT '2026-11-07T00:00:00 GET ' || route || ' ' || ms AS l FROM eq_req r WHERE r.k = kk.k
          UNION ALL SELECT 'not a line ' || j FROM generate_series(1, m) j) x)
FROM (SELECT DISTINCT k FROM eq_req WHERE k IN (1, 6, 9)) kk, generate_series(1, 2) m;
RESET logp95.on_malformed;
UPDATE eq_states SET ref = eq_ref(k, malformed);
-- states that no request made: empty, and only malformed lines
INSERT INTO eq_states(k, malformed, how, s, ref) VALUES
  (0, 0, 'empty', '\x010000', 'no requests malformed 0'),
  (0, 1, 'one malformed line', '\x010100', 'no requests malformed 1');
-- the same states read from their text form: with the encoding tag, without
-- it (in this UTF8 database the bytes are the same), and from LATIN1 and
-- WIN1252 (converted to UTF8)
INSERT INTO eq_states(k, malformed, how, s, ref)
SELECT k, malformed, 'text form, tag removed', regexp_replace(s::text, '^UTF8:', '')::logp95_state, ref
FROM eq_states WHERE k = 5 AND how = 'pairs in order';
INSERT INTO eq_states(k, malformed, how, s, ref)
SELECT k, malformed, 'text form, tagged', s::text::logp95_state, ref
FROM eq_states WHERE k = 5 AND how = 'pairs in order';
INSERT INTO eq_req VALUES (12, 1, '/café', 3), (13, 1, '/€', 1), (13, 2, '/é', 2), (13, 3, '/é', 2);
INSERT INTO eq_states(k, malformed, how, s, ref) VALUES
  (12, 0, 'pairs', (SELECT logp95_agg(route, ms) FROM eq_req WHERE k = 12), eq_ref(12, 0)),
  (12, 0, 'UTF8-tagged text', 'UTF8:\x010001062f636166c3a901020301', eq_ref(12, 0)),
  (12, 0, 'untagged text', '\x010001062f636166c3a901020301', eq_ref(12, 0)),
  (12, 0, 'LATIN1-tagged text', 'LATIN1:\x010001052f636166e901020301', eq_ref(12, 0)),
  (13, 0, 'pairs', (SELECT logp95_agg(route, ms) FROM eq_req WHERE k = 13), eq_ref(13, 0)),
  (13, 0, 'WIN1252-tagged text', 'WIN1252:\x010002022f8001020101022fe901020202', eq_ref(13, 0));
-- serial and parallel aggregates of the same lines
CREATE TABLE eq_lines(line text);
INSERT INTO eq_lines SELECT l FROM logp95_generate(20000, 100, 21) l;
ANALYZE eq_lines;
INSERT INTO eq_req SELECT 14, row_number() OVER (), split_part(line, ' ', 3), split_part(line, ' ', 4)::bigint FROM eq_lines;
SET max_parallel_workers_per_gather = 0;
INSERT INTO eq_states(k, malformed, how, s, ref)
SELECT 14, 0, 'serial', logp95_agg(line), eq_ref(14, 0) FROM eq_lines;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET parallel_leader_participation = off;
-- (an INSERT never runs in parallel: the state goes through a variable)
SELECT eq_plan_has('SELECT logp95_agg(line) FROM eq_lines', 'Gather') AS parallel_plan;
SELECT logp95_agg(line) AS parallel_state FROM eq_lines \gset
INSERT INTO eq_states(k, malformed, how, s, ref) VALUES (14, 0, 'parallel', :'parallel_state', eq_ref(14, 0));
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET parallel_leader_participation;
SELECT (SELECT s FROM eq_states WHERE how = 'parallel') = (SELECT s FROM eq_states WHERE how = 'serial')
       AS parallel_equals_serial;
ANALYZE eq_states;

SELECT count(*) AS states, count(DISTINCT k) AS multisets, count(DISTINCT ref) AS references
FROM eq_states;

-- ---------------------------------------------------------------------
-- = and <> against the references, over every pair of states
-- ---------------------------------------------------------------------
-- equal states <=> equal multisets and malformed counts <=> equal
-- logp95_state_send bytes; equal states => equal reports and hashes
CREATE TABLE eq_facts AS
SELECT id, s, ref, logp95_state_send(s) AS sent, eq_bytes(s) AS bytes,
       (SELECT coalesce(string_agg(r::text, ';' ORDER BY r.route COLLATE "C"), '') FROM logp95_report(s) r)
         || ' malformed ' || logp95_malformed(s) AS report,
       logp95_state_hash(s) AS h, logp95_state_hash_extended(s, 0) AS hx0,
       logp95_state_hash_extended(s, 42) AS hx42
FROM eq_states;
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE a.s = b.s) AS equal_pairs,
       count(*) FILTER (WHERE (a.s = b.s) <> (a.ref = b.ref)) AS eq_not_reference,
       count(*) FILTER (WHERE (a.s <> b.s) <> (a.ref <> b.ref)) AS ne_not_reference,
       count(*) FILTER (WHERE (a.s = b.s) <> (a.sent = b.sent)) AS eq_not_send_bytes,
       count(*) FILTER (WHERE a.s = b.s AND a.report <> b.report) AS equal_but_reports_differ,
       count(*) FILTER (WHERE a.s = b.s AND (a.h <> b.h OR a.hx0 <> b.hx0 OR a.hx42 <> b.hx42)) AS equal_but_hashes_differ
FROM eq_facts a, eq_facts b;
-- the hash is of the bytes: states that differ hash apart here, and the seed matters
SELECT count(DISTINCT h) = count(DISTINCT ref) AS hashes_apart,
       count(*) FILTER (WHERE hx0 = hx42) AS seed_ignored
FROM eq_facts;
-- which states are equal to which, by reference groups: the near
-- neighbours (one count, one value, one route, one malformed line) differ
SELECT k, malformed, count(*) AS states, count(DISTINCT s::text) AS distinct_texts,
       bool_and(s = (SELECT s FROM eq_states f WHERE f.ref = e.ref ORDER BY id LIMIT 1)) AS all_equal
FROM eq_states e GROUP BY k, malformed ORDER BY k, malformed;
SELECT a.k AS a, b.k AS b, a.s = b.s AS equal, a.s <> b.s AS unequal
FROM eq_states a, eq_states b
WHERE a.how = 'pairs in order' AND b.how = 'pairs in order' AND (a.k, b.k) IN ((1, 2), (1, 3), (1, 4), (6, 7), (6, 8), (9, 10))
ORDER BY 1, 2;
SELECT a.how, b.how, a.s = b.s AS equal
FROM eq_states a, eq_states b
WHERE a.k = 1 AND b.k = 1 AND a.how = 'lines' AND b.how IN ('lines and 1 malformed', 'lines and 2 malformed')
ORDER BY 2;
-- the tagged, untagged and converted text forms give equal states
SELECT how, s = (SELECT s FROM eq_states WHERE k = e.k AND how LIKE 'pairs%' ORDER BY id LIMIT 1) AS equals_aggregated,
       logp95_state_send(s) = (SELECT logp95_state_send(s) FROM eq_states WHERE k = e.k AND how LIKE 'pairs%' ORDER BY id LIMIT 1) AS same_send_bytes
FROM eq_states e WHERE k IN (5, 12, 13) AND how NOT LIKE 'pairs%' AND how NOT LIKE 'merged%' ORDER BY k, id;
SELECT count(DISTINCT s) AS one_state
FROM (VALUES ('UTF8:\x010001062f636166c3a901020301'::logp95_state),
             ('\x010001062f636166c3a901020301'),
             ('utf-8:\x010001062f636166c3a901020301'),
             ('LATIN1:\x010001052f636166e901020301')) v(s);
-- NULL and the operators: strict
SELECT NULL::logp95_state = '\x010000' AS eq_null, NULL::logp95_state <> '\x010000' AS ne_null,
       NULL::logp95_state IS DISTINCT FROM '\x010000' AS distinct_from_null;

-- ---------------------------------------------------------------------
-- Order: bytewise over the canonical bytes (bytea's order)
-- ---------------------------------------------------------------------
SELECT count(*) FILTER (WHERE (a.s < b.s) <> (a.bytes < b.bytes)) AS lt_wrong,
       count(*) FILTER (WHERE (a.s <= b.s) <> (a.bytes <= b.bytes)) AS le_wrong,
       count(*) FILTER (WHERE (a.s > b.s) <> (a.bytes > b.bytes)) AS gt_wrong,
       count(*) FILTER (WHERE (a.s >= b.s) <> (a.bytes >= b.bytes)) AS ge_wrong,
       count(*) FILTER (WHERE (a.s = b.s) <> (a.bytes = b.bytes)) AS eq_wrong,
       count(*) FILTER (WHERE logp95_state_cmp(a.s, b.s)
                              <> CASE WHEN a.bytes < b.bytes THEN -1 WHEN a.bytes > b.bytes THEN 1 ELSE 0 END) AS cmp_wrong
FROM eq_facts a, eq_facts b;
-- a prefix sorts first; then the first byte that differs decides
SELECT '\x010000'::logp95_state < '\x010100' AS malformed_after_empty,
       '\x010001022f6101020101'::logp95_state < '\x010001022f6101020201' AS smaller_value_first,
       logp95_state_cmp('\x010001022f6101020201', '\x010001022f6101020101') AS cmp_greater,
       logp95_state_cmp('\x010001022f6101020101', '\x010001022f6101020101') AS cmp_equal;
SELECT array_agg(id ORDER BY s, id) = array_agg(id ORDER BY bytes, id) AS order_by_is_bytewise
FROM eq_facts;

-- ---------------------------------------------------------------------
-- DISTINCT, UNION, GROUP BY: hashed and sorted
-- ---------------------------------------------------------------------
-- a group by its size and members (no ordered aggregate: those are never hashed)
CREATE VIEW eq_groups AS
  SELECT count(*) AS n, min(id) AS first, sum(id) AS ids FROM eq_states GROUP BY s;
CREATE VIEW eq_groups_ref AS
  SELECT count(*) AS n, min(id) AS first, sum(id) AS ids FROM eq_states GROUP BY ref;
SET enable_sort = off;
SELECT eq_plan_has('SELECT DISTINCT s FROM eq_states', 'HashAggregate') AS distinct_hashed,
       eq_plan_has('SELECT s FROM eq_states UNION SELECT s FROM eq_states', 'HashAggregate') AS union_hashed,
       eq_plan_has('SELECT * FROM eq_groups', 'HashAggregate') AS group_by_hashed;
SELECT (SELECT count(*) FROM (SELECT DISTINCT s FROM eq_states) d) AS distinct_states,
       (SELECT count(*) FROM (SELECT s FROM eq_states WHERE how LIKE 'pairs%'
                              UNION SELECT s FROM eq_states WHERE how NOT LIKE 'pairs%') u) AS union_states,
       (SELECT count(*) FROM (SELECT ref FROM eq_states WHERE how LIKE 'pairs%'
                              UNION SELECT ref FROM eq_states WHERE how NOT LIKE 'pairs%') u) AS union_refs,
       (SELECT count(*) FROM (SELECT * FROM eq_groups EXCEPT SELECT * FROM eq_groups_ref) x)
     + (SELECT count(*) FROM (SELECT * FROM eq_groups_ref EXCEPT SELECT * FROM eq_groups) x) AS groups_not_reference;
RESET enable_sort;
SET enable_hashagg = off;
SELECT eq_plan_has('SELECT DISTINCT s FROM eq_states', 'Sort') AS distinct_sorted,
       eq_plan_has('SELECT s FROM eq_states UNION SELECT s FROM eq_states', 'Sort') AS union_sorted,
       eq_plan_has('SELECT * FROM eq_groups', 'GroupAggregate') AS group_by_sorted;
SELECT (SELECT count(*) FROM (SELECT DISTINCT s FROM eq_states) d) AS distinct_states,
       (SELECT count(*) FROM (SELECT s FROM eq_states WHERE how LIKE 'pairs%'
                              UNION SELECT s FROM eq_states WHERE how NOT LIKE 'pairs%') u) AS union_states,
       (SELECT count(*) FROM (SELECT * FROM eq_groups EXCEPT SELECT * FROM eq_groups_ref) x)
     + (SELECT count(*) FROM (SELECT * FROM eq_groups_ref EXCEPT SELECT * FROM eq_groups) x) AS groups_not_reference;
RESET enable_hashagg;
-- count(DISTINCT) sorts
SELECT count(DISTINCT s) AS distinct_states, count(DISTINCT ref) AS distinct_refs FROM eq_states;

-- ---------------------------------------------------------------------
-- Joins on states: hash join and merge join find the reference's pairs
-- ---------------------------------------------------------------------
SELECT count(*) AS reference_pairs FROM eq_states a JOIN eq_states b ON a.ref = b.ref;
SET enable_nestloop = off;
SET enable_mergejoin = off;
SELECT eq_plan_has('SELECT * FROM eq_states a JOIN eq_states b ON a.s = b.s', 'Hash Join') AS hash_join;
SELECT count(*) AS hash_join_pairs FROM eq_states a JOIN eq_states b ON a.s = b.s;
RESET enable_mergejoin;
SET enable_hashjoin = off;
SELECT eq_plan_has('SELECT * FROM eq_states a JOIN eq_states b ON a.s = b.s', 'Merge Join') AS merge_join;
SELECT count(*) AS merge_join_pairs FROM eq_states a JOIN eq_states b ON a.s = b.s;
RESET enable_hashjoin;
RESET enable_nestloop;

-- ---------------------------------------------------------------------
-- A state stored compressed equals the same state stored out of line
-- uncompressed and the same state in memory
-- ---------------------------------------------------------------------
CREATE TABLE eq_compressed(k int, s logp95_state);
CREATE TABLE eq_external(k int, s logp95_state);
ALTER TABLE eq_external ALTER COLUMN s SET STORAGE external;
INSERT INTO eq_compressed SELECT k, s FROM eq_states WHERE k IN (9, 10) AND how = 'pairs in order';
-- (made afresh: a value copied from another table would stay compressed)
INSERT INTO eq_external SELECT k, logp95_agg(route, ms) FROM eq_req WHERE k IN (9, 10) GROUP BY k;
SELECT k, pg_column_size(c.s) < pg_column_size(e.s) / 2 AS compressed_below_half
FROM eq_compressed c JOIN eq_external e USING (k) ORDER BY k;
SELECT c.k AS compressed, e.k AS external, c.s = e.s AS equal, c.s <> e.s AS unequal,
       logp95_state_hash(c.s) = logp95_state_hash(e.s) AS same_hash,
       c.s = (SELECT logp95_agg(route, ms) FROM eq_req r WHERE r.k = e.k) AS equals_in_memory
FROM eq_compressed c, eq_external e ORDER BY 1, 2;
SET enable_nestloop = off;
SET enable_mergejoin = off;
SELECT eq_plan_has('SELECT * FROM eq_compressed c JOIN eq_external e ON c.s = e.s', 'Hash Join') AS hash_join;
SELECT c.k, e.k FROM eq_compressed c JOIN eq_external e ON c.s = e.s ORDER BY 1;
RESET enable_mergejoin;
RESET enable_nestloop;

-- ---------------------------------------------------------------------
-- Indexes: btree (a unique one refuses a second equal state) and hash
-- ---------------------------------------------------------------------
-- A btree index holds the states themselves, so a large one does not fit
-- (as for any large value); a hash index holds only their hashes.
DO $$
BEGIN
  CREATE INDEX eq_states_btree ON eq_states (s);
EXCEPTION WHEN program_limit_exceeded THEN
  RAISE NOTICE 'a large state does not fit into a btree index (%)', SQLSTATE;
END $$;
CREATE TABLE eq_small AS SELECT * FROM eq_states WHERE length(logp95_state_send(s)) < 2000;
SELECT count(*) AS small_states, count(DISTINCT ref) AS small_references FROM eq_small;
CREATE INDEX eq_small_btree ON eq_small (s);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT eq_plan_has('SELECT id FROM eq_small WHERE s = ''\x010000''', 'eq_small_btree') AS btree_used;
SELECT count(*) FILTER (WHERE found <> expected) AS lookups_wrong, count(*) AS lookups
FROM (SELECT (SELECT count(*) FROM eq_small b WHERE b.s = a.s) AS found,
             (SELECT count(*) FROM eq_small b WHERE b.ref = a.ref) AS expected
      FROM eq_small a) x;
CREATE INDEX eq_states_hash ON eq_states USING hash (s);
SELECT eq_plan_has('SELECT id FROM eq_states WHERE s = ''\x010000''', 'eq_states_hash') AS hash_index_used;
SELECT count(*) FILTER (WHERE found <> expected) AS lookups_wrong, count(*) AS lookups
FROM (SELECT (SELECT count(*) FROM eq_states b WHERE b.s = a.s) AS found,
             (SELECT count(*) FROM eq_states b WHERE b.ref = a.ref) AS expected
      FROM eq_states a) x;
DROP INDEX eq_states_hash;
RESET enable_bitmapscan;
RESET enable_seqscan;
CREATE TABLE eq_unique(s logp95_state UNIQUE);
INSERT INTO eq_unique VALUES ('UTF8:\x010001062f636166c3a901020301');
INSERT INTO eq_unique VALUES ('LATIN1:\x010001052f636166e901020301');
INSERT INTO eq_unique VALUES ('\x010001022f6101020101') ON CONFLICT (s) DO NOTHING;
INSERT INTO eq_unique VALUES ('\x010001022f6101020101') ON CONFLICT (s) DO NOTHING;
SELECT count(*) FROM eq_unique;

-- ---------------------------------------------------------------------
-- Hash partitioning on a state: equal states share a partition, and a
-- lookup prunes to it
-- ---------------------------------------------------------------------
CREATE TABLE eq_part(id int, s logp95_state) PARTITION BY HASH (s);
CREATE TABLE eq_part_0 PARTITION OF eq_part FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE eq_part_1 PARTITION OF eq_part FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE eq_part_2 PARTITION OF eq_part FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE eq_part_3 PARTITION OF eq_part FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO eq_part SELECT id, s FROM eq_states;
SELECT count(*) AS rows, count(DISTINCT tableoid) > 1 AS spread,
       (SELECT count(*) FROM (SELECT ref FROM eq_part JOIN eq_states USING (id)
                              GROUP BY ref HAVING count(DISTINCT eq_part.tableoid) > 1) x) AS refs_split
FROM eq_part;
-- every row sits where satisfies_hash_partition, PostgreSQL's own
-- partition check, puts it
SELECT count(*) FILTER (WHERE NOT satisfies_hash_partition('eq_part'::regclass, 4,
                         substr(tableoid::regclass::text, 9)::int, s)) AS misplaced
FROM eq_part;
-- a lookup by state scans one partition and finds the reference's rows
CREATE FUNCTION eq_partitions_scanned(query text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  line text;
  n int := 0;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
    IF line ~ 'Scan on eq_part_' THEN
      n := n + 1;
    END IF;
  END LOOP;
  RETURN n;
END $$;
SELECT eq_partitions_scanned('SELECT * FROM eq_part WHERE s = ''UTF8:\x010001062f636166c3a901020301''') AS partitions_scanned;
SELECT (SELECT count(*) FROM eq_part WHERE s = 'LATIN1:\x010001052f636166e901020301') AS found,
       (SELECT count(*) FROM eq_states WHERE ref = eq_ref(12, 0)) AS expected;
