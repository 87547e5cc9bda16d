/* src/lp_sort.c -- sorting (value, count) pairs (plain C) */
#include "lp_sort.h"

/*
 * Hand-written rather than PostgreSQL's lib/sort_template.h: the plain C
 * units include no PostgreSQL header (sort_template.h needs c.h and
 * elog), so unit tests and fuzzers link this file alone; and the loops
 * call the interrupt hook, which the template has no place for.  The
 * comparison is inline either way.
 *
 * Runs of at most this many pairs are sorted by insertion, which costs less
 * than partitioning on short runs: 24 16-byte pairs are six cache lines.
 * It is the cut-off the sort was written and benchmarked with; the redesign
 * moved it here unchanged and did not re-tune it.
 */
#define LP_SORT_INSERTION_MAX 24

/* Sort pairs by value, insertion sort: small runs. */
static void
lp_pairs_insertion(lp_pair *p, size_t n)
{
	size_t		i,
				j;

	for (i = 1; i < n; i++)
	{
		lp_pair		x = p[i];

		for (j = i; j > 0 && p[j - 1].value > x.value; j--)
			p[j] = p[j - 1];
		p[j] = x;
	}
}

/* Move p[root] down the max-heap p[0 .. n) to its place. */
static void
lp_pairs_sift(lp_pair *p, size_t root, size_t n)
{
	size_t		child;
	lp_pair		t;

	for (; (child = 2 * root + 1) < n; root = child)
	{
		if (child + 1 < n && p[child].value < p[child + 1].value)
			child++;
		if (p[root].value >= p[child].value)
			break;
		t = p[root];
		p[root] = p[child];
		p[child] = t;
	}
}

/* Sort pairs by value, heapsort: the introsort fallback, O(n log n) always. */
static void
lp_pairs_heapsort(lp_pair *p, size_t n, uint32_t *steps)
{
	size_t		start,
				end;
	lp_pair		t;

	for (start = n / 2; start-- > 0;)
	{
		LP_CHECK_INTERRUPTS(*steps);
		lp_pairs_sift(p, start, n);
	}
	for (end = n; end-- > 1;)
	{
		LP_CHECK_INTERRUPTS(*steps);
		t = p[0];
		p[0] = p[end];
		p[end] = t;
		lp_pairs_sift(p, 0, end);
	}
}

/*
 * Sort pairs by value (all distinct): introsort with the comparison
 * inline (qsort's indirect calls and merge buffer cost more than the sort
 * itself here).  Quicksort on the median of three, the smaller side first
 * by recursion and the larger by looping, heapsort once the depth passes
 * 2 log2(n) (so no input order is quadratic), insertion sort from
 * LP_SORT_INSERTION_MAX values down.
 * It calls the interrupt hook as it goes: a route can hold millions of
 * values.
 */
static void
lp_pairs_sort(lp_pair *p, size_t n, int depth, uint32_t *steps)
{
	while (n > LP_SORT_INSERTION_MAX)
	{
		size_t		i,
					j,
					mid = n / 2;
		int64_t		pivot;
		lp_pair		t;

		if (depth-- <= 0)
		{
			lp_pairs_heapsort(p, n, steps);
			return;
		}
		/* median of three into p[mid] */
		if (p[mid].value < p[0].value)
		{
			t = p[mid];
			p[mid] = p[0];
			p[0] = t;
		}
		if (p[n - 1].value < p[mid].value)
		{
			t = p[n - 1];
			p[n - 1] = p[mid];
			p[mid] = t;
			if (p[mid].value < p[0].value)
			{
				t = p[mid];
				p[mid] = p[0];
				p[0] = t;
			}
		}
		pivot = p[mid].value;
		/* Hoare partition: [0, j] <= pivot <= [j + 1, n) */
		i = 0;
		j = n - 1;
		for (;;)
		{
			LP_CHECK_INTERRUPTS(*steps);
			while (p[i].value < pivot)
				i++;
			while (p[j].value > pivot)
				j--;
			if (i >= j)
				break;
			t = p[i];
			p[i] = p[j];
			p[j] = t;
			i++;
			j--;
		}
		if (j + 1 < n - (j + 1))
		{
			lp_pairs_sort(p, j + 1, depth, steps);
			p += j + 1;
			n -= j + 1;
		}
		else
		{
			lp_pairs_sort(p + j + 1, n - (j + 1), depth, steps);
			n = j + 1;
		}
	}
	lp_pairs_insertion(p, n);
}

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
}
