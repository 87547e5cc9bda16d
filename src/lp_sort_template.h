/*
 * src/lp_sort_template.h -- an introsort, instantiated per element type (plain C)
 *
 * In the spirit of PostgreSQL's lib/sort_template.h, but our own because
 * that template needs c.h (CppConcat, Min, pg_noinline), and the plain C
 * units include no PostgreSQL header, so that unit tests and fuzzers link
 * them alone.  (Interrupts are no reason: sort_template.h has
 * ST_CHECK_FOR_INTERRUPTS; here the loops call LP_CHECK_INTERRUPTS.)
 * The comparison is inline either way (qsort's indirect calls and merge
 * buffer cost more than the sort itself here; glibc's qsort also takes a
 * malloc'd buffer that an interrupt, a longjmp out of the comparison,
 * would leak).
 *
 * Define before including (the header undefines them again):
 *
 *	LP_SORT_PREFIX		name prefix: the header generates the static functions
 *						PREFIX_insertion, PREFIX_sift, PREFIX_heapsort and
 *						PREFIX_sort(ELEM *p, size_t n, int depth, uint32_t *steps)
 *	LP_SORT_ELEM		the element type (copied by assignment)
 *	LP_SORT_LT(a, b)	an expression, nonzero when element a sorts before b
 *						(a strict order; the elements must be all distinct)
 *	LP_SORT_CUTOFF		optional: runs of at most this many elements are sorted
 *						by insertion (default LP_SORT_INSERTION_MAX)
 *
 * PREFIX_sort is quicksort on the median of three (Hoare partition), the
 * smaller side first by recursion and the larger by looping; heapsort once
 * `depth` levels are used up (callers pass 2 log2 n, so no input order is
 * quadratic; 0 is heapsort at once); insertion sort on short runs.  It
 * counts a step on *steps (LP_CHECK_INTERRUPTS) in every partition and heap
 * loop: a route can hold millions of values, a state millions of routes.
 *
 * Include it several times in one file with different prefixes if need be.
 */
#include "lp_common.h"

#ifndef LP_SORT_INSERTION_MAX
/*
 * Runs of at most this many pairs are sorted by insertion, which costs less
 * than partitioning on short runs: 24 16-byte pairs are six cache lines.
 * It is the cut-off the sort was written and benchmarked with; the redesign
 * moved it here unchanged and did not re-tune it.
 */
#define LP_SORT_INSERTION_MAX 24
#endif

#if !defined(LP_SORT_PREFIX) || !defined(LP_SORT_ELEM) || !defined(LP_SORT_LT)
#error "define LP_SORT_PREFIX, LP_SORT_ELEM and LP_SORT_LT before including lp_sort_template.h"
#endif

#ifndef LP_SORT_CUTOFF
#define LP_SORT_CUTOFF LP_SORT_INSERTION_MAX
#endif

/* PREFIX_name, with the prefix expanded first. */
#define LP_SORT_CAT2(a, b) a##_##b
#define LP_SORT_CAT(a, b) LP_SORT_CAT2(a, b)
#define LP_SORT_NAME(name) LP_SORT_CAT(LP_SORT_PREFIX, name)

/* Swap elements p[a] and p[b] through t. */
#define LP_SORT_SWAP(p, a, b, t) \
	do { \
		(t) = (p)[a]; \
		(p)[a] = (p)[b]; \
		(p)[b] = (t); \
	} while (0)

/* Sort p[0 .. n) by insertion: short runs. */
static void
LP_SORT_NAME(insertion) (LP_SORT_ELEM *p, size_t n)
{
	size_t		i,
				j;

	for (i = 1; i < n; i++)
	{
		LP_SORT_ELEM x = p[i];

		for (j = i; j > 0 && LP_SORT_LT(x, p[j - 1]); j--)
			p[j] = p[j - 1];
		p[j] = x;
	}
}

/* Move p[root] down the max-heap p[0 .. n) to its place. */
static void
LP_SORT_NAME(sift) (LP_SORT_ELEM *p, size_t root, size_t n)
{
	size_t		child;
	LP_SORT_ELEM t;

	for (; (child = 2 * root + 1) < n; root = child)
	{
		if (child + 1 < n && LP_SORT_LT(p[child], p[child + 1]))
			child++;
		if (!LP_SORT_LT(p[root], p[child]))
			break;
		LP_SORT_SWAP(p, root, child, t);
	}
}

/* Sort p[0 .. n) by heapsort: the introsort fallback, O(n log n) always. */
static void
LP_SORT_NAME(heapsort) (LP_SORT_ELEM *p, size_t n, uint32_t *steps)
{
	size_t		start,
				end;
	LP_SORT_ELEM t;

	for (start = n / 2; start-- > 0;)
	{
		LP_CHECK_INTERRUPTS(*steps);
		LP_SORT_NAME(sift) (p, start, n);
	}
	for (end = n; end-- > 1;)
	{
		LP_CHECK_INTERRUPTS(*steps);
		LP_SORT_SWAP(p, 0, end, t);
		LP_SORT_NAME(sift) (p, 0, end);
	}
}

/*
 * Sort p[0 .. n) (all distinct) by introsort, heapsort after `depth` more
 * levels of quicksort; see the top of this file.
 */
static void
LP_SORT_NAME(sort) (LP_SORT_ELEM *p, size_t n, int depth, uint32_t *steps)
{
	while (n > LP_SORT_CUTOFF)
	{
		size_t		i,
					j,
					mid = n / 2;
		LP_SORT_ELEM pivot;
		LP_SORT_ELEM t;

		if (depth-- <= 0)
		{
			LP_SORT_NAME(heapsort) (p, n, steps);
			return;
		}
		/* median of three into p[mid] */
		if (LP_SORT_LT(p[mid], p[0]))
			LP_SORT_SWAP(p, mid, 0, t);
		if (LP_SORT_LT(p[n - 1], p[mid]))
		{
			LP_SORT_SWAP(p, n - 1, mid, t);
			if (LP_SORT_LT(p[mid], p[0]))
				LP_SORT_SWAP(p, mid, 0, t);
		}
		pivot = p[mid];
		/* Hoare partition: [0, j] <= pivot <= [j + 1, n) */
		i = 0;
		j = n - 1;
		for (;;)
		{
			LP_CHECK_INTERRUPTS(*steps);
			while (LP_SORT_LT(p[i], pivot))
				i++;
			while (LP_SORT_LT(pivot, p[j]))
				j--;
			/* the median of three stops both scans inside the run (a strict order) */
			LP_ASSERT(i < n && j < n);
			if (i >= j)
				break;
			LP_SORT_SWAP(p, i, j, t);
			i++;
			j--;
		}
		if (j + 1 < n - (j + 1))
		{
			LP_SORT_NAME(sort) (p, j + 1, depth, steps);
			p += j + 1;
			n -= j + 1;
		}
		else
		{
			LP_SORT_NAME(sort) (p + j + 1, n - (j + 1), depth, steps);
			n = j + 1;
		}
	}
	LP_SORT_NAME(insertion) (p, n);
}

#undef LP_SORT_SWAP
#undef LP_SORT_NAME
#undef LP_SORT_CAT
#undef LP_SORT_CAT2
#undef LP_SORT_CUTOFF
#undef LP_SORT_LT
#undef LP_SORT_ELEM
#undef LP_SORT_PREFIX
