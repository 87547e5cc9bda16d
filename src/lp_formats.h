/* src/lp_formats.h -- the table of access-log formats (plain C) */
#ifndef LP_FORMATS_H
#define LP_FORMATS_H

#include "lp_format.h"

/*
 * One table, lp_formats[], names every log format logp95 reads and carries
 * what makes each one (lp_format_def, lp_format.h: family, unit, fields,
 * time, parsers, flags, detection order), the way PostgreSQL's encode.c
 * keeps enclist[]: the aggregate, logp95_line_ts, logp95_generate, the
 * error hints and the list of names in the unknown-format message all come
 * from it, and none of them asks which family a format belongs to.
 * Adding a format is one entry and its parser.  The table sits above the
 * parsers it names (lp_default.h, lp_combined.h); the entry's type, which
 * the parsers read, sits below them in lp_format.h.
 */

/* Every format, "default" first, ended by an entry with a NULL name. */
extern const lp_format_def lp_formats[];

/* The format called `name` (exact, case-sensitive); NULL when unknown. */
extern const lp_format_def *lp_format_lookup(const char *name, size_t len);

/* The format of logp95_agg(text) and logp95_line_ts(text): lp_formats[0]. */
#define LP_FORMAT_DEFAULT (&lp_formats[0])

/* Every name in table order, comma-separated, for error messages. */
extern const char *lp_format_names(void);

/*
 * The direct parser (lp_format.h, lp_direct_fn) of fmt in the build
 * lp_simd_choose chose, and in *flags the flags to give it, for a call
 * with options opts (LP_PARSE_* and the caller's own); NULL when fmt has
 * none or the options may build routes (LP_PARSE_BUILD): the entry's
 * parser then parses every line.
 */
extern lp_direct_fn lp_format_direct(const lp_format_def *fmt, unsigned opts, unsigned *flags);

/*
 * May fmt's parser, with the options opts, build a route in ctx->buf?  The
 * caller then gives it a buffer of LP_ROUTE_BUF_SIZE(len) bytes.
 */
extern int	lp_format_may_build(const lp_format_def *fmt, unsigned opts);

/*
 * The format a line that failed in the default format looks like, for the
 * error's hint: of the formats flagged LP_FMT_HINT (combined and
 * combined_us: the query string dropped), the first in detection order
 * that reads it (an integer request time reads as both: combined_us),
 * else "combined" when the line has a [time] and a quoted request; NULL
 * otherwise.
 */
extern const lp_format_def *lp_format_guess(const char *line, size_t len);

/*
 * The format of a sample of lines (logp95_detect_format): of the formats
 * with a place in detection order, the one whose parser reads the largest
 * share of the lines; a tie goes to the earlier in that order; NULL when
 * none reads half of the lines or more.  lines[i] NULL is not counted (a
 * NULL element of the sample), nor is a W3C header line ("#Fields: ...",
 * LP_ST_DIRECTIVE) for the format that calls it one (cloudfront, iis).
 * buf: scratch for the routes the parsers build, LP_ROUTE_BUF_SIZE of the
 * longest line (NULL: none, and a JSON line with an escaped route is not
 * read).  *nlines: the lines counted for the format found (or, when none
 * is, every line), *nread: how many of them it reads.
 *
 * The order (lp_formats[].detect): the presets haproxy, alb, cloudfront,
 * envoy, traefik, iis, caddy, traefik_json (whose lines none of the others
 * reads, except the default format a CloudFront line: its fourth field,
 * sc-bytes, is an integer), then default, combined_us, combined,
 * combined_us_query, combined_query.  A line whose request time is a whole
 * number reads as seconds and as microseconds alike; nginx writes
 * $request_time with a fraction always (three decimals), Apache's %D and
 * every microsecond count never, so a sample whose request times are all
 * whole numbers is combined_us, and one line with a fraction makes the
 * share of combined the larger.  A _query format reads the lines its twin
 * reads: the twin comes first.
 */
extern const lp_format_def *lp_format_detect(const char *const *lines, const size_t *lens, size_t n,
											 char *buf, size_t *nlines, size_t *nread);

/*
 * The parsers of the entries a format argument builds (lp_format_arg.h):
 * a "json:" spec (fmt->data: its lp_json_spec) and an nginx or Apache
 * definition (fmt->data: its lp_def_program).
 */
extern lp_status lp_format_json_parse(const char *line, size_t len, const lp_format_def *fmt,
									  const lp_parse_ctx *ctx, lp_result *out);
extern lp_status lp_format_definition_parse(const char *line, size_t len, const lp_format_def *fmt,
											const lp_parse_ctx *ctx, lp_result *out);

#endif							/* LP_FORMATS_H */
