-- sql/formats_presets.sql -- the vendor presets through SQL: logp95_agg, logp95_parse, logp95_line_time, detection
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;
SET TimeZone = 'UTC';

-- One line or more per preset, built from the vendor's documented format
-- (docs/formats.md cites each), and what the documentation says the line
-- holds: route, latency in ms, status, method, host and time, written by
-- hand from the line (the time as PostgreSQL reads the logged text).
CREATE TABLE preset_lines(n int, fmt text, line text, want_route text, want_ms bigint,
                          want_status int, want_method text, want_host text, want_time timestamptz);
INSERT INTO preset_lines VALUES
 -- HAProxy: the configuration manual's example behind an RFC 3164 header (Ta = 109)
 (1, 'haproxy', 'Feb  6 12:14:14 localhost haproxy[14389]: 10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu} {} "GET /index.html HTTP/1.1"',
  '/index.html', 109, 200, 'GET', NULL, '2009-02-06 12:14:14.655+00'),
 -- RFC 5424 header, '"' logged as #22, the query cut
 (2, 'haproxy', '<134>1 2026-11-07T01:00:00.123Z lb haproxy 123 - - 10.0.0.1:5000 [07/Nov/2026:01:00:00.250] fe be/s1 0/0/1/-1/15 503 512 - - ---- 1/1/0/0/0 0/0 "GET /a#22b?q=1 HTTP/1.1"',
  '/a"b', 15, 503, 'GET', NULL, '2026-11-07 01:00:00.25+00'),
 -- cut at 1024 bytes: no closing quote, the route still counts
 (3, 'haproxy', '10.0.0.1:5000 [07/Nov/2026:01:00:01.000] fe be/s1 0/0/1/2/20 200 512 - - ---- 1/1/0/0/0 0/0 "GET /long/path',
  '/long/path', 20, 200, 'GET', NULL, '2026-11-07 01:00:01+00'),
 -- AWS ALB: the guide's HTTPS example (0.086 + 0.048 + 0.037 s)
 (4, 'alb', 'https 2018-07-02T22:23:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 192.168.131.39:2817 10.0.0.1:80 0.086 0.048 0.037 200 200 0 57 "GET https://www.example.com:443/ HTTP/1.1" "curl/7.46.0" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337281-1d84f3d73c47ec4e58577259" "www.example.com" "arn:aws:acm:us-east-2:123456789012:certificate/12345678-1234-1234-1234-123456789012" 1 2018-07-02T22:22:48.364000Z "authenticate,forward" "-" "-"',
  '/', 171, 200, 'GET', 'www.example.com', '2018-07-02 22:23:00.186641+00'),
 (5, 'alb', 'http 2018-07-02T22:23:01Z app/my-loadbalancer/50dc6c495c0c9188 192.168.131.39:2817 10.0.0.1:80 0.00025 0.00025 0 200 200 34 366 "POST http://api.example.com:80/v1/items?id=3 HTTP/1.1" "curl/7.46.0" - - arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337262-36d228ad5d99923122bbe354" "-" "-" 0 2018-07-02T22:22:48.364000Z "forward" "-" "-"',
  '/v1/items', 1, 200, 'POST', 'api.example.com', '2018-07-02 22:23:01+00'),
 -- CloudFront: the guide's example line (tab-separated), and a client's %20 logged %2520
 (6, 'cloudfront', E'2019-12-13\t22:36:27\tSEA19-C1\t900\t192.0.2.200\tGET\td111111abcdef8.cloudfront.net\t/favicon.ico\t502\thttp://www.example.com/\tMozilla/5.0%20(Windows%20NT%2010.0;%20Win64;%20x64)\t-\t-\tError\t1pkpNfBQ39sYMnjjUQjmH2w1wdJnbHYTbag21o_3OfcQgPzdL2RSSQ==\twww.example.com\thttp\t675\t0.102\t-\t-\t-\tError\tHTTP/1.1\t-\t-\t25260\t0.102\tError\ttext/html\t507\t-\t-',
  '/favicon.ico', 102, 502, 'GET', 'www.example.com', '2019-12-13 22:36:27+00'),
 (7, 'cloudfront', E'2019-12-13\t22:36:28\tSEA19-C1\t900\t192.0.2.200\tGET\td111111abcdef8.cloudfront.net\t/a%2520b\t200\t-\tcurl/7.68.0\tx=1\t-\tMiss\tABCDEFGH==\tcdn.example.com\thttps\t120\t0.0125\t-\tTLSv1.3\tTLS_AES_128_GCM_SHA256\tMiss\tHTTP/2.0\t-\t-\t50142\t0.012\tMiss\ttext/plain\t2\t-\t-',
  '/a%20b', 13, 200, 'GET', 'cdn.example.com', '2019-12-13 22:36:28+00'),
 -- Envoy: the documentation's example of its default format
 (8, 'envoy', '[2016-04-15T20:17:00.310Z] "POST /api/v1/locations HTTP/2" 204 - 154 0 226 100 "10.0.35.28" "nsq2http" "cc21d9b0-cf5c-432b-8c7e-98aeb7988cd2" "locations" "tcp://10.0.2.1:80"',
  '/api/v1/locations', 226, 204, 'POST', 'locations', '2016-04-15 20:17:00.31+00'),
 -- Traefik: the common log format with router, server and duration
 (9, 'traefik', '192.168.1.10 - - [07/Nov/2026:01:00:00 +0100] "GET /whoami?x=1 HTTP/1.1" 200 433 "-" "curl/8.5.0" 1 "whoami@docker" "http://172.18.0.3:80" 3ms',
  '/whoami', 3, 200, 'GET', NULL, '2026-11-07 00:00:00+00'),
 -- IIS: the default field set of 8.5 and later (15 fields), and IIS 7's (14)
 (10, 'iis', '2026-11-07 01:00:00 10.0.0.5 GET /index.html - 443 - 203.0.113.8 Mozilla/5.0+(Windows+NT+10.0) - 200 0 0 8',
  '/index.html', 8, 200, 'GET', NULL, '2026-11-07 01:00:00+00'),
 (11, 'iis', '2026-11-07 01:00:01 10.0.0.5 POST /login.aspx - 443 - 203.0.113.8 Mozilla/5.0 302 0 0 31',
  '/login.aspx', 31, 302, 'POST', NULL, '2026-11-07 01:00:01+00'),
 -- Caddy: the documentation's line (duration 0.000929675 s)
 (12, 'caddy', '{"level":"info","ts":1646861401.5241024,"logger":"http.log.access","msg":"handled request","request":{"remote_ip":"127.0.0.1","remote_port":"41342","client_ip":"127.0.0.1","proto":"HTTP/2.0","method":"GET","host":"localhost","uri":"/","headers":{"User-Agent":["curl/7.82.0"],"Accept":["*/*"],"Accept-Encoding":["gzip, deflate, br"]},"tls":{"resumed":false,"version":772,"cipher_suite":4865,"proto":"h2","server_name":"example.com"}},"bytes_read":0,"user_id":"","duration":0.000929675,"size":10900,"status":200,"resp_headers":{"Server":["Caddy"],"Content-Encoding":["gzip"],"Content-Type":["text/html; charset=utf-8"],"Vary":["Accept-Encoding"]}}',
  '/', 1, 200, 'GET', 'localhost', to_timestamp(1646861401.524102)),
 -- a JSON escape in the URI, decoded; Caddy logs the host as sent, port included
 (13, 'caddy', '{"ts":1762477200.25,"request":{"method":"PUT","host":"shop.example.com:8443","uri":"/caf\u00e9/\"q\"?x=1"},"duration":0.0125,"status":201}',
  '/café/"q"', 13, 201, 'PUT', 'shop.example.com:8443', to_timestamp(1762477200.25)),
 -- Traefik JSON: the documented fields (Duration in ns; & written \u0026)
 (14, 'traefik_json', '{"ClientHost":"192.0.2.10","DownstreamContentSize":7197,"DownstreamStatus":200,"Duration":48321500,"OriginDuration":48200000,"OriginStatus":200,"RequestHost":"shop.example.com","RequestMethod":"GET","RequestPath":"/cart/items?id=7\u0026ref=home","RequestProtocol":"HTTP/1.1","RouterName":"shop@docker","ServiceName":"shop@docker","StartUTC":"2026-11-07T00:00:00.123456789Z","level":"info","msg":"","time":"2026-11-07T00:00:00Z"}',
  '/cart/items', 48, 200, 'GET', 'shop.example.com', '2026-11-07 00:00:00.123457+00');

-- what logp95_parse makes of each line
SELECT n, fmt, p.* FROM preset_lines, logp95_parse(line, fmt) p ORDER BY n;

-- every field as the documentation says (no row: all equal)
SELECT n, fmt, p.* FROM preset_lines, logp95_parse(line, fmt) p
 WHERE p.route IS DISTINCT FROM want_route OR p.latency_ms IS DISTINCT FROM want_ms
    OR p.status IS DISTINCT FROM want_status OR p.method IS DISTINCT FROM want_method
    OR p.ts IS DISTINCT FROM want_time OR p.problem IS NOT NULL;
-- logp95_line_time and 1.0's logp95_line_ts give the same instant
SELECT n, fmt, logp95_line_time(line, fmt), logp95_line_ts(line, fmt) FROM preset_lines
 WHERE logp95_line_time(line, fmt) IS DISTINCT FROM want_time
    OR logp95_line_ts(line, fmt) IS DISTINCT FROM (want_time AT TIME ZONE 'UTC');

-- the aggregate counts what the table says, per preset, byte for byte the
-- state of the (route, latency) rows written by hand
SELECT fmt, logp95_agg(line, fmt) = logp95_agg(want_route, want_ms) AS same_state
  FROM preset_lines GROUP BY fmt ORDER BY min(n);
-- the host option, for the presets that log the host: "host/route"
SELECT fmt, logp95_agg(line, fmt, 'host') = logp95_agg(want_host || want_route, want_ms) AS same_with_host
  FROM preset_lines WHERE want_host IS NOT NULL GROUP BY fmt ORDER BY min(n);
SELECT r.* FROM logp95_report((SELECT logp95_agg(line, 'alb', 'host') FROM preset_lines WHERE fmt = 'alb')) r;
SELECT r.route, r.requests FROM logp95_report((SELECT logp95_agg(line, 'caddy', 'query') FROM preset_lines WHERE fmt = 'caddy')) r;
SELECT r.route, r.requests FROM logp95_report((SELECT logp95_agg(line, 'haproxy', 'templates,query') FROM preset_lines WHERE fmt = 'haproxy')) r;

-- the host option needs a format that logs the host
\set VERBOSITY default
SELECT logp95_agg(line, 'haproxy', 'host') FROM preset_lines WHERE fmt = 'haproxy';
SELECT logp95_agg(line, 'combined', 'host') FROM preset_lines WHERE fmt = 'haproxy';
SELECT logp95_agg(line, fmt, 'unescape') FROM (VALUES ('/a', 1::bigint)) v(line, fmt);
\set VERBOSITY sqlstate

-- malformed lines: the problem of each, and their fields
CREATE TABLE preset_bad(n int, fmt text, line text);
INSERT INTO preset_bad VALUES
 (1, 'haproxy', '10.0.0.1:5000 [07/Nov/2026:01:00:02.000] fe fe/<NOSRV> -1/-1/-1/-1/3 400 187 - - PR-- 1/1/0/0/0 0/0 "<BADREQ>"'),
 (2, 'haproxy', '10.0.0.1:5000 [07/Nov/2026:01:00:03.000] fe be/s1 0/0/1/2/+30 200 512 - - ---- 1/1/0/0/0 0/0 "GET /x HTTP/1.1"'),
 (3, 'alb', 'http 2018-07-02T22:23:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 192.168.131.39:2817 - -1 -1 -1 502 - 34 366 "GET http://www.example.com:80/x HTTP/1.1" "curl/7.46.0" - - - "Root=1-58337262-36d228ad5d99923122bbe354" "-" "-" 0 2018-07-02T22:22:48.364000Z "forward" "-" "-"'),
 (4, 'cloudfront', E'2019-12-13\t22:36:27\tSEA19-C1\t900'),
 (5, 'envoy', '[2016-04-15T20:17:00.310Z] "CONNECT - HTTP/2" 200 - 0 0 5 - "-" "-" "-" "-" "-"'),
 (6, 'traefik', '192.168.1.10 - - [07/Nov/2026:01:00:00 +0000] "GET /whoami HTTP/1.1" 200 433 "-" "curl/8.5.0" 1 "whoami@docker" "http://172.18.0.3:80" 12'),
 (7, 'iis', '2026-11-07 01:00:00 10.0.0.5 GET /index.html - 443 - 203.0.113.8 Mozilla/5.0 - 200 0 0 -'),
 (8, 'caddy', '{"level":"info","ts":1646861401.5,"msg":"serving initial configuration"}'),
 (9, 'traefik_json', '{"RequestPath":"/x","Duration":1'),
 (10, 'haproxy', 'not a haproxy line');
SELECT n, fmt, p.* FROM preset_bad, logp95_parse(line, fmt) p ORDER BY n;
-- skip mode counts each as malformed; error mode raises its message
SELECT fmt, logp95_malformed(logp95_agg(line, fmt, 'skip')) FROM preset_bad GROUP BY fmt ORDER BY fmt;
\set VERBOSITY default
SELECT logp95_agg(line, fmt) FROM preset_bad WHERE n = 3;
\set VERBOSITY sqlstate

-- W3C header lines are no log entries: skipped like NULL lines
SELECT logp95_agg(line, 'iis') = (SELECT logp95_agg('/index.html', 8::bigint)) AS iis_headers_skipped,
       logp95_malformed(logp95_agg(line, 'iis', 'skip')) AS malformed
  FROM (VALUES ('#Software: Microsoft Internet Information Services 10.0'), ('#Version: 1.0'),
               ('#Date: 2026-11-07 01:00:00'),
               ('#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken'),
               ('2026-11-07 01:00:00 10.0.0.5 GET /index.html - 443 - 203.0.113.8 Mozilla/5.0+(Windows+NT+10.0) - 200 0 0 8')) v(line);
SELECT logp95_agg(line, 'cloudfront', 'error') = (SELECT logp95_agg('/favicon.ico', 102::bigint)) AS cloudfront_headers_skipped
  FROM (SELECT '#Version: 1.0' UNION ALL
        SELECT '#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status'
        UNION ALL SELECT line FROM preset_lines WHERE n = 6) v(line);
SELECT logp95_line_time('#Version: 1.0', 'iis') IS NULL AS header_has_no_time;

-- times without an offset are UTC unless the format names one
SELECT logp95_line_time(line, 'haproxy@+05:30') AS kolkata,
       logp95_line_time(line, 'haproxy@-0800') AS pacific,
       logp95_line_time(line, 'haproxy@+01') AS paris
  FROM preset_lines WHERE n = 1;
SELECT logp95_line_time(line, 'iis@+05:30') = want_time - interval '5 hours 30 minutes' AS iis_offset,
       (SELECT ts FROM logp95_parse(line, 'iis@-03:00')) = want_time + interval '3 hours' AS parse_offset
  FROM preset_lines WHERE n = 10;
SELECT logp95_line_time(line, 'cloudfront@+01:00') FROM preset_lines WHERE n = 6;
-- the offset changes the time only: same state
SELECT logp95_agg(line, 'haproxy@+05:30') = logp95_agg(line, 'haproxy') AS same_state FROM preset_lines WHERE fmt = 'haproxy';
\set VERBOSITY default
SELECT logp95_line_time('x', 'alb@+01:00');
SELECT logp95_line_time('x', 'haproxy@+24:00');
SELECT logp95_line_time('x', 'haproxy@');
SELECT logp95_line_time('x', 'haproxy@+05:30x');
SELECT logp95_agg('x', 'nope@+01:00');
\set VERBOSITY sqlstate

-- detection considers every preset; W3C header lines do not count
SELECT fmt, logp95_detect_format(array_agg(line ORDER BY n)) AS detected
  FROM preset_lines GROUP BY fmt ORDER BY min(n);
SELECT logp95_detect_format(ARRAY['#Version: 1.0', '#Fields: date time s-ip cs-method cs-uri-stem',
       (SELECT line FROM preset_lines WHERE n = 10), (SELECT line FROM preset_lines WHERE n = 11)]) AS iis_with_headers;
SELECT logp95_detect_format(ARRAY[(SELECT line FROM preset_lines WHERE n = 8), 'junk', 'junk', NULL]) AS half_is_not_enough;

-- the generator keeps its formats
\set VERBOSITY default
SELECT count(*) FROM logp95_generate(1, 1, 1, 'haproxy');
\set VERBOSITY sqlstate
