-- sql/state_io.sql -- text and binary forms of logp95_state; corrupt input is refused
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS logp95;
RESET client_min_messages;
CREATE TABLE io_log(line text);
INSERT INTO io_log SELECT l FROM logp95_generate(5000, 40, 7) l;
CREATE TABLE states(id int, s logp95_state);
INSERT INTO states VALUES (1, (SELECT logp95_agg(line) FROM io_log));
SET logp95.on_malformed = skip;
INSERT INTO states VALUES (2, (SELECT logp95_agg(l) FROM (VALUES ('t GET /a 1'), ('bad'), ('t GET /é 2')) v(l)));
RESET logp95.on_malformed;
SELECT id, s FROM states WHERE id = 2;

-- text round trip: same bytes, same report
SELECT id, s::text::logp95_state::text = s::text AS text_round_trip FROM states ORDER BY id;
CREATE TABLE states_text AS SELECT id, s::text AS t FROM states;
SELECT (SELECT count(*) FROM (
          SELECT * FROM logp95_report((SELECT s FROM states WHERE id = 1))
          EXCEPT ALL
          SELECT * FROM logp95_report((SELECT t::logp95_state FROM states_text WHERE id = 1))) d) AS differences;

-- binary round trip through COPY (binary send/receive); psql's \copy keeps
-- the file beside the test's other results, not on the server
\copy states TO 'results/state_io.bin' (FORMAT binary)
CREATE TABLE states_bin(id int, s logp95_state);
\copy states_bin FROM 'results/state_io.bin' (FORMAT binary)
SELECT a.id, a.s::text = b.s::text AS binary_round_trip
FROM states a JOIN states_bin b USING (id) ORDER BY id;
SELECT logp95_malformed(s), (SELECT count(*) FROM logp95_report(s)) FROM states_bin ORDER BY id;

-- the empty state and a hand-written one
SELECT '\x010000'::logp95_state AS empty, logp95_malformed('\x010000');
SELECT * FROM logp95_report('\x010001022f6101020501');
SELECT * FROM logp95_report('\x010001022F6101020501');  -- either case of hex digits

-- corrupt text input: a clean 22P02, never a crash or a wrong state
\set VERBOSITY default
SELECT ''::logp95_state;
SELECT 'abc'::logp95_state;
SELECT '010000'::logp95_state;
SELECT '\x010'::logp95_state;
SELECT '\x01zz00'::logp95_state;
SELECT '\x'::logp95_state;
SELECT '\x030000'::logp95_state;                   -- unknown version
SELECT '\x010001022f610102050'::logp95_state;      -- odd digits
SELECT '\x010001022f6101020501ff'::logp95_state;   -- trailing bytes
SELECT '\x010001022f610102'::logp95_state;         -- truncated
SELECT '\x010002022f6101020501'::logp95_state;     -- more routes claimed than present
SELECT '\x010001022f6101020500'::logp95_state;     -- zero count
SELECT '\x010001022f6100000000'::logp95_state;     -- route without values
SELECT '\x01000102006101020501'::logp95_state;     -- NUL byte in a route
SELECT '\x01000101ff01020501'::logp95_state;       -- route not valid UTF-8
SELECT '\x010002022f6201020501022f6101020501'::logp95_state;  -- routes out of order
SELECT '\x010002022f6101020501022f6101020501'::logp95_state;  -- duplicate route
SELECT '\x01800001022f6101020501'::logp95_state;   -- overlong varint
SELECT '\x010001022f61020405010001'::logp95_state; -- values not increasing
SELECT '\x010001022f61020c01ffffffffffffffff7f0101'::logp95_state;  -- total past bigint
SELECT '\x018080808080808080800100'::logp95_state; -- malformed count past bigint
SELECT '\x0100ffffffffffffffffff01'::logp95_state; -- absurd route count
SELECT '\x010001ffffffffffffffffff01'::logp95_state; -- absurd key length
\set VERBOSITY sqlstate
SELECT '\x0100'::logp95_state;
\set VERBOSITY default

-- corrupt binary input: COPY binary of bytea writes the same framing as send
CREATE TABLE raw_states(id int, b bytea);
INSERT INTO raw_states VALUES (1, '\x010001022f6101020501'), (2, '\x010001022f61010205');
\copy raw_states TO 'results/state_io.bin' (FORMAT binary)
CREATE TABLE states_bin2(id int, s logp95_state);
\copy states_bin2 FROM 'results/state_io.bin' (FORMAT binary)
SELECT count(*) FROM states_bin2;
TRUNCATE raw_states;
INSERT INTO raw_states VALUES (1, '\x010001022f6101020501');
\copy raw_states TO 'results/state_io.bin' (FORMAT binary)
\copy states_bin2 FROM 'results/state_io.bin' (FORMAT binary)
SELECT id, s FROM states_bin2;
-- a state that a newer library wrote (version byte 7) names its version
TRUNCATE raw_states;
INSERT INTO raw_states VALUES (3, '\x070000');
\copy raw_states TO 'results/state_io.bin' (FORMAT binary)
\copy states_bin2 FROM 'results/state_io.bin' (FORMAT binary)
SELECT '\xff0000'::logp95_state;

-- merging two valid states whose counts would pass bigint is an error, not a wrap
SELECT * FROM logp95_report('\x010001022f61010a01ffffffffffffffff7f');
SELECT logp95_merge(s) FROM (VALUES ('\x010001022f61010a01ffffffffffffffff7f'::logp95_state),
                                    ('\x010001022f61010a01ffffffffffffffff7f')) v(s);
