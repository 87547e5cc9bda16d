/* src/lp_run.c -- the rows of one time bucket, counted in arrival order and encoded by sorting (plain C) */
#include "lp_run.h"

#include "lp_codec.h"
#include "lp_hash.h"
#include "lp_state.h"

/* Slots of the route table at first (a power of two; load at most 1/2). */
#define LP_RUN_SLOTS_INIT	64

/* Bytes of a key block of the route arena. */
#define LP_RUN_KEY_BLOCK	4096

/* Values of one route sorted by insertion up to this many. */
#define LP_RUN_INSERTION	24

/* A route kept from run to run. */
typedef struct lp_run_route
{
	uint64_t	hash;			/* lp_hash_bytes of the key */
	const char *key;			/* the key, in the arena */
	size_t		keylen;			/* its length */
} lp_run_route;

/* One row of the run. */
typedef struct lp_run_row
{
	uint32_t	route;			/* index in routes[] */
	int64_t		value;			/* the latency, >= 0 */
} lp_run_row;

/* A value of one route while the run is encoded, made distinct by its row. */
typedef struct lp_run_val
{
	int64_t		value;			/* the latency */
	uint64_t	seq;			/* the row's place in the run */
} lp_run_val;

/* A block of the key arena. */
typedef struct lp_run_keys
{
	struct lp_run_keys *next;	/* the block before */
	size_t		used;			/* bytes handed out after the header */
	size_t		size;			/* bytes after the header */
} lp_run_keys;

/* A route and its key, for sorting the routes by key. */
typedef struct lp_run_ref
{
	const char *key;			/* the route's key */
	size_t		keylen;			/* its length */
	uint32_t	id;				/* its index in routes[] */
} lp_run_ref;

struct lp_run
{
	lp_allocator alloc;			/* every byte of the run comes from here */
	uint32_t   *slots;			/* open addressing: route index + 1, 0 empty */
	uint32_t	mask;			/* slots - 1 */
	lp_run_route *routes;		/* the routes kept, by index */
	uint32_t	nroutes;		/* how many */
	uint32_t	routes_cap;		/* room in routes[] */
	uint32_t   *rank;			/* rank[i]: place of route i in key order */
	uint32_t   *order;			/* order[k]: the route of rank k */
	uint32_t	nranked;		/* routes rank[] covers (from 0 on) */
	uint32_t   *byrank;			/* encode: rows of each rank, then offsets */
	uint32_t	rank_cap;		/* room in rank[], order[] and byrank[] */
	lp_run_keys *keys;			/* the arena of route keys, newest block first */
	lp_run_row *rows;			/* the run's rows */
	size_t		nrows;			/* how many */
	size_t		rows_cap;		/* room in rows[] */
	uint64_t	malformed;		/* malformed lines of the run */
	lp_state   *st;				/* the run's rows past LP_RUN_ROWS_MAX, or NULL */
	int			status;			/* lp_run_count_status: every row goes to st */
	unsigned	sopts;			/* and the options st records */
};

/* Sort routes by key: the introsort of lp_sort_template.h (keys are distinct). */
#define LP_SORT_PREFIX lp_run_refs
#define LP_SORT_ELEM lp_run_ref
#define LP_SORT_LT(a, b) (lp_key_cmp((a).key, (a).keylen, (b).key, (b).keylen) < 0)
#define LP_SORT_CUTOFF 16
#include "lp_sort_template.h"

/* Sort one route's values (distinct by their row). */
#define LP_SORT_PREFIX lp_run_vals
#define LP_SORT_ELEM lp_run_val
#define LP_SORT_LT(a, b) ((a).value < (b).value || ((a).value == (b).value && (a).seq < (b).seq))
#include "lp_sort_template.h"

/* The key of a route of length 0: a pointer that is not NULL. */
static const char lp_run_empty_key[1] = "";

/* 2 log2 n: the depth the introsort is given. */
static int
lp_run_depth(size_t n)
{
	int			d = 0;

	while (n >>= 1)
		d += 2;
	return d;
}

/* Forget every route kept (the run must hold no row). */
static void
lp_run_forget_routes(lp_run *r)
{
	lp_run_keys *b = r->keys;

	LP_ASSERT(r->nrows == 0);
	while (b)
	{
		lp_run_keys *next = b->next;

		r->alloc.free(r->alloc.ctx, b);
		b = next;
	}
	r->keys = NULL;
	memset(r->slots, 0, ((size_t) r->mask + 1) * sizeof(uint32_t));
	r->nroutes = 0;
	r->nranked = 0;
}

/* See lp_run.h. */
lp_run *
lp_run_create(const lp_allocator *alloc)
{
	lp_run	   *r = lp_zalloc(alloc, sizeof(lp_run));

	if (!r)
		return NULL;
	r->alloc = *alloc;
	r->slots = lp_zalloc(alloc, LP_RUN_SLOTS_INIT * sizeof(uint32_t));
	if (!r->slots)
	{
		alloc->free(alloc->ctx, r);
		return NULL;
	}
	r->mask = LP_RUN_SLOTS_INIT - 1;
	return r;
}

/* See lp_run.h. */
void
lp_run_free(lp_run *r)
{
	const lp_allocator a = r->alloc;

	r->nrows = 0;
	lp_run_forget_routes(r);
	if (r->st)
		lp_state_free(r->st);
	a.free(a.ctx, r->slots);
	if (r->routes)
		a.free(a.ctx, r->routes);
	if (r->rank)
		a.free(a.ctx, r->rank);
	if (r->order)
		a.free(a.ctx, r->order);
	if (r->byrank)
		a.free(a.ctx, r->byrank);
	if (r->rows)
		a.free(a.ctx, r->rows);
	a.free(a.ctx, r);
}

/*
 * Grow an array *p of *cap elements of `size` bytes to hold at least
 * `need` (doubling, from `first`), keeping its contents.
 */
static int
lp_run_grow(const lp_allocator *a, void **p, size_t size, size_t *cap, size_t need, size_t first)
{
	size_t		ncap = *cap ? *cap : first;
	void	   *np;

	while (ncap < need)
	{
		if (ncap > SIZE_MAX / 2 / size)
			return LP_ETOOBIG;
		ncap *= 2;
	}
	if (ncap == *cap)
		return LP_OK;
	np = a->alloc(a->ctx, ncap * size);
	if (!np)
		return LP_ENOMEM;
	if (*p)
	{
		memcpy(np, *p, *cap * size);
		a->free(a->ctx, *p);
	}
	*p = np;
	*cap = ncap;
	return LP_OK;
}

/* A copy of key[0 .. keylen) in the arena; NULL when memory runs out. */
static const char *
lp_run_copy_key(lp_run *r, const char *key, size_t keylen)
{
	lp_run_keys *b = r->keys;
	char	   *k;

	if (keylen == 0)
		return lp_run_empty_key;
	if (!b || b->size - b->used < keylen)
	{
		size_t		size = keylen > LP_RUN_KEY_BLOCK / 4 ? keylen : LP_RUN_KEY_BLOCK;

		if (size > SIZE_MAX - sizeof(lp_run_keys))
			return NULL;
		b = r->alloc.alloc(r->alloc.ctx, sizeof(lp_run_keys) + size);
		if (!b)
			return NULL;
		b->size = size;
		b->used = 0;
		/* a block of one big key goes behind the current one */
		if (size == keylen && r->keys)
		{
			b->next = r->keys->next;
			r->keys->next = b;
		}
		else
		{
			b->next = r->keys;
			r->keys = b;
		}
	}
	k = (char *) (b + 1) + b->used;
	memcpy(k, key, keylen);
	b->used += keylen;
	return k;
}

/* Double the route table's slots. */
static int
lp_run_rehash(lp_run *r)
{
	uint32_t	ncap = (r->mask + 1) * 2;
	uint32_t   *ns;
	uint32_t	i;

	if (ncap > LP_MAX_CAPACITY)
		return LP_ETOOBIG;
	ns = lp_zalloc(&r->alloc, (size_t) ncap * sizeof(uint32_t));
	if (!ns)
		return LP_ENOMEM;
	for (i = 0; i < r->nroutes; i++)
	{
		uint32_t	j = (uint32_t) r->routes[i].hash & (ncap - 1);

		while (ns[j])
			j = (j + 1) & (ncap - 1);
		ns[j] = i + 1;
	}
	r->alloc.free(r->alloc.ctx, r->slots);
	r->slots = ns;
	r->mask = ncap - 1;
	return LP_OK;
}

/* A new route at slot i (empty), the probe's end for hash h; *id set. */
static int
lp_run_new_route(lp_run *r, uint32_t i, uint64_t h, const char *key, size_t keylen, uint32_t *id)
{
	size_t		cap = r->routes_cap;
	const char *k;
	int			rc;

	if ((uint64_t) (r->nroutes + 1) * 2 > (uint64_t) r->mask + 1)
	{
		if ((rc = lp_run_rehash(r)) != LP_OK)
			return rc;
		i = (uint32_t) h & r->mask;
		while (r->slots[i])
			i = (i + 1) & r->mask;
	}
	if (r->nroutes == r->routes_cap)
	{
		if ((rc = lp_run_grow(&r->alloc, (void **) &r->routes, sizeof(lp_run_route), &cap,
							  (size_t) r->nroutes + 1, 64)) != LP_OK)
			return rc;
		r->routes_cap = (uint32_t) cap;
	}
	if (!(k = lp_run_copy_key(r, key, keylen)))
		return LP_ENOMEM;
	r->routes[r->nroutes].hash = h;
	r->routes[r->nroutes].key = k;
	r->routes[r->nroutes].keylen = keylen;
	r->slots[i] = r->nroutes + 1;
	*id = r->nroutes++;
	return LP_OK;
}

/*
 * Move the run's rows into its lp_state (made on the first call), and
 * forget the routes kept when there are many: the rows no longer name them.
 */
static int
lp_run_spill(lp_run *r)
{
	size_t		i;
	uint32_t	steps = 0;
	int			rc;

	if (!r->st && !(r->st = lp_state_create(&r->alloc)))
		return LP_ENOMEM;
	for (i = 0; i < r->nrows; i++)
	{
		const lp_run_route *rt = &r->routes[r->rows[i].route];

		LP_CHECK_INTERRUPTS(steps);
		if ((rc = lp_state_add(r->st, rt->key, rt->keylen, r->rows[i].value)) != LP_OK)
			return rc;
	}
	r->nrows = 0;
	if (r->nroutes > LP_RUN_ROUTES_KEEP)
		lp_run_forget_routes(r);
	return LP_OK;
}

/* See lp_run.h. */
int
lp_run_add(lp_run *r, const char *key, size_t keylen, int64_t value)
{
	uint64_t	h;
	uint32_t	i,
				id;
	int			rc;

	if (value < 0)
		return LP_EINTERNAL;	/* callers refuse negative latencies first, as for lp_hist_add */
	h = lp_hash_bytes(key, keylen);
	i = (uint32_t) h & r->mask;
	for (;;)
	{
		uint32_t	s = r->slots[i];
		const lp_run_route *rt;

		if (!s)
		{
			if ((rc = lp_run_new_route(r, i, h, key, keylen, &id)) != LP_OK)
				return rc;
			break;
		}
		rt = &r->routes[s - 1];
		if (rt->hash == h && rt->keylen == keylen && lp_key_eq(rt->key, key, keylen))
		{
			id = s - 1;
			break;
		}
		i = (i + 1) & r->mask;
	}
	if (r->nrows == r->rows_cap)
	{
		if (r->nrows >= LP_RUN_ROWS_MAX)
		{
			/* a long run: its rows go into an lp_state, this one after them */
			if ((rc = lp_run_spill(r)) != LP_OK)
				return rc;
			return lp_state_add(r->st, key, keylen, value);
		}
		if ((rc = lp_run_grow(&r->alloc, (void **) &r->rows, sizeof(lp_run_row), &r->rows_cap,
							  r->nrows + 1, 256)) != LP_OK)
			return rc;
	}
	r->rows[r->nrows].route = id;
	r->rows[r->nrows].value = value;
	r->nrows++;
	return LP_OK;
}

/* See lp_run.h. */
void
lp_run_count_status(lp_run *r, unsigned sopts)
{
	r->status = 1;
	r->sopts = sopts;
}

/* The state of a run that counts statuses, made with its options when absent. */
static int
lp_run_status_state(lp_run *r)
{
	int			rc;

	if (r->st)
		return LP_OK;
	if (!(r->st = lp_state_create(&r->alloc)))
		return LP_ENOMEM;
	if ((rc = lp_state_count_status(r->st)) != LP_OK ||
		(rc = lp_state_join_options(r->st, r->sopts, 0)) != LP_OK)
		return rc;
	return LP_OK;
}

/* See lp_run.h. */
int
lp_run_add_status(lp_run *r, const char *key, size_t keylen, int64_t value, int cls)
{
	int			rc;

	if (!r->status)
		return LP_EINTERNAL;
	if ((rc = lp_run_status_state(r)) != LP_OK)
		return rc;
	return lp_state_add_status(r->st, key, keylen, value, cls);
}

/* See lp_run.h. */
int
lp_run_add_malformed(lp_run *r, uint64_t n)
{
	if (n > (uint64_t) INT64_MAX - r->malformed)
		return LP_EOVERFLOW;
	r->malformed += n;
	return LP_OK;
}

/* Rank every route kept by key (after new routes came). */
static int
lp_run_rank(lp_run *r)
{
	lp_run_ref *refs;
	size_t		cap = r->rank_cap;
	uint32_t	i,
				steps = 0;
	int			rc;

	if (r->nroutes > r->rank_cap)
	{
		size_t		ocap = r->rank_cap,
					bcap = r->rank_cap;

		if ((rc = lp_run_grow(&r->alloc, (void **) &r->rank, sizeof(uint32_t), &cap,
							  r->nroutes, 64)) != LP_OK ||
			(rc = lp_run_grow(&r->alloc, (void **) &r->order, sizeof(uint32_t), &ocap,
							  r->nroutes, 64)) != LP_OK ||
			(rc = lp_run_grow(&r->alloc, (void **) &r->byrank, sizeof(uint32_t), &bcap,
							  r->nroutes, 64)) != LP_OK)
			return rc;
		LP_ASSERT(ocap == cap && bcap == cap);
		r->rank_cap = (uint32_t) cap;
	}
	refs = r->alloc.alloc(r->alloc.ctx, (size_t) r->nroutes * sizeof(lp_run_ref));
	if (!refs)
		return LP_ENOMEM;
	for (i = 0; i < r->nroutes; i++)
	{
		refs[i].key = r->routes[i].key;
		refs[i].keylen = r->routes[i].keylen;
		refs[i].id = i;
	}
	lp_run_refs_sort(refs, r->nroutes, lp_run_depth(r->nroutes), &steps);
	for (i = 0; i < r->nroutes; i++)
	{
		LP_ASSERT(i == 0 || lp_key_cmp(refs[i - 1].key, refs[i - 1].keylen,
									   refs[i].key, refs[i].keylen) < 0);
		r->rank[refs[i].id] = i;
		r->order[i] = refs[i].id;
	}
	r->alloc.free(r->alloc.ctx, refs);
	r->nranked = r->nroutes;
	return LP_OK;
}

/*
 * Write the encoding of the run into p[0 .. len): the routes in use
 * (route_of[k], their values vals[end[k - 1] .. end[k]) in order).
 */
static int
lp_run_write(lp_run *r, const lp_run_val *vals, const uint32_t *route_of, const uint32_t *end,
			 uint32_t nused, uint8_t *p, size_t len)
{
	uint32_t	k;
	uint32_t	at = 0;
	size_t		n = lp_put_head(p, r->malformed, nused);

	for (k = 0; k < nused; k++)
	{
		const lp_run_route *rt = &r->routes[route_of[k]];
		uint32_t	j,
					e = end[k];
		uint64_t	npairs = 0,
					plen = 0;
		int64_t		prev = 0;

		/* the pairs' count and length, then the route, then the pairs */
		for (j = at; j < e;)
		{
			uint32_t	m = j;

			while (m < e && vals[m].value == vals[j].value)
				m++;
			npairs++;
			plen += lp_pair_len((uint64_t) (vals[j].value - prev), m - j);
			prev = vals[j].value;
			j = m;
		}
		n += lp_put_route_head(p + n, rt->key, rt->keylen, npairs, plen);
		prev = 0;
		for (j = at; j < e;)
		{
			uint32_t	m = j;

			while (m < e && vals[m].value == vals[j].value)
				m++;
			n += lp_put_pair(p + n, (uint64_t) (vals[j].value - prev), m - j);
			prev = vals[j].value;
			j = m;
		}
		at = e;
	}
	LP_ASSERT(n == len);
	return n == len ? LP_OK : LP_EINTERNAL;
}

/*
 * Encode the run's rows (no lp_state): bucket the rows by their route's
 * rank, sort each route's values, write.
 */
static int
lp_run_encode_rows(lp_run *r, const lp_allocator *out_alloc, size_t reserve,
				   size_t max_len, uint8_t **out, size_t *outlen)
{
	lp_run_val *vals = NULL;
	uint32_t   *route_of = NULL;
	uint32_t   *end = NULL;
	uint32_t	k,
				nused = 0,
				at = 0,
				steps = 0;
	size_t		i,
				len;
	uint8_t    *buf;
	int			rc;

	if (r->nranked < r->nroutes && (rc = lp_run_rank(r)) != LP_OK)
		return rc;
	/* a counting sort of the rows by rank: counts, then offsets */
	if (r->nroutes)
		memset(r->byrank, 0, (size_t) r->nroutes * sizeof(uint32_t));
	for (i = 0; i < r->nrows; i++)
		r->byrank[r->rank[r->rows[i].route]]++;
	for (k = 0; k < r->nroutes; k++)
	{
		uint32_t	c = r->byrank[k];

		r->byrank[k] = at;
		at += c;
		nused += c > 0;
	}
	LP_ASSERT(at == r->nrows);
	vals = r->alloc.alloc(r->alloc.ctx, (r->nrows ? r->nrows : 1) * sizeof(lp_run_val));
	route_of = r->alloc.alloc(r->alloc.ctx, (nused ? nused : 1) * sizeof(uint32_t));
	end = r->alloc.alloc(r->alloc.ctx, (nused ? nused : 1) * sizeof(uint32_t));
	if (!vals || !route_of || !end)
	{
		rc = LP_ENOMEM;
		goto done;
	}
	for (i = 0; i < r->nrows; i++)
	{
		uint32_t	k2 = r->rank[r->rows[i].route];

		vals[r->byrank[k2]].value = r->rows[i].value;
		vals[r->byrank[k2]].seq = i;
		r->byrank[k2]++;
	}
	/* byrank[k] is now the end of rank k's values: the routes in use, in order */
	nused = 0;
	for (k = 0, at = 0; k < r->nroutes; k++)
	{
		if (r->byrank[k] == at)
			continue;
		route_of[nused] = r->order[k];
		end[nused] = r->byrank[k];
		nused++;
		at = r->byrank[k];
	}
	/* each route's values in order; the encoding's length */
	len = lp_head_len(r->malformed, nused);
	if (len > max_len)
	{
		rc = LP_ETOOBIG;
		goto done;
	}
	at = 0;
	for (k = 0; k < nused; k++)
	{
		const lp_run_route *rt = &r->routes[route_of[k]];
		uint32_t	j,
					e = end[k];
		uint64_t	npairs = 0,
					plen = 0;
		int64_t		prev = 0;

		LP_CHECK_INTERRUPTS(steps);
		if (e - at <= LP_RUN_INSERTION)
			lp_run_vals_insertion(vals + at, e - at);
		else
			lp_run_vals_sort(vals + at, e - at, lp_run_depth(e - at), &steps);
		for (j = at; j < e;)
		{
			uint32_t	m = j;

			while (m < e && vals[m].value == vals[j].value)
				m++;
			npairs++;
			plen += lp_pair_len((uint64_t) (vals[j].value - prev), m - j);
			prev = vals[j].value;
			j = m;
		}
		if (rt->keylen > max_len || plen > max_len ||
			lp_route_head_len(rt->keylen, npairs, plen) + plen > max_len - len)
		{
			rc = LP_ETOOBIG;
			goto done;
		}
		len += lp_route_head_len(rt->keylen, npairs, plen) + plen;
		at = e;
	}
	if (len > max_len || reserve > max_len - len)
	{
		rc = LP_ETOOBIG;
		goto done;
	}
	buf = out_alloc->alloc(out_alloc->ctx, reserve + len);
	if (!buf)
	{
		rc = LP_ENOMEM;
		goto done;
	}
	if ((rc = lp_run_write(r, vals, route_of, end, nused, buf + reserve, len)) != LP_OK)
	{
		out_alloc->free(out_alloc->ctx, buf);
		goto done;
	}
	/* the decoder takes what the encoder writes (a walk, no allocation) */
	LP_ASSERT(lp_validate(buf + reserve, len) == LP_OK);
	*out = buf;
	*outlen = len;
	rc = LP_OK;
done:
	if (vals)
		r->alloc.free(r->alloc.ctx, vals);
	if (route_of)
		r->alloc.free(r->alloc.ctx, route_of);
	if (end)
		r->alloc.free(r->alloc.ctx, end);
	return rc;
}

/* See lp_run.h. */
int
lp_run_encode(lp_run *r, const lp_allocator *out_alloc, size_t reserve,
			  size_t max_len, uint8_t **out, size_t *outlen)
{
	size_t		nrows = r->nrows;
	int			rc;

	if (r->status && (rc = lp_run_status_state(r)) != LP_OK)
		return rc;
	if (r->st)
	{
		/* a long run: the rest of its rows join the state, which is encoded */
		rc = lp_run_spill(r);
		if (rc == LP_OK)
			rc = lp_state_flush(r->st);	/* lp_state_add_status holds rows back */
		if (rc == LP_OK)
			rc = lp_state_add_malformed(r->st, r->malformed);
		if (rc == LP_OK)
			rc = lp_encode(r->st, out_alloc, reserve, max_len, out, outlen);
		lp_state_free(r->st);
		r->st = NULL;
	}
	else
		rc = lp_run_encode_rows(r, out_alloc, reserve, max_len, out, outlen);

	/* the next run starts empty; the routes stay unless they are too many */
	r->nrows = 0;
	r->malformed = 0;
	if (r->nroutes > LP_RUN_ROUTES_KEEP && r->nroutes / 8 > nrows)
		lp_run_forget_routes(r);
	return rc;
}
