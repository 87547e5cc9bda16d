/* src/lp_hist.h -- one route's exact latency histogram (plain C) */
#ifndef LP_HIST_H
#define LP_HIST_H

#include "lp_common.h"
#include "lp_hash.h"
#include "lp_sort.h"

/*
 * Exact multiset of one route's latencies.  Small values (below dense_cap,
 * at most LP_DENSE_MAX) are counted in a plain array indexed by the value;
 * the others in an open-addressing value -> count table.  A value lives in
 * exactly one of the two.  Dense slots hold 32-bit counts (half the memory
 * and cache of 64-bit ones); should one count need more, the histogram
 * moves every count to the table (64-bit counts) and keeps them there.  The
 * array is made (and doubled) only while it holds at least one distinct
 * value per LP_DENSE_RATIO slots, or, up to LP_DENSE_ROWS_MAX slots, while
 * it has at most LP_DENSE_ROWS slots per row counted: memory grows with
 * distinct values (16 bytes of array a distinct value at most, what the
 * table spends on one), and by at most 2 kB a route with the rows it
 * counts (32 bytes a row).  LP_DENSE_MAX covers every latency up to 65,535
 * ms, past the 60-second timeouts of common proxies: on a long-tailed
 * route with thousands of distinct values every row the density rule lets
 * in costs one array increment, however many values the route holds, and
 * the table keeps only the sparse far tail (issue 27; docs/performance.md
 * has the figures).  Every function that may allocate takes the allocator
 * of the state that holds the histogram.
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

/* Largest dense array, in values (0 .. 65,535 ms), its smallest size, and the density it needs. */
#define LP_DENSE_MAX	65536
#define LP_DENSE_MIN	64
#define LP_DENSE_RATIO	4
/* ... or enough rows: up to LP_DENSE_ROWS_MAX slots, LP_DENSE_ROWS slots a row counted */
#define LP_DENSE_ROWS	8
#define LP_DENSE_ROWS_MAX	512

/* Hash tables (routes, value slots) never pass 2^30 slots, so uint32 arithmetic cannot wrap. */
#define LP_MAX_CAPACITY ((uint32_t) 1 << 30)

/*
 * A batch of distinct values about to be added to one histogram at once
 * (decoding or merging a route): how many, and how many fall in each range
 * of the dense array's possible sizes.  lp_hist_reserve sizes the histogram
 * for the whole batch in one step, instead of growing it a doubling at a
 * time as single rows do.
 */
#define LP_DENSE_STEPS	11		/* dense sizes LP_DENSE_MIN << 0 .. 10 */

typedef struct lp_hist_batch
{
	uint64_t	n;				/* distinct values in the batch */
	uint64_t	small[LP_DENSE_STEPS];	/* [0]: values < LP_DENSE_MIN; [i]:
										 * values in [LP_DENSE_MIN << (i-1),
										 * LP_DENSE_MIN << i) */
} lp_hist_batch;

/*
 * Count one distinct value (>= 0) into a batch: small[i] for the least i
 * with LP_DENSE_MIN << i above the value (from the value's highest bit: a
 * loop per value cost a tenth of decoding large routes).
 */
static inline void
lp_hist_batch_note(lp_hist_batch *b, int64_t value)
{
	uint64_t	v = (uint64_t) value;
	int			i = 0;

	b->n++;
	if (v >= LP_DENSE_MAX)
		return;
	if (v >= LP_DENSE_MIN)
	{
#if defined(__GNUC__)
		/* 64 << i > v >= 64 << (i - 1): i = floor(log2(v)) - log2(64) + 1 */
		i = (63 - __builtin_clzll(v)) - 5;
#else
		while (((uint64_t) LP_DENSE_MIN << i) <= v)
			i++;
#endif
	}
	LP_ASSERT(i < LP_DENSE_STEPS && ((uint64_t) LP_DENSE_MIN << i) > v &&
			  (i == 0 || ((uint64_t) LP_DENSE_MIN << (i - 1)) <= v));
	b->small[i]++;
}

/* Make the first slot table of a zeroed histogram. */
extern int	lp_hist_init(const lp_allocator *a, lp_hist *h);

/* Give back the arrays of a histogram (the struct itself is the caller's). */
extern void lp_hist_release(const lp_allocator *a, lp_hist *h);

/*
 * Add `count` occurrences of `value` (>= 0) to a histogram; a count of 0
 * changes nothing, a negative value gives LP_EINTERNAL.
 */
extern int	lp_hist_add(const lp_allocator *a, lp_hist *h, int64_t value, uint64_t count);

/*
 * Make room in `h` for the values of `b`: the dense array as large as the
 * density rule allows (it only ever grows), and a slot table that takes the
 * rest without growing.  Adding the values afterwards gives the same
 * histogram contents as without the call; only the layout, and the number
 * of allocations, differ.
 */
extern int	lp_hist_reserve(const lp_allocator *a, lp_hist *h, const lp_hist_batch *b);

/* The batch of a histogram's values, for sizing the one they are merged into. */
extern void lp_hist_batch_of(const lp_hist *h, lp_hist_batch *b);

/*
 * Add every value and count of `src` into `dst`; `steps` counts the
 * interrupt-hook steps of the caller's loop.
 */
extern int	lp_hist_merge(const lp_allocator *a, lp_hist *dst, const lp_hist *src,
						  uint32_t *steps);

/*
 * Copy a histogram's h->used pairs into `out` (room for h->used) sorted by
 * value.  Calls the interrupt hook while it sorts.
 */
extern void lp_hist_sorted(const lp_hist *h, lp_pair *out);

#ifdef LP_ASSERTS
/*
 * Check every invariant of a histogram (the dense array's size and counts,
 * the slot table's size, load, probe chains and distinct values, `used`
 * and `total` against the counts themselves): NULL when all hold, else a
 * sentence about the first that does not, written to msg[0..cap).  For
 * lp_state_check; only in LP_ASSERTS builds (lp_common.h).
 */
extern const char *lp_hist_check(const lp_hist *h, char *msg, size_t cap);
#endif

/*
 * Ask for the cache line that counting `value` (>= 0) in h will write: its
 * counter in the dense array, or else the slot its probe in the table
 * starts at (only a hint: a prefetch never faults).
 */
static LP_ALWAYS_INLINE void
lp_hist_prefetch(const lp_hist *h, int64_t value)
{
#if defined(__GNUC__)
	if ((uint64_t) value < h->dense_cap)
		__builtin_prefetch(&h->dense[value], 1);
	else if (h->slots)
		__builtin_prefetch(&h->slots[lp_hash_value(value) & h->mask], 1);
#endif
}

/* One more occurrence of `value` in h: inline while its dense slot takes it. */
static LP_ALWAYS_INLINE int
lp_hist_add_one(const lp_allocator *a, lp_hist *h, int64_t value)
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
	return lp_hist_add(a, h, value, 1);
}

/*
 * lp_hist_add, inline while the value's dense slot takes the count (a
 * decoded or merged pair; counts from 1 up).
 */
static LP_ALWAYS_INLINE int
lp_hist_add_n(const lp_allocator *a, lp_hist *h, int64_t value, uint64_t count)
{
	if ((uint64_t) value < h->dense_cap && count - 1 < (uint64_t) UINT32_MAX - h->dense[value] &&
		count <= (uint64_t) INT64_MAX - h->total)
	{
		uint32_t   *d = &h->dense[value];

		h->used += (*d == 0);
		*d += (uint32_t) count;
		h->total += count;
		return LP_OK;
	}
	return lp_hist_add(a, h, value, count);
}

#endif							/* LP_HIST_H */
