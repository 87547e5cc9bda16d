/* src/lp_codec.c -- the canonical encoding of a logp95 state: encode, validate, decode, walk, hex (plain C) */
#include "lp_codec.h"

#include <string.h>

/* See lp_codec.h. */
size_t
lp_varint_put(uint8_t *p, uint64_t v)
{
	size_t		n = lp_varint_put_inline(p, v);

	/* lp_encode reserves lp_varint_len bytes for what this writes */
	LP_ASSERT(n == lp_varint_len(v));
	return n;
}

/* See lp_codec.h. */
size_t
lp_varint_get(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
	uint64_t	x = 0;
	size_t		n = 0;

	for (;;)
	{
		uint8_t		b;

		if (p + n >= end || n >= 10)
			return 0;
		b = p[n];
		if (n == 9 && b > 1)
			return 0;			/* more than 64 bits */
		x |= (uint64_t) (b & 0x7f) << (7 * n);
		n++;
		if (!(b & 0x80))
		{
			if (n > 1 && b == 0)
				return 0;		/* overlong: not the shortest form */
			*v = x;
			return n;
		}
	}
}

/* See lp_codec.h. */
int
lp_reader_init(lp_reader *r, const uint8_t *buf, size_t len)
{
	size_t		n;

	memset(r, 0, sizeof(*r));
	if (len < 1 || (buf[0] != LP_CODEC_VERSION && buf[0] != LP_CODEC_VERSION_RED))
		return LP_ECORRUPT;
	r->version = buf[0];
	r->p = buf + 1;
	r->end = buf + len;
	if (r->version == LP_CODEC_VERSION_RED)
	{
		uint64_t	o;

		if (!(n = lp_varint_get(r->p, r->end, &o)) || (o & ~(uint64_t) LP_SOPT_ALL))
			return LP_ECORRUPT;
		r->sopts = (unsigned) o;
		r->p += n;
	}
	if (!(n = lp_varint_get(r->p, r->end, &r->malformed)) || r->malformed > INT64_MAX)
		return LP_ECORRUPT;
	r->p += n;
	if (!(n = lp_varint_get(r->p, r->end, &r->nroutes)))
		return LP_ECORRUPT;
	r->p += n;
	LP_ASSERT(r->p <= r->end);
	/* every route takes at least four bytes: keylen, npairs, pairs_len, one pair */
	if (r->nroutes > (uint64_t) (r->end - r->p) / 4)
		return LP_ECORRUPT;
	r->left = r->nroutes;
	return LP_OK;
}

/* Check a route's pairs and add up its total. */
static int
lp_check_pairs(lp_route_view *rv)
{
	const uint8_t *p = rv->pairs;
	const uint8_t *end = p + rv->pairs_len;
	uint64_t	i,
				total = 0;
	int64_t		value = 0;
	uint32_t	steps = 0;

	for (i = 0; i < rv->npairs; i++)
	{
		uint64_t	d,
					c;
		size_t		n;

		LP_CHECK_INTERRUPTS(steps);

		/*
		 * four pairs of one-byte varints (most of a route's pairs) at once:
		 * none is zero, so every delta and count is valid, and the sums (at
		 * most 508 each) cannot pass INT64_MAX from below this
		 */
		if (rv->npairs - i >= 4 && end - p >= 8 &&
			value <= INT64_MAX - 1024 && total <= (uint64_t) INT64_MAX - 1024 &&
			lp_pairs4_small(p, &d, &c))
		{
			value += (int64_t) d;
			total += c;
			p += 8;
			i += 3;
			continue;
		}
		if (!(n = lp_varint_get_fast(p, end, &d)))
			return LP_ECORRUPT;
		p += n;
		if (!(n = lp_varint_get_fast(p, end, &c)))
			return LP_ECORRUPT;
		p += n;
		if (i == 0)
		{
			if (d > INT64_MAX)
				return LP_ECORRUPT;
			value = (int64_t) d;
		}
		else
		{
			if (d == 0 || d > (uint64_t) (INT64_MAX - value))
				return LP_ECORRUPT;
			value += (int64_t) d;
		}
		if (c == 0 || c > (uint64_t) INT64_MAX - total)
			return LP_ECORRUPT;
		total += c;
	}
	if (p != end)
		return LP_ECORRUPT;
	rv->total = total;
	return LP_OK;
}

/* See lp_codec.h. */
int
lp_red_check(const lp_red *rd, uint64_t total, unsigned sopts)
{
	uint64_t	req = 0,
				out;
	int			i;

	for (i = 0; i < LP_CLASSES; i++)
	{
		if (rd->cls[i] > (uint64_t) INT64_MAX - req)
			return LP_ECORRUPT;
		req += rd->cls[i];
	}
	if (req == 0 || rd->nolat > req)
		return LP_ECORRUPT;
	out = rd->nolat;
	if (sopts & LP_SOPT_OK_LATENCY)
	{
		if (rd->cls[LP_CLASS_5XX] > req - out)
			return LP_ECORRUPT;
		out += rd->cls[LP_CLASS_5XX];
	}
	return total == req - out ? LP_OK : LP_ECORRUPT;
}

/* What lp_reader_next_route checks of a route. */
#define LP_CHECK_ROUTE	1		/* the key (no NUL byte, keys in order) */
#define LP_CHECK_PAIRS	2		/* the pairs (and rv->total is set) */

/*
 * lp_reader_next; `checks` (LP_CHECK_*) 0 skips the walk over the route's
 * pairs (leaving rv->total 0) and the checks of its key: only for input
 * that lp_validate accepted.  The lengths are checked whatever `checks`
 * says, so that a walk never leaves the buffer.
 */
static LP_ALWAYS_INLINE int
lp_reader_next_route(lp_reader *r, lp_route_view *rv, int checks)
{
	uint64_t	keylen,
				npairs,
				plen;
	size_t		n;

	if (r->left == 0)
	{
		if (r->p != r->end)
			return LP_ECORRUPT;
		/* canonical: version 2 only for something version 1 cannot say */
		if ((checks & LP_CHECK_PAIRS) && r->version == LP_CODEC_VERSION_RED &&
			r->sopts == 0 && !r->seen_red)
			return LP_ECORRUPT;
		return 0;
	}

	if (!(n = lp_varint_get_fast(r->p, r->end, &keylen)))
		return LP_ECORRUPT;
	r->p += n;
	if (keylen > (uint64_t) (r->end - r->p))
		return LP_ECORRUPT;
	rv->key = (const char *) r->p;
	rv->keylen = (size_t) keylen;
	r->p += keylen;
	if ((checks & LP_CHECK_ROUTE) && keylen && memchr(rv->key, 0, rv->keylen))
		return LP_ECORRUPT;
	if ((checks & LP_CHECK_ROUTE) && r->left != r->nroutes &&
		lp_key_cmp(r->prev, r->prevlen, rv->key, rv->keylen) >= 0)
		return LP_ECORRUPT;

	if (!(n = lp_varint_get_fast(r->p, r->end, &npairs)))
		return LP_ECORRUPT;
	r->p += n;
	if (!(n = lp_varint_get_fast(r->p, r->end, &plen)))
		return LP_ECORRUPT;
	r->p += n;
	/* a pair takes two to twenty bytes; version 2 allows a route without one */
	if ((npairs == 0 && (r->version == LP_CODEC_VERSION || plen != 0)) ||
		plen > (uint64_t) (r->end - r->p) ||
		plen < npairs * 2 || npairs > plen / 2)
		return LP_ECORRUPT;
	rv->npairs = npairs;
	rv->pairs = r->p;
	rv->pairs_len = (size_t) plen;
	r->p += plen;
	rv->total = 0;
	if ((checks & LP_CHECK_PAIRS) && lp_check_pairs(rv) != LP_OK)
		return LP_ECORRUPT;
	if (r->version == LP_CODEC_VERSION_RED)
	{
		int			i;

		rv->has_red = 1;
		for (i = 0; i < LP_CLASSES; i++)
		{
			if (!(n = lp_varint_get_fast(r->p, r->end, &rv->red.cls[i])))
				return LP_ECORRUPT;
			r->p += n;
		}
		if (!(n = lp_varint_get_fast(r->p, r->end, &rv->red.nolat)))
			return LP_ECORRUPT;
		r->p += n;
		if ((checks & LP_CHECK_PAIRS) && lp_red_check(&rv->red, rv->total, r->sopts) != LP_OK)
			return LP_ECORRUPT;
		r->seen_red |= lp_red_says(&rv->red);
	}
	else
	{
		rv->has_red = 0;
		memset(&rv->red, 0, sizeof(rv->red));
		rv->red.cls[LP_CLASS_UNKNOWN] = rv->total;
	}

	r->prev = rv->key;
	r->prevlen = rv->keylen;
	r->left--;
	/* every length was checked against what is left before it was skipped */
	LP_ASSERT(r->p <= r->end && (rv->has_red ? rv->pairs + rv->pairs_len + 7 <= r->p :
								  rv->pairs + rv->pairs_len == r->p));
	return 1;
}

/* See lp_codec.h. */
int
lp_reader_next(lp_reader *r, lp_route_view *rv)
{
	int			rc;
	uint32_t	steps = 0;

	while ((rc = lp_reader_next_route(r, rv, LP_CHECK_ROUTE | LP_CHECK_PAIRS)) == 1 &&
		   rv->npairs == 0 && !r->all)
		LP_CHECK_INTERRUPTS(steps);	/* a route with no latency: not for histogram readers */
	return rc;
}

/* See lp_codec.h. */
int
lp_reader_next_trusted(lp_reader *r, lp_route_view *rv)
{
	return lp_reader_next_route(r, rv, 0);
}

/* See lp_codec.h. */
void
lp_pairs_begin(const lp_route_view *rv, lp_pair_iter *it)
{
	it->p = rv->pairs;
	it->end = rv->pairs + rv->pairs_len;
	it->left = rv->npairs;
	it->value = 0;
}

/*
 * Walk every route of an encoding, checking each route's key, and its pairs
 * too when `check_pairs`, and stopping at the first route that is not ASCII
 * when `stop_non_ascii`: 1 when the walk reached the end, 0 when it stopped
 * at a non-ASCII route, LP_ECORRUPT when the encoding is invalid.
 */
static int
lp_walk_routes(const uint8_t *buf, size_t len, int check_pairs, int stop_non_ascii)
{
	lp_reader	r;
	lp_route_view rv;
	int			rc;
	uint32_t	steps = 0;

	if (lp_reader_init(&r, buf, len) != LP_OK)
		return LP_ECORRUPT;
	while ((rc = lp_reader_next_route(&r, &rv, LP_CHECK_ROUTE |
									  (check_pairs ? LP_CHECK_PAIRS : 0))) == 1)
	{
		LP_CHECK_INTERRUPTS(steps);
		if (stop_non_ascii && !lp_key_ascii(rv.key, rv.keylen))
			return 0;
	}
	return rc == 0 ? 1 : LP_ECORRUPT;
}

/* See lp_codec.h. */
int
lp_validate(const uint8_t *buf, size_t len)
{
	return lp_walk_routes(buf, len, 1, 0) == 1 ? LP_OK : LP_ECORRUPT;
}

/*
 * Routes of at most this many values are added as they come: sizing the
 * histogram for the batch first (lp_hist_reserve) pays for itself only when
 * the batch would otherwise grow it several times, and it costs a second
 * walk over the pairs.  Merging many small states (a rollup's minutes)
 * decodes mostly such routes.
 */
#define LP_DECODE_SMALL 16

static int	lp_decode_pairs(lp_state *st, const lp_route_view *rv, const char *key,
							size_t keylen, lp_route **out, uint64_t *before);

/* See lp_codec.h. */
int
lp_decode_route(lp_state *st, const lp_route_view *rv, const char *key, size_t keylen)
{
	lp_route   *route;
	uint64_t	before;
	int			rc;

	if (rv->has_red && (rc = lp_state_count_status(st)) != LP_OK)
		return rc;
	if (!st->status)
		return lp_decode_pairs(st, rv, key, keylen, &route, &before);
	if ((rc = lp_decode_pairs(st, rv, key, keylen, &route, &before)) != LP_OK)
		return rc;
	if (rv->has_red)
		return lp_red_add(&st->red[route->red], &rv->red);
	else
	{
		lp_red		add;

		/* version 1: every request of the route unknown */
		memset(&add, 0, sizeof(add));
		add.cls[LP_CLASS_UNKNOWN] = route->hist.total - before;
		return lp_red_add(&st->red[route->red], &add);
	}
}

/*
 * lp_decode_route's histogram part: the route (made when absent) in
 * *out, its histogram count before in *before.
 */
static int
lp_decode_pairs(lp_state *st, const lp_route_view *rv, const char *key, size_t keylen,
				lp_route **out, uint64_t *before)
{
	lp_route   *route;
	lp_pair_iter it;
	lp_hist_batch b;
	int64_t		v;
	uint64_t	c,
				total;
	uint32_t	steps = 0,
				used;
	int			rc;

	if (rv->npairs <= LP_DECODE_SMALL)
	{
		/*
		 * a small route: found by the inline probe (an absent one is made
		 * by lp_state_route), its values added straight from the bytes
		 */
		const uint8_t *p = rv->pairs;
		const uint8_t *end = p + rv->pairs_len;
		uint64_t	i,
					d;
		size_t		n;

		if ((rc = lp_state_flush(st)) != LP_OK)
			return rc;
		route = lp_route_find(st, key, keylen, lp_hash_bytes(key, keylen));
		if (!route && (rc = lp_state_route(st, key, keylen, &route)) != LP_OK)
			return rc;
		*out = route;
		*before = total = route->hist.total;
		v = 0;
		for (i = 0; i < rv->npairs; i++)
		{
			/* the view was checked by lp_reader_next or lp_validate */
			n = lp_varint_get_fast(p, end, &d);
			p += n;
			LP_ASSERT(n > 0);
			n = lp_varint_get_fast(p, end, &c);
			p += n;
			LP_ASSERT(n > 0 && c > 0 && p <= end);
			v += (int64_t) d;	/* the first delta is the value itself */
			if ((rc = lp_hist_add_n(&st->alloc, &route->hist, v, c)) != LP_OK)
				return rc;
			total += c;
		}
		LP_ASSERT(p == end && route->hist.total == total);
		return LP_OK;
	}

	/* size the route's histogram once for all its values, then add them */
	memset(&b, 0, sizeof(b));
	lp_pairs_begin(rv, &it);
	while (lp_pairs_next(&it, &v, &c))
	{
		LP_CHECK_INTERRUPTS(steps);
		lp_hist_batch_note(&b, v);
	}
	rc = lp_state_route_batch(st, key, keylen, &b, &route);
	if (rc != LP_OK)
		return rc;
	*out = route;
	*before = total = route->hist.total;
	used = route->hist.used;
	lp_pairs_begin(rv, &it);
	while (lp_pairs_next(&it, &v, &c))
	{
		LP_CHECK_INTERRUPTS(steps);
		rc = lp_hist_add_n(&st->alloc, &route->hist, v, c);
		if (rc != LP_OK)
			return rc;
		total += c;
	}
	/* every count arrived, and each of the view's values is in the route once */
	LP_ASSERT(route->hist.total == total);
	LP_ASSERT(route->hist.used >= used && route->hist.used >= b.n &&
			  route->hist.used - used <= b.n);
	return LP_OK;
}

/* See lp_codec.h. */
int
lp_decode_trusted(lp_state *st, const uint8_t *buf, size_t len)
{
	lp_reader	r;
	lp_route_view rv;
	int			rc,
				more;
	uint32_t	steps = 0;

	rc = lp_reader_init(&r, buf, len);
	LP_ASSERT(rc == LP_OK);		/* lp_validate accepted it */
	rc = lp_state_join_options(st, r.sopts, r.nroutes == 0 && r.malformed == 0);
	if (rc != LP_OK)
		return rc;
	rc = lp_state_add_malformed(st, r.malformed);
	if (rc != LP_OK)
		return rc;
	while ((more = lp_reader_next_route(&r, &rv, 0)) == 1)
	{
		LP_CHECK_INTERRUPTS(steps);
		rc = lp_decode_route(st, &rv, rv.key, rv.keylen);
		if (rc != LP_OK)
			return rc;
	}
	LP_ASSERT(more == 0 && r.p == r.end);	/* a clean end, every byte read */
	LP_ASSERT_STATE(st);
	return LP_OK;
}

/* See lp_codec.h. */
size_t
lp_strip_red(uint8_t *buf, size_t len)
{
	lp_reader	r;
	lp_route_view rv;
	size_t		w;
	uint32_t	steps = 0;
	int			rc;

	rc = lp_reader_init(&r, buf, len);
	(void) rc;
	LP_ASSERT(rc == LP_OK && r.version == LP_CODEC_VERSION_RED && r.sopts == 0);
	/* the header is one byte shorter, each route seven: writes stay behind reads */
	w = lp_put_head(buf, r.malformed, r.nroutes);
	while (lp_reader_next_route(&r, &rv, 0) == 1)
	{
		LP_CHECK_INTERRUPTS(steps);
		LP_ASSERT(!lp_red_says(&rv.red) && rv.npairs > 0);
		w += lp_varint_put(buf + w, rv.keylen);
		memmove(buf + w, rv.key, rv.keylen);
		w += rv.keylen;
		w += lp_varint_put(buf + w, rv.npairs);
		w += lp_varint_put(buf + w, rv.pairs_len);
		memmove(buf + w, rv.pairs, rv.pairs_len);
		w += rv.pairs_len;
	}
	LP_ASSERT(w < len && lp_validate(buf, w) == LP_OK);
	return w;
}

/* See lp_codec.h. */
int
lp_key_ascii(const char *key, size_t keylen)
{
	size_t		i;

	for (i = 0; i < keylen; i++)
		if ((unsigned char) key[i] >= 0x80)
			return 0;
	return 1;
}

/* See lp_codec.h. */
int
lp_routes_ascii(const uint8_t *buf, size_t len)
{
	return lp_walk_routes(buf, len, 0, 1);
}

/* See lp_codec.h. */
int
lp_decode_into(lp_state *st, const uint8_t *buf, size_t len)
{
	/* check everything first, so that a corrupt input changes nothing */
	if (lp_validate(buf, len) != LP_OK)
		return LP_ECORRUPT;
	return lp_decode_trusted(st, buf, len);
}

/* See lp_codec.h. */
size_t
lp_head_len(uint64_t malformed, uint64_t nroutes)
{
	return 1 + lp_varint_len(malformed) + lp_varint_len(nroutes);
}

/* See lp_codec.h. */
size_t
lp_put_head(uint8_t *p, uint64_t malformed, uint64_t nroutes)
{
	size_t		n = 0;

	p[n++] = LP_CODEC_VERSION;
	n += lp_varint_put(p + n, malformed);
	n += lp_varint_put(p + n, nroutes);
	return n;
}

/* See lp_codec.h. */
size_t
lp_head_red_len(unsigned sopts, uint64_t malformed, uint64_t nroutes)
{
	return 1 + lp_varint_len(sopts) + lp_varint_len(malformed) + lp_varint_len(nroutes);
}

/* See lp_codec.h. */
size_t
lp_put_head_red(uint8_t *p, unsigned sopts, uint64_t malformed, uint64_t nroutes)
{
	size_t		n = 0;

	p[n++] = LP_CODEC_VERSION_RED;
	n += lp_varint_put(p + n, sopts);
	n += lp_varint_put(p + n, malformed);
	n += lp_varint_put(p + n, nroutes);
	return n;
}

/* See lp_codec.h. */
size_t
lp_red_len(const lp_red *rd)
{
	size_t		n = lp_varint_len(rd->nolat);
	int			i;

	for (i = 0; i < LP_CLASSES; i++)
		n += lp_varint_len(rd->cls[i]);
	return n;
}

/* See lp_codec.h. */
size_t
lp_put_red(uint8_t *p, const lp_red *rd)
{
	size_t		n = 0;
	int			i;

	for (i = 0; i < LP_CLASSES; i++)
		n += lp_varint_put(p + n, rd->cls[i]);
	n += lp_varint_put(p + n, rd->nolat);
	return n;
}

/* See lp_codec.h. */
size_t
lp_route_head_len(size_t keylen, uint64_t npairs, uint64_t pairs_len)
{
	return lp_varint_len(keylen) + keylen + lp_varint_len(npairs) + lp_varint_len(pairs_len);
}

/* See lp_codec.h. */
size_t
lp_put_route_head(uint8_t *p, const char *key, size_t keylen, uint64_t npairs,
				  uint64_t pairs_len)
{
	size_t		n = lp_varint_put(p, keylen);

	if (keylen)
		memcpy(p + n, key, keylen);
	n += keylen;
	n += lp_varint_put(p + n, npairs);
	n += lp_varint_put(p + n, pairs_len);
	return n;
}

/* A growing output buffer. */
typedef struct lp_outbuf
{
	const lp_allocator *a;		/* where the buffer lives */
	uint8_t    *data;			/* bytes so far */
	size_t		len;			/* used */
	size_t		cap;			/* allocated */
	size_t		max;			/* hard limit on len */
} lp_outbuf;

/* Make room for `more` bytes. */
static int
lp_outbuf_reserve(lp_outbuf *b, size_t more)
{
	size_t		need,
				cap;
	uint8_t    *nd;

	if (more > b->max - b->len)
		return LP_ETOOBIG;
	need = b->len + more;
	if (need <= b->cap)
		return LP_OK;
	cap = b->cap ? b->cap : 256;
	while (cap < need)
		cap = cap > b->max / 2 ? b->max : cap * 2;
	nd = b->a->alloc(b->a->ctx, cap);
	if (!nd)
		return LP_ENOMEM;
	if (b->data)
	{
		memcpy(nd, b->data, b->len);
		b->a->free(b->a->ctx, b->data);
	}
	b->data = nd;
	b->cap = cap;
	return LP_OK;
}

/* The bytes pairs[0 .. np) take as deltas and counts (the encoder's exact count). */
static size_t
lp_pairs_len(const lp_pair *pairs, uint32_t np, uint32_t *steps)
{
	size_t		n = 0;
	int64_t		prev = 0;
	uint32_t	j;

	for (j = 0; j < np; j++)
	{
		LP_CHECK_INTERRUPTS(*steps);
		n += lp_pair_len((uint64_t) (pairs[j].value - prev), pairs[j].count);
		prev = pairs[j].value;
	}
	return n;
}

/* Write pairs[0 .. np) at q as deltas and counts; the bytes written. */
static LP_ALWAYS_INLINE size_t
lp_put_pairs(uint8_t *q, const lp_pair *pairs, uint32_t np, uint32_t *steps)
{
	uint8_t    *p = q;
	int64_t		prev = 0;
	uint32_t	j;

	for (j = 0; j < np; j++)
	{
		LP_CHECK_INTERRUPTS(*steps);
		p += lp_put_pair(p, (uint64_t) (pairs[j].value - prev), pairs[j].count);
		prev = pairs[j].value;
	}
	return (size_t) (p - q);
}

/* See lp_codec.h. */
int
lp_encode(const lp_state *st, const lp_allocator *a, size_t reserve,
		  size_t max_len, uint8_t **out, size_t *outlen)
{
	lp_outbuf	b = {a, NULL, 0, 0, max_len};
	const lp_route **routes = NULL;
	lp_pair    *pairs = NULL;
	uint32_t	maxpairs = 0,
				i,
				steps = 0;
	int			rc,
				red;

	/* a pending row or a deferred encoding would be left out: a caller's bug */
	if (st->npend || st->deferred)
		return LP_EINTERNAL;

	routes = a->alloc(a->ctx, (st->nroutes ? st->nroutes : 1) * sizeof(*routes));
	if (!routes)
		return LP_ENOMEM;
	lp_state_sorted_routes(st, routes);
	for (i = 0; i < st->nroutes; i++)
		if (routes[i]->hist.used > maxpairs)
			maxpairs = routes[i]->hist.used;
	pairs = a->alloc(a->ctx, (maxpairs ? maxpairs : 1) * sizeof(lp_pair));
	if (!pairs)
	{
		rc = LP_ENOMEM;
		goto done;
	}

	/* reserve exact sizes, so that an encoding of exactly max_len fits */
	if (reserve > SIZE_MAX / 2)
	{
		rc = LP_ETOOBIG;
		goto done;
	}
	/* version 2 only for what version 1 cannot say (canonical) */
	red = st->status && st->sopts != 0;
	for (i = 0; st->status && !red && i < st->nroutes; i++)
		red = lp_red_says(&st->red[routes[i]->red]);
	if ((rc = lp_outbuf_reserve(&b, reserve + (red ?
												 lp_head_red_len(st->sopts, st->malformed, st->nroutes) :
												 lp_head_len(st->malformed, st->nroutes)))) != LP_OK)
		goto done;
	b.len = reserve;
	if (red)
		b.len += lp_put_head_red(b.data + b.len, st->sopts, st->malformed, st->nroutes);
	else
		b.len += lp_put_head(b.data + b.len, st->malformed, st->nroutes);
	LP_ASSERT(b.len <= b.cap);

	for (i = 0; i < st->nroutes; i++)
	{
		const lp_route *r = routes[i];
		uint32_t	np = r->hist.used;
		size_t		plen,
					pbound,
					hbound,
					rlen,
					start;
#ifdef LP_ASSERTS
		uint32_t	j;
#endif

		LP_CHECK_INTERRUPTS(steps);
		/* what the decoder accepts: keys strictly ascending without NUL, npairs >= 1 */
		LP_ASSERT(i == 0 || lp_key_cmp(routes[i - 1]->key, routes[i - 1]->keylen,
									   r->key, r->keylen) < 0);
		LP_ASSERT(r->keylen == 0 || memchr(r->key, 0, r->keylen) == NULL);
		LP_ASSERT(np >= 1 || red);
		lp_hist_sorted(&r->hist, pairs);
		rlen = red ? lp_red_len(&st->red[r->red]) : 0;
		/*
		 * The pairs are written in one pass, after room for the longest
		 * head they could need, and the head then goes just before them:
		 * no delta passes the route's largest value, no count its total.
		 * Only when that bound does not fit below max_len are the pairs'
		 * bytes counted first, so that an encoding of exactly max_len
		 * still fits.
		 */
		pbound = np ? (size_t) np * (lp_varint_len((uint64_t) pairs[np - 1].value) +
									 lp_varint_len(r->hist.total)) : 0;
		hbound = lp_route_head_len(r->keylen, np, pbound);
		rc = lp_outbuf_reserve(&b, hbound + pbound + rlen);
		if (rc == LP_OK)
		{
			uint8_t    *pp = b.data + b.len + hbound;

			plen = lp_put_pairs(pp, pairs, np, &steps);
			LP_ASSERT(plen <= pbound);
			start = b.len;
			b.len += lp_put_route_head(b.data + b.len, r->key, r->keylen, np, plen);
			memmove(b.data + b.len, pp, plen);
			b.len += plen;
		}
		else if (rc == LP_ETOOBIG)
		{
			plen = lp_pairs_len(pairs, np, &steps);
			if ((rc = lp_outbuf_reserve(&b, lp_route_head_len(r->keylen, np, plen) + plen +
										rlen)) != LP_OK)
				goto done;
			start = b.len;
			b.len += lp_put_route_head(b.data + b.len, r->key, r->keylen, np, plen);
			b.len += lp_put_pairs(b.data + b.len, pairs, np, &steps);
		}
		else
			goto done;
#ifdef LP_ASSERTS
		{
			/* values strictly ascending from 0 on, counts >= 1 adding up to the total */
			int64_t		prev = 0;
			uint64_t	total = 0;

			for (j = 0; j < np; j++)
			{
				LP_ASSERT(pairs[j].value >= 0 && (j == 0 || pairs[j].value > prev));
				LP_ASSERT(pairs[j].count >= 1);
				total += pairs[j].count;
				prev = pairs[j].value;
			}
			LP_ASSERT(total == r->hist.total);
		}
#endif
		/* the head and the pairs took what the head says */
		LP_ASSERT(b.len - start == lp_route_head_len(r->keylen, np, plen) + plen && b.len <= b.cap);
		if (red)
			b.len += lp_put_red(b.data + b.len, &st->red[r->red]);
		LP_ASSERT(b.len <= b.cap);
	}
	/* the slack reserved for headers may overshoot the limit: check the real length */
	if (b.len > max_len)
		rc = LP_ETOOBIG;
	else
	{
		*out = b.data;
		*outlen = b.len - reserve;
		b.data = NULL;
		rc = LP_OK;
		/* the decoder takes what the encoder writes (a walk, no allocation) */
		LP_ASSERT(lp_validate(*out + reserve, *outlen) == LP_OK);
	}

done:
	if (b.data)
		a->free(a->ctx, b.data);
	if (pairs)
		a->free(a->ctx, pairs);
	a->free(a->ctx, routes);
	return rc;
}

/* See lp_codec.h. */
size_t
lp_hex_len(size_t len)
{
	return 2 + 2 * len;
}

/* See lp_codec.h. */
void
lp_hex_encode(const uint8_t *buf, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t		i;
	uint32_t	steps = 0;

	*out++ = '\\';
	*out++ = 'x';
	for (i = 0; i < len; i++)
	{
		LP_CHECK_INTERRUPTS(steps);
		*out++ = digits[buf[i] >> 4];
		*out++ = digits[buf[i] & 15];
	}
}

/* Value of a hex digit, or -1. */
static int
lp_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* See lp_codec.h. */
int
lp_hex_decode(const char *text, size_t len, uint8_t *out, size_t *outlen)
{
	size_t		i;
	uint32_t	steps = 0;

	if (len < 2 || text[0] != '\\' || text[1] != 'x' || (len - 2) % 2 != 0)
		return LP_ECORRUPT;
	for (i = 2; i < len; i += 2)
	{
		int			hi = lp_hex_digit(text[i]);
		int			lo = lp_hex_digit(text[i + 1]);

		LP_CHECK_INTERRUPTS(steps);

		if (hi < 0 || lo < 0)
			return LP_ECORRUPT;
		out[(i - 2) / 2] = (uint8_t) (hi << 4 | lo);
	}
	*outlen = (len - 2) / 2;
	return LP_OK;
}
