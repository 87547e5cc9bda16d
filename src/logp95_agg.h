/* src/logp95_agg.h -- what logp95_agg counts from a line, for the glue that counts lines outside the aggregate */
#ifndef LOGP95_AGG_H
#define LOGP95_AGG_H

#include "postgres.h"

#include "logp95.h"
#include "lp_formats.h"
#include "lp_state.h"

/*
 * One call site's format and options, read on its first row and kept in
 * fn_extra (again only when an argument changes; the format through the
 * same Logp95FormatCache as logp95_format_arg), and the scratch buffer
 * where a route is built (templates, an absolute-form target without a
 * path): no per-row palloc.  The rollups (logp95_rollup.c) keep one for
 * the lines they read, through logp95_call_direct and logp95_call_line.
 */
typedef struct Logp95Call
{
	MemoryContext cxt;			/* where the options and the scratch buffer live */
	Logp95FormatCache fmt;		/* the format (fmt.format NULL for (route,
								 * latency) rows) and the name it was given as */
	char	   *options;		/* the options argument as given (NULL: none) */
	int			options_len;	/* its length */
	lp_parse_ctx ctx;			/* the options' flags and the scratch buffer */
	size_t		cap;			/* bytes at ctx.buf */
	bool		args_const;		/* the format and options arguments are
								 * constants of the aggregate call: read once,
								 * never looked at again */
	bool		direct;			/* a combined format without templates: its
								 * parser (cparse) is called directly */
	unsigned	cflags;			/* its flags (as lp_combined_parse passes them) */
	lp_combined_fn cparse;		/* the best build of lp_parse_combined */
} Logp95Call;

/*
 * A call of logp95_agg(line, format, options) made outside an aggregate,
 * in cxt: format and options (NULL: none) read once, 22023 when either is
 * unknown, as the aggregate raises it.
 */
extern Logp95Call *logp95_call_new(MemoryContext cxt, text *format, text *options);

/*
 * The combined parser's reading of a line that the call counts as the
 * parser reads it (a combined format without templates, a line that parses
 * with its route as it stands): true with *cl, whose route and latency are
 * what logp95_agg counts from the line and whose time is the one the format
 * reads (lp_combined_ts_of).  False for every other call and line.
 */
static LP_ALWAYS_INLINE bool
logp95_call_direct(const Logp95Call *call, const char *line, size_t len, lp_cline *cl)
{
	return call->direct && call->cparse(line, len, call->cflags, cl) == LP_C_OK &&
		!cl->route_slash;
}

/*
 * Read line[0 .. len) as logp95_agg(line, format, options) reads it when
 * logp95_call_direct did not: true with the route and latency it counts in
 * *out (the route may lie in the call's scratch buffer, until the next
 * line), false for a malformed line in skip mode (the caller counts one
 * malformed line); in error mode a malformed line raises its 22P02.  The
 * malformed policy is the aggregate's (the options' skip or error, else
 * logp95.on_malformed).
 */
extern bool logp95_call_line(Logp95Call *call, const char *line, size_t len, lp_fields *out);

#endif							/* LOGP95_AGG_H */
