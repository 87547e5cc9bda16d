/* src/logp95_agg.c -- PostgreSQL glue: the transitions of the logp95_agg aggregates (1.1 on) */
#include "postgres.h"

#include "utils/builtins.h"

#include "logp95.h"
#include "logp95_count.h"
#include "logp95_expanded.h"

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

	ex = logp95_expanded_new(inagg ? aggcxt : CurrentMemoryContext, inagg,
							 logp95_may_retain(fcinfo));
	if (!PG_ARGISNULL(0))
		logp95_expanded_add(ex, PG_GETARG_DATUM(0), false);
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
 * Every transition is the same three lines: the running state `ex`, what
 * its form counts from the row (`count`, an expression over ex->st and
 * fcinfo), the state back; LOGP95_RUNNING_TRANS writes them once.  The
 * aggregates have no final function: the result is the running state,
 * flattened by the executor (logp95_expanded.c counts the pending
 * pipelined row first); the combine function is logp95_merge_combine.
 */
#define LOGP95_RUNNING_TRANS(name, count) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	Logp95Expanded *ex = logp95_running_state(fcinfo); \
\
	count; \
	LOGP95_RETURN_RUNNING(ex); \
}

/* logp95_line_trans(logp95_state, line text): transition of logp95_agg(text). */
LOGP95_RUNNING_TRANS(logp95_line_trans, logp95_count_line(ex->st, fcinfo))

/* logp95_pair_trans(logp95_state, route text, latency_ms bigint): transition of logp95_agg(text, bigint). */
LOGP95_RUNNING_TRANS(logp95_pair_trans, logp95_count_pair(ex->st, fcinfo, -1))

/* logp95_format_trans(logp95_state, line text, format text): transition of logp95_agg(text, text). */
LOGP95_RUNNING_TRANS(logp95_format_trans, logp95_count_format_line(ex->st, fcinfo, -1, false))

/*
 * logp95_format_opts_trans(logp95_state, line text, format text, options
 * text): transition of logp95_agg(text, text, text), logp95_agg(line,
 * format) with per-call options (skip | error, templates, query; see
 * lp_options[]).
 */
LOGP95_RUNNING_TRANS(logp95_format_opts_trans, logp95_count_format_line(ex->st, fcinfo, 3, false))

/*
 * logp95_pair_opts_trans(logp95_state, route text, latency_ms bigint,
 * options text): transition of logp95_agg(text, bigint, text), one
 * structured row with per-call options (skip | error, templates).
 */
LOGP95_RUNNING_TRANS(logp95_pair_opts_trans, logp95_count_pair(ex->st, fcinfo, 3))

/*
 * logp95_format_bytes_trans(logp95_state, line bytea, format text):
 * transition of logp95_agg(bytea, text), a line given as bytes (1.2): the
 * same count as logp95_agg(text, text) for a line that is valid text; a
 * route that is not is counted with its other bytes written as \xHH.
 */
LOGP95_RUNNING_TRANS(logp95_format_bytes_trans, logp95_count_format_line(ex->st, fcinfo, -1, true))

/*
 * logp95_format_opts_bytes_trans(logp95_state, line bytea, format text,
 * options text): transition of logp95_agg(bytea, text, text).
 */
LOGP95_RUNNING_TRANS(logp95_format_opts_bytes_trans, logp95_count_format_line(ex->st, fcinfo, 3, true))
