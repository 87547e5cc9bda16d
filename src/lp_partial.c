/* src/lp_partial.c -- partial states kept encoded until they are merged (plain C) */
#include "lp_partial.h"

#include "lp_arith.h"

/* See lp_partial.h. */
size_t		lp_defer_budget = LP_DEFER_BYTES;

/*
 * One deferred encoding: a block of the state's allocator that starts with
 * lp_state.h's link (the chain runs newest first); a copied encoding's bytes
 * follow it in the same block.
 */
typedef struct lp_deferred_enc
{
	struct lp_deferred link;	/* must come first */
	const uint8_t *buf;			/* an encoding lp_validate accepted */
	size_t		len;			/* its length */
} lp_deferred_enc;

/*
 * The encodings `st` deferred, oldest first, into e[] (LP_DEFER_MAX at
 * most); their number, and their bytes into *bytes when it is not NULL.
 */
static int
lp_deferred_list(const lp_state *st, const lp_deferred_enc **e, size_t *bytes)
{
	const struct lp_deferred *d;
	int			n = 0,
				i;

	if (bytes)
		*bytes = 0;
	for (d = st->deferred; d; d = d->next)
	{
		LP_ASSERT(n < LP_DEFER_MAX);
		e[n] = (const lp_deferred_enc *) d;
		if (bytes)
			*bytes += e[n]->len;
		n++;
	}
	for (i = 0; i < n / 2; i++)
	{
		const lp_deferred_enc *t = e[i];

		e[i] = e[n - 1 - i];
		e[n - 1 - i] = t;
	}
	return n;
}

/*
 * Make block d (a checked encoding) one of the encodings `st` defers: the
 * others decoded first when d would make LP_DEFER_MAX of them or pass
 * lp_defer_budget with them, and d itself decoded and given back when it
 * alone passes the budget.  d is the state's in every case.
 */
static int
lp_defer_block(lp_state *st, lp_deferred_enc *d)
{
	const lp_deferred_enc *e[LP_DEFER_MAX];
	size_t		bytes;
	int			rc = LP_OK;

	if (lp_deferred_list(st, e, &bytes) == LP_DEFER_MAX || d->len > lp_defer_budget ||
		bytes > lp_defer_budget - d->len)
		rc = lp_state_materialize(st);
	if (rc == LP_OK && d->len > lp_defer_budget)
		rc = lp_decode_trusted(st, d->buf, d->len);	/* too large to keep beside the state */
	else if (rc == LP_OK)
	{
		d->link.next = st->deferred;
		st->deferred = &d->link;
		return LP_OK;
	}
	st->alloc.free(st->alloc.ctx, d);
	return rc;
}

/* Defer the checked encoding buf[0..len), copied into the state when `copy`. */
static int
lp_defer(lp_state *st, const uint8_t *buf, size_t len, int copy)
{
	lp_deferred_enc *d;
	lp_reader	r;
	int			rc;

	if (lp_validate(buf, len) != LP_OK || lp_reader_init(&r, buf, len) != LP_OK)
		return LP_ECORRUPT;
	/*
	 * an empty state is decoded (it only brings its options, which give
	 * way to any that come after it), and so is one too large to keep, not
	 * copied first; another one's options are joined now, so that states
	 * counted with different ones are refused when they meet, as decoding
	 * refuses them
	 */
	if (r.nroutes == 0 && r.malformed == 0)
		return lp_decode_trusted(st, buf, len);
	if ((rc = lp_state_join_options(st, r.sopts, 0)) != LP_OK)
		return rc;
	if (len > lp_defer_budget)
		return (rc = lp_state_materialize(st)) != LP_OK ? rc : lp_decode_trusted(st, buf, len);
	d = st->alloc.alloc(st->alloc.ctx, sizeof(*d) + (copy ? len : 0));
	if (!d)
		return LP_ENOMEM;
	if (copy)
	{
		memcpy(d + 1, buf, len);
		buf = (const uint8_t *) (d + 1);
	}
	d->buf = buf;
	d->len = len;
	return lp_defer_block(st, d);
}

/* See lp_partial.h. */
int
lp_state_defer(lp_state *st, const uint8_t *buf, size_t len)
{
	return lp_defer(st, buf, len, 0);
}

/* See lp_partial.h. */
int
lp_state_defer_copy(lp_state *st, const uint8_t *buf, size_t len)
{
	return lp_defer(st, buf, len, 1);
}

/* See lp_partial.h. */
int
lp_state_defer_state(lp_state *dst, lp_state *src)
{
	uint8_t    *buf;
	size_t		len;
	lp_deferred_enc *d;
	int			rc;

	LP_ASSERT(src != dst);
	/* as lp_defer: an empty state merged, another one's options joined now */
	if (lp_state_empty(src))
		return lp_state_merge_any(dst, src);
	if ((rc = lp_state_join_options(dst, src->sopts, 0)) != LP_OK)
		return rc;
	/* the block's head in front of the encoding: one allocation */
	rc = lp_state_encode_any(src, &dst->alloc, sizeof(*d), SIZE_MAX / 2, &buf, &len);
	if (rc != LP_OK)
		return rc;
	d = (lp_deferred_enc *) buf;
	d->buf = buf + sizeof(*d);
	d->len = len;
	return lp_defer_block(dst, d);
}

/*
 * Decode the encodings e[0..n) into `st` (which has none deferred), in
 * that order.
 */
static int
lp_decode_list(lp_state *st, const lp_deferred_enc *const *e, int n)
{
	int			i,
				rc;

	LP_ASSERT(st->deferred == NULL);
	for (i = 0; i < n; i++)
		if ((rc = lp_decode_trusted(st, e[i]->buf, e[i]->len)) != LP_OK)
			return rc;
	return LP_OK;
}

/* See lp_partial.h. */
int
lp_state_merge_any(lp_state *dst, const lp_state *src)
{
	const lp_deferred_enc *e[LP_DEFER_MAX];
	struct lp_deferred *keep = dst->deferred;
	int			n = lp_deferred_list(src, e, NULL);
	int			rc;

	LP_ASSERT(src != dst);
	/*
	 * the options joined while dst's deferred encodings count as part of it
	 * (detached, dst could look empty and take src's); they then stay as
	 * they are: a sum does not care
	 */
	if (!lp_state_empty(src) && (rc = lp_state_join_options(dst, src->sopts, 0)) != LP_OK)
		return rc;
	dst->deferred = NULL;
	rc = lp_state_merge(dst, src);
	if (rc == LP_OK)
		rc = lp_decode_list(dst, e, n);
	dst->deferred = keep;
	return rc;
}

/* See lp_partial.h. */
int
lp_state_materialize(lp_state *st)
{
	const lp_deferred_enc *e[LP_DEFER_MAX];
	int			n = lp_deferred_list(st, e, NULL);
	int			rc;
	int			i;

	if (n == 0)
		return LP_OK;
	st->deferred = NULL;
	rc = lp_decode_list(st, e, n);
	for (i = 0; i < n; i++)
		st->alloc.free(st->alloc.ctx, (void *) e[i]);
	return rc;
}

/* See lp_partial.h. */
int
lp_state_encode_any(lp_state *st, const lp_allocator *out_alloc, size_t reserve,
					size_t max_len, uint8_t **out, size_t *outlen)
{
	const lp_deferred_enc *e[LP_DEFER_MAX];
	const uint8_t *in[LP_DEFER_MAX + 1];
	size_t		inlen[LP_DEFER_MAX + 1];
	uint8_t    *own = NULL;
	size_t		ownlen = 0;
	struct lp_deferred *keep = st->deferred;
	int			n = lp_deferred_list(st, e, NULL);
	int			k = 0,
				rc,
				i;

	if (n == 0)
		return lp_encode(st, out_alloc, reserve, max_len, out, outlen);
	if (st->npend)
		return LP_EINTERNAL;
	/*
	 * its own routes first, as decoding would have found them; an empty
	 * one is left out, since the options of an empty state give way to
	 * those of any state after it (lp_state_join_options)
	 */
	if (st->nroutes || st->malformed)
	{
		st->deferred = NULL;
		rc = lp_encode(st, &st->alloc, 0, max_len, &own, &ownlen);
		st->deferred = keep;
		if (rc != LP_OK)
			return rc;
		in[k] = own;
		inlen[k++] = ownlen;
	}
	for (i = 0; i < n; i++)
	{
		in[k] = e[i]->buf;
		inlen[k++] = e[i]->len;
	}
	rc = lp_encoded_sum(in, inlen, k, out_alloc, reserve, max_len, out, outlen);
	if (own)
		st->alloc.free(st->alloc.ctx, own);
	return rc;
}
