/* src/logp95_stats.c -- PostgreSQL glue of the SRE functions: percentiles, within, stats, total, histogram */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "logp95.h"
#include "lp_codec.h"
#include "lp_stats.h"

/*
 * Thin glue: the walks live in lp_stats.c (plain C).  Every function here
 * reads the encoded state in place, one route at a time, in byte order.
 */

/* The route of a view as text. */
static Datum
logp95_route_datum(const lp_route_view *rv)
{
	return PointerGetDatum(cstring_to_text_with_len(rv->key, (int) rv->keylen));
}

/* The fractions of a logp95_percentiles call, sorted, and its scratch arrays. */
typedef struct logp95_percentiles_arg
{
	lp_fraction *fs;			/* the fractions, sorted, with their positions */
	int			n;				/* how many */
	uint64	   *ranks;			/* scratch of lp_view_fractions */
	int64	   *vals;			/* the latencies, in the order given */
	Datum	   *outd;			/* the same as Datums */
} logp95_percentiles_arg;

/* A row of logp95_percentiles: route, requests, latencies. */
static void
logp95_percentiles_fill(const lp_route_view *rv, Datum *values, bool *nulls, void *arg)
{
	logp95_percentiles_arg *pa = (logp95_percentiles_arg *) arg;
	int			i;

	lp_view_fractions(rv, pa->fs, pa->n, pa->ranks, pa->vals);
	for (i = 0; i < pa->n; i++)
		pa->outd[i] = Int64GetDatum(pa->vals[i]);
	values[0] = logp95_route_datum(rv);
	values[1] = Int64GetDatum((int64) rv->total);
	values[2] = PointerGetDatum(construct_array(pa->outd, pa->n, INT8OID, sizeof(int64),
												FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}

/*
 * Most fractions logp95_percentiles takes: their sorted copy (n + 1
 * lp_fraction) fits in one allocation.  1.1 failed with "invalid memory
 * alloc request size" from there on, after deconstructing the array; now
 * it is 54000 before anything is allocated, and every array 1.1 took still
 * gives what it gave.
 */
#define LOGP95_FRACTIONS_MAX ((int) (MaxAllocSize / sizeof(lp_fraction) - 1))

PG_FUNCTION_INFO_V1(logp95_percentiles);
/*
 * logp95_percentiles(state, fractions float8[]): per route, the latency at
 * every fraction in the order given, by logp95_percentile's rule; one walk
 * of a route for all fractions.
 */
Datum
logp95_percentiles(PG_FUNCTION_ARGS)
{
	bytea	   *st = PG_GETARG_BYTEA_PP(0);
	ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(1);
	Datum	   *elems;
	bool	   *enulls;
	int			n,
				i;
	logp95_percentiles_arg pa;

	n = ArrayGetNItems(ARR_NDIM(arr), ARR_DIMS(arr));
	if (n > LOGP95_FRACTIONS_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("number of fractions (%d) exceeds the maximum allowed (%d)",
						n, LOGP95_FRACTIONS_MAX),
				 errhint("Call logp95_percentiles with fewer fractions at a time.")));
	deconstruct_array(arr, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
					  &elems, &enulls, &n);
	pa.fs = palloc(sizeof(lp_fraction) * (n + 1));
	for (i = 0; i < n; i++)
	{
		float8		f;

		/* core's check and wording, as in percentile_disc and logp95_percentile */
		if (enulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("percentile value NULL is not between 0 and 1")));
		f = DatumGetFloat8(elems[i]);
		if (f < 0 || f > 1 || isnan(f))
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("percentile value %g is not between 0 and 1", f)));
		pa.fs[i].f = f;
		pa.fs[i].pos = i;
	}
	lp_fractions_sort(pa.fs, n);
	pa.n = n;
	pa.ranks = palloc(sizeof(uint64) * (n + 1));
	pa.vals = palloc(sizeof(int64) * (n + 1));
	pa.outd = palloc(sizeof(Datum) * (n + 1));
	return logp95_route_rows(fcinfo, st, logp95_percentiles_fill, &pa);
}

/* A row of logp95_within: route, requests, within, share; arg is the threshold. */
static void
logp95_within_fill(const lp_route_view *rv, Datum *values, bool *nulls, void *arg)
{
	uint64		within = lp_view_within(rv, *(const int64 *) arg);

	values[0] = logp95_route_datum(rv);
	values[1] = Int64GetDatum((int64) rv->total);
	values[2] = Int64GetDatum((int64) within);
	values[3] = Float8GetDatum((double) within / (double) rv->total);
}

PG_FUNCTION_INFO_V1(logp95_within);
/*
 * logp95_within(state, threshold_ms): per route, the requests that took at
 * most threshold_ms and their share of the route's requests.
 */
Datum
logp95_within(PG_FUNCTION_ARGS)
{
	int64		threshold = PG_GETARG_INT64(1);

	return logp95_route_rows(fcinfo, PG_GETARG_BYTEA_PP(0), logp95_within_fill, &threshold);
}

/* A row of logp95_stats: route, requests, min, mean, max. */
static void
logp95_stats_fill(const lp_route_view *rv, Datum *values, bool *nulls, void *arg)
{
	lp_summary	s;

	lp_view_summary(rv, &s);
	values[0] = logp95_route_datum(rv);
	values[1] = Int64GetDatum((int64) s.total);
	values[2] = Int64GetDatum(s.min);
	values[3] = Float8GetDatum(lp_summary_mean(&s));
	values[4] = Int64GetDatum(s.max);
}

PG_FUNCTION_INFO_V1(logp95_stats);
/*
 * logp95_stats(state): per route, requests, min, mean and max; the mean is
 * the exact sum of value * count (unsigned 128-bit) divided by the count.
 */
Datum
logp95_stats(PG_FUNCTION_ARGS)
{
	return logp95_route_rows(fcinfo, PG_GETARG_BYTEA_PP(0), logp95_stats_fill, NULL);
}

PG_FUNCTION_INFO_V1(logp95_total);
/*
 * logp95_total(state): every route folded into the one route "*", the
 * malformed count kept; the empty state stays empty.  22003 when the
 * requests of all routes add up past bigint.
 */
Datum
logp95_total(PG_FUNCTION_ARGS)
{
	bytea	   *st = PG_GETARG_BYTEA_PP(0);
	lp_allocator a = logp95_allocator(CurrentMemoryContext);
	lp_state   *acc = lp_state_create(&a);
	uint8	   *buf;
	size_t		len;

	if (acc == NULL)
		logp95_check(LP_ENOMEM);
	logp95_check(lp_state_fold(acc, LP_TOTAL_ROUTE, strlen(LP_TOTAL_ROUTE),
							   (const uint8 *) VARDATA_ANY(st), VARSIZE_ANY_EXHDR(st)));
	logp95_check(lp_encode(acc, &a, VARHDRSZ, MaxAllocSize, &buf, &len));
	SET_VARSIZE(buf, VARHDRSZ + len);
	PG_RETURN_BYTEA_P((bytea *) buf);
}

PG_FUNCTION_INFO_V1(logp95_histogram);
/*
 * logp95_histogram(state, route [, bounds_ms bigint[]]): Prometheus "le"
 * buckets of one route: a row per bound with the requests in (previous
 * bound, bound] and the running total, then le_ms NULL for +Inf.  No rows
 * for an absent route.  Without bounds, lp_default_bounds.
 */
Datum
logp95_histogram(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	bytea	   *st = PG_GETARG_BYTEA_PP(0);
	text	   *route = PG_GETARG_TEXT_PP(1);
	const char *key = VARDATA_ANY(route);
	size_t		keylen = VARSIZE_ANY_EXHDR(route);
	const int64 *bounds = lp_default_bounds;
	int			n = LP_DEFAULT_NBOUNDS;
	int			i,
				bad;
	lp_reader	r;
	lp_route_view rv;

	if (PG_NARGS() > 2)
	{
		ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(2);
		Datum	   *elems;
		bool	   *enulls;
		int64	   *b;

		deconstruct_array(arr, INT8OID, sizeof(int64), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
						  &elems, &enulls, &n);
		b = palloc(sizeof(int64) * (n + 1));
		for (i = 0; i < n; i++)
		{
			if (enulls[i])
				ereport(ERROR,
						(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						 errmsg("histogram bound must not be null")));
			b[i] = DatumGetInt64(elems[i]);
		}
		bounds = b;
	}
	bad = lp_bounds_bad(bounds, n);
	if (bad >= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("histogram bounds must be strictly ascending"),
				 errdetail("Bound %d (" INT64_FORMAT ") is not greater than bound %d (" INT64_FORMAT ").",
						   bad + 1, bounds[bad], bad, bounds[bad - 1])));

	InitMaterializedSRF(fcinfo, 0);
	logp95_reader_open(st, &r);
	while (logp95_reader_next(&r, &rv))
	{
		int			c = lp_key_cmp(rv.key, rv.keylen, key, keylen);

		if (c > 0)
			break;				/* routes are sorted: it is not there */
		if (c == 0)
		{
			uint64	   *counts = palloc(sizeof(uint64) * (n + 1));
			uint64		cum = 0;

			lp_view_buckets(&rv, bounds, n, counts);
			for (i = 0; i <= n; i++)
			{
				Datum		values[3];
				bool		nulls[3] = {i == n, false, false};

				cum += counts[i];
				values[0] = i < n ? Int64GetDatum(bounds[i]) : (Datum) 0;
				values[1] = Int64GetDatum((int64) counts[i]);
				values[2] = Int64GetDatum((int64) cum);
				tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
			}
			break;
		}
	}
	return (Datum) 0;
}
