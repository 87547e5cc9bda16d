/* src/lp_state.h -- the aggregate state: a table of routes and their histograms (plain C) */
#ifndef LP_STATE_H
#define LP_STATE_H

#include "lp_common.h"
#include "lp_hash.h"
#include "lp_hist.h"
#include "lp_simd.h"

/*
 * Status classes of a route's responses (issue 24, RED): 1xx .. 5xx, and
 * unknown for a line whose format has no status, a status outside
 * 100-599, and every request of a state that counted no statuses.
 */
#define LP_CLASSES		6
#define LP_CLASS_5XX	4
#define LP_CLASS_UNKNOWN 5

/* The class of an HTTP status as logged (LP_CLASS_UNKNOWN outside 100-599). */
static inline int
lp_status_class(int status)
{
	return status >= 100 && status <= 599 ? status / 100 - 1 : LP_CLASS_UNKNOWN;
}

/*
 * Options recorded in a state (lp_state.sopts), because they change what
 * its counts mean: two states merge only when they record the same ones.
 */
#define LP_SOPT_METHOD		0x01	/* routes are keyed "METHOD route" */
#define LP_SOPT_OK_LATENCY	0x02	/* 5xx responses are left out of the histograms */
#define LP_SOPT_ALL			0x03

/*
 * The status counts of one route, kept when the state counts statuses
 * (lp_state.status).  requests = the sum of cls; the histogram holds
 * requests - nolat - (LP_SOPT_OK_LATENCY ? cls[LP_CLASS_5XX] : 0).
 */
typedef struct lp_red
{
	uint64_t	cls[LP_CLASSES];	/* responses per class: 1xx .. 5xx, unknown */
	uint64_t	nolat;			/* lines without a latency, not in the
								 * histogram (with ok_latency: other than 5xx) */
} lp_red;

/*
 * One route: its key (copied once into the state's arena) and histogram.
 * 64 bytes: the key's length and the status counts' index share a word.
 */
typedef struct lp_route
{
	uint64_t	hash;			/* hash of the key */
	const char *key;			/* route bytes, NULL marks an empty slot */
	uint32_t	keylen;			/* length of key (a key is at most 1 GB) */
	uint32_t	red;			/* when the state counts statuses: the route's
								 * counts, st->red[red] */
	lp_hist		hist;			/* the route's latencies */
} lp_route;

/* An arena block that holds copied route keys. */
typedef struct lp_block
{
	struct lp_block *next;		/* older block */
	size_t		used;			/* bytes handed out */
	size_t		size;			/* bytes available after the header */
} lp_block;

/*
 * A row lp_state_add_pipelined counted but did not add yet: the histogram
 * (inside the route table) and the value, which was inside its dense
 * array when the row came.
 */
typedef struct lp_pend
{
	lp_hist    *h;
	int64_t		value;
} lp_pend;

/*
 * How many rows lp_state_add_pipelined holds back, a power of two: each
 * counter's cache line is prefetched that many rows before it is written,
 * so that on long-tailed latencies, whose counters the scan keeps pushing
 * out of the cache, the misses of several rows overlap instead of each
 * stalling its own (docs/performance.md, "Long tails").
 */
#define LP_PEND_ROWS	8

/*
 * The link of lp_partial.c's chain of deferred encodings: each one is a
 * block of the state's allocator that starts with this (lp_partial.c
 * defines the rest and is the only one to read it); lp_state_free gives
 * the chain back.
 */
struct lp_deferred
{
	struct lp_deferred *next;	/* the one deferred before it, or NULL */
};

/* The whole aggregate state. */
typedef struct lp_state
{
	lp_allocator alloc;			/* where every byte of the state comes from */
	lp_route   *routes;			/* open-addressing table of routes */
	uint32_t	mask;			/* route capacity - 1 */
	uint32_t	nroutes;		/* routes stored */
	uint64_t	malformed;		/* lines skipped as malformed */
	lp_block   *blocks;			/* arena for route keys */
	uint32_t	npend;			/* rows lp_state_add_pipelined holds back (pend) */
	uint32_t	pend_next;		/* where the next one goes, mod LP_PEND_ROWS */
	lp_pend		pend[LP_PEND_ROWS]; /* the rows not added yet: pend_next - npend
									 * .. pend_next - 1, mod LP_PEND_ROWS */
	struct lp_deferred *deferred;	/* owned by lp_partial.c: the encodings
									 * that are part of the state but not
									 * decoded yet, newest first, or NULL */
	int			status;			/* 1: every route has status counts (red) */
	unsigned	sopts;			/* LP_SOPT_* recorded (only with status) */
	lp_red	   *red;			/* the routes' status counts, by lp_route.red */
	uint32_t	nred;			/* entries used */
	uint32_t	red_cap;		/* entries allocated */
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

/*
 * Make the state count statuses: every route gets status counts, its
 * requests so far counted as unknown.  Nothing changes when it does.
 */
extern int	lp_state_count_status(lp_state *st);

/* Is the state empty: no route, no malformed line, nothing deferred or pending? */
static inline int
lp_state_empty(const lp_state *st)
{
	return st->nroutes == 0 && st->malformed == 0 && !st->deferred && !st->npend;
}

/*
 * Join options `sopts` (LP_SOPT_*) of what is added to the state: the
 * same as the state's, or either side empty (`other_empty`, or the state
 * itself, which then takes them); LP_EOPTIONS otherwise.  Options make
 * the state count statuses.
 */
extern int	lp_state_join_options(lp_state *st, unsigned sopts, int other_empty);

/*
 * lp_state_join_options for the per-row path, which also makes the state
 * count statuses: one test when it already does with these options.
 */
static LP_ALWAYS_INLINE int
lp_state_use_options(lp_state *st, unsigned sopts)
{
	int			rc;

	if (st->status && st->sopts == sopts)
		return LP_OK;
	if ((rc = lp_state_join_options(st, sopts, 0)) != LP_OK)
		return rc;
	return lp_state_count_status(st);
}

/*
 * Count one response of class `cls` (lp_status_class) on route `key` of a
 * state that counts statuses (lp_state_use_options): with latency `value`
 * (milliseconds), or without one when value < 0.  The histogram gets the
 * value unless the state records LP_SOPT_OK_LATENCY and cls is 5xx.
 * LP_EOVERFLOW when the route's requests would pass INT64_MAX.
 */
static LP_ALWAYS_INLINE int lp_state_add_status(lp_state *st, const char *key, size_t keylen,
												int64_t value, int cls);

/* lp_state_add_status's out-of-line path: a new route, a count near INT64_MAX. */
extern int	lp_state_add_status_slow(lp_state *st, const char *key, size_t keylen,
									 int64_t value, int cls);

/* The requests of a route's status counts (at most INT64_MAX: checked when counted). */
static inline uint64_t
lp_red_requests(const lp_red *rd)
{
	uint64_t	n = 0;
	int			i;

	for (i = 0; i < LP_CLASSES; i++)
		n += rd->cls[i];
	return n;
}

/*
 * Add status counts `add` into `rd`; LP_EOVERFLOW when the requests would
 * pass INT64_MAX (nothing added then).
 */
extern int	lp_red_add(lp_red *rd, const lp_red *add);

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
 * counts, distinct values, totals), the rows held back and the key arena.
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

#ifdef LP_SIMD_SSE2
	if (n - 16 <= 16)
		return lp_eq_16_32(a, b, n);	/* 16 <= n <= 32: most routes */
#endif
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
 * Add the rows that lp_state_add_pipelined left pending, if any.  Every
 * reader of a state that lp_state_add_pipelined fed calls this first (the
 * PostgreSQL glue does, in the final, serialize and combine functions),
 * and so does everything that may move the route table the rows point into.
 */
extern int	lp_state_flush_rows(lp_state *st);

static LP_ALWAYS_INLINE int
lp_state_flush(lp_state *st)
{
	if (st->npend == 0)
		return LP_OK;
	return lp_state_flush_rows(st);
}

/*
 * Hold back the row (h, value >= 0) of a known route, whose counter's
 * cache line the caller just prefetched (lp_hist_prefetch); once
 * LP_PEND_ROWS rows are held, add the oldest (lp_hist_add_one, which
 * finds the value's place again: the histogram may have grown its array
 * or its slot table since), so the counts are lp_hist_add's.
 */
static LP_ALWAYS_INLINE int
lp_state_pend(lp_state *st, lp_hist *h, int64_t value)
{
	lp_pend    *p = &st->pend[st->pend_next++ & (LP_PEND_ROWS - 1)];
	lp_pend		old = *p;

	p->h = h;
	p->value = value;
	if (st->npend < LP_PEND_ROWS)
	{
		st->npend++;
		return LP_OK;
	}
	return lp_hist_add_one(&st->alloc, old.h, old.value);
}

/*
 * lp_state_add for the per-row loop, LP_PEND_ROWS rows behind: a known
 * route is only looked up now, with the cache line of the value's counter
 * prefetched (in the dense array, or the slot the table probes first),
 * and counted LP_PEND_ROWS rows later (lp_state_pend, or lp_state_flush);
 * the counter loads then overlap the work of the rows between instead of
 * stalling their own.  The pending rows point into the route table, so a
 * new route (which may move it) flushes them first (lp_state_add_slow).
 * The counts are the same as lp_state_add's once flushed.
 */
static LP_ALWAYS_INLINE int
lp_state_add_pipelined(lp_state *st, const char *key, size_t keylen, int64_t value)
{
	lp_route   *r = lp_route_find(st, key, keylen, lp_hash_bytes(key, keylen));

	if (!r || value < 0)		/* a negative value: lp_hist_add's error at once */
		return lp_state_add_slow(st, key, keylen, value);
	lp_hist_prefetch(&r->hist, value);
	return lp_state_pend(st, &r->hist, value);
}

/*
 * See its declaration above: the per-row path of a state that counts
 * statuses, pipelined as lp_state_add_pipelined (the histogram's count
 * LP_PEND_ROWS rows behind, its cache line prefetched); the status counts
 * at once.
 */
static LP_ALWAYS_INLINE int
lp_state_add_status(lp_state *st, const char *key, size_t keylen, int64_t value, int cls)
{
	lp_route   *r = lp_route_find(st, key, keylen, lp_hash_bytes(key, keylen));
	lp_red	   *rd;

	if (!r)
		return lp_state_add_status_slow(st, key, keylen, value, cls);
	LP_ASSERT(st->status && cls >= 0 && cls < LP_CLASSES && r->red < st->nred);
	rd = &st->red[r->red];
	if (lp_red_requests(rd) >= (uint64_t) INT64_MAX)
		return LP_EOVERFLOW;
	if (cls == LP_CLASS_5XX && (st->sopts & LP_SOPT_OK_LATENCY))
	{
		rd->cls[cls]++;			/* requests and errors count it, the histogram not */
		return LP_OK;
	}
	if (value < 0)
	{
		rd->cls[cls]++;
		rd->nolat++;
		return LP_OK;
	}
	rd->cls[cls]++;				/* and the histogram's count LP_PEND_ROWS rows later */
	lp_hist_prefetch(&r->hist, value);
	return lp_state_pend(st, &r->hist, value);
}

#endif							/* LP_STATE_H */
