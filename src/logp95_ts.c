/* src/logp95_ts.c -- PostgreSQL glue: logp95_line_ts, the timestamp of a log line */
#include "postgres.h"

#include "datatype/timestamp.h"
#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/timestamp.h"

#include "logp95.h"
#include "lp_formats.h"
#include "lp_time.h"
#include "lp_ts.h"

/*
 * The UTC instants logp95_line_ts gives: years 0001 to 9999 in UTC, the
 * range every timestamp reader accepts as written (lp_ts.h).
 */
#define LOGP95_TS_MIN INT64CONST(-63082281600000000)	/* 0001-01-01 00:00:00 */
#define LOGP95_TS_END INT64CONST(252455616000000000)	/* 10000-01-01 00:00:00 */

/*
 * A parsed timestamp as a PostgreSQL timestamp: the offset is subtracted
 * (UTC).  False when the instant falls outside years 0001 to 9999 in UTC.
 */
static bool
logp95_ts_value(const lp_ts *t, Timestamp *out)
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
		return false;
	/* usec may be 1000000 after rounding: adding it carries into the second */
	ts += (int64) t->usec - (int64) t->offset_sec * USECS_PER_SEC;
	if (ts < LOGP95_TS_MIN || ts >= LOGP95_TS_END)
		return false;
	*out = ts;
	return true;
}

/* See logp95.h. */
bool
logp95_line_instant(const lp_format_def *fmt, const char *line, size_t len, Timestamp *out)
{
	lp_ts		ts;

	if (fmt->read_ts)
	{
		if (fmt->read_ts(line, len, &ts) != LP_TS_OK)
			return false;
	}
	else
	{
		/* the time the format's parser finds, also in a malformed line */
		lp_parse_ctx ctx;
		lp_result	r;
		lp_ts_status st;

		ctx.flags = LP_PARSE_FIELDS | LP_PARSE_LOGGED;
		ctx.buf = palloc(LP_ROUTE_BUF_SIZE(len));
		memset(&r, 0, sizeof(r));
		(void) fmt->parse(line, len, fmt, &ctx, &r);
		st = lp_result_ts(&r, fmt->time_kind, fmt->offset_sec, &ts);
		pfree(ctx.buf);
		if (st != LP_TS_OK)
			return false;
	}
	return logp95_ts_value(&ts, out);
}

/*
 * The timestamp of one line in format `fmt`, or false when it has none
 * that is well formed: the caller returns NULL.  Never an error, so that
 * no line a server writes can make an INSERT or COPY into a table indexed
 * on logp95_line_ts fail.
 */
static bool
logp95_line_ts_in(text *t, const lp_format_def *fmt, Timestamp *out)
{
	return logp95_line_instant(fmt, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), out);
}

PG_FUNCTION_INFO_V1(logp95_line_ts);
/* logp95_line_ts(line text): the timestamp of a default-format line, or NULL. */
Datum
logp95_line_ts(PG_FUNCTION_ARGS)
{
	Timestamp	ts;

	if (!logp95_line_ts_in(PG_GETARG_TEXT_PP(0), LP_FORMAT_DEFAULT, &ts))
		PG_RETURN_NULL();
	PG_RETURN_TIMESTAMP(ts);
}

PG_FUNCTION_INFO_V1(logp95_line_ts_format);
/* logp95_line_ts(line text, format text): the timestamp of a line in a named format, or NULL. */
Datum
logp95_line_ts_format(PG_FUNCTION_ARGS)
{
	const lp_format_def *fmt = logp95_format_arg(fcinfo, 1, LP_HAS_TIME);
	Timestamp	ts;

	if (!logp95_line_ts_in(PG_GETARG_TEXT_PP(0), fmt, &ts))
		PG_RETURN_NULL();
	PG_RETURN_TIMESTAMP(ts);
}

PG_FUNCTION_INFO_V1(logp95_line_time);
/*
 * logp95_line_time(line text, format text): the instant of a line in a
 * named format as timestamptz, or NULL.  The same instant as
 * logp95_line_ts, as a point in time rather than a UTC wall-clock time, so
 * that comparisons with now() hold in every session's TimeZone.  A symbol
 * of its own (1.2): logp95_line_ts keeps the results its released scripts
 * bound.
 */
Datum
logp95_line_time(PG_FUNCTION_ARGS)
{
	const lp_format_def *fmt = logp95_format_arg(fcinfo, 1, LP_HAS_TIME);
	Timestamp	ts;

	if (!logp95_line_ts_in(PG_GETARG_TEXT_PP(0), fmt, &ts))
		PG_RETURN_NULL();
	/* a UTC timestamp and a timestamptz are the same microseconds */
	PG_RETURN_TIMESTAMPTZ((TimestampTz) ts);
}
