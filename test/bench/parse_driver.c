/* test/bench/parse_driver.c -- a standalone driver over one format's line parser, for callgrind and perf (plain C)
 *
 *   make -C test/bench driver
 *   valgrind --tool=callgrind test/bench/parse_driver combined 100000
 *
 * Generates N lines of the format with lp_gen (300 routes, seed 42, the
 * benchmark's lines) into memory, then parses each once through the
 * format's entry of lp_formats[] and prints a checksum of routes and
 * latencies.  Instructions per line = the parse loop's count (callgrind:
 * the function parse_all) / N; the driver also prints the parse loop's
 * time per line (clock_gettime, the fastest of the repeats).
 *
 * LP_DRIVER_PATH=direct parses as logp95_agg(line, format) does: the
 * entry's direct parser (lp_format_direct), the entry's parser for the
 * lines it leaves; otherwise every line goes through the entry's parser.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lp_formats.h"
#include "lp_gen.h"
#include "lp_simd.h"

/* Parse every line once; kept out of line so that callgrind names it. */
__attribute__((noinline)) static uint64_t
parse_all(const lp_format_def *f, const char *text, const size_t *off, long n,
		  lp_direct_fn direct, unsigned dflags)
{
	uint64_t	sum = 0;
	long		i;

	for (i = 0; i < n; i++)
	{
		lp_result	lf;
		lp_row		row;

		if (direct && direct(text + off[i], off[i + 1] - off[i], dflags, &row))
			sum += (uint64_t) row.latency * 31 + row.route_len + (unsigned char) row.route[0];
		else if (f->parse(text + off[i], off[i + 1] - off[i], f, NULL, &lf) == LP_ST_OK)
			sum += (uint64_t) lf.latency * 31 + lf.route_len + (unsigned char) lf.route[0];
		else
			sum += 7;
	}
	return sum;
}

int
main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "combined";
	long		n = argc > 2 ? atol(argv[2]) : 100000;
	int			reps = argc > 3 ? atoi(argv[3]) : 1;
	const lp_format_def *f = lp_gen_format_lookup(name, strlen(name));
	lp_gen		g;
	char	   *text;
	size_t	   *off;
	long		i;
	const char *path = getenv("LP_DRIVER_PATH");
	lp_direct_fn direct = NULL;
	unsigned	dflags = 0;

	if (!f || n <= 0 || reps <= 0)
	{
		fprintf(stderr, "usage: parse_driver [format] [lines] [repeats]\n");
		return 2;
	}
	/* the CPU build of the parsers, chosen once as _PG_init does */
	lp_simd_choose();
	if (path && strcmp(path, "direct") == 0)
		direct = lp_format_direct(f, 0, &dflags);
	text = malloc((size_t) n * LP_GEN_MAXLINE);
	off = malloc(((size_t) n + 1) * sizeof(size_t));
	if (!text || !off)
		return 1;
	lp_gen_init(&g, 300, 42);
	lp_gen_set_format(&g, f);
	off[0] = 0;
	for (i = 0; i < n; i++)
		off[i + 1] = off[i] + lp_gen_line(&g, i, text + off[i]);
	{
		double		best = 0;
		uint64_t	sum = 0;
		int			r;

		for (r = 0; r < reps; r++)
		{
			struct timespec t0,
						t1;
			double		ns;

			clock_gettime(CLOCK_MONOTONIC, &t0);
			sum = parse_all(f, text, off, n, direct, dflags);
			clock_gettime(CLOCK_MONOTONIC, &t1);
			ns = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / (double) n;
			if (r == 0 || ns < best)
				best = ns;
		}
		printf("%s %ld lines %zu bytes checksum %llu, %.1f ns a line (fastest of %d)%s\n",
			   name, n, off[n], (unsigned long long) sum, best, reps,
			   direct ? ", direct parser" : "");
	}
	free(text);
	free(off);
	return 0;
}
