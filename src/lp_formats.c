/* src/lp_formats.c -- the table of access-log formats (plain C) */
#include "lp_formats.h"

#include "lp_combined.h"
#include "lp_default.h"
#include "lp_options.h"
#include "lp_simd.h"

/* The fields the parsers of each family return (with LP_PARSE_FIELDS). */
#define LP_DEFAULT_HAS (LP_HAS_ROUTE | LP_HAS_LATENCY | LP_HAS_TIME | LP_HAS_METHOD)
#define LP_COMBINED_HAS (LP_HAS_ROUTE | LP_HAS_LATENCY | LP_HAS_TIME | LP_HAS_METHOD | LP_HAS_STATUS)

/*
 * See lp_formats.h: every format logp95 reads.  Detection order (the last
 * field): among formats that read a line as well, the first wins; an
 * integer request time reads as seconds and as microseconds, and nginx
 * writes seconds with three decimals, so microseconds come first; a
 * _query format reads the same lines as its twin and comes after it.
 */
const lp_format_def lp_formats[] = {
	/* "<timestamp> <method> <route> <latency_ms>" */
	{"default", LP_FAMILY_DEFAULT, LP_UNIT_MS, LP_DEFAULT_HAS, LP_TIME_ISO8601,
		lp_ts_parse_iso_field, lp_default_parse, lp_default_direct,
	0, LP_FMT_GENERATE, 1},
	/* combined + request time in seconds, query string dropped */
	{"combined", LP_FAMILY_COMBINED, LP_UNIT_S, LP_COMBINED_HAS, LP_TIME_CLF,
		lp_combined_ts, lp_combined_parse, lp_combined_direct,
	0, LP_FMT_GENERATE | LP_FMT_HINT, 3},
	/* the same, query string kept in the route */
	{"combined_query", LP_FAMILY_COMBINED, LP_UNIT_S, LP_COMBINED_HAS, LP_TIME_CLF,
		lp_combined_ts, lp_combined_parse, lp_combined_direct,
	LP_PARSE_KEEP_QUERY, LP_FMT_GENERATE, 5},
	/* combined + Apache %D microseconds, query string dropped */
	{"combined_us", LP_FAMILY_COMBINED, LP_UNIT_US, LP_COMBINED_HAS, LP_TIME_CLF,
		lp_combined_ts, lp_combined_parse, lp_combined_direct,
	LP_C_MICROS, LP_FMT_GENERATE | LP_FMT_HINT, 2},
	/* the same, query string kept in the route */
	{"combined_us_query", LP_FAMILY_COMBINED, LP_UNIT_US, LP_COMBINED_HAS, LP_TIME_CLF,
		lp_combined_ts, lp_combined_parse, lp_combined_direct,
	LP_C_MICROS | LP_PARSE_KEEP_QUERY, LP_FMT_GENERATE, 4},
	{0}							/* the end: a NULL name */
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
lp_direct_fn
lp_format_direct(const lp_format_def *fmt, unsigned opts, unsigned *flags)
{
	if (fmt->direct == NULL || (opts & LP_PARSE_BUILD))
		return NULL;
	*flags = fmt->pflags | (opts & LP_PARSE_KEEP_QUERY);
	return fmt->direct[lp_simd_isa];
}

/* See lp_formats.h. */
lp_direct_fn
lp_format_direct_fields(const lp_format_def *fmt, unsigned opts, unsigned *flags)
{
	if (fmt->family != LP_FAMILY_COMBINED || !lp_format_direct(fmt, opts, flags))
		return NULL;
	return lp_combined_direct_fields[lp_simd_isa];
}

/* See lp_formats.h. */
int
lp_format_may_build(const lp_format_def *fmt, unsigned opts)
{
	return ((fmt->pflags | opts) & (LP_PARSE_BUILD | LP_PARSE_KEEP_QUERY)) != 0;
}

/* See lp_formats.h. */
const lp_format_def *
lp_format_guess(const char *line, size_t len)
{
	const lp_format_def *guess = NULL;
	const lp_format_def *f;
	const lp_format_def *combined = lp_format_lookup("combined", 8);
	lp_result	r;
	lp_status	st;

	/* the first format the hint may name, in detection order, that reads the line */
	for (f = lp_formats; f->name; f++)
	{
		if ((f->flags & LP_FMT_HINT) && (!guess || f->detect < guess->detect) &&
			f->parse(line, len, f, NULL, &r) == LP_ST_OK)
			guess = f;
	}
	if (guess)
		return guess;
	/* a combined line with some other problem: a [time] and a request */
	st = combined->parse(line, len, combined, NULL, &r);
	if (st != LP_ST_NO_TIME && st != LP_ST_NO_REQUEST)
		return combined;
	return NULL;
}

/* See lp_formats.h. */
const lp_format_def *
lp_format_detect(const char *const *lines, const size_t *lens, size_t n,
				 size_t *nlines, size_t *nread)
{
	const lp_format_def *best = NULL;
	size_t		best_read = 0;
	size_t		counted = 0;
	size_t		i;
	const lp_format_def *f;
	uint32_t	steps = 0;

	for (i = 0; i < n; i++)
		counted += lines[i] != NULL;
	for (f = lp_formats; f->name; f++)
	{
		size_t		nr = 0;

		if (f->detect <= 0)
			continue;
		for (i = 0; i < n; i++)
		{
			lp_result	r;

			LP_CHECK_INTERRUPTS(steps);
			if (lines[i] && f->parse(lines[i], lens[i], f, NULL, &r) == LP_ST_OK)
				nr++;
		}
		/* the largest share; a tie goes to the earlier in detection order */
		if (nr > 0 && (!best || nr > best_read || (nr == best_read && f->detect < best->detect)))
		{
			best = f;
			best_read = nr;
		}
	}
	*nlines = counted;
	*nread = best_read;
	if (!best || 2 * best_read < counted)
		return NULL;
	return best;
}
