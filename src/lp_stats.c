/* src/lp_stats.c -- SRE walks over an encoded state: many ranks, SLO counts, exact mean, histogram buckets, the whole service (plain C) */
#include <stdlib.h>

#include "lp_rank.h"
#include "lp_stats.h"

#if !defined(__SIZEOF_INT128__)
#error "logp95 needs a compiler with unsigned __int128 (the exact sum of logp95_stats)"
#endif

/* The default bounds of logp95_histogram, in milliseconds. */
const int64_t lp_default_bounds[LP_DEFAULT_NBOUNDS] = {
	1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000
};

/* qsort order of fractions: by value, then by position (a stable sort). */
static int
lp_fraction_cmp(const void *a, const void *b)
{
	const lp_fraction *x = a;
	const lp_fraction *y = b;

	if (x->f != y->f)
		return x->f < y->f ? -1 : 1;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

/* See lp_stats.h. */
void
lp_fractions_sort(lp_fraction *fs, int n)
{
	if (n > 1)
		qsort(fs, (size_t) n, sizeof(lp_fraction), lp_fraction_cmp);
}

/* See lp_stats.h. */
void
lp_view_fractions(const lp_route_view *rv, const lp_fraction *fs, int n,
				  uint64_t *ranks, int64_t *out)
{
	lp_pair_iter it;
	int64_t		v = 0;
	uint64_t	c,
				seen = 0;
	uint32_t	steps = 0;
	int			k;

	/* floor(n*f) never decreases as f grows: sorted fractions, sorted ranks */
	for (k = 0; k < n; k++)
	{
		LP_ASSERT(k == 0 || fs[k - 1].f <= fs[k].f);	/* lp_fractions_sort */
		ranks[k] = lp_rank_fraction(rv->total, fs[k].f);
		LP_ASSERT(ranks[k] < rv->total && (k == 0 || ranks[k - 1] <= ranks[k]));
	}
	k = 0;
	lp_pairs_begin(rv, &it);
	while (k < n && lp_pairs_next(&it, &v, &c))
	{
		LP_CHECK_INTERRUPTS(steps);
		seen += c;
		while (k < n && ranks[k] < seen)
			out[fs[k++].pos] = v;
	}
	LP_ASSERT(k == n);
	while (k < n)
		out[fs[k++].pos] = v;
}

/* See lp_stats.h. */
uint64_t
lp_view_within(const lp_route_view *rv, int64_t threshold)
{
	lp_pair_iter it;
	int64_t		v;
	uint64_t	c,
				within = 0;
	uint32_t	steps = 0;

	lp_pairs_begin(rv, &it);
	while (lp_pairs_next(&it, &v, &c) && v <= threshold)
	{
		LP_CHECK_INTERRUPTS(steps);
		within += c;
	}
	return within;
}

/* See lp_stats.h. */
void
lp_view_summary(const lp_route_view *rv, lp_summary *s)
{
	lp_pair_iter it;
	int64_t		v;
	uint64_t	c;
	uint32_t	steps = 0;
	int			first = 1;

	s->total = 0;
	s->min = s->max = 0;
	s->sum = 0;
	lp_pairs_begin(rv, &it);
	while (lp_pairs_next(&it, &v, &c))
	{
		LP_CHECK_INTERRUPTS(steps);
		if (first)
			s->min = v;
		first = 0;
		s->max = v;
		s->total += c;
		s->sum += (unsigned __int128) (uint64_t) v * c;
	}
	/* the walk saw every request lp_reader_next counted */
	LP_ASSERT(s->total == rv->total && s->min <= s->max);
}

/* See lp_stats.h. */
double
lp_summary_mean(const lp_summary *s)
{
	unsigned __int128 q;
	uint64_t	r;

	if (s->total == 0)
		return 0;
	/* the mean lies in [min, max], so the quotient fits in 64 bits */
	q = s->sum / s->total;
	r = (uint64_t) (s->sum % s->total);
	return (double) ((long double) (uint64_t) q + (long double) r / (long double) s->total);
}

/* See lp_stats.h. */
int
lp_bounds_bad(const int64_t *bounds, int n)
{
	int			i;

	for (i = 1; i < n; i++)
		if (bounds[i] <= bounds[i - 1])
			return i;
	return -1;
}

/* See lp_stats.h. */
void
lp_view_buckets(const lp_route_view *rv, const int64_t *bounds, int n, uint64_t *counts)
{
	lp_pair_iter it;
	int64_t		v;
	uint64_t	c;
	uint32_t	steps = 0;
	int			b = 0;

	LP_ASSERT(lp_bounds_bad(bounds, n) < 0);	/* strictly ascending bounds */
	memset(counts, 0, sizeof(uint64_t) * ((size_t) n + 1));
	lp_pairs_begin(rv, &it);
	while (lp_pairs_next(&it, &v, &c))
	{
		LP_CHECK_INTERRUPTS(steps);
		while (b < n && v > bounds[b])
			b++;
		counts[b] += c;
	}
}

/* See lp_stats.h. */
int
lp_state_fold(lp_state *dst, const char *key, size_t keylen,
			  const uint8_t *buf, size_t len)
{
	lp_reader	r;
	lp_route_view rv;
	lp_route   *into = NULL;
	uint32_t	steps = 0;
	int			rc;

	if ((rc = lp_reader_init(&r, buf, len)) != LP_OK)
		return rc;
	/* a version 2 state's status counts and options are folded too */
	r.all = 1;
	if ((rc = lp_state_join_options(dst, r.sopts, r.nroutes == 0 && r.malformed == 0)) != LP_OK)
		return rc;
	if (r.version == LP_CODEC_VERSION_RED && (rc = lp_state_count_status(dst)) != LP_OK)
		return rc;
	if ((rc = lp_state_add_malformed(dst, r.malformed)) != LP_OK)
		return rc;
	while ((rc = lp_reader_next(&r, &rv)) == 1)
	{
		lp_pair_iter it;
		int64_t		v;
		uint64_t	c;

		if (!into && (rc = lp_state_route(dst, key, keylen, &into)) != LP_OK)
			return rc;
		if (dst->status && (rc = lp_red_add(&dst->red[into->red], &rv.red)) != LP_OK)
			return rc;
		lp_pairs_begin(&rv, &it);
		while (lp_pairs_next(&it, &v, &c))
		{
			LP_CHECK_INTERRUPTS(steps);
			if ((rc = lp_hist_add(&dst->alloc, &into->hist, v, c)) != LP_OK)
				return rc;
		}
	}
	if (rc == 0)
		LP_ASSERT_STATE(dst);
	return rc;
}
