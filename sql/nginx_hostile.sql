-- sql/nginx_hostile.sql -- issue 12: real nginx lines with hostile fields, junk requests, index-safe timestamps, per-call options, route templates
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;

\getenv abs_srcdir PG_ABS_SRCDIR
\getenv datadir LP_TEST_DATA_DIR
\if :{?datadir}
\else
\set datadir :abs_srcdir '/test/data'
\endif
\set logfile :datadir '/nginx_hostile.log'

-- test/data/nginx_hostile.log: 292 lines a real nginx wrote under the field
-- test's load (test/field), with user names [admin], fake times, TLS
-- handshakes, binary junk, GARBAGE, the HTTP/2 preface, absolute-form
-- targets; test/data/nginx_hostile.expected is test/field/reference.py's
-- report of it, which the report below equals.

-- COPY into a table indexed on logp95_line_ts(line, 'combined'): every line arrives
CREATE TABLE hostile_log(n bigint GENERATED ALWAYS AS IDENTITY, line text);
CREATE INDEX hostile_log_ts ON hostile_log (logp95_line_ts(line, 'combined'));
COPY hostile_log(line) FROM :'logfile' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02');
SELECT count(*) AS lines,
       count(logp95_line_ts(line, 'combined')) AS with_time,
       min(logp95_line_ts(line, 'combined')) AS first,
       max(logp95_line_ts(line, 'combined')) AS last
FROM hostile_log;

-- the report with the per-call skip, in error mode: the reference's, route by route
SET logp95.on_malformed = error;
SELECT * FROM logp95_report((SELECT logp95_agg(line, 'combined', 'skip') FROM hostile_log));
SELECT logp95_malformed(logp95_agg(line, 'combined', 'skip')) AS malformed FROM hostile_log;
-- the same through the setting
SET logp95.on_malformed = skip;
SELECT logp95_agg(line, 'combined')::text = logp95_agg(line, 'combined', 'skip')::text AS setting_same_as_option
FROM hostile_log;
-- the per-call error overrides the setting
\set VERBOSITY terse
SELECT logp95_agg(line, 'combined', 'error') IS NULL FROM hostile_log;
RESET logp95.on_malformed;

-- requests that are not HTTP: malformed, the message says so
\set VERBOSITY default
SELECT logp95_agg(l, 'combined') FROM (VALUES ('127.0.0.2 - - [30/Nov/2026:19:27:15 +0000] "\x16\x03\x01\x02\x00\x01\x00\x01\xFC\x03\x03" 400 157 "-" "-" 0.001')) v(l);
SELECT logp95_agg(l, 'combined') FROM (VALUES ('127.0.0.2 - - [30/Nov/2026:19:27:15 +0000] "GARBAGE" 400 157 "-" "-" 0.000')) v(l);
SELECT logp95_agg(l, 'combined') FROM (VALUES ('127.0.0.2 - - [30/Nov/2026:19:27:15 +0000] "PRI * HTTP/2.0" 400 157 "-" "-" 0.000')) v(l);
SELECT logp95_agg(l, 'combined') FROM (VALUES ('127.0.0.2 - - [30/Nov/2026:19:27:15 +0000] "G{T /x HTTP/1.1" 400 157 "-" "-" 0.000')) v(l);

-- the issue's examples: a user name with brackets, blanks or a fake time changes nothing
SELECT u AS remote_user, r.route, r.max_ms, logp95_line_ts(l, 'combined') AS ts
FROM (VALUES ('[admin]'), ('a b'), ('[01/Jan/2000:00:00:00 +0000]'),
             ('[01/Jan/2000:00:00:00 +0000] \x22GET /fake HTTP/1.1\x22')) v(u),
     LATERAL (SELECT '127.0.0.1 - ' || u || ' [30/Nov/2026:23:52:47 +0545] "GET /api/users HTTP/1.1" 200 24 "-" "curl/7.88.1" 0.012') x(l),
     LATERAL logp95_report((SELECT logp95_agg(s.l, 'combined') FROM (SELECT x.l) s)) r;
-- what OPTIONS *, CONNECT and absolute-form targets give
SELECT req, f, (SELECT route FROM logp95_report((SELECT logp95_agg(s.l, s.f)
                 FROM (SELECT '1 - - [30/Nov/2026:23:52:47 +0000] "' || req || '" 200 1 "-" "-" 0.001', f) s(l, f)))) AS route
FROM (VALUES ('OPTIONS * HTTP/1.1', 'combined'), ('CONNECT example.com:443 HTTP/1.1', 'combined'),
             ('GET http://example.com/abs/path?from=proxy HTTP/1.1', 'combined'),
             ('GET http://example.com/abs/path?from=proxy HTTP/1.1', 'combined_query'),
             ('GET https://example.com HTTP/1.1', 'combined'),
             ('GET http://example.com?x=1 HTTP/1.1', 'combined_query')) v(req, f);

-- logp95_line_ts: NULL for a line without a well-formed time, never an error
SELECT l, logp95_line_ts(l, 'combined') AS ts
FROM (VALUES ('1 - - [07/Nov/2026:12:00:05 +0100] "GET / HTTP/1.1" 200 1 "-" "-" 0.1'),
             ('1 - - [29/Feb/2026:12:00:05 +0000] "GET / HTTP/1.1" 200 1 "-" "-" 0.1'),
             ('1 - - [07/Nov/2026:12:00:05] "GET / HTTP/1.1" 200 1 "-" "-" 0.1'),
             ('1 - - "GET / HTTP/1.1" 200 1 "-" "-" 0.1'),
             ('1 - - [01/Jan/0001:00:30:00 +0100] "GET / HTTP/1.1" 200 1 "-" "-" 0.1'),
             ('garbage')) v(l);
SELECT logp95_line_ts(l) IS NULL AS is_null FROM (VALUES ('2026-02-29T00:00:00 GET /x 1'), ('')) v(l);

-- route templates (opt-in): ids, UUIDs and long hex strings fold; counts stay exact
SELECT * FROM logp95_report((SELECT logp95_agg(line, 'combined', 'skip,templates') FROM hostile_log))
WHERE route ~ ':(id|uuid|hex)';
SELECT (SELECT sum(requests) FROM logp95_report((SELECT logp95_agg(line, 'combined', 'skip,templates') FROM hostile_log)))
     = (SELECT sum(requests) FROM logp95_report((SELECT logp95_agg(line, 'combined', 'skip') FROM hostile_log))) AS same_requests;
SELECT r.route FROM (VALUES ('/users/42/avatar'), ('/o/3f2504e0-4f89-11d3-9a0c-0305e82c3301'),
                            ('/blob/0123456789abcdef0123'), ('/deadbeefdeadbeefdead'), ('/v2/items/42.json'))
       v(p), LATERAL logp95_report((SELECT logp95_agg(s.p, 1::bigint, 'templates') FROM (SELECT v.p) s)) r;
SELECT route FROM logp95_report((SELECT logp95_agg('1 - - [t] "GET /users/42/avatar?x=7 HTTP/1.1" 200 1 "-" "-" 0.1', 'combined', 'templates, query')));

-- the pair form: the same policy per call
SET logp95.on_malformed = error;
SELECT logp95_malformed(logp95_agg(r, ms, 'skip')) FROM (VALUES ('/a', 1::bigint), ('/a', -1)) v(r, ms);
SELECT logp95_agg(r, ms, 'error') FROM (VALUES ('/a', -1::bigint)) v(r, ms);
SET logp95.on_malformed = skip;
SELECT logp95_agg(r, ms, 'error') FROM (VALUES ('/a', -1::bigint)) v(r, ms);
SELECT logp95_malformed(logp95_agg(r, ms, NULL)) FROM (VALUES ('/a', -1::bigint)) v(r, ms);
RESET logp95.on_malformed;

-- options: unknown, conflicting, for lines only; '' and NULL are none
SELECT logp95_agg('x', 'combined', 'skip,bogus');
SELECT logp95_agg('x', 'combined', 'skip,error');
SELECT logp95_agg('/a', 1, 'query');
SELECT logp95_malformed(logp95_agg(l, 'combined', ' skip ')) FROM (VALUES ('junk')) v(l);
SELECT logp95_agg(l, 'combined', '') FROM (VALUES ('junk')) v(l);

-- untyped literals: (text, text, text); an integer second argument: (text, bigint, text)
SELECT logp95_malformed(logp95_agg('junk', 'combined', 'skip'));
SELECT logp95_report_rows(logp95_agg('/a', 5, 'skip'));

-- the default format on a combined line: the hint names the format
SELECT logp95_agg('127.0.0.1 - - [30/Nov/2026:23:51:14 +0000] "GET /api/users HTTP/1.1" 200 24 "-" "curl/7.88.1" 0.012');
SELECT logp95_agg('127.0.0.1 - - [30/Nov/2026:23:51:14 +0000] "GET /api/users HTTP/1.1" 200 24 "-" "curl/7.88.1" 12345');
\set VERBOSITY terse

DROP TABLE hostile_log;
