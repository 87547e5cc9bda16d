/* src/logp95_count.h -- PostgreSQL glue: what every logp95_agg transition counts from one row */
#ifndef LOGP95_COUNT_H
#define LOGP95_COUNT_H

#include "postgres.h"

#include "fmgr.h"

#include "logp95.h"
#include "lp_formats.h"
#include "lp_options.h"
#include "lp_parse.h"
#include "lp_state.h"
#include "lp_templates.h"

/*
 * The per-row counting of every form of logp95_agg, shared by the 1.1
 * transitions (logp95_agg.c, STYPE logp95_state) and 1.0's
 * (logp95_agg_compat.c, STYPE internal), which both sit above it, so that
 * neither aggregate file calls the other.  What runs on every row is
 * inline here (the line's bytes, the direct parser, the count); what runs
 * once per call site or per malformed line is in logp95_count.c: the
 * call's format and options, and the one malformed policy.
 */

/* ---------- the malformed policy, one for every transition ---------- */

/*
 * The malformed policy of every transition: the call's option (LP_OPT_SKIP
 * or LP_OPT_ERROR in opts, from logp95_agg(..., options)) when it gives
 * one, else logp95.on_malformed.  In skip mode count one malformed row
 * into st and return true; in error mode return false (the caller raises
 * the error that describes the row).
 */
extern bool logp95_skip_malformed(lp_state *st, unsigned opts);

/*
 * The message of a malformed line's status st (NULL for LP_ST_OK), with
 * what r says it quotes, palloc'd: the text of the 22P02 error and of
 * logp95_parse's problem column, one wording for both (lp_status_defs[]).
 */
extern char *logp95_problem(lp_status st, const lp_result *r);

/*
 * A route that unescaping made (r->has has LP_HAS_ROUTE_HIGH) and that is
 * not valid in the database encoding: parse the line again as logged
 * (LP_PARSE_LOGGED, lp_format.h) into *r and return true; false, r as it
 * was, when the route is valid.  ctx is the parse's (not NULL: routes are
 * built only with one).
 */
extern bool logp95_route_logged(const lp_format_def *fmt, const lp_parse_ctx *ctx,
								const char *line, size_t len, lp_result *r);

/*
 * A line of format `fmt` (parsed with ctx, NULL: no options) that did not
 * parse: counted in skip mode, else the 22P02 error that describes it
 * (the message of its status, lp_status_defs[]).
 */
extern void logp95_malformed_line(lp_state *st, const lp_format_def *fmt,
								  const lp_parse_ctx *ctx, const char *line, size_t len);

/* ---------- per-call format and options ---------- */

/*
 * One call site's format and options, read on its first row and kept in
 * fn_extra (again only when an argument changes; the format through the
 * same Logp95FormatCache as logp95_format_arg), and the scratch buffer
 * where a route is built (templates, an absolute-form target without a
 * path): no per-row palloc.
 */
typedef struct Logp95Call
{
	Logp95FormatCache fmt;		/* the format (fmt.format NULL for (route,
								 * latency) rows) and the name it was given as */
	char	   *options;		/* the options argument as given (NULL: none) */
	int			options_len;	/* its length */
	lp_parse_ctx ctx;			/* the options' flags and the scratch buffer */
	size_t		cap;			/* bytes at ctx.buf */
	bool		args_const;		/* the format and options arguments are
								 * constants of the aggregate call: read once,
								 * never looked at again */
	lp_direct_fn direct;		/* the format's direct parser for these
								 * options (lp_format_direct), or NULL */
	unsigned	dflags;			/* the flags it is given */
	bool		may_build;		/* the entry's parser may build a route in
								 * ctx.buf (lp_format_may_build) */
} Logp95Call;

/*
 * The call site's format (text argument fmt_argno, or -1 for (route,
 * latency) rows) and options (text argument opt_argno, or -1; NULL: none),
 * read into its Logp95Call in fn_extra when they changed.  The caller
 * checked that the format argument is not NULL.
 */
extern Logp95Call *logp95_call_get(FunctionCallInfo fcinfo, int fmt_argno, int opt_argno);

/* Grow the call's scratch buffer to hold a route built from len bytes. */
extern void logp95_call_scratch_grow(FunctionCallInfo fcinfo, Logp95Call *call, size_t len);

/*
 * The call site's format and options, as logp95_call_get; when both are
 * constants (the usual logp95_agg(line, 'combined')), read on the first
 * row only: the per-row cost is one load and a test.
 */
static LP_ALWAYS_INLINE Logp95Call *
logp95_call_of(FunctionCallInfo fcinfo, int fmt_argno, int opt_argno)
{
	Logp95Call *call = (Logp95Call *) fcinfo->flinfo->fn_extra;

	if (likely(call != NULL && call->args_const))
		return call;
	return logp95_call_get(fcinfo, fmt_argno, opt_argno);
}

/* Make the call's scratch buffer hold a route built from len bytes. */
static inline void
logp95_call_scratch(FunctionCallInfo fcinfo, Logp95Call *call, size_t len)
{
	if (unlikely(LP_ROUTE_BUF_SIZE(len) > call->cap))
		logp95_call_scratch_grow(fcinfo, call, len);
}

/* ---------- what each form counts from one row (any state type) ---------- */

/*
 * The bytes of the line in argument 1 (not NULL), without a call: an
 * inline (short or plain) text is used as it is, and only a compressed or
 * out-of-line value goes through detoasting.
 */
static LP_ALWAYS_INLINE const char *
logp95_line_arg(FunctionCallInfo fcinfo, size_t *len)
{
	struct varlena *t = (struct varlena *) PG_GETARG_POINTER(1);

	if (unlikely(VARATT_IS_EXTERNAL(t) || VARATT_IS_COMPRESSED(t)))
		t = pg_detoast_datum_packed(t);
	else if (logp95_prefetch_distance > 0)
	{
		/*
		 * A sequential scan hands over the tuples of a heap page from the
		 * top of the page down: the next line is most likely in the bytes
		 * just below this one.  Ask for them now, so that the next row's
		 * cache misses overlap this row's parse (only a hint: a prefetch
		 * never faults, and a wrong guess costs nothing but bandwidth).
		 * Each row asks for about its own size, logp95.prefetch_distance
		 * bytes below itself: the rows that far ahead are then in the
		 * cache when their turn comes (docs/performance.md).
		 */
		uintptr_t	p = (uintptr_t) t - (uintptr_t) logp95_prefetch_distance;
		uintptr_t	e = p + Min(VARSIZE_ANY(t), 1024) + 64;

		for (; p < e; p += 64)
			__builtin_prefetch((const void *) p);
	}
	*len = VARSIZE_ANY_EXHDR(t);
	return VARDATA_ANY(t);
}

/*
 * logp95_agg(line text): parse one raw line (argument 1) and count its
 * latency.  This runs once per row, so it avoids calls where it can
 * (logp95_line_arg, the parser inline).  A NULL line counts nothing.
 */
static LP_ALWAYS_INLINE void
logp95_count_line(lp_state *st, FunctionCallInfo fcinfo)
{
	const char *line;
	size_t		len;
	lp_line		pl;
	int			rc;

	if (PG_ARGISNULL(1))
		return;
	line = logp95_line_arg(fcinfo, &len);
	/* the default format's parser, called directly: the inline hot path */
	if (likely(lp_parse_line(line, len, &pl) == LP_ST_OK))
	{
		rc = lp_state_add_pipelined(st, pl.route, pl.route_len, pl.latency);
		if (unlikely(rc != LP_OK))
			logp95_check(rc);
	}
	else
		logp95_malformed_line(st, LP_FORMAT_DEFAULT, NULL, line, len);
}

/*
 * logp95_agg(route text, latency_ms bigint [, options text]): count one
 * structured row (arguments 1, 2) with the call's options (argument
 * opt_argno, -1 for none: skip | error, templates).
 */
static LP_ALWAYS_INLINE void
logp95_count_pair(lp_state *st, FunctionCallInfo fcinfo, int opt_argno)
{
	Logp95Call *call = opt_argno >= 0 ? logp95_call_of(fcinfo, -1, opt_argno) : NULL;
	text	   *route;
	const char *r;
	size_t		n;
	int64		latency;

	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
		return;
	route = PG_GETARG_TEXT_PP(1);
	r = VARDATA_ANY(route);
	n = VARSIZE_ANY_EXHDR(route);
	latency = PG_GETARG_INT64(2);
	if (latency < 0)
	{
		if (!logp95_skip_malformed(st, call ? call->ctx.flags : 0))
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("latency %lld is negative", (long long) latency),
					 errdetail("The route was \"%s\".", logp95_quote(r, n)),
					 call ?
					 errhint("Pass the option 'skip' or set logp95.on_malformed to \"skip\" to count such rows instead.") :
					 errhint("Set logp95.on_malformed to \"skip\" to count such rows instead.")));
		return;
	}
	if (call && (call->ctx.flags & LP_PARSE_TEMPLATES))
	{
		size_t		m;

		logp95_call_scratch(fcinfo, call, n);
		m = lp_route_template(r, n, 0, 1, call->ctx.buf);
		if (m > 0)
		{
			r = call->ctx.buf;
			n = m;
		}
	}
	logp95_check(lp_state_add_pipelined(st, r, n, latency));
}

/*
 * logp95_agg(line text, format text [, options text]): parse one line
 * (argument 1) of the named format (argument 2) with the call's options
 * (argument opt_argno, -1 for none), both cached in the call site
 * (logp95_call_get), and count it.
 */
static LP_ALWAYS_INLINE void
logp95_count_format_line(lp_state *st, FunctionCallInfo fcinfo, int opt_argno)
{
	Logp95Call *call;
	const lp_format_def *fmt;
	const char *line;
	size_t		len;
	lp_result	lf;
	lp_status	pst;

	if (PG_ARGISNULL(2))
		return;
	call = logp95_call_of(fcinfo, 2, opt_argno);
	fmt = call->fmt.format;
	if (PG_ARGISNULL(1))
		return;
	line = logp95_line_arg(fcinfo, &len);
	/*
	 * The format's direct parser, when it has one for these options, and
	 * the route counted as it stands.  A line it does not count (malformed,
	 * or a route to build) takes the entry's parser below, which parses it
	 * again and finds the same.
	 */
	if (likely(call->direct != NULL))
	{
		lp_row		row;

		if (likely(call->direct(line, len, call->dflags, &row)))
		{
			int			rc = lp_state_add_pipelined(st, row.route, row.route_len, row.latency);

			if (unlikely(rc != LP_OK))
				logp95_check(rc);
			return;
		}
	}
	if (call->may_build)
		logp95_call_scratch(fcinfo, call, len);
	pst = fmt->parse(line, len, fmt, &call->ctx, &lf);
	if (likely(pst == LP_ST_OK))
	{
		/* an unescaped route not valid in the database encoding: as logged */
		if (unlikely(lf.has & LP_HAS_ROUTE_HIGH))
			logp95_route_logged(fmt, &call->ctx, line, len, &lf);
		logp95_check(lp_state_add_pipelined(st, lf.route, lf.route_len, lf.latency));
	}
	else if (pst != LP_ST_DIRECTIVE)	/* a W3C header line counts as a NULL line */
		logp95_malformed_line(st, fmt, &call->ctx, line, len);
}

#endif							/* LOGP95_COUNT_H */
