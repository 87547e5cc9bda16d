/* src/lp_partial.c -- a parallel worker's state kept encoded until it is merged (plain C) */
#include "lp_partial.h"

/* What lp_state.h's `deferred` points to: one block of the state's allocator. */
struct lp_deferred
{
	const uint8_t *buf;			/* an encoding lp_validate accepted */
	size_t		len;			/* its length */
};

/* See lp_partial.h. */
int
lp_state_defer(lp_state *st, const uint8_t *buf, size_t len)
{
	int			rc;

	if (lp_validate(buf, len) != LP_OK)
		return LP_ECORRUPT;
	if ((rc = lp_state_materialize(st)) != LP_OK)	/* at most one at a time */
		return rc;
	st->deferred = st->alloc.alloc(st->alloc.ctx, sizeof(struct lp_deferred));
	if (!st->deferred)
		return LP_ENOMEM;
	st->deferred->buf = buf;
	st->deferred->len = len;
	return LP_OK;
}

/* See lp_partial.h. */
int
lp_state_merge_any(lp_state *dst, const lp_state *src)
{
	int			rc;

	if ((rc = lp_state_materialize(dst)) != LP_OK)
		return rc;
	if ((rc = lp_state_merge(dst, src)) != LP_OK)
		return rc;
	if (src->deferred)
		return lp_decode_trusted(dst, src->deferred->buf, src->deferred->len);
	return LP_OK;
}

/* See lp_partial.h. */
int
lp_state_materialize(lp_state *st)
{
	struct lp_deferred *d = st->deferred;
	const uint8_t *buf;
	size_t		len;

	if (!d)
		return LP_OK;
	buf = d->buf;
	len = d->len;
	st->deferred = NULL;
	st->alloc.free(st->alloc.ctx, d);
	return lp_decode_trusted(st, buf, len);
}
