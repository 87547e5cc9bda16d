/* src/logp95.c -- PostgreSQL glue: types, aggregates and report functions */
#include "postgres.h"

#include <math.h>

#include "fmgr.h"
#include "funcapi.h"
#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"

#include "logp95.h"
#include "lp_codec.h"
#include "lp_gen.h"
#include "lp_parse.h"
#include "lp_state.h"

/*
 * PostgreSQL 18 records the library's name and version, shown by
 * pg_get_loaded_modules(); LOGP95_VERSION comes from the Makefile, which
 * reads it from logp95.control.
 */
#ifdef PG_MODULE_MAGIC_EXT
PG_MODULE_MAGIC_EXT(.name = "logp95",.version = LOGP95_VERSION);
#else
PG_MODULE_MAGIC;
#endif

/* Values of logp95.on_malformed. */
typedef enum
{
	LOGP95_MALFORMED_ERROR,		/* raise an ERROR (the default) */
	LOGP95_MALFORMED_SKIP		/* count the line and go on */
} Logp95OnMalformed;

static const struct config_enum_entry on_malformed_options[] = {
	{"error", LOGP95_MALFORMED_ERROR, false},
	{"skip", LOGP95_MALFORMED_SKIP, false},
	{NULL, 0, false}
};

/* logp95.on_malformed */
static int	logp95_on_malformed = LOGP95_MALFORMED_ERROR;

/* How much of a bad line an error message quotes, in bytes. */
#define LOGP95_QUOTE_MAX 200

/* Bytes of an empty state: version 1, no malformed lines, no routes. */
static const uint8 empty_state[3] = {LP_CODEC_VERSION, 0, 0};

void		_PG_init(void);

/*
 * lp_interrupt_hook of the plain C units: lets statement_timeout and cancel
 * requests stop their long loops (merge, encode, decode).
 */
static void
logp95_interrupt_hook(void)
{
	CHECK_FOR_INTERRUPTS();
}

/* Module load: register settings and the interrupt hook. */
void
_PG_init(void)
{
	lp_interrupt_hook = logp95_interrupt_hook;
	DefineCustomEnumVariable("logp95.on_malformed",
							 "What logp95_agg does with a malformed log line.",
							 "\"error\" raises an error; \"skip\" counts the line (see logp95_malformed) and goes on.",
							 &logp95_on_malformed,
							 LOGP95_MALFORMED_ERROR,
							 on_malformed_options,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	MarkGUCPrefixReserved("logp95");
}

/* ---------- memory: the plain C units allocate through these ---------- */

static void *
logp95_mcxt_alloc(void *ctx, size_t size)
{
	return MemoryContextAllocExtended((MemoryContext) ctx, size,
									  MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
}

static void
logp95_mcxt_free(void *ctx, void *ptr)
{
	pfree(ptr);
}

/* An allocator that draws from memory context `cxt`. */
lp_allocator
logp95_allocator(MemoryContext cxt)
{
	lp_allocator a;

	a.alloc = logp95_mcxt_alloc;
	a.free = logp95_mcxt_free;
	a.ctx = cxt;
	return a;
}

/* Turn a failure code of the plain C units into an ERROR. */
void
logp95_check(int rc)
{
	switch (rc)
	{
		case LP_OK:
			return;
		case LP_ENOMEM:
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("out of memory"),
					 errdetail("The logp95 aggregate state could not grow.")));
			break;
		case LP_EOVERFLOW:
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("logp95 request count is out of range for type bigint")));
			break;
		case LP_ETOOBIG:
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("logp95_state is too large"),
					 errdetail("A logp95_state holds at most 1 GB once encoded, and a state at most 2^29 routes or distinct latencies per route.")));
			break;
		default:
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("logp95_state value is corrupt")));
	}
}

/* The aggregate's state, created on first use in the aggregate context. */
lp_state *
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

/* ---------- the logp95_state type ---------- */

/*
 * Check an encoded state completely, and that every route is valid text in
 * the database encoding.  Returns NULL when fine, or a reason.
 */
static const char *
logp95_check_encoded(const uint8 *buf, size_t len)
{
	lp_reader	r;
	lp_route_view rv;
	int			rc;

	if (lp_reader_init(&r, buf, len) != LP_OK)
		return "The header is invalid.";
	while ((rc = lp_reader_next(&r, &rv)) == 1)
	{
		CHECK_FOR_INTERRUPTS();
		if (!pg_verifymbstr(rv.key, (int) rv.keylen, true))
			return "A route is not valid in the database encoding.";
	}
	if (rc != 0)
		return "The route list is truncated, out of order or inconsistent.";
	return NULL;
}

/* Build a logp95_state datum from encoded bytes, copying them. */
static bytea *
logp95_make_datum(const uint8 *buf, size_t len)
{
	bytea	   *res;

	if (len > MaxAllocSize - VARHDRSZ)
		logp95_check(LP_ETOOBIG);
	res = (bytea *) palloc(VARHDRSZ + len);
	SET_VARSIZE(res, VARHDRSZ + len);
	memcpy(VARDATA(res), buf, len);
	return res;
}

/* Raise the text-input error for `str`, quoting at most its first 40 bytes. */
static void
logp95_syntax_error(const char *str, const char *detail)
{
	int			len = (int) strlen(str);
	int			cut = pg_mbcliplen(str, len, 40);

	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid input syntax for type %s: \"%s\"", "logp95_state",
					cut < len ? psprintf("%.*s...", cut, str) : str),
			 errdetail("%s", detail)));
}

PG_FUNCTION_INFO_V1(logp95_state_in);
/* Text input: "\x" followed by the hex of the encoded state. */
Datum
logp95_state_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	size_t		len = strlen(str);
	uint8	   *buf = palloc(len / 2 + 1);
	size_t		blen;
	const char *why;

	if (lp_hex_decode(str, len, buf, &blen) != LP_OK)
		logp95_syntax_error(str, "A logp95_state is written as \\x followed by an even number of hexadecimal digits.");
	why = logp95_check_encoded(buf, blen);
	if (why)
		logp95_syntax_error(str, why);
	PG_RETURN_BYTEA_P(logp95_make_datum(buf, blen));
}

PG_FUNCTION_INFO_V1(logp95_state_out);
/* Text output: "\x" followed by the hex of the encoded state. */
Datum
logp95_state_out(PG_FUNCTION_ARGS)
{
	bytea	   *st = PG_GETARG_BYTEA_PP(0);
	size_t		len = VARSIZE_ANY_EXHDR(st);
	char	   *out;

	if (len > (MaxAllocSize - 3) / 2)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("logp95_state is too large for text output"),
				 errhint("Use binary COPY or logp95_report instead.")));
	out = palloc(lp_hex_len(len) + 1);
	lp_hex_encode((const uint8 *) VARDATA_ANY(st), len, out);
	out[lp_hex_len(len)] = '\0';
	PG_RETURN_CSTRING(out);
}

PG_FUNCTION_INFO_V1(logp95_state_recv);
/* Binary input: the encoded state itself, checked. */
Datum
logp95_state_recv(PG_FUNCTION_ARGS)
{
	StringInfo	msg = (StringInfo) PG_GETARG_POINTER(0);
	size_t		len = (size_t) (msg->len - msg->cursor);
	const uint8 *buf = (const uint8 *) pq_getmsgbytes(msg, (int) len);
	const char *why = logp95_check_encoded(buf, len);

	if (why)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid binary representation for type %s", "logp95_state"),
				 errdetail("%s", why)));
	PG_RETURN_BYTEA_P(logp95_make_datum(buf, len));
}

PG_FUNCTION_INFO_V1(logp95_state_send);
/* Binary output: the encoded state itself. */
Datum
logp95_state_send(PG_FUNCTION_ARGS)
{
	bytea	   *st = PG_GETARG_BYTEA_PP(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbytes(&buf, VARDATA_ANY(st), VARSIZE_ANY_EXHDR(st));
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* ---------- aggregates ---------- */

/* A copy of at most LOGP95_QUOTE_MAX bytes of s, cut on a character boundary. */
char *
logp95_quote(const char *s, size_t len)
{
	int			cut = pg_mbcliplen(s, (int) len, LOGP95_QUOTE_MAX);

	if ((size_t) cut < len)
		return psprintf("%.*s...", cut, s);
	return pnstrdup(s, len);
}

/*
 * Raise the error of a malformed line (every format): 22P02, the problem
 * named in the message, the line quoted in the detail.
 */
void
logp95_malformed_error(const char *problem, const char *line, size_t len)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("malformed log line: %s", problem),
			 errdetail("The line was \"%s\".", logp95_quote(line, len)),
			 errhint("Set logp95.on_malformed to \"skip\" to count malformed lines instead.")));
}

/*
 * logp95.on_malformed for every format: in skip mode count one malformed
 * line into st and return true; in error mode return false (the caller
 * raises the error that describes the line).
 */
bool
logp95_skip_malformed(lp_state *st)
{
	if (logp95_on_malformed != LOGP95_MALFORMED_SKIP)
		return false;
	logp95_check(lp_state_add_malformed(st, 1));
	return true;
}

/* Count a malformed line, or raise the error that describes it. */
static void
logp95_malformed_line(lp_state *st, lp_parse_status ps, const lp_line *pl,
					  const char *line, size_t len)
{
	if (logp95_skip_malformed(st))
		return;
	if (ps == LP_PARSE_TOO_FEW_FIELDS)
		logp95_malformed_error(psprintf("expected 4 fields, found %d", pl->nfields),
							   line, len);
	logp95_malformed_error(psprintf("latency \"%s\" %s",
									logp95_quote(pl->bad, pl->bad_len),
									ps == LP_PARSE_LATENCY_RANGE ?
									"is out of range for type bigint" :
									"is not a non-negative integer"),
						   line, len);
}

PG_FUNCTION_INFO_V1(logp95_agg_line_trans);
/*
 * logp95_agg(line text): parse one raw line and count its latency.  This
 * runs once per row, so it avoids calls where it can: the state pointer and
 * an inline (short or plain) text are used as they are, and only a
 * compressed or out-of-line value goes through detoasting.
 */
Datum
logp95_agg_line_trans(PG_FUNCTION_ARGS)
{
	lp_state   *st;
	struct varlena *t;
	const char *line;
	size_t		len;
	lp_line		pl;
	lp_parse_status ps;
	int			rc;

	st = likely(!PG_ARGISNULL(0)) ? (lp_state *) PG_GETARG_POINTER(0) :
		logp95_state_get(fcinfo, "logp95_agg_line_trans");
	if (PG_ARGISNULL(1))
		PG_RETURN_POINTER(st);
	t = (struct varlena *) PG_GETARG_POINTER(1);
	if (unlikely(VARATT_IS_EXTERNAL(t) || VARATT_IS_COMPRESSED(t)))
		t = pg_detoast_datum_packed(t);
	line = VARDATA_ANY(t);
	len = VARSIZE_ANY_EXHDR(t);
	ps = lp_parse_line(line, len, &pl);
	if (likely(ps == LP_PARSE_OK))
	{
		rc = lp_state_add_pipelined(st, pl.route, pl.route_len, pl.latency);
		if (unlikely(rc != LP_OK))
			logp95_check(rc);
	}
	else
		logp95_malformed_line(st, ps, &pl, line, len);
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(logp95_agg_pair_trans);
/* logp95_agg(route text, latency_ms bigint): count one structured row. */
Datum
logp95_agg_pair_trans(PG_FUNCTION_ARGS)
{
	lp_state   *st = logp95_state_get(fcinfo, "logp95_agg_pair_trans");
	text	   *route;
	int64		latency;

	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
		PG_RETURN_POINTER(st);
	route = PG_GETARG_TEXT_PP(1);
	latency = PG_GETARG_INT64(2);
	if (latency < 0)
	{
		if (logp95_on_malformed == LOGP95_MALFORMED_SKIP)
			logp95_check(lp_state_add_malformed(st, 1));
		else
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("latency %lld is negative", (long long) latency),
					 errdetail("The route was \"%s\".",
							   logp95_quote(VARDATA_ANY(route), VARSIZE_ANY_EXHDR(route))),
					 errhint("Set logp95.on_malformed to \"skip\" to count such rows instead.")));
		PG_RETURN_POINTER(st);
	}
	logp95_check(lp_state_add_pipelined(st, VARDATA_ANY(route), VARSIZE_ANY_EXHDR(route), latency));
	PG_RETURN_POINTER(st);
}

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
	bytea	   *in = PG_GETARG_BYTEA_PP(0);
	lp_allocator a = logp95_allocator(CurrentMemoryContext);
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

/* ---------- reading a stored state ---------- */

/* Open a stored state for reading; errors out when it is corrupt. */
static void
logp95_open(bytea *st, lp_reader *r)
{
	if (lp_reader_init(r, (const uint8 *) VARDATA_ANY(st), VARSIZE_ANY_EXHDR(st)) != LP_OK)
		logp95_check(LP_ECORRUPT);
}

/* Next route of a stored state: true with *rv, false at the end. */
static bool
logp95_next(lp_reader *r, lp_route_view *rv)
{
	int			rc = lp_reader_next(r, rv);

	if (rc < 0)
		logp95_check(LP_ECORRUPT);
	return rc == 1;
}

PG_FUNCTION_INFO_V1(logp95_report_rows);
/* One row per route: route, requests, p50, p95, p99, max. */
Datum
logp95_report_rows(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	bytea	   *st = PG_GETARG_BYTEA_PP(0);
	lp_reader	r;
	lp_route_view rv;

	InitMaterializedSRF(fcinfo, 0);
	logp95_open(st, &r);
	while (logp95_next(&r, &rv))
	{
		uint64		ranks[4];
		int64		vals[4];
		Datum		values[6];
		bool		nulls[6] = {false, false, false, false, false, false};

		CHECK_FOR_INTERRUPTS();
		ranks[0] = lp_rank_pct(rv.total, 50);
		ranks[1] = lp_rank_pct(rv.total, 95);
		ranks[2] = lp_rank_pct(rv.total, 99);
		ranks[3] = rv.total - 1;
		lp_view_ranks(&rv, ranks, vals, 4);
		values[0] = PointerGetDatum(cstring_to_text_with_len(rv.key, (int) rv.keylen));
		values[1] = Int64GetDatum((int64) rv.total);
		values[2] = Int64GetDatum(vals[0]);
		values[3] = Int64GetDatum(vals[1]);
		values[4] = Int64GetDatum(vals[2]);
		values[5] = Int64GetDatum(vals[3]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
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

	logp95_open(st, &r);
	while (logp95_next(&r, &rv))
	{
		int			c = lp_key_cmp(rv.key, rv.keylen, key, keylen);

		CHECK_FOR_INTERRUPTS();
		if (c == 0)
		{
			uint64		rank = lp_rank_fraction(rv.total, fraction);
			int64		v;

			lp_view_ranks(&rv, &rank, &v, 1);
			PG_RETURN_INT64(v);
		}
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

	logp95_open(st, &r);
	PG_RETURN_INT64((int64) r.malformed);
}

/* ---------- generator ---------- */

PG_FUNCTION_INFO_V1(logp95_generate);
/* Deterministic sample access-log lines. */
Datum
logp95_generate(PG_FUNCTION_ARGS)
{
	FuncCallContext *funcctx;
	lp_gen	   *g;
	char		buf[LP_GEN_MAXLINE];
	size_t		len;

	if (SRF_IS_FIRSTCALL())
	{
		int64		lines = PG_GETARG_INT64(0);
		int32		routes = PG_GETARG_INT32(1);
		int64		seed = PG_GETARG_INT64(2);
		MemoryContext old;

		if (lines < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("number of lines must not be negative")));
		if (routes < 1)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("number of routes must be at least 1")));
		funcctx = SRF_FIRSTCALL_INIT();
		old = MemoryContextSwitchTo(funcctx->multi_call_memory_ctx);
		g = palloc(sizeof(lp_gen));
		lp_gen_init(g, routes, seed);
		funcctx->user_fctx = g;
		funcctx->max_calls = (uint64) lines;
		MemoryContextSwitchTo(old);
	}
	funcctx = SRF_PERCALL_SETUP();
	if (funcctx->call_cntr >= funcctx->max_calls)
		SRF_RETURN_DONE(funcctx);
	CHECK_FOR_INTERRUPTS();
	g = (lp_gen *) funcctx->user_fctx;
	len = lp_gen_line(g, (int64) funcctx->call_cntr, buf);
	SRF_RETURN_NEXT(funcctx, PointerGetDatum(cstring_to_text_with_len(buf, (int) len)));
}
