-- test/bench/internal_agg.sql -- 1.0's logp95_agg (STYPE internal) beside 1.1's, for the benchmark only
--
-- logp95_agg_internal(text) and logp95_agg_internal(text, bigint) are
-- logp95_agg as release 1.0 defined it: STYPE internal with serialize and
-- deserialize functions, over the C functions the library keeps for
-- databases at 1.0.  test/bench/stype.sh times them against logp95_agg
-- (STYPE logp95_state, expanded in place).  Not part of the extension.
CREATE FUNCTION logp95_int_line_trans(internal, text) RETURNS internal
AS '$libdir/logp95', 'logp95_agg_line_trans' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION logp95_int_pair_trans(internal, text, bigint) RETURNS internal
AS '$libdir/logp95', 'logp95_agg_pair_trans' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION logp95_int_combine(internal, internal) RETURNS internal
AS '$libdir/logp95', 'logp95_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION logp95_int_serialize(internal) RETURNS bytea
AS '$libdir/logp95', 'logp95_serialize' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION logp95_int_deserialize(bytea, internal) RETURNS internal
AS '$libdir/logp95', 'logp95_deserialize' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION logp95_int_final(internal) RETURNS logp95_state
AS '$libdir/logp95', 'logp95_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE AGGREGATE logp95_agg_internal(line text) (
	SFUNC = logp95_int_line_trans, STYPE = internal, SSPACE = 65536,
	FINALFUNC = logp95_int_final, FINALFUNC_MODIFY = READ_ONLY,
	COMBINEFUNC = logp95_int_combine, SERIALFUNC = logp95_int_serialize,
	DESERIALFUNC = logp95_int_deserialize, PARALLEL = SAFE
);
CREATE AGGREGATE logp95_agg_internal(route text, latency_ms bigint) (
	SFUNC = logp95_int_pair_trans, STYPE = internal, SSPACE = 65536,
	FINALFUNC = logp95_int_final, FINALFUNC_MODIFY = READ_ONLY,
	COMBINEFUNC = logp95_int_combine, SERIALFUNC = logp95_int_serialize,
	DESERIALFUNC = logp95_int_deserialize, PARALLEL = SAFE
);
