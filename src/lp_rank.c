/* src/lp_rank.c -- the percentile rank rule, the only place it is written (plain C) */
#include "lp_rank.h"

/* The percentiles of a report row (see LP_REPORT_NPCT). */
static const unsigned lp_report_pcts[LP_REPORT_NPCT] = {50, 95, 99, 100};

/* The rule's last step: floor(n * f) as a rank, the top rank past the end. */
static inline uint64_t
lp_rank_clamp(uint64_t n, uint64_t floor_nf)
{
	return (n == 0 || floor_nf < n) ? floor_nf : n - 1;
}

/* See lp_rank.h. */
uint64_t
lp_rank_pct(uint64_t n, unsigned k)
{
	LP_ASSERT(k <= 100);
	/* floor(n*k/100) without overflow, exact for any n */
	return lp_rank_clamp(n, (n / 100) * k + ((n % 100) * k) / 100);
}

/* See lp_rank.h. */
uint64_t
lp_rank_fraction(uint64_t n, double f)
{
	double		x = (double) n * f;

	if (n == 0)
		return 0;
	if (!(x >= 0))				/* also catches NaN */
		return 0;
	if (x >= (double) n)
		return n - 1;
	return lp_rank_clamp(n, (uint64_t) x);	/* truncation == floor for x >= 0 */
}

/* See lp_rank.h. */
void
lp_view_ranks(const lp_route_view *rv, const uint64_t *ranks, int64_t *values, int n)
{
	lp_pair_iter it;
	int64_t		v = 0;
	uint64_t	c,
				seen = 0;
	int			k = 0;
	uint32_t	steps = 0;

	/* ranks are ascending; each is < rv->total */
#ifdef LP_ASSERTS
	for (k = 0; k < n; k++)
		LP_ASSERT(ranks[k] < rv->total && (k == 0 || ranks[k - 1] <= ranks[k]));
	k = 0;
#endif
	lp_pairs_begin(rv, &it);
	while (k < n)
	{
		uint64_t	d;

		LP_CHECK_INTERRUPTS(steps);	/* a route may hold millions of values */
		/*
		 * four pairs of one-byte varints that all stay below the next rank
		 * are passed over at once (a checked view has at least 8 bytes
		 * left for 4 pairs)
		 */
		if (it.left >= 4 && lp_pairs4_small(it.p, &d, &c) &&
			seen + c <= ranks[k])
		{
			seen += c;
			it.value += (int64_t) d;
			it.p += 8;
			it.left -= 4;
			v = it.value;
			continue;
		}
		if (!lp_pairs_next(&it, &v, &c))
			break;
		seen += c;
		while (k < n && ranks[k] < seen)
			values[k++] = v;
	}
	LP_ASSERT(k == n);			/* every rank lies inside the route's requests */
	while (k < n)
		values[k++] = v;
}

/* See lp_rank.h. */
void
lp_view_report(const lp_route_view *rv, int64_t values[LP_REPORT_NPCT])
{
	uint64_t	ranks[LP_REPORT_NPCT];
	int			i;

	for (i = 0; i < LP_REPORT_NPCT; i++)
		ranks[i] = lp_rank_pct(rv->total, lp_report_pcts[i]);
	lp_view_ranks(rv, ranks, values, LP_REPORT_NPCT);
}

/* See lp_rank.h. */
int64_t
lp_view_fraction(const lp_route_view *rv, double f)
{
	uint64_t	rank = lp_rank_fraction(rv->total, f);
	int64_t		v;

	lp_view_ranks(rv, &rank, &v, 1);
	return v;
}
