/* src/lp_sort.c -- sorting (value, count) pairs (plain C) */
#include "lp_sort.h"

/*
 * The introsort of lp_sort_template.h, by value with the comparison inline:
 * lp_pairs_sort(p, n, depth, steps).  Runs of at most LP_SORT_INSERTION_MAX
 * pairs (24 16-byte pairs, six cache lines; see the template) are sorted by
 * insertion.
 */
#define LP_SORT_PREFIX lp_pairs
#define LP_SORT_ELEM lp_pair
#define LP_SORT_LT(a, b) ((a).value < (b).value)
#include "lp_sort_template.h"

/* See lp_sort.h. */
void
lp_pairs_sort_values(lp_pair *p, size_t n, int depth_limit)
{
	uint32_t	steps = 0;
	size_t		m = n;

	if (depth_limit < 0)
	{
		depth_limit = 0;
		while (m >>= 1)
			depth_limit += 2;
	}
	lp_pairs_sort(p, n, depth_limit, &steps);
#ifdef LP_ASSERTS
	for (m = 1; m < n; m++)
		LP_ASSERT(p[m - 1].value < p[m].value);	/* sorted, and the values were distinct */
#endif
}
