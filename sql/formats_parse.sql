-- sql/formats_parse.sql -- logp95_parse (what a line gives) and logp95_detect_format
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;
SET TimeZone = 'UTC';

-- one row per line: time, method, route, status, latency, problem
SELECT * FROM logp95_parse('2026-11-07T12:00:05.5+01:00 GET /api/items?id=3 214');
SELECT * FROM logp95_parse('203.0.113.9 - - [07/Nov/2026:12:00:05 +0100] "POST /api/v1/orders?x=1 HTTP/1.1" 201 87 "-" "curl/8" 0.0005', 'combined');
SELECT * FROM logp95_parse('203.0.113.9 - - [07/Nov/2026:12:00:05 +0100] "POST /api/v1/orders?x=1 HTTP/1.1" 201 87 "-" "curl/8" 0.0005', 'combined_query');
SELECT * FROM logp95_parse('203.0.113.9 - - [07/Nov/2026:12:00:05 +0100] "GET http://h?x=1 HTTP/1.1" 200 1 "-" "-" 1500', 'combined_us_query');

-- malformed lines keep what was found before the problem
CREATE TABLE parse_lines(n int, fmt text, line text);
INSERT INTO parse_lines VALUES
 (1, 'default', '2026-11-07T12:00:05Z GET /a 12ms'),
 (2, 'default', '2026-11-07T12:00:05Z GET'),
 (3, 'default', '2026-11-07T12:00:05Z GET /a 99999999999999999999'),
 (4, 'combined', '10.0.0.1 - - 07/Nov/2026 "GET / HTTP/1.1" 200 1 "-" "-" 0.1'),
 (5, 'combined', '10.0.0.1 - - [07/Nov/2026:12:00:05 +0000] GET / 200 1 - - 0.1'),
 (6, 'combined', '10.0.0.1 - - [07/Nov/2026:12:00:05 +0000] "-" 400 0 "-" "-" 0.001'),
 (7, 'combined', '10.0.0.1 - - [07/Nov/2026:12:00:05 +0000] "GET / HTTP/1.1'),
 (8, 'combined', '10.0.0.1 - - [07/Nov/2026:12:00:05 +0000] "GET / HTTP/1.1" 200 1 "-" 0.1'),
 (9, 'combined', '10.0.0.1 - - [07/Nov/2026:12:00:05 +0000] "GET / HTTP/1.1" 200 1 "-" "-" 0.2s'),
 (10, 'combined_us', '10.0.0.1 - - [07/Nov/2026:12:00:05 +0000] "GET / HTTP/1.1" 200 1 "-" "-" 0.2'),
 (11, 'combined', '10.0.0.1 - - [07/Nov/2026:12:00:05 +0000] "GET / HTTP/1.1" 200 1 "-" "-" 9223372036854775.808'),
 (12, 'combined', '10.0.0.1 - - [07/Nov/2026:12:00:05 +0000] "PRI * HTTP/2.0" 400 0 "-" "-" 0.001'),
 (13, 'combined', '10.0.0.1 - - [07/Nov/2026:12:00:05 +0000] "GET /ok HTTP/1.1" 200 1 "-" "-" 0.001');
SELECT n, fmt, p.* FROM parse_lines, logp95_parse(line, fmt) p ORDER BY n;

-- the problem is the message logp95_agg raises in error mode, word for word
CREATE FUNCTION parse_agg_error(line text, fmt text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	PERFORM logp95_agg(line, fmt, 'error');
	RETURN NULL;
EXCEPTION WHEN invalid_text_representation THEN
	RETURN SQLERRM;
END $$;
SELECT count(*) AS lines,
       count(*) FILTER (WHERE p.problem IS NOT DISTINCT FROM parse_agg_error(line, fmt)) AS same_problem,
       count(*) FILTER (WHERE p.ts IS NOT DISTINCT FROM logp95_line_time(line, fmt)) AS same_time
  FROM parse_lines, logp95_parse(line, fmt) p;

-- "why were lines refused": group on the problem
SELECT p.problem IS NULL AS good, count(*)
  FROM parse_lines, logp95_parse(line, fmt) p GROUP BY 1 ORDER BY 1;

-- on generated lines of every format: the routes and latencies logp95_agg counts
CREATE TABLE parse_gen AS
SELECT f AS fmt, l AS line FROM unnest(ARRAY['default', 'combined', 'combined_query', 'combined_us']) f,
	LATERAL logp95_generate(3000, 40, 5, f) l;
SELECT g.fmt,
       (SELECT count(*) FROM (
          SELECT p.route, count(*) AS requests, max(p.latency_ms) AS max_ms
            FROM parse_gen x, logp95_parse(x.line, x.fmt) p WHERE x.fmt = g.fmt GROUP BY 1
          EXCEPT
          SELECT route, requests, max_ms FROM logp95_report(
            (SELECT logp95_agg(x.line, g.fmt) FROM parse_gen x WHERE x.fmt = g.fmt))) d) AS routes_differ,
       (SELECT count(*) FROM parse_gen x, logp95_parse(x.line, x.fmt) p
         WHERE x.fmt = g.fmt AND p.ts IS DISTINCT FROM logp95_line_time(x.line, x.fmt)) AS times_differ,
       (SELECT count(*) FILTER (WHERE p.method IS NULL OR p.problem IS NOT NULL)
          FROM parse_gen x, logp95_parse(x.line, x.fmt) p WHERE x.fmt = g.fmt) AS without_method
  FROM (SELECT DISTINCT fmt FROM parse_gen) g ORDER BY 1;
SELECT p.status, count(*) FROM parse_gen x, logp95_parse(x.line, x.fmt) p
 WHERE x.fmt = 'combined' GROUP BY 1 ORDER BY 1;

-- NULLs and unknown formats
SELECT count(*) FROM logp95_parse(NULL);
SELECT * FROM logp95_parse('x', 'nope');

-- detection: the format that reads the largest share
SELECT f, logp95_detect_format(ARRAY(SELECT line FROM parse_gen WHERE fmt = f)) AS detected
  FROM unnest(ARRAY['default', 'combined', 'combined_query', 'combined_us']) f ORDER BY 1;
-- a whole number of microseconds is never taken for seconds: both read it, combined_us comes first
SELECT logp95_detect_format(ARRAY[
	'10.0.0.1 - - [07/Nov/2026:12:00:05 +0000] "GET /a HTTP/1.1" 200 1 "-" "-" 214567',
	'10.0.0.1 - - [07/Nov/2026:12:00:06 +0000] "GET /b HTTP/1.1" 200 1 "-" "-" 1000']) AS integers;
-- one line with a fraction: combined reads more of the sample
SELECT logp95_detect_format(ARRAY[
	'10.0.0.1 - - [07/Nov/2026:12:00:05 +0000] "GET /a HTTP/1.1" 200 1 "-" "-" 214567',
	'10.0.0.1 - - [07/Nov/2026:12:00:06 +0000] "GET /b HTTP/1.1" 200 1 "-" "-" 0.214']) AS a_fraction;
-- half the sample is enough; less is no format; NULL elements are not lines
SELECT logp95_detect_format(ARRAY['2026-11-07T12:00:05Z GET /a 12', 'junk']) AS half,
       logp95_detect_format(ARRAY['2026-11-07T12:00:05Z GET /a 12', 'junk', 'more junk']) AS third,
       logp95_detect_format(ARRAY['2026-11-07T12:00:05Z GET /a 12', NULL, NULL]) AS with_nulls,
       logp95_detect_format(ARRAY[]::text[]) AS empty,
       logp95_detect_format(NULL) AS null_sample;

DROP FUNCTION parse_agg_error(text, text);
DROP TABLE parse_lines, parse_gen;
