/* src/logp95_agg.c -- PostgreSQL glue: the logp95_agg aggregates (transitions; 1.0's combine, (de)serialize, final) */
#include "postgres.h"

#include "nodes/primnodes.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "logp95.h"
#include "logp95_agg.h"
#include "logp95_expanded.h"
#include "lp_codec.h"
#include "lp_formats.h"
#include "lp_parse.h"
#include "lp_partial.h"
#include "lp_state.h"

/* Bytes of an empty state: version 1, no malformed lines, no routes. */
static const uint8 empty_state[3] = {LP_CODEC_VERSION, 0, 0};

/* 1.0 (STYPE internal): the aggregate's state, created on first use in the aggregate context. */
static lp_state *
logp95_state_get(FunctionCallInfo fcinfo, const char *fname)
{
	MemoryContext aggcxt;
	lp_state   *st;
	lp_allocator a;

	if (!PG_ARGISNULL(0))
		return (lp_state *) PG_GETARG_POINTER(0);
	if (!AggCheckCallContext(fcinfo, &aggcxt))
		elog(ERROR, "%s called in non-aggregate context", fname);
	a = logp95_allocator(aggcxt);
	st = lp_state_create(&a);
	if (!st)
		logp95_check(LP_ENOMEM);
	return st;
}

/* ---------- the malformed policy, one for every transition ---------- */

/*
 * The malformed policy of every transition: the call's option (LP_OPT_SKIP
 * or LP_OPT_ERROR in opts, from logp95_agg(..., options)) when it gives
 * one, else logp95.on_malformed.  True in skip mode (the row is counted as
 * malformed), false in error mode (the caller raises the error that
 * describes the row).
 */
static bool
logp95_malformed_skips(unsigned opts)
{
	return (opts & LP_OPT_SKIP) ? true :
		(opts & LP_OPT_ERROR) ? false :
		logp95_on_malformed == LOGP95_MALFORMED_SKIP;
}

/*
 * The malformed policy applied to a state: in skip mode count one
 * malformed row into st and return true; in error mode return false.
 */
static bool
logp95_skip_malformed(lp_state *st, unsigned opts)
{
	if (!logp95_malformed_skips(opts))
		return false;
	logp95_check(lp_state_add_malformed(st, 1));
	return true;
}

/*
 * The message of each failing parse status, a whole sentence each: those
 * with %s quote the field the parser names (lp_fields.bad), the others
 * take the fields wanted and found (lp_fields.nwant, lp_fields.nfields).
 */
static const char *const logp95_line_messages[] = {
	[LP_LINE_TOO_FEW_FIELDS] = gettext_noop("malformed log line: expected %d fields, found %d"),
	[LP_LINE_BAD_LATENCY] = gettext_noop("malformed log line: latency \"%s\" is not a non-negative integer"),
	[LP_LINE_LATENCY_RANGE] = gettext_noop("malformed log line: latency \"%s\" is out of range for type bigint"),
	[LP_LINE_NO_TIME] = gettext_noop("malformed log line: no [time] field after the client address"),
	[LP_LINE_NO_REQUEST] = gettext_noop("malformed log line: no quoted request after the time"),
	[LP_LINE_BAD_REQUEST] = gettext_noop("malformed log line: request \"%s\" has no path"),
	[LP_LINE_UNTERMINATED] = gettext_noop("malformed log line: a quoted field has no closing quote"),
	[LP_LINE_TOO_FEW_TAIL_FIELDS] = gettext_noop("malformed log line: expected %d fields after the request, found %d"),
	[LP_LINE_BAD_SECONDS] = gettext_noop("malformed log line: request time \"%s\" is not a non-negative number of seconds"),
	[LP_LINE_BAD_MICROS] = gettext_noop("malformed log line: request time \"%s\" is not a non-negative integer of microseconds"),
	[LP_LINE_REQTIME_RANGE] = gettext_noop("malformed log line: request time \"%s\" is out of range for type bigint in milliseconds"),
	[LP_LINE_NOT_HTTP] = gettext_noop("malformed log line: request \"%s\" is not an HTTP request")
};

/*
 * errhint of a malformed line: a line that failed in the default format but
 * looks like another format's (lp_format_guess) is told to pass it; any
 * other is told how to count malformed lines instead.
 */
static int
logp95_line_hint(const lp_format_def *fmt, const char *line, size_t len)
{
	const lp_format_def *guess = fmt == LP_FORMAT_DEFAULT ? lp_format_guess(line, len) : NULL;

	if (guess)
		return errhint("The line looks like a \"%s\" line: pass the format, as in logp95_agg(line, '%s').",
					   guess->name, guess->name);
	return errhint("Set logp95.on_malformed to \"skip\" to count malformed lines instead.");
}

/*
 * Raise the 22P02 error of a malformed line of format `fmt`: parse it again
 * for the fields the message names (only lines that failed come here).
 */
pg_noreturn static void
logp95_line_error(const lp_format_def *fmt, const lp_parse_ctx *ctx,
				  const char *line, size_t len)
{
	lp_fields	lf;
	lp_line_status ls = fmt->parse(line, len, fmt, ctx, &lf);
	const char *msg;

	if (ls <= LP_LINE_OK || ls >= lengthof(logp95_line_messages))
		elog(ERROR, "log line error reported for parse status %d", (int) ls);
	msg = logp95_line_messages[ls];
	if (lf.bad)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg(msg, logp95_quote(lf.bad, lf.bad_len)),
				 logp95_errdetail_line(line, len),
				 logp95_line_hint(fmt, line, len)));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg(msg, lf.nwant, lf.nfields),
			 logp95_errdetail_line(line, len),
			 logp95_line_hint(fmt, line, len)));
}

/*
 * A line of format `fmt` (parsed with ctx, NULL: no options) that did not
 * parse: counted in skip mode, else the error that describes it.
 */
static void
logp95_malformed_line(lp_state *st, const lp_format_def *fmt, const lp_parse_ctx *ctx,
					  const char *line, size_t len)
{
	if (!logp95_skip_malformed(st, ctx ? ctx->flags : 0))
		logp95_line_error(fmt, ctx, line, len);
}

/* ---------- per-call format and options ---------- */

/* Logp95Call, the call site's format and options: logp95_agg.h. */

/*
 * Is argument argno of the transition (-1: none, which is constant) a
 * constant of the aggregate call, logp95_agg(line, 'combined'), the same on
 * every row?  Its Aggref says so (argument argno is the aggregate's
 * argument argno - 1); outside nodeAgg (a window aggregate) there is none.
 */
static bool
logp95_arg_const(FunctionCallInfo fcinfo, int argno)
{
	Aggref	   *agg;
	TargetEntry *te;

	if (argno < 0)
		return true;
	agg = AggGetAggref(fcinfo);
	if (agg == NULL || list_length(agg->args) < argno)
		return false;
	te = (TargetEntry *) list_nth(agg->args, argno - 1);
	return IsA(te, TargetEntry) && te->expr && IsA(te->expr, Const);
}

/* A copy of s[0 .. len) in the call's context, replacing old. */
static char *
logp95_call_copy(Logp95Call *call, char *old, const char *s, int len)
{
	char	   *c = MemoryContextAlloc(call->cxt, len > 0 ? len : 1);

	memcpy(c, s, len);
	if (old)
		pfree(old);
	return c;
}

/*
 * Read an options argument into flags: ERROR 22023 for an unknown word, a
 * conflict, or a lines-only option given for (route, latency) rows.
 */
static unsigned
logp95_options_named(const char *s, int len, bool lines)
{
	unsigned	flags;
	const char *w;
	size_t		wlen;
	const lp_option_def *o;

	switch (lp_parse_options(s, (size_t) len, &flags, &w, &wlen))
	{
		case LP_OPTS_OK:
			break;
		case LP_OPTS_UNKNOWN:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("unknown logp95_agg option \"%s\"", logp95_quote(w, wlen)),
					 errhint("Options are a comma-separated list of: %s.", lp_option_names())));
			break;
		case LP_OPTS_CONFLICT:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("logp95_agg option \"%s\" conflicts with an earlier option",
							logp95_quote(w, wlen)),
					 errhint("Give one of \"skip\" and \"error\".")));
			break;
	}
	for (o = lp_options; !lines && o->name; o++)
	{
		if (o->lines_only && (flags & o->flag))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("logp95_agg option \"%s\" applies only to log lines", o->name),
					 errhint("logp95_agg(route, latency_ms, options) takes: skip, error, templates.")));
	}
	return flags;
}

/*
 * Read format text ft (NULL: (route, latency) rows) and options text ot
 * (NULL: none) into call, again only when they differ from what it holds.
 */
static void
logp95_call_set(Logp95Call *call, text *ft, text *ot)
{
	if (ft)
		logp95_format_cached(&call->fmt, ft);
	if (ot == NULL)
	{
		if (call->options)
			pfree(call->options);
		call->options = NULL;
		call->ctx.flags = 0;
	}
	else if (unlikely(call->options == NULL ||
					  call->options_len != (int) VARSIZE_ANY_EXHDR(ot) ||
					  memcmp(call->options, VARDATA_ANY(ot), call->options_len) != 0))
	{
		call->ctx.flags = logp95_options_named(VARDATA_ANY(ot), (int) VARSIZE_ANY_EXHDR(ot),
											   ft != NULL);
		call->options_len = (int) VARSIZE_ANY_EXHDR(ot);
		call->options = logp95_call_copy(call, call->options, VARDATA_ANY(ot),
										 call->options_len);
	}
	call->direct = call->fmt.format && lp_format_is_combined(call->fmt.format) &&
		!(call->ctx.flags & LP_OPT_TEMPLATES);
	call->cflags = call->fmt.format ?
		call->fmt.format->flags | (call->ctx.flags & LP_FMT_KEEP_QUERY) : 0;
	call->cparse = lp_combined_parser(LP_ISA_BEST);
}

/*
 * The call site's format (text argument fmt_argno, or -1 for (route,
 * latency) rows) and options (text argument opt_argno, or -1; NULL: none).
 * The caller checked that the format argument is not NULL.
 */
static Logp95Call *
logp95_call_get(FunctionCallInfo fcinfo, int fmt_argno, int opt_argno)
{
	Logp95Call *call = (Logp95Call *) fcinfo->flinfo->fn_extra;

	if (call == NULL)
	{
		call = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(Logp95Call));
		call->cxt = fcinfo->flinfo->fn_mcxt;
		fcinfo->flinfo->fn_extra = call;
		call->args_const = logp95_arg_const(fcinfo, fmt_argno) &&
			logp95_arg_const(fcinfo, opt_argno);
	}
	logp95_call_set(call,
					fmt_argno >= 0 ? PG_GETARG_TEXT_PP(fmt_argno) : NULL,
					opt_argno >= 0 && !PG_ARGISNULL(opt_argno) ? PG_GETARG_TEXT_PP(opt_argno) : NULL);
	return call;
}

/* See logp95_agg.h. */
Logp95Call *
logp95_call_new(MemoryContext cxt, text *format, text *options)
{
	Logp95Call *call = MemoryContextAllocZero(cxt, sizeof(Logp95Call));

	call->cxt = cxt;
	call->args_const = true;
	logp95_call_set(call, format, options);
	return call;
}

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
logp95_call_scratch(Logp95Call *call, size_t len)
{
	size_t		need = LP_ROUTE_BUF_SIZE(len);

	if (likely(need <= call->cap))
		return;
	need = Max(need, Max(2 * call->cap, 256));
	if (call->ctx.buf)
		pfree(call->ctx.buf);
	call->ctx.buf = MemoryContextAllocHuge(call->cxt, need);
	call->cap = need;
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
	if (likely(lp_parse_line(line, len, &pl) == LP_PARSE_OK))
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
	if (call && (call->ctx.flags & LP_OPT_TEMPLATES))
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
	logp95_check(lp_state_add_pipelined(st, r, n, latency));
}

/* logp95_call_line, inline for the transitions. */
static LP_ALWAYS_INLINE bool
logp95_call_line_in(Logp95Call *call, const char *line, size_t len, lp_fields *out)
{
	const lp_format_def *fmt = call->fmt.format;

	/* a route may be built: templates, or a query string kept */
	if ((call->ctx.flags | fmt->flags) & (LP_OPT_TEMPLATES | LP_FMT_KEEP_QUERY))
		logp95_call_scratch(call, len);
	if (likely(fmt->parse(line, len, fmt, &call->ctx, out) == LP_LINE_OK))
		return true;
	if (!logp95_malformed_skips(call->ctx.flags))
		logp95_line_error(fmt, &call->ctx, line, len);
	return false;
}

/* See logp95_agg.h. */
bool
logp95_call_line(Logp95Call *call, const char *line, size_t len, lp_fields *out)
{
	return logp95_call_line_in(call, line, len, out);
}

/*
 * Count one line, line[0 .. len), of the call's format with its options:
 * what logp95_agg(line, format [, options]) counts from a row.
 */
static LP_ALWAYS_INLINE void
logp95_count_call_line(lp_state *st, Logp95Call *call, const char *line, size_t len)
{
	lp_fields	lf;
	lp_cline	cl;

	/*
	 * A combined format without templates: its parser, called directly, and
	 * the route counted as it stands.  A line that fails, or whose route has
	 * to be built (route_slash), takes the general path, which parses it
	 * again and finds the same.
	 */
	if (likely(logp95_call_direct(call, line, len, &cl)))
	{
		int			rc = lp_state_add_pipelined(st, cl.route, cl.route_len, cl.latency);

		if (unlikely(rc != LP_OK))
			logp95_check(rc);
		return;
	}
	if (logp95_call_line_in(call, line, len, &lf))
		logp95_check(lp_state_add_pipelined(st, lf.route, lf.route_len, lf.latency));
	else
		logp95_check(lp_state_add_malformed(st, 1));
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
	const char *line;
	size_t		len;

	if (PG_ARGISNULL(2))
		return;
	call = logp95_call_of(fcinfo, 2, opt_argno);
	if (PG_ARGISNULL(1))
		return;
	line = logp95_line_arg(fcinfo, &len);
	logp95_count_call_line(st, call, line, len);
}

/* ---------- the running state of the transitions (STYPE logp95_state) ---------- */

/*
 * The first row of a group (argument 0 is the flat INITCOND), or a call
 * outside an aggregate: a new expanded state holding what argument 0 holds,
 * in the aggregate context (or the current context, leaving argument 0 as
 * it was).
 */
static pg_noinline Logp95Expanded *
logp95_running_state_new(FunctionCallInfo fcinfo)
{
	MemoryContext aggcxt;
	bool		inagg = AggCheckCallContext(fcinfo, &aggcxt) != 0;
	Logp95Expanded *ex;

	ex = logp95_expanded_new(inagg ? aggcxt : CurrentMemoryContext, inagg);
	if (!PG_ARGISNULL(0))
		logp95_expanded_add(ex, PG_GETARG_DATUM(0));
	return ex;
}

/*
 * The running state of every logp95_agg transition: argument 0, a
 * logp95_state.  From the second row of a group on it is the aggregate's
 * own expanded state, found by a pointer test and updated in place (see
 * logp95_expanded_running); otherwise a new one.  Return it with
 * LOGP95_RETURN_RUNNING.
 */
static LP_ALWAYS_INLINE Logp95Expanded *
logp95_running_state(FunctionCallInfo fcinfo)
{
	Logp95Expanded *ex;

	if (likely(!PG_ARGISNULL(0)) &&
		likely((ex = logp95_expanded_running(PG_GETARG_DATUM(0))) != NULL))
		return ex;
	return logp95_running_state_new(fcinfo);
}

/* Return the running state: the read/write pointer nodeAgg keeps as it is. */
#define LOGP95_RETURN_RUNNING(ex) PG_RETURN_DATUM(EOHPGetRWDatum(&(ex)->hdr))

/* ---------- transitions of the aggregates (1.1) ---------- */

/*
 * Every transition is the same three lines: the running state `ex`, what
 * its form counts from the row (`count`, an expression over ex->st and
 * fcinfo), the state back; LOGP95_RUNNING_TRANS writes them once.  The
 * aggregates have no final function: the result is the running state,
 * flattened by the executor (logp95_expanded.c counts the pending
 * pipelined row first); the combine function is logp95_merge_combine.
 */
#define LOGP95_RUNNING_TRANS(name, count) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	Logp95Expanded *ex = logp95_running_state(fcinfo); \
\
	count; \
	LOGP95_RETURN_RUNNING(ex); \
}

/* logp95_line_trans(logp95_state, line text): transition of logp95_agg(text). */
LOGP95_RUNNING_TRANS(logp95_line_trans, logp95_count_line(ex->st, fcinfo))

/* logp95_pair_trans(logp95_state, route text, latency_ms bigint): transition of logp95_agg(text, bigint). */
LOGP95_RUNNING_TRANS(logp95_pair_trans, logp95_count_pair(ex->st, fcinfo, -1))

/* logp95_format_trans(logp95_state, line text, format text): transition of logp95_agg(text, text). */
LOGP95_RUNNING_TRANS(logp95_format_trans, logp95_count_format_line(ex->st, fcinfo, -1))

/*
 * logp95_format_opts_trans(logp95_state, line text, format text, options
 * text): transition of logp95_agg(text, text, text), logp95_agg(line,
 * format) with per-call options (skip | error, templates, query; see
 * lp_options[]).
 */
LOGP95_RUNNING_TRANS(logp95_format_opts_trans, logp95_count_format_line(ex->st, fcinfo, 3))

/*
 * logp95_pair_opts_trans(logp95_state, route text, latency_ms bigint,
 * options text): transition of logp95_agg(text, bigint, text), one
 * structured row with per-call options (skip | error, templates).
 */
LOGP95_RUNNING_TRANS(logp95_pair_opts_trans, logp95_count_pair(ex->st, fcinfo, 3))

/* ---------- 1.0: the transitions with STYPE internal ---------- */

/*
 * A database still at 1.0 (before ALTER EXTENSION logp95 UPDATE) calls
 * these, with logp95_combine, logp95_serialize, logp95_deserialize and
 * logp95_final below; the same library serves it.  They count exactly what
 * the 1.1 transitions count.
 */

PG_FUNCTION_INFO_V1(logp95_agg_line_trans);
/* logp95_agg_line_trans(internal, text): 1.0 transition of logp95_agg(text). */
Datum
logp95_agg_line_trans(PG_FUNCTION_ARGS)
{
	lp_state   *st;

	st = likely(!PG_ARGISNULL(0)) ? (lp_state *) PG_GETARG_POINTER(0) :
		logp95_state_get(fcinfo, "logp95_agg_line_trans");
	logp95_count_line(st, fcinfo);
	PG_RETURN_POINTER(st);
}

/*
 * 1.0's other transitions, written once: the state (created on the first
 * row), what the form counts (`count`, over st and fcinfo), the state back.
 */
#define LOGP95_INTERNAL_TRANS(name, count) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	lp_state   *st = logp95_state_get(fcinfo, #name); \
\
	count; \
	PG_RETURN_POINTER(st); \
}

/* logp95_agg_pair_trans(internal, text, bigint): 1.0 transition of logp95_agg(text, bigint). */
LOGP95_INTERNAL_TRANS(logp95_agg_pair_trans, logp95_count_pair(st, fcinfo, -1))

/* logp95_agg_format_trans(internal, text, text): 1.0 transition of logp95_agg(text, text). */
LOGP95_INTERNAL_TRANS(logp95_agg_format_trans, logp95_count_format_line(st, fcinfo, -1))

/* ---------- 1.0: combine, serialize, deserialize, final of STYPE internal ---------- */

PG_FUNCTION_INFO_V1(logp95_combine);
/* Combine two partial states (parallel query, partial aggregation). */
Datum
logp95_combine(PG_FUNCTION_ARGS)
{
	lp_state   *st;

	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_POINTER(PG_GETARG_POINTER(0));
	}
	/*
	 * state 2 may live in a short-lived context: always copy into state 1;
	 * a deserialized state 2 is decoded straight into state 1
	 */
	st = logp95_state_get(fcinfo, "logp95_combine");
	logp95_check(lp_state_flush(st));
	logp95_check(lp_state_flush((lp_state *) PG_GETARG_POINTER(1)));
	logp95_check(lp_state_merge_any(st, (lp_state *) PG_GETARG_POINTER(1)));
	PG_RETURN_POINTER(st);
}

/*
 * Make a running state readable: count the row the pipelined transition
 * left pending and decode a deserialized encoding (NULL: nothing to do).
 */
static void
logp95_state_ready(lp_state *st)
{
	if (!st)
		return;
	logp95_check(lp_state_flush(st));
	logp95_check(lp_state_materialize(st));
}

/* Encode a state (NULL: the empty state) as a varlena in the current context. */
static bytea *
logp95_encode_datum(const lp_state *st)
{
	lp_allocator a = logp95_allocator(CurrentMemoryContext);
	uint8	   *buf;
	size_t		len;

	if (!st)
		return logp95_make_datum(empty_state, sizeof(empty_state));
	logp95_check(lp_encode(st, &a, VARHDRSZ, MaxAllocSize, &buf, &len));
	SET_VARSIZE(buf, VARHDRSZ + len);
	return (bytea *) buf;
}

PG_FUNCTION_INFO_V1(logp95_serialize);
/* Partial state -> bytea, in the same encoding as logp95_state. */
Datum
logp95_serialize(PG_FUNCTION_ARGS)
{
	lp_state   *st = (lp_state *) PG_GETARG_POINTER(0);

	if (!AggCheckCallContext(fcinfo, NULL))
		elog(ERROR, "logp95_serialize called in non-aggregate context");
	logp95_state_ready(st);
	PG_RETURN_BYTEA_P(logp95_encode_datum(st));
}

PG_FUNCTION_INFO_V1(logp95_deserialize);
/* bytea -> partial state, checked like any other input. */
Datum
logp95_deserialize(PG_FUNCTION_ARGS)
{
	lp_allocator a = logp95_allocator(CurrentMemoryContext);
	bytea	   *in = PG_GETARG_BYTEA_PP(0);
	lp_state   *st;
	uint8	   *copy;

	if (!AggCheckCallContext(fcinfo, NULL))
		elog(ERROR, "logp95_deserialize called in non-aggregate context");
	st = lp_state_create(&a);
	if (!st)
		logp95_check(LP_ENOMEM);

	/*
	 * Checked now, decoded later: the combine function decodes it straight
	 * into the running state.  The bytes are copied next to the state, which
	 * may outlive the input tuple.
	 */
	copy = palloc(VARSIZE_ANY_EXHDR(in) ? VARSIZE_ANY_EXHDR(in) : 1);
	memcpy(copy, VARDATA_ANY(in), VARSIZE_ANY_EXHDR(in));
	logp95_check(lp_state_defer(st, copy, VARSIZE_ANY_EXHDR(in)));
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(logp95_final);
/* Final function: the running state as a logp95_state, left intact. */
Datum
logp95_final(PG_FUNCTION_ARGS)
{
	lp_state   *st = PG_ARGISNULL(0) ? NULL : (lp_state *) PG_GETARG_POINTER(0);

	logp95_state_ready(st);
	PG_RETURN_BYTEA_P(logp95_encode_datum(st));
}
