/* src/lp_state.c -- the aggregate state: a table of routes and their histograms (plain C) */
#include "lp_state.h"

#ifdef LP_ASSERTS
#include <stdarg.h>
#include <stdio.h>
#endif


/*
 * The route table is hand-written open addressing rather than PostgreSQL's
 * lib/simplehash.h: the plain C units include no PostgreSQL header, and
 * the per-row probe (lp_route_find, inline in lp_state.h) is pipelined
 * with the previous row's count, which a generated table has no hook for.
 */

/* Initial route capacity (a power of two). */
#define LP_ROUTES_INIT		64

/*
 * The key arena's blocks grow with the state: the first holds
 * LP_BLOCK_FIRST bytes, each next one twice the last, up to LP_BLOCK_SIZE.
 * A state of a few routes (a GROUP BY minute of one line a group) then
 * takes a small block, not a 64 kB one, and a large state still copies its
 * keys into 64 kB blocks.  Header and bytes together are a power of two, so
 * that an allocator of power-of-two chunks wastes nothing.
 */
#define LP_BLOCK_FIRST		(256 - sizeof(lp_block))
#define LP_BLOCK_SIZE		(64 * 1024 - sizeof(lp_block))

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
	if (st->red)
		st->alloc.free(st->alloc.ctx, st->red);
	while (st->deferred)
	{
		struct lp_deferred *next = st->deferred->next;

		st->alloc.free(st->alloc.ctx, st->deferred);
		st->deferred = next;
	}
	b = st->blocks;
	while (b)
	{
		lp_block   *next = b->next;

		st->alloc.free(st->alloc.ctx, b);
		b = next;
	}
	st->alloc.free(st->alloc.ctx, st);
}

/* The size of the key block after one of `size` bytes. */
static inline size_t
lp_block_next(size_t size)
{
	if (size >= (LP_BLOCK_SIZE - sizeof(lp_block)) / 2)
		return LP_BLOCK_SIZE;
	return 2 * size + sizeof(lp_block);
}

/*
 * Copy a key into the arena; NULL when memory runs out.  A key of more than
 * a quarter of LP_BLOCK_SIZE gets a block of its own.
 */
static const char *
lp_copy_key(lp_state *st, const char *key, size_t keylen)
{
	lp_block   *b = st->blocks;
	char	   *dst;

	if (keylen == 0)
		return lp_empty_key;
	if (!b || b->size - b->used < keylen)
	{
		int			big = keylen > LP_BLOCK_SIZE / 4;
		size_t		size = big ? keylen : b ? lp_block_next(b->size) : LP_BLOCK_FIRST;

		while (size < keylen)
			size = lp_block_next(size);
		if (size > SIZE_MAX - sizeof(lp_block))
			return NULL;
		b = st->alloc.alloc(st->alloc.ctx, sizeof(lp_block) + size);
		if (!b)
			return NULL;
		b->size = size;
		b->used = 0;
		if (big && st->blocks)
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
				moved = 0,
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
		moved++;
	}
	LP_ASSERT(moved == st->nroutes);	/* every route moved, none twice */
	st->alloc.free(st->alloc.ctx, st->routes);
	st->routes = nr;
	st->mask = newcap - 1;
	return LP_OK;
}

/*
 * Room for one more route's status counts (a state that counts statuses
 * gets them before a route is inserted, so that running out of memory
 * never leaves a route without them).
 */
static int
lp_red_reserve(lp_state *st, uint32_t more)
{
	uint64_t	need = (uint64_t) st->nred + more;
	uint64_t	cap;
	lp_red	   *nr;

	if (need <= st->red_cap)
		return LP_OK;
	cap = st->red_cap ? st->red_cap : 16;
	while (cap < need)
		cap *= 2;
	if (cap > LP_MAX_CAPACITY)
		return LP_ETOOBIG;
	nr = st->alloc.alloc(st->alloc.ctx, (size_t) cap * sizeof(lp_red));
	if (!nr)
		return LP_ENOMEM;
	if (st->nred)
		memcpy(nr, st->red, (size_t) st->nred * sizeof(lp_red));
	if (st->red)
		st->alloc.free(st->alloc.ctx, st->red);
	st->red = nr;
	st->red_cap = (uint32_t) cap;
	return LP_OK;
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
	if (keylen > UINT32_MAX)
		return LP_ETOOBIG;
	if (st->status && (rc = lp_red_reserve(st, 1)) != LP_OK)
		return rc;
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
	LP_ASSERT(r->key == NULL);	/* an empty slot, the end of the probe */
	r->key = lp_copy_key(st, key, keylen);
	if (!r->key)
	{
		lp_hist_release(&st->alloc, &hist);
		return LP_ENOMEM;
	}
	r->hash = h;
	r->keylen = (uint32_t) keylen;
	r->hist = hist;
	r->red = 0;
	if (st->status)
	{
		/* room was reserved above */
		r->red = st->nred++;
		memset(&st->red[r->red], 0, sizeof(lp_red));
	}
	st->nroutes++;
	LP_ASSERT((uint64_t) st->nroutes * 2 <= (uint64_t) st->mask + 1);	/* load <= 1/2 */
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

/* See lp_state.h: the held-back rows, oldest first. */
int
lp_state_flush_rows(lp_state *st)
{
	while (st->npend > 0)
	{
		const lp_pend *p = &st->pend[(st->pend_next - st->npend) & (LP_PEND_ROWS - 1)];
		int			rc;

		st->npend--;
		if ((rc = lp_hist_add_one(&st->alloc, p->h, p->value)) != LP_OK)
			return rc;
	}
	return LP_OK;
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
lp_state_count_status(lp_state *st)
{
	uint32_t	i,
				steps = 0;
	int			rc;

	if (st->status)
		return LP_OK;
	if ((rc = lp_state_flush(st)) != LP_OK)
		return rc;
	if ((rc = lp_red_reserve(st, st->nroutes)) != LP_OK)
		return rc;
	for (i = 0; i <= st->mask; i++)
	{
		lp_route   *r = &st->routes[i];

		LP_CHECK_INTERRUPTS(steps);
		if (!r->key)
			continue;
		r->red = st->nred++;
		memset(&st->red[r->red], 0, sizeof(lp_red));
		st->red[r->red].cls[LP_CLASS_UNKNOWN] = r->hist.total;
	}
	st->status = 1;
	return LP_OK;
}

/* See lp_state.h. */
int
lp_state_join_options(lp_state *st, unsigned sopts, int other_empty)
{
	if (st->sopts != sopts)
	{
		if (lp_state_empty(st))
			st->sopts = sopts;	/* an empty state takes them */
		else if (other_empty)
			return LP_OK;
		else
			return LP_EOPTIONS;
	}
	return sopts ? lp_state_count_status(st) : LP_OK;
}

/* See lp_state.h. */
int
lp_red_add(lp_red *rd, const lp_red *add)
{
	uint64_t	have = lp_red_requests(rd);
	uint64_t	more = 0;
	int			i;

	for (i = 0; i < LP_CLASSES; i++)
	{
		if (add->cls[i] > (uint64_t) INT64_MAX - more)
			return LP_EOVERFLOW;
		more += add->cls[i];
	}
	if (more > (uint64_t) INT64_MAX - have)
		return LP_EOVERFLOW;
	for (i = 0; i < LP_CLASSES; i++)
		rd->cls[i] += add->cls[i];
	rd->nolat += add->nolat;	/* at most the requests */
	return LP_OK;
}

/* See lp_state.h. */
int
lp_state_add_status_slow(lp_state *st, const char *key, size_t keylen, int64_t value, int cls)
{
	lp_route   *r;
	lp_red	   *rd;
	int			rc;

	LP_ASSERT(st->status && cls >= 0 && cls < LP_CLASSES);
	if ((rc = lp_state_route(st, key, keylen, &r)) != LP_OK)	/* flushes first */
		return rc;
	rd = &st->red[r->red];
	if (lp_red_requests(rd) >= (uint64_t) INT64_MAX)
		return LP_EOVERFLOW;
	if (cls == LP_CLASS_5XX && (st->sopts & LP_SOPT_OK_LATENCY))
		;						/* requests and errors count it, the histogram not */
	else if (value < 0)
		rd->nolat++;
	else if ((rc = lp_hist_add_one(&st->alloc, &r->hist, value)) != LP_OK)
		return rc;
	rd->cls[cls]++;
	return LP_OK;
}

/* See lp_state.h. */
int
lp_state_add_malformed(lp_state *st, uint64_t n)
{
	if (n > (uint64_t) INT64_MAX - st->malformed)
		return LP_EMALFORMED_OVERFLOW;
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

	/* the preconditions of lp_state.h: nothing pending in src, nothing deferred in dst */
	LP_ASSERT(src != dst);
	LP_ASSERT(src->npend == 0 && dst->deferred == NULL);
	rc = lp_state_join_options(dst, src->sopts, src->nroutes == 0 && src->malformed == 0);
	if (rc != LP_OK)
		return rc;
	if (src->status && src->nroutes && (rc = lp_state_count_status(dst)) != LP_OK)
		return rc;
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
		if (dst->status)
		{
			lp_red		add;

			if (src->status)
				add = src->red[sr->red];
			else
			{
				memset(&add, 0, sizeof(add));
				add.cls[LP_CLASS_UNKNOWN] = sr->hist.total;
			}
			if ((rc = lp_red_add(&dst->red[dr->red], &add)) != LP_OK)
				return rc;
		}
		rc = lp_hist_merge(&dst->alloc, &dr->hist, &sr->hist, &steps);
		if (rc != LP_OK)
			return rc;
	}
	LP_ASSERT_STATE(dst);
	return LP_OK;
}

/* Compare the keys of two routes. */
static inline int
lp_route_cmp(const lp_route *x, const lp_route *y)
{
	return lp_key_cmp(x->key, x->keylen, y->key, y->keylen);
}

/*
 * Sort route pointers by key (all keys distinct): the introsort of
 * lp_sort_template.h, lp_routes_sort(p, n, depth, steps), calling the
 * interrupt hook as it goes.  Not qsort: glibc's qsort takes a malloc'd
 * buffer that an interrupt (a longjmp out of the comparison) would leak,
 * and it cannot be interrupted otherwise.  Runs of at most 16 routes are
 * sorted by insertion: the cut-off this sort was written with, kept as it
 * was (not tuned for routes; the pairs use LP_SORT_INSERTION_MAX).
 */
#define LP_SORT_PREFIX lp_routes
#define LP_SORT_ELEM const lp_route *
#define LP_SORT_LT(a, b) (lp_route_cmp((a), (b)) < 0)
#define LP_SORT_CUTOFF 16
#include "lp_sort_template.h"

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
	LP_ASSERT(n == st->nroutes);
	for (i = n; i >>= 1;)
		depth += 2;
	lp_routes_sort(out, n, depth, &steps);
#ifdef LP_ASSERTS
	/* sorted and unique: the order of the encoding */
	for (i = 1; i < n; i++)
		LP_ASSERT(lp_route_cmp(out[i - 1], out[i]) < 0);
#endif
}

#ifdef LP_ASSERTS
/* Write a sentence to lp_check_msg and return it. */
static char lp_check_msg[512];

static const char *
lp_check_say(const char *fmt,...) __attribute__((format(printf, 1, 2)));

static const char *
lp_check_say(const char *fmt,...)
{
	va_list		ap;
	int			n = snprintf(lp_check_msg, sizeof(lp_check_msg), "lp_state_check: ");

	va_start(ap, fmt);
	vsnprintf(lp_check_msg + n, sizeof(lp_check_msg) - n, fmt, ap);
	va_end(ap);
	return lp_check_msg;
}

/* A route's key for a message: its first 40 bytes, non-printable ones as \xNN. */
static const char *
lp_check_key(const char *key, size_t keylen, char *buf, size_t cap)
{
	size_t		i,
				o = 0;

	buf[o++] = '"';
	for (i = 0; i < keylen && i < 40 && o + 6 < cap; i++)
	{
		unsigned char c = (unsigned char) key[i];

		if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
			o += (size_t) snprintf(buf + o, cap - o, "\\x%02x", c);
		else
			buf[o++] = (char) c;
	}
	snprintf(buf + o, cap - o, i < keylen ? "...\"" : "\"");
	return buf;
}

/* See lp_state.h. */
const char *
lp_state_check(const lp_state *st)
{
	uint64_t	cap = (uint64_t) st->mask + 1;
	uint64_t	n = 0,
				keybytes = 0,
				arena = 0;
	uint32_t	pend_found = 0,
				here,
				pk;
	uint32_t	i;
	const lp_block *b;
	char		hmsg[256],
				kbuf[256];

	/* the route table: a power of two, at most half full, nroutes routes */
	if (!st->routes)
		return lp_check_say("no route table");
	if ((cap & (cap - 1)) != 0 || cap > LP_MAX_CAPACITY)
		return lp_check_say("route capacity %llu is not a power of two up to 2^30",
							(unsigned long long) cap);
	if ((uint64_t) st->nroutes * 2 > cap)
		return lp_check_say("%u routes in %llu slots: more than half full",
							st->nroutes, (unsigned long long) cap);
	if (st->malformed > (uint64_t) INT64_MAX)
		return lp_check_say("malformed count %llu past INT64_MAX",
							(unsigned long long) st->malformed);
	for (i = 0; i <= st->mask; i++)
	{
		const lp_route *r = &st->routes[i];
		const char *why;
		uint32_t	j;

		if (!r->key)
			continue;
		n++;
		keybytes += r->keylen;
		/* the hash of its key, found from its home slot, the only route with that key */
		if (r->hash != lp_hash_bytes(r->key, r->keylen))
			return lp_check_say("route %s: its hash is not the hash of its key",
								lp_check_key(r->key, r->keylen, kbuf, sizeof(kbuf)));
		for (j = (uint32_t) r->hash & st->mask; j != i; j = (j + 1) & st->mask)
		{
			const lp_route *o = &st->routes[j];

			if (!o->key)
				return lp_check_say("route %s in slot %u: an empty slot %u on its probe",
									lp_check_key(r->key, r->keylen, kbuf, sizeof(kbuf)), i, j);
			if (o->hash == r->hash && o->keylen == r->keylen &&
				memcmp(o->key, r->key, r->keylen) == 0)
				return lp_check_say("route %s in slots %u and %u",
									lp_check_key(r->key, r->keylen, kbuf, sizeof(kbuf)), j, i);
		}
		/* its histogram: made when the route was, holding at least one value */
		if (!r->hist.slots)
			return lp_check_say("route %s has no slot table",
								lp_check_key(r->key, r->keylen, kbuf, sizeof(kbuf)));
		if ((why = lp_hist_check(&r->hist, hmsg, sizeof(hmsg))) != NULL)
			return lp_check_say("route %s: %s",
								lp_check_key(r->key, r->keylen, kbuf, sizeof(kbuf)), why);
		/* the rows held back for this route: counted in its status counts already */
		for (pk = 0, here = 0; pk < st->npend && pk < LP_PEND_ROWS; pk++)
			here += st->pend[(st->pend_next - 1 - pk) & (LP_PEND_ROWS - 1)].h == &r->hist;
		pend_found += here;
		if (st->status)
		{
			const lp_red *rd;
			uint64_t	req,
						out;

			if (r->red >= st->nred)
				return lp_check_say("route %s: status counts %u of %u",
									lp_check_key(r->key, r->keylen, kbuf, sizeof(kbuf)),
									r->red, st->nred);
			rd = &st->red[r->red];
			req = lp_red_requests(rd);
			out = rd->nolat + ((st->sopts & LP_SOPT_OK_LATENCY) ? rd->cls[LP_CLASS_5XX] : 0);
			if (req == 0 || req > (uint64_t) INT64_MAX || out > req ||
				r->hist.total + here != req - out)
				return lp_check_say("route %s: %llu requests, %llu outside the histogram, %llu in it (%u held back)",
									lp_check_key(r->key, r->keylen, kbuf, sizeof(kbuf)),
									(unsigned long long) req, (unsigned long long) out,
									(unsigned long long) r->hist.total, here);
		}
		else if (r->hist.total == 0)
			return lp_check_say("route %s has no requests",
								lp_check_key(r->key, r->keylen, kbuf, sizeof(kbuf)));
	}
	if (st->sopts && !st->status)
		return lp_check_say("options %u recorded without status counts", st->sopts);
	if (st->status && st->nred < st->nroutes)
		return lp_check_say("%u status counts for %u routes", st->nred, st->nroutes);
	if (n != st->nroutes)
		return lp_check_say("nroutes %u but %llu routes in the table",
							st->nroutes, (unsigned long long) n);

	/* the rows lp_state_add_pipelined held back: each a route's */
	if (st->npend > LP_PEND_ROWS)
		return lp_check_say("%u pending rows, at most %d", st->npend, LP_PEND_ROWS);
	if (pend_found != st->npend)
		return lp_check_say("%u of %u pending rows point at no route's histogram",
							st->npend - pend_found, st->npend);
	for (pk = 0; pk < st->npend; pk++)
	{
		const lp_pend *p = &st->pend[(st->pend_next - 1 - pk) & (LP_PEND_ROWS - 1)];

		if (p->value < 0)
			return lp_check_say("a pending value %lld is negative", (long long) p->value);
	}

	/* the key arena: no block overfull, every key byte in a block */
	for (b = st->blocks; b; b = b->next)
	{
		if (b->used > b->size)
			return lp_check_say("a key block holds %zu bytes in %zu", b->used, b->size);
		arena += b->used;
	}
	if (keybytes > arena)
		return lp_check_say("%llu bytes of keys but %llu in the key blocks",
							(unsigned long long) keybytes, (unsigned long long) arena);
	return NULL;
}
#endif
