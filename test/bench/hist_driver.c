/* test/bench/hist_driver.c -- the per-row histogram path alone, over narrow or long-tailed latencies (plain C)
 *
 *   make -C test/bench hist_driver
 *   test/bench/hist_driver long_tail 4000000 5     (distribution, lines, passes)
 *   valgrind --tool=cachegrind --cache-sim=yes test/bench/hist_driver long_tail 400000 1
 *
 * Generates N default-format lines with lp_gen (300 routes, seed 42: the
 * benchmark's lines) in the named latency distribution, keeps each line's
 * route (a pointer into the text) and latency, then adds every row into a
 * fresh lp_state with lp_state_add_pipelined, as logp95_agg's transition
 * does, and sorts every route's pairs as the encoder does.  Prints ns a row
 * for the adds and for the sort (fastest of the passes), the distinct
 * (route, value) pairs, the heap the state holds, and a checksum of the
 * sorted pairs (equal across histogram layouts: the counts are exact).
 */
#include "bench_rows.h"

/* Sort every route's pairs; a checksum of them. */
__attribute__((noinline)) static uint64_t
sort_all(const lp_state *st, uint64_t *pairs)
{
	uint64_t	sum = 0;
	uint32_t	i,
				j;
	lp_pair    *buf = NULL;
	size_t		bufn = 0;

	*pairs = 0;
	for (i = 0; i <= st->mask; i++)
	{
		const lp_route *r = &st->routes[i];

		if (!r->key)
			continue;
		if (r->hist.used > bufn)
		{
			bufn = r->hist.used;
			buf = realloc(buf, bufn * sizeof(lp_pair));
		}
		lp_hist_sorted(&r->hist, buf);
		for (j = 0; j < r->hist.used; j++)
			sum = sum * 1000003 + (uint64_t) buf[j].value * 31 + buf[j].count + r->hash;
		*pairs += r->hist.used;
	}
	free(buf);
	return sum;
}

int
main(int argc, char **argv)
{
	const char *dist = argc > 1 ? argv[1] : "long_tail";
	long		n = argc > 2 ? atol(argv[2]) : 400000;
	int			reps = argc > 3 ? atoi(argv[3]) : 3;
	char	   *text;
	const char **key;
	uint32_t   *klen;
	int64_t    *ms;
	double		best_add = 1e30,
				best_sort = 1e30;
	uint64_t	sum = 0,
				pairs = 0;
	size_t		heap = 0;
	int			r;

	if (!bench_rows(dist, n, &text, &key, &klen, &ms))
	{
		fprintf(stderr, "usage: hist_driver narrow|long_tail LINES [PASSES]\n");
		return 2;
	}
	for (r = 0; r < reps; r++)
	{
		double		t0 = now_ns(),
					t1,
					t2;
		lp_state   *st = bench_add(key, klen, ms, n, 0, 1);

		t1 = now_ns();
		sum = sort_all(st, &pairs);
		t2 = now_ns();
		heap = heap_live;
		lp_state_free(st);
		if (t1 - t0 < best_add)
			best_add = t1 - t0;
		if (t2 - t1 < best_sort)
			best_sort = t2 - t1;
	}
	free(text);
	printf("%s %ld rows: add %.1f ns a row, sort %.1f ns a row (CPU time, fastest of %d); %llu pairs, state heap %zu bytes, checksum %016llx\n",
		   dist, n, best_add / n, best_sort / n, reps, (unsigned long long) pairs, heap,
		   (unsigned long long) sum);
	return 0;
}
