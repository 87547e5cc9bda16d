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
	LP_LINE_REQTIME_RANGE		/* the request time does not fit in bigint ms (bad) */
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

/* Parse one line of format `fmt`. */
typedef lp_line_status (*lp_line_parser) (const char *line, size_t len,
										  const lp_format_def *fmt, lp_fields *out);

/* Read the timestamp of one line (out->text set whenever a field was found). */
typedef lp_ts_status (*lp_ts_reader) (const char *line, size_t len, lp_ts *out);

/* One log format: an entry of lp_formats[]. */
struct lp_format_def
{
	const char *name;			/* the name SQL callers give, e.g. "combined" */
	lp_line_parser parse;		/* its line parser */
	lp_ts_reader read_ts;		/* its timestamp reader */
	unsigned	flags;			/* LP_FMT_* */
	const char *ts_hint;		/* how its timestamp is written: a whole sentence
								 * for error hints */
};

/* Every format, "default" first, ended by an entry with a NULL name. */
extern const lp_format_def lp_formats[];

/* The format called `name` (exact, case-sensitive); NULL when unknown. */
extern const lp_format_def *lp_format_lookup(const char *name, size_t len);

/* The format of logp95_agg(text) and logp95_line_ts(text): lp_formats[0]. */
#define LP_FORMAT_DEFAULT (&lp_formats[0])

/* Every name in table order, comma-separated, for error messages. */
extern const char *lp_format_names(void);

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
	LP_C_LATENCY_RANGE			/* the request time does not fit in int64 ms */
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
} lp_cline;

/*
 * Parse a combined-format line:
 *   host ident user [time] "request" status size "referer" "agent" ... reqtime
 * The time is the text from the first '[' to the next ']'; quoted fields
 * end at the first '"' not preceded by a backslash (a backslash escapes the
 * next byte); the request time is the last field and must come after at
 * least four other fields that follow the request.  `flags` (LP_FMT_*)
 * say whether the query string stays in the route and whether the request
 * time is in microseconds (else seconds).  Nothing is copied.
 */
extern lp_cparse_status lp_parse_combined(const char *line, size_t len,
										  unsigned flags, lp_cline *out);

/*
 * Find the "[...]" time of a combined-format line (as lp_parse_combined
 * does) and parse it; LP_TS_MISSING when there is no bracketed field.
 */
extern lp_ts_status lp_combined_ts(const char *line, size_t len, lp_ts *out);

/*
 * A request time in seconds, "D+" or "D+.D+", to milliseconds rounded to
 * nearest, half up (0.0005 -> 1, 0.0004999 -> 0).
 */
extern lp_cparse_status lp_parse_seconds_ms(const char *s, size_t len, int64_t *ms);

/* A request time in integer microseconds to milliseconds, rounded half up. */
extern lp_cparse_status lp_parse_micros_ms(const char *s, size_t len, int64_t *ms);

#endif							/* LP_FORMATS_H */
