/* test/bench/bench_rows.h -- what the plain C histogram drivers share: an allocator, CPU time, the benchmark's rows */
#ifndef BENCH_ROWS_H
#define BENCH_ROWS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lp_gen.h"
#include "lp_state.h"

/* Bytes the state holds now (d_alloc, d_free). */
static size_t heap_live;

/* malloc with a size header, so that a driver can say what the state holds */
static void *
d_alloc(void *ctx, size_t size)
{
	size_t	   *p = malloc(size + 16);

	if (!p)
		return NULL;
	p[0] = size;
	heap_live += size;
	return (char *) p + 16;
}

static void
d_free(void *ctx, void *ptr)
{
	size_t	   *p = (size_t *) ((char *) ptr - 16);

	heap_live -= p[0];
	free(p);
}

static const lp_allocator alloc = {d_alloc, d_free, NULL};

/* The thread's CPU time in ns. */
static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/*
 * The benchmark's rows: n default-format lines of lp_gen (300 routes, seed
 * 42) in latency distribution `dist` ("<timestamp> <method> <route>
 * <latency_ms>"), each row's route (a pointer into *text, which the caller
 * frees) and latency.  0 when dist is unknown.
 */
static int
bench_rows(const char *dist, long n, char **text, const char ***key, uint32_t **klen,
		   int64_t **ms)
{
	lp_gen_latency lat;
	lp_gen		g;
	char	   *p;
	long		i;

	if (!lp_gen_latency_lookup(dist, strlen(dist), &lat) || n < 1)
		return 0;
	*key = malloc(n * sizeof(**key));
	*klen = malloc(n * sizeof(**klen));
	*ms = malloc(n * sizeof(**ms));
	*text = p = malloc((size_t) n * 80);
	if (!*key || !*klen || !*ms || !p)
	{
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	lp_gen_init(&g, 300, 42);
	lp_gen_set_latency(&g, lat);
	for (i = 0; i < n; i++)
	{
		size_t		len = lp_gen_line(&g, i, p);
		char	   *sp1 = strchr(p, ' ');
		char	   *sp2 = strchr(sp1 + 1, ' ');
		char	   *sp3 = strchr(sp2 + 1, ' ');

		(*key)[i] = sp2 + 1;
		(*klen)[i] = (uint32_t) (sp3 - sp2 - 1);
		(*ms)[i] = atoll(sp3 + 1);
		p += len + 1;
	}
	return 1;
}

/*
 * A state of the rows of part `part` of `parts`: runs of 4096 rows, every
 * parts-th from run `part` on (as a parallel scan hands out blocks; part
 * 0 of 1 is every row), added as logp95_agg's transition adds them.  Out
 * of line, so that callgrind and perf name it.
 */
__attribute__((noinline)) static lp_state *
bench_add(const char *const *key, const uint32_t *klen, const int64_t *ms, long n,
		  int part, int parts)
{
	lp_state   *st = lp_state_create(&alloc);
	long		start,
				i;

	for (start = (long) part * 4096; start < n; start += (long) parts * 4096)
		for (i = start; i < n && i < start + 4096; i++)
			if (lp_state_add_pipelined(st, key[i], klen[i], ms[i]) != LP_OK)
			{
				fprintf(stderr, "add failed at row %ld\n", i);
				exit(1);
			}
	if (lp_state_flush(st) != LP_OK)
		exit(1);
	return st;
}

#endif							/* BENCH_ROWS_H */
