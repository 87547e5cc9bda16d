-- sql/state_encoding.sql -- the encoding tag of logp95_state's text and binary forms (in a UTF8 database)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;
SELECT getdatabaseencoding();

-- a state whose routes are all ASCII is written as before, text and binary;
-- one with a non-ASCII route names the database encoding
CREATE TABLE enc_states(id int, s logp95_state);
INSERT INTO enc_states VALUES
  (1, (SELECT logp95_agg(l) FROM (VALUES ('t GET /a 1'), ('t GET /b 2')) v(l))),
  (2, (SELECT logp95_agg(l) FROM (VALUES ('t GET /café 3'), ('t GET /naïve 4'), ('t GET /plain 5')) v(l)));
SELECT id, s FROM enc_states ORDER BY id;
SELECT id, logp95_state_send(s) FROM enc_states ORDER BY id;
-- the tag lives in the external forms only: what is stored is the version-1 encoding
SELECT id, length(logp95_state_send(s)) AS sent_bytes, pg_column_size(s) - 1 AS stored_bytes
FROM enc_states ORDER BY id;

-- round trips, text and binary
SELECT id, s::text::logp95_state::text = s::text AS text_round_trip FROM enc_states ORDER BY id;
\copy enc_states TO 'results/state_encoding.bin' (FORMAT binary)
CREATE TABLE enc_bin(id int, s logp95_state);
\copy enc_bin FROM 'results/state_encoding.bin' (FORMAT binary)
SELECT a.id, a.s::text = b.s::text AS binary_round_trip FROM enc_states a JOIN enc_bin b USING (id) ORDER BY id;
SELECT logp95_percentile(s, '/café', 0.5) AS cafe, logp95_percentile(s, '/naïve', 0.5) AS naive
FROM enc_bin WHERE id = 2;

-- a tag naming the database's own encoding, in any spelling PostgreSQL knows
SELECT 'UTF8:\x010001062f636166c3a901020301'::logp95_state;
SELECT 'utf-8:\x010001062f636166c3a901020301'::logp95_state;
SELECT 'UNICODE:\x010001062f636166c3a901020301'::logp95_state;
-- a tagged state whose routes are all ASCII prints untagged: the text form is canonical
SELECT 'LATIN1:\x010001022f6101020501'::logp95_state;
-- the same route from LATIN1 (0xe9 is é): converted to the same state
SELECT 'LATIN1:\x010001052f636166e901020301'::logp95_state;
SELECT 'LATIN1:\x010001052f636166e901020301'::logp95_state::text
     = 'UTF8:\x010001062f636166c3a901020301'::logp95_state::text AS same_state;
-- SQL_ASCII names bytes of no known encoding: taken as they are when valid here
SELECT 'SQL_ASCII:\x010001062f636166c3a901020301'::logp95_state;

-- conversion can change the routes' byte order: in WIN1252 /€ (0x80) sorts
-- before /é (0xe9), in UTF8 after (e2 82 ac > c3 a9); the state is re-sorted
-- and equals the one aggregated here
SELECT 'WIN1252:\x010002022f8001020101022fe901020202'::logp95_state;
SELECT 'WIN1252:\x010002022f8001020101022fe901020202'::logp95_state::text
     = (SELECT logp95_agg(l) FROM (VALUES ('t GET /€ 1'), ('t GET /é 2'), ('t GET /é 2')) v(l))::text
       AS equals_aggregated;
SELECT * FROM logp95_report('WIN1252:\x010002022f8001020101022fe901020202');

-- bad tags: a clean 22P02 naming the problem
\set VERBOSITY default
SELECT 'NOSUCH:\x010000'::logp95_state;                    -- unknown encoding
SELECT ':\x010000'::logp95_state;                          -- empty tag
SELECT 'UT F8:\x010000'::logp95_state;                     -- not a tag name
SELECT 'UTF8:010000'::logp95_state;                        -- no \x after the tag
SELECT 'UTF8:\x0100'::logp95_state;                        -- truncated state
SELECT 'UTF8:\x01000101ff01020501'::logp95_state;          -- route not valid in the named encoding
SELECT 'UTF8:\x010002022f6201020501022f6101020501'::logp95_state;  -- routes out of order
SELECT 'SQL_ASCII:\x010001052f636166e901020301'::logp95_state;     -- SQL_ASCII bytes not valid here
SELECT 'UTF8:UTF8:\x010000'::logp95_state;                 -- two tags
-- untagged input keeps its messages
SELECT 'abc'::logp95_state;
SELECT '\x01000101ff01020501'::logp95_state;

-- binary input: COPY binary of bytea writes the framing send uses
CREATE TABLE enc_raw(id int, b bytea);
INSERT INTO enc_raw VALUES
  (1, '\xfe064c4154494e31010001052f636166e901020301'),  -- LATIN1 envelope: converted
  (2, '\xfe0455544638010001062f636166c3a901020301'),    -- UTF8 envelope
  (3, '\xfe0455544638010001022f6101020501');            -- ASCII routes in an envelope
\copy enc_raw TO 'results/state_encoding.bin' (FORMAT binary)
CREATE TABLE enc_bin2(id int, s logp95_state);
\copy enc_bin2 FROM 'results/state_encoding.bin' (FORMAT binary)
SELECT id, s, logp95_percentile(s, '/café', 0.5) FROM enc_bin2 ORDER BY id;
-- corrupt envelopes: 22P03
TRUNCATE enc_raw;
INSERT INTO enc_raw VALUES (1, '\xfe');
\copy enc_raw TO 'results/state_encoding.bin' (FORMAT binary)
\copy enc_bin2 FROM 'results/state_encoding.bin' (FORMAT binary)
TRUNCATE enc_raw;
INSERT INTO enc_raw VALUES (1, '\xfe0a55544638');
\copy enc_raw TO 'results/state_encoding.bin' (FORMAT binary)
\copy enc_bin2 FROM 'results/state_encoding.bin' (FORMAT binary)
TRUNCATE enc_raw;
INSERT INTO enc_raw VALUES (1, '\xfe044e4f5045010000');
\copy enc_raw TO 'results/state_encoding.bin' (FORMAT binary)
\copy enc_bin2 FROM 'results/state_encoding.bin' (FORMAT binary)
TRUNCATE enc_raw;
INSERT INTO enc_raw VALUES (1, '\xfe0455544638');
\copy enc_raw TO 'results/state_encoding.bin' (FORMAT binary)
\copy enc_bin2 FROM 'results/state_encoding.bin' (FORMAT binary)
SELECT count(*) FROM enc_bin2;
