/* src/lp_default.c -- the default format's entry: "<timestamp> <method> <route> <latency_ms>" (plain C) */
#include "lp_default.h"

#include "lp_parse.h"
#include "lp_templates.h"

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
		return st;
	}
	out->has = 0;
	out->bad = pl.bad;
	out->bad_len = pl.bad_len;
	out->nwant = LP_LINE_FIELDS;
	out->nfields = pl.nfields;
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
	return 1;
}

/* See lp_default.h: one parser for every build (lp_parse_line picks its path at compile time). */
const lp_direct_fn lp_default_direct[LP_ISA_COUNT] = {
	[LP_ISA_BASE] = lp_default_row,
	[LP_ISA_AVX2] = lp_default_row,
};
