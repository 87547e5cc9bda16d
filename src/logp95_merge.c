/* src/logp95_merge.c -- logp95_merge with a real transition type (expanded logp95_state) */
#include "postgres.h"

#include "fmgr.h"
#include "utils/expandeddatum.h"
#include "utils/memutils.h"

#include "logp95.h"
#include "lp_codec.h"
#include "lp_state.h"

/*
 * logp95_merge's transition type is logp95_state itself, not internal, so
 * that engines which ship partial states as text between nodes (Citus) can
 * distribute it, and parallel query needs no serialize/deserialize pair.
 *
 * Decoding and re-encoding the state at every row would make merging N
 * states quadratic.  Instead the running state is an expanded object
 * (utils/expandeddatum.h): an lp_state in its own memory context, a child
 * of the aggregate context.  nodeAgg keeps a read/write expanded value that
 * lives in such a context without copying it (ExecAggTransReparent), so the
 * transition function updates the hash tables in place.  Whenever the value
 * leaves the aggregate (a tuple, the output function, a Gather queue) it is
 * flattened to the canonical encoding of lp_codec.h, the same bytes a
 * logp95_state built any other way has.
 */

/* An expanded logp95_state: a live state and its cached flat form. */
typedef struct Logp95Expanded
{
	ExpandedObjectHeader hdr;	/* standard header; must come first */
	lp_state   *st;				/* the state, allocated in hdr.eoh_context */
	bytea	   *flat;			/* encoded copy, NULL when stale or not built */
} Logp95Expanded;

static Size logp95_expanded_flat_size(ExpandedObjectHeader *eohptr);
static void logp95_expanded_flatten(ExpandedObjectHeader *eohptr,
									void *result, Size allocated_size);

/* The methods that turn an expanded logp95_state back into its flat form. */
static const ExpandedObjectMethods logp95_expanded_methods = {
	logp95_expanded_flat_size,
	logp95_expanded_flatten
};

/* Size of the flat form; encodes the state once and keeps the result. */
static Size
logp95_expanded_flat_size(ExpandedObjectHeader *eohptr)
{
	Logp95Expanded *ex = (Logp95Expanded *) eohptr;

	if (ex->flat == NULL)
	{
		lp_allocator a = logp95_allocator(ex->hdr.eoh_context);
		uint8	   *buf;
		size_t		len;

		logp95_check(lp_encode(ex->st, &a, VARHDRSZ, MaxAllocSize, &buf, &len));
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

/* A new, empty expanded state in its own child context of `parent`. */
static Logp95Expanded *
logp95_expanded_new(MemoryContext parent)
{
	MemoryContext cxt;
	Logp95Expanded *ex;
	lp_allocator a;

	cxt = AllocSetContextCreate(parent, "expanded logp95_state",
								ALLOCSET_DEFAULT_SIZES);
	ex = MemoryContextAlloc(cxt, sizeof(Logp95Expanded));
	EOH_init_header(&ex->hdr, &logp95_expanded_methods, cxt);
	a = logp95_allocator(cxt);
	ex->st = lp_state_create(&a);
	if (ex->st == NULL)
		logp95_check(LP_ENOMEM);
	ex->flat = NULL;
	return ex;
}

/* The expanded logp95_state behind datum `d`, or NULL when `d` is flat. */
static Logp95Expanded *
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

/* Add every route and count of logp95_state datum `d` (flat or expanded) into `ex`. */
static void
logp95_expanded_add(Logp95Expanded *ex, Datum d)
{
	Logp95Expanded *src = logp95_expanded_of(d);
	bytea	   *flat;

	if (src != NULL && src != ex)
		logp95_check(lp_state_merge(ex->st, src->st));
	else
	{
		/* a flat (maybe toasted) value, or the state merged into itself */
		flat = DatumGetByteaPP(d);
		logp95_check(lp_decode_into(ex->st, (const uint8 *) VARDATA_ANY(flat),
									VARSIZE_ANY_EXHDR(flat)));
	}
	if (ex->flat != NULL)
	{
		pfree(ex->flat);
		ex->flat = NULL;
	}
}

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
		ex = logp95_expanded_new(inagg ? aggcxt : CurrentMemoryContext);
		logp95_expanded_add(ex, state);
	}
	logp95_expanded_add(ex, PG_GETARG_DATUM(1));
	PG_RETURN_DATUM(EOHPGetRWDatum(&ex->hdr));
}
