/* src/logp95_ts.c -- PostgreSQL glue: logp95_line_ts, the timestamp of a log line */
#include "postgres.h"

#include "datatype/timestamp.h"
#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/timestamp.h"

#include "logp95.h"
#include "lp_formats.h"
#include "lp_ts.h"

/*
 * Raise the 22007 error for a timestamp of format `fmt` that did not parse;
 * the hint, how that format writes its timestamp, comes from lp_formats[].
 */
pg_noreturn static void
logp95_ts_error(lp_ts_status st, const lp_ts *t, const lp_format_def *fmt,
				const char *line, size_t len)
{
	const char *msg;

	if (st == LP_TS_MISSING)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_DATETIME_FORMAT),
				 errmsg("log line has no timestamp"),
				 logp95_errdetail_line(line, len),
				 errhint("%s", fmt->ts_hint)));
	if (t->field == LP_TS_F_END)
		msg = gettext_noop("invalid timestamp \"%s\" in log line: unexpected characters after the last field");
	else if (st == LP_TS_RANGE)
		msg = gettext_noop("invalid timestamp \"%s\" in log line: %s is out of range");
	else
		msg = gettext_noop("invalid timestamp \"%s\" in log line: %s is malformed");
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_DATETIME_FORMAT),
			 errmsg(msg, logp95_quote(t->text, t->text_len), lp_ts_field_name(t->field)),
			 logp95_errdetail_line(line, len),
			 errhint("%s", fmt->ts_hint)));
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

/* The timestamp of one line in format `fmt`, or the 22007 error. */
static Timestamp
logp95_line_ts_in(text *t, const lp_format_def *fmt)
{
	const char *line = VARDATA_ANY(t);
	size_t		len = VARSIZE_ANY_EXHDR(t);
	lp_ts		ts;
	lp_ts_status st = fmt->read_ts(line, len, &ts);

	if (st != LP_TS_OK)
		logp95_ts_error(st, &ts, fmt, line, len);
	return logp95_ts_value(&ts);
}

PG_FUNCTION_INFO_V1(logp95_line_ts);
/* logp95_line_ts(line text): the timestamp of a default-format line. */
Datum
logp95_line_ts(PG_FUNCTION_ARGS)
{
	PG_RETURN_TIMESTAMP(logp95_line_ts_in(PG_GETARG_TEXT_PP(0), LP_FORMAT_DEFAULT));
}

PG_FUNCTION_INFO_V1(logp95_line_ts_format);
/* logp95_line_ts(line text, format text): the timestamp of a line in a named format. */
Datum
logp95_line_ts_format(PG_FUNCTION_ARGS)
{
	const lp_format_def *fmt = logp95_format_arg(fcinfo, 1);

	PG_RETURN_TIMESTAMP(logp95_line_ts_in(PG_GETARG_TEXT_PP(0), fmt));
}
