/* src/logp95_merge.c -- logp95_merge with a real transition type (expanded logp95_state, logp95_expanded.h) */
#include "postgres.h"

#include "fmgr.h"
#include "utils/expandeddatum.h"
#include "utils/memutils.h"

#include "logp95.h"
#include "logp95_expanded.h"
#include "lp_arith.h"
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
	int			how = AggCheckCallContext(fcinfo, &aggcxt);
	bool		inagg = how != 0;

	/*
	 * In a plain aggregate (the leader's combine of a parallel query's
	 * partial states, logp95_merge over a column) the state is only added
	 * to, then flattened once: the flat states that come are kept encoded
	 * and added up in one walk when it is flattened (lp_partial.h).  Not in
	 * a window, whose frames flatten the state at every row.
	 */
	bool		defer = how == AGG_CONTEXT_AGGREGATE;

	/* the aggregate's own running state, as logp95_agg's transitions test it */
	if (inagg)
		ex = logp95_expanded_running(state);
	if (ex == NULL)
	{
		/* first row (the flat INITCOND), or not called as an aggregate */
		ex = logp95_expanded_new(inagg ? aggcxt : CurrentMemoryContext, inagg,
								 logp95_may_retain(fcinfo));
		logp95_expanded_add(ex, state, false);
	}
	logp95_expanded_add(ex, PG_GETARG_DATUM(1), defer);
	PG_RETURN_DATUM(EOHPGetRWDatum(&ex->hdr));
}

/*
 * The sum (sign 1) or difference (sign -1) of two stored states as a new
 * flat value, by one ordered walk over both encodings (lp_arith.h).
 */
static bytea *
logp95_arith(bytea *a, bytea *b, int sign)
{
	lp_allocator alloc = logp95_allocator(CurrentMemoryContext);
	uint8	   *buf;
	size_t		len;
	const char *misfit = NULL;
	size_t		misfit_len = 0;
	int			rc;

	if (sign > 0)
		rc = lp_encoded_add((const uint8 *) VARDATA_ANY(a), VARSIZE_ANY_EXHDR(a),
							(const uint8 *) VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b),
							&alloc, VARHDRSZ, MaxAllocSize, &buf, &len);
	else
		rc = lp_encoded_subtract((const uint8 *) VARDATA_ANY(a), VARSIZE_ANY_EXHDR(a),
								 (const uint8 *) VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b),
								 &alloc, VARHDRSZ, MaxAllocSize, &buf, &len,
								 &misfit, &misfit_len);
	if (rc == LP_ENOFIT)
	{
		if (misfit == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("cannot subtract a state that is not part of the other"),
					 errdetail("The second state counts more malformed lines than the first.")));
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot subtract a state that is not part of the other"),
				 errdetail("Route \"%s\" of the second state holds requests that the first state does not.",
						   logp95_quote(misfit, misfit_len)),
				 errhint("Subtract only a state that was merged into the first one.")));
	}
	logp95_check(rc);
	SET_VARSIZE(buf, VARHDRSZ + len);
	return (bytea *) buf;
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
	if (PG_ARGISNULL(0) && PG_ARGISNULL(1))
		PG_RETURN_NULL();
	if (PG_ARGISNULL(0))
		PG_RETURN_DATUM(PG_GETARG_DATUM(1));
	if (PG_ARGISNULL(1))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	PG_RETURN_BYTEA_P(logp95_arith(PG_GETARG_BYTEA_PP(0), PG_GETARG_BYTEA_PP(1), 1));
}

PG_FUNCTION_INFO_V1(logp95_subtract);
/*
 * logp95_subtract(a, b) and the operator -: a with every count of b taken
 * away, exact; 22023 naming the first route of b whose counts a does not
 * hold.
 */
Datum
logp95_subtract(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(logp95_arith(PG_GETARG_BYTEA_PP(0), PG_GETARG_BYTEA_PP(1), -1));
}
