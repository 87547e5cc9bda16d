/* src/logp95_expanded.c -- a logp95_state held as an expanded object (the running state of the aggregates) */
#include "postgres.h"

#include "utils/memutils.h"

#include "logp95.h"
#include "logp95_expanded.h"
#include "lp_codec.h"
#include "lp_partial.h"
#include "lp_state.h"

static Size logp95_expanded_flat_size(ExpandedObjectHeader *eohptr);
static void logp95_expanded_flatten(ExpandedObjectHeader *eohptr,
									void *result, Size allocated_size);

/* See logp95_expanded.h. */
const ExpandedObjectMethods logp95_expanded_methods = {
	logp95_expanded_flat_size,
	logp95_expanded_flatten
};

/*
 * Size of the flat form; counts the row a pipelined transition left
 * pending, encodes the state once and keeps the result until the state
 * changes.
 */
static Size
logp95_expanded_flat_size(ExpandedObjectHeader *eohptr)
{
	Logp95Expanded *ex = (Logp95Expanded *) eohptr;

	if (ex->flat == NULL)
	{
		uint8	   *buf;
		size_t		len;

		logp95_check(lp_state_flush(ex->st));
		logp95_check(lp_state_encode_any(ex->st, &ex->flat_alloc, VARHDRSZ, MaxAllocSize, &buf, &len));
		SET_VARSIZE(buf, VARHDRSZ + len);
		ex->flat = (bytea *) buf;
	}
	return VARSIZE(ex->flat);
}

/* Copy the flat form (built by logp95_expanded_flat_size) into `result`. */
static void
logp95_expanded_flatten(ExpandedObjectHeader *eohptr,
						void *result, Size allocated_size)
{
	Logp95Expanded *ex = (Logp95Expanded *) eohptr;

	Assert(ex->flat != NULL && allocated_size == VARSIZE(ex->flat));
	memcpy(result, ex->flat, allocated_size);
}

/*
 * The reset callback that marks an aggregate context as holding a "logp95
 * states" context (its argument).  It does nothing: the aggregate
 * context's reset or deletion deletes the shared context with it (children
 * go first) and drops this callback from its list.
 */
static void
logp95_states_mark(void *arg)
{
}

/*
 * The context shared by the running states of aggregate context `aggcxt`,
 * made on its first state.  It is found again through the reset callbacks
 * of `aggcxt` (its only list of per-context data): a callback whose
 * function is logp95_states_mark holds it, allocated in `aggcxt` so that
 * both go at its next reset.  The walk meets our callback first unless
 * something else registers callbacks on an aggregate context, which core
 * does not: a lookup is a few loads, done once a group.
 */
static MemoryContext
logp95_states_context(MemoryContext aggcxt)
{
	MemoryContextCallback *cb;
	MemoryContext cxt;

	for (cb = aggcxt->reset_cbs; cb != NULL; cb = cb->next)
	{
		if (cb->func == logp95_states_mark)
			return (MemoryContext) cb->arg;
	}
	cxt = AllocSetContextCreate(aggcxt, "logp95 states", ALLOCSET_DEFAULT_SIZES);
	cb = MemoryContextAlloc(aggcxt, sizeof(MemoryContextCallback));
	cb->func = logp95_states_mark;
	cb->arg = cxt;
	MemoryContextRegisterResetCallback(aggcxt, cb);
	return cxt;
}

/* See logp95_expanded.h. */
Logp95Expanded *
logp95_expanded_new(MemoryContext parent, bool agg_owned, bool retain)
{
	MemoryContext cxt;
	Logp95Expanded *ex;
	lp_allocator a;

	if (agg_owned)
		cxt = logp95_states_context(parent);
	else
		cxt = AllocSetContextCreate(parent, "expanded logp95_state",
									ALLOCSET_DEFAULT_SIZES);
	ex = MemoryContextAlloc(cxt, sizeof(Logp95Expanded));
	EOH_init_header(&ex->hdr, &logp95_expanded_methods, cxt);
	a = retain ? logp95_allocator_retaining(cxt) : logp95_allocator(cxt);
	ex->st = lp_state_create(&a);
	if (ex->st == NULL)
		logp95_check(LP_ENOMEM);
	ex->flat = NULL;
	/* the flat form is the state's own (flatten_into copies it out) */
	ex->flat_alloc = retain ? logp95_allocator_retaining(cxt) : logp95_allocator(cxt);
	ex->agg_owned = agg_owned;
	ex->nadds = 0;
	return ex;
}

/* See logp95_expanded.h. */
void
logp95_expanded_drop_flat(Logp95Expanded *ex)
{
	if (ex->flat != NULL)
	{
		ex->flat_alloc.free(ex->flat_alloc.ctx, ex->flat);
		ex->flat = NULL;
	}
}

/* See logp95_expanded.h. */
Logp95Expanded *
logp95_expanded_of(Datum d)
{
	ExpandedObjectHeader *eoh;

	if (!VARATT_IS_EXTERNAL_EXPANDED(DatumGetPointer(d)))
		return NULL;
	eoh = DatumGetEOHP(d);
	if (eoh->eoh_methods != &logp95_expanded_methods)
		return NULL;
	return (Logp95Expanded *) eoh;
}

/* See logp95_expanded.h. */
void
logp95_expanded_add(Logp95Expanded *ex, Datum d, bool defer)
{
	Logp95Expanded *src = logp95_expanded_of(d);
	bytea	   *flat;

	logp95_check(lp_state_flush(ex->st));
	if (defer && ++ex->nadds > LP_DEFER_MAX)
	{
		/*
		 * many states: summing a few small encodings with a large one at
		 * the end would cost more than decoding them, so decode them now
		 * and decode from here on
		 */
		logp95_check(lp_state_materialize(ex->st));
		defer = false;
	}
	if (src != NULL && src != ex)
	{
		/*
		 * a running state of logp95_agg may hold a pending row; a combined
		 * one, encodings it deferred.  With `defer` (the leader's own
		 * partial state comes so) it is encoded and kept with the others
		 * (lp_state_defer_state), else merged (what src deferred decoded
		 * into ours, ours left deferred).
		 */
		logp95_check(lp_state_flush(src->st));
		if (defer)
			logp95_check(lp_state_defer_state(ex->st, src->st));
		else
			logp95_check(lp_state_merge_any(ex->st, src->st));
	}
	else
	{
		/*
		 * a flat (maybe toasted) value: the partial states of parallel
		 * workers and Citus workers come so, or the state merged into
		 * itself.  Checked now; decoded straight into the state, or when
		 * `defer`, copied and kept encoded until the state is flattened,
		 * which then adds them up in one walk over the encodings
		 * (lp_partial.h).
		 */
		flat = DatumGetByteaPP(d);
		if (defer)
			logp95_check(lp_state_defer_copy(ex->st, (const uint8 *) VARDATA_ANY(flat),
											 VARSIZE_ANY_EXHDR(flat)));
		else
			logp95_check(lp_decode_into(ex->st, (const uint8 *) VARDATA_ANY(flat),
										VARSIZE_ANY_EXHDR(flat)));
	}
	logp95_expanded_drop_flat(ex);
}
