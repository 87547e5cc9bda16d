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
 * owned by the aggregate context; anywhere else a new value is built and
 * neither argument changes.
 */
Datum
logp95_merge_combine(PG_FUNCTION_ARGS)
{
	Datum		state = PG_GETARG_DATUM(0);
	MemoryContext aggcxt;
	Logp95Expanded *ex = NULL;
	bool		inagg = AggCheckCallContext(fcinfo, &aggcxt) != 0;

	if (inagg && VARATT_IS_EXTERNAL_EXPANDED_RW(DatumGetPointer(state)))
	{
		Logp95Expanded *cur = logp95_expanded_of(state);

		if (cur != NULL && MemoryContextGetParent(cur->hdr.eoh_context) == aggcxt)
			ex = cur;
	}
	if (ex == NULL)
	{
		/* first row (the flat INITCOND), or not called as an aggregate */
		ex = logp95_expanded_new(inagg ? aggcxt : CurrentMemoryContext, inagg);
		logp95_expanded_add(ex, state);
	}
	logp95_expanded_add(ex, PG_GETARG_DATUM(1));
	PG_RETURN_DATUM(EOHPGetRWDatum(&ex->hdr));
}

PG_FUNCTION_INFO_V1(logp95_merge_pair);
/*
 * logp95_merge(a, b) and the operator +: the exact union of two states as
 * a new flat value (neither argument changes); a NULL argument gives the
 * other one, two NULLs give NULL.  Not STRICT, so that
 * `state = r.state + excluded.state` in an upsert never loses a side.
 */
Datum
logp95_merge_pair(PG_FUNCTION_ARGS)
{
	bytea	   *a;
	bytea	   *b;
	lp_allocator alloc;
	lp_state   *acc;
	uint8	   *buf;
	size_t		len;

	if (PG_ARGISNULL(0) && PG_ARGISNULL(1))
		PG_RETURN_NULL();
	if (PG_ARGISNULL(0))
		PG_RETURN_DATUM(PG_GETARG_DATUM(1));
	if (PG_ARGISNULL(1))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	a = PG_GETARG_BYTEA_PP(0);
	b = PG_GETARG_BYTEA_PP(1);
	alloc = logp95_allocator(CurrentMemoryContext);
	acc = lp_state_create(&alloc);
	if (acc == NULL)
		logp95_check(LP_ENOMEM);
	logp95_check(lp_decode_into(acc, (const uint8 *) VARDATA_ANY(a), VARSIZE_ANY_EXHDR(a)));
	logp95_check(lp_decode_into(acc, (const uint8 *) VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b)));
	logp95_check(lp_encode(acc, &alloc, VARHDRSZ, MaxAllocSize, &buf, &len));
	lp_state_free(acc);
	SET_VARSIZE(buf, VARHDRSZ + len);
	PG_RETURN_BYTEA_P((bytea *) buf);
}
