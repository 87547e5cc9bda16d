/* src/logp95_compare.c -- PostgreSQL glue of logp95_compare: two states compared route by route */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "logp95.h"
#include "lp_compare.h"
#include "lp_state.h"

/*
 * Thin glue: the statistics live in lp_compare.c (plain C).  Both states
 * are read in place, one route of each at a time, merged in the byte order
 * of the route (the order of the encoding), so nothing is decoded and the
 * memory of a call does not grow with the routes.
 */

/* The columns of a row, in the order of the SQL declaration. */
enum
{
	LOGP95_CMP_ROUTE,
	LOGP95_CMP_REQUESTS_BEFORE,
	LOGP95_CMP_REQUESTS_AFTER,
	LOGP95_CMP_P95_BEFORE,
	LOGP95_CMP_P95_AFTER,
	LOGP95_CMP_P95_CHANGE,
	LOGP95_CMP_SLOWER_SHARE,
	LOGP95_CMP_P_VALUE,
	LOGP95_CMP_TAIL_P_VALUE,
	LOGP95_CMP_NCOLS
};

/*
 * The row of one route: `before` and `after` its views, either NULL when
 * that state lacks the route.  A route on one side only has 0 requests on
 * the other and NULL for everything that needs both sides (the change, the
 * share, both p-values) or the missing one (its p95).
 */
static void
logp95_compare_row(ReturnSetInfo *rsinfo, const lp_route_view *before,
				   const lp_route_view *after)
{
	const lp_route_view *any = before ? before : after;
	Datum		values[LOGP95_CMP_NCOLS];
	bool		nulls[LOGP95_CMP_NCOLS];
	int			i;

	for (i = 0; i < LOGP95_CMP_NCOLS; i++)
	{
		values[i] = (Datum) 0;
		nulls[i] = true;
	}
	values[LOGP95_CMP_ROUTE] =
		PointerGetDatum(cstring_to_text_with_len(any->key, (int) any->keylen));
	nulls[LOGP95_CMP_ROUTE] = false;
	values[LOGP95_CMP_REQUESTS_BEFORE] = Int64GetDatum(before ? (int64) before->total : 0);
	nulls[LOGP95_CMP_REQUESTS_BEFORE] = false;
	values[LOGP95_CMP_REQUESTS_AFTER] = Int64GetDatum(after ? (int64) after->total : 0);
	nulls[LOGP95_CMP_REQUESTS_AFTER] = false;

	if (before && after)
	{
		lp_compare_row r;

		lp_compare_views(before, after, &r);
		values[LOGP95_CMP_P95_BEFORE] = Int64GetDatum(r.p95_before);
		values[LOGP95_CMP_P95_AFTER] = Int64GetDatum(r.p95_after);
		/* latencies are at least 0, so the difference fits */
		values[LOGP95_CMP_P95_CHANGE] = Int64GetDatum(r.p95_after - r.p95_before);
		values[LOGP95_CMP_SLOWER_SHARE] = Float8GetDatum(r.slower_share);
		values[LOGP95_CMP_P_VALUE] = Float8GetDatum(r.p_value);
		values[LOGP95_CMP_TAIL_P_VALUE] = Float8GetDatum(r.tail_p_value);
		for (i = LOGP95_CMP_P95_BEFORE; i < LOGP95_CMP_NCOLS; i++)
			nulls[i] = false;
	}
	else if (before)
	{
		values[LOGP95_CMP_P95_BEFORE] = Int64GetDatum(lp_compare_p95(before));
		nulls[LOGP95_CMP_P95_BEFORE] = false;
	}
	else
	{
		values[LOGP95_CMP_P95_AFTER] = Int64GetDatum(lp_compare_p95(after));
		nulls[LOGP95_CMP_P95_AFTER] = false;
	}
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

PG_FUNCTION_INFO_V1(logp95_compare);
/*
 * logp95_compare(before, after): one row per route of either state, in
 * byte order of the route; see lp_compare.h for the statistics.  Each
 * row's memory (the route's text) lives in a context reset for the next.
 */
Datum
logp95_compare(PG_FUNCTION_ARGS)
{
	bytea	   *sb = PG_GETARG_BYTEA_PP(0);
	bytea	   *sa = PG_GETARG_BYTEA_PP(1);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	MemoryContext rowcxt;
	MemoryContext oldcxt;
	lp_reader	rb,
				ra;
	lp_route_view vb,
				va;
	bool		hb,
				ha;

	InitMaterializedSRF(fcinfo, 0);
	if (rsinfo->setDesc->natts != LOGP95_CMP_NCOLS)
		elog(ERROR, "logp95_compare result has %d columns, not %d",
			 rsinfo->setDesc->natts, LOGP95_CMP_NCOLS);
	rowcxt = AllocSetContextCreate(CurrentMemoryContext, "logp95_compare row",
								   ALLOCSET_SMALL_SIZES);
	logp95_reader_open(sb, &rb);
	logp95_reader_open(sa, &ra);
	hb = logp95_reader_next(&rb, &vb);
	ha = logp95_reader_next(&ra, &va);
	while (hb || ha)
	{
		int			c = !hb ? 1 : !ha ? -1 : lp_key_cmp(vb.key, vb.keylen, va.key, va.keylen);

		oldcxt = MemoryContextSwitchTo(rowcxt);
		logp95_compare_row(rsinfo, c <= 0 ? &vb : NULL, c >= 0 ? &va : NULL);
		MemoryContextSwitchTo(oldcxt);
		MemoryContextReset(rowcxt);
		if (c <= 0)
			hb = logp95_reader_next(&rb, &vb);
		if (c >= 0)
			ha = logp95_reader_next(&ra, &va);
	}
	MemoryContextDelete(rowcxt);
	return (Datum) 0;
}
