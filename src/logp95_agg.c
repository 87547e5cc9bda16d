/* src/logp95_agg.c -- PostgreSQL glue: the logp95_agg aggregates (transitions; 1.0's combine, (de)serialize, final) */
#include "postgres.h"

#include "utils/builtins.h"
#include "utils/memutils.h"

#include "logp95.h"
#include "logp95_expanded.h"
#include "lp_codec.h"
#include "lp_formats.h"
#include "lp_parse.h"
#include "lp_partial.h"
#include "lp_state.h"

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

/* ---------- the malformed policy, one for every transition ---------- */

/*
 * logp95.on_malformed for every transition: in skip mode count one
 * malformed row into st and return true; in error mode return false (the
 * caller raises the error that describes the row).
 */
static bool
logp95_skip_malformed(lp_state *st)
{
	if (logp95_on_malformed != LOGP95_MALFORMED_SKIP)
		return false;
	logp95_check(lp_state_add_malformed(st, 1));
	return true;
}

/*
 * The message of each failing parse status, a whole sentence each: those
 * with %s quote the field the parser names (lp_fields.bad), the others
 * take the fields wanted and found (lp_fields.nwant, lp_fields.nfields).
 */
static const char *const logp95_line_messages[] = {
	[LP_LINE_TOO_FEW_FIELDS] = gettext_noop("malformed log line: expected %d fields, found %d"),
	[LP_LINE_BAD_LATENCY] = gettext_noop("malformed log line: latency \"%s\" is not a non-negative integer"),
	[LP_LINE_LATENCY_RANGE] = gettext_noop("malformed log line: latency \"%s\" is out of range for type bigint"),
	[LP_LINE_NO_TIME] = gettext_noop("malformed log line: no [time] field after the client address"),
	[LP_LINE_NO_REQUEST] = gettext_noop("malformed log line: no quoted request after the time"),
	[LP_LINE_BAD_REQUEST] = gettext_noop("malformed log line: request \"%s\" has no path"),
	[LP_LINE_UNTERMINATED] = gettext_noop("malformed log line: a quoted field has no closing quote"),
	[LP_LINE_TOO_FEW_TAIL_FIELDS] = gettext_noop("malformed log line: expected %d fields after the request, found %d"),
	[LP_LINE_BAD_SECONDS] = gettext_noop("malformed log line: request time \"%s\" is not a non-negative number of seconds"),
	[LP_LINE_BAD_MICROS] = gettext_noop("malformed log line: request time \"%s\" is not a non-negative integer of microseconds"),
	[LP_LINE_REQTIME_RANGE] = gettext_noop("malformed log line: request time \"%s\" is out of range for type bigint in milliseconds")
};

/*
 * Raise the 22P02 error of a malformed line of format `fmt`: parse it again
 * for the fields the message names (only lines that failed come here).
 */
pg_noreturn static void
logp95_line_error(const lp_format_def *fmt, const char *line, size_t len)
{
	lp_fields	lf;
	lp_line_status ls = fmt->parse(line, len, fmt, &lf);
	const char *msg;

	if (ls <= LP_LINE_OK || ls >= lengthof(logp95_line_messages))
		elog(ERROR, "log line error reported for parse status %d", (int) ls);
	msg = logp95_line_messages[ls];
	if (lf.bad)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg(msg, logp95_quote(lf.bad, lf.bad_len)),
				 logp95_errdetail_line(line, len),
				 errhint("Set logp95.on_malformed to \"skip\" to count malformed lines instead.")));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg(msg, lf.nwant, lf.nfields),
			 logp95_errdetail_line(line, len),
			 errhint("Set logp95.on_malformed to \"skip\" to count malformed lines instead.")));
}

/*
 * A line of format `fmt` that did not parse: counted in skip mode, else
 * the error that describes it.
 */
static void
logp95_malformed_line(lp_state *st, const lp_format_def *fmt, const char *line, size_t len)
{
	if (!logp95_skip_malformed(st))
		logp95_line_error(fmt, line, len);
}

/* ---------- what each form counts from one row (any state type) ---------- */

/*
 * logp95_agg(line text): parse one raw line (argument 1) and count its
 * latency.  This runs once per row, so it avoids calls where it can: an
 * inline (short or plain) text is used as it is, and only a compressed or
 * out-of-line value goes through detoasting.  A NULL line counts nothing.
 */
static LP_ALWAYS_INLINE void
logp95_count_line(lp_state *st, FunctionCallInfo fcinfo)
{
	struct varlena *t;
	const char *line;
	size_t		len;
	lp_line		pl;
	int			rc;

	if (PG_ARGISNULL(1))
		return;
	t = (struct varlena *) PG_GETARG_POINTER(1);
	if (unlikely(VARATT_IS_EXTERNAL(t) || VARATT_IS_COMPRESSED(t)))
		t = pg_detoast_datum_packed(t);
	line = VARDATA_ANY(t);
	len = VARSIZE_ANY_EXHDR(t);
	/* the default format's parser, called directly: the inline hot path */
	if (likely(lp_parse_line(line, len, &pl) == LP_PARSE_OK))
	{
		rc = lp_state_add_pipelined(st, pl.route, pl.route_len, pl.latency);
		if (unlikely(rc != LP_OK))
			logp95_check(rc);
	}
	else
		logp95_malformed_line(st, LP_FORMAT_DEFAULT, line, len);
}

/* logp95_agg(route text, latency_ms bigint): count one structured row (arguments 1, 2). */
static void
logp95_count_pair(lp_state *st, FunctionCallInfo fcinfo)
{
	text	   *route;
	int64		latency;

	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
		return;
	route = PG_GETARG_TEXT_PP(1);
	latency = PG_GETARG_INT64(2);
	if (latency < 0)
	{
		if (!logp95_skip_malformed(st))
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("latency %lld is negative", (long long) latency),
					 errdetail("The route was \"%s\".",
							   logp95_quote(VARDATA_ANY(route), VARSIZE_ANY_EXHDR(route))),
					 errhint("Set logp95.on_malformed to \"skip\" to count such rows instead.")));
		return;
	}
	logp95_check(lp_state_add_pipelined(st, VARDATA_ANY(route), VARSIZE_ANY_EXHDR(route), latency));
}

/* logp95_agg(line text, format text): parse one line (argument 1) of the named format (argument 2). */
static void
logp95_count_format_line(lp_state *st, FunctionCallInfo fcinfo)
{
	const lp_format_def *fmt;
	text	   *t;
	const char *line;
	size_t		len;
	lp_fields	lf;

	if (PG_ARGISNULL(2))
		return;
	fmt = logp95_format_arg(fcinfo, 2);
	if (PG_ARGISNULL(1))
		return;
	t = PG_GETARG_TEXT_PP(1);
	line = VARDATA_ANY(t);
	len = VARSIZE_ANY_EXHDR(t);
	if (unlikely(fmt->parse(line, len, fmt, &lf) != LP_LINE_OK))
		logp95_malformed_line(st, fmt, line, len);
	else
		logp95_check(lp_state_add_pipelined(st, lf.route, lf.route_len, lf.latency));
}

/* ---------- the running state of the transitions (STYPE logp95_state) ---------- */

/*
 * The first row of a group (argument 0 is the flat INITCOND), or a call
 * outside an aggregate: a new expanded state holding what argument 0 holds,
 * in the aggregate context (or the current context, leaving argument 0 as
 * it was).
 */
static pg_noinline Logp95Expanded *
logp95_running_state_new(FunctionCallInfo fcinfo)
{
	MemoryContext aggcxt;
	bool		inagg = AggCheckCallContext(fcinfo, &aggcxt) != 0;
	Logp95Expanded *ex;

	ex = logp95_expanded_new(inagg ? aggcxt : CurrentMemoryContext, inagg);
	if (!PG_ARGISNULL(0))
		logp95_expanded_add(ex, PG_GETARG_DATUM(0));
	return ex;
}

/*
 * The running state of every logp95_agg transition: argument 0, a
 * logp95_state.  From the second row of a group on it is the aggregate's
 * own expanded state, found by a pointer test and updated in place (see
 * logp95_expanded_running); otherwise a new one.  Return it with
 * LOGP95_RETURN_RUNNING.
 */
static LP_ALWAYS_INLINE Logp95Expanded *
logp95_running_state(FunctionCallInfo fcinfo)
{
	Logp95Expanded *ex;

	if (likely(!PG_ARGISNULL(0)) &&
		likely((ex = logp95_expanded_running(PG_GETARG_DATUM(0))) != NULL))
		return ex;
	return logp95_running_state_new(fcinfo);
}

/* Return the running state: the read/write pointer nodeAgg keeps as it is. */
#define LOGP95_RETURN_RUNNING(ex) PG_RETURN_DATUM(EOHPGetRWDatum(&(ex)->hdr))

/* ---------- transitions of the aggregates (1.1) ---------- */

/*
 * Every transition is the same three lines: the running state, what its
 * form counts from the row, the state back.  The aggregates have no final
 * function: the result is the running state, flattened by the executor
 * (logp95_expanded.c counts the pending pipelined row first); the combine
 * function is logp95_merge_combine.
 */

PG_FUNCTION_INFO_V1(logp95_line_trans);
/* logp95_line_trans(logp95_state, line text): transition of logp95_agg(text). */
Datum
logp95_line_trans(PG_FUNCTION_ARGS)
{
	Logp95Expanded *ex = logp95_running_state(fcinfo);

	logp95_count_line(ex->st, fcinfo);
	LOGP95_RETURN_RUNNING(ex);
}

PG_FUNCTION_INFO_V1(logp95_pair_trans);
/* logp95_pair_trans(logp95_state, route text, latency_ms bigint): transition of logp95_agg(text, bigint). */
Datum
logp95_pair_trans(PG_FUNCTION_ARGS)
{
	Logp95Expanded *ex = logp95_running_state(fcinfo);

	logp95_count_pair(ex->st, fcinfo);
	LOGP95_RETURN_RUNNING(ex);
}

PG_FUNCTION_INFO_V1(logp95_format_trans);
/* logp95_format_trans(logp95_state, line text, format text): transition of logp95_agg(text, text). */
Datum
logp95_format_trans(PG_FUNCTION_ARGS)
{
	Logp95Expanded *ex = logp95_running_state(fcinfo);

	logp95_count_format_line(ex->st, fcinfo);
	LOGP95_RETURN_RUNNING(ex);
}

/* ---------- 1.0: the transitions with STYPE internal ---------- */

/*
 * A database still at 1.0 (before ALTER EXTENSION logp95 UPDATE) calls
 * these, with logp95_combine, logp95_serialize, logp95_deserialize and
 * logp95_final below; the same library serves it.  They count exactly what
 * the 1.1 transitions count.
 */

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

PG_FUNCTION_INFO_V1(logp95_agg_pair_trans);
/* logp95_agg_pair_trans(internal, text, bigint): 1.0 transition of logp95_agg(text, bigint). */
Datum
logp95_agg_pair_trans(PG_FUNCTION_ARGS)
{
	lp_state   *st = logp95_state_get(fcinfo, "logp95_agg_pair_trans");

	logp95_count_pair(st, fcinfo);
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(logp95_agg_format_trans);
/* logp95_agg_format_trans(internal, text, text): 1.0 transition of logp95_agg(text, text). */
Datum
logp95_agg_format_trans(PG_FUNCTION_ARGS)
{
	lp_state   *st = logp95_state_get(fcinfo, "logp95_agg_format_trans");

	logp95_count_format_line(st, fcinfo);
	PG_RETURN_POINTER(st);
}

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
