/* src/logp95_gen.c -- PostgreSQL glue: logp95_generate, deterministic sample lines */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"

#include "logp95.h"
#include "lp_gen.h"

PG_FUNCTION_INFO_V1(logp95_generate);
/*
 * Deterministic sample access-log lines: logp95_generate(lines, routes,
 * seed) in the default format, logp95_generate(lines, routes, seed, format)
 * in any format the generator writes (lp_gen_format_lookup).
 */
Datum
logp95_generate(PG_FUNCTION_ARGS)
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
