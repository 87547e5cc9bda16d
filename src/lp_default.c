/* src/lp_default.c -- the default format's entry: "<timestamp> <method> <route> <latency_ms>" (plain C) */
#include "lp_default.h"

#include "lp_parse.h"
#include "lp_templates.h"

/*
 * LP_PARSE_FIELDS: the time (the first field) and the method (the second)
 * of a line, as lp_parse_line splits it (runs of blanks, a trailing '\r'
 * dropped), whatever the rest of the line holds.
 */
static void
lp_default_fields(const char *line, size_t len, lp_result *out)
{
	const char *end = line + len;
	const char *p = line;
	int			k;

	if (len > 0 && end[-1] == '\r')
		end--;
	for (k = 0; k < 2; k++)
	{
		const char *f;

		while (p < end && LP_IS_BLANK(*p))
			p++;
		if (p == end)
			return;
		f = p;
		while (p < end && !LP_IS_BLANK(*p))
			p++;
		if (k == 0)
		{
			out->time = f;
			out->time_len = (size_t) (p - f);
			out->has |= LP_HAS_TIME;
		}
		else
		{
			out->method = f;
			out->method_len = (size_t) (p - f);
			out->has |= LP_HAS_METHOD;
		}
	}
}

/* See lp_default.h. */
lp_status
lp_default_parse(const char *line, size_t len, const lp_format_def *fmt,
				 const lp_parse_ctx *ctx, lp_result *out)
{
	lp_line		pl;
	lp_status	st = lp_parse_line(line, len, &pl);

	if (st == LP_ST_OK)
	{
		LP_ASSERT(pl.route >= line && pl.route_len > 0 &&
				  pl.route + pl.route_len <= line + len && pl.latency >= 0);
		out->has = LP_HAS_ROUTE | LP_HAS_LATENCY;
		out->latency = pl.latency;
		lp_route_finish(ctx, pl.route, pl.route_len, 0, out);
	}
	else
	{
		out->has = 0;
		out->bad = pl.bad;
		out->bad_len = pl.bad_len;
		out->nwant = LP_LINE_FIELDS;
		out->nfields = pl.nfields;
	}
	if (ctx && (ctx->flags & LP_PARSE_FIELDS))
		lp_default_fields(line, len, out);
	return st;
}

/*
 * See lp_default.h: the direct parser, lp_parse_line itself (no route is
 * ever built without options).
 */
static int
lp_default_row(const char *line, size_t len, unsigned flags, lp_row *out)
{
	lp_line		pl;

	if (lp_parse_line(line, len, &pl) != LP_ST_OK)
		return 0;
	out->route = pl.route;
	out->route_len = pl.route_len;
	out->latency = pl.latency;
	out->time = NULL;
	out->time_len = 0;
	return 1;
}

/* See lp_default.h: one parser for every build (lp_parse_line picks its path at compile time). */
const lp_direct_fn lp_default_direct[LP_ISA_COUNT] = {
	[LP_ISA_BASE] = lp_default_row,
	[LP_ISA_AVX2] = lp_default_row,
};
