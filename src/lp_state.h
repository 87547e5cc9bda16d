/* src/lp_state.h -- the aggregate state: a table of routes and their histograms (plain C) */
#ifndef LP_STATE_H
#define LP_STATE_H

#include "lp_common.h"
#include "lp_hash.h"
#include "lp_hist.h"

/* One route: its key (copied once into the state's arena) and histogram. */
typedef struct lp_route
{
	uint64_t	hash;			/* hash of the key */
	const char *key;			/* route bytes, NULL marks an empty slot */
	size_t		keylen;			/* length of key */
	lp_hist		hist;			/* the route's latencies */
} lp_route;

/* An arena block that holds copied route keys. */
typedef struct lp_block
{
	struct lp_block *next;		/* older block */
	size_t		used;			/* bytes handed out */
	size_t		size;			/* bytes available after the header */
} lp_block;

/* The whole aggregate state. */
typedef struct lp_state
{
	lp_allocator alloc;			/* where every byte of the state comes from */
	lp_route   *routes;			/* open-addressing table of routes */
	uint32_t	mask;			/* route capacity - 1 */
	uint32_t	nroutes;		/* routes stored */
	uint64_t	malformed;		/* lines skipped as malformed */
	lp_block   *blocks;			/* arena for route keys */
	lp_hist    *pend;			/* lp_state_add_pipelined: the histogram of
								 * the one row not added yet, or NULL */
	int64_t		pend_value;		/* and its value */
	struct lp_deferred *deferred;	/* owned by lp_partial.c (the state never
									 * looks inside): an encoding that is part
									 * of the state but not decoded yet, or
									 * NULL; one block of alloc */
} lp_state;

/* Create an empty state; NULL when memory runs out. */
extern lp_state *lp_state_create(const lp_allocator *alloc);

/* Give back every block of the state (for malloc users). */
extern void lp_state_free(lp_state *st);

/*
 * Find a route, creating it when absent; *out is set on LP_OK.  Adds a
 * row lp_state_add_pipelined left pending first.
 */
extern int	lp_state_route(lp_state *st, const char *key, size_t keylen, lp_route **out);

/*
 * lp_state_route, with the route's histogram sized for batch `b` (a new
 * route gets its arrays before it is inserted, so running out of memory
 * never leaves a route without values).
 */
extern int	lp_state_route_batch(lp_state *st, const char *key, size_t keylen,
								 const lp_hist_batch *b, lp_route **out);

/* lp_state_add's out-of-line path: lp_state_route + lp_hist_add. */
extern int	lp_state_add_slow(lp_state *st, const char *key, size_t keylen, int64_t value);

/* Add `n` to the malformed-line counter; LP_EMALFORMED_OVERFLOW past INT64_MAX. */
extern int	lp_state_add_malformed(lp_state *st, uint64_t n);

/*
 * Add every route and count of `src` into `dst` (exact union of
 * multisets).  `src` must have no pending pipelined row (lp_state_flush);
 * nor may the state given to lp_encode, lp_route_find or
 * lp_state_sorted_routes.  `dst` may not have a deferred encoding, and
 * one of `src` is left out (lp_partial.h merges those).
 */
extern int	lp_state_merge(lp_state *dst, const lp_state *src);

/*
 * Fill `out` with pointers to every route, sorted by key bytes
 * (shorter first on a common prefix).  `out` has room for st->nroutes.
 */
extern void lp_state_sorted_routes(const lp_state *st, const lp_route **out);

/* memcmp order of two byte strings, a prefix first. */
extern int	lp_key_cmp(const char *a, size_t alen, const char *b, size_t blen);

#ifdef LP_ASSERTS
/*
 * Check every invariant of a state, like tdigest's AssertCheckTDigestAggState:
 * the route table's size, load and count, every route's hash, probe chain
 * and key (no two routes with one key), every histogram (lp_hist_check:
 * counts, distinct values, totals), the pending row and the key arena.
 * NULL when all hold, else a sentence about the first that does not (in a
 * static buffer).  Only in LP_ASSERTS builds (lp_common.h), where
 * LP_ASSERT_STATE runs it after every merge and decode.
 */
extern const char *lp_state_check(const lp_state *st);

/* Abort, as a failed LP_ASSERT does, when lp_state_check finds a broken invariant. */
static inline void
lp_assert_state(const lp_state *st, const char *file, int line)
{
	const char *why = lp_state_check(st);

	if (why)
		lp_assert_fail(why, file, line);
}

#define LP_ASSERT_STATE(st) lp_assert_state((st), __FILE__, __LINE__)
#else
#define LP_ASSERT_STATE(st) ((void) 0)
#endif

/*
 * Equality of two byte strings of the same length, without a library call.
 * Keys of 8 to 32 bytes (most routes) are compared with four overlapping
 * 8-byte loads a side and one branch: no loop whose trip count changes
 * with the length from row to row (a mispredicted exit per row).
 */
static inline int
lp_key_eq(const char *a, const char *b, size_t n)
{
	uint64_t	x,
				y;
	size_t		i;

	if (n - 8 <= 24)
	{
		/*
		 * 8 <= n <= 32: the words at 0, h, n - 8 - h and n - 8 (h = 8 from
		 * 16 bytes on, else 0) cover [0, n): [0, 16) and [n - 16, n) from
		 * 16 bytes on, [0, 8) and [n - 8, n) below
		 */
		size_t		h = n >= 16 ? 8 : 0;
		uint64_t	d;

		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		d = x ^ y;
		memcpy(&x, a + h, 8);
		memcpy(&y, b + h, 8);
		d |= x ^ y;
		memcpy(&x, a + n - 8 - h, 8);
		memcpy(&y, b + n - 8 - h, 8);
		d |= x ^ y;
		memcpy(&x, a + n - 8, 8);
		memcpy(&y, b + n - 8, 8);
		return (d | (x ^ y)) == 0;
	}
	if (n < 8)
	{
		for (i = 0; i < n; i++)
			if (a[i] != b[i])
				return 0;
		return 1;
	}
	for (i = 0; i + 8 <= n; i += 8)
	{
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return 0;
	}
	/* the last 8 bytes, overlapping what was compared already */
	memcpy(&x, a + n - 8, 8);
	memcpy(&y, b + n - 8, 8);
	return x == y;
}

/* The route of `key` (whose hash is h), or NULL when absent: the inline probe. */
static LP_ALWAYS_INLINE lp_route *
lp_route_find(const lp_state *st, const char *key, size_t keylen, uint64_t h)
{
	uint32_t	i = (uint32_t) h & st->mask;

	for (;;)
	{
		lp_route   *r = &st->routes[i];

		if (r->hash == h && r->key && r->keylen == keylen && lp_key_eq(r->key, key, keylen))
			return r;
		if (!r->key)
			return NULL;
		i = (i + 1) & st->mask;
	}
}

/*
 * Add one observation of `value` (>= 0) to route `key`: the per-row hot
 * path, inline.  A known route and a value in its dense array cost one hash,
 * one probe and one increment; everything else goes to lp_state_add_slow.
 */
static LP_ALWAYS_INLINE int
lp_state_add(lp_state *st, const char *key, size_t keylen, int64_t value)
{
	lp_route   *r = lp_route_find(st, key, keylen, lp_hash_bytes(key, keylen));

	if (!r)
		return lp_state_add_slow(st, key, keylen, value);
	return lp_hist_add_one(&st->alloc, &r->hist, value);
}

/*
 * Add the row that lp_state_add_pipelined left pending, if any.  Every
 * reader of a state that lp_state_add_pipelined fed calls this first (the
 * PostgreSQL glue does, in the final, serialize and combine functions).
 */
static LP_ALWAYS_INLINE int
lp_state_flush(lp_state *st)
{
	lp_hist    *h = st->pend;

	if (!h)
		return LP_OK;
	/* lp_state_add_pipelined keeps only a row its array takes */
	LP_ASSERT((uint64_t) st->pend_value < h->dense_cap);
	st->pend = NULL;
	return lp_hist_add_one(&st->alloc, h, st->pend_value);
}

/*
 * lp_state_add for the per-row loop, one row behind: a known route and a
 * value inside its dense array are only looked up now, with the counter's
 * cache line prefetched, and counted at the next call (or lp_state_flush);
 * the counter load then overlaps the work between two rows instead of
 * stalling this one.  The pending row points into the route table, so
 * everything else (a new route, a value outside the array) flushes first.
 * The counts are the same as lp_state_add's once flushed.
 */
static LP_ALWAYS_INLINE int
lp_state_add_pipelined(lp_state *st, const char *key, size_t keylen, int64_t value)
{
	lp_route   *r = lp_route_find(st, key, keylen, lp_hash_bytes(key, keylen));
	int			rc = lp_state_flush(st);

	if (rc != LP_OK)
		return rc;
	if (!r)
		return lp_state_add_slow(st, key, keylen, value);
	if ((uint64_t) value >= r->hist.dense_cap)
		return lp_hist_add(&st->alloc, &r->hist, value, 1);
#if defined(__GNUC__)
	__builtin_prefetch(&r->hist.dense[value], 1);
#endif
	st->pend = &r->hist;
	st->pend_value = value;
	return LP_OK;
}

#endif							/* LP_STATE_H */
