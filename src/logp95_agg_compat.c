/* src/logp95_agg_compat.c -- PostgreSQL glue: 1.0's logp95_agg with STYPE internal (transitions, combine, (de)serialize, final) */
#include "postgres.h"

#include "utils/builtins.h"
#include "utils/memutils.h"

#include "logp95.h"
#include "logp95_count.h"
#include "lp_codec.h"
#include "lp_partial.h"
#include "lp_state.h"

/*
 * A database still at 1.0 (before ALTER EXTENSION logp95 UPDATE) binds its
 * logp95_agg aggregates to these functions (logp95_agg_line_trans,
 * _pair_trans, _format_trans, logp95_combine, logp95_serialize,
 * logp95_deserialize, logp95_final); the same library serves it.  Their
 * transitions count exactly what the 1.1 transitions count (the per-row
 * counting of logp95_count.h, shared with logp95_agg.c); their state is a
 * bare lp_state in the aggregate context, serialized in the canonical
 * encoding for parallel workers and decoded by the combine function
 * (lp_partial.h).
 */

/* Bytes of an empty state: version 1, no malformed lines, no routes. */
static const uint8 empty_state[3] = {LP_CODEC_VERSION, 0, 0};

/* 1.0 (STYPE internal): the aggregate's state, created on first use in the aggregate context. */
static lp_state *
logp95_state_get(FunctionCallInfo fcinfo, const char *fname)
{
	MemoryContext aggcxt;
	lp_state   *st;
	lp_allocator a;

	if (!PG_ARGISNULL(0))
		return (lp_state *) PG_GETARG_POINTER(0);
	if (!AggCheckCallContext(fcinfo, &aggcxt))
		elog(ERROR, "%s called in non-aggregate context", fname);
	a = logp95_allocator(aggcxt);
	st = lp_state_create(&a);
	if (!st)
		logp95_check(LP_ENOMEM);
	return st;
}

/* ---------- 1.0: the transitions with STYPE internal ---------- */

PG_FUNCTION_INFO_V1(logp95_agg_line_trans);
/* logp95_agg_line_trans(internal, text): 1.0 transition of logp95_agg(text). */
Datum
logp95_agg_line_trans(PG_FUNCTION_ARGS)
{
	lp_state   *st;

	st = likely(!PG_ARGISNULL(0)) ? (lp_state *) PG_GETARG_POINTER(0) :
		logp95_state_get(fcinfo, "logp95_agg_line_trans");
	logp95_count_line(st, fcinfo);
	PG_RETURN_POINTER(st);
}

/*
 * 1.0's other transitions, written once: the state (created on the first
 * row), what the form counts (`count`, over st and fcinfo), the state back.
 */
#define LOGP95_INTERNAL_TRANS(name, count) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	lp_state   *st = logp95_state_get(fcinfo, #name); \
\
	count; \
	PG_RETURN_POINTER(st); \
}

/* logp95_agg_pair_trans(internal, text, bigint): 1.0 transition of logp95_agg(text, bigint). */
LOGP95_INTERNAL_TRANS(logp95_agg_pair_trans, logp95_count_pair(st, fcinfo, -1))

/* logp95_agg_format_trans(internal, text, text): 1.0 transition of logp95_agg(text, text). */
LOGP95_INTERNAL_TRANS(logp95_agg_format_trans, logp95_count_format_line(st, fcinfo, -1, false))

/* ---------- 1.0: combine, serialize, deserialize, final of STYPE internal ---------- */

PG_FUNCTION_INFO_V1(logp95_combine);
/* Combine two partial states (parallel query, partial aggregation). */
Datum
logp95_combine(PG_FUNCTION_ARGS)
{
	lp_state   *st;

	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_POINTER(PG_GETARG_POINTER(0));
	}
	/*
	 * state 2 may live in a short-lived context: always copy into state 1;
	 * a deserialized state 2 is decoded straight into state 1
	 */
	st = logp95_state_get(fcinfo, "logp95_combine");
	logp95_check(lp_state_flush(st));
	logp95_check(lp_state_flush((lp_state *) PG_GETARG_POINTER(1)));
	logp95_check(lp_state_merge_any(st, (lp_state *) PG_GETARG_POINTER(1)));
	PG_RETURN_POINTER(st);
}

/*
 * Make a running state readable: count the row the pipelined transition
 * left pending and decode a deserialized encoding (NULL: nothing to do).
 */
static void
logp95_state_ready(lp_state *st)
{
	if (!st)
		return;
	logp95_check(lp_state_flush(st));
	logp95_check(lp_state_materialize(st));
}

/* Encode a state (NULL: the empty state) as a varlena in the current context. */
static bytea *
logp95_encode_datum(const lp_state *st)
{
	lp_allocator a = logp95_allocator(CurrentMemoryContext);
	uint8	   *buf;
	size_t		len;

	if (!st)
		return logp95_make_datum(empty_state, sizeof(empty_state));
	logp95_check(lp_encode(st, &a, VARHDRSZ, MaxAllocSize, &buf, &len));
	SET_VARSIZE(buf, VARHDRSZ + len);
	return (bytea *) buf;
}

PG_FUNCTION_INFO_V1(logp95_serialize);
/* Partial state -> bytea, in the same encoding as logp95_state. */
Datum
logp95_serialize(PG_FUNCTION_ARGS)
{
	lp_state   *st = (lp_state *) PG_GETARG_POINTER(0);

	if (!AggCheckCallContext(fcinfo, NULL))
		elog(ERROR, "logp95_serialize called in non-aggregate context");
	logp95_state_ready(st);
	PG_RETURN_BYTEA_P(logp95_encode_datum(st));
}

PG_FUNCTION_INFO_V1(logp95_deserialize);
/* bytea -> partial state, checked like any other input. */
Datum
logp95_deserialize(PG_FUNCTION_ARGS)
{
	lp_allocator a = logp95_allocator(CurrentMemoryContext);
	bytea	   *in = PG_GETARG_BYTEA_PP(0);
	lp_state   *st;
	uint8	   *copy;

	if (!AggCheckCallContext(fcinfo, NULL))
		elog(ERROR, "logp95_deserialize called in non-aggregate context");
	st = lp_state_create(&a);
	if (!st)
		logp95_check(LP_ENOMEM);

	/*
	 * Checked now, decoded later: the combine function decodes it straight
	 * into the running state.  The bytes are copied next to the state, which
	 * may outlive the input tuple.
	 */
	copy = palloc(VARSIZE_ANY_EXHDR(in) ? VARSIZE_ANY_EXHDR(in) : 1);
	memcpy(copy, VARDATA_ANY(in), VARSIZE_ANY_EXHDR(in));
	logp95_check(lp_state_defer(st, copy, VARSIZE_ANY_EXHDR(in)));
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(logp95_final);
/* Final function: the running state as a logp95_state, left intact. */
Datum
logp95_final(PG_FUNCTION_ARGS)
{
	lp_state   *st = PG_ARGISNULL(0) ? NULL : (lp_state *) PG_GETARG_POINTER(0);

	logp95_state_ready(st);
	PG_RETURN_BYTEA_P(logp95_encode_datum(st));
}
