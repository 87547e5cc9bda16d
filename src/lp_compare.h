/* src/lp_compare.h -- two histograms of a route compared: Mann-Whitney U with ties, the binomial tail above p95 (plain C) */
#ifndef LP_COMPARE_H
#define LP_COMPARE_H

#include "lp_codec.h"

/*
 * logp95_compare's statistics for a route that both states hold, computed
 * from the two exact histograms (no sample is drawn, nothing is binned):
 *
 * - slower_share: U / (n_before * n_after), U the Mann-Whitney statistic
 *   of the after-requests: pairs (before, after) with the after-request
 *   slower, ties counted half.  scipy:
 *   mannwhitneyu(after, before).statistic / (len(before) * len(after)).
 *
 * - p_value: the two-sided Mann-Whitney U test, normal approximation with
 *   the tie correction and the continuity correction, as
 *   scipy.stats.mannwhitneyu(before, after, method='asymptotic',
 *   use_continuity=True) computes it (scipy/stats/_mannwhitneyu.py,
 *   _get_mwu_z): with mu = n1*n2/2, n = n1 + n2 and t the size of each
 *   group of equal latencies in the pooled sample,
 *     sigma = sqrt(n1*n2/12 * ((n + 1) - sum(t^3 - t) / (n*(n - 1))))
 *     z = (max(U1, U2) - mu - 0.5) / sigma,  p = min(1, 2 * sf(z)).
 *   When every request of both sides has one latency, sigma is 0 (scipy
 *   divides -0.5 by 0, gets z = -inf and p = 1): p_value is 1.
 *
 * - tail_p_value: with `above` the after-requests slower than the before
 *   p95, the probability of at least that many if each after-request were
 *   above it with probability 0.05 (binomial upper tail, exact).  scipy:
 *   binomtest(above, n_after, 0.05, alternative='greater').pvalue.
 *
 * p-values too small for a double are 0, never negative or NaN.
 */
typedef struct lp_compare_row
{
	uint64_t	n_before;		/* requests before (>= 1) */
	uint64_t	n_after;		/* requests after (>= 1) */
	int64_t		p95_before;		/* the before p95 (lp_rank.h's rule) */
	int64_t		p95_after;		/* the after p95 */
	uint64_t	above;			/* after-requests slower than p95_before */
	double		slower_share;	/* U / (n_before * n_after), in [0, 1] */
	double		p_value;		/* two-sided Mann-Whitney p, in [0, 1] */
	double		tail_p_value;	/* P(Bin(n_after, 0.05) >= above), in [0, 1] */
} lp_compare_row;

/* The p95 of a checked route view: the value at rank lp_rank_pct(total, 95). */
extern int64_t lp_compare_p95(const lp_route_view *rv);

/*
 * Compare the routes `before` and `after` (checked views from
 * lp_reader_next, each with at least one request).  Walks each route's
 * pairs three times at most, calling the interrupt hook as it goes; takes
 * no memory.
 */
extern void lp_compare_views(const lp_route_view *before, const lp_route_view *after,
							 lp_compare_row *out);

/*
 * The Mann-Whitney sums of two samples, fed one group of equal values at a
 * time in ascending value order (lp_mwu_group).  Exact: twice U is an
 * integer below 2^127, and the tie term is kept as
 * D = (n^3 - n) - sum(t^3 - t) = n^3 - sum(t^3), a sum of positive terms
 * 3*s*t*(s + t) (s the values before the group), so that nothing cancels
 * when most values are tied.
 */
typedef struct lp_mwu
{
	uint64_t	n1;				/* values of the first sample (before) so far */
	uint64_t	n2;				/* values of the second sample (after) so far */
	unsigned __int128 u2_twice; /* 2 * U of the second sample */
	long double tie_d;			/* D above; 0 while one group holds everything */
} lp_mwu;

/* Start empty sums. */
extern void lp_mwu_init(lp_mwu *m);

/*
 * Add the next group of equal values, larger than every earlier group:
 * c1 of them in the first sample, c2 in the second.  Each sample's total
 * stays at most INT64_MAX.
 */
extern void lp_mwu_group(lp_mwu *m, uint64_t c1, uint64_t c2);

/* U of the second sample over n1 * n2 (both samples not empty). */
extern double lp_mwu_share(const lp_mwu *m);

/* The two-sided asymptotic p-value described above (both samples not empty). */
extern double lp_mwu_p_value(const lp_mwu *m);

/* The success probability of tail_p_value: 5 % of requests above the p95. */
#define LP_TAIL_P	0.05L
#define LP_TAIL_Q	0.95L

/*
 * P(X >= k) for X binomial with n trials of probability p (q = 1 - p,
 * both in (0, 1)); 1 when k is 0, 0 when k > n.  Terms from Loader's
 * saddle-point form of the binomial probability (relative error near the
 * long double epsilon for any n), summed outward from k while they fall,
 * the far side taken as 1 minus the near one; a sum that would take more
 * than max_steps terms (a tail wider than about max_steps / 10 standard
 * deviations: n in the tens of billions) is the integral of the
 * probability's continuous extension plus Euler-Maclaurin terms instead,
 * so that the cost stays bounded for any n.  In x87 or quad long double
 * the result is mpmath's to the last bit of a double up to 10^10 trials;
 * where long double is double, to about 1e-12 relative there.
 */
extern double lp_binom_sf_steps(uint64_t k, uint64_t n, long double p, long double q,
								uint64_t max_steps);

/* Terms lp_binom_sf sums at most before it integrates. */
#define LP_BINOM_MAX_STEPS ((uint64_t) 1 << 20)

/* lp_binom_sf_steps with LP_BINOM_MAX_STEPS. */
extern double lp_binom_sf(uint64_t k, uint64_t n, long double p, long double q);

#endif							/* LP_COMPARE_H */
