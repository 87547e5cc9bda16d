/* src/logp95_parse.c -- PostgreSQL glue: logp95_parse (what a line gives) and logp95_detect_format */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "logp95.h"
#include "logp95_count.h"
#include "lp_formats.h"

PG_FUNCTION_INFO_V1(logp95_parse);
/*
 * logp95_parse(line text, format text): one row saying what the format
 * makes of the line: its time (the instant logp95_line_ts gives, as
 * timestamptz), method, route, status and latency, each NULL when the
 * format lacks it or the line does not give it, and the problem (the
 * message logp95_agg raises in error mode) of a malformed line, NULL for
 * a good one.  A malformed line keeps the fields found before its problem;
 * route and latency are shown only for a line that counts.  The route is
 * the one logp95_agg(line, format) counts (query string dropped unless the
 * format keeps it).
 */
Datum
logp95_parse(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	text	   *t = PG_GETARG_TEXT_PP(0);
	const lp_format_def *fmt = logp95_format_arg(fcinfo, 1, 0);
	const char *line = VARDATA_ANY(t);
	size_t		len = VARSIZE_ANY_EXHDR(t);
	lp_parse_ctx ctx;
	lp_result	r;
	lp_status	st;
	Timestamp	ts;
	Datum		values[6];
	bool		nulls[6];

	InitMaterializedSRF(fcinfo, 0);
	if (rsinfo->setDesc->natts != 6)
		elog(ERROR, "logp95_parse returns 6 columns, not %d", rsinfo->setDesc->natts);
	memset(nulls, true, sizeof(nulls));
	ctx.flags = LP_PARSE_FIELDS;
	ctx.buf = palloc(LP_ROUTE_BUF_SIZE(len));
	memset(&r, 0, sizeof(r));
	st = fmt->parse(line, len, fmt, &ctx, &r);
	/* the route logp95_agg counts: as logged when unescaped it is not valid */
	if (st == LP_ST_OK && (r.has & LP_HAS_ROUTE_HIGH))
		logp95_route_logged(fmt, &ctx, line, len, &r);

	if (logp95_line_instant(fmt, line, len, &ts))
	{
		/* a UTC timestamp and a timestamptz are the same microseconds */
		values[0] = TimestampTzGetDatum((TimestampTz) ts);
		nulls[0] = false;
	}
	if (r.has & LP_HAS_METHOD)
	{
		values[1] = PointerGetDatum(cstring_to_text_with_len(r.method, (int) r.method_len));
		nulls[1] = false;
	}
	if (st == LP_ST_OK)
	{
		values[2] = PointerGetDatum(cstring_to_text_with_len(r.route, (int) r.route_len));
		nulls[2] = false;
		values[4] = Int64GetDatum(r.latency);
		nulls[4] = false;
	}
	if (r.has & LP_HAS_STATUS)
	{
		values[3] = Int32GetDatum(r.status);
		nulls[3] = false;
	}
	if (st != LP_ST_OK)
	{
		values[5] = PointerGetDatum(cstring_to_text(logp95_problem(st, &r)));
		nulls[5] = false;
	}
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(logp95_detect_format);
/*
 * logp95_detect_format(sample text[]): the format that reads the largest
 * share of the sample's lines (lp_format_detect: a tie goes to the
 * earlier in detection order), NULL when none reads half of them.  NULL
 * elements are not lines.
 */
Datum
logp95_detect_format(PG_FUNCTION_ARGS)
{
	ArrayType  *a = PG_GETARG_ARRAYTYPE_P(0);
	Datum	   *elems;
	bool	   *enulls;
	int			n,
				i;
	const char **lines;
	size_t	   *lens;
	size_t		nlines,
				nread;
	const lp_format_def *f;
	size_t		longest = 0;
	char	   *buf;

	deconstruct_array(a, TEXTOID, -1, false, TYPALIGN_INT, &elems, &enulls, &n);
	lines = palloc(sizeof(char *) * (n > 0 ? n : 1));
	lens = palloc(sizeof(size_t) * (n > 0 ? n : 1));
	for (i = 0; i < n; i++)
	{
		text	   *t;

		if (enulls[i])
		{
			lines[i] = NULL;
			lens[i] = 0;
			continue;
		}
		t = DatumGetTextPP(elems[i]);
		lines[i] = VARDATA_ANY(t);
		lens[i] = VARSIZE_ANY_EXHDR(t);
		longest = Max(longest, lens[i]);
	}
	buf = palloc(LP_ROUTE_BUF_SIZE(longest));
	f = lp_format_detect(lines, lens, (size_t) n, buf, &nlines, &nread);
	if (f == NULL)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(f->name));
}
