/* src/logp95_count.c -- PostgreSQL glue: the call site's format and options, the one malformed policy */
#include "postgres.h"

#include "mb/pg_wchar.h"
#include "nodes/primnodes.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "logp95_count.h"

/* ---------- the malformed policy, one for every transition ---------- */

/*
 * The malformed policy for options opts: true in skip mode (the call's
 * LP_OPT_SKIP or LP_OPT_ERROR, else logp95.on_malformed).
 */
static bool
logp95_skip_malformed_policy(unsigned opts)
{
	return (opts & LP_OPT_SKIP) ? true :
		(opts & LP_OPT_ERROR) ? false :
		logp95_on_malformed == LOGP95_MALFORMED_SKIP;
}

/* See logp95_count.h. */
bool
logp95_skip_malformed(lp_state *st, unsigned opts)
{
	if (!logp95_skip_malformed_policy(opts))
		return false;
	logp95_check(lp_state_add_malformed(st, 1));
	return true;
}

/*
 * errhint of a malformed line: a line that failed in the default format but
 * looks like another format's (lp_format_guess) is told to pass it; any
 * other is told how to count malformed lines instead.
 */
static int
logp95_line_hint(const lp_format_def *fmt, const char *line, size_t len)
{
	const lp_format_def *guess = fmt == LP_FORMAT_DEFAULT ?
		lp_format_guess(line, len, palloc(LP_ROUTE_BUF_SIZE(len))) : NULL;

	if (guess)
		return errhint("The line looks like a \"%s\" line: pass the format, as in logp95_agg(line, '%s').",
					   guess->name, guess->name);
	return errhint("Set logp95.on_malformed to \"skip\" to count malformed lines instead.");
}

/*
 * Raise the 22P02 error of a malformed line of format `fmt`: parse it again
 * for the fields the message names (only lines that failed come here).
 * With `bytes` (a line given as bytea), the line and the bytes the message
 * quotes are escaped where they are not text (logp95_bytes_text).
 */
pg_noreturn static void
logp95_line_error(const lp_format_def *fmt, const lp_parse_ctx *ctx,
				  const char *line, size_t len, bool bytes)
{
	lp_result	lf;
	lp_status	st = fmt->parse(line, len, fmt, ctx, &lf);
	const char *shown = line;
	size_t		shown_len = len;

	if (st <= LP_ST_OK || st >= LP_ST_COUNT)
		elog(ERROR, "log line error reported for parse status %d", (int) st);
	if (bytes)
	{
		if (lf.bad)
			lf.bad = logp95_bytes_text(lf.bad, lf.bad_len, &lf.bad_len);
		shown = logp95_bytes_text(line, len, &shown_len);
	}
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("%s", logp95_problem(st, &lf)),
			 logp95_errdetail_line(shown, shown_len),
			 logp95_line_hint(fmt, line, len)));
}

/* See logp95_count.h. */
char *
logp95_problem(lp_status st, const lp_result *r)
{
	const lp_status_def *def;

	if (st <= LP_ST_OK || st >= LP_ST_COUNT)
		return NULL;
	def = &lp_status_defs[st];
	if (def->arg == LP_SARG_BAD)
		return psprintf(def->message, r->bad ? logp95_quote(r->bad, r->bad_len) : "");
	return psprintf(def->message, r->nwant, r->nfields);
}

/* See logp95_count.h. */
bool
logp95_route_logged(const lp_format_def *fmt, const lp_parse_ctx *ctx, const char *line,
					size_t len, lp_status st, lp_result *r)
{
	lp_parse_ctx logged;

	if (pg_verifymbstr(r->route, (int) r->route_len, true))
		return false;
	logged = *ctx;
	logged.flags |= LP_PARSE_LOGGED;
	if (fmt->parse(line, len, fmt, &logged, r) != st)
		elog(ERROR, "log line parsed again as logged did not parse");
	return true;
}

/* See logp95_count.h. */
void
logp95_malformed_line(lp_state *st, const lp_format_def *fmt, const lp_parse_ctx *ctx,
					  const char *line, size_t len)
{
	if (!logp95_skip_malformed(st, ctx ? ctx->flags : 0))
		logp95_line_error(fmt, ctx, line, len, false);
}

/* See logp95_count.h. */
void
logp95_malformed_bytes(lp_state *st, const lp_format_def *fmt, const lp_parse_ctx *ctx,
					   const char *line, size_t len)
{
	if (!logp95_skip_malformed(st, ctx ? ctx->flags : 0))
		logp95_line_error(fmt, ctx, line, len, true);
}

/* ---------- per-call format and options ---------- */

static void logp95_call_set(Logp95Call *call, text *ft, text *ot);

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
					 errhint("logp95_agg(route, latency_ms, options) takes: skip, error, templates, status, method, ok_latency.")));
	}
	return flags;
}

/* See logp95_count.h. */
Logp95Call *
logp95_call_get(FunctionCallInfo fcinfo, int fmt_argno, int opt_argno)
{
	Logp95Call *call = (Logp95Call *) fcinfo->flinfo->fn_extra;
	text	   *ft = fmt_argno >= 0 ? PG_GETARG_TEXT_PP(fmt_argno) : NULL;
	text	   *ot = opt_argno >= 0 && !PG_ARGISNULL(opt_argno) ? PG_GETARG_TEXT_PP(opt_argno) : NULL;

	if (call == NULL)
	{
		call = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(Logp95Call));
		call->cxt = fcinfo->flinfo->fn_mcxt;
		fcinfo->flinfo->fn_extra = call;
		call->args_const = logp95_arg_const(fcinfo, fmt_argno) &&
			logp95_arg_const(fcinfo, opt_argno);
	}
	logp95_call_set(call, ft, ot);
	return call;
}

/*
 * Read format text ft (NULL: (route, latency) rows) and options text ot
 * (NULL: none) into call, again only when they differ from what it holds.
 */
static void
logp95_call_set(Logp95Call *call, text *ft, text *ot)
{
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
	/* the format, for what the call needs of it: a route and a latency, the host */
	if (ft)
		logp95_format_cached(&call->fmt, ft,
							 LP_HAS_ROUTE | LP_HAS_LATENCY |
							 ((call->ctx.flags & LP_PARSE_HOST) ? LP_HAS_HOST : 0),
							 call->cxt);
	call->status = (call->ctx.flags & LP_OPT_STATUS) != 0;
	call->sopts = ((call->ctx.flags & LP_OPT_METHOD) ? LP_SOPT_METHOD : 0) |
		((call->ctx.flags & LP_OPT_OK_LATENCY) ? LP_SOPT_OK_LATENCY : 0);
	if (call->status)
		call->ctx.flags |= LP_PARSE_FIELDS;	/* the status and the method */
	/*
	 * counting statuses takes a direct parser that returns them too, when
	 * the format has one, else the entry's parser
	 */
	call->direct = !call->fmt.format ? NULL : call->status ?
		lp_format_direct_fields(call->fmt.format, call->ctx.flags, &call->dflags) :
		lp_format_direct(call->fmt.format, call->ctx.flags, &call->dflags);
	if (call->direct && (call->sopts & LP_SOPT_METHOD))
		call->dflags |= LP_PARSE_FIELDS;	/* the method too */
	call->short_path = call->direct && !call->status &&
		(call->fmt.format->flags & LP_FMT_SHORT_PATH);
	call->may_build = call->fmt.format &&
		lp_format_may_build(call->fmt.format, call->ctx.flags);
}

/* See logp95_count.h. */
void
logp95_call_scratch_grow(Logp95Call *call, size_t len)
{
	size_t		need = LP_ROUTE_BUF_SIZE(len);

	need = Max(need, Max(2 * call->cap, 256));
	if (call->ctx.buf)
		pfree(call->ctx.buf);
	call->ctx.buf = MemoryContextAllocHuge(call->cxt, need);
	call->cap = need;
}

/* See logp95_count.h. */
Logp95Call *
logp95_call_new(MemoryContext cxt, text *format, text *options)
{
	Logp95Call *call = MemoryContextAllocZero(cxt, sizeof(Logp95Call));

	call->cxt = cxt;
	call->args_const = true;
	logp95_call_set(call, format, options);
	return call;
}

/* See logp95_count.h. */
int
logp95_call_line(Logp95Call *call, const char *line, size_t len, lp_result *out)
{
	const lp_format_def *fmt = call->fmt.format;
	lp_status	st;

	if (call->may_build)
		logp95_call_scratch(call, len);
	st = fmt->parse(line, len, fmt, &call->ctx, out);
	if (likely(st == LP_ST_OK))
	{
		/* an unescaped route not valid in the database encoding: as logged */
		if (unlikely(out->has & LP_HAS_ROUTE_HIGH))
			logp95_route_logged(fmt, &call->ctx, line, len, st, out);
		return 1;
	}
	if (st == LP_ST_DIRECTIVE)
		return -1;				/* a W3C header line counts as a NULL line */
	if (!logp95_skip_malformed_policy(call->ctx.flags))
		logp95_line_error(fmt, &call->ctx, line, len, false);
	return 0;
}

/* See logp95_count.h. */
const char *
logp95_route_escaped(Logp95Call *call, const char *r, size_t *n)
{
	if (*n > (MaxAllocHugeSize - 1) / LOGP95_ESCAPE_RATIO)
		logp95_check(LP_ETOOBIG);
	if (LOGP95_ESCAPE_RATIO * *n > call->esc_cap)
	{
		size_t		need = Max(LOGP95_ESCAPE_RATIO * *n, Max(2 * call->esc_cap, 256));

		if (call->esc)
			pfree(call->esc);
		call->esc = MemoryContextAllocHuge(call->cxt, need);
		call->esc_cap = need;
	}
	*n = logp95_bytes_escape(r, *n, call->esc);
	return call->esc;
}

/* ---------- counting statuses (issue 24) ---------- */

/* See logp95_count.h. */
bool
logp95_call_status_line(Logp95Call *call, const char *line, size_t len,
						const char **route, size_t *route_len, int64 *value, int *cls)
{
	const lp_format_def *fmt = call->fmt.format;
	lp_result	lf;
	lp_status	ps;
	lp_row		row;

	if (likely(call->direct != NULL) && call->direct(line, len, call->dflags, &row))
	{
		/* the usual line, with its status and method (lp_format_direct_fields) */
		lf.has = LP_HAS_ROUTE | LP_HAS_LATENCY | (row.status ? LP_HAS_STATUS : 0) |
			(row.method ? LP_HAS_METHOD : 0);
		lf.route = row.route;
		lf.route_len = row.route_len;
		lf.status = row.status;
		lf.method = row.method;
		lf.method_len = row.method_len;
		*value = row.latency;
		goto counted;
	}
	if (call->may_build)
		logp95_call_scratch(call, len);
	lf.has = 0;
	ps = fmt->parse(line, len, fmt, &call->ctx, &lf);
	if (likely(ps == LP_ST_OK))
		*value = lf.latency;
	else if (ps == LP_ST_NO_LATENCY && (lf.has & LP_HAS_STATUS) && (lf.has & LP_HAS_ROUTE))
		*value = -1;			/* a response without a latency: requests, not the histogram */
	else if (ps == LP_ST_DIRECTIVE)
	{
		*route = NULL;			/* a W3C header line counts as a NULL line */
		return true;
	}
	else
	{
		if (!logp95_skip_malformed_policy(call->ctx.flags))
			logp95_line_error(fmt, &call->ctx, line, len, false);
		return false;
	}
	/* an unescaped route not valid in the database encoding: as logged */
	if (unlikely(lf.has & LP_HAS_ROUTE_HIGH))
		logp95_route_logged(fmt, &call->ctx, line, len, ps, &lf);
counted:
	*cls = (lf.has & LP_HAS_STATUS) ? lp_status_class(lf.status) : LP_CLASS_UNKNOWN;
	*route = lf.route;
	*route_len = lf.route_len;
	if ((call->sopts & LP_SOPT_METHOD) && (lf.has & LP_HAS_METHOD))
	{
		size_t		need = lf.method_len + 1 + lf.route_len;

		if (need > call->mcap)
		{
			if (call->mbuf)
				pfree(call->mbuf);
			call->mcap = Max(need, Max(2 * call->mcap, 256));
			call->mbuf = MemoryContextAllocHuge(call->cxt, call->mcap);
		}
		memcpy(call->mbuf, lf.method, lf.method_len);
		call->mbuf[lf.method_len] = ' ';
		memcpy(call->mbuf + lf.method_len + 1, lf.route, lf.route_len);
		*route = call->mbuf;
		*route_len = need;
	}
	return true;
}

/* See logp95_count.h. */
void
logp95_count_status(lp_state *st, Logp95Call *call, const char *line, size_t len, bool bytes)
{
	const char *route;
	size_t		route_len;
	int64		value;
	int			cls;

	logp95_check(lp_state_use_options(st, call->sopts));
	if (logp95_call_status_line(call, line, len, &route, &route_len, &value, &cls))
	{
		if (route == NULL)
			return;				/* a W3C header line */
		if (bytes)
			route = logp95_route_text(call, route, &route_len);
		logp95_check(lp_state_add_status(st, route, route_len, value, cls));
	}
	else
		logp95_check(lp_state_add_malformed(st, 1));
}
