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
	lp_result	f = {.route = pl.route,.route_len = pl.route_len,.latency = pl.latency,
		.bad = pl.bad,.bad_len = pl.bad_len,.nwant = LP_LINE_FIELDS,.nfields = pl.nfields};

	*out = f;
	if (st == LP_ST_OK)
	{
		LP_ASSERT(pl.route >= line && pl.route_len > 0 &&
				  pl.route + pl.route_len <= line + len && pl.latency >= 0);
		lp_route_finish(ctx, pl.route, pl.route_len, 0, out);
	}
	return st;
}
