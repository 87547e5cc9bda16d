-- sql/memory.sql -- memory of the running states and of the walks: contexts and bytes counted, never time
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;
SET max_parallel_workers_per_gather = 0;

-- What the backend holds for logp95 states right now: the memory contexts
-- whose name says logp95, and the bytes of the chunks allocated in them
-- (pg_backend_memory_contexts).  A query calls it from its target list, so
-- it runs while the query's aggregates are alive.
CREATE FUNCTION mem_logp95(OUT contexts bigint, OUT bytes bigint)
LANGUAGE sql VOLATILE PARALLEL RESTRICTED AS $$
	SELECT count(*), coalesce(sum(used_bytes), 0)::bigint
	FROM pg_backend_memory_contexts
	WHERE name LIKE '%logp95%' AND name <> 'logp95 retained blocks'
$$;
-- The bytes of the backend's retained blocks (logp95.retained_memory): the
-- blocks states hold now and those kept for the next ones.
CREATE FUNCTION mem_retained() RETURNS bigint
LANGUAGE sql VOLATILE PARALLEL RESTRICTED AS $$
	SELECT coalesce(sum(total_bytes), 0)::bigint
	FROM pg_backend_memory_contexts WHERE name = 'logp95 retained blocks'
$$;
-- All the memory contexts of the backend hold, in bytes.
CREATE FUNCTION mem_backend() RETURNS bigint
LANGUAGE sql VOLATILE PARALLEL RESTRICTED AS $$
	SELECT sum(total_bytes)::bigint FROM pg_backend_memory_contexts
$$;
-- The nodes of a query's plan, run (EXPLAIN ANALYZE, JSON), each once.
CREATE FUNCTION plan_nodes(query text) RETURNS SETOF json
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
	stack json[];
	n json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) ' || query INTO plan;
	stack := ARRAY[plan -> 0 -> 'Plan'];
	WHILE cardinality(stack) > 0 LOOP
		n := stack[1];
		stack := stack[2:] || ARRAY(SELECT json_array_elements(coalesce(n -> 'Plans', '[]')));
		RETURN NEXT n;
	END LOOP;
END
$$;

-- 20,000 lines over 2,000 minutes (10 a minute), 50 routes: GROUP BY minute,
-- the rollup everybody runs.
CREATE TEMP TABLE minutes AS
  SELECT i / 10 AS minute, format('2026-11-07T00:00:00 GET /api/%s %s', i % 50, i % 997) AS line
  FROM generate_series(0, 19999) i;
ANALYZE minutes;

-- ---------- hash aggregation: one context for all the groups' states ----------
-- Hash aggregation measures its memory (MemoryContextMemAllocated, every
-- child context) at each new group: one context per group's state made
-- that quadratic in the groups.  The states live in one context per
-- aggregate context instead.  Counted when the first group leaves the hash
-- table, which then holds all 2,000 (an InitPlan runs on first use; a
-- work_mem of 1GB, because hash aggregation also caps the groups of a batch
-- at its memory over the aggregate's SSPACE, 64 kB).
SET enable_sort = off;
SET work_mem = '1GB';
EXPLAIN (COSTS OFF) SELECT minute, logp95_agg(line) FROM minutes GROUP BY minute;
SELECT count(s) AS groups,
       CASE WHEN max(n) = 1 THEN 'one' ELSE max(n) || ' contexts' END AS state_contexts
FROM (SELECT minute, logp95_agg(line) AS s, (SELECT contexts FROM mem_logp95()) AS n
      FROM minutes GROUP BY minute) g;
-- and a group of one line takes a few kB, not the 64 kB key block it once had
SELECT count(s) AS groups,
       CASE WHEN max(n) = 1 THEN 'one' ELSE max(n) || ' contexts' END AS state_contexts,
       CASE WHEN max(b) / count(*) <= 8192 THEN 'at most 8 kB'
            ELSE max(b) / count(*) || ' bytes' END AS bytes_a_group
FROM (SELECT i, logp95_agg('2026-11-07T00:00:00 GET /api/' || i || ' 5') AS s,
             (SELECT contexts FROM mem_logp95()) AS n, (SELECT bytes FROM mem_logp95()) AS b
      FROM generate_series(1, 2000) i GROUP BY i) g;
CREATE TEMP TABLE by_minute_hashed AS SELECT minute, logp95_agg(line) AS s FROM minutes GROUP BY minute;

-- spilling to disk (work_mem 64 kB: several batches, the states of each
-- batch dropped with it): the same states
SET work_mem = '64kB';
SELECT max((n ->> 'HashAgg Batches')::int) > 1 AS spilled
FROM plan_nodes('SELECT minute, logp95_agg(line) FROM minutes GROUP BY minute') n;
SELECT count(*) AS groups,
       count(*) FILTER (WHERE h.s::text = x.s::text) AS same_state
FROM (SELECT minute, logp95_agg(line) AS s FROM minutes GROUP BY minute) x
JOIN by_minute_hashed h USING (minute);
SELECT count(s) AS groups, CASE WHEN max(n) = 1 THEN 'one' ELSE max(n) || ' contexts' END AS state_contexts
FROM (SELECT minute, logp95_agg(line) AS s, (SELECT contexts FROM mem_logp95()) AS n FROM minutes GROUP BY minute) g;

-- logp95_merge, hashed: the same contexts and the same states
SET work_mem = '1GB';
SELECT count(*) AS groups,
       CASE WHEN max(n) = 1 THEN 'one' ELSE max(n) || ' contexts' END AS state_contexts,
       count(*) FILTER (WHERE t.s::text = x.s::text) AS same_state
FROM (SELECT minute / 10 AS ten, logp95_merge(s) AS s, (SELECT contexts FROM mem_logp95()) AS n
      FROM by_minute_hashed GROUP BY 1) x
JOIN (SELECT minute / 10 AS ten, logp95_agg(line) AS s FROM minutes GROUP BY 1) t USING (ten);
-- grouping sets, hashed and then sorted: each set's states are those of its own GROUP BY
CREATE TEMP TABLE by_set AS
  SELECT minute / 100 AS a, NULL::int AS b, 1 AS gr, logp95_agg(line) AS s FROM minutes GROUP BY 1
  UNION ALL SELECT NULL, minute % 7, 2, logp95_agg(line) FROM minutes GROUP BY 2
  UNION ALL SELECT NULL, NULL, 3, logp95_agg(line) FROM minutes;
CREATE TEMP VIEW by_set_check AS
  SELECT count(*) AS groups, count(*) FILTER (WHERE g.s::text = r.s::text) AS same_state
  FROM (SELECT minute / 100 AS a, minute % 7 AS b, grouping(minute / 100, minute % 7) AS gr,
               logp95_agg(line) AS s
        FROM minutes GROUP BY GROUPING SETS ((minute / 100), (minute % 7), ())) g
  JOIN by_set r ON g.gr = r.gr AND g.a IS NOT DISTINCT FROM r.a AND g.b IS NOT DISTINCT FROM r.b;
SET enable_sort = off;
SELECT string_agg(n ->> 'Strategy', ',') AS strategy
FROM plan_nodes('SELECT * FROM by_set_check') n WHERE n ->> 'Strategy' <> 'Plain';
SELECT * FROM by_set_check;
RESET enable_sort;
SET enable_hashagg = off;
SELECT string_agg(n ->> 'Strategy', ',') AS strategy
FROM plan_nodes('SELECT * FROM by_set_check') n WHERE n ->> 'Strategy' <> 'Plain';
SELECT * FROM by_set_check;
RESET enable_hashagg;

-- ---------- sorted grouping and plain aggregation: the same states ----------
SET enable_hashagg = off;
EXPLAIN (COSTS OFF) SELECT minute, logp95_agg(line) FROM minutes GROUP BY minute;
SELECT count(*) AS groups,
       count(*) FILTER (WHERE h.s::text = x.s::text) AS same_state,
       CASE WHEN max(n) = 1 THEN 'one' ELSE max(n) || ' contexts' END AS state_contexts
FROM (SELECT minute, logp95_agg(line) AS s, (SELECT contexts FROM mem_logp95()) AS n FROM minutes GROUP BY minute) x
JOIN by_minute_hashed h USING (minute);
RESET enable_hashagg;
SELECT (SELECT logp95_agg(line) FROM minutes)::text
     = (SELECT logp95_merge(s) FROM by_minute_hashed)::text AS plain_equals_merged;

-- ---------- window frames ----------
-- a running frame flattens the state at every row: that takes no memory
-- for good (it once left 32 bytes a row in the state's context).  The
-- states' bytes, sampled every 10,000 rows, stay the same.
SELECT count(*) AS samples,
       CASE WHEN max(b) = min(b) THEN 'none' ELSE (max(b) - min(b)) / 40000 || ' bytes a row' END AS growth
FROM (SELECT i, CASE WHEN i % 10000 = 0 THEN (mem_logp95()).bytes END AS b
      FROM (SELECT i, logp95_agg('a', 1::bigint) OVER (ORDER BY i) AS x
            FROM generate_series(1, 60000) i) w
      WHERE x IS NOT NULL) y
WHERE b IS NOT NULL AND i >= 20000;
-- running and moving frames give what the aggregate gives over the frame
SELECT count(*) AS rows,
       count(*) FILTER (WHERE w.run::text = (SELECT logp95_agg(line) FROM minutes m2
                                              WHERE m2.minute <= w.minute AND m2.minute >= 1990)::text) AS running_ok,
       count(*) FILTER (WHERE w.mov::text = (SELECT logp95_agg(line) FROM minutes m2
                                              WHERE m2.minute BETWEEN w.minute - 2 AND w.minute
                                                AND m2.minute >= 1990)::text) AS moving_ok
FROM (SELECT minute,
             logp95_agg(line) OVER (ORDER BY minute RANGE UNBOUNDED PRECEDING) AS run,
             logp95_agg(line) OVER (ORDER BY minute RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) AS mov
      FROM minutes WHERE minute >= 1990) w;

-- ---------- set-returning walks: memory of one route at a time ----------
-- logp95_percentiles of 200 routes x 50,000 fractions: a row of 400 kB per
-- route.  The backend's memory when the first row comes out (read at that
-- row) is bounded by one row, not by all of them (80 MB once).
SET work_mem = '4MB';
CREATE TEMP TABLE pst AS SELECT logp95_agg('r' || (i % 200), i % 1000) AS s FROM generate_series(1, 20000) i;
SELECT count(*) AS routes,
       CASE WHEN max(b) < 32 * 1024 * 1024 THEN 'under 32 MB' ELSE max(b) / 1024 || ' kB' END AS backend_memory
FROM (SELECT p.route, CASE WHEN p.route = 'r0' THEN mem_backend() END AS b
      FROM logp95_percentiles((SELECT s FROM pst), array_fill(0.5::float8, ARRAY[50000])) p) y;
RESET work_mem;

-- ---------- limits, named ----------
\set VERBOSITY sqlstate
-- more fractions than logp95_percentiles can sort: 54000, before it allocates
SELECT count(*) FROM logp95_percentiles('\x010000', array_fill(NULL::float8, ARRAY[67108863]));
\set VERBOSITY default
SELECT count(*) FROM logp95_percentiles('\x010000', array_fill(NULL::float8, ARRAY[67108863]));
-- a malformed count past bigint names the malformed count
SELECT logp95_merge_combine('\x01ffffffffffffffff7f00', '\x010100');
SELECT logp95_merge(s) FROM (VALUES ('\x01ffffffffffffffff7f00'::logp95_state), ('\x010100')) v(s);
-- INT64_MAX malformed lines is still a state
SELECT logp95_malformed(logp95_merge_combine('\x01feffffffffffffff7f00', '\x010100'));

-- ---------- retained blocks: a state's large blocks kept for the next query ----------
-- 10 routes, each with every latency from 0 to 19,999 ms: dense arrays of
-- 32,768 counts (128 kB) and the smaller ones they grew from.  Outside
-- hashed aggregation a state's blocks of a power of two from 256 bytes are the
-- backend's retained blocks, kept up to logp95.retained_memory (8MB) after
-- the query instead of given back to the system.
SHOW logp95.retained_memory;
CREATE TEMP TABLE wide AS
  SELECT 'r' || (i % 10) AS route, ((i / 10) % 20000)::bigint AS ms FROM generate_series(0, 199999) i;
-- the reference: p95 at 0-based index min(floor(n * 0.95), n - 1) of the sorted latencies
CREATE TEMP TABLE wide_ref AS
  SELECT route, count(*) AS n,
         (array_agg(ms ORDER BY ms))[least(floor(count(*) * 0.95)::int, count(*)::int - 1) + 1] AS p95
  FROM wide GROUP BY route;
SET logp95.retained_memory = 0;
CREATE TEMP TABLE wide_state AS SELECT logp95_agg(route, ms) AS s FROM wide;
SELECT CASE WHEN mem_retained() < 65536 THEN 'none kept' ELSE mem_retained() || ' bytes' END AS retained_off;
RESET logp95.retained_memory;
-- while the query runs, its state's blocks are in the retained context;
-- after it they stay there, and the next query takes the same ones (the
-- context does not grow); every state the same as without them
SELECT CASE WHEN max(b) > 1024 * 1024 THEN 'over 1 MB' ELSE max(b) || ' bytes' END AS during,
       bool_and(x.s::text = (SELECT s::text FROM wide_state)) AS same_state
FROM (SELECT logp95_agg(route, ms) AS s, (SELECT mem_retained()) AS b FROM wide) x;
SELECT mem_retained() AS after_first \gset
SELECT CASE WHEN :after_first BETWEEN 1024 * 1024 AND 8 * 1024 * 1024 + 65536 THEN 'kept, at most 8 MB'
            ELSE :after_first || ' bytes' END AS kept;
SELECT count(*) AS routes,
       count(*) FILTER (WHERE r.p95_ms = w.p95 AND r.requests = w.n) AS as_reference
FROM logp95_report((SELECT logp95_agg(route, ms) FROM wide)) r JOIN wide_ref w USING (route);
SELECT CASE WHEN mem_retained() = :after_first THEN 'the same blocks'
            ELSE mem_retained() - :after_first || ' bytes more' END AS second_query;
-- a sorted GROUP BY: each group's blocks go back when its group ends and the
-- next group takes them
SET enable_hashagg = off;
SELECT count(*) AS groups, bool_and(g.s::text = (SELECT logp95_agg(route, ms) FROM wide w2 WHERE w2.route = g.route)::text) AS same_state
FROM (SELECT route, logp95_agg(route, ms) AS s FROM wide GROUP BY route) g;
RESET enable_hashagg;
SELECT CASE WHEN mem_retained() <= 8 * 1024 * 1024 + 65536 THEN 'at most 8 MB' ELSE mem_retained() || ' bytes' END AS after_sorted;
-- a smaller limit frees what is over it at once, and bounds what is kept
SET logp95.retained_memory = '256kB';
SELECT CASE WHEN mem_retained() <= 256 * 1024 + 65536 THEN 'at most 256 kB' ELSE mem_retained() || ' bytes' END AS lowered;
SELECT count(*) AS routes FROM logp95_report((SELECT logp95_agg(route, ms) FROM wide));
SELECT CASE WHEN mem_retained() <= 256 * 1024 + 65536 THEN 'at most 256 kB' ELSE mem_retained() || ' bytes' END AS bounded;
RESET logp95.retained_memory;
-- a merge's blocks of more than 8 kB of no power of two (the copies of the
-- states it adds up, 133 kB each here, the sum it writes and the buffers
-- it merges their pairs in) are rounded up to one and kept too: the
-- retained context holds them after the first merge (without the
-- rounding: a few kB), and the second merge takes the same ones; the sum
-- is the whole state's
CREATE TEMP TABLE wide_parts AS
  SELECT p, logp95_agg(route, ms) AS s
  FROM (SELECT route, ms, row_number() OVER () % 3 AS p FROM wide) w GROUP BY p;
SET logp95.retained_memory = 0;
RESET logp95.retained_memory;
SELECT count(*) AS parts, min(octet_length(logp95_state_send(s))) > 8192 AS each_over_8kB FROM wide_parts;
SELECT (SELECT logp95_merge(s) FROM wide_parts)::text = (SELECT s::text FROM wide_state) AS merged_is_whole;
SELECT mem_retained() AS after_merge \gset
SELECT CASE WHEN :after_merge > 3 * 133000 THEN 'over 3 x 133 kB kept' ELSE :after_merge || ' bytes' END AS merge_kept;
SELECT count(*) AS routes,
       count(*) FILTER (WHERE r.p95_ms = w.p95 AND r.requests = w.n) AS as_reference
FROM logp95_report((SELECT logp95_merge(s) FROM wide_parts)) r JOIN wide_ref w USING (route);
SELECT CASE WHEN mem_retained() = :after_merge THEN 'the same blocks'
            ELSE mem_retained() - :after_merge || ' bytes more' END AS second_merge;
-- an ERROR in the middle of a query gives its state's blocks back (the
-- context's reset callback): none is lost, as setting 0 then shows
SELECT count(*) FROM logp95_report((SELECT logp95_agg(route, ms) FROM wide));
SELECT logp95_agg(route, CASE WHEN ms = 19999 AND route = 'r9' THEN -1 ELSE ms END) FROM wide;
SET logp95.retained_memory = 0;
SELECT CASE WHEN mem_retained() < 65536 THEN 'none kept' ELSE mem_retained() || ' bytes' END AS after_error;
RESET logp95.retained_memory;
-- the limit on one state counts its retained blocks: 54000
SET logp95.max_state_memory = '512kB';
\set VERBOSITY sqlstate
SELECT logp95_agg(route, ms) FROM wide;
\set VERBOSITY default
RESET logp95.max_state_memory;
SELECT count(*) AS routes, sum(requests) AS requests FROM logp95_report((SELECT logp95_agg(route, ms) FROM wide));
-- hashed aggregation counts its groups' memory in its own context to know
-- when to spill: its states take no retained blocks
SET logp95.retained_memory = 0;
RESET logp95.retained_memory;
SET enable_sort = off;
SET work_mem = '1GB';
SELECT string_agg(DISTINCT n ->> 'Strategy', ',') AS strategy
FROM plan_nodes('SELECT route, logp95_agg(route, ms) FROM wide GROUP BY route') n WHERE n ->> 'Strategy' <> 'Plain';
SELECT count(*) AS groups,
       CASE WHEN max(b) < 65536 THEN 'none taken' ELSE max(b) || ' bytes' END AS retained
FROM (SELECT route, logp95_agg(route, ms) AS s, (SELECT mem_retained()) AS b FROM wide GROUP BY route) g;
RESET work_mem;
RESET enable_sort;
