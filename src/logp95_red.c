/* src/logp95_red.c -- PostgreSQL glue: RED per route (issue 24): logp95_status, logp95_red */
#include "postgres.h"

#include <math.h>

#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"

#include "logp95.h"
#include "lp_codec.h"
#include "lp_rank.h"

/* Columns of logp95_red, the wider of the two. */
#define LOGP95_RED_COLS 9

/* A row of logp95_status or logp95_red from one route view; `seconds` < 0: none. */
typedef void (*logp95_red_fn) (const lp_route_view *rv, double seconds,
							   Datum *values, bool *nulls);

/*
 * Walk every route of a stored state, those without a latency too (a
 * version 2 route whose lines had none), one row each.
 */
static Datum
logp95_red_rows(FunctionCallInfo fcinfo, bytea *st, double seconds, int ncols,
				logp95_red_fn fill)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	lp_reader	r;
	lp_route_view rv;
	MemoryContext rowcxt,
				oldcxt;

	InitMaterializedSRF(fcinfo, 0);
	if (rsinfo->setDesc->natts != ncols)
		elog(ERROR, "logp95 result has %d columns, not %d", rsinfo->setDesc->natts, ncols);
	rowcxt = AllocSetContextCreate(CurrentMemoryContext, "logp95 red row",
								   ALLOCSET_DEFAULT_SIZES);
	logp95_reader_open(st, &r);
	r.all = 1;
	while (logp95_reader_next(&r, &rv))
	{
		Datum		values[LOGP95_RED_COLS];
		bool		nulls[LOGP95_RED_COLS];

		memset(nulls, 0, sizeof(nulls));
		oldcxt = MemoryContextSwitchTo(rowcxt);
		fill(&rv, seconds, values, nulls);
		MemoryContextSwitchTo(oldcxt);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		MemoryContextReset(rowcxt);
	}
	MemoryContextDelete(rowcxt);
	return (Datum) 0;
}

/* route, requests, 1xx, 2xx, 3xx, 4xx, 5xx, unknown */
static void
logp95_status_fill(const lp_route_view *rv, double seconds, Datum *values, bool *nulls)
{
	int			i;

	values[0] = PointerGetDatum(cstring_to_text_with_len(rv->key, (int) rv->keylen));
	values[1] = Int64GetDatum((int64) lp_red_requests(&rv->red));
	for (i = 0; i < LP_CLASSES; i++)
		values[2 + i] = Int64GetDatum((int64) rv->red.cls[i]);
}

PG_FUNCTION_INFO_V1(logp95_status);
/*
 * logp95_status(state): one row per route with its requests (every line,
 * with a latency or not) and their status classes; a state that counted
 * no statuses has every request unknown.
 */
Datum
logp95_status(PG_FUNCTION_ARGS)
{
	return logp95_red_rows(fcinfo, PG_GETARG_BYTEA_PP(0), -1, 8, logp95_status_fill);
}

/*
 * route, requests, per_second, errors, error_share, p50_ms, p95_ms,
 * p99_ms, max_ms
 */
static void
logp95_red_fill(const lp_route_view *rv, double seconds, Datum *values, bool *nulls)
{
	uint64		req = lp_red_requests(&rv->red);
	uint64		err = rv->red.cls[LP_CLASS_5XX];
	int			i;

	values[0] = PointerGetDatum(cstring_to_text_with_len(rv->key, (int) rv->keylen));
	values[1] = Int64GetDatum((int64) req);
	if (seconds >= 0)
		values[2] = Float8GetDatum((double) req / seconds);
	else
		nulls[2] = true;
	values[3] = Int64GetDatum((int64) err);
	values[4] = Float8GetDatum((double) err / (double) req);	/* req >= 1 */
	if (rv->npairs > 0)
	{
		int64		vals[LP_REPORT_NPCT];

		lp_view_report(rv, vals);
		for (i = 0; i < LP_REPORT_NPCT; i++)
			values[5 + i] = Int64GetDatum(vals[i]);
	}
	else
	{
		/* no line of the route had a latency (or, with ok_latency, every one failed) */
		for (i = 0; i < LP_REPORT_NPCT; i++)
			nulls[5 + i] = true;
	}
}

PG_FUNCTION_INFO_V1(logp95_red);
/*
 * logp95_red(state, seconds float8 DEFAULT NULL): rate, errors and
 * duration of every route; per_second is requests / seconds, NULL without
 * seconds; 22023 for seconds that are not a positive finite number.
 */
Datum
logp95_red(PG_FUNCTION_ARGS)
{
	double		seconds = -1;

	if (PG_ARGISNULL(0))
	{
		/* not STRICT (seconds defaults to NULL): a NULL state has no routes */
		InitMaterializedSRF(fcinfo, 0);
		return (Datum) 0;
	}
	if (!PG_ARGISNULL(1))
	{
		seconds = PG_GETARG_FLOAT8(1);
		if (!(seconds > 0) || isinf(seconds))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("seconds must be a positive finite number, not %g", seconds),
					 errhint("Pass the length of the window the state counts, such as 3600 for an hour.")));
	}
	return logp95_red_rows(fcinfo, PG_GETARG_BYTEA_PP(0), seconds, 9, logp95_red_fill);
}
