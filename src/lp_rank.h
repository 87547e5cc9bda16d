/* src/lp_rank.h -- the percentile rank rule, the only place it is written (plain C) */
#ifndef LP_RANK_H
#define LP_RANK_H

#include "lp_codec.h"

/*
 * The rule: the pK of n values (fraction f = K/100) is the value at 0-based
 * rank min(floor(n * f), n - 1) of the values in ascending order.  So p100
 * is the maximum, and the rank of p50 of 2 values is 1 (the upper one).
 * Nothing else in logp95 computes a rank: the report, logp95_percentile and
 * the tests call these.
 */

/* Rank of pK (K in 0 .. 100) of n values, exact for any n (integer arithmetic). */
extern uint64_t lp_rank_pct(uint64_t n, unsigned k);

/* Rank of fraction f (in [0, 1]; NaN counts as 0) of n values, in double precision. */
extern uint64_t lp_rank_fraction(uint64_t n, double f);

/* The values at `n` ascending ranks (each < rv->total) of a checked route view. */
extern void lp_view_ranks(const lp_route_view *rv, const uint64_t *ranks,
						  int64_t *values, int n);

/* The columns of a report row: p50, p95, p99 and the maximum (p100). */
#define LP_REPORT_NPCT 4

/* A route's p50, p95, p99 and maximum, in that order. */
extern void lp_view_report(const lp_route_view *rv, int64_t values[LP_REPORT_NPCT]);

/* The value at fraction f of a route (lp_rank_fraction's rank). */
extern int64_t lp_view_fraction(const lp_route_view *rv, double f);

#endif							/* LP_RANK_H */
