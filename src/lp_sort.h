/* src/lp_sort.h -- sorting (value, count) pairs (plain C) */
#ifndef LP_SORT_H
#define LP_SORT_H

#include "lp_common.h"

/* One distinct latency of a route and how often it was seen. */
typedef struct lp_pair
{
	int64_t		value;			/* latency in ms, >= 0 */
	uint64_t	count;			/* > 0 in a used slot, 0 in an empty one */
} lp_pair;

/*
 * Sort pairs with distinct values by value: introsort that falls back to
 * heapsort below `depth_limit` levels of quicksort (< 0: 2 log2 n; 0:
 * heapsort at once).  Calls the interrupt hook as it goes.
 */
extern void lp_pairs_sort_values(lp_pair *p, size_t n, int depth_limit);

#endif							/* LP_SORT_H */
