/* src/logp95_expanded.h -- a logp95_state held as an expanded object (the running state of the aggregates) */
#ifndef LOGP95_EXPANDED_H
#define LOGP95_EXPANDED_H

#include "postgres.h"

#include "fmgr.h"
#include "utils/expandeddatum.h"

#include "lp_state.h"

/*
 * The transition type of logp95_agg and logp95_merge is logp95_state
 * itself, not internal, so that engines which ship partial states between
 * nodes as values of the type (Citus) can distribute them, and parallel
 * query needs no serialize/deserialize pair.
 *
 * Decoding and re-encoding the state at every row would be far too slow.
 * Instead the running state is an expanded object (utils/expandeddatum.h):
 * an lp_state in a memory context that is a child of the aggregate
 * context.  nodeAgg (and nodeWindowAgg) keep a read/write expanded value
 * that lives in such a context without copying it (ExecAggTransReparent,
 * ExecAggCopyTransValue from 16 on), so the transition functions update
 * the hash tables in place.  Whenever the value leaves the aggregate (a
 * tuple, the output function, a Gather queue, the aggregate's result) it is
 * flattened to the canonical encoding of lp_codec.h, the same bytes a
 * logp95_state built any other way has; the flattening first counts the
 * row lp_state_add_pipelined left pending.
 *
 * Inside an aggregate every group's state lives in one context shared by
 * all the states of that aggregate context ("logp95 states", see
 * logp95_expanded.c), not in a context of its own: hash aggregation
 * measures its whole context tree at every new group, and a context per
 * group made that quadratic in the groups.  The executor would free such a
 * state with DeleteExpandedObject, that is the whole shared context, only
 * if a transition returned another value in its place; the transitions
 * always return the read/write pointer they were given, and the states go
 * when the executor resets the aggregate context (a new group when
 * sorting, a new batch of a spilling hash table, the end of the query).
 * Outside an aggregate a state still gets a context of its own.
 */
typedef struct Logp95Expanded
{
	ExpandedObjectHeader hdr;	/* standard header; must come first */
	lp_state   *st;				/* the state, allocated in hdr.eoh_context */
	bytea	   *flat;			/* encoded copy, NULL when stale or not built */
	lp_allocator flat_alloc;	/* where flat comes from (and goes back to):
								 * made once, so that flattening at every row
								 * (a running window frame) keeps nothing */
	bool		agg_owned;		/* created by an aggregate support function
								 * in its aggregate context's shared
								 * context: the aggregate's own running
								 * state */
	int			nadds;			/* states added with `defer` so far (see
								 * logp95_expanded_add) */
} Logp95Expanded;

/*
 * The methods of every expanded logp95_state (compared by address, once a
 * row: hidden, so that the address is PC-relative and not read from the
 * library's GOT).
 */
#if defined(__GNUC__)
__attribute__((visibility("hidden")))
#endif
extern const ExpandedObjectMethods logp95_expanded_methods;

/*
 * A new, empty expanded state.  agg_owned: `parent` is the calling
 * aggregate's context, and the state goes into the context that context's
 * states share; otherwise into a child context of `parent` of its own.
 * retain: its large blocks are the backend's retained blocks
 * (logp95_allocator_retaining; pass logp95_may_retain(fcinfo)).
 */
extern Logp95Expanded *logp95_expanded_new(MemoryContext parent, bool agg_owned, bool retain);

/* Drop the cached flat form of `ex` (the state is about to change). */
extern void logp95_expanded_drop_flat(Logp95Expanded *ex);

/* The expanded logp95_state behind datum `d`, or NULL when `d` is flat. */
extern Logp95Expanded *logp95_expanded_of(Datum d);

/*
 * Add every route and count of logp95_state datum `d` (flat or expanded)
 * into `ex`.  A flat one is checked, then decoded; with `defer` (a state
 * that is only added to, then flattened: the combine of an aggregate) the
 * first LP_DEFER_MAX states added are kept encoded in `ex` and summed when
 * it is flattened (lp_partial.h), while a state that gets more (a merge of
 * many rollup states) has them decoded then and decodes every later one.
 */
extern void logp95_expanded_add(Logp95Expanded *ex, Datum d, bool defer);

/*
 * The aggregate's own running state behind datum `d`, or NULL: the per-row
 * test of the transition functions, three loads and compares.  Only a
 * read/write pointer to an expanded logp95_state that an aggregate support
 * function created in its aggregate context passes.  nodeAgg and
 * nodeWindowAgg hand such a pointer only back to the transition (or
 * combine) function of the aggregate that owns it; everywhere else (the
 * result, a tuple, a Gather queue) it leaves read-only or flattened, so
 * updating it in place is safe.  A stale cached flat form is dropped.
 */
static inline Logp95Expanded *
logp95_expanded_running(Datum d)
{
	Logp95Expanded *ex;
	varatt_expanded ptr;

	if (unlikely(!VARATT_IS_EXTERNAL_EXPANDED_RW(DatumGetPointer(d))))
		return NULL;
	/* DatumGetEOHP, inline: the pointer stored after the external header */
	memcpy(&ptr, VARDATA_EXTERNAL(DatumGetPointer(d)), sizeof(ptr));
	ex = (Logp95Expanded *) ptr.eohptr;
	if (unlikely(ex->hdr.eoh_methods != &logp95_expanded_methods || !ex->agg_owned))
		return NULL;
	if (unlikely(ex->flat != NULL))
		logp95_expanded_drop_flat(ex);
	return ex;
}

#endif							/* LOGP95_EXPANDED_H */
