-- sql/malformed.sql -- bad lines: ERROR 22P02 by default, counted in skip mode
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;
\set VERBOSITY default
SELECT logp95_agg(l) FROM (VALUES ('2026-11-07T00:00:00 GET /a')) v(l);
SELECT logp95_agg(l) FROM (VALUES ('')) v(l);
SELECT logp95_agg(l) FROM (VALUES ('2026-11-07T00:00:00 GET /a 12ms')) v(l);
\set VERBOSITY default
SHOW logp95.on_malformed;
SELECT logp95_agg(l) FROM (VALUES ('2026-11-07T00:00:00 GET /a -5')) v(l);
SELECT logp95_agg(l) FROM (VALUES ('2026-11-07T00:00:00 GET /a 1e3')) v(l);
SELECT logp95_agg(l) FROM (VALUES ('2026-11-07T00:00:00 GET /a +')) v(l);
SELECT logp95_agg(l) FROM (VALUES ('2026-11-07T00:00:00 GET /a 0x10')) v(l);
SELECT logp95_agg(l) FROM (VALUES ('2026-11-07T00:00:00 GET /a 3.5')) v(l);
SELECT logp95_agg(l) FROM (VALUES ('2026-11-07T00:00:00 GET /a 9223372036854775808')) v(l);
SELECT logp95_agg(l) FROM (VALUES ('2026-11-07T00:00:00 GET /a 99999999999999999999999')) v(l);
-- a long line is quoted cut short, on a character boundary
SELECT logp95_agg(l) FROM (VALUES ('2026-11-07T00:00:00 GET /' || repeat('é', 300) || ' x')) v(l);
-- the error names the problem even in the middle of good lines
SELECT logp95_agg(l) FROM (VALUES ('2026-11-07T00:00:00 GET /a 1'), ('oops'), ('2026-11-07T00:00:00 GET /a 2')) v(l);
-- structured form: a negative latency
SELECT logp95_agg(r, ms) FROM (VALUES ('/a', 5::bigint), ('/a', -1)) v(r, ms);
\set VERBOSITY sqlstate
SELECT logp95_agg(l) FROM (VALUES ('a b c d')) v(l);
SELECT logp95_agg(l) FROM (VALUES ('a b c')) v(l);
SELECT logp95_agg(l) FROM (VALUES ('a b c 12ms')) v(l);
SELECT logp95_agg(l) FROM (VALUES ('a b c 9223372036854775808')) v(l);
SELECT logp95_agg(r, ms) FROM (VALUES ('/a', -1::bigint)) v(r, ms);
\set VERBOSITY default

-- skip mode: bad lines are counted, good ones kept
SET logp95.on_malformed = skip;
CREATE TABLE mixed(line text);
INSERT INTO mixed VALUES
 ('2026-11-07T00:00:00 GET /a 10'),
 ('2026-11-07T00:00:00 GET /a'),
 ('2026-11-07T00:00:00 GET /a 12ms'),
 ('2026-11-07T00:00:00 GET /a -5'),
 ('2026-11-07T00:00:00 GET /a 99999999999999999999'),
 ('2026-11-07T00:00:00 GET /b 30'),
 (''),
 (NULL),
 ('2026-11-07T00:00:00 GET /a 20');
SELECT logp95_malformed(logp95_agg(line)) FROM mixed;
SELECT * FROM logp95_report((SELECT logp95_agg(line) FROM mixed));
-- a state with only malformed lines: no routes, the count kept
SELECT logp95_malformed(s), (SELECT count(*) FROM logp95_report(s)) AS routes
FROM (SELECT logp95_agg(line) AS s FROM mixed WHERE line NOT LIKE '%0') x;
-- counts add up through merge
SELECT logp95_malformed(logp95_merge(s))
FROM (SELECT logp95_agg(line) AS s FROM mixed
      UNION ALL SELECT logp95_agg(line) FROM mixed) x;
SELECT logp95_malformed(logp95_agg(r, ms)) FROM (VALUES ('/a', 5::bigint), ('/a', -1), ('/b', -7)) v(r, ms);
RESET logp95.on_malformed;

-- the setting is checked, and the prefix is reserved
SET logp95.on_malformed = ignore;
SET logp95.no_such_setting = 1;
