-- sql/formats.sql -- logp95_agg(line, format) and logp95_line_ts(line, format): default, combined and its variants
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;

-- nginx: log_format timed '$remote_addr - $remote_user [$time_local] "$request" $status
--        $body_bytes_sent "$http_referer" "$http_user_agent" $request_time';
-- (nginx writes a quote inside a value as \x22, Apache as \"; both are kept)
CREATE TABLE fmt_nginx(n int, line text);
INSERT INTO fmt_nginx VALUES
 (1, '203.0.113.9 - - [07/Nov/2026:12:00:05 +0000] "GET /api/v1/items?id=3&page=2 HTTP/1.1" 200 512 "-" "Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/128.0" 0.214'),
 (2, '2001:db8:85a3::8a2e:370:7334 - alice [07/Nov/2026:12:00:06 +0000] "GET /api/v1/items HTTP/2.0" 200 1024 "https://example.com/search?q=\"items\"" "curl/8.5.0" 0.031'),
 (3, '::1 - - [07/Nov/2026:12:00:07 +0000] "GET /api/v1/items?id=4 HTTP/1.1" 304 0 "-" "Mozilla/5.0 \"compatible\" bot \\ backslash" 0.0005'),
 (4, '198.51.100.23 - - [07/Nov/2026:13:00:07 +0100] "POST /api/v1/orders HTTP/1.1" 201 87 "https://shop.example/cart" "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) \x22quoted\x22" 1.2004'),
 (5, 'fe80::1%eth0 - - [07/Nov/2026:12:00:09 +0000] "POST /api/v1/orders HTTP/1.1" 500 0 "-" "-" 12.0'),
 (6, '192.0.2.1 - - [07/Nov/2026:12:00:10 +0000] "GET /static/app.js HTTP/1.1" 200 53211 "-" "-" 0.0004999'),
 (7, E'10.0.0.1 - - [07/Nov/2026:12:00:11 +0000] "GET /static/app.js?v=2 HTTP/1.1" 200 53211 "-" "-"\t0.002\r');

-- 'combined': route = path without the query string; seconds -> ms, nearest, half up
SELECT * FROM logp95_report((SELECT logp95_agg(line, 'combined') FROM fmt_nginx));
-- 'combined_query': the query string stays in the route
SELECT * FROM logp95_report((SELECT logp95_agg(line, 'combined_query') FROM fmt_nginx));
-- the per-line latencies, one state per line
SELECT n, r.route, r.max_ms FROM fmt_nginx, logp95_report(
	(SELECT logp95_agg(line, 'combined') FROM fmt_nginx x WHERE x.n = fmt_nginx.n)) r
ORDER BY n;
-- timestamps: the offset is applied, the result is UTC
SELECT n, logp95_line_ts(line, 'combined') AS utc FROM fmt_nginx ORDER BY n;
SELECT logp95_line_ts('::1 - - [07/Nov/2026:00:30:00 +0530] "GET / HTTP/1.1" 200 1 "-" "-" 0.1', 'combined') AS previous_day,
       logp95_line_ts('::1 - - [29/feb/2024:23:59:59 -1000] "GET / HTTP/1.1" 200 1 "-" "-" 0.1', 'combined_us') AS leap_next_day;

-- Apache: LogFormat "%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\" %D" (microseconds)
CREATE TABLE fmt_apache(line text);
INSERT INTO fmt_apache VALUES
 ('192.0.2.44 - frank [07/Nov/2026:12:00:05 -0700] "GET /index.html?lang=en HTTP/1.0" 200 2326 "http://www.example.com/start.html" "Mozilla/4.08 [en] (Win98; I ;Nav)" 214499'),
 ('192.0.2.44 - - [07/Nov/2026:12:00:06 -0700] "GET /index.html HTTP/1.0" 200 2326 "-" "Wget/1.21 \"x\"" 214500'),
 ('2001:db8::2 - - [07/Nov/2026:12:00:07 -0700] "GET /index.html HTTP/1.0" 200 - "-" "-" 499'),
 ('2001:db8::2 - - [07/Nov/2026:12:00:08 -0700] "HEAD /index.html HTTP/1.0" 200 - "-" "-" 0');
SELECT * FROM logp95_report((SELECT logp95_agg(line, 'combined_us') FROM fmt_apache));
SELECT * FROM logp95_report((SELECT logp95_agg(line, 'combined_us_query') FROM fmt_apache));
SELECT logp95_line_ts(line, 'combined_us') AS utc FROM fmt_apache;

-- 'default' is the 1.0 format, the same code as logp95_agg(line)
CREATE TABLE fmt_default(line text);
INSERT INTO fmt_default VALUES
 ('2026-11-07T12:00:01 GET /api/users 10'),
 ('2026-11-07T12:00:02 GET /api/users 20'),
 ('2026-11-07T12:00:03 POST /api/orders 500');
SELECT (SELECT logp95_agg(line, 'default') FROM fmt_default)::text
     = (SELECT logp95_agg(line) FROM fmt_default)::text AS default_is_default;
SELECT * FROM logp95_report((SELECT logp95_agg(line, 'default') FROM fmt_default));
SELECT logp95_line_ts(line, 'default') = logp95_line_ts(line) AS same_ts FROM fmt_default;

-- NULL lines and NULL formats are ignored, as by every aggregate
SELECT logp95_report((SELECT logp95_agg(l, f) FROM (VALUES
	(NULL, 'combined'),
	('::1 - - [07/Nov/2026:12:00:05 +0000] "GET /a HTTP/1.1" 200 1 "-" "-" 0.001', NULL),
	('::1 - - [07/Nov/2026:12:00:05 +0000] "GET /b HTTP/1.1" 200 1 "-" "-" 0.001', 'combined')) v(l, f)));
SELECT logp95_line_ts(NULL, 'combined') IS NULL AS null_line, logp95_line_ts('x', NULL) IS NULL AS null_format;

-- an unknown format: ERROR 22023 listing the known names
\set VERBOSITY default
SELECT logp95_agg(line, 'nginx') FROM fmt_nginx;
SELECT logp95_line_ts('x', 'Combined');
\set VERBOSITY sqlstate
SELECT logp95_agg(line, '') FROM fmt_nginx;
\set VERBOSITY default

-- malformed lines, error mode (the default): 22P02 with the line quoted
SELECT logp95_agg(l, 'combined') FROM (VALUES ('')) v(l);
SELECT logp95_agg(l, 'combined') FROM (VALUES ('::1 - - 07/Nov/2026:12:00:05 +0000 "GET / HTTP/1.1" 200 1 "-" "-" 0.1')) v(l);
SELECT logp95_agg(l, 'combined') FROM (VALUES ('::1 - - [07/Nov/2026:12:00:05 +0000 "GET / HTTP/1.1" 200 1 "-" "-" 0.1')) v(l);
SELECT logp95_agg(l, 'combined') FROM (VALUES ('::1 - - [07/Nov/2026:12:00:05 +0000] GET / HTTP/1.1 200 1 "-" "-" 0.1')) v(l);
SELECT logp95_agg(l, 'combined') FROM (VALUES ('::1 - - [07/Nov/2026:12:00:05 +0000] "-" 400 0 "-" "-" 0.000')) v(l);
SELECT logp95_agg(l, 'combined') FROM (VALUES ('::1 - - [07/Nov/2026:12:00:05 +0000] "\x16\x03\x01" 400 0 "-" "-" 0.001')) v(l);
SELECT logp95_agg(l, 'combined') FROM (VALUES ('::1 - - [07/Nov/2026:12:00:05 +0000] "GET ?a=1 HTTP/1.1" 400 0 "-" "-" 0.001')) v(l);
SELECT logp95_agg(l, 'combined') FROM (VALUES ('::1 - - [07/Nov/2026:12:00:05 +0000] "GET /a HTTP/1.1" 200 1 "-" "Mozilla/5.0 (X11; Lin')) v(l);
SELECT logp95_agg(l, 'combined') FROM (VALUES ('::1 - - [07/Nov/2026:12:00:05 +0000] "GET /a HTTP/1.1" 200 1 "-" "ends in a backslash\')) v(l);
SELECT logp95_agg(l, 'combined') FROM (VALUES ('::1 - - [07/Nov/2026:12:00:05 +0000] "GET /a HTTP/1.1')) v(l);
SELECT logp95_agg(l, 'combined') FROM (VALUES ('::1 - - [07/Nov/2026:12:00:05 +0000] "GET /a HTTP/1.1" 200 1 "-" "-"')) v(l);
SELECT logp95_agg(l, 'combined') FROM (VALUES ('::1 - - [07/Nov/2026:12:00:05 +0000] "GET /a HTTP/1.1" 200 1 "-" "-" -')) v(l);
SELECT logp95_agg(l, 'combined') FROM (VALUES ('::1 - - [07/Nov/2026:12:00:05 +0000] "GET /a HTTP/1.1" 200 1 "-" "-" 0.2s')) v(l);
SELECT logp95_agg(l, 'combined') FROM (VALUES ('::1 - - [07/Nov/2026:12:00:05 +0000] "GET /a HTTP/1.1" 200 1 "-" "-" -0.2')) v(l);
SELECT logp95_agg(l, 'combined') FROM (VALUES ('::1 - - [07/Nov/2026:12:00:05 +0000] "GET /a HTTP/1.1" 200 1 "-" "-" .5')) v(l);
SELECT logp95_agg(l, 'combined') FROM (VALUES ('::1 - - [07/Nov/2026:12:00:05 +0000] "GET /a HTTP/1.1" 200 1 "-" "-" "0.1"')) v(l);
SELECT logp95_agg(l, 'combined') FROM (VALUES ('::1 - - [07/Nov/2026:12:00:05 +0000] "GET /a HTTP/1.1" 200 1 "-" "-" 9223372036854775.808')) v(l);
SELECT logp95_agg(l, 'combined_us') FROM (VALUES ('::1 - - [07/Nov/2026:12:00:05 +0000] "GET /a HTTP/1.1" 200 1 "-" "-" 0.214')) v(l);
SELECT logp95_agg(l, 'combined_us') FROM (VALUES ('::1 - - [07/Nov/2026:12:00:05 +0000] "GET /a HTTP/1.1" 200 1 "-" "-" 9223372036854775808')) v(l);
-- the largest request times that fit
SELECT logp95_report((SELECT logp95_agg(l, 'combined') FROM (VALUES ('::1 - - [07/Nov/2026:12:00:05 +0000] "GET /a HTTP/1.1" 200 1 "-" "-" 9223372036854775.807')) v(l)));
SELECT logp95_report((SELECT logp95_agg(l, 'combined_us') FROM (VALUES ('::1 - - [07/Nov/2026:12:00:05 +0000] "GET /a HTTP/1.1" 200 1 "-" "-" 9223372036854775807')) v(l)));
\set VERBOSITY sqlstate
SELECT logp95_agg(l, 'combined') FROM (VALUES ('::1 - - [07/Nov/2026:12:00:05 +0000] "-" 400 0 "-" "-" 0.000')) v(l);
\set VERBOSITY default

-- bad [time] fields: logp95_line_ts gives NULL since 1.1 (1.0 raised 22007); the aggregate does not read the time
SELECT logp95_line_ts('::1 - - [7/Nov/2026:12:00:05 +0000] "GET / HTTP/1.1" 200 1 "-" "-" 0.1', 'combined');
SELECT logp95_line_ts('::1 - - [07/Now/2026:12:00:05 +0000] "GET / HTTP/1.1" 200 1 "-" "-" 0.1', 'combined');
SELECT logp95_line_ts('::1 - - [29/Feb/2026:12:00:05 +0000] "GET / HTTP/1.1" 200 1 "-" "-" 0.1', 'combined');
SELECT logp95_line_ts('::1 - - [07/Nov/2026:24:00:05 +0000] "GET / HTTP/1.1" 200 1 "-" "-" 0.1', 'combined');
SELECT logp95_line_ts('::1 - - [07/Nov/2026:12:00:05] "GET / HTTP/1.1" 200 1 "-" "-" 0.1', 'combined');
SELECT logp95_line_ts('::1 - - [07/Nov/2026:12:00:05 +2400] "GET / HTTP/1.1" 200 1 "-" "-" 0.1', 'combined');
SELECT logp95_line_ts('::1 - - 07/Nov/2026:12:00:05 +0000 "GET / HTTP/1.1" 200 1 "-" "-" 0.1', 'combined');
\set VERBOSITY sqlstate
SELECT logp95_line_ts('::1 - - [07/Nov/2026:12:61:05 +0000] "GET / HTTP/1.1" 200 1 "-" "-" 0.1', 'combined');
\set VERBOSITY default

-- skip mode: every malformed line is counted, good lines still count
SET logp95.on_malformed = skip;
CREATE TABLE fmt_mixed(line text);
INSERT INTO fmt_mixed SELECT line FROM fmt_nginx;
INSERT INTO fmt_mixed VALUES
 (''),
 ('::1 - - [07/Nov/2026:12:00:05 +0000] "-" 400 0 "-" "-" 0.000'),
 ('::1 - - [07/Nov/2026:12:00:05 +0000] "GET /a HTTP/1.1" 200 1 "-" "Mozilla/5.0 (X11; Lin'),
 ('::1 - - [07/Nov/2026:12:00:05 +0000] "GET /a HTTP/1.1" 200 1 "-" "-" -'),
 ('::1 - - [07/Nov/2026:12:00:05 +0000] "GET /a HTTP/1.1" 200 1 "-" "-"'),
 ('not a log line at all');
SELECT logp95_malformed(s) AS malformed, (SELECT sum(requests) FROM logp95_report(s)) AS requests
FROM (SELECT logp95_agg(line, 'combined') AS s FROM fmt_mixed) x;
SELECT * FROM logp95_report((SELECT logp95_agg(line, 'combined') FROM fmt_mixed));
-- a parallel plan combines the counts (the same combine function)
SET max_parallel_workers_per_gather = 0;
SELECT logp95_agg(line, 'combined')::text AS serial_state FROM fmt_mixed \gset
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
ALTER TABLE fmt_mixed SET (parallel_workers = 2);
EXPLAIN (COSTS OFF) SELECT logp95_agg(line, 'combined') FROM fmt_mixed;
SELECT logp95_agg(line, 'combined')::text = :'serial_state' AS parallel_equals_serial,
       logp95_malformed(logp95_agg(line, 'combined')) AS malformed
FROM fmt_mixed;
RESET ALL;

-- the format may differ per row (it is parsed once per distinct name)
SELECT * FROM logp95_report((SELECT logp95_agg(line, fmt) FROM (
	SELECT line, 'combined' AS fmt FROM fmt_nginx
	UNION ALL SELECT line, 'default' FROM fmt_default
	UNION ALL SELECT line, 'combined_us' FROM fmt_apache) u));

DROP TABLE fmt_nginx, fmt_apache, fmt_default, fmt_mixed;
