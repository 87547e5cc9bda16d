-- sql/formats_definitions.sql -- nginx and Apache definitions and JSON specs as formats: 'nginx:', 'apache:', 'json:'
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;
SET TimeZone = 'UTC';

-- the definitions of the built-in layouts, as nginx.conf and httpd.conf write them
CREATE TABLE defs(name text PRIMARY KEY, fmt text);
INSERT INTO defs VALUES
 ('nginx_combined', 'nginx:' || $d$'$remote_addr - $remote_user [$time_local] '
                    '"$request" $status $body_bytes_sent '
                    '"$http_referer" "$http_user_agent" $request_time'$d$),
 ('apache_us', 'apache:' || $d$%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i" %D$d$);

-- the generator's lines read by a definition give what the built-in
-- parser gives (the independent reference): the same state, the same
-- time line by line
CREATE TABLE gen AS
  SELECT 'combined' AS fmt, line FROM logp95_generate(3000, 40, 7, 'combined') line
  UNION ALL SELECT 'combined_us', line FROM logp95_generate(3000, 40, 7, 'combined_us') line;
SELECT (SELECT logp95_agg(line, 'combined') FROM gen WHERE fmt = 'combined')
     = (SELECT logp95_agg(line, (SELECT d.fmt FROM defs d WHERE d.name = 'nginx_combined')) FROM gen WHERE fmt = 'combined')
       AS nginx_same_state,
       (SELECT logp95_agg(line, 'combined_us') FROM gen WHERE fmt = 'combined_us')
     = (SELECT logp95_agg(line, (SELECT d.fmt FROM defs d WHERE d.name = 'apache_us')) FROM gen WHERE fmt = 'combined_us')
       AS apache_same_state;
SELECT g.fmt, count(*) AS lines,
       count(*) FILTER (WHERE logp95_line_time(line, d.fmt) IS DISTINCT FROM logp95_line_time(line, g.fmt)) AS time_differs,
       count(*) FILTER (WHERE logp95_line_ts(line, d.fmt) IS DISTINCT FROM logp95_line_ts(line, g.fmt)) AS ts_differs
  FROM gen g JOIN defs d ON d.name = CASE g.fmt WHEN 'combined' THEN 'nginx_combined' ELSE 'apache_us' END
 GROUP BY g.fmt ORDER BY 1;

-- an nginx log_format with its fields in another order, key=value
-- times, an upstream time that may be "-" or a list
CREATE TABLE custom(n int, line text);
INSERT INTO custom VALUES
 (1, '[07/Nov/2026:01:00:00 +0100] 10.0.0.1 "GET /api/items?id=3 HTTP/1.1" 200 rt=0.012 urt=0.011'),
 (2, '[07/Nov/2026:01:00:01 +0100] 10.0.0.1 "POST /api/orders HTTP/1.1" 201 rt=0.0005 urt=-'),
 (3, '[07/Nov/2026:01:00:02 +0100] 10.0.0.1 "GET /api/items?id=4 HTTP/1.1" 502 rt=0.214 urt=0.100, 0.050 : 0.060'),
 (4, '[07/Nov/2026:01:00:03 +0100] 10.0.0.1 "GET http://example.com/abs/path?x HTTP/1.1" 200 rt=1.2004 urt=1.200');
\set custom 'nginx:''[$time_local] $remote_addr "$request" $status rt=$request_time urt=$upstream_response_time'''
SELECT n, p.* FROM custom, logp95_parse(line, :'custom') p ORDER BY n;
SELECT r.* FROM logp95_report((SELECT logp95_agg(line, :'custom') FROM custom)) r;
-- without $request_time the upstream time is the latency: a list is summed, "-" is none
\set upstream 'nginx:''[$time_local] $remote_addr "$request" $status rt=$msec urt=$upstream_response_time'''
SELECT n, p.latency_ms, p.problem FROM custom, logp95_parse(regexp_replace(line, 'rt=[0-9.]+ ', 'rt=1762477200.123 '), :'upstream') p ORDER BY n;

-- quoted fields, escape=json, and the escaping rule: the same request
-- logged by nginx with default escaping (\x22, \xC3\xA9), with
-- escape=json (\", raw UTF-8) and by a JSON writer (\u00e9) counts under
-- one route
\set nginx_default 'nginx:''$remote_addr [$time_local] "$request" $status "$http_user_agent" $request_time'''
\set nginx_json 'nginx:escape=json ''{"time":"$time_iso8601","request":"$request","status":$status,"rt":"$request_time"}'''
\set json_spec 'json:request=request, latency=rt:s, status=status, time=time:iso8601'
SELECT p.route, p.latency_ms, p.status, p.ts
  FROM (VALUES (:'nginx_default', '10.0.0.1 [07/Nov/2026:01:00:00 +0000] "GET /caf\xC3\xA9/\x22q\x22?x=1 HTTP/1.1" 200 "curl \x22x\x22" 0.010'),
               (:'nginx_json', '{"time":"2026-11-07T01:00:00+00:00","request":"GET /café/\"q\"?x=1 HTTP/1.1","status":200,"rt":"0.010"}'),
               (:'json_spec', '{"time":"2026-11-07T01:00:00Z","request":"GET /caf\u00e9/\"q\"?x=1 HTTP/1.1","status":200,"rt":"0.010"}')) v(fmt, line),
       logp95_parse(line, fmt) p;
SELECT count(DISTINCT s) AS distinct_states FROM (
  SELECT logp95_agg(line, fmt) s
    FROM (VALUES (:'nginx_default', '10.0.0.1 [07/Nov/2026:01:00:00 +0000] "GET /caf\xC3\xA9/\x22q\x22?x=1 HTTP/1.1" 200 "curl" 0.010'),
                 (:'nginx_json', '{"time":"2026-11-07T01:00:00+00:00","request":"GET /café/\"q\"?x=1 HTTP/1.1","status":200,"rt":"0.010"}'),
                 (:'json_spec', '{"time":"2026-11-07T01:00:00Z","request":"GET /caf\u00e9/\"q\"?x=1 HTTP/1.1","status":200,"rt":"0.010"}')) v(fmt, line)
   GROUP BY fmt) x;
-- a byte that is not UTF-8 once unescaped keeps its logged form in a UTF8 database
SELECT getdatabaseencoding() AS encoding,
       (SELECT route FROM logp95_parse('10.0.0.1 [07/Nov/2026:01:00:00 +0000] "GET /a\xFFb HTTP/1.1" 200 "-" 0.001', :'nginx_default')) AS logged,
       (SELECT route FROM logp95_parse('10.0.0.1 [07/Nov/2026:01:00:00 +0000] "GET /a\xC3\xA9b HTTP/1.1" 200 "-" 0.001', :'nginx_default')) AS decoded;
SELECT r.route, r.requests FROM logp95_report((SELECT logp95_agg(line, :'nginx_default')
  FROM (VALUES ('10.0.0.1 [07/Nov/2026:01:00:00 +0000] "GET /a\xFFb HTTP/1.1" 200 "-" 0.001'),
               ('10.0.0.1 [07/Nov/2026:01:00:00 +0000] "GET /a\xC3\xA9b HTTP/1.1" 200 "-" 0.002'),
               ('10.0.0.1 [07/Nov/2026:01:00:00 +0000] "GET /a\xC3b HTTP/1.1" 200 "-" 0.003')) v(line))) r;
-- the built-in formats keep their logged routes; the unescape option decodes
-- them the same way (a byte that is not UTF-8 once decoded stays logged)
CREATE TABLE esc_lines(line text);
INSERT INTO esc_lines VALUES
 ('10.0.0.1 - - [07/Nov/2026:01:00:00 +0000] "GET /caf\xC3\xA9/\x22q\x22?x=1 HTTP/1.1" 200 1 "-" "-" 0.010'),
 ('10.0.0.1 - - [07/Nov/2026:01:00:00 +0000] "GET /caf\xC3\xA9/\x22q\x22 HTTP/1.1" 200 1 "-" "-" 0.020'),
 ('10.0.0.1 - - [07/Nov/2026:01:00:00 +0000] "GET /bad\xFF HTTP/1.1" 200 1 "-" "-" 0.030');
SELECT r.route, r.requests FROM logp95_report((SELECT logp95_agg(line, 'combined') FROM esc_lines)) r;
SELECT r.route, r.requests FROM logp95_report((SELECT logp95_agg(line, 'combined', 'unescape') FROM esc_lines)) r;
SELECT r.route, r.requests FROM logp95_report((SELECT logp95_agg(line, 'combined_query', 'unescape,templates') FROM esc_lines)) r;
-- Apache's \" and \\ too
SELECT r.route FROM logp95_report((SELECT logp95_agg('10.0.0.1 - - [07/Nov/2026:01:00:00 +0000] "GET /a\"b\\c HTTP/1.1" 200 1 "-" "-" 2500', 'combined_us', 'unescape'))) r;
-- unescaping leaves the built-in formats' times and malformed lines alone
SELECT logp95_agg(line, 'combined', 'unescape,skip') = logp95_agg(line, 'combined', 'skip') AS same_without_escapes
  FROM logp95_generate(500, 20, 3, 'combined') line;

-- Apache: %{ms}T, lighttpd's accesslog.format with %D, varnishncsa -F with %D
SELECT f.name, p.* FROM (VALUES
   ('apache %{ms}T', 'apache:%h %l %u %t "%r" %>s %b %{ms}T "%{Host}i"', '10.0.0.1 - - [07/Nov/2026:01:00:00 +0100] "GET /p?q HTTP/1.1" 200 12 37 "example.com"'),
   ('lighttpd %D', 'apache:%h %V %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i" %D', '10.0.0.1 example.com - [07/Nov/2026:01:00:00 +0000] "GET /l HTTP/1.1" 200 5 "-" "curl" 214500'),
   ('varnishncsa %D', 'apache:%h %l %u %t "%r" %s %b "%{Referer}i" "%{User-agent}i" %D', '10.0.0.1 - - [07/Nov/2026:01:00:00 +0000] "GET http://localhost/v?x HTTP/1.1" 200 5 "-" "curl" 1499'),
   ('varnishncsa placeholder', 'apache:%h %l %u %t "%r" %s %b "%{Referer}i" "%{User-agent}i" %D', '10.0.0.1 - - [07/Nov/2026:01:00:00 +0000] "- http://localhost HTTP/1.0" 400 5 "-" "-" 10'),
   ('lighttpd placeholder', 'apache:%h %V %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i" %D', '10.0.0.1 example.com - [07/Nov/2026:01:00:00 +0000] "  " 400 5 "-" "-" 10')
 ) f(name, fmt, line), logp95_parse(f.line, f.fmt) p;
-- the host option: %V, $host, host=
SELECT r.route FROM logp95_report((SELECT logp95_agg('10.0.0.1 example.com - [07/Nov/2026:01:00:00 +0000] "GET /l HTTP/1.1" 200 5 "-" "curl" 214500',
       'apache:%h %V %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i" %D', 'host'))) r;
SELECT r.route FROM logp95_report((SELECT logp95_agg('api.example.com 10.0.0.1 "GET /v1/users HTTP/1.1" 0.004',
       'nginx:''$host $remote_addr "$request" $request_time''', 'host'))) r;

-- times: ISO 8601, epoch, and the offset of a time written without one
SELECT f.fmt, logp95_line_time(f.line, f.fmt) FROM (VALUES
   ('nginx:''$time_iso8601 "$request" $request_time''', '2026-11-07T01:00:00+01:00 "GET / HTTP/1.1" 0.001'),
   ('nginx:''$msec "$request" $request_time''', '1762477200.123 "GET / HTTP/1.1" 0.001'),
   ('apache:%{msec}t "%r" %D', '1762477200123 "GET / HTTP/1.1" 1000'),
   ('apache:%{%Y-%m-%dT%H:%M:%S}t "%r" %D', '2026-11-07T01:00:00 "GET / HTTP/1.1" 1000'),
   ('apache@+01:00:%{%Y-%m-%dT%H:%M:%S}t "%r" %D', '2026-11-07T01:00:00 "GET / HTTP/1.1" 1000'),
   ('apache@-0530:%{%Y-%m-%dT%H:%M:%S}t "%r" %D', '2026-11-07T01:00:00 "GET / HTTP/1.1" 1000'),
   ('nginx@+01:00:''[$time_local] "$request" $request_time''', '[07/Nov/2026:01:00:00 +0000] "GET / HTTP/1.1" 0.001'),
   ('json:route=u, latency=d:ms, time=t:epoch_ms', '{"u":"/","d":5,"t":1762477200123}'),
   ('json:route=u, latency=d:ms, time=t:epoch_us', '{"u":"/","d":5,"t":"1762477200123456"}'),
   ('json:route=u, latency=d:ms, time=t:epoch_ns', '{"u":"/","d":5,"t":1762477200123456789}'),
   ('json:route=u, latency=d:ms, time=t:clf', '{"u":"/","d":5,"t":"07/Nov/2026:01:00:00 -0800"}'),
   ('json@+09:00:route=u, latency=d:ms, time=t:iso8601', '{"u":"/","d":5,"t":"2026-11-07T01:00:00"}'),
   ('json@+09:00:route=u, latency=d:ms, time=t:iso8601', '{"u":"/","d":5,"t":"2026-11-07T01:00:00Z"}'),
   ('json:route=u, latency=d:ms, time=t:epoch', '{"u":"/","d":5,"t":"soon"}')
 ) f(fmt, line) ORDER BY 1, 2;
-- the epoch kinds agree with PostgreSQL's to_timestamp
SELECT logp95_line_time('{"u":"/","d":5,"t":1762477200.123456}', 'json:route=u, latency=d:ms, time=t:epoch') = to_timestamp(1762477200.123456) AS epoch_s,
       logp95_line_time('{"u":"/","d":5,"t":253402300799}', 'json:route=u, latency=d:ms, time=t:epoch') = '9999-12-31 23:59:59+00' AS last_second,
       logp95_line_time('{"u":"/","d":5,"t":253402300800}', 'json:route=u, latency=d:ms, time=t:epoch') IS NULL AS past_9999;

-- a format argument that varies from row to row: each row its own format
SELECT r.route, r.requests FROM logp95_report((SELECT logp95_agg(line, fmt) FROM (VALUES
   ('nginx:''"$request" $request_time''', '"GET /a HTTP/1.1" 0.001'),
   ('apache:"%r" %D', '"GET /a HTTP/1.1" 2000'),
   ('json:route=u, latency=d:ms', '{"u":"/a","d":3}'),
   ('nginx:''"$request" $request_time''', '"GET /b HTTP/1.1" 0.004')) v(fmt, line))) r;

-- hostile and incomplete definitions: 22023 naming the position, never a crash
\set VERBOSITY default
SELECT logp95_agg('x', 'nginx:''$remote_addr [$time_local] "$request" $status''');
SELECT logp95_agg('x', 'nginx:''$request_time''');
SELECT logp95_line_time('x', 'nginx:''"$request" $request_time''');
SELECT logp95_agg('x', 'nginx:''"$request" $request_time''', 'host');
SELECT logp95_agg('x', 'nginx:''"$request" $status$request_time''');
SELECT logp95_agg('x', 'nginx:''"$request" $request_time');
SELECT logp95_agg('x', 'nginx:escape=xml ''"$request" $request_time''');
SELECT logp95_agg('x', 'apache:"%r" %D %Z');
SELECT logp95_agg('x', 'apache:"%r" %{ms');
SELECT logp95_agg('x', 'apache:"%r" %{xs}T');
SELECT logp95_agg('x', 'json:route=a, latency=b');
SELECT logp95_agg('x', 'json:route=a, latency=b:s, colour=c');
SELECT logp95_line_time('x', 'json:route=a, latency=b:s');
SELECT logp95_agg('x', 'json:route=a, latency=b:s', 'host');
SELECT logp95_agg('x', 'nginx@+25:00:''"$request" $request_time''');
\set VERBOSITY sqlstate
SELECT logp95_agg('x', 'nginx:');
SELECT logp95_agg('x', 'apache:');
SELECT logp95_agg('x', 'json:');
SELECT logp95_agg('x', 'nginx:' || repeat('$a ', 2000));
SELECT logp95_agg('x', 'apache:"%r" %D ' || repeat('%h ', 200));
SELECT logp95_agg('x', 'apache:"%r" %D "' || repeat('x', 300) || '"');
SELECT logp95_agg('x', 'json:route=' || repeat('a.', 20) || 'b, latency=c:s');
SELECT logp95_agg('x', 'json:' || repeat(' ', 2000) || 'route=a, latency=b:s');
SELECT logp95_agg('x', 'nginx:''' || repeat('"', 50) || '''');
SELECT logp95_agg('x', 'apache:' || repeat('%', 101));
SELECT logp95_agg('x', 'apache:' || repeat('%{', 60));
SELECT logp95_agg('x', 'nginx:' || repeat('${', 60));
-- the server is still there, and a good definition after them works
SELECT r.route, r.requests FROM logp95_report((SELECT logp95_agg('"GET /ok HTTP/1.1" 0.001', 'nginx:''"$request" $request_time'''))) r;
-- malformed lines of a definition: skipped in skip mode, their message in error mode
SELECT logp95_malformed(logp95_agg(line, :'custom', 'skip')) FROM (VALUES ('junk'), ('[07/Nov/2026:01:00:00 +0100] 10.0.0.1 "GET / HTTP/1.1" 200 rt=- urt=-')) v(line);
\set VERBOSITY default
SELECT logp95_agg('[07/Nov/2026:01:00:00 +0100] 10.0.0.1 "GET / HTTP/1.1" 000 rt=0.1 urt=-', :'custom');
\set VERBOSITY sqlstate
