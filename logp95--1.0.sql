/* logp95--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION logp95" to load this file. \quit

-- ---------------------------------------------------------------------
-- The state type: every route's exact latency histogram (value -> count)
-- plus a count of skipped malformed lines.
-- ---------------------------------------------------------------------
CREATE TYPE logp95_state;

CREATE FUNCTION logp95_state_in(cstring) RETURNS logp95_state
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION logp95_state_out(logp95_state) RETURNS cstring
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION logp95_state_recv(internal) RETURNS logp95_state
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION logp95_state_send(logp95_state) RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

CREATE TYPE logp95_state (
	INPUT = logp95_state_in,
	OUTPUT = logp95_state_out,
	RECEIVE = logp95_state_recv,
	SEND = logp95_state_send,
	INTERNALLENGTH = VARIABLE,
	STORAGE = extended
);

COMMENT ON TYPE logp95_state IS
'exact latency distribution (value -> count) of every route, plus a count of skipped malformed lines';
COMMENT ON FUNCTION logp95_state_in(cstring) IS 'text input of logp95_state: \x followed by hex';
COMMENT ON FUNCTION logp95_state_out(logp95_state) IS 'text output of logp95_state: \x followed by hex';
COMMENT ON FUNCTION logp95_state_recv(internal) IS 'binary input of logp95_state, checked';
COMMENT ON FUNCTION logp95_state_send(logp95_state) IS 'binary output of logp95_state';

-- ---------------------------------------------------------------------
-- Aggregate support functions (transition, combine, serialize, final).
-- The line transitions read logp95.on_malformed, hence STABLE.
-- ---------------------------------------------------------------------
CREATE FUNCTION logp95_agg_line_trans(internal, text) RETURNS internal
AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;

CREATE FUNCTION logp95_agg_pair_trans(internal, text, bigint) RETURNS internal
AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;

CREATE FUNCTION logp95_combine(internal, internal) RETURNS internal
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION logp95_serialize(internal) RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION logp95_deserialize(bytea, internal) RETURNS internal
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION logp95_final(internal) RETURNS logp95_state
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_agg_line_trans(internal, text) IS 'transition function of logp95_agg(text): parse a line, count its latency';
COMMENT ON FUNCTION logp95_agg_pair_trans(internal, text, bigint) IS 'transition function of logp95_agg(text, bigint)';
COMMENT ON FUNCTION logp95_combine(internal, internal) IS 'combine function of the logp95 aggregates (parallel and partial aggregation)';
COMMENT ON FUNCTION logp95_serialize(internal) IS 'serialize function of the logp95 aggregates';
COMMENT ON FUNCTION logp95_deserialize(bytea, internal) IS 'deserialize function of the logp95 aggregates';
COMMENT ON FUNCTION logp95_final(internal) IS 'final function of the logp95 aggregates: the state as logp95_state';

CREATE AGGREGATE logp95_agg(line text) (
	SFUNC = logp95_agg_line_trans,
	STYPE = internal,
	SSPACE = 65536,
	FINALFUNC = logp95_final,
	FINALFUNC_MODIFY = READ_ONLY,
	COMBINEFUNC = logp95_combine,
	SERIALFUNC = logp95_serialize,
	DESERIALFUNC = logp95_deserialize,
	PARALLEL = SAFE
);

CREATE AGGREGATE logp95_agg(route text, latency_ms bigint) (
	SFUNC = logp95_agg_pair_trans,
	STYPE = internal,
	SSPACE = 65536,
	FINALFUNC = logp95_final,
	FINALFUNC_MODIFY = READ_ONLY,
	COMBINEFUNC = logp95_combine,
	SERIALFUNC = logp95_serialize,
	DESERIALFUNC = logp95_deserialize,
	PARALLEL = SAFE
);

-- logp95_merge keeps a real transition type (logp95_state, held as an
-- expanded object while it runs, src/logp95_merge.c) and a combine function,
-- so Citus can distribute it and parallel query needs no serialization.
-- INITCOND is the empty state: no rows or only NULLs give an empty state.
CREATE FUNCTION logp95_merge_combine(logp95_state, logp95_state) RETURNS logp95_state
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_merge_combine(logp95_state, logp95_state) IS
'exact union of two states; transition and combine function of logp95_merge';

CREATE AGGREGATE logp95_merge(logp95_state) (
	SFUNC = logp95_merge_combine,
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
COMMENT ON AGGREGATE logp95_merge(logp95_state) IS
'exact union of logp95 states (rollups, partitions, shards)';

-- ---------------------------------------------------------------------
-- Reading a state.
-- ---------------------------------------------------------------------
-- Planner support of the report functions: a constant state's row estimate
-- is its exact route count; otherwise the ROWS figure below is used.
CREATE FUNCTION logp95_report_support(internal) RETURNS internal
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_report_support(internal) IS
'planner support of logp95_report and logp95_report_rows: exact row estimate for a constant state';

CREATE FUNCTION logp95_report_rows(state logp95_state,
	OUT route text, OUT requests bigint, OUT p50_ms bigint,
	OUT p95_ms bigint, OUT p99_ms bigint, OUT max_ms bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE
ROWS 300 SUPPORT logp95_report_support;

COMMENT ON FUNCTION logp95_report_rows(logp95_state) IS
'one row per route of a state, in byte order of the route; used by logp95_report';

-- A plain SQL wrapper.  When the state is a column or a constant (LATERAL,
-- a table of states) the planner inlines it and EXPLAIN shows the C function
-- scan itself; with a sub-select argument PostgreSQL does not inline it, and
-- EXPLAIN shows the function scan over an InitPlan holding the aggregate and
-- its scan.  Not STRICT (inlining needs that): a NULL state gives no rows.
CREATE FUNCTION logp95_report(state logp95_state)
RETURNS TABLE(route text, requests bigint, p50_ms bigint,
	p95_ms bigint, p99_ms bigint, max_ms bigint)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
ROWS 300 SUPPORT logp95_report_support
AS $$
	SELECT r.route, r.requests, r.p50_ms, r.p95_ms, r.p99_ms, r.max_ms
	FROM @extschema@.logp95_report_rows(state) AS r
$$;

COMMENT ON FUNCTION logp95_report(logp95_state) IS
'route report of a state: requests, p50, p95, p99 and max latency per route, ordered by route (byte order)';

CREATE FUNCTION logp95_percentile(state logp95_state, route text, fraction float8)
RETURNS bigint
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_percentile(logp95_state, text, float8) IS
'latency at 0-based rank min(floor(n*fraction), n-1) of a route''s n sorted latencies; NULL for an absent route';

CREATE FUNCTION logp95_malformed(state logp95_state)
RETURNS bigint
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_malformed(logp95_state) IS
'number of malformed lines skipped (logp95.on_malformed = skip) into the state';

CREATE FUNCTION logp95_generate(lines bigint, routes int, seed bigint)
RETURNS SETOF text
AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE
ROWS 1000;

COMMENT ON FUNCTION logp95_generate(bigint, int, bigint) IS
'deterministic sample access-log lines: ascending timestamps, long-tailed latencies';

-- ---------------------------------------------------------------------
-- Time windows and log formats (src/logp95_formats.c).
-- ---------------------------------------------------------------------
CREATE FUNCTION logp95_line_ts(line text) RETURNS timestamp
AS 'MODULE_PATHNAME', 'logp95_line_ts' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_line_ts(text) IS
'timestamp of a default-format line: its first field, ISO 8601 YYYY-MM-DDTHH:MM:SS[.fraction][Z|+HH:MM]; an offset is converted to UTC';

CREATE FUNCTION logp95_line_ts(line text, format text) RETURNS timestamp
AS 'MODULE_PATHNAME', 'logp95_line_ts_format' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_line_ts(text, text) IS
'timestamp of a line in a named format (default, combined, combined_query, combined_us, combined_us_query), converted to UTC';

CREATE FUNCTION logp95_agg_format_trans(internal, text, text) RETURNS internal
AS 'MODULE_PATHNAME' LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION logp95_agg_format_trans(internal, text, text) IS
'transition function of logp95_agg(text, text): parse a line of the named format, count its latency';

CREATE AGGREGATE logp95_agg(line text, format text) (
	SFUNC = logp95_agg_format_trans,
	STYPE = internal,
	SSPACE = 65536,
	FINALFUNC = logp95_final,
	FINALFUNC_MODIFY = READ_ONLY,
	COMBINEFUNC = logp95_combine,
	SERIALFUNC = logp95_serialize,
	DESERIALFUNC = logp95_deserialize,
	PARALLEL = SAFE
);

COMMENT ON AGGREGATE logp95_agg(text, text) IS
'exact per-route latency histograms from raw lines of a named format: default, combined (nginx/Apache + request time in seconds), combined_query, combined_us (Apache %D microseconds), combined_us_query';
