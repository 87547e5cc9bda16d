/* src/lp_state.c -- the aggregate state: a table of routes and their histograms (plain C) */
#include "lp_state.h"


/*
 * The route table is hand-written open addressing rather than PostgreSQL's
 * lib/simplehash.h: the plain C units include no PostgreSQL header, and
 * the per-row probe (lp_route_find, inline in lp_state.h) is pipelined
 * with the previous row's count, which a generated table has no hook for.
 */

/* Initial route capacity (a power of two) and the key arena's block size. */
#define LP_ROUTES_INIT		64
#define LP_BLOCK_SIZE		(64 * 1024)

/* Non-NULL key for the empty route. */
static const char lp_empty_key[1] = "";

/* See lp_state.h. */
int
lp_key_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t		n = alen < blen ? alen : blen;
	int			c = n ? memcmp(a, b, n) : 0;

	if (c != 0)
		return c;
	return (alen > blen) - (alen < blen);
}

/* See lp_state.h. */
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

/* See lp_state.h. */
void
lp_state_free(lp_state *st)
{
	uint32_t	i;
	lp_block   *b;

	if (!st)
		return;
	for (i = 0; i <= st->mask; i++)
	{
		if (st->routes[i].key)
			lp_hist_release(&st->alloc, &st->routes[i].hist);
	}
	st->alloc.free(st->alloc.ctx, st->routes);
	if (st->deferred)
		st->alloc.free(st->alloc.ctx, st->deferred);
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
	uint32_t	i,
				steps = 0;

	if (oldcap >= LP_MAX_CAPACITY)
		return LP_ETOOBIG;
	nr = lp_zalloc(&st->alloc, (size_t) newcap * sizeof(lp_route));
	if (!nr)
		return LP_ENOMEM;

	/*
	 * An interrupt here leaves the old table in place, still the whole
	 * state; the new one stays in the allocator's context, which PostgreSQL
	 * drops with the failed query (no aggregate state outlives an error in
	 * its query, savepoint or not).
	 */
	for (i = 0; i < oldcap; i++)
	{
		lp_route   *r = &st->routes[i];
		uint32_t	j;

		LP_CHECK_INTERRUPTS(steps);
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

/* See lp_state.h. */
lp_route *
lp_state_lookup(const lp_state *st, const char *key, size_t keylen)
{
	return lp_route_find(st, key, keylen, lp_hash_bytes(key, keylen));
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
			return b ? lp_hist_reserve(&st->alloc, &r->hist, b) : LP_OK;
		}
		i = (i + 1) & st->mask;
	}

	/*
	 * absent: get the histogram's table first, so that running out of memory
	 * never leaves a route without values (its encoding would not decode)
	 */
	memset(&hist, 0, sizeof(hist));
	if ((rc = lp_hist_init(&st->alloc, &hist)) != LP_OK)
		return rc;
	if (b && (rc = lp_hist_reserve(&st->alloc, &hist, b)) != LP_OK)
	{
		lp_hist_release(&st->alloc, &hist);
		return rc;
	}
	/* keep the load factor at or below 1/2, then insert */
	if ((uint64_t) (st->nroutes + 1) * 2 > (uint64_t) st->mask + 1)
	{
		if ((rc = lp_routes_grow(st)) != LP_OK)
		{
			lp_hist_release(&st->alloc, &hist);
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
		lp_hist_release(&st->alloc, &hist);
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
 * first: making a route may move the route table it points into.  See
 * lp_state.h.
 */
int
lp_state_route(lp_state *st, const char *key, size_t keylen, lp_route **out)
{
	int			rc = lp_state_flush(st);

	if (rc != LP_OK)
		return rc;
	return lp_state_route_sized(st, key, keylen, NULL, out);
}

/* See lp_state.h. */
int
lp_state_route_batch(lp_state *st, const char *key, size_t keylen,
					 const lp_hist_batch *b, lp_route **out)
{
	int			rc = lp_state_flush(st);

	if (rc != LP_OK)
		return rc;
	return lp_state_route_sized(st, key, keylen, b, out);
}

/* See lp_state.h. */
int
lp_state_add_slow(lp_state *st, const char *key, size_t keylen, int64_t value)
{
	lp_route   *r;
	int			rc = lp_state_route(st, key, keylen, &r);	/* flushes first */

	if (rc != LP_OK)
		return rc;
	return lp_hist_add(&st->alloc, &r->hist, value, 1);
}

/* See lp_state.h. */
int
lp_state_add_malformed(lp_state *st, uint64_t n)
{
	if (n > (uint64_t) INT64_MAX - st->malformed)
		return LP_EOVERFLOW;
	st->malformed += n;
	return LP_OK;
}

/* See lp_state.h. */
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
		rc = lp_hist_merge(&dst->alloc, &dr->hist, &sr->hist, &steps);
		if (rc != LP_OK)
			return rc;
	}
	return LP_OK;
}

/* Compare the keys of two routes. */
static inline int
lp_route_cmp(const lp_route *x, const lp_route *y)
{
	return lp_key_cmp(x->key, x->keylen, y->key, y->keylen);
}

/* Move p[root] down the max-heap p[0 .. n) to its place. */
static void
lp_routes_sift(const lp_route **p, size_t root, size_t n)
{
	size_t		child;
	const lp_route *t;

	for (; (child = 2 * root + 1) < n; root = child)
	{
		if (child + 1 < n && lp_route_cmp(p[child], p[child + 1]) < 0)
			child++;
		if (lp_route_cmp(p[root], p[child]) >= 0)
			break;
		t = p[root];
		p[root] = p[child];
		p[child] = t;
	}
}

/*
 * Sort route pointers by key (all keys distinct): introsort like
 * lp_pairs_sort_values (quicksort on the median of three, heapsort past
 * 2 log2 n levels, insertion below 16), calling the interrupt hook as it
 * goes.  Not qsort: glibc's qsort takes a malloc'd buffer that an
 * interrupt (a longjmp out of the comparison) would leak, and it cannot
 * be interrupted otherwise.
 */
static void
lp_routes_sort(const lp_route **p, size_t n, int depth, uint32_t *steps)
{
	const lp_route *t;
	size_t		i,
				j;

	while (n > 16)
	{
		size_t		mid = n / 2;
		const lp_route *pivot;

		if (depth-- <= 0)
		{
			for (i = n / 2; i-- > 0;)
			{
				LP_CHECK_INTERRUPTS(*steps);
				lp_routes_sift(p, i, n);
			}
			for (i = n; i-- > 1;)
			{
				LP_CHECK_INTERRUPTS(*steps);
				t = p[0];
				p[0] = p[i];
				p[i] = t;
				lp_routes_sift(p, 0, i);
			}
			return;
		}
		if (lp_route_cmp(p[mid], p[0]) < 0)
		{
			t = p[mid];
			p[mid] = p[0];
			p[0] = t;
		}
		if (lp_route_cmp(p[n - 1], p[mid]) < 0)
		{
			t = p[n - 1];
			p[n - 1] = p[mid];
			p[mid] = t;
			if (lp_route_cmp(p[mid], p[0]) < 0)
			{
				t = p[mid];
				p[mid] = p[0];
				p[0] = t;
			}
		}
		pivot = p[mid];
		i = 0;
		j = n - 1;
		for (;;)
		{
			LP_CHECK_INTERRUPTS(*steps);
			while (lp_route_cmp(p[i], pivot) < 0)
				i++;
			while (lp_route_cmp(p[j], pivot) > 0)
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
			lp_routes_sort(p, j + 1, depth, steps);
			p += j + 1;
			n -= j + 1;
		}
		else
		{
			lp_routes_sort(p + j + 1, n - (j + 1), depth, steps);
			n = j + 1;
		}
	}
	for (i = 1; i < n; i++)
	{
		t = p[i];
		for (j = i; j > 0 && lp_route_cmp(p[j - 1], t) > 0; j--)
			p[j] = p[j - 1];
		p[j] = t;
	}
}

/* See lp_state.h. */
void
lp_state_sorted_routes(const lp_state *st, const lp_route **out)
{
	uint32_t	i,
				n = 0,
				steps = 0;
	int			depth = 0;

	for (i = 0; i <= st->mask; i++)
	{
		LP_CHECK_INTERRUPTS(steps);
		if (st->routes[i].key)
			out[n++] = &st->routes[i];
	}
	for (i = n; i >>= 1;)
		depth += 2;
	lp_routes_sort(out, n, depth, &steps);
}
