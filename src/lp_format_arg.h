/* src/lp_format_arg.h -- the format argument: a name, name@offset, or a definition (plain C) */
#ifndef LP_FORMAT_ARG_H
#define LP_FORMAT_ARG_H

#include "lp_definition.h"
#include "lp_formats.h"
#include "lp_json.h"

/*
 * Every function that takes a log format (logp95_agg, logp95_line_ts,
 * logp95_line_time, logp95_parse) reads its argument here:
 *
 *	 format := name ['@' offset]
 *			 | ('nginx' | 'apache' | 'json') ['@' offset] ':' body
 *	 offset := ('+' | '-') HH [':'] MM | ('+' | '-') HH
 *
 * name is an entry of lp_formats[]; an offset is taken only by a format
 * whose lines write times without one (LP_FMT_LOCAL_TIME: haproxy,
 * cloudfront, iis) and by the three below, and is the offset of those
 * times (UTC without).  body is an nginx log_format definition, an Apache
 * LogFormat string (lp_definition.h) or a JSON-lines spec (lp_json.h),
 * compiled here for what the call needs.  The result is the table's entry
 * for a plain name, else the entry built in an lp_custom_format, which
 * holds everything the parsers read (no pointer into the argument).
 */

/* A format built from an argument: its entry and what the entry's data points at. */
typedef struct lp_custom_format
{
	lp_format_def def;			/* the entry (def.data: one of the below, or a table entry's) */
	union
	{
		lp_def_program prog;	/* nginx:, apache: */
		lp_json_spec spec;		/* json: */
	}			u;
} lp_custom_format;

/* Why an argument names no usable format. */
typedef enum lp_farg_status
{
	LP_FARG_OK = 0,
	LP_FARG_UNKNOWN,			/* no format has this name */
	LP_FARG_BAD_OFFSET,			/* the text after '@' is no UTC offset */
	LP_FARG_OFFSET_UNUSED,		/* an offset for a format whose times carry theirs */
	LP_FARG_LACKS,				/* a named format lacks a field the call needs (the host) */
	LP_FARG_DEFINITION			/* the body does not compile or lacks a field: pos */
} lp_farg_status;

/* What is wrong with an argument, for the glue's 22023. */
typedef struct lp_farg_error
{
	lp_farg_status status;
	const char *what;			/* LP_FARG_DEFINITION: "nginx log format", "Apache
								 * log format" or "JSON lines spec" */
	size_t		body_off;		/* LP_FARG_DEFINITION: where the body starts in the argument */
	size_t		pos;			/* LP_FARG_DEFINITION: the byte of the body at fault */
	char		message[192];	/* lower case, no period */
	const char *hint;			/* a full sentence, or NULL */
} lp_farg_error;

/*
 * Resolve the format argument arg[0..len) for a call that needs the
 * LP_HAS_* fields `need` (LP_HAS_ROUTE | LP_HAS_LATENCY for the
 * aggregate, LP_HAS_TIME for the time functions, LP_HAS_HOST with the
 * host option): LP_FARG_OK with *out the table's entry or &cf->def (cf
 * filled), else the error described in *err.
 */
extern lp_farg_status lp_format_resolve(const char *arg, size_t len, unsigned need,
										lp_custom_format *cf, const lp_format_def **out,
										lp_farg_error *err);

#endif							/* LP_FORMAT_ARG_H */
