-- sql/nulls_empty.sql -- NULL inputs are ignored; no rows gives an empty state
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;
CREATE TABLE empty_log(line text);
-- no rows: an empty state (not NULL), which reports no rows
SELECT logp95_agg(line) AS state, logp95_agg(line) IS NULL AS is_null FROM empty_log;
SELECT count(*) FROM logp95_report((SELECT logp95_agg(line) FROM empty_log));
SELECT logp95_malformed(logp95_agg(line)) FROM empty_log;
SELECT logp95_percentile(logp95_agg(line), '/a', 0.5) FROM empty_log;
-- only NULLs
SELECT logp95_agg(line) FROM (VALUES (NULL::text), (NULL)) v(line);
-- NULLs between lines are skipped, never counted as malformed
SELECT r.*, logp95_malformed(s) AS malformed
FROM (SELECT logp95_agg(line) AS s
      FROM (VALUES ('t GET /a 1'), (NULL), ('t GET /a 3')) v(line)) x,
     logp95_report(s) r;
-- structured form: a NULL route or latency skips the row
SELECT * FROM logp95_report((SELECT logp95_agg(r, ms)
  FROM (VALUES ('/a', 1::bigint), (NULL, 2), ('/a', NULL), ('/b', 4)) v(r, ms)));
SELECT logp95_agg(r, ms) FROM (VALUES (NULL::text, NULL::bigint)) v(r, ms);
-- merge: NULL states are ignored; no rows gives the empty state
SELECT logp95_merge(s) FROM (VALUES (NULL::logp95_state)) v(s);
SELECT logp95_merge(s) FROM (SELECT logp95_agg(line) AS s FROM empty_log WHERE false) x;
SELECT * FROM logp95_report((SELECT logp95_merge(s)
  FROM (VALUES (NULL::logp95_state), ((SELECT logp95_agg('t GET /m 9')))) v(s)));
-- NULL state into the readers
SELECT count(*) FROM logp95_report(NULL);
SELECT logp95_percentile(NULL, '/a', 0.5), logp95_malformed(NULL);
SELECT logp95_percentile(logp95_agg('t GET /a 1'), NULL, 0.5);
-- GROUP BY over groups with no valid rows keeps the group
SELECT g, logp95_agg(line) FROM (VALUES (1, NULL::text), (2, 't GET /a 1')) v(g, line) GROUP BY g ORDER BY g;
