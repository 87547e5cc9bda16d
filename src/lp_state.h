/* src/lp_state.h -- per-route exact latency histograms (plain C) */
#ifndef LP_STATE_H
#define LP_STATE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lp_hash.h"

/* Result codes shared by the plain C units; 0 is success. */
#define LP_OK			0
#define LP_ENOMEM		(-1)	/* the allocator returned NULL */
#define LP_EOVERFLOW	(-2)	/* a count would pass INT64_MAX */
#define LP_ECORRUPT		(-3)	/* encoded input is invalid */
#define LP_ETOOBIG		(-4)	/* encoded output would pass the size limit */

/*
 * Memory comes from the caller: PostgreSQL's aggregate context in the
 * extension, malloc in unit tests and fuzzers.  alloc returns NULL on
 * failure; free may be a no-op when the whole context is dropped at once.
 */
typedef struct lp_allocator
{
	void	   *(*alloc) (void *ctx, size_t size);	/* get size bytes */
	void		(*free) (void *ctx, void *ptr); /* give back one block */
	void	   *ctx;			/* passed to both */
} lp_allocator;

/* One distinct latency of a route and how often it was seen. */
typedef struct lp_pair
{
	int64_t		value;			/* latency in ms, >= 0 */
	uint64_t	count;			/* > 0 in a used slot, 0 in an empty one */
} lp_pair;

/*
 * Exact multiset of one route's latencies.  Small values (below dense_cap,
 * at most LP_DENSE_MAX) are counted in a plain array indexed by the value;
 * the others in an open-addressing value -> count table.  A value lives in
 * exactly one of the two.  Dense slots hold 32-bit counts (half the memory
 * and cache of 64-bit ones); should one count need more, the histogram
 * moves every count to the table (64-bit counts) and keeps them there.  The array is made (and doubled) only while it
 * holds at least one distinct value per LP_DENSE_RATIO slots, so memory
 * still grows with distinct values, not with rows.
 */
typedef struct lp_hist
{
	uint32_t   *dense;			/* counts of values 0 .. dense_cap - 1; NULL before
								 * the array is made, a marker once given up */
	uint32_t	dense_cap;		/* 0, or a power of two <= LP_DENSE_MAX */
	uint32_t	hused;			/* values stored in slots */
	lp_pair    *slots;			/* values >= dense_cap; count 0 = empty */
	uint32_t	mask;			/* slot capacity - 1; capacity is a power of two */
	uint32_t	used;			/* distinct values stored, both parts */
	uint64_t	total;			/* sum of counts, <= INT64_MAX */
} lp_hist;

/* Largest dense array, in values, and the density it needs. */
#define LP_DENSE_MAX	4096
#define LP_DENSE_MIN	64
#define LP_DENSE_RATIO	4

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
	const uint8_t *deferred;	/* lp_state_defer (lp_codec.h): a checked
								 * encoding that is part of the state but not
								 * decoded yet, or NULL */
	size_t		deferred_len;	/* its length */
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

/* Find a route without creating it; NULL when absent. */
extern lp_route *lp_state_lookup(const lp_state *st, const char *key, size_t keylen);

/*
 * Add `count` occurrences of `value` (>= 0) to a route's histogram; a count
 * of 0 changes nothing, a negative value gives LP_ECORRUPT.
 */
extern int	lp_hist_add(lp_state *st, lp_hist *h, int64_t value, uint64_t count);

/*
 * A batch of distinct values about to be added to one histogram at once
 * (decoding or merging a route): how many, and how many fall in each range
 * of the dense array's possible sizes.  lp_hist_reserve sizes the histogram
 * for the whole batch in one step, instead of growing it a doubling at a
 * time as single rows do.
 */
#define LP_DENSE_STEPS	7		/* dense sizes LP_DENSE_MIN << 0 .. 6 */

typedef struct lp_hist_batch
{
	uint64_t	n;				/* distinct values in the batch */
	uint64_t	small[LP_DENSE_STEPS];	/* [0]: values < LP_DENSE_MIN; [i]:
										 * values in [LP_DENSE_MIN << (i-1),
										 * LP_DENSE_MIN << i) */
} lp_hist_batch;

/* Count one distinct value (>= 0) into a batch. */
static inline void
lp_hist_batch_note(lp_hist_batch *b, int64_t value)
{
	uint64_t	v = (uint64_t) value;
	int			i = 0;

	b->n++;
	if (v >= LP_DENSE_MAX)
		return;
	while (((uint64_t) LP_DENSE_MIN << i) <= v)
		i++;
	b->small[i]++;
}

/*
 * Make room in `h` for the values of `b`: the dense array as large as the
 * density rule allows (it only ever grows), and a slot table that takes the
 * rest without growing.  Adding the values afterwards gives the same
 * histogram contents as without the call; only the layout, and the number
 * of allocations, differ.
 */
extern int	lp_hist_reserve(lp_state *st, lp_hist *h, const lp_hist_batch *b);

/*
 * lp_state_route, with the route's histogram sized for batch `b` (a new
 * route gets its arrays before it is inserted, so running out of memory
 * never leaves a route without values).
 */
extern int	lp_state_route_batch(lp_state *st, const char *key, size_t keylen,
								 const lp_hist_batch *b, lp_route **out);

/* lp_state_add's out-of-line path: lp_state_route + lp_hist_add. */
extern int	lp_state_add_slow(lp_state *st, const char *key, size_t keylen, int64_t value);

/* Add `n` to the malformed-line counter. */
extern int	lp_state_add_malformed(lp_state *st, uint64_t n);

/*
 * Add every route and count of `src` into `dst` (exact union of
 * multisets).  `src` must have no pending pipelined row (lp_state_flush);
 * nor may the state given to lp_encode, lp_state_lookup or the sorting
 * functions.
 */
extern int	lp_state_merge(lp_state *dst, const lp_state *src);

/*
 * Copy a route's h->used pairs into `out` (room for h->used) sorted by
 * value.  Calls the interrupt hook while it sorts.
 */
extern void lp_hist_sorted(const lp_hist *h, lp_pair *out);

/*
 * Sort pairs with distinct values by value: introsort that falls back to
 * heapsort below `depth_limit` levels of quicksort (< 0: 2 log2 n; 0:
 * heapsort at once).  Calls the interrupt hook as it goes.
 */
extern void lp_pairs_sort_values(lp_pair *p, size_t n, int depth_limit);

/*
 * Fill `out` with pointers to every route, sorted by key bytes
 * (shorter first on a common prefix).  `out` has room for st->nroutes.
 */
extern void lp_state_sorted_routes(const lp_state *st, const lp_route **out);

/* memcmp order of two byte strings, a prefix first. */
extern int	lp_key_cmp(const char *a, size_t alen, const char *b, size_t blen);

/* 0-based index of the pK (K in 0..100) of n values: min(floor(n*K/100), n-1). */
extern uint64_t lp_rank_pct(uint64_t n, unsigned k);

/* 0-based index of fraction f in [0,1] of n values: min(floor(n*f), n-1). */
extern uint64_t lp_rank_fraction(uint64_t n, double f);


/*
 * Interrupt hook: the loops that can run long (merge, encode, decode,
 * validate) call it every LP_CHECK_EVERY steps.  The PostgreSQL glue sets it
 * to a function that runs CHECK_FOR_INTERRUPTS(), which may not return
 * (statement_timeout, a cancel request); it is only called where the state
 * is consistent, and temporary memory of the interrupted call stays in the
 * caller's memory context, which PostgreSQL resets.  NULL, the default, in
 * unit tests and fuzzers.
 */
extern void (*lp_interrupt_hook) (void);

/* Steps between two calls of lp_interrupt_hook (a power of two). */
#define LP_CHECK_EVERY 4096

/* Count one step on `counter` (a uint32_t) and call the hook every LP_CHECK_EVERY. */
#define LP_CHECK_INTERRUPTS(counter) \
	do { \
		if ((++(counter) & (LP_CHECK_EVERY - 1)) == 0 && lp_interrupt_hook) \
			lp_interrupt_hook(); \
	} while (0)

/* Inline even where the compiler would rather not: the per-row path. */
#if defined(__GNUC__)
#define LP_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define LP_ALWAYS_INLINE inline
#endif

/* Equality of two byte strings of the same length, without a library call. */
static inline int
lp_key_eq(const char *a, const char *b, size_t n)
{
	uint64_t	x,
				y;
	size_t		i;

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

/* One more occurrence of `value` in h: inline while its dense slot takes it. */
static LP_ALWAYS_INLINE int
lp_hist_add_one(lp_state *st, lp_hist *h, int64_t value)
{
	if ((uint64_t) value < h->dense_cap && h->total < (uint64_t) INT64_MAX &&
		h->dense[value] < UINT32_MAX)
	{
		uint32_t   *d = &h->dense[value];

		h->used += (*d == 0);
		(*d)++;
		h->total++;
		return LP_OK;
	}
	return lp_hist_add(st, h, value, 1);
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
	return lp_hist_add_one(st, &r->hist, value);
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
	st->pend = NULL;
	return lp_hist_add_one(st, h, st->pend_value);
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
		return lp_hist_add(st, &r->hist, value, 1);
#if defined(__GNUC__)
	__builtin_prefetch(&r->hist.dense[value], 1);
#endif
	st->pend = &r->hist;
	st->pend_value = value;
	return LP_OK;
}

#endif							/* LP_STATE_H */
