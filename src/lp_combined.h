/* src/lp_combined.h -- the combined family: nginx's combined layout with a request time (plain C) */
#ifndef LP_COMBINED_H
#define LP_COMBINED_H

#include "lp_format.h"
#include "lp_simd.h"

/*
 * The formats combined, combined_query, combined_us and combined_us_query
 * are one parser, lp_parse_combined, told by its flags whether the query
 * string stays (LP_PARSE_KEEP_QUERY) and whether the request time is in
 * seconds or microseconds (LP_C_MICROS).  Its body (lp_combined_impl.h) is
 * built once per instruction set (lp_simd.h); the entries of lp_formats[]
 * name lp_combined_parse, lp_combined_direct and lp_combined_ts, and give
 * the flags in their pflags.
 */

/* Flag of lp_parse_combined: the request time is integer microseconds (Apache's %D). */
#define LP_C_MICROS			0x02

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
 * `flags` say whether the query string stays in the route
 * (LP_PARSE_KEEP_QUERY) and whether the request time is in microseconds
 * (LP_C_MICROS; else seconds).  Nothing is
 * copied.  Statuses: LP_ST_OK, LP_ST_NO_TIME, LP_ST_NO_REQUEST,
 * LP_ST_BAD_REQUEST and LP_ST_NOT_HTTP (out->request is the request),
 * LP_ST_UNTERMINATED, LP_ST_TOO_FEW_TAIL_FIELDS (out->tail_fields),
 * LP_ST_BAD_SECONDS or LP_ST_BAD_MICROS and LP_ST_REQTIME_RANGE (out->bad
 * is the request time).
 */
extern lp_status lp_parse_combined(const char *line, size_t len,
								   unsigned flags, lp_cline *out);

/* One build of lp_parse_combined (see lp_combined_parser). */
typedef lp_status (*lp_combined_fn) (const char *line, size_t len,
									 unsigned flags, lp_cline *out);

/*
 * The build of lp_parse_combined for isa (lp_simd.h), or NULL when this
 * binary or CPU has none.  LP_ISA_BEST is the build lp_simd_choose chose,
 * the one lp_parse_combined calls.  Every build returns the same for
 * every line.
 */
extern lp_combined_fn lp_combined_parser(lp_isa isa);

/*
 * Find the "[...]" time of a combined-format line (as lp_parse_combined
 * does: the last '[' before the request) and parse it; LP_TS_MISSING when
 * there is no bracketed field.
 */
extern lp_ts_status lp_combined_ts(const char *line, size_t len, lp_ts *out);

/*
 * The direct parser of the combined entries, one per lp_isa (NULL where
 * this binary has no such build): the build's lp_parse_combined, which
 * counts a good line whose route is a slice of it (all but an
 * absolute-form target with no path and a query string kept).
 */
extern const lp_direct_fn lp_combined_direct[LP_ISA_COUNT];

/*
 * lp_combined_direct with the status in the row too (lp_row.status), and
 * the method (lp_row.method) when flags has LP_PARSE_FIELDS, for a call
 * that counts statuses (issue 24, lp_format_direct_fields).
 */
extern const lp_direct_fn lp_combined_direct_fields[LP_ISA_COUNT];

/*
 * The parser of the combined entries: lp_parse_combined with the entry's
 * flags and the call's LP_PARSE_KEEP_QUERY, the route through the call's
 * templates (and the "/" an absolute-form target with no path gets in
 * front of its query string).  On an error, bad is the request (a
 * request with no path, not HTTP) or the request time; on
 * LP_ST_TOO_FEW_TAIL_FIELDS nwant is LP_C_MIN_TAIL_FIELDS, nfields the
 * fields found after the request.  The time (the text between brackets) is
 * returned whenever the line has one; with LP_PARSE_FIELDS also the method
 * and the status (three digits after the request) of a line whose request
 * closed and is HTTP.
 */
extern lp_status lp_combined_parse(const char *line, size_t len, const lp_format_def *fmt,
								   const lp_parse_ctx *ctx, lp_result *out);

#endif							/* LP_COMBINED_H */
