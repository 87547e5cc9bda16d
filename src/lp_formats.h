/* src/lp_formats.h -- the table of access-log formats and the combined-format parser (plain C) */
#ifndef LP_FORMATS_H
#define LP_FORMATS_H

#include "lp_common.h"
#include "lp_parse.h"
#include "lp_ts.h"

/*
 * One table, lp_formats[], names every log format logp95 reads and gives
 * its line parser, its timestamp reader and its flags, the way PostgreSQL's
 * encode.c keeps enclist[]: the aggregate, logp95_line_ts, the error hints
 * and the list of names in the unknown-format message all come from it.
 * Adding a format is one entry and its parser.
 */

/* Flags of a format. */
#define LP_FMT_KEEP_QUERY	0x01	/* the query string stays in the route */
#define LP_FMT_MICROS		0x02	/* the request time is in microseconds, not seconds */

/*
 * Flags a call adds to its format's (the options of logp95_agg(line,
 * format, options), see lp_options[]): LP_FMT_KEEP_QUERY ("query") and
 * these.
 */
#define LP_OPT_TEMPLATES	0x04	/* fold ids in the route's path into placeholders */
#define LP_OPT_SKIP			0x08	/* count malformed lines (overrides logp95.on_malformed) */
#define LP_OPT_ERROR		0x10	/* raise an error on a malformed line (the same) */

/*
 * Outcome of parsing one line, in any format.  Each failure names one
 * problem, so that the PostgreSQL glue has one whole message per status
 * and never asks which format the line was in.
 */
typedef enum lp_line_status
{
	LP_LINE_OK = 0,				/* route and latency were found */
	LP_LINE_TOO_FEW_FIELDS,		/* fewer than LP_LINE_FIELDS fields (nwant, nfields) */
	LP_LINE_BAD_LATENCY,		/* the latency is not a plain integer (bad) */
	LP_LINE_LATENCY_RANGE,		/* the latency does not fit in bigint (bad) */
	LP_LINE_NO_TIME,			/* no "[...]" time field after the client address */
	LP_LINE_NO_REQUEST,			/* no quoted request after the time */
	LP_LINE_BAD_REQUEST,		/* the request is "-" or has no path (bad) */
	LP_LINE_UNTERMINATED,		/* a quoted field has no closing quote */
	LP_LINE_TOO_FEW_TAIL_FIELDS,	/* fewer than LP_C_MIN_TAIL_FIELDS fields
									 * after the request (nwant, nfields) */
	LP_LINE_BAD_SECONDS,		/* the request time is not a number of seconds (bad) */
	LP_LINE_BAD_MICROS,			/* the request time is not an integer of microseconds (bad) */
	LP_LINE_REQTIME_RANGE,		/* the request time does not fit in bigint ms (bad) */
	LP_LINE_NOT_HTTP			/* the request is not an HTTP request (bad) */
} lp_line_status;

/* What a line parser found; every slice points into the line. */
typedef struct lp_fields
{
	const char *route;			/* the route */
	size_t		route_len;		/* its length */
	int64_t		latency;		/* latency in milliseconds, >= 0 */
	const char *bad;			/* the field an error is about (the latency, the
								 * request), or NULL */
	size_t		bad_len;		/* its length */
	int			nwant;			/* LP_LINE_TOO_FEW_*: the fields wanted */
	int			nfields;		/* LP_LINE_TOO_FEW_*: the fields found */
} lp_fields;

typedef struct lp_format_def lp_format_def;

/*
 * What one call adds to its format: option flags and a scratch buffer for
 * a route that has to be built (a template, an absolute-form target with
 * no path).  buf holds at least LP_ROUTE_BUF_SIZE(len) bytes for a line of
 * len bytes; it may be NULL when flags has neither LP_OPT_TEMPLATES nor
 * LP_FMT_KEEP_QUERY and the format keeps no query string.  A NULL context
 * means no options.
 */
typedef struct lp_parse_ctx
{
	unsigned	flags;			/* LP_FMT_KEEP_QUERY, LP_OPT_TEMPLATES (others ignored) */
	char	   *buf;			/* scratch for a built route, or NULL */
} lp_parse_ctx;

/* Bytes of scratch a route built from a line of len bytes may need. */
#define LP_ROUTE_BUF_SIZE(len) (2 * (size_t) (len) + 2)

/*
 * Parse one line of format `fmt` with the options of `ctx` (NULL: none).
 * The route points into the line, or into ctx->buf when it was built.
 */
typedef lp_line_status (*lp_line_parser) (const char *line, size_t len,
										  const lp_format_def *fmt,
										  const lp_parse_ctx *ctx, lp_fields *out);

/* Read the timestamp of one line (out->text set whenever a field was found). */
typedef lp_ts_status (*lp_ts_reader) (const char *line, size_t len, lp_ts *out);

/* One log format: an entry of lp_formats[]. */
struct lp_format_def
{
	const char *name;			/* the name SQL callers give, e.g. "combined" */
	lp_line_parser parse;		/* its line parser */
	lp_ts_reader read_ts;		/* its timestamp reader */
	unsigned	flags;			/* LP_FMT_* */
};

/* Every format, "default" first, ended by an entry with a NULL name. */
extern const lp_format_def lp_formats[];

/* The format called `name` (exact, case-sensitive); NULL when unknown. */
extern const lp_format_def *lp_format_lookup(const char *name, size_t len);

/* The format of logp95_agg(text) and logp95_line_ts(text): lp_formats[0]. */
#define LP_FORMAT_DEFAULT (&lp_formats[0])

/* Every name in table order, comma-separated, for error messages. */
extern const char *lp_format_names(void);

/*
 * Does fmt's entry parse with lp_parse_combined (with fmt->flags or-ed
 * with the call's LP_FMT_KEEP_QUERY)?  Lets a caller with no route
 * templates call lp_parse_combined directly, one row at a time.
 */
extern int	lp_format_is_combined(const lp_format_def *fmt);

/*
 * The format a line that failed in the default format looks like: the
 * last combined format (query string dropped) that reads it, else
 * "combined" when it has a [time] and a quoted request; NULL otherwise.
 * (The table lists seconds before microseconds, so an integer request time
 * suggests the microseconds format.)
 */
extern const lp_format_def *lp_format_guess(const char *line, size_t len);

/*
 * Route templates (LP_OPT_TEMPLATES): the path of r[0..n) (up to the first
 * '?'; the query string is copied as it is) with each '/'-separated segment
 * that is
 *   1 or more ASCII digits                              -> ":id"
 *   a UUID, 8-4-4-4-12 hex digits (either case)         -> ":uuid"
 *   16 or more hex digits (either case), one a digit    -> ":hex"
 * replaced.  slash: a '/' goes in front of r.  When something changes (or
 * slash), the route is written to buf (LP_ROUTE_BUF_SIZE(n) bytes) and its
 * length returned; otherwise 0 and buf is untouched.  templates = 0 only
 * adds the slash.
 */
extern size_t lp_route_template(const char *r, size_t n, int slash, int templates, char *buf);

/* ---------- per-call options ---------- */

/* One option word of logp95_agg(..., options). */
typedef struct lp_option_def
{
	const char *name;			/* the word, e.g. "skip" */
	unsigned	flag;			/* LP_OPT_* or LP_FMT_KEEP_QUERY */
	unsigned	conflicts;		/* flags it cannot be given with */
	int			lines_only;		/* 1: only for lines (not (route, latency) rows) */
} lp_option_def;

/* Every option, ended by an entry with a NULL name. */
extern const lp_option_def lp_options[];

/* Outcome of reading an options string. */
typedef enum lp_opts_status
{
	LP_OPTS_OK = 0,
	LP_OPTS_UNKNOWN,			/* *word is not an option */
	LP_OPTS_CONFLICT			/* *word conflicts with an earlier word */
} lp_opts_status;

/*
 * Read an options string: words separated by commas, blanks around them
 * ignored, "" for none; the flags of every word or-ed into *flags.  On an
 * error *word and *word_len name the word at fault.
 */
extern lp_opts_status lp_parse_options(const char *s, size_t len, unsigned *flags,
									   const char **word, size_t *word_len);

/* Every option name in table order, comma-separated, for error messages. */
extern const char *lp_option_names(void);

/* Outcome of parsing one combined-format line. */
typedef enum lp_cparse_status
{
	LP_C_OK = 0,				/* route and latency were found */
	LP_C_NO_TIME,				/* no "[...]" time field after the client address */
	LP_C_NO_REQUEST,			/* no quoted request after the time */
	LP_C_BAD_REQUEST,			/* the request is "-" or has no path */
	LP_C_UNTERMINATED,			/* a quoted field has no closing quote */
	LP_C_TOO_FEW_FIELDS,		/* fewer than five fields after the request */
	LP_C_BAD_LATENCY,			/* the request time is not a plain number */
	LP_C_LATENCY_RANGE,			/* the request time does not fit in int64 ms */
	LP_C_NOT_HTTP				/* the request is not METHOD SP TARGET (TLS, junk, the HTTP/2 preface) */
} lp_cparse_status;

/* Fields after the request: status, size, referer, user agent, request time. */
#define LP_C_MIN_TAIL_FIELDS 5

/* What the combined parser found; every slice points into the line. */
typedef struct lp_cline
{
	const char *route;			/* the request path (query string kept or not) */
	size_t		route_len;		/* its length */
	int64_t		latency;		/* request time in milliseconds, rounded */
	const char *time;			/* the text between '[' and ']' */
	size_t		time_len;		/* its length */
	const char *request;		/* the text between the request's quotes */
	size_t		request_len;	/* its length */
	const char *bad;			/* on a latency error: the offending field */
	size_t		bad_len;		/* its length */
	int			tail_fields;	/* fields found after the request */
	int			route_slash;	/* 1: the route is "/" followed by route[0..route_len)
								 * (an absolute-form target with a query string
								 * kept and no path) */
} lp_cline;

/*
 * Parse a combined-format line:
 *   host ident user [time] "request" status size "referer" "agent" ... reqtime
 * The request is the first field opened by a '"' (a '"' at the start of the
 * line or after a blank; the user name, client-controlled, is logged by
 * nginx with '"' escaped); the time is the last '[' before it up to the
 * first ']' after that '['.  So a user name with brackets, blanks or a fake
 * time changes nothing.  Quoted fields end at the first '"' not escaped by
 * a backslash (a backslash escapes the next byte).  The request must be
 * METHOD SP TARGET [...], METHOD one or more RFC 9110 tchars, TARGET a run
 * of non-blank bytes; "PRI * HTTP/2.0" (the HTTP/2 preface) is not HTTP/1
 * traffic.  An absolute-form target (scheme://authority/path) counts under
 * its path ("/" when it has none).  The request time is the last field and
 * must come after at least four other fields that follow the request.
 * `flags` (LP_FMT_*) say whether the query string stays in the route and
 * whether the request time is in microseconds (else seconds).  Nothing is
 * copied.
 */
extern lp_cparse_status lp_parse_combined(const char *line, size_t len,
										  unsigned flags, lp_cline *out);

/* One build of lp_parse_combined (see lp_combined_parser). */
typedef lp_cparse_status (*lp_combined_fn) (const char *line, size_t len,
											unsigned flags, lp_cline *out);

/* Instruction sets the combined parser is built for. */
typedef enum lp_isa
{
	LP_ISA_BEST = -1,			/* the best this CPU runs */
	LP_ISA_BASE = 0,			/* SSE2 on x86-64, SWAR or bytes elsewhere */
	LP_ISA_AVX2 = 1				/* x86-64 with AVX2: 32-byte scans */
} lp_isa;

/*
 * The build of lp_parse_combined for isa, or NULL when this compiler or CPU
 * has none.  LP_ISA_BEST is AVX2 where the CPU has it, unless the
 * environment variable LOGP95_ISA is "base" (for side-by-side benchmarks);
 * it is chosen on its first call and kept.
 * Every build returns the same for every line; lp_parse_combined calls the
 * best one.
 */
extern lp_combined_fn lp_combined_parser(lp_isa isa);

/*
 * Find the "[...]" time of a combined-format line (as lp_parse_combined
 * does: the last '[' before the request) and parse it; LP_TS_MISSING when
 * there is no bracketed field.
 */
extern lp_ts_status lp_combined_ts(const char *line, size_t len, lp_ts *out);

/*
 * The time of a line that lp_parse_combined read (LP_C_OK): the same as
 * lp_combined_ts of the line, from the "[...]" field the parse found
 * (lp_combined_ts finds that field as the parser does), without looking
 * for it again.
 */
extern lp_ts_status lp_combined_ts_of(const lp_cline *cl, lp_ts *out);

/*
 * A request time in seconds, "D+" or "D+.D+", to milliseconds rounded to
 * nearest, half up (0.0005 -> 1, 0.0004999 -> 0).
 */
extern lp_cparse_status lp_parse_seconds_ms(const char *s, size_t len, int64_t *ms);

/* A request time in integer microseconds to milliseconds, rounded half up. */
extern lp_cparse_status lp_parse_micros_ms(const char *s, size_t len, int64_t *ms);

/*
 * The ", "-separated names of a table's entries, built into buf (cap bytes)
 * on the first call and returned as they are afterwards: the entries lie
 * `stride` bytes apart from `table`, each starts with its `const char *name`
 * (as lp_format_def and lp_option_def do), and the table ends with a NULL
 * name; `keep` (NULL: every entry) chooses the entries listed.  The one
 * builder of the name lists in error hints.
 */
extern const char *lp_names_join(char *buf, size_t cap, const void *table, size_t stride,
								  int (*keep) (const void *entry));

#endif							/* LP_FORMATS_H */
