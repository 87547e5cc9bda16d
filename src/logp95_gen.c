/* src/logp95_gen.c -- PostgreSQL glue: logp95_generate, deterministic sample lines */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"

#include "logp95.h"
#include "lp_gen.h"

/*
 * The lines of logp95_generate and logp95_generate_latency: arguments
 * (lines, routes, seed [, format [, latency]]).  The narrow distribution
 * unless a fifth argument names another (lp_gen_latency_lookup).
 */
static Datum
logp95_generate_lines(FunctionCallInfo fcinfo)
{
	FuncCallContext *funcctx;
	lp_gen	   *g;
	char		buf[LP_GEN_MAXLINE];
	size_t		len;

	if (SRF_IS_FIRSTCALL())
	{
		int64		lines = PG_GETARG_INT64(0);
		int32		routes = PG_GETARG_INT32(1);
		int64		seed = PG_GETARG_INT64(2);
		const lp_format_def *fmt = LP_FORMAT_DEFAULT;
		lp_gen_latency latency = LP_GEN_NARROW;
		MemoryContext old;

		if (PG_NARGS() > 3)
		{
			text	   *name = PG_GETARG_TEXT_PP(3);

			fmt = lp_gen_format_lookup(VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name));
			if (fmt == NULL)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("unknown log format \"%s\" for logp95_generate",
								logp95_quote(VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name))),
						 errhint("The formats logp95_generate writes are: %s.",
								 lp_gen_format_names())));
		}
		if (PG_NARGS() > 4)
		{
			text	   *name = PG_GETARG_TEXT_PP(4);

			if (!lp_gen_latency_lookup(VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name), &latency))
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("unknown latency distribution \"%s\" for logp95_generate",
								logp95_quote(VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name))),
						 errhint("The distributions logp95_generate draws from are: %s.",
								 LP_GEN_LATENCY_NAMES)));
		}

		if (lines < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("number of lines must not be negative")));
		if (routes < 1)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("number of routes must be at least 1")));
		funcctx = SRF_FIRSTCALL_INIT();
		old = MemoryContextSwitchTo(funcctx->multi_call_memory_ctx);
		g = palloc(sizeof(lp_gen));
		lp_gen_init(g, routes, seed);
		lp_gen_set_format(g, fmt);
		lp_gen_set_latency(g, latency);
		funcctx->user_fctx = g;
		funcctx->max_calls = (uint64) lines;
		MemoryContextSwitchTo(old);
	}
	funcctx = SRF_PERCALL_SETUP();
	if (funcctx->call_cntr >= funcctx->max_calls)
		SRF_RETURN_DONE(funcctx);
	CHECK_FOR_INTERRUPTS();
	g = (lp_gen *) funcctx->user_fctx;
	len = lp_gen_line(g, (int64) funcctx->call_cntr, buf);
	SRF_RETURN_NEXT(funcctx, PointerGetDatum(cstring_to_text_with_len(buf, (int) len)));
}

PG_FUNCTION_INFO_V1(logp95_generate);
/*
 * Deterministic sample access-log lines (1.0, 1.1): logp95_generate(lines,
 * routes, seed) in the default format, logp95_generate(lines, routes, seed,
 * format) in any format the generator writes (lp_gen_format_lookup); narrow
 * latencies.  Bound IMMUTABLE by released scripts: its lines never change.
 */
Datum
logp95_generate(PG_FUNCTION_ARGS)
{
	if (PG_NARGS() > 4)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("logp95_generate takes at most four arguments")));
	return logp95_generate_lines(fcinfo);
}

PG_FUNCTION_INFO_V1(logp95_generate_latency);
/*
 * logp95_generate(lines, routes, seed, format, latency) (1.2): the lines of
 * a format with the latencies of a named distribution ('narrow': the
 * four-argument form's lines; 'long_tail').
 */
Datum
logp95_generate_latency(PG_FUNCTION_ARGS)
{
	return logp95_generate_lines(fcinfo);
}
