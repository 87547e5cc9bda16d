/* src/logp95_formats.c -- PostgreSQL glue: line timestamps, log formats, report row estimates */
#include "postgres.h"

#include "datatype/timestamp.h"
#include "fmgr.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/optimizer.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/timestamp.h"

#include "logp95.h"
#include "lp_codec.h"
#include "lp_formats.h"
#include "lp_ts.h"

/* Longest format name the cache holds (every known name is shorter). */
#define LOGP95_FORMAT_NAME_MAX 32

/*
 * The format argument of one call site, parsed once and kept in fn_extra:
 * later rows only compare their bytes with the cached name.
 */
typedef struct Logp95FormatCache
{
	lp_format	format;			/* the parsed format */
	int			len;			/* length of name */
	char		name[LOGP95_FORMAT_NAME_MAX];	/* the format's name as given */
} Logp95FormatCache;

/*
 * The format named by text argument argno, parsed on the first call of a
 * call site (and again only if the name changes); ERROR 22023 when unknown.
 */
static lp_format
logp95_format_arg(FunctionCallInfo fcinfo, int argno)
{
	text	   *t = PG_GETARG_TEXT_PP(argno);
	const char *name = VARDATA_ANY(t);
	int			len = (int) VARSIZE_ANY_EXHDR(t);
	Logp95FormatCache *cache = (Logp95FormatCache *) fcinfo->flinfo->fn_extra;
	int			f;

	if (likely(cache != NULL && cache->len == len && memcmp(cache->name, name, len) == 0))
		return cache->format;
	f = lp_format_lookup(name, (size_t) len);
	if (f < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown log format \"%s\"", logp95_quote(name, (size_t) len)),
				 errhint("Known formats are: %s.", lp_format_names())));
	if (cache == NULL)
	{
		cache = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, sizeof(Logp95FormatCache));
		fcinfo->flinfo->fn_extra = cache;
	}
	Assert(len < LOGP95_FORMAT_NAME_MAX);
	cache->format = (lp_format) f;
	cache->len = len;
	memcpy(cache->name, name, len);
	return (lp_format) f;
}

/* ---------- timestamps ---------- */

/* Raise the 22007 error for a timestamp that did not parse. */
static void
logp95_ts_error(lp_ts_status st, const lp_ts *t, lp_format f,
				const char *line, size_t len)
{
	const char *how = f == LP_FMT_DEFAULT ?
		"The first field of a line is written as YYYY-MM-DDTHH:MM:SS, optionally followed by a fraction of a second and by Z or a UTC offset such as +02:00." :
		"The time of a combined-format line is written as [DD/Mon/YYYY:HH:MM:SS +HHMM].";

	if (st == LP_TS_MISSING)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_DATETIME_FORMAT),
				 errmsg(f == LP_FMT_DEFAULT ? "log line has no timestamp" :
						"log line has no [time] field"),
				 errdetail("The line was \"%s\".", logp95_quote(line, len)),
				 errhint("%s", how)));
	if (t->field == LP_TS_F_END)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_DATETIME_FORMAT),
				 errmsg("invalid timestamp \"%s\" in log line: unexpected characters after the last field",
						logp95_quote(t->text, t->text_len)),
				 errdetail("The line was \"%s\".", logp95_quote(line, len)),
				 errhint("%s", how)));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_DATETIME_FORMAT),
			 errmsg("invalid timestamp \"%s\" in log line: %s is %s",
					logp95_quote(t->text, t->text_len), lp_ts_field_name(t->field),
					st == LP_TS_RANGE ? "out of range" : "malformed"),
			 errdetail("The line was \"%s\".", logp95_quote(line, len)),
			 errhint("%s", how)));
}

/* A parsed timestamp as a PostgreSQL timestamp: the offset is subtracted (UTC). */
static Timestamp
logp95_ts_value(const lp_ts *t)
{
	struct pg_tm tm;
	Timestamp	ts;

	memset(&tm, 0, sizeof(tm));
	tm.tm_year = t->year;
	tm.tm_mon = t->month;
	tm.tm_mday = t->day;
	tm.tm_hour = t->hour;
	tm.tm_min = t->minute;
	tm.tm_sec = t->second;
	if (tm2timestamp(&tm, 0, NULL, &ts) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range")));
	/* usec may be 1000000 after rounding: adding it carries into the second */
	ts += (int64) t->usec - (int64) t->offset_sec * USECS_PER_SEC;
	if (!IS_VALID_TIMESTAMP(ts))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range")));
	return ts;
}

/* The timestamp of one line in format f, or the 22007 error. */
static Timestamp
logp95_line_ts_in(text *t, lp_format f)
{
	const char *line = VARDATA_ANY(t);
	size_t		len = VARSIZE_ANY_EXHDR(t);
	lp_ts		ts;
	lp_ts_status st;

	if (f == LP_FMT_DEFAULT)
		st = lp_ts_parse_iso_field(line, len, &ts);
	else
		st = lp_combined_ts(line, len, &ts);
	if (st != LP_TS_OK)
		logp95_ts_error(st, &ts, f, line, len);
	return logp95_ts_value(&ts);
}

PG_FUNCTION_INFO_V1(logp95_line_ts);
/* logp95_line_ts(line text): the timestamp of a default-format line. */
Datum
logp95_line_ts(PG_FUNCTION_ARGS)
{
	PG_RETURN_TIMESTAMP(logp95_line_ts_in(PG_GETARG_TEXT_PP(0), LP_FMT_DEFAULT));
}

PG_FUNCTION_INFO_V1(logp95_line_ts_format);
/* logp95_line_ts(line text, format text): the timestamp of a line in a named format. */
Datum
logp95_line_ts_format(PG_FUNCTION_ARGS)
{
	lp_format	f = logp95_format_arg(fcinfo, 1);

	PG_RETURN_TIMESTAMP(logp95_line_ts_in(PG_GETARG_TEXT_PP(0), f));
}

/* ---------- the aggregate over lines of a named format ---------- */

/* Count a malformed combined-format line, or raise the error that describes it. */
static void
logp95_combined_malformed(lp_state *st, lp_cparse_status cs, const lp_cline *cl,
						  lp_format f, const char *line, size_t len)
{
	const char *problem;

	if (logp95_skip_malformed(st))
		return;
	switch (cs)
	{
		case LP_C_NO_TIME:
			problem = "no [time] field after the client address";
			break;
		case LP_C_NO_REQUEST:
			problem = "no quoted request after the time";
			break;
		case LP_C_BAD_REQUEST:
			problem = psprintf("request \"%s\" has no path",
							   logp95_quote(cl->request, cl->request_len));
			break;
		case LP_C_UNTERMINATED:
			problem = "a quoted field has no closing quote";
			break;
		case LP_C_TOO_FEW_FIELDS:
			problem = psprintf("expected %d fields after the request, found %d",
							   LP_C_MIN_TAIL_FIELDS, cl->tail_fields);
			break;
		case LP_C_LATENCY_RANGE:
			problem = psprintf("request time \"%s\" is out of range for type bigint in milliseconds",
							   logp95_quote(cl->bad, cl->bad_len));
			break;
		default:
			problem = psprintf("request time \"%s\" is not %s",
							   logp95_quote(cl->bad, cl->bad_len),
							   lp_format_micros(f) ? "a non-negative integer of microseconds" :
							   "a non-negative number of seconds");
	}
	logp95_malformed_error(problem, line, len);
}

PG_FUNCTION_INFO_V1(logp95_agg_format_trans);
/* logp95_agg(line text, format text): parse one line of the named format and count it. */
Datum
logp95_agg_format_trans(PG_FUNCTION_ARGS)
{
	lp_format	f;
	lp_state   *st;
	text	   *t;
	const char *line;
	size_t		len;
	lp_cline	cl;
	lp_cparse_status cs;

	if (PG_ARGISNULL(2))
		PG_RETURN_POINTER(logp95_state_get(fcinfo, "logp95_agg_format_trans"));
	f = logp95_format_arg(fcinfo, 2);
	if (f == LP_FMT_DEFAULT)
		return logp95_agg_line_trans(fcinfo);	/* the same code as logp95_agg(text) */
	st = logp95_state_get(fcinfo, "logp95_agg_format_trans");
	if (PG_ARGISNULL(1))
		PG_RETURN_POINTER(st);
	t = PG_GETARG_TEXT_PP(1);
	line = VARDATA_ANY(t);
	len = VARSIZE_ANY_EXHDR(t);
	cs = lp_parse_combined(line, len, f, &cl);
	if (likely(cs == LP_C_OK))
		logp95_check(lp_state_add_pipelined(st, cl.route, cl.route_len, cl.latency));
	else
		logp95_combined_malformed(st, cs, &cl, f, line, len);
	PG_RETURN_POINTER(st);
}

/* ---------- planner support: row estimates of the report ---------- */

PG_FUNCTION_INFO_V1(logp95_report_support);

/*
 * Planner support of logp95_report and logp95_report_rows: when the state
 * argument is (or folds to) a constant, the row estimate is its exact route
 * count; otherwise the planner falls back to the function's ROWS figure.
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
				arg = estimate_expression_value(req->root, arg);
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
