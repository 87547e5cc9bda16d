/* src/lp_stats.h -- SRE walks over an encoded state: many ranks, SLO counts, exact mean, histogram buckets, the whole service (plain C) */
#ifndef LP_STATS_H
#define LP_STATS_H

#include "lp_codec.h"
#include "lp_state.h"

/*
 * Every function here reads a route view (lp_codec.h) that lp_reader_next
 * checked, walks its pairs once in ascending value order, and calls the
 * interrupt hook every LP_CHECK_EVERY pairs.  Ranks come from lp_rank.h.
 */

/* One fraction of a request and its position in the caller's array. */
typedef struct lp_fraction
{
	double		f;				/* in [0, 1] */
	int			pos;			/* index in the caller's order */
} lp_fraction;

/* Sort fractions ascending (ties keep their order); done once for every route. */
extern void lp_fractions_sort(lp_fraction *fs, int n);

/*
 * The values at the sorted fractions `fs` of a route, written to
 * out[fs[k].pos]; `ranks` is scratch room for n ranks.  One walk.
 */
extern void lp_view_fractions(const lp_route_view *rv, const lp_fraction *fs, int n,
							  uint64_t *ranks, int64_t *out);

/* How many requests of a route took at most `threshold` (0 when it is negative). */
extern uint64_t lp_view_within(const lp_route_view *rv, int64_t threshold);

/* Exact summary of a route. */
typedef struct lp_summary
{
	uint64_t	total;			/* requests */
	int64_t		min;			/* smallest value */
	int64_t		max;			/* largest value */
	unsigned __int128 sum;		/* sum of value * count: at most INT64_MAX^2 < 2^126, never overflows */
} lp_summary;

/* Requests, min, max and the exact sum of a route. */
extern void lp_view_summary(const lp_route_view *rv, lp_summary *s);

/* sum / total as a double (quotient and remainder kept apart); 0 when total is 0. */
extern double lp_summary_mean(const lp_summary *s);

/*
 * Are the bounds strictly ascending?  -1 when they are, else the index of
 * the first bound that is not greater than the one before it.
 */
extern int	lp_bounds_bad(const int64_t *bounds, int n);

/* The default histogram bounds (Prometheus-like, milliseconds). */
#define LP_DEFAULT_NBOUNDS 13
extern const int64_t lp_default_bounds[LP_DEFAULT_NBOUNDS];

/*
 * Requests of a route per bucket: counts[i] for (bounds[i-1], bounds[i]]
 * (i = 0: up to bounds[0]), counts[n] above bounds[n-1] (+Inf); bounds
 * strictly ascending (lp_bounds_bad).  One walk.
 */
extern void lp_view_buckets(const lp_route_view *rv, const int64_t *bounds, int n,
							uint64_t *counts);

/* The route logp95_total folds every route into. */
#define LP_TOTAL_ROUTE "*"

/*
 * Fold every route of an encoded state into route `key` of `dst`, and add
 * its malformed count.  An empty encoding adds no route.  LP_EOVERFLOW when
 * the route's counts would pass INT64_MAX, LP_EMALFORMED_OVERFLOW when the
 * malformed count would, LP_ECORRUPT, LP_ENOMEM.
 */
extern int	lp_state_fold(lp_state *dst, const char *key, size_t keylen,
						  const uint8_t *buf, size_t len);

#endif							/* LP_STATS_H */
