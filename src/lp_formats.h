/* src/lp_formats.h -- access-log formats beyond the default (plain C, no PostgreSQL headers) */
#ifndef LP_FORMATS_H
#define LP_FORMATS_H

#include <stddef.h>
#include <stdint.h>

#include "lp_ts.h"

/* The log formats logp95 reads; the names are in lp_format_names(). */
typedef enum lp_format
{
	LP_FMT_DEFAULT = 0,			/* "<timestamp> <method> <route> <latency_ms>" */
	LP_FMT_COMBINED,			/* combined + request time in seconds, query dropped */
	LP_FMT_COMBINED_QUERY,		/* the same, query string kept in the route */
	LP_FMT_COMBINED_US,			/* combined + Apache %D microseconds, query dropped */
	LP_FMT_COMBINED_US_QUERY,	/* the same, query string kept in the route */
	LP_FMT_COUNT				/* number of formats, not a format */
} lp_format;

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

/* Look a format name up (exact, case-sensitive); -1 when unknown. */
extern int	lp_format_lookup(const char *name, size_t len);

/* Name of a format. */
extern const char *lp_format_name(lp_format f);

/* Every known name, comma-separated, for error messages. */
extern const char *lp_format_names(void);

/* Whether a format keeps the query string in the route. */
extern int	lp_format_keeps_query(lp_format f);

/* Whether a format's request time is in microseconds (else seconds). */
extern int	lp_format_micros(lp_format f);

/*
 * Parse a combined-format line:
 *   host ident user [time] "request" status size "referer" "agent" ... reqtime
 * The time is the text from the first '[' to the next ']'; quoted fields
 * end at the first '"' not preceded by a backslash (a backslash escapes the
 * next byte); the request time is the last field and must come after at
 * least four other fields that follow the request.  Nothing is copied.
 */
extern lp_cparse_status lp_parse_combined(const char *line, size_t len,
										  lp_format f, lp_cline *out);

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
