/* src/logp95_merge.c -- logp95_merge with a real transition type (expanded logp95_state, logp95_expanded.h) */
#include "postgres.h"

#include "fmgr.h"
#include "utils/expandeddatum.h"
#include "utils/memutils.h"

#include "logp95.h"
#include "logp95_expanded.h"
#include "lp_codec.h"
#include "lp_state.h"

/* The expanded running state lives in logp95_expanded.c (shared with logp95_agg). */

PG_FUNCTION_INFO_V1(logp95_merge_combine);
/*
 * logp95_merge_combine(a, b): the exact union of two states.  Transition
 * and combine function of logp95_merge.  Inside an aggregate the running
 * state `a` is updated in place once it is a read/write expanded value
 * owned by the aggregate, and the same pointer returned (see
 * logp95_expanded.h); anywhere else a new value is built and neither
 * argument changes.
 */
Datum
logp95_merge_combine(PG_FUNCTION_ARGS)
{
	Datum		state = PG_GETARG_DATUM(0);
	MemoryContext aggcxt;
	Logp95Expanded *ex = NULL;
	bool		inagg = AggCheckCallContext(fcinfo, &aggcxt) != 0;

	/* the aggregate's own running state, as logp95_agg's transitions test it */
	if (inagg)
		ex = logp95_expanded_running(state);
	if (ex == NULL)
	{
		/* first row (the flat INITCOND), or not called as an aggregate */
		ex = logp95_expanded_new(inagg ? aggcxt : CurrentMemoryContext, inagg);
		logp95_expanded_add(ex, state);
	}
	logp95_expanded_add(ex, PG_GETARG_DATUM(1));
	PG_RETURN_DATUM(EOHPGetRWDatum(&ex->hdr));
}
