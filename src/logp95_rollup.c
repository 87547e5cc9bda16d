/* src/logp95_rollup.c -- PostgreSQL glue: logp95_rollup_rows, the (bucket, state) rows of a cursor's lines for the continuous rollups */
#include "postgres.h"

#include "access/tupdesc.h"
#include "common/int.h"
#include "executor/tuptable.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "parser/parse_coerce.h"
#include "tcop/dest.h"
#include "tcop/pquery.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/datum.h"
#include "utils/memutils.h"
#include "utils/portal.h"
#include "utils/timestamp.h"
#include "utils/tuplesort.h"
#include "utils/typcache.h"

#include "logp95.h"
#include "logp95_count.h"
#include "lp_arith.h"
#include "lp_codec.h"
#include "lp_run.h"
#include "lp_state.h"

/*
 * The rollups' trigger used to aggregate its transition table with GROUP
 * BY bucket, which keeps a running state for every bucket of the statement
 * at once: a COPY of a few days of lines into a minute rollup held
 * thousands of them (a whole state each) and spilled.  Log lines arrive in
 * time order, so here the lines are read in the order they come, from a
 * cursor, and only the bucket being read is counted (lp_run.h: its rows,
 * encoded by sorting when the bucket ends): when a line's bucket differs
 * from the one before, the run is encoded as a finished run and a new one
 * starts.  The runs are sorted by bucket (tuplesort: it spills past
 * work_mem like any sort), the runs of one bucket (lines out of order) are
 * merged exactly, and each bucket comes out once, in bucket order.  A
 * bucket's state is the same bytes logp95_agg(line, format, 'skip,' ||
 * options) gives over the bucket's lines, whatever their order (the
 * encoding is canonical).
 */

/* Longest time text whose instant is kept for the lines after it. */
#define LOGP95_ROLLUP_MEMO 64

/* One logp95_rollup_rows call: its reading of the lines and its runs. */
typedef struct Logp95Rollup
{
	DestReceiver pub;			/* the cursor's rows come here; first */
	Logp95Call *call;			/* the format and options (skip forced) */
	Datum		stride;			/* the bucket width (an Interval datum) */
	int64		stride_usecs;	/* the same in microseconds */
	TimestampTz origin;			/* where buckets are aligned: the Unix epoch */
	TimestampTz bin_lo;			/* [bin_lo, bin_hi): the instants whose bucket
								 * is bin_lo, known without date_bin (empty
								 * when bin_lo == bin_hi) */
	TimestampTz bin_hi;
	char		memo[LOGP95_ROLLUP_MEMO];	/* the time text of the last line
											 * whose time was read from its
											 * text */
	int			memo_len;		/* its length, -1 when none is kept */
	bool		memo_ok;		/* it has an instant, */
	Timestamp	memo_ts;		/* this one */
	bool		in_run;			/* a run is being counted */
	TimestampTz run_bucket;		/* its bucket */
	lp_run	   *run;			/* its rows (and the routes kept from run to run) */
	MemoryContext run_cxt;		/* where run lives, for the whole call */
	MemoryContext out_cxt;		/* a run's encoding until the tuplesort has
								 * copied it; merging runs in the emit */
	Tuplesortstate *runs;		/* the finished runs (bucket, state), by bucket */
	TupleTableSlot *put;		/* a virtual (bucket, state) slot to put a run */
} Logp95Rollup;

/*
 * The bucket of an instant: date_bin(stride, t, 'epoch'), the server's own
 * function (its rounding and its errors), called only when t leaves the
 * bucket of the line before.  Between two buckets a bucket is
 * [b, b + stride) exactly when b is at or after the origin: there date_bin
 * is floor((t - origin) / stride) on every version.
 */
static TimestampTz
logp95_rollup_bin(Logp95Rollup *r, TimestampTz t)
{
	TimestampTz b;

	if (likely(t >= r->bin_lo && t < r->bin_hi))
		return r->bin_lo;
	b = DatumGetTimestampTz(DirectFunctionCall3(timestamptz_bin, r->stride,
												TimestampTzGetDatum(t),
												TimestampTzGetDatum(r->origin)));
	r->bin_lo = r->bin_hi = b;
	if (b >= r->origin && b <= PG_INT64_MAX - r->stride_usecs)
		r->bin_hi = b + r->stride_usecs;
	return b;
}

/* The run being counted, encoded and put among the finished runs; the next one starts empty. */
static void
logp95_rollup_end_run(Logp95Rollup *r)
{
	lp_allocator a = logp95_allocator(r->out_cxt);
	uint8	   *buf;
	size_t		len;

	logp95_check(lp_run_encode(r->run, &a, VARHDRSZ, MaxAllocSize, &buf, &len));
	SET_VARSIZE(buf, VARHDRSZ + len);
	ExecClearTuple(r->put);
	r->put->tts_values[0] = TimestampTzGetDatum(r->run_bucket);
	r->put->tts_isnull[0] = false;
	r->put->tts_values[1] = PointerGetDatum(buf);
	r->put->tts_isnull[1] = false;
	ExecStoreVirtualTuple(r->put);
	tuplesort_puttupleslot(r->runs, r->put);	/* copies */
	ExecClearTuple(r->put);
	MemoryContextReset(r->out_cxt);
	r->in_run = false;
}

/*
 * The instant of a line whose format's direct parser read it, from the
 * time field it found (row->time; the one the entry's read_ts reads), as
 * logp95_line_instant gives it: the lines of one second share their time
 * text, so the instant of the last text read is kept and its text
 * compared instead of parsed again.
 */
static bool
logp95_rollup_time_of(Logp95Rollup *r, const char *line, size_t len, const lp_row *row,
					  Timestamp *out)
{
	lp_ts		t;
	lp_ts_status st;

	if (row->time == NULL)
		return logp95_line_instant(r->call->fmt.format, line, len, out);
	if (row->time_len == (size_t) r->memo_len &&
		memcmp(row->time, r->memo, row->time_len) == 0)
	{
		*out = r->memo_ts;
		return r->memo_ok;
	}
	/*
	 * the readers the entries' read_ts use (not lp_result_ts, which also
	 * takes a CLF time without an offset: logp95_line_time would not)
	 */
	switch (r->call->fmt.format->time_kind)
	{
		case LP_TIME_CLF:
			st = lp_ts_parse_clf(row->time, row->time_len, &t);
			break;
		case LP_TIME_ISO8601:
			st = lp_ts_parse_iso(row->time, row->time_len, &t);
			break;
		default:
			return logp95_line_instant(r->call->fmt.format, line, len, out);
	}
	r->memo_ok = st == LP_TS_OK && logp95_ts_value(&t, &r->memo_ts);
	r->memo_len = -1;
	if (row->time_len <= sizeof(r->memo))
	{
		memcpy(r->memo, row->time, row->time_len);
		r->memo_len = (int) row->time_len;
	}
	*out = r->memo_ts;
	return r->memo_ok;
}

/* Make bucket b's run the one being counted (ending the run of another bucket). */
static LP_ALWAYS_INLINE void
logp95_rollup_bucket(Logp95Rollup *r, TimestampTz b)
{
	if (unlikely(!r->in_run || b != r->run_bucket))
	{
		if (r->in_run)
			logp95_rollup_end_run(r);
		r->run_bucket = b;
		r->in_run = true;
	}
}

/*
 * One row of the cursor: its line counted into the run of its bucket,
 * -infinity for a line without a well-formed time (NULL lines count
 * nothing, as logp95_agg skips them).
 */
static bool
logp95_rollup_receive(TupleTableSlot *slot, DestReceiver *self)
{
	Logp95Rollup *r = (Logp95Rollup *) self;
	bool		isnull;
	Datum		d = slot_getattr(slot, 1, &isnull);
	struct varlena *t;
	struct varlena *line;
	const char *s;
	size_t		len;
	lp_row		row;
	lp_result	lf;
	Timestamp	ts;

	if (isnull)
		return true;
	t = (struct varlena *) DatumGetPointer(d);
	line = unlikely(VARATT_IS_EXTERNAL(t) || VARATT_IS_COMPRESSED(t)) ?
		pg_detoast_datum_packed(t) : t;
	s = VARDATA_ANY(line);
	len = VARSIZE_ANY_EXHDR(line);
	if (likely(r->call->direct != NULL) && !r->call->status &&
		r->call->direct(s, len, r->call->dflags, &row))
	{
		/* the usual line: parsed once, for its time and its route */
		logp95_rollup_bucket(r, logp95_rollup_time_of(r, s, len, &row, &ts) ?
							 logp95_rollup_bin(r, (TimestampTz) ts) : DT_NOBEGIN);
		logp95_check(lp_run_add(r->run, row.route, row.route_len, row.latency));
	}
	else
	{
		logp95_rollup_bucket(r, logp95_line_instant(r->call->fmt.format, s, len, &ts) ?
							 logp95_rollup_bin(r, (TimestampTz) ts) : DT_NOBEGIN);
		if (r->call->status)
		{
			/* counting statuses (issue 24): the run's state counts them */
			const char *route;
			size_t		route_len;
			int64		value;
			int			cls;

			if (!logp95_call_status_line(r->call, s, len, &route, &route_len, &value, &cls))
				logp95_check(lp_run_add_malformed(r->run, 1));
			else if (route != NULL)
				logp95_check(lp_run_add_status(r->run, route, route_len, value, cls));
		}
		else
		{
			int			counted = logp95_call_line(r->call, s, len, &lf);

			if (counted > 0)
				logp95_check(lp_run_add(r->run, lf.route, lf.route_len, lf.latency));
			else if (counted == 0)
				logp95_check(lp_run_add_malformed(r->run, 1));
		}
	}
	if (line != t)
		pfree(line);
	return true;
}

/* DestReceiver callbacks with nothing to do. */
static void
logp95_rollup_startup(DestReceiver *self, int operation, TupleDesc typeinfo)
{
}

static void
logp95_rollup_shutdown(DestReceiver *self)
{
}

static void
logp95_rollup_destroy(DestReceiver *self)
{
}

/* The bucket width in microseconds; 22023 as date_bin raises it when it has none. */
static int64
logp95_rollup_stride(Logp95Rollup *r, Interval *iv)
{
	int64		us;

	/* date_bin's own checks and errors (months, overflow, not positive) */
	(void) DirectFunctionCall3(timestamptz_bin, PointerGetDatum(iv),
							   TimestampTzGetDatum(r->origin),
							   TimestampTzGetDatum(r->origin));
	if (iv->month != 0 ||
		pg_mul_s64_overflow(iv->day, USECS_PER_DAY, &us) ||
		pg_add_s64_overflow(us, iv->time, &us) || us <= 0)
		elog(ERROR, "date_bin accepted a bucket width it cannot take");
	return us;
}

/*
 * The cursor named `name`: open, returning one column of a text type;
 * 34000 when there is none, 42804 when its rows are not lines.
 */
static Portal
logp95_rollup_cursor(const char *name)
{
	Portal		portal = GetPortalByName(name);

	if (!PortalIsValid(portal))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_CURSOR),
				 errmsg("cursor \"%s\" does not exist", name)));
	if (portal->tupDesc == NULL || portal->tupDesc->natts != 1 ||
		!IsBinaryCoercible(TupleDescAttr(portal->tupDesc, 0)->atttypid, TEXTOID))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("cursor \"%s\" does not return one column of type text", name),
				 errhint("Open it on a query such as SELECT line FROM access_log.")));
	return portal;
}

/*
 * Runs of one bucket added by ordered walks over two encodings
 * (lp_encoded_add: no hash table, linear in the two), up to this many;
 * past it they are decoded into one state, which costs the same whatever
 * their number.
 */
#define LOGP95_ROLLUP_WALKS 4

/*
 * Put the runs, sorted by bucket, into the function's result: a bucket of
 * one run as it is, the runs of one bucket (lines out of order) added up.
 */
static void
logp95_rollup_emit(Logp95Rollup *r, ReturnSetInfo *rsinfo)
{
	TupleTableSlot *get = MakeSingleTupleTableSlot(rsinfo->setDesc, &TTSOpsMinimalTuple);
	MemoryContext cxt = r->out_cxt;
	bool		have;
	Datum		values[2];
	bool		nulls[2] = {false, false};

	tuplesort_performsort(r->runs);
	have = tuplesort_gettupleslot(r->runs, true, false, get, NULL);
	while (have)
	{
		TimestampTz b;
		bytea	   *sum;
		MemoryContext oldcxt;
		lp_state   *st = NULL;
		lp_allocator a;
		int			nruns = 1;
		uint8	   *buf;
		size_t		len;

		CHECK_FOR_INTERRUPTS();
		MemoryContextReset(cxt);
		a = logp95_allocator(cxt);
		slot_getallattrs(get);
		b = DatumGetTimestampTz(get->tts_values[0]);
		/* the slot's tuple goes at the next gettupleslot: a copy */
		oldcxt = MemoryContextSwitchTo(cxt);
		sum = (bytea *) DatumGetPointer(datumCopy(get->tts_values[1], false, -1));
		MemoryContextSwitchTo(oldcxt);
		while ((have = tuplesort_gettupleslot(r->runs, true, false, get, NULL)))
		{
			bytea	   *more;

			slot_getallattrs(get);
			if (DatumGetTimestampTz(get->tts_values[0]) != b)
				break;
			more = DatumGetByteaPP(get->tts_values[1]);
			if (++nruns <= LOGP95_ROLLUP_WALKS)
			{
				logp95_check(lp_encoded_add((const uint8 *) VARDATA_ANY(sum), VARSIZE_ANY_EXHDR(sum),
											(const uint8 *) VARDATA_ANY(more), VARSIZE_ANY_EXHDR(more),
											&a, VARHDRSZ, MaxAllocSize, &buf, &len));
				SET_VARSIZE(buf, VARHDRSZ + len);
				sum = (bytea *) buf;
				continue;
			}
			if (st == NULL)
			{
				st = lp_state_create(&a);
				if (st == NULL)
					logp95_check(LP_ENOMEM);
				logp95_check(lp_decode_trusted(st, (const uint8 *) VARDATA_ANY(sum),
											   VARSIZE_ANY_EXHDR(sum)));
			}
			logp95_check(lp_decode_trusted(st, (const uint8 *) VARDATA_ANY(more),
										   VARSIZE_ANY_EXHDR(more)));
		}
		if (st != NULL)
		{
			logp95_check(lp_encode(st, &a, VARHDRSZ, MaxAllocSize, &buf, &len));
			SET_VARSIZE(buf, VARHDRSZ + len);
			sum = (bytea *) buf;
		}
		values[0] = TimestampTzGetDatum(b);
		values[1] = PointerGetDatum(sum);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	MemoryContextReset(cxt);
	ExecDropSingleTupleTableSlot(get);
}

PG_FUNCTION_INFO_V1(logp95_rollup_rows);
/*
 * logp95_rollup_rows(lines refcursor, bucket interval, format text,
 * options text) RETURNS TABLE (bucket timestamptz, state logp95_state):
 * reads every remaining row of the open cursor `lines` (one text column of
 * log lines) and returns one row per bucket of those lines, in bucket
 * order: date_bin(bucket, logp95_line_time(line, format), 'epoch'), or
 * -infinity for a line without a time, and the state of its lines as
 * logp95_agg(line, format, options) counts them, malformed lines always
 * counted (skip; "error" is refused).
 */
Datum
logp95_rollup_rows(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	Interval   *stride = PG_GETARG_INTERVAL_P(1);
	Portal		portal;
	Logp95Rollup r;
	AttrNumber	key = 1;
	Oid			collation = InvalidOid;
	bool		nulls_first = false;
	TypeCacheEntry *tc;
	lp_allocator run_alloc;

	InitMaterializedSRF(fcinfo, 0);
	memset(&r, 0, sizeof(r));
	r.call = logp95_call_new(CurrentMemoryContext, PG_GETARG_TEXT_PP(2), PG_GETARG_TEXT_PP(3));
	if (r.call->ctx.flags & LP_OPT_ERROR)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("logp95_rollup_rows does not take the option \"error\""),
				 errdetail("A rollup counts malformed lines (the option skip), so that no line can make an INSERT or COPY into its source fail.")));
	r.call->ctx.flags |= LP_OPT_SKIP;
	r.memo_len = -1;
	r.origin = SetEpochTimestamp();
	r.stride = PointerGetDatum(stride);
	r.stride_usecs = logp95_rollup_stride(&r, stride);
	portal = logp95_rollup_cursor(name);

	r.pub.receiveSlot = logp95_rollup_receive;
	r.pub.rStartup = logp95_rollup_startup;
	r.pub.rShutdown = logp95_rollup_shutdown;
	r.pub.rDestroy = logp95_rollup_destroy;
	r.pub.mydest = DestNone;
	r.run_cxt = AllocSetContextCreate(CurrentMemoryContext, "logp95 rollup run",
									  ALLOCSET_DEFAULT_SIZES);
	r.out_cxt = AllocSetContextCreate(CurrentMemoryContext, "logp95 rollup output",
									  ALLOCSET_DEFAULT_SIZES);
	run_alloc = logp95_allocator(r.run_cxt);
	r.run = lp_run_create(&run_alloc);
	if (r.run == NULL)
		logp95_check(LP_ENOMEM);
	if (r.call->status)
		lp_run_count_status(r.run, r.call->sopts);
	tc = lookup_type_cache(TIMESTAMPTZOID, TYPECACHE_LT_OPR);
	r.runs = tuplesort_begin_heap(rsinfo->setDesc, 1, &key, &tc->lt_opr, &collation,
								  &nulls_first, work_mem, NULL, TUPLESORT_NONE);
	r.put = MakeSingleTupleTableSlot(rsinfo->setDesc, &TTSOpsVirtual);

	(void) PortalRunFetch(portal, FETCH_FORWARD, FETCH_ALL, &r.pub);
	if (r.in_run)
		logp95_rollup_end_run(&r);
	logp95_rollup_emit(&r, rsinfo);

	tuplesort_end(r.runs);
	ExecDropSingleTupleTableSlot(r.put);
	MemoryContextDelete(r.out_cxt);
	MemoryContextDelete(r.run_cxt);
	return (Datum) 0;
}
