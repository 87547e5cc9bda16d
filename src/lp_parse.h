/* src/lp_parse.h -- access-log line parser (plain C, no PostgreSQL headers) */
#ifndef LP_PARSE_H
#define LP_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "lp_format.h"

/* Fields of a default-format line: timestamp, method, route, latency. */
#define LP_LINE_FIELDS 4

/* What the parser found in one line; slices point into the caller's bytes. */
typedef struct lp_line
{
	const char *route;			/* first byte of the route field (not copied) */
	size_t		route_len;		/* length of the route field in bytes */
	int64_t		latency;		/* latency in milliseconds, >= 0 */
	const char *bad;			/* on a latency error: the offending field */
	size_t		bad_len;		/* its length */
	int			nfields;		/* fields found, counted up to four */
} lp_line;

/*
 * Parse "<timestamp> <method> <route> <latency>[ <ignored>...]".
 * Fields are separated by runs of spaces or tabs; one trailing '\r' is
 * dropped; leading blanks are skipped; fields after the fourth are ignored.
 * Returns LP_ST_OK, LP_ST_TOO_FEW_FIELDS (fewer than four fields),
 * LP_ST_BAD_LATENCY (the latency is not a plain non-negative integer) or
 * LP_ST_LATENCY_RANGE (it does not fit in int64).
 */
extern lp_status lp_parse_line(const char *line, size_t len, lp_line *out);

/*
 * Parse a plain non-negative decimal integer (digits only, at least one).
 * Returns LP_ST_OK, LP_ST_BAD_LATENCY or LP_ST_LATENCY_RANGE.
 */
extern lp_status lp_parse_uint63(const char *s, size_t len, int64_t *out);

#endif							/* LP_PARSE_H */
