/* src/lp_formats.c -- the table of access-log formats (plain C) */
#include "lp_formats.h"

#include "lp_combined.h"
#include "lp_default.h"
#include "lp_options.h"

/* See lp_formats.h: every format logp95 reads. */
const lp_format_def lp_formats[] = {
	/* "<timestamp> <method> <route> <latency_ms>" */
	{"default", lp_default_parse, lp_ts_parse_iso_field, 0},
	/* combined + request time in seconds, query string dropped */
	{"combined", lp_combined_parse, lp_combined_ts, 0},
	/* the same, query string kept in the route */
	{"combined_query", lp_combined_parse, lp_combined_ts, LP_FMT_KEEP_QUERY},
	/* combined + Apache %D microseconds, query string dropped */
	{"combined_us", lp_combined_parse, lp_combined_ts, LP_FMT_MICROS},
	/* the same, query string kept in the route */
	{"combined_us_query", lp_combined_parse, lp_combined_ts,
	LP_FMT_MICROS | LP_FMT_KEEP_QUERY},
	{NULL, NULL, NULL, 0}
};

/* Room for every name and its ", " (the table is checked against it). */
#define LP_FORMAT_NAMES_MAX 256

/* See lp_formats.h. */
const lp_format_def *
lp_format_lookup(const char *name, size_t len)
{
	const lp_format_def *f;

	for (f = lp_formats; f->name; f++)
	{
		if (strlen(f->name) == len && memcmp(f->name, name, len) == 0)
			return f;
	}
	return NULL;
}

/* See lp_formats.h: built from lp_formats[] on the first call. */
const char *
lp_format_names(void)
{
	static char names[LP_FORMAT_NAMES_MAX];

	return lp_names_join(names, sizeof(names), lp_formats, sizeof(lp_formats[0]), NULL);
}

/* See lp_formats.h. */
int
lp_format_is_combined(const lp_format_def *fmt)
{
	return fmt->parse == lp_combined_parse;
}

/* See lp_formats.h. */
const lp_format_def *
lp_format_guess(const char *line, size_t len)
{
	const lp_format_def *f;
	const lp_format_def *guess = NULL;
	lp_cline	cl;
	lp_status	st;

	for (f = lp_formats + 1; f->name; f++)
	{
		lp_result	lf;

		if (f->parse == lp_default_parse || (f->flags & LP_FMT_KEEP_QUERY))
			continue;
		if (f->parse(line, len, f, NULL, &lf) == LP_ST_OK)
			guess = f;
	}
	if (guess)
		return guess;
	/* a combined line with some other problem: a [time] and a request */
	st = lp_parse_combined(line, len, 0, &cl);
	if (st != LP_ST_NO_TIME && st != LP_ST_NO_REQUEST)
		return lp_format_lookup("combined", 8);
	return NULL;
}
