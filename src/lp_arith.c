/* src/lp_arith.c -- exact sum and difference of two encoded states in one ordered walk (plain C) */
#include "lp_arith.h"

/*
 * Output: the encoding is written into one buffer whose size bounds the
 * result (a sum is never longer than both inputs together, a difference
 * never longer than its first input: merging two pairs or two routes saves
 * at least the bytes a longer varint costs).  The header's route count and
 * each route's pair count and length are only known once the route (or the
 * state) is written, so room for the longest varints is left in front and
 * the bytes are moved down once it is known.
 */
typedef struct lp_out
{
	uint8_t    *buf;			/* the allocation */
	size_t		cap;			/* its size */
	size_t		len;			/* bytes written */
} lp_out;

/* Longest varint (64 bits). */
#define LP_VARINT_MAX 10

/* Room left in front of the routes: the route count. */
#define LP_HEAD_ROOM LP_VARINT_MAX

/* Room left in front of a route's pairs: its pair count and their length. */
#define LP_ROUTE_ROOM (2 * LP_VARINT_MAX)

/* Append varint v; LP_ETOOBIG when the buffer is full. */
static int
lp_out_varint(lp_out *o, uint64_t v)
{
	if (o->cap - o->len < LP_VARINT_MAX && o->cap - o->len < lp_varint_len(v))
		return LP_ETOOBIG;
	o->len += lp_varint_put(o->buf + o->len, v);
	return LP_OK;
}

/* Append n bytes; LP_ETOOBIG when the buffer is full. */
static int
lp_out_bytes(lp_out *o, const void *p, size_t n)
{
	if (o->cap - o->len < n)
		return LP_ETOOBIG;
	memcpy(o->buf + o->len, p, n);
	o->len += n;
	return LP_OK;
}

/* Skip n bytes of room; LP_ETOOBIG when the buffer is full. */
static int
lp_out_room(lp_out *o, size_t n)
{
	if (o->cap - o->len < n)
		return LP_ETOOBIG;
	o->len += n;
	return LP_OK;
}

/*
 * Close a room of `room` bytes at `at` (where lp_out_room left it): write
 * the varints v[0 .. nv) there and move the bytes after the room down.
 */
static void
lp_out_fill(lp_out *o, size_t at, size_t room, const uint64_t *v, int nv)
{
	uint8_t		head[LP_ROUTE_ROOM];
	size_t		hl = 0;
	size_t		body = o->len - (at + room);
	int			i;

	for (i = 0; i < nv; i++)
		hl += lp_varint_put(head + hl, v[i]);
	memmove(o->buf + at + hl, o->buf + at + room, body);
	memcpy(o->buf + at, head, hl);
	o->len = at + hl + body;
}

/*
 * Open the output of a walk: `bound` bytes (the rooms included), cut to
 * max_len less `reserve`, allocated after `reserve` free bytes; then the
 * header (the version, the options when `red`, the malformed count) and
 * the room for the route count at *head.  On an error nothing stays
 * allocated.
 */
static int
lp_out_open(lp_out *o, const lp_allocator *alloc, size_t reserve, size_t max_len, size_t bound,
			int red, unsigned sopts, uint64_t malformed, size_t *head)
{
	int			rc = LP_OK;

	if (reserve > max_len)
		return LP_ETOOBIG;
	if (bound > max_len - reserve)
		bound = max_len - reserve;
	o->buf = alloc->alloc(alloc->ctx, reserve + bound);
	if (o->buf == NULL)
		return LP_ENOMEM;
	o->buf += reserve;
	o->cap = bound;
	o->len = 0;

	if (o->cap < 1)
		rc = LP_ETOOBIG;
	else
		o->buf[o->len++] = red ? LP_CODEC_VERSION_RED : LP_CODEC_VERSION;
	if (rc == LP_OK && red)
		rc = lp_out_varint(o, sopts);
	if (rc == LP_OK)
		rc = lp_out_varint(o, malformed);
	*head = o->len;
	if (rc == LP_OK)
		rc = lp_out_room(o, LP_HEAD_ROOM);
	if (rc != LP_OK)
		alloc->free(alloc->ctx, o->buf - reserve);
	return rc;
}

/*
 * Close the output of a walk that ended with `rc`: on LP_OK the route
 * count into its room at `head` and the result out, as version 1 when
 * version 2 (`red`) has nothing more to say (no options, no route that
 * `says`); on an error the buffer given back.  Returns rc.
 */
static int
lp_out_close(lp_out *o, const lp_allocator *alloc, size_t reserve, int rc, size_t head,
			 uint64_t nroutes, int red, unsigned sopts, int says, uint8_t **out, size_t *outlen)
{
	if (rc != LP_OK)
	{
		alloc->free(alloc->ctx, o->buf - reserve);
		return rc;
	}
	lp_out_fill(o, head, LP_HEAD_ROOM, &nroutes, 1);
	/* canonical: version 1 when version 2 has nothing more to say */
	if (red && sopts == 0 && !says)
		o->len = lp_strip_red(o->buf, o->len);
	*out = o->buf - reserve;
	*outlen = o->len;
	return LP_OK;
}

/* Start a route: its key and the room for its pair count and length. */
static int
lp_route_begin(lp_out *o, const char *key, size_t keylen, size_t *at)
{
	int			rc;

	if ((rc = lp_out_varint(o, keylen)) != LP_OK ||
		(rc = lp_out_bytes(o, key, keylen)) != LP_OK)
		return rc;
	*at = o->len;
	return lp_out_room(o, LP_ROUTE_ROOM);
}

/* Append a route's status counts (version 2); LP_ETOOBIG when the buffer is full. */
static int
lp_out_red(lp_out *o, const lp_red *rd)
{
	if (o->cap - o->len < lp_red_len(rd))
		return LP_ETOOBIG;
	o->len += lp_put_red(o->buf + o->len, rd);
	return LP_OK;
}

/*
 * End a route begun at `at` with npairs pairs written after its room, and
 * status counts `rd` when the result is version 2 (NULL: version 1); a
 * route left with no pair (version 1) or no request (version 2) is taken
 * back whole (`start` is where its key began).  *nroutes counts the routes
 * kept, *says those whose counts need version 2.
 */
static int
lp_route_end(lp_out *o, size_t start, size_t at, uint64_t npairs, const lp_red *rd,
			 uint64_t *nroutes, int *says)
{
	uint64_t	v[2];
	int			rc;

	if (rd ? lp_red_requests(rd) == 0 : npairs == 0)
	{
		o->len = start;
		return LP_OK;
	}
	v[0] = npairs;
	v[1] = o->len - (at + LP_ROUTE_ROOM);
	if (rd)
	{
		if ((rc = lp_out_red(o, rd)) != LP_OK)
			return rc;
		*says |= lp_red_says(rd);
	}
	lp_out_fill(o, at, LP_ROUTE_ROOM, v, 2);
	(*nroutes)++;
	return LP_OK;
}

/*
 * rd + add (sign 1) or rd - add (sign -1) into *out: LP_EOVERFLOW past
 * INT64_MAX requests, LP_ENOFIT when add holds a count rd does not.
 */
static int
lp_red_combine(const lp_red *rd, const lp_red *add, int sign, lp_red *out)
{
	int			i;

	*out = *rd;
	if (sign > 0)
		return lp_red_add(out, add);
	for (i = 0; i < LP_CLASSES; i++)
	{
		if (add->cls[i] > rd->cls[i])
			return LP_ENOFIT;
		out->cls[i] -= add->cls[i];
	}
	if (add->nolat > rd->nolat)
		return LP_ENOFIT;
	out->nolat -= add->nolat;
	return LP_OK;
}

/*
 * Append pair (value, count) after the route's previous value *prev, with
 * lp_codec.h's inline writer; LP_ETOOBIG when the buffer is full.
 */
static LP_ALWAYS_INLINE int
lp_pair_put(lp_out *o, int64_t value, uint64_t count, int64_t *prev)
{
	uint64_t	d = (uint64_t) (value - *prev);

	if (o->cap - o->len < 2 * LP_VARINT_MAX && o->cap - o->len < lp_pair_len(d, count))
		return LP_ETOOBIG;
	o->len += lp_put_pair(o->buf + o->len, d, count);
	*prev = value;
	return LP_OK;
}

/* Copy a checked route view whole, with its status counts when `red`. */
static int
lp_route_copy(lp_out *o, const lp_route_view *rv, int red, uint64_t *nroutes, int *says)
{
	int			rc;

	if ((rc = lp_out_varint(o, rv->keylen)) != LP_OK ||
		(rc = lp_out_bytes(o, rv->key, rv->keylen)) != LP_OK ||
		(rc = lp_out_varint(o, rv->npairs)) != LP_OK ||
		(rc = lp_out_varint(o, rv->pairs_len)) != LP_OK ||
		(rc = lp_out_bytes(o, rv->pairs, rv->pairs_len)) != LP_OK)
		return rc;
	if (red)
	{
		if ((rc = lp_out_red(o, &rv->red)) != LP_OK)
			return rc;
		*says |= lp_red_says(&rv->red);
	}
	(*nroutes)++;
	return LP_OK;
}

/* Next route of reader r into *rv: 1, or 0 at the end, or LP_ECORRUPT. */
static int
lp_next(lp_reader *r, lp_route_view *rv)
{
	int			rc = lp_reader_next(r, rv);

	return rc < 0 ? LP_ECORRUPT : rc;
}

/*
 * The shared walk.  sign 1: a + b; sign -1: a - b, with the misfit
 * reported through *misfit.
 */
static int
lp_encoded_combine(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
				   int sign, const lp_allocator *alloc, size_t reserve,
				   size_t max_len, uint8_t **out, size_t *outlen,
				   const char **misfit, size_t *misfit_len)
{
	lp_reader	ra,
				rb;
	lp_route_view va,
				vb;
	int			ha,
				hb,
				rc;
	uint64_t	malformed,
				nroutes = 0;
	size_t		bound,
				head;
	lp_out		o;
	uint32_t	steps = 0;
	int			red,
				says = 0,
				a_empty,
				b_empty;
	unsigned	sopts;

	if (lp_reader_init(&ra, a, alen) != LP_OK || lp_reader_init(&rb, b, blen) != LP_OK)
		return LP_ECORRUPT;
	/* version 2 when either is; the options of both, unless one is empty */
	red = ra.version == LP_CODEC_VERSION_RED || rb.version == LP_CODEC_VERSION_RED;
	ra.all = rb.all = 1;
	a_empty = ra.nroutes == 0 && ra.malformed == 0;
	b_empty = rb.nroutes == 0 && rb.malformed == 0;
	if (ra.sopts != rb.sopts && !a_empty && !b_empty)
		return LP_EOPTIONS;
	sopts = a_empty ? rb.sopts : ra.sopts;
	if (sign > 0)
	{
		if (ra.malformed > (uint64_t) INT64_MAX - rb.malformed)
			return LP_EMALFORMED_OVERFLOW;
		malformed = ra.malformed + rb.malformed;
	}
	else
	{
		if (rb.malformed > ra.malformed)
		{
			*misfit = NULL;
			*misfit_len = 0;
			return LP_ENOFIT;
		}
		malformed = ra.malformed - rb.malformed;
	}

	/* the bound of the result, plus the rooms, within max_len */
	bound = alen + (sign > 0 ? blen : 0) + LP_HEAD_ROOM + LP_ROUTE_ROOM;
	if (red)
	{
		/* the options, and the status counts a version 1 route gets (7 varints) */
		uint64_t	more = LP_VARINT_MAX;

		if (ra.version == LP_CODEC_VERSION)
			more += ra.nroutes * (7 * LP_VARINT_MAX);
		if (rb.version == LP_CODEC_VERSION && sign > 0)
			more += rb.nroutes * (7 * LP_VARINT_MAX);
		bound = more > SIZE_MAX - bound ? SIZE_MAX : bound + more;
	}
	if ((rc = lp_out_open(&o, alloc, reserve, max_len, bound, red, sopts, malformed, &head)) != LP_OK)
		return rc;

	ha = lp_next(&ra, &va);
	hb = lp_next(&rb, &vb);
	while (rc == LP_OK && (ha == 1 || hb == 1))
	{
		int			c;

		LP_CHECK_INTERRUPTS(steps);
		if (ha == 1 && hb == 1)
			c = lp_key_cmp(va.key, va.keylen, vb.key, vb.keylen);
		else
			c = ha == 1 ? -1 : 1;

		if (c < 0)
		{
			/* a route of a alone */
			rc = lp_route_copy(&o, &va, red, &nroutes, &says);
			ha = rc == LP_OK ? lp_next(&ra, &va) : 0;
		}
		else if (c > 0)
		{
			/* a route of b alone: added, or a misfit */
			if (sign < 0)
			{
				*misfit = vb.key;
				*misfit_len = vb.keylen;
				rc = LP_ENOFIT;
				break;
			}
			rc = lp_route_copy(&o, &vb, red, &nroutes, &says);
			hb = rc == LP_OK ? lp_next(&rb, &vb) : 0;
		}
		else
		{
			/* the route in both: merge the values */
			lp_pair_iter ia,
						ib;
			int64_t		xa = 0,
						xb = 0,
						prev = 0;
			uint64_t	ca = 0,
						cb = 0,
						npairs = 0,
						total = 0;
			int			pa,
						pb;
			size_t		start = o.len,
						at = 0;	/* set by lp_route_begin (GCC cannot see it once lp_pairs_next is inline) */

			rc = lp_route_begin(&o, va.key, va.keylen, &at);
			lp_pairs_begin(&va, &ia);
			lp_pairs_begin(&vb, &ib);
			pa = lp_pairs_next(&ia, &xa, &ca);
			pb = lp_pairs_next(&ib, &xb, &cb);
			while (rc == LP_OK && (pa || pb))
			{
				int64_t		x;
				uint64_t	n;

				LP_CHECK_INTERRUPTS(steps);
				if (pa && (!pb || xa < xb))
				{
					x = xa;
					n = ca;
					pa = lp_pairs_next(&ia, &xa, &ca);
				}
				else if (pb && (!pa || xb < xa))
				{
					if (sign < 0)
					{
						rc = LP_ENOFIT;
						break;
					}
					x = xb;
					n = cb;
					pb = lp_pairs_next(&ib, &xb, &cb);
				}
				else
				{
					x = xa;
					if (sign > 0)
					{
						if (ca > (uint64_t) INT64_MAX - cb)
						{
							rc = LP_EOVERFLOW;
							break;
						}
						n = ca + cb;
					}
					else
					{
						if (cb > ca)
						{
							rc = LP_ENOFIT;
							break;
						}
						n = ca - cb;
					}
					pa = lp_pairs_next(&ia, &xa, &ca);
					pb = lp_pairs_next(&ib, &xb, &cb);
				}
				if (n == 0)
					continue;
				if (total > (uint64_t) INT64_MAX - n)
				{
					rc = LP_EOVERFLOW;
					break;
				}
				total += n;
				rc = lp_pair_put(&o, x, n, &prev);
				npairs++;
			}
			if (rc == LP_ENOFIT)
			{
				*misfit = vb.key;
				*misfit_len = vb.keylen;
				break;
			}
			if (rc != LP_OK)
				break;
			if (red)
			{
				lp_red		rd;

				rc = lp_red_combine(&va.red, &vb.red, sign, &rd);
				if (rc == LP_ENOFIT)
				{
					*misfit = vb.key;
					*misfit_len = vb.keylen;
					break;
				}
				if (rc == LP_OK)
					rc = lp_route_end(&o, start, at, npairs, &rd, &nroutes, &says);
			}
			else
				rc = lp_route_end(&o, start, at, npairs, NULL, &nroutes, &says);
			if (rc != LP_OK)
				break;
			ha = lp_next(&ra, &va);
			hb = lp_next(&rb, &vb);
		}
		if (ha < 0 || hb < 0)
			rc = LP_ECORRUPT;
	}

	return lp_out_close(&o, alloc, reserve, rc, head, nroutes, red, sopts, says, out, outlen);
}

/* See lp_arith.h. */
int
lp_encoded_add(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
			   const lp_allocator *alloc, size_t reserve, size_t max_len,
			   uint8_t **out, size_t *outlen)
{
	const char *misfit;
	size_t		misfit_len;

	return lp_encoded_combine(a, alen, b, blen, 1, alloc, reserve, max_len,
							  out, outlen, &misfit, &misfit_len);
}

/* See lp_arith.h. */
int
lp_encoded_subtract(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
					const lp_allocator *alloc, size_t reserve, size_t max_len,
					uint8_t **out, size_t *outlen,
					const char **misfit, size_t *misfit_len)
{
	return lp_encoded_combine(a, alen, b, blen, -1, alloc, reserve, max_len,
							  out, outlen, misfit, misfit_len);
}

/* ---------- the sum of several checked encodings in one walk ---------- */

/* A route's requests: the sum of its pairs' counts (version 1 routes read without checks). */
static uint64_t
lp_view_total(const lp_route_view *rv)
{
	lp_pair_iter it;
	int64_t		x;
	uint64_t	c,
				total = 0;

	lp_pairs_begin(rv, &it);
	while (lp_pairs_next(&it, &x, &c))
		total += c;				/* a checked route's counts add up to at most INT64_MAX */
	return total;
}

/* The status counts of input route view rv, version 1's as unknown responses. */
static void
lp_view_red(const lp_route_view *rv, uint64_t total, lp_red *rd)
{
	if (rv->has_red)
	{
		*rd = rv->red;
		return;
	}
	memset(rd, 0, sizeof(*rd));
	rd->cls[LP_CLASS_UNKNOWN] = total;
}

/* Scratch room for the pairs of one route while it is summed (lp_sum_route). */
typedef struct lp_sum_buf
{
	const lp_allocator *alloc;
	lp_pair    *p[3];			/* the sum so far, an input, the next sum */
	size_t		cap;			/* pairs each one holds */
} lp_sum_buf;

/* Room for n pairs in each buffer; LP_ENOMEM. */
static int
lp_sum_room(lp_sum_buf *b, size_t n)
{
	int			i;

	if (b->cap && n <= b->cap)
		return LP_OK;			/* (none yet even for none: memcpy wants a pointer) */
	if (n > SIZE_MAX / 2 / sizeof(lp_pair))
		return LP_ENOMEM;
	n = n < 1024 ? 1024 : n + n / 2;
	for (i = 0; i < 3; i++)
	{
		if (b->p[i])
			b->alloc->free(b->alloc->ctx, b->p[i]);
		b->p[i] = b->alloc->alloc(b->alloc->ctx, n * sizeof(lp_pair));
	}
	b->cap = (b->p[0] && b->p[1] && b->p[2]) ? n : 0;
	return b->cap ? LP_OK : LP_ENOMEM;
}

/*
 * The pairs of a checked route view into out (rv->npairs of them); the sum
 * of their counts.  Four pairs of one-byte varints (most of a route's) are
 * read from one word.
 */
static uint64_t
lp_sum_decode(const lp_route_view *rv, lp_pair *out, uint32_t *steps)
{
	const uint8_t *p = rv->pairs;
	const uint8_t *end = p + rv->pairs_len;
	uint64_t	left = rv->npairs,
				total = 0,
				d,
				c;
	int64_t		x = 0;			/* the first delta is the value itself */

	while (left)
	{
		LP_CHECK_INTERRUPTS(*steps);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		if (left >= 4 && end - p >= 8)
		{
			uint64_t	w;

			memcpy(&w, p, 8);
			if ((w & UINT64_C(0x8080808080808080)) == 0)
			{
				int			b;

				for (b = 0; b < 4; b++, w >>= 16)
				{
					x += (int64_t) (w & 0x7f);
					out->value = x;
					out->count = (w >> 8) & 0x7f;
					total += out->count;
					out++;
				}
				p += 8;
				left -= 4;
				continue;
			}
		}
#endif
		p += lp_varint_get_fast(p, end, &d);
		p += lp_varint_get_fast(p, end, &c);
		x += (int64_t) d;
		out->value = x;
		out->count = c;
		total += c;				/* a checked route's counts add up to at most INT64_MAX */
		out++;
		left--;
	}
	return total;
}

/*
 * Merge two runs of pairs in ascending order of value into out, the counts
 * of a value in both added; their number, or 0 with *overflow set when such
 * a count passes INT64_MAX.
 */
static size_t
lp_sum_merge(const lp_pair *a, size_t na, const lp_pair *b, size_t nb, lp_pair *out,
			 int *overflow, uint32_t *steps)
{
	size_t		i = 0,
				j = 0,
				n = 0;

	while (i < na && j < nb)
	{
		LP_CHECK_INTERRUPTS(*steps);
		if (a[i].value < b[j].value)
			out[n++] = a[i++];
		else if (b[j].value < a[i].value)
			out[n++] = b[j++];
		else
		{
			if (a[i].count > (uint64_t) INT64_MAX - b[j].count)
			{
				*overflow = 1;
				return 0;
			}
			out[n].value = a[i].value;
			out[n++].count = a[i++].count + b[j++].count;
		}
	}
	memcpy(out + n, a + i, (na - i) * sizeof(lp_pair));
	n += na - i;
	memcpy(out + n, b + j, (nb - j) * sizeof(lp_pair));
	return n + nb - j;
}

/*
 * The route that the inputs in `same` (a bit an input of v[]) all have: the
 * pairs of each decoded and merged into the sum of those before it, the
 * counts of equal values added, then written.
 */
static int
lp_sum_route(lp_out *o, const lp_route_view *v, unsigned same, int red, lp_sum_buf *b,
			 uint64_t *nroutes, int *says, uint32_t *steps)
{
	uint64_t	tot[LP_SUM_MAX];
	const lp_route_view *k = &v[lp_ctz32(same)];
	unsigned	l;
	size_t		n = 0,
				all = 0,
				start = o->len,
				at = 0,
				i;
	uint64_t	total = 0;
	int64_t		prev = 0;
	int			overflow = 0,
				rc;

	for (l = same; l; l &= l - 1)
		all += v[lp_ctz32(l)].npairs;
	if ((rc = lp_sum_room(b, all)) != LP_OK ||
		(rc = lp_route_begin(o, k->key, k->keylen, &at)) != LP_OK)
		return rc;
	for (l = same; l; l &= l - 1)
	{
		int			q = lp_ctz32(l);
		lp_pair    *t;

		if (l == same)
		{
			tot[q] = lp_sum_decode(&v[q], b->p[0], steps);
			n = v[q].npairs;
			continue;
		}
		tot[q] = lp_sum_decode(&v[q], b->p[1], steps);
		n = lp_sum_merge(b->p[0], n, b->p[1], v[q].npairs, b->p[2], &overflow, steps);
		if (overflow)
			return LP_EOVERFLOW;
		t = b->p[0];
		b->p[0] = b->p[2];
		b->p[2] = t;
	}
	for (i = 0; i < n && rc == LP_OK; i++)
	{
		LP_CHECK_INTERRUPTS(*steps);
		if (b->p[0][i].count > (uint64_t) INT64_MAX - total)
			return LP_EOVERFLOW;
		total += b->p[0][i].count;
		rc = lp_pair_put(o, b->p[0][i].value, b->p[0][i].count, &prev);
	}
	if (rc != LP_OK)
		return rc;
	if (!red)
		return lp_route_end(o, start, at, n, NULL, nroutes, says);
	{
		lp_red		rd,
					add;

		memset(&rd, 0, sizeof(rd));
		for (l = same; l; l &= l - 1)
		{
			int			q = lp_ctz32(l);

			lp_view_red(&v[q], tot[q], &add);
			if ((rc = lp_red_add(&rd, &add)) != LP_OK)
				return rc;
		}
		return lp_route_end(o, start, at, n, &rd, nroutes, says);
	}
}

/* See lp_arith.h. */
int
lp_encoded_sum(const uint8_t *const *in, const size_t *inlen, int n,
			   const lp_allocator *alloc, size_t reserve, size_t max_len,
			   uint8_t **out, size_t *outlen)
{
	lp_reader	r[LP_SUM_MAX];
	lp_route_view v[LP_SUM_MAX];
	unsigned	live = 0,
				sopts = 0;
	uint64_t	malformed = 0,
				nroutes = 0,
				more = LP_VARINT_MAX;
	size_t		bound = LP_HEAD_ROOM + LP_ROUTE_ROOM,
				head;
	int			red = 0,
				says = 0,
				none_yet = 1,	/* every input so far empty */
				rc = LP_OK,
				i;
	uint32_t	steps = 0;
	lp_out		o;
	lp_sum_buf	buf;

	if (n < 1 || n > LP_SUM_MAX)
		return LP_EINTERNAL;
	memset(&buf, 0, sizeof(buf));
	buf.alloc = alloc;
	for (i = 0; i < n; i++)
	{
		int			empty;

		if (lp_reader_init(&r[i], in[i], inlen[i]) != LP_OK)
			return LP_ECORRUPT;
		empty = r[i].nroutes == 0 && r[i].malformed == 0;
		/* the options, input by input as lp_state_join_options takes them */
		if (r[i].sopts != sopts)
		{
			if (none_yet)
				sopts = r[i].sopts;
			else if (!empty)
				return LP_EOPTIONS;
		}
		none_yet &= empty;
		if (r[i].malformed > (uint64_t) INT64_MAX - malformed)
			return LP_EMALFORMED_OVERFLOW;
		malformed += r[i].malformed;
		red |= r[i].version == LP_CODEC_VERSION_RED;
		/* status counts for a version 1 route, should the result be version 2 */
		if (r[i].version == LP_CODEC_VERSION)
			more += r[i].nroutes * (7 * LP_VARINT_MAX);
		bound = inlen[i] > SIZE_MAX - bound ? SIZE_MAX : bound + inlen[i];
	}
	/* the bound of lp_encoded_combine's, for n inputs: a sum is never longer than its parts */
	if (red)
		bound = more > SIZE_MAX - bound ? SIZE_MAX : bound + more;
	if ((rc = lp_out_open(&o, alloc, reserve, max_len, bound, red, sopts, malformed, &head)) != LP_OK)
		return rc;

	for (i = 0; i < n; i++)
		if (lp_reader_next_trusted(&r[i], &v[i]) == 1)
			live |= 1u << i;
	while (rc == LP_OK && live)
	{
		const lp_route_view *m = &v[lp_ctz32(live)];
		unsigned	same = live & (0u - live),
					l;

		LP_CHECK_INTERRUPTS(steps);
		/* the lowest key of the inputs' next routes, and which have it */
		for (l = live & (live - 1); l; l &= l - 1)
		{
			int			j = lp_ctz32(l);
			int			c = lp_key_cmp(v[j].key, v[j].keylen, m->key, m->keylen);

			if (c < 0)
			{
				m = &v[j];
				same = 1u << j;
			}
			else if (c == 0)
				same |= 1u << j;
		}
		if (!(same & (same - 1)))
		{
			/* a route of one input: its bytes as they are */
			lp_route_view one = *m;

			if (red && !one.has_red)
				lp_view_red(&one, lp_view_total(&one), &one.red);
			rc = lp_route_copy(&o, &one, red, &nroutes, &says);
		}
		else
			rc = lp_sum_route(&o, v, same, red, &buf, &nroutes, &says, &steps);
		for (l = same; rc == LP_OK && l; l &= l - 1)
		{
			int			j = lp_ctz32(l);
			int			h = lp_reader_next_trusted(&r[j], &v[j]);

			if (h < 0)
				rc = LP_ECORRUPT;
			else if (h == 0)
				live &= ~(1u << j);
		}
	}

	for (i = 0; i < 3; i++)
		if (buf.p[i])
			alloc->free(alloc->ctx, buf.p[i]);
	return lp_out_close(&o, alloc, reserve, rc, head, nroutes, red, sopts, says, out, outlen);
}
