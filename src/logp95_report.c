/* src/logp95_report.c -- PostgreSQL glue: reading a logp95_state (report rows, percentile, malformed count, planner support) */
#include "postgres.h"

#include <math.h>

#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/optimizer.h"
#include "utils/builtins.h"

#include "logp95.h"
#include "lp_codec.h"
#include "lp_rank.h"

/* A row of logp95_report_rows: route, requests, p50, p95, p99, max. */
static void
logp95_report_fill(const lp_route_view *rv, Datum *values, bool *nulls, void *arg)
{
	int64		vals[LP_REPORT_NPCT];

	lp_view_report(rv, vals);
	values[0] = PointerGetDatum(cstring_to_text_with_len(rv->key, (int) rv->keylen));
	values[1] = Int64GetDatum((int64) rv->total);
	values[2] = Int64GetDatum(vals[0]);
	values[3] = Int64GetDatum(vals[1]);
	values[4] = Int64GetDatum(vals[2]);
	values[5] = Int64GetDatum(vals[3]);
}

PG_FUNCTION_INFO_V1(logp95_report_rows);
/* One row per route: route, requests, p50, p95, p99, max. */
Datum
logp95_report_rows(PG_FUNCTION_ARGS)
{
	bytea	   *st = PG_GETARG_BYTEA_PP(0);

	return logp95_route_rows(fcinfo, st, logp95_report_fill, NULL);
}

PG_FUNCTION_INFO_V1(logp95_percentile);
/* The latency at `fraction` of one route; NULL when the route is absent. */
Datum
logp95_percentile(PG_FUNCTION_ARGS)
{
	bytea	   *st = PG_GETARG_BYTEA_PP(0);
	text	   *route = PG_GETARG_TEXT_PP(1);
	float8		fraction = PG_GETARG_FLOAT8(2);
	const char *key = VARDATA_ANY(route);
	size_t		keylen = VARSIZE_ANY_EXHDR(route);
	lp_reader	r;
	lp_route_view rv;

	/* core's check and wording, as in percentile_disc */
	if (fraction < 0 || fraction > 1 || isnan(fraction))
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("percentile value %g is not between 0 and 1",
						fraction)));

	logp95_reader_open(st, &r);
	while (logp95_reader_next(&r, &rv))
	{
		int			c = lp_key_cmp(rv.key, rv.keylen, key, keylen);

		if (c == 0)
			PG_RETURN_INT64(lp_view_fraction(&rv, fraction));
		if (c > 0)
			break;				/* routes are sorted: it is not there */
	}
	PG_RETURN_NULL();
}

PG_FUNCTION_INFO_V1(logp95_malformed);
/* How many malformed lines were skipped into the state. */
Datum
logp95_malformed(PG_FUNCTION_ARGS)
{
	bytea	   *st = PG_GETARG_BYTEA_PP(0);
	lp_reader	r;

	logp95_reader_open(st, &r);
	PG_RETURN_INT64((int64) r.malformed);
}

/* ---------- planner support: row estimates of the report ---------- */

PG_FUNCTION_INFO_V1(logp95_report_support);

/*
 * Planner support of logp95_report and logp95_report_rows: when the state
 * argument is (or folds to) a constant, the row estimate is its exact route
 * count; otherwise the planner falls back to the function's ROWS figure.
 * Only immutable functions are folded (eval_const_expressions, as the
 * planner folds them anyway): estimate_expression_value would also run a
 * stable one, such as logp95_rollup_state, once more at every planning
 * just for the estimate (it doubled the time of a report of 360 minute
 * states).
 */
Datum
logp95_report_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);
	Node	   *ret = NULL;

	if (IsA(rawreq, SupportRequestRows))
	{
		SupportRequestRows *req = (SupportRequestRows *) rawreq;

		if (is_funcclause(req->node) && list_length(((FuncExpr *) req->node)->args) == 1)
		{
			Node	   *arg = (Node *) linitial(((FuncExpr *) req->node)->args);

			if (req->root)
				arg = eval_const_expressions(req->root, arg);
			if (IsA(arg, Const))
			{
				Const	   *c = (Const *) arg;

				if (c->constisnull)
				{
					req->rows = 0;
					ret = (Node *) req;
				}
				else
				{
					bytea	   *b = DatumGetByteaPP(c->constvalue);
					lp_reader	r;

					if (lp_reader_init(&r, (const uint8 *) VARDATA_ANY(b),
									   VARSIZE_ANY_EXHDR(b)) == LP_OK)
					{
						req->rows = (double) r.nroutes;
						ret = (Node *) req;
					}
				}
			}
		}
	}
	PG_RETURN_POINTER(ret);
}
