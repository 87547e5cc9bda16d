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

-- ---------------------------------------------------------------------
-- logp95_agg with a real transition type (issue 13).
-- ---------------------------------------------------------------------
-- The three logp95_agg aggregates of 1.0 (and the two new ones below) take logp95_state as their transition
-- type (an expanded object updated in place, src/logp95_expanded.h), as
-- logp95_merge does, with logp95_merge_combine as their combine function
-- and no final function.  Citus can then push partial aggregation down to
-- its workers (it cannot for STYPE internal), and parallel query ships the
-- flat state.  ALTER AGGREGATE cannot change a transition type: they are
-- dropped and created again.  A view (or any other object) that uses one
-- of them would make DROP fail; the check below names such views first.
DO $$
DECLARE
	deps text;
BEGIN
	SELECT string_agg(DISTINCT format('%s (%s)', pg_describe_object(d.classid, d.objid, 0),
				d.refobjid::regprocedure), ', ')
	  INTO deps
	  FROM pg_depend d
	 WHERE d.refclassid = 'pg_proc'::regclass
	   AND d.refobjid IN ('logp95_agg(text)'::regprocedure,
						  'logp95_agg(text, bigint)'::regprocedure,
						  'logp95_agg(text, text)'::regprocedure)
	   AND d.deptype = 'n';
	IF deps IS NOT NULL THEN
		RAISE EXCEPTION 'cannot update logp95 to 1.1 while other objects use logp95_agg'
			USING ERRCODE = 'dependent_objects_still_exist',
				  DETAIL = format('Update 1.1 recreates the logp95_agg aggregates with a new transition type.  Objects that use them: %s.', deps),
				  HINT = 'Drop those objects, run ALTER EXTENSION logp95 UPDATE, and create them again (pg_get_viewdef gives a view''s definition).';
	END IF;
END
$$;

DROP AGGREGATE logp95_agg(text);
DROP AGGREGATE logp95_agg(text, bigint);
DROP AGGREGATE logp95_agg(text, text);
-- 1.0's support functions; the library keeps them for databases at 1.0
DROP FUNCTION logp95_agg_line_trans(internal, text);
DROP FUNCTION logp95_agg_pair_trans(internal, text, bigint);
DROP FUNCTION logp95_agg_format_trans(internal, text, text);
DROP FUNCTION logp95_combine(internal, internal);
DROP FUNCTION logp95_serialize(internal);
DROP FUNCTION logp95_deserialize(bytea, internal);
DROP FUNCTION logp95_final(internal);

-- The line transitions read logp95.on_malformed, hence STABLE; not STRICT:
-- a NULL line is skipped and the state goes on.
CREATE FUNCTION logp95_line_trans(logp95_state, text) RETURNS logp95_state
AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_line_trans(logp95_state, text) IS
'transition function of logp95_agg(text): parse a line, count its latency (the state updated in place inside the aggregate)';

CREATE FUNCTION logp95_pair_trans(logp95_state, text, bigint) RETURNS logp95_state
AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_pair_trans(logp95_state, text, bigint) IS
'transition function of logp95_agg(text, bigint): count one (route, latency_ms) row';

CREATE FUNCTION logp95_format_trans(logp95_state, text, text) RETURNS logp95_state
AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_format_trans(logp95_state, text, text) IS
'transition function of logp95_agg(text, text): parse a line of the named format, count its latency';

-- INITCOND is the empty state: no rows or only NULLs give an empty state.
CREATE AGGREGATE logp95_agg(line text) (
	SFUNC = logp95_line_trans,
	STYPE = logp95_state,
	SSPACE = 65536,
	INITCOND = '\x010000',
	COMBINEFUNC = logp95_merge_combine,
	PARALLEL = SAFE
);

CREATE AGGREGATE logp95_agg(route text, latency_ms bigint) (
	SFUNC = logp95_pair_trans,
	STYPE = logp95_state,
	SSPACE = 65536,
	INITCOND = '\x010000',
	COMBINEFUNC = logp95_merge_combine,
	PARALLEL = SAFE
);

CREATE AGGREGATE logp95_agg(line text, format text) (
	SFUNC = logp95_format_trans,
	STYPE = logp95_state,
	SSPACE = 65536,
	INITCOND = '\x010000',
	COMBINEFUNC = logp95_merge_combine,
	PARALLEL = SAFE
);

COMMENT ON AGGREGATE logp95_agg(text) IS
'exact per-route latency histograms from raw access-log lines "<timestamp> <method> <route> <latency_ms>"';
COMMENT ON AGGREGATE logp95_agg(text, bigint) IS
'exact per-route latency histograms from (route, latency_ms) rows';
COMMENT ON AGGREGATE logp95_agg(text, text) IS
'exact per-route latency histograms from raw lines of a named format: default, combined (nginx/Apache + request time in seconds), combined_query, combined_us (Apache %D microseconds), combined_us_query';

-- Per-call options (issue 12): logp95_agg(line, format, options) and
-- logp95_agg(route, latency_ms, options).  options is a comma-separated
-- list of words (src/lp_formats.c, lp_options[]): skip | error (overrides
-- logp95.on_malformed for this call), templates (fold ids in the route's
-- path into :id, :uuid, :hex), query (keep the query string; lines only).
-- Like the other forms (issue 13): STYPE logp95_state, INITCOND the empty
-- state, combine logp95_merge_combine, no final function, so Citus pushes
-- them down too.  With untyped literals, logp95_agg('...', '...', '...')
-- resolves to (text, text, text): PostgreSQL prefers the string category
-- for an unknown argument; a bigint or integer second argument picks
-- (text, bigint, text).

CREATE FUNCTION logp95_format_opts_trans(logp95_state, text, text, text) RETURNS logp95_state
AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_format_opts_trans(logp95_state, text, text, text) IS
'transition function of logp95_agg(text, text, text): parse a line of a named format with per-call options, count its latency';

CREATE FUNCTION logp95_pair_opts_trans(logp95_state, text, bigint, text) RETURNS logp95_state
AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_pair_opts_trans(logp95_state, text, bigint, text) IS
'transition function of logp95_agg(text, bigint, text): count a (route, latency_ms) row with per-call options';

CREATE AGGREGATE logp95_agg(line text, format text, options text) (
	SFUNC = logp95_format_opts_trans,
	STYPE = logp95_state,
	SSPACE = 65536,
	INITCOND = '\x010000',
	COMBINEFUNC = logp95_merge_combine,
	PARALLEL = SAFE
);

CREATE AGGREGATE logp95_agg(route text, latency_ms bigint, options text) (
	SFUNC = logp95_pair_opts_trans,
	STYPE = logp95_state,
	SSPACE = 65536,
	INITCOND = '\x010000',
	COMBINEFUNC = logp95_merge_combine,
	PARALLEL = SAFE
);

COMMENT ON AGGREGATE logp95_agg(text, text, text) IS
'logp95_agg(line, format) with per-call options: skip | error, templates, query (comma-separated)';
COMMENT ON AGGREGATE logp95_agg(text, bigint, text) IS
'logp95_agg(route, latency_ms) with per-call options: skip | error, templates (comma-separated)';
