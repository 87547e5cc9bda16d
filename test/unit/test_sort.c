/* test/unit/test_sort.c -- unit tests of sorting (value, count) pairs (lp_sort.c) */
#include "test_harness.h"

/* lp_pairs_sort_values at every depth limit, heapsort included: ascending, a permutation. */
void
test_pairs_sort(void)
{
	static const size_t sizes[] = {0, 1, 2, 24, 25, 100, 1000, 10000};
	static const int depths[] = {0, 1, 3, -1};
	size_t		k,
				d;
	uint64_t	x = 777;
	long		bad = 0,
				runs = 0;

	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
		for (d = 0; d < sizeof(depths) / sizeof(depths[0]); d++)
		{
			size_t		n = sizes[k],
						i;
			lp_pair    *p = malloc(sizeof(lp_pair) * (n + 1));
			uint64_t	want = 0,
						got = 0;

			for (i = 0; i < n; i++)
			{
				x = x * 6364136223846793005u + 1442695040888963407u;
				/* distinct values: i in the low bits, noise above; some in order */
				p[i].value = (int64_t) (k % 2 ? (x >> 34) << 20 | i : (uint64_t) i * 3);
				p[i].count = i + 1;
				want += (uint64_t) p[i].value ^ p[i].count;
			}
			lp_pairs_sort_values(p, n, depths[d]);
			for (i = 0; i < n; i++)
			{
				if (i > 0 && p[i].value <= p[i - 1].value && bad++ < 5)
					CHECK(0, "pairs sort of %zu, depth limit %d: pair %zu value %lld after %lld",
						  n, depths[d], i, (long long) p[i].value, (long long) p[i - 1].value);
				got += (uint64_t) p[i].value ^ p[i].count;
			}
			if (got != want && bad++ < 5)
				CHECK(0, "pairs sort of %zu, depth limit %d: the pairs changed (checksum expected %llx got %llx)",
					  n, depths[d], (unsigned long long) want, (unsigned long long) got);
			runs++;
			free(p);
		}
	CHECK_EQ_I(bad, 0, "pairs sort: 8 sizes x 4 depth limits (0 = heapsort) ascending, same pairs");
	CHECK_EQ_I(runs, 32, "pairs sort: every size and depth limit run");
}

