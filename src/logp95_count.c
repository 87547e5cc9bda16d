/* src/logp95_count.c -- PostgreSQL glue: the call site's format and options, the one malformed policy */
#include "postgres.h"

#include "mb/pg_wchar.h"
#include "nodes/primnodes.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "logp95_count.h"

/* ---------- the malformed policy, one for every transition ---------- */

/* See logp95_count.h. */
bool
logp95_skip_malformed(lp_state *st, unsigned opts)
{
	bool		skip = (opts & LP_OPT_SKIP) ? true :
		(opts & LP_OPT_ERROR) ? false :
		logp95_on_malformed == LOGP95_MALFORMED_SKIP;

	if (!skip)
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
	lp_result	lf;
	lp_status	st = fmt->parse(line, len, fmt, ctx, &lf);

	if (st <= LP_ST_OK || st >= LP_ST_COUNT)
		elog(ERROR, "log line error reported for parse status %d", (int) st);
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("%s", logp95_problem(st, &lf)),
			 logp95_errdetail_line(line, len),
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
					size_t len, lp_result *r)
{
	lp_parse_ctx logged;

	if (pg_verifymbstr(r->route, (int) r->route_len, true))
		return false;
	logged = *ctx;
	logged.flags |= LP_PARSE_LOGGED;
	if (fmt->parse(line, len, fmt, &logged, r) != LP_ST_OK)
		elog(ERROR, "log line parsed again as logged did not parse");
	return true;
}

/* See logp95_count.h. */
void
logp95_malformed_line(lp_state *st, const lp_format_def *fmt, const lp_parse_ctx *ctx,
					  const char *line, size_t len)
{
	if (!logp95_skip_malformed(st, ctx ? ctx->flags : 0))
		logp95_line_error(fmt, ctx, line, len);
}

/* ---------- per-call format and options ---------- */

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

/* A copy of s[0 .. len) in the call site's context, replacing old. */
static char *
logp95_call_copy(FunctionCallInfo fcinfo, char *old, const char *s, int len)
{
	char	   *c = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, len > 0 ? len : 1);

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
		fcinfo->flinfo->fn_extra = call;
		call->args_const = logp95_arg_const(fcinfo, fmt_argno) &&
			logp95_arg_const(fcinfo, opt_argno);
	}
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
											   fmt_argno >= 0);
		call->options_len = (int) VARSIZE_ANY_EXHDR(ot);
		call->options = logp95_call_copy(fcinfo, call->options, VARDATA_ANY(ot),
										 call->options_len);
	}
	/* the format, for what the call needs of it: a route and a latency, the host */
	if (ft)
		logp95_format_cached(&call->fmt, ft,
							 LP_HAS_ROUTE | LP_HAS_LATENCY |
							 ((call->ctx.flags & LP_PARSE_HOST) ? LP_HAS_HOST : 0),
							 fcinfo->flinfo->fn_mcxt);
	call->direct = call->fmt.format ?
		lp_format_direct(call->fmt.format, call->ctx.flags, &call->dflags) : NULL;
	call->may_build = call->fmt.format &&
		lp_format_may_build(call->fmt.format, call->ctx.flags);
	return call;
}

/* See logp95_count.h. */
void
logp95_call_scratch_grow(FunctionCallInfo fcinfo, Logp95Call *call, size_t len)
{
	size_t		need = LP_ROUTE_BUF_SIZE(len);

	need = Max(need, Max(2 * call->cap, 256));
	if (call->ctx.buf)
		pfree(call->ctx.buf);
	call->ctx.buf = MemoryContextAllocHuge(fcinfo->flinfo->fn_mcxt, need);
	call->cap = need;
}
