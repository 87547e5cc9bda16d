/* src/lp_state.c -- per-route exact latency histograms (plain C) */
#include "lp_state.h"

#include <stdlib.h>
#include <string.h>

/* Initial capacities (powers of two) and the arena block size. */
#define LP_ROUTES_INIT		64
#define LP_HIST_INIT		16
#define LP_BLOCK_SIZE		(64 * 1024)
/* Tables never pass 2^30 slots, so uint32 arithmetic cannot wrap. */
#define LP_MAX_CAPACITY		((uint32_t) 1 << 30)

static int	lp_hist_grow(lp_state *st, lp_hist *h);
static int	lp_hist_dense_grow(lp_state *st, lp_hist *h, uint32_t cap);

/* The dense pointer of a histogram that gave its array up for good. */
static uint32_t lp_dense_off[1];

/* Non-NULL key for the empty route. */
static const char lp_empty_key[1] = "";

/* See lp_state.h: set by the PostgreSQL glue, NULL elsewhere. */
void		(*lp_interrupt_hook) (void) = NULL;

/* Fibonacci hashing of a latency value. */
static inline uint32_t
lp_hash_value(int64_t v)
{
	return (uint32_t) (((uint64_t) v * UINT64_C(0x9E3779B97F4A7C15)) >> 32);
}

int
lp_key_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t		n = alen < blen ? alen : blen;
	int			c = n ? memcmp(a, b, n) : 0;

	if (c != 0)
		return c;
	return (alen > blen) - (alen < blen);
}

/* Allocate zeroed memory from the state's allocator. */
static void *
lp_zalloc(const lp_allocator *a, size_t size)
{
	void	   *p = a->alloc(a->ctx, size);

	if (p)
		memset(p, 0, size);
	return p;
}

lp_state *
lp_state_create(const lp_allocator *alloc)
{
	lp_state   *st = lp_zalloc(alloc, sizeof(lp_state));

	if (!st)
		return NULL;
	st->alloc = *alloc;
	st->routes = lp_zalloc(alloc, LP_ROUTES_INIT * sizeof(lp_route));
	if (!st->routes)
	{
		alloc->free(alloc->ctx, st);
		return NULL;
	}
	st->mask = LP_ROUTES_INIT - 1;
	return st;
}

void
lp_state_free(lp_state *st)
{
	uint32_t	i;
	lp_block   *b;

	if (!st)
		return;
	for (i = 0; i <= st->mask; i++)
	{
		if (st->routes[i].key && st->routes[i].hist.slots)
			st->alloc.free(st->alloc.ctx, st->routes[i].hist.slots);
		if (st->routes[i].key && st->routes[i].hist.dense &&
			st->routes[i].hist.dense != lp_dense_off)
			st->alloc.free(st->alloc.ctx, st->routes[i].hist.dense);
	}
	st->alloc.free(st->alloc.ctx, st->routes);
	b = st->blocks;
	while (b)
	{
		lp_block   *next = b->next;

		st->alloc.free(st->alloc.ctx, b);
		b = next;
	}
	st->alloc.free(st->alloc.ctx, st);
}

/* Copy a key into the arena; NULL when memory runs out. */
static const char *
lp_copy_key(lp_state *st, const char *key, size_t keylen)
{
	lp_block   *b = st->blocks;
	char	   *dst;

	if (keylen == 0)
		return lp_empty_key;
	if (!b || b->size - b->used < keylen)
	{
		size_t		size = keylen > LP_BLOCK_SIZE / 4 ? keylen : LP_BLOCK_SIZE;

		if (size > SIZE_MAX - sizeof(lp_block))
			return NULL;
		b = st->alloc.alloc(st->alloc.ctx, sizeof(lp_block) + size);
		if (!b)
			return NULL;
		b->size = size;
		b->used = 0;
		if (keylen > LP_BLOCK_SIZE / 4 && st->blocks)
		{
			/* a big key gets its own block; keep filling the current one */
			b->next = st->blocks->next;
			st->blocks->next = b;
		}
		else
		{
			b->next = st->blocks;
			st->blocks = b;
		}
	}
	dst = (char *) (b + 1) + b->used;
	memcpy(dst, key, keylen);
	b->used += keylen;
	return dst;
}

/* Double the route table. */
static int
lp_routes_grow(lp_state *st)
{
	uint32_t	oldcap = st->mask + 1;
	uint32_t	newcap = oldcap * 2;
	lp_route   *nr;
	uint32_t	i;

	if (oldcap >= LP_MAX_CAPACITY)
		return LP_ETOOBIG;
	nr = lp_zalloc(&st->alloc, (size_t) newcap * sizeof(lp_route));
	if (!nr)
		return LP_ENOMEM;
	for (i = 0; i < oldcap; i++)
	{
		lp_route   *r = &st->routes[i];
		uint32_t	j;

		if (!r->key)
			continue;
		j = (uint32_t) r->hash & (newcap - 1);
		while (nr[j].key)
			j = (j + 1) & (newcap - 1);
		nr[j] = *r;
	}
	st->alloc.free(st->alloc.ctx, st->routes);
	st->routes = nr;
	st->mask = newcap - 1;
	return LP_OK;
}

lp_route *
lp_state_lookup(const lp_state *st, const char *key, size_t keylen)
{
	return lp_route_find(st, key, keylen, lp_hash_bytes(key, keylen));
}

/* Give back the arrays of a histogram that no route holds. */
static void
lp_hist_release(lp_state *st, lp_hist *h)
{
	if (h->slots)
		st->alloc.free(st->alloc.ctx, h->slots);
	if (h->dense && h->dense != lp_dense_off)
		st->alloc.free(st->alloc.ctx, h->dense);
}

/* lp_state_route, and lp_state_route_batch when `b` is not NULL. */
static int
lp_state_route_sized(lp_state *st, const char *key, size_t keylen,
					 const lp_hist_batch *b, lp_route **out)
{
	uint64_t	h;
	uint32_t	i;
	lp_route   *r;
	lp_hist		hist;
	int			rc;

	h = lp_hash_bytes(key, keylen);
	i = (uint32_t) h & st->mask;
	for (;;)
	{
		r = &st->routes[i];
		if (!r->key)
			break;
		if (r->hash == h && r->keylen == keylen && memcmp(r->key, key, keylen) == 0)
		{
			*out = r;
			return b ? lp_hist_reserve(st, &r->hist, b) : LP_OK;
		}
		i = (i + 1) & st->mask;
	}

	/*
	 * absent: get the histogram's table first, so that running out of memory
	 * never leaves a route without values (its encoding would not decode)
	 */
	memset(&hist, 0, sizeof(hist));
	if ((rc = lp_hist_grow(st, &hist)) != LP_OK)
		return rc;
	if (b && (rc = lp_hist_reserve(st, &hist, b)) != LP_OK)
	{
		lp_hist_release(st, &hist);
		return rc;
	}
	/* keep the load factor at or below 1/2, then insert */
	if ((uint64_t) (st->nroutes + 1) * 2 > (uint64_t) st->mask + 1)
	{
		if ((rc = lp_routes_grow(st)) != LP_OK)
		{
			lp_hist_release(st, &hist);
			return rc;
		}
		i = (uint32_t) h & st->mask;
		while (st->routes[i].key)
			i = (i + 1) & st->mask;
		r = &st->routes[i];
	}
	r->key = lp_copy_key(st, key, keylen);
	if (!r->key)
	{
		lp_hist_release(st, &hist);
		return LP_ENOMEM;
	}
	r->hash = h;
	r->keylen = keylen;
	r->hist = hist;
	st->nroutes++;
	*out = r;
	return LP_OK;
}

/*
 * The public ways to find or make a route add a pending pipelined row
 * first: making a route may move the route table it points into.
 */
int
lp_state_route(lp_state *st, const char *key, size_t keylen, lp_route **out)
{
	int			rc = lp_state_flush(st);

	if (rc != LP_OK)
		return rc;
	return lp_state_route_sized(st, key, keylen, NULL, out);
}

int
lp_state_route_batch(lp_state *st, const char *key, size_t keylen,
					 const lp_hist_batch *b, lp_route **out)
{
	int			rc = lp_state_flush(st);

	if (rc != LP_OK)
		return rc;
	return lp_state_route_sized(st, key, keylen, b, out);
}

/* Rebuild a histogram's slot table with `newcap` slots (a power of two that holds every value). */
static int
lp_hist_resize(lp_state *st, lp_hist *h, uint32_t newcap)
{
	uint32_t	oldcap = h->slots ? h->mask + 1 : 0;
	lp_pair    *ns;
	uint32_t	i;

	ns = lp_zalloc(&st->alloc, (size_t) newcap * sizeof(lp_pair));
	if (!ns)
		return LP_ENOMEM;
	for (i = 0; i < oldcap; i++)
	{
		lp_pair    *p = &h->slots[i];
		uint32_t	j;

		if (!p->count)
			continue;
		j = lp_hash_value(p->value) & (newcap - 1);
		while (ns[j].count)
			j = (j + 1) & (newcap - 1);
		ns[j] = *p;
	}
	if (h->slots)
		st->alloc.free(st->alloc.ctx, h->slots);
	h->slots = ns;
	h->mask = newcap - 1;
	return LP_OK;
}

/* Double (or create) a histogram's slot table. */
static int
lp_hist_grow(lp_state *st, lp_hist *h)
{
	uint32_t	oldcap = h->slots ? h->mask + 1 : 0;

	if (oldcap >= LP_MAX_CAPACITY)
		return LP_ETOOBIG;
	return lp_hist_resize(st, h, oldcap ? oldcap * 2 : LP_HIST_INIT);
}

/* Put a value known to be absent into the slot table (which has room). */
static void
lp_hist_slot_insert(lp_hist *h, int64_t value, uint64_t count)
{
	uint32_t	i = lp_hash_value(value) & h->mask;

	while (h->slots[i].count)
		i = (i + 1) & h->mask;
	h->slots[i].value = value;
	h->slots[i].count = count;
	h->hused++;
}

/*
 * Give the dense array up: a count would pass what its 32-bit slots hold
 * (2^32 - 1 of one latency in one route).  Every count moves to the slot
 * table, which holds 64-bit counts, and the histogram never makes an array
 * again.  A failure to grow the table leaves the histogram as it was.
 */
static int
lp_hist_dense_off(lp_state *st, lp_hist *h)
{
	uint32_t	i,
				n = 0;
	int			rc;

	for (i = 0; i < h->dense_cap; i++)
		n += h->dense[i] != 0;
	while (!h->slots || (uint64_t) (h->hused + n) * 4 > (uint64_t) (h->mask + 1) * 3)
	{
		if ((rc = lp_hist_grow(st, h)) != LP_OK)
			return rc;
	}
	for (i = 0; i < h->dense_cap; i++)
		if (h->dense[i])
			lp_hist_slot_insert(h, (int64_t) i, h->dense[i]);
	if (h->dense)
		st->alloc.free(st->alloc.ctx, h->dense);
	h->dense = lp_dense_off;
	h->dense_cap = 0;
	return LP_OK;
}

/*
 * Widen the dense array to `cap` values and move the slot-table values
 * below `cap` into it (the table is rebuilt without them).  When one of
 * those counts is too big for a dense slot, the array is given up instead.
 */
static int
lp_hist_dense_grow(lp_state *st, lp_hist *h, uint32_t cap)
{
	uint32_t	slotcap = h->mask + 1;
	uint32_t   *nd;
	lp_pair    *ns;
	lp_pair    *old = h->slots;
	uint32_t	i;

	for (i = 0; i < slotcap; i++)
		if (old[i].count > UINT32_MAX && (uint64_t) old[i].value < cap)
			return lp_hist_dense_off(st, h);
	nd = lp_zalloc(&st->alloc, (size_t) cap * sizeof(uint32_t));
	ns = nd ? lp_zalloc(&st->alloc, (size_t) slotcap * sizeof(lp_pair)) : NULL;

	/* get both blocks before changing anything: a failure leaves h as it was */
	if (!ns)
	{
		if (nd)
			st->alloc.free(st->alloc.ctx, nd);
		return LP_ENOMEM;
	}
	if (h->dense)
	{
		memcpy(nd, h->dense, (size_t) h->dense_cap * sizeof(uint32_t));
		st->alloc.free(st->alloc.ctx, h->dense);
	}
	h->dense = nd;
	h->dense_cap = cap;
	h->slots = ns;
	h->hused = 0;
	for (i = 0; i < slotcap; i++)
	{
		if (!old[i].count)
			continue;
		if ((uint64_t) old[i].value < cap)
			nd[old[i].value] = (uint32_t) old[i].count;	/* checked above */
		else
			lp_hist_slot_insert(h, old[i].value, old[i].count);
	}
	st->alloc.free(st->alloc.ctx, old);
	return LP_OK;
}

/* Add to a value that is not in the dense array (the slow path). */
static int
lp_hist_add_slow(lp_state *st, lp_hist *h, int64_t value, uint64_t count)
{
	uint32_t	i;
	int			rc;

	if (value < 0)
		return LP_ECORRUPT;		/* latencies are never negative: the encoding has no room for them */
	if (!h->slots && (rc = lp_hist_grow(st, h)) != LP_OK)
		return rc;
	i = lp_hash_value(value) & h->mask;
	for (;;)
	{
		lp_pair    *p = &h->slots[i];

		if (p->count == 0)
			break;
		if (p->value == value)
		{
			p->count += count;
			h->total += count;
			return LP_OK;
		}
		i = (i + 1) & h->mask;
	}

	/* a new value: may the dense array take it now? */
	if ((uint64_t) value < LP_DENSE_MAX)
	{
		uint32_t	cap = h->dense_cap ? h->dense_cap : LP_DENSE_MIN;

		while (cap <= (uint64_t) value)
			cap *= 2;
		if ((uint64_t) cap <= (uint64_t) LP_DENSE_RATIO * (h->used + 1) &&
			h->dense != lp_dense_off && count <= UINT32_MAX)
		{
			if ((rc = lp_hist_dense_grow(st, h, cap)) != LP_OK)
				return rc;
			if (h->dense != lp_dense_off)
			{
				h->dense[value] = (uint32_t) count;
				h->used++;
				h->total += count;
				return LP_OK;
			}
			/* the array was given up: on to the slot table */
		}
	}

	/* no: the slot table, keeping its load factor at or below 3/4 */
	if ((uint64_t) (h->hused + 1) * 4 > (uint64_t) (h->mask + 1) * 3)
	{
		if ((rc = lp_hist_grow(st, h)) != LP_OK)
			return rc;
	}
	lp_hist_slot_insert(h, value, count);
	h->used++;
	h->total += count;
	return LP_OK;
}

int
lp_hist_add(lp_state *st, lp_hist *h, int64_t value, uint64_t count)
{
	if (count == 0)
		return LP_OK;			/* nothing to add; a zero count marks an empty slot */
	if (count > (uint64_t) INT64_MAX - h->total)
		return LP_EOVERFLOW;
	if ((uint64_t) value < h->dense_cap)
	{
		uint32_t   *d = &h->dense[value];
		int			rc;

		if (count <= (uint64_t) (UINT32_MAX - *d))
		{
			h->used += (*d == 0);
			*d += (uint32_t) count;
			h->total += count;
			return LP_OK;
		}
		/* too big for a dense slot: every count moves to the slot table */
		if ((rc = lp_hist_dense_off(st, h)) != LP_OK)
			return rc;
	}
	return lp_hist_add_slow(st, h, value, count);
}

int
lp_hist_reserve(lp_state *st, lp_hist *h, const lp_hist_batch *b)
{
	/* the histogram will hold at least this many distinct values */
	uint64_t	used = h->used > b->n ? h->used : b->n;
	uint64_t	below = 0,
				need;
	uint32_t	cap,
				slotcap;
	int			i,
				top = -1,
				rc;

	if (!h->slots && (rc = lp_hist_grow(st, h)) != LP_OK)
		return rc;

	/* the dense array: up to the largest small value, within the density rule */
	for (i = LP_DENSE_STEPS - 1; i >= 0 && top < 0; i--)
		if (b->small[i])
			top = i;
	if (top >= 0 && h->dense != lp_dense_off)
	{
		cap = (uint32_t) LP_DENSE_MIN << top;
		while (cap > LP_DENSE_MIN && (uint64_t) cap > (uint64_t) LP_DENSE_RATIO * used)
			cap >>= 1;
		if ((uint64_t) cap <= (uint64_t) LP_DENSE_RATIO * used && cap > h->dense_cap &&
			(rc = lp_hist_dense_grow(st, h, cap)) != LP_OK)
			return rc;
	}

	/* the slot table: room for every batch value the array does not take */
	for (i = 0; i < LP_DENSE_STEPS && ((uint32_t) LP_DENSE_MIN << i) <= h->dense_cap; i++)
		below += b->small[i];
	need = (uint64_t) h->hused + (b->n - below);
	if (need > (uint64_t) LP_MAX_CAPACITY / 4 * 3)
		return LP_OK;			/* leave it to lp_hist_add to say what does not fit */
	slotcap = h->mask + 1;
	while (need * 4 > (uint64_t) slotcap * 3)
		slotcap *= 2;
	if (slotcap > h->mask + 1)
		return lp_hist_resize(st, h, slotcap);
	return LP_OK;
}

/* The batch of a histogram's values, for sizing the one they are merged into. */
static void
lp_hist_batch_of(const lp_hist *h, lp_hist_batch *b)
{
	uint32_t	j;

	memset(b, 0, sizeof(*b));
	for (j = 0; j < h->dense_cap; j++)
		if (h->dense[j])
			lp_hist_batch_note(b, (int64_t) j);
	for (j = 0; h->slots && j <= h->mask; j++)
		if (h->slots[j].count)
			lp_hist_batch_note(b, h->slots[j].value);
}

/* Add every value and count of histogram `src` into `dst` (of state st). */
static int
lp_hist_merge(lp_state *st, lp_hist *dst, const lp_hist *src, uint32_t *steps)
{
	uint32_t	j;
	int			rc;

	if (src->total > (uint64_t) INT64_MAX - dst->total)
		return LP_EOVERFLOW;
	for (j = 0; j < src->dense_cap; j++)
	{
		uint32_t	c = src->dense[j];

		LP_CHECK_INTERRUPTS(*steps);
		if (!c)
			continue;
		if (j < dst->dense_cap && (uint64_t) dst->dense[j] + c <= UINT32_MAX)
		{
			/* the common case, inline: both counts in dense arrays */
			dst->used += (dst->dense[j] == 0);
			dst->dense[j] += c;
			dst->total += c;
		}
		else if ((rc = lp_hist_add(st, dst, (int64_t) j, c)) != LP_OK)
			return rc;
	}
	for (j = 0; src->slots && j <= src->mask; j++)
	{
		const lp_pair *p = &src->slots[j];

		LP_CHECK_INTERRUPTS(*steps);
		if (p->count && (rc = lp_hist_add(st, dst, p->value, p->count)) != LP_OK)
			return rc;
	}
	return LP_OK;
}

int
lp_state_add_slow(lp_state *st, const char *key, size_t keylen, int64_t value)
{
	lp_route   *r;
	int			rc = lp_state_route(st, key, keylen, &r);	/* flushes first */

	if (rc != LP_OK)
		return rc;
	return lp_hist_add(st, &r->hist, value, 1);
}

int
lp_state_add_malformed(lp_state *st, uint64_t n)
{
	if (n > (uint64_t) INT64_MAX - st->malformed)
		return LP_EOVERFLOW;
	st->malformed += n;
	return LP_OK;
}

int
lp_state_merge(lp_state *dst, const lp_state *src)
{
	lp_hist_batch b;
	uint32_t	i,
				steps = 0;
	int			rc;

	rc = lp_state_add_malformed(dst, src->malformed);
	if (rc != LP_OK)
		return rc;
	for (i = 0; i <= src->mask; i++)
	{
		const lp_route *sr = &src->routes[i];
		lp_route   *dr;

		LP_CHECK_INTERRUPTS(steps);
		if (!sr->key)
			continue;
		lp_hist_batch_of(&sr->hist, &b);
		rc = lp_state_route_batch(dst, sr->key, sr->keylen, &b, &dr);
		if (rc != LP_OK)
			return rc;
		rc = lp_hist_merge(dst, &dr->hist, &sr->hist, &steps);
		if (rc != LP_OK)
			return rc;
	}
	return LP_OK;
}

/* Sort pairs by value, insertion sort: small runs. */
static void
lp_pairs_insertion(lp_pair *p, size_t n)
{
	size_t		i,
				j;

	for (i = 1; i < n; i++)
	{
		lp_pair		x = p[i];

		for (j = i; j > 0 && p[j - 1].value > x.value; j--)
			p[j] = p[j - 1];
		p[j] = x;
	}
}

/* Move p[root] down the max-heap p[0 .. n) to its place. */
static void
lp_pairs_sift(lp_pair *p, size_t root, size_t n)
{
	size_t		child;
	lp_pair		t;

	for (; (child = 2 * root + 1) < n; root = child)
	{
		if (child + 1 < n && p[child].value < p[child + 1].value)
			child++;
		if (p[root].value >= p[child].value)
			break;
		t = p[root];
		p[root] = p[child];
		p[child] = t;
	}
}

/* Sort pairs by value, heapsort: the introsort fallback, O(n log n) always. */
static void
lp_pairs_heapsort(lp_pair *p, size_t n, uint32_t *steps)
{
	size_t		start,
				end;
	lp_pair		t;

	for (start = n / 2; start-- > 0;)
	{
		LP_CHECK_INTERRUPTS(*steps);
		lp_pairs_sift(p, start, n);
	}
	for (end = n; end-- > 1;)
	{
		LP_CHECK_INTERRUPTS(*steps);
		t = p[0];
		p[0] = p[end];
		p[end] = t;
		lp_pairs_sift(p, 0, end);
	}
}

/*
 * Sort pairs by value (all distinct): introsort with the comparison
 * inline (qsort's indirect calls and merge buffer cost more than the sort
 * itself here).  Quicksort on the median of three, the smaller side first
 * by recursion and the larger by looping, heapsort once the depth passes
 * 2 log2(n) (so no input order is quadratic), insertion sort below 24.
 * It calls the interrupt hook as it goes: a route can hold millions of
 * values.
 */
static void
lp_pairs_sort(lp_pair *p, size_t n, int depth, uint32_t *steps)
{
	while (n > 24)
	{
		size_t		i,
					j,
					mid = n / 2;
		int64_t		pivot;
		lp_pair		t;

		if (depth-- <= 0)
		{
			lp_pairs_heapsort(p, n, steps);
			return;
		}
		/* median of three into p[mid] */
		if (p[mid].value < p[0].value)
		{
			t = p[mid];
			p[mid] = p[0];
			p[0] = t;
		}
		if (p[n - 1].value < p[mid].value)
		{
			t = p[n - 1];
			p[n - 1] = p[mid];
			p[mid] = t;
			if (p[mid].value < p[0].value)
			{
				t = p[mid];
				p[mid] = p[0];
				p[0] = t;
			}
		}
		pivot = p[mid].value;
		/* Hoare partition: [0, j] <= pivot <= [j + 1, n) */
		i = 0;
		j = n - 1;
		for (;;)
		{
			LP_CHECK_INTERRUPTS(*steps);
			while (p[i].value < pivot)
				i++;
			while (p[j].value > pivot)
				j--;
			if (i >= j)
				break;
			t = p[i];
			p[i] = p[j];
			p[j] = t;
			i++;
			j--;
		}
		if (j + 1 < n - (j + 1))
		{
			lp_pairs_sort(p, j + 1, depth, steps);
			p += j + 1;
			n -= j + 1;
		}
		else
		{
			lp_pairs_sort(p + j + 1, n - (j + 1), depth, steps);
			n = j + 1;
		}
	}
	lp_pairs_insertion(p, n);
}

void
lp_pairs_sort_values(lp_pair *p, size_t n, int depth_limit)
{
	uint32_t	steps = 0;
	size_t		m = n;

	if (depth_limit < 0)
	{
		depth_limit = 0;
		while (m >>= 1)
			depth_limit += 2;
	}
	lp_pairs_sort(p, n, depth_limit, &steps);
}

void
lp_hist_sorted(const lp_hist *h, lp_pair *out)
{
	uint32_t	i,
				n = 0,
				ndense;

	/*
	 * the dense values come first and in order; the table's are all larger.
	 * The array is mostly zeros: skip them two slots at a time (dense_cap
	 * is 0 or a power of two >= LP_DENSE_MIN, so even).
	 */
	for (i = 0; i < h->dense_cap; i += 2)
	{
		uint64_t	two;

		memcpy(&two, &h->dense[i], sizeof(two));
		if (!two)
			continue;
		if (h->dense[i])
		{
			out[n].value = i;
			out[n].count = h->dense[i];
			n++;
		}
		if (h->dense[i + 1])
		{
			out[n].value = i + 1;
			out[n].count = h->dense[i + 1];
			n++;
		}
	}
	ndense = n;
	for (i = 0; h->slots && i <= h->mask; i++)
		if (h->slots[i].count)
			out[n++] = h->slots[i];
	lp_pairs_sort_values(out + ndense, n - ndense, -1);
}

static int
lp_route_ptr_cmp(const void *a, const void *b)
{
	const lp_route *x = *(const lp_route *const *) a;
	const lp_route *y = *(const lp_route *const *) b;

	return lp_key_cmp(x->key, x->keylen, y->key, y->keylen);
}

void
lp_state_sorted_routes(const lp_state *st, const lp_route **out)
{
	uint32_t	i,
				n = 0;

	for (i = 0; i <= st->mask; i++)
		if (st->routes[i].key)
			out[n++] = &st->routes[i];
	qsort(out, n, sizeof(*out), lp_route_ptr_cmp);
}

uint64_t
lp_rank_pct(uint64_t n, unsigned k)
{
	/* floor(n*k/100) without overflow, exact for any n */
	uint64_t	idx = (n / 100) * k + ((n % 100) * k) / 100;

	return (n == 0 || idx < n) ? idx : n - 1;
}

uint64_t
lp_rank_fraction(uint64_t n, double f)
{
	double		x = (double) n * f;
	uint64_t	idx;

	if (n == 0)
		return 0;
	if (!(x >= 0))				/* also catches NaN */
		return 0;
	if (x >= (double) n)
		return n - 1;
	idx = (uint64_t) x;			/* truncation == floor for x >= 0 */
	return idx < n ? idx : n - 1;
}
