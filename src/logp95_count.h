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
								const char *line, size_t len, lp_status st, lp_result *r);

/*
 * A line of format `fmt` (parsed with ctx, NULL: no options) that did not
 * parse: counted in skip mode, else the 22P02 error that describes it
 * (the message of its status, lp_status_defs[]).
 */
extern void logp95_malformed_line(lp_state *st, const lp_format_def *fmt,
								  const lp_parse_ctx *ctx, const char *line, size_t len);

/*
 * logp95_malformed_line for a line given as bytea: the error quotes the
 * line and the bytes its message names with the bytes that are not text
 * in the database encoding written as \xHH (logp95_bytes_escape).
 */
extern void logp95_malformed_bytes(lp_state *st, const lp_format_def *fmt,
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
	lp_direct_fn direct;		/* the format's direct parser for these
								 * options (lp_format_direct), or NULL */
	unsigned	dflags;			/* the flags it is given */
	bool		may_build;		/* the entry's parser may build a route in
								 * ctx.buf (lp_format_may_build) */
	bool		short_path;		/* the format's usual line is read inline
								 * first (LP_FMT_SHORT_PATH) */
	char	   *esc;			/* a bytea line's route with its bytes that
								 * are not text escaped (logp95_route_text) */
	size_t		esc_cap;		/* bytes at esc */
	bool		status;			/* the options count statuses (LP_OPT_STATUS) */
	unsigned	sopts;			/* and record these (LP_SOPT_*) */
	char	   *mbuf;			/* "METHOD route" keys are built here */
	size_t		mcap;			/* bytes at mbuf */
} Logp95Call;

/*
 * Read line[0 .. len) of a call that counts statuses (call->status): true
 * with the route (built as "METHOD route" with the option method; valid
 * until the next line; NULL for a line that counts as a NULL line, a W3C
 * header), the latency (-1 for a line with a status but no latency) and
 * the status class, false for a malformed line in skip mode
 * (the caller counts one malformed line); in error mode a malformed line
 * raises its 22P02.
 */
extern bool logp95_call_status_line(Logp95Call *call, const char *line, size_t len,
									const char **route, size_t *route_len,
									int64 *value, int *cls);

/* logp95_count_format_line for a call that counts statuses: out of line. */
extern void logp95_count_status(lp_state *st, Logp95Call *call, const char *line, size_t len,
							   bool bytes);

/*
 * The call site's format (text argument fmt_argno, or -1 for (route,
 * latency) rows) and options (text argument opt_argno, or -1; NULL: none),
 * read into its Logp95Call in fn_extra when they changed.  The caller
 * checked that the format argument is not NULL.
 */
extern Logp95Call *logp95_call_get(FunctionCallInfo fcinfo, int fmt_argno, int opt_argno);

/* Grow the call's scratch buffer to hold a route built from len bytes. */
extern void logp95_call_scratch_grow(Logp95Call *call, size_t len);

/*
 * A call of logp95_agg(line, format, options) made outside an aggregate
 * (the rollups, logp95_rollup.c), in cxt: format and options (NULL: none)
 * read once, 22023 when either is unknown, as the aggregate raises it.
 */
extern Logp95Call *logp95_call_new(MemoryContext cxt, text *format, text *options);

/*
 * Read line[0 .. len) as logp95_agg(line, format, options) reads it when
 * the call's direct parser did not count it: 1 with the route and
 * latency it counts in *out (the route may lie in the call's scratch
 * buffer, until the next line), 0 for a malformed line in skip mode (the
 * caller counts one malformed line), -1 for a line that counts as a NULL
 * line (a W3C header); in error mode a malformed line raises its 22P02.
 */
extern int	logp95_call_line(Logp95Call *call, const char *line, size_t len, lp_result *out);

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

/*
 * The route r[0 .. n) of a line given as bytea, escaped into the call's
 * esc buffer (logp95_bytes_escape); only for a route that is not valid text.
 */
extern const char *logp95_route_escaped(Logp95Call *call, const char *r, size_t *n);

/*
 * The route of a line given as bytea as it is counted: itself when it is
 * text in the database encoding (the same route as the text form counts),
 * else with its other bytes written as \xHH (logp95_route_escaped).
 */
static inline const char *
logp95_route_text(Logp95Call *call, const char *r, size_t *n)
{
	size_t		i;

	/* an ASCII route without NUL (nearly every one) is text in every encoding */
	for (i = 0; i < *n; i++)
	{
		if (unlikely((unsigned char) r[i] - 1u >= 0x7fu))
			break;
	}
	if (likely(i == *n) || logp95_bytes_valid(r, *n))
		return r;
	return logp95_route_escaped(call, r, n);
}

/* Make the call's scratch buffer hold a route built from len bytes. */
static inline void
logp95_call_scratch(Logp95Call *call, size_t len)
{
	if (unlikely(LP_ROUTE_BUF_SIZE(len) > call->cap))
		logp95_call_scratch_grow(call, len);
}

/* ---------- what each form counts from one row (any state type) ---------- */

/*
 * Ask for the lines of the rows to come (logp95.prefetch_distance): the
 * row at t is `size` bytes with its header.
 */
static LP_ALWAYS_INLINE void
logp95_prefetch_rows(const struct varlena *t, size_t size)
{
	/*
	 * A sequential scan hands over the tuples of a heap page from the
	 * top of the page down: the next line is most likely in the bytes
	 * just below this one.  Ask for them now, so that the next row's
	 * cache misses overlap this row's parse (only a hint: a prefetch
	 * never faults, and a wrong guess costs nothing but bandwidth).
	 * Each row asks for about its own size, logp95.prefetch_distance
	 * bytes below itself: the rows that far ahead are then in the
	 * cache when their turn comes (docs/performance.md).  At -1 (the
	 * default) the distance is two rows of this row's size (its tuple
	 * header and line pointer about 32 bytes more), at least 512 bytes
	 * (1.1's fixed distance, which lines up to about 220 bytes keep):
	 * 512 bytes was less than one row of a 600-byte line, and those
	 * rows' misses were not overlapped.
	 */
	uintptr_t	p = (uintptr_t) t -
		(logp95_prefetch_distance > 0 ? (uintptr_t) logp95_prefetch_distance :
		 (uintptr_t) Max(512, 2 * (size + 32)));

	/* two lines: a line of up to 64 bytes (nearly every one) at any alignment */
	__builtin_prefetch((const void *) p);
	__builtin_prefetch((const void *) (p + 64));
	if (unlikely(size > 64))
	{
		uintptr_t	e = p + Min(size, 1024) + 64;

		for (p += 128; p < e; p += 64)
			__builtin_prefetch((const void *) p);
	}
}

/*
 * The bytes of the line in argument 1 (not NULL), without a call: an
 * inline (short or plain) text is used as it is, and only a compressed or
 * out-of-line value goes through detoasting.
 */
static LP_ALWAYS_INLINE const char *
logp95_line_arg(FunctionCallInfo fcinfo, size_t *len)
{
	struct varlena *t = (struct varlena *) PG_GETARG_POINTER(1);
	size_t		size;

	/* a short inline text (every line under 127 bytes): its one header byte read once */
	if (likely(VARATT_IS_1B(t) && !VARATT_IS_1B_E(t)))
	{
		size = VARSIZE_1B(t);
		*len = size - VARHDRSZ_SHORT;
		if (logp95_prefetch_distance != 0)
			logp95_prefetch_rows(t, size);
		return VARDATA_1B(t);
	}
	if (unlikely(VARATT_IS_EXTERNAL(t) || VARATT_IS_COMPRESSED(t)))
		t = pg_detoast_datum_packed(t);
	else if (logp95_prefetch_distance != 0)
		logp95_prefetch_rows(t, VARSIZE_ANY(t));
	*len = VARSIZE_ANY_EXHDR(t);
	return VARDATA_ANY(t);
}

/*
 * logp95_count_line's out-of-line part: a default-format line that
 * lp_parse_line_short did not take, parsed by lp_parse_line, which also
 * says what is wrong with a line (its result struct stays off the per-row
 * path's stack).
 */
static pg_noinline void
logp95_count_line_rest(lp_state *st, const char *line, size_t len)
{
	lp_line		pl;

	if (lp_parse_line(line, len, &pl) == LP_ST_OK)
		logp95_check(lp_state_add_pipelined(st, pl.route, pl.route_len, pl.latency));
	else
		logp95_malformed_line(st, LP_FORMAT_DEFAULT, NULL, line, len);
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
	const char *route;
	size_t		route_len;
	int64_t		latency;
	int			rc;

	if (PG_ARGISNULL(1))
		return;
	line = logp95_line_arg(fcinfo, &len);
	/* the default format's usual line parsed inline; the rest out of line */
	if (likely(lp_parse_line_short(line, len, &route, &route_len, &latency)))
	{
		rc = lp_state_add_pipelined(st, route, route_len, latency);
		if (unlikely(rc != LP_OK))
			logp95_check(rc);
	}
	else
		logp95_count_line_rest(st, line, len);
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

		logp95_call_scratch(call, n);
		m = lp_route_template(r, n, 0, 1, call->ctx.buf);
		if (m > 0)
		{
			r = call->ctx.buf;
			n = m;
		}
	}
	if (unlikely(call && call->status))
	{
		/* a row without a status: its class is unknown */
		logp95_check(lp_state_use_options(st, call->sopts));
		logp95_check(lp_state_add_status(st, r, n, latency, LP_CLASS_UNKNOWN));
		return;
	}
	logp95_check(lp_state_add_pipelined(st, r, n, latency));
}

/*
 * logp95_count_format_line's out-of-line part: count line[0 .. len) of
 * call's format and options.  A bytea line (`bytes`) is parsed the same,
 * its route counted as logp95_route_text gives it and its errors quoted
 * as logp95_malformed_bytes does.
 */
static pg_noinline void
logp95_count_format_rest(lp_state *st, Logp95Call *call, const char *line, size_t len, bool bytes)
{
	const lp_format_def *fmt = call->fmt.format;
	lp_result	lf;
	lp_status	pst;

	if (unlikely(call->status))
	{
		/*
		 * counting statuses: the usual line, keyed by its route, inline;
		 * the rest (a method to put in the key, a line the direct parser
		 * does not count) out of line
		 */
		lp_row		row;

		if (likely(call->direct != NULL) && !(call->sopts & LP_SOPT_METHOD) &&
			call->direct(line, len, call->dflags, &row))
		{
			int			rc = lp_state_use_options(st, call->sopts);

			if (bytes)
				row.route = logp95_route_text(call, row.route, &row.route_len);
			if (likely(rc == LP_OK))
				rc = lp_state_add_status(st, row.route, row.route_len, row.latency,
										 lp_status_class(row.status));
			if (unlikely(rc != LP_OK))
				logp95_check(rc);
			return;
		}
		logp95_count_status(st, call, line, len, bytes);
		return;
	}
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
			int			rc;

			if (bytes)
				row.route = logp95_route_text(call, row.route, &row.route_len);
			rc = lp_state_add_pipelined(st, row.route, row.route_len, row.latency);

			if (unlikely(rc != LP_OK))
				logp95_check(rc);
			return;
		}
	}
	if (call->may_build)
		logp95_call_scratch(call, len);
	pst = fmt->parse(line, len, fmt, &call->ctx, &lf);
	if (likely(pst == LP_ST_OK))
	{
		/* an unescaped route not valid in the database encoding: as logged */
		if (unlikely(lf.has & LP_HAS_ROUTE_HIGH))
			logp95_route_logged(fmt, &call->ctx, line, len, pst, &lf);
		if (bytes)
			lf.route = logp95_route_text(call, lf.route, &lf.route_len);
		logp95_check(lp_state_add_pipelined(st, lf.route, lf.route_len, lf.latency));
	}
	else if (pst == LP_ST_DIRECTIVE)	/* a W3C header line counts as a NULL line */
		return;
	else if (bytes)
		logp95_malformed_bytes(st, fmt, &call->ctx, line, len);
	else
		logp95_malformed_line(st, fmt, &call->ctx, line, len);
}

/*
 * logp95_agg(line, format [, options]): parse one line (argument 1) of the
 * named format (argument 2) with the call's options (argument opt_argno,
 * -1 for none), both cached in the call site (logp95_call_get), and count
 * it.  With `bytes` (a constant), the line is a bytea (logp95_agg(bytea,
 * ...)).  Only the usual line of a format whose entry says so
 * (LP_FMT_SHORT_PATH: the default format), which lp_parse_line_short reads
 * in a few dozen instructions, is counted inline; everything else
 * goes to logp95_count_format_rest, out of line, so that its locals and
 * calls do not weigh on the transition's per-row path.
 */
static LP_ALWAYS_INLINE void
logp95_count_format_line(lp_state *st, FunctionCallInfo fcinfo, int opt_argno, bool bytes)
{
	Logp95Call *call;
	const char *line;
	size_t		len;
	const char *route;
	size_t		route_len;
	int64_t		latency;

	if (PG_ARGISNULL(2))
		return;
	call = logp95_call_of(fcinfo, 2, opt_argno);
	if (PG_ARGISNULL(1))
		return;
	line = logp95_line_arg(fcinfo, &len);
	if (!bytes && call->short_path &&
		lp_parse_line_short(line, len, &route, &route_len, &latency))
	{
		int			rc = lp_state_add_pipelined(st, route, route_len, latency);

		if (unlikely(rc != LP_OK))
			logp95_check(rc);
		return;
	}
	logp95_count_format_rest(st, call, line, len, bytes);
}

#endif							/* LOGP95_COUNT_H */
