/* logp95--1.0--1.1.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION logp95 UPDATE TO '1.1'" to load this file. \quit

-- Version 1.1: every SQL object added or changed after 1.0 was released.
-- CREATE EXTENSION logp95 runs logp95--1.0.sql and then this script, so a
-- fresh install and an updated one hold the same objects.

-- The SRE functions (issue 15).  All read a state in place, route by route
-- in byte order, with logp95_percentile's rank rule (src/lp_rank.c).

CREATE FUNCTION logp95_percentiles(state logp95_state, fractions float8[],
	OUT route text, OUT requests bigint, OUT latencies_ms bigint[])
RETURNS SETOF record
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE
ROWS 300;

COMMENT ON FUNCTION logp95_percentiles(logp95_state, float8[]) IS
'per route, the latency at each fraction in the order given (rank min(floor(n*f), n-1)); one walk per route';

CREATE FUNCTION logp95_within(state logp95_state, threshold_ms bigint,
	OUT route text, OUT requests bigint, OUT within bigint, OUT share float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE
ROWS 300;

COMMENT ON FUNCTION logp95_within(logp95_state, bigint) IS
'per route, the requests that took at most threshold_ms and their share (SLO compliance)';

CREATE FUNCTION logp95_stats(state logp95_state,
	OUT route text, OUT requests bigint, OUT min_ms bigint, OUT mean_ms float8, OUT max_ms bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE
ROWS 300;

COMMENT ON FUNCTION logp95_stats(logp95_state) IS
'per route, requests, min, mean and max latency; the mean divides an exact 128-bit sum';

CREATE FUNCTION logp95_total(state logp95_state)
RETURNS logp95_state
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_total(logp95_state) IS
'the whole service: every route folded into the one route "*" (an empty state stays empty)';

CREATE FUNCTION logp95_histogram(state logp95_state, route text, bounds_ms bigint[],
	OUT le_ms bigint, OUT requests bigint, OUT cumulative bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE
ROWS 14;

COMMENT ON FUNCTION logp95_histogram(logp95_state, text, bigint[]) IS
'Prometheus-style buckets of one route: requests in (previous bound, le_ms], cumulative, last row le_ms NULL (+Inf); no rows for an absent route';

CREATE FUNCTION logp95_histogram(state logp95_state, route text,
	OUT le_ms bigint, OUT requests bigint, OUT cumulative bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE
ROWS 14;

COMMENT ON FUNCTION logp95_histogram(logp95_state, text) IS
'logp95_histogram with the default bounds 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000 ms';

-- Sample lines in the combined formats too (issue 16).  The same C function
-- as the three-argument form; the same (lines, routes, seed) give the same
-- routes and latencies in every format.

CREATE FUNCTION logp95_generate(lines bigint, routes int, seed bigint, format text)
RETURNS SETOF text
AS 'MODULE_PATHNAME', 'logp95_generate' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE
ROWS 1000;

COMMENT ON FUNCTION logp95_generate(bigint, int, bigint, text) IS
'deterministic sample access-log lines in a log format (default, combined, combined_query, combined_us, combined_us_query): the same routes and latencies as the default format''s lines';
