-- sql/line_format.sql -- blanks, CRLF, extra fields, UTF-8 and odd routes
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;
CREATE TABLE fmt(line text);
INSERT INTO fmt VALUES
 (E'2026-11-07T00:00:00\tGET\t/tabs\t11'),                 -- tabs
 (E'2026-11-07T00:00:00  GET \t  /tabs   \t 13'),           -- runs of blanks
 (E'   2026-11-07T00:00:00 GET /tabs 12'),                  -- leading blanks
 (E'2026-11-07T00:00:00 GET /crlf 21\r'),                   -- CRLF line ending
 (E'2026-11-07T00:00:00 GET /crlf 22 \r'),
 (E'2026-11-07T00:00:00 GET /extra 31 200 "Mozilla/5.0" ref=x'),  -- trailing fields
 (E'2026-11-07T00:00:00 GET /extra 32\t'),
 (E'2026-11-07T00:00:00 GET /ünïcødé/路径/🚀 41'),          -- UTF-8 route
 (E'2026-11-07T00:00:00 GET /a?q=1&b=%20 51'),              -- query string stays in the route
 (E'2026-11-07T00:00:00 GET /007 007'),                     -- leading zeros
 (E'2026-11-07T00:00:00 GET ' || repeat('/x', 5000) || ' 61'); -- a 10 kB route
SELECT left(route, 40) AS route, length(route) AS len, requests, p50_ms, max_ms
FROM logp95_report((SELECT logp95_agg(line) FROM fmt));

-- the method is not part of the route: group on it explicitly when wanted
SELECT route, requests FROM logp95_report((
  SELECT logp95_agg(split_part(line, ' ', 2) || ' ' || split_part(line, ' ', 3),
                    split_part(line, ' ', 4)::bigint)
  FROM (VALUES ('t GET /m 1'), ('t POST /m 2'), ('t GET /m 3')) v(line)));

-- byte order, not collation order
SELECT route FROM logp95_report((
  SELECT logp95_agg(r, 1) FROM unnest(ARRAY['b', 'B', 'a', 'A', '_', 'é', 'e', '/z', '/Z', '']) r));

-- a \r inside a field is part of it; only one trailing \r is dropped
SELECT encode(convert_to(route, 'UTF8'), 'escape') AS route, requests
FROM logp95_report((SELECT logp95_agg(l) FROM (VALUES (E't GET /r\rx 5\r')) v(l)));
SET logp95.on_malformed = skip;
SELECT logp95_malformed(logp95_agg(l)) FROM (VALUES (E't GET /r 5\r\r')) v(l);
RESET logp95.on_malformed;
