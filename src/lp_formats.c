/* src/lp_formats.c -- the table of access-log formats (plain C) */
#include "lp_formats.h"

#include "lp_combined.h"
#include "lp_default.h"
#include "lp_definition.h"
#include "lp_json.h"
#include "lp_options.h"
#include "lp_presets.h"
#include "lp_simd.h"

/* The fields the parsers of each family return (with LP_PARSE_FIELDS). */
#define LP_DEFAULT_HAS (LP_HAS_ROUTE | LP_HAS_LATENCY | LP_HAS_TIME | LP_HAS_METHOD)
#define LP_COMBINED_HAS (LP_HAS_ROUTE | LP_HAS_LATENCY | LP_HAS_TIME | LP_HAS_METHOD | LP_HAS_STATUS)

/* The fields of the presets: every one has route, latency, status, method and time. */
#define LP_PRESET_HAS (LP_HAS_ROUTE | LP_HAS_LATENCY | LP_HAS_STATUS | LP_HAS_METHOD | LP_HAS_TIME)

/*
 * The entries' parsers of the presets: each preset's lp_line_fn
 * (lp_presets.h), which needs nothing of its entry.
 */
#define LP_PRESET_ADAPTER(name) \
static lp_status \
lp_fmt_##name(const char *line, size_t len, const lp_format_def *fmt, \
			  const lp_parse_ctx *ctx, lp_result *out) \
{ \
	(void) fmt; \
	return lp_parse_##name(line, len, ctx, out); \
}
LP_PRESET_ADAPTER(haproxy)
LP_PRESET_ADAPTER(alb)
LP_PRESET_ADAPTER(cloudfront)
LP_PRESET_ADAPTER(envoy)
LP_PRESET_ADAPTER(traefik)
LP_PRESET_ADAPTER(iis)

/*
 * A JSON-lines preset's spec (lp_json_presets[]), compiled on its first
 * line and kept for the process: the entry's data.  The specs are
 * constants the unit tests compile, so compiling cannot fail here.
 */
typedef struct lp_json_preset_state
{
	const char *name;			/* the preset: its spec is lp_json_preset_spec(name) */
	int			ready;			/* 1: spec is compiled */
	lp_json_spec spec;
} lp_json_preset_state;

static lp_json_preset_state lp_caddy_state = {"caddy", 0, {0}};
static lp_json_preset_state lp_traefik_json_state = {"traefik_json", 0, {0}};

/* The parser of a JSON-lines preset's entry. */
static lp_status
lp_fmt_json_preset(const char *line, size_t len, const lp_format_def *fmt,
				   const lp_parse_ctx *ctx, lp_result *out)
{
	lp_json_preset_state *ps = (lp_json_preset_state *) fmt->data;

	if (!ps->ready)
	{
		const char *spec = lp_json_preset_spec(ps->name, strlen(ps->name));
		size_t		pos;

		if (spec == NULL ||
			lp_json_compile(spec, strlen(spec), &ps->spec, &pos) != LP_JSPEC_OK)
			return LP_ST_NOT_JSON;	/* cannot happen: checked by the unit tests */
		ps->ready = 1;
	}
	return lp_json_parse(&ps->spec, line, len, ctx, out);
}

/* See lp_formats.h: the parser of a "json:" format's entry (data: its spec). */
lp_status
lp_format_json_parse(const char *line, size_t len, const lp_format_def *fmt,
					 const lp_parse_ctx *ctx, lp_result *out)
{
	return lp_json_parse((const lp_json_spec *) fmt->data, line, len, ctx, out);
}

/* See lp_formats.h: the parser of a definition's entry (data: its program). */
lp_status
lp_format_definition_parse(const char *line, size_t len, const lp_format_def *fmt,
						   const lp_parse_ctx *ctx, lp_result *out)
{
	return lp_definition_parse((const lp_def_program *) fmt->data, line, len, ctx, out);
}

/*
 * See lp_formats.h: every format logp95 reads.  Detection order (the
 * `detect` field): among formats that read a line as well, the first wins.
 * The presets come first: no other format reads their lines except the
 * default format, which reads a CloudFront line (its fourth field,
 * sc-bytes, is an integer).  Then an integer request time reads as seconds
 * and as microseconds, and nginx writes seconds with three decimals, so
 * microseconds come first; a _query format reads the same lines as its
 * twin and comes after it.
 */
const lp_format_def lp_formats[] = {
	/* "<timestamp> <method> <route> <latency_ms>" */
	{"default", LP_FAMILY_DEFAULT, LP_UNIT_MS, LP_DEFAULT_HAS, LP_TIME_ISO8601,
		lp_ts_parse_iso_field, lp_default_parse, lp_default_direct,
	0, LP_FMT_GENERATE | LP_FMT_SHORT_PATH, 9, NULL, 0},
	/* combined + request time in seconds, query string dropped */
	{"combined", LP_FAMILY_COMBINED, LP_UNIT_S, LP_COMBINED_HAS, LP_TIME_CLF,
		lp_combined_ts, lp_combined_parse, lp_combined_direct,
	0, LP_FMT_GENERATE | LP_FMT_HINT, 11, NULL, 0},
	/* the same, query string kept in the route */
	{"combined_query", LP_FAMILY_COMBINED, LP_UNIT_S, LP_COMBINED_HAS, LP_TIME_CLF,
		lp_combined_ts, lp_combined_parse, lp_combined_direct,
	LP_PARSE_KEEP_QUERY, LP_FMT_GENERATE, 13, NULL, 0},
	/* combined + Apache %D microseconds, query string dropped */
	{"combined_us", LP_FAMILY_COMBINED, LP_UNIT_US, LP_COMBINED_HAS, LP_TIME_CLF,
		lp_combined_ts, lp_combined_parse, lp_combined_direct,
	LP_C_MICROS, LP_FMT_GENERATE | LP_FMT_HINT, 10, NULL, 0},
	/* the same, query string kept in the route */
	{"combined_us_query", LP_FAMILY_COMBINED, LP_UNIT_US, LP_COMBINED_HAS, LP_TIME_CLF,
		lp_combined_ts, lp_combined_parse, lp_combined_direct,
	LP_C_MICROS | LP_PARSE_KEEP_QUERY, LP_FMT_GENERATE, 12, NULL, 0},

	/*
	 * The presets (1.2).  Their routes are always unescaped (pflags
	 * LP_PARSE_UNESCAPE, which also tells lp_format_may_build that a route
	 * may be built), their times read from the parse result (read_ts NULL).
	 * Detection: before the built-in formats (above).  They are not named
	 * in the hint of a default line's error (LP_FMT_HINT), whose errors
	 * stay 1.1's word for word (test/t/042_formats_vs_1_1.pl).
	 */
	{"haproxy", LP_FAMILY_PRESET, LP_UNIT_MS, LP_PRESET_HAS, LP_TIME_CLF_MS,
		NULL, lp_fmt_haproxy, NULL,
	LP_PARSE_UNESCAPE, LP_FMT_LOCAL_TIME, 1, NULL, 0},
	{"alb", LP_FAMILY_PRESET, LP_UNIT_S, LP_PRESET_HAS | LP_HAS_HOST, LP_TIME_ISO8601,
		NULL, lp_fmt_alb, NULL,
	LP_PARSE_UNESCAPE, 0, 2, NULL, 0},
	{"cloudfront", LP_FAMILY_PRESET, LP_UNIT_S, LP_PRESET_HAS | LP_HAS_HOST, LP_TIME_DATE_TIME,
		NULL, lp_fmt_cloudfront, NULL,
	LP_PARSE_UNESCAPE, LP_FMT_LOCAL_TIME, 3, NULL, 0},
	{"envoy", LP_FAMILY_PRESET, LP_UNIT_MS, LP_PRESET_HAS | LP_HAS_HOST, LP_TIME_ISO8601,
		NULL, lp_fmt_envoy, NULL,
	LP_PARSE_UNESCAPE, 0, 4, NULL, 0},
	{"traefik", LP_FAMILY_PRESET, LP_UNIT_MS, LP_PRESET_HAS, LP_TIME_CLF,
		NULL, lp_fmt_traefik, NULL,
	LP_PARSE_UNESCAPE, 0, 5, NULL, 0},
	{"iis", LP_FAMILY_PRESET, LP_UNIT_MS, LP_PRESET_HAS, LP_TIME_DATE_TIME,
		NULL, lp_fmt_iis, NULL,
	LP_PARSE_UNESCAPE, LP_FMT_LOCAL_TIME, 6, NULL, 0},
	{"caddy", LP_FAMILY_JSON, LP_UNIT_S, LP_PRESET_HAS | LP_HAS_HOST, LP_TIME_EPOCH,
		NULL, lp_fmt_json_preset, NULL,
	LP_PARSE_UNESCAPE, 0, 7, &lp_caddy_state, 0},
	{"traefik_json", LP_FAMILY_JSON, LP_UNIT_NS, LP_PRESET_HAS | LP_HAS_HOST, LP_TIME_ISO8601,
		NULL, lp_fmt_json_preset, NULL,
	LP_PARSE_UNESCAPE, 0, 8, &lp_traefik_json_state, 0},
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
lp_format_guess(const char *line, size_t len, char *buf)
{
	const lp_format_def *guess = NULL;
	const lp_format_def *f;
	const lp_format_def *combined = lp_format_lookup("combined", 8);
	lp_result	r;
	lp_status	st;
	lp_parse_ctx ctx = {0, buf};

	/* the first format the hint may name, in detection order, that reads the line */
	for (f = lp_formats; f->name; f++)
	{
		if ((f->flags & LP_FMT_HINT) && (!guess || f->detect < guess->detect) &&
			f->parse(line, len, f, buf ? &ctx : NULL, &r) == LP_ST_OK)
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
lp_format_detect(const char *const *lines, const size_t *lens, size_t n, char *buf,
				 size_t *nlines, size_t *nread)
{
	const lp_format_def *best = NULL;
	size_t		best_read = 0;
	size_t		best_lines = 0;
	size_t		i;
	const lp_format_def *f;
	uint32_t	steps = 0;
	lp_parse_ctx ctx = {0, buf};

	for (f = lp_formats; f->name; f++)
	{
		size_t		nr = 0;
		size_t		nl = 0;

		if (f->detect <= 0)
			continue;
		for (i = 0; i < n; i++)
		{
			lp_result	r;
			lp_status	st;

			LP_CHECK_INTERRUPTS(steps);
			if (!lines[i])
				continue;
			st = f->parse(lines[i], lens[i], f, buf ? &ctx : NULL, &r);
			/* a W3C header line is no line of this format's */
			nl += st != LP_ST_DIRECTIVE;

			/*
			 * The default format's parser does not read its first field, so
			 * any line of four fields whose fourth is a number passes it (an
			 * nginx "rt=0.012 [07/Nov/2026:12:00:05 +0100] 200 ..." line,
			 * route "+0100]"): for detection its time must read too.
			 */
			if (st == LP_ST_OK && f->family == LP_FAMILY_DEFAULT && f->read_ts)
			{
				lp_ts		ts;

				if (f->read_ts(lines[i], lens[i], &ts) != LP_TS_OK)
					st = LP_ST_NO_TIME;
			}
			nr += st == LP_ST_OK;
		}

		/*
		 * The largest share (nr / nl, compared crosswise); a tie goes to the
		 * earlier in detection order.
		 */
		if (nr > 0 && (!best || nr * best_lines > best_read * nl ||
					   (nr * best_lines == best_read * nl && f->detect < best->detect)))
		{
			best = f;
			best_read = nr;
			best_lines = nl;
		}
	}
	if (!best)
	{
		best_lines = 0;
		for (i = 0; i < n; i++)
			best_lines += lines[i] != NULL;
	}
	*nlines = best_lines;
	*nread = best_read;
	if (!best || 2 * best_read < best_lines)
		return NULL;
	return best;
}
