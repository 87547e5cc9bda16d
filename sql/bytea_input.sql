-- sql/bytea_input.sql -- lines given as bytea: the same results as the text forms on valid lines, bytes that are not text escaped
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;

-- The lines of every format logp95_generate writes, and the hostile nginx
-- log of the field tests (test/data/nginx_hostile.log: odd users, odd
-- targets, escaped bytes), each line as text and as its bytes.
\getenv abs_srcdir PG_ABS_SRCDIR
\getenv datadir LP_TEST_DATA_DIR
\if :{?datadir}
\else
\set datadir :abs_srcdir '/test/data'
\endif
\set hostile :datadir '/nginx_hostile.log'

CREATE TABLE bl (fmt text, n int, t text, b bytea);
INSERT INTO bl
SELECT f, row_number() OVER (PARTITION BY f), l, convert_to(l, 'UTF8')
  FROM unnest(ARRAY['default', 'combined', 'combined_query', 'combined_us', 'combined_us_query']) f,
       LATERAL logp95_generate(2000, 40, 7, f) l;
INSERT INTO bl
SELECT 'combined', 10000 + o, l, convert_to(l, 'UTF8')
  FROM regexp_split_to_table(rtrim(pg_read_file(:'hostile'), E'\n'), E'\n') WITH ORDINALITY x(l, o);
-- malformed lines, NULLs and UTF-8 in the route
INSERT INTO bl VALUES
	('combined', 20001, 'not a log line', convert_to('not a log line', 'UTF8')),
	('combined', 20002, NULL, NULL),
	('default', 20003, '2026-11-07T12:00:00 GET /café/ü 12', convert_to('2026-11-07T12:00:00 GET /café/ü 12', 'UTF8')),
	('default', 20004, '2026-11-07T12:00:01 GET /x', convert_to('2026-11-07T12:00:01 GET /x', 'UTF8'));
SELECT fmt, count(*) AS lines, count(*) FILTER (WHERE convert_from(b, 'UTF8') IS DISTINCT FROM t) AS differ
  FROM bl GROUP BY fmt ORDER BY fmt;

-- the state: byte-equal to the text form's, per format, with and without
-- options (skip: the hostile log holds malformed lines)
SELECT fmt,
       logp95_agg(t, fmt, 'skip') = logp95_agg(b, fmt, 'skip') AS same_skip,
       logp95_agg(t, fmt, 'skip,templates') = logp95_agg(b, fmt, 'skip,templates') AS same_templates,
       logp95_agg(t, fmt, 'skip,query') = logp95_agg(b, fmt, 'skip,query') AS same_query,
       logp95_malformed(logp95_agg(b, fmt, 'skip')) AS malformed,
       (SELECT count(*) FROM logp95_report(logp95_agg(b, fmt, 'skip'))) AS routes
  FROM bl GROUP BY fmt ORDER BY fmt;
SET logp95.on_malformed = skip;
SELECT fmt, logp95_agg(t, fmt) = logp95_agg(b, fmt) AS same_no_options
  FROM bl GROUP BY fmt ORDER BY fmt;
RESET logp95.on_malformed;
-- the report reads the same from either (the independent check: routes
-- and counts from logp95_parse of the text lines)
SELECT r.route, r.requests, p.requests AS parsed_requests, r.max_ms, p.max_ms AS parsed_max_ms
  FROM logp95_report((SELECT logp95_agg(b, 'default', 'skip') FROM bl WHERE fmt = 'default')) r
  FULL JOIN (SELECT x.route, count(*) AS requests, max(x.latency_ms) AS max_ms
               FROM bl, logp95_parse(bl.t, 'default') x
              WHERE bl.fmt = 'default' AND x.problem IS NULL GROUP BY x.route) p USING (route)
 WHERE r.requests IS DISTINCT FROM p.requests OR r.max_ms IS DISTINCT FROM p.max_ms
    OR r.route LIKE '/caf%';

-- every line: the same time, timestamp and parse row
SELECT fmt, count(*) AS lines,
       count(*) FILTER (WHERE logp95_line_time(t, fmt) IS DISTINCT FROM logp95_line_time(b, fmt)) AS time_differs,
       count(*) FILTER (WHERE logp95_line_ts(t, fmt) IS DISTINCT FROM logp95_line_ts(b, fmt)) AS ts_differs,
       count(*) FILTER (WHERE (SELECT p FROM logp95_parse(t, fmt) p) IS DISTINCT FROM
                              (SELECT p FROM logp95_parse(b, fmt) p)) AS parse_differs,
       count(logp95_line_time(b, fmt)) AS with_time,
       count(*) FILTER (WHERE (SELECT problem FROM logp95_parse(b, fmt)) IS NOT NULL) AS with_problem
  FROM bl WHERE t IS NOT NULL GROUP BY fmt ORDER BY fmt;
-- the defaults: format default
SELECT logp95_line_time(b) = logp95_line_time(t) AS same_time,
       (SELECT p FROM logp95_parse(b) p) = (SELECT p FROM logp95_parse(t) p) AS same_parse
  FROM bl WHERE n = 20003;
-- untyped literals still pick the text forms
SELECT pg_typeof(logp95_line_time('2026-11-07T12:00:00 GET /a 1')),
       (SELECT route FROM logp95_parse('2026-11-07T12:00:00 GET /a 1'));

-- Bytes that are not text in the database encoding (UTF8 here): a line
-- nginx wrote with escape=none.  Its route keeps its valid characters and
-- writes every other byte as \xHH; a NUL byte too.
CREATE TABLE raw (n int, b bytea);
INSERT INTO raw VALUES
	(1, '\x323032362d31312d30375431323a30303a303020474554202f6361ff6520313030'),	-- /ca\xffe, 100 ms
	(2, '\x323032362d31312d30375431323a30303a303120474554202f6361ff6520323030'),	-- the same route, 200 ms
	(3, '\x323032362d31312d30375431323a30303a303220474554202fc3a9c32f6900202033'),	-- /é, a cut UTF-8 sequence, NUL
	(4, '\x323032362d31312d30375431323a30303a303320474554202f6361fe6520333030'),	-- /ca\xfee, 300 ms
	(5, '\x323032362d31312d30375431323a30303a3034204745545c7866662061'),			-- malformed, \xff written out
	(6, '\x323032362d31312d30375431323a30303a303520ff474554202f7820ff');			-- malformed: method \xffGET, latency \xff
SELECT n, p.* FROM raw, logp95_parse(raw.b) p ORDER BY n;
SELECT * FROM logp95_report((SELECT logp95_agg(b, 'default', 'skip') FROM raw));
SELECT logp95_malformed(logp95_agg(b, 'default', 'skip')) FROM raw;
SELECT n, logp95_line_time(b), logp95_line_ts(b, 'default') FROM raw ORDER BY n;
-- a combined line with a raw byte in the route and the user agent
SELECT p.route, p.status, p.latency_ms, p.problem
  FROM logp95_parse(convert_to('10.0.0.1 - - [07/Nov/2026:12:00:00 +0000] "GET /r', 'UTF8') || '\xe9'::bytea ||
                    convert_to('sum?x=1 HTTP/1.1" 200 5 "-" "', 'UTF8') || '\xff'::bytea || convert_to('" 0.250', 'UTF8'),
                    'combined') p;
-- counting statuses: the route escaped on the direct path and with method
SELECT o, route, requests, s2xx FROM unnest(ARRAY['status', 'method']) o,
  logp95_status((SELECT logp95_agg(l, 'combined', o)
                   FROM (VALUES (convert_to('10.0.0.1 - - [07/Nov/2026:12:00:00 +0000] "GET /r', 'UTF8') ||
                                 '\xe9'::bytea || convert_to('sum HTTP/1.1" 200 5 "-" "ua" 0.250', 'UTF8'))) v(l)))
 ORDER BY o;
-- error mode: 22P02, the line quoted with its bytes escaped
\set VERBOSITY default
SELECT logp95_agg(b, 'default') FROM raw WHERE n = 6;
SELECT logp95_agg(b, 'default', 'error') FROM raw WHERE n = 6;
-- the escaped routes are text: the state reads back and merges with a text one
SELECT logp95_agg(b, 'default', 'skip')::text::logp95_state = logp95_agg(b, 'default', 'skip') AS round_trip
  FROM raw;
SELECT route, requests FROM logp95_report(
	(SELECT logp95_agg(b, 'default', 'skip') FROM raw) +
	(SELECT logp95_agg(t, 'default') FROM (VALUES ('2026-11-07T13:00:00 GET /ca\xffe 5')) v(t)))
 ORDER BY route;

-- A parallel plan gives the same state as a serial one.
CREATE TABLE bpar AS SELECT b FROM bl, generate_series(1, 20) WHERE fmt = 'combined';
ANALYZE bpar;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF) SELECT logp95_agg(b, 'combined', 'skip') FROM bpar;
CREATE TEMP TABLE par_result AS SELECT logp95_agg(b, 'combined', 'skip') AS s FROM bpar;
RESET ALL;
SET max_parallel_workers_per_gather = 0;
SELECT (SELECT s FROM par_result) = logp95_agg(b, 'combined', 'skip') AS parallel_same,
       (SELECT sum(requests) FROM logp95_report((SELECT s FROM par_result))) AS requests
  FROM bpar;
RESET max_parallel_workers_per_gather;

-- volatility, strictness and parallel safety as the text forms; a comment on each
SELECT b.oid::regprocedure AS bytea_form,
       b.provolatile = t.provolatile AND b.proisstrict = t.proisstrict
         AND b.proparallel = t.proparallel AND b.prokind = t.prokind AS same_properties,
       b.provolatile, b.proparallel,
       obj_description(b.oid, 'pg_proc') IS NOT NULL AS commented
  FROM pg_proc b
  JOIN pg_proc t ON t.proname = b.proname AND t.pronamespace = b.pronamespace
   AND t.pronargs = b.pronargs
   AND t.proargtypes[1:] = b.proargtypes[1:]
   AND t.proargtypes[0] = 'text'::regtype
 WHERE b.proname IN ('logp95_agg', 'logp95_line_time', 'logp95_line_ts', 'logp95_parse')
   AND b.proargtypes[0] = 'bytea'::regtype
 ORDER BY 1::text;
-- the aggregates: transition functions like the text forms' (STABLE: they
-- read logp95.on_malformed), the same combine function and state type
SELECT a.aggfnoid::regprocedure, a.aggtransfn, a.aggcombinefn,
       a.aggcombinefn = ta.aggcombinefn AND a.aggtranstype = ta.aggtranstype
         AND a.agginitval = ta.agginitval AS same_aggregate,
       bf.provolatile = tf.provolatile AND bf.proisstrict = tf.proisstrict
         AND bf.proparallel = tf.proparallel AS same_transfn_properties,
       bf.provolatile AS transfn_volatile,
       obj_description(a.aggtransfn, 'pg_proc') IS NOT NULL AS transfn_commented
  FROM pg_aggregate a
  JOIN pg_proc p ON p.oid = a.aggfnoid
  JOIN pg_proc bf ON bf.oid = a.aggtransfn
  JOIN pg_proc tp ON tp.proname = 'logp95_agg' AND tp.pronamespace = p.pronamespace
   AND tp.pronargs = p.pronargs AND tp.proargtypes[1:] = p.proargtypes[1:]
   AND tp.proargtypes[0] = 'text'::regtype
  JOIN pg_aggregate ta ON ta.aggfnoid = tp.oid
  JOIN pg_proc tf ON tf.oid = ta.aggtransfn
 WHERE p.proname = 'logp95_agg' AND p.proargtypes[0] = 'bytea'::regtype
 ORDER BY 1::text;

DROP TABLE bl, raw, bpar;
