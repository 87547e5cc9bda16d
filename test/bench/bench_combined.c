/* test/bench/bench_combined.c -- the combined lines and the combined parser's loop, for preset_driver.c (plain C)
 *
 * A unit of its own: lp_gen.h includes lp_formats.h, whose lp_parse_ctx is
 * not lp_format.h's, so the preset driver cannot include both.
 */
#include <stdlib.h>
#include <string.h>

#include "lp_formats.h"
#include "lp_gen.h"

size_t		bench_combined_lines(long n, char **text, size_t **off);
uint64_t	bench_combined_parse(const char *text, const size_t *off, long n);
void		bench_set_prefetch(long bytes);

/* Bytes ahead the loop asks the CPU for (preset_driver.c's prefetch_ahead). */
static long prefetch_ahead = 0;

/* See preset_driver.c. */
void
bench_set_prefetch(long bytes)
{
	prefetch_ahead = bytes;
}

/* n lines of "combined" from lp_gen (300 routes, seed 42: parse_driver's) into *text, line i at [off[i], off[i + 1]). */
size_t
bench_combined_lines(long n, char **text, size_t **off)
{
	const lp_format_def *f = lp_gen_format_lookup("combined", 8);
	lp_gen		g;
	long		i;

	*text = malloc((size_t) n * LP_GEN_MAXLINE);
	*off = malloc(((size_t) n + 1) * sizeof(size_t));
	lp_gen_init(&g, 300, 42);
	lp_gen_set_format(&g, f);
	(*off)[0] = 0;
	for (i = 0; i < n; i++)
		(*off)[i + 1] = (*off)[i] + lp_gen_line(&g, i, *text + (*off)[i]);
	return (*off)[n];
}

/* Parse every line through the combined entry of lp_formats[], as parse_driver does. */
__attribute__((noinline)) uint64_t
bench_combined_parse(const char *text, const size_t *off, long n)
{
	const lp_format_def *f = lp_format_lookup("combined", 8);
	uint64_t	sum = 0;
	long		i;

	for (i = 0; i < n; i++)
	{
		lp_result	lf;

		if (prefetch_ahead)
		{
			const char *p = text + off[i] + prefetch_ahead;
			const char *e = p + 1024;

			for (; p < e && p < text + off[n]; p += 64)
				__builtin_prefetch(p);
		}

		if (f->parse(text + off[i], off[i + 1] - off[i], f, NULL, &lf) == LP_ST_OK)
			sum += (uint64_t) lf.latency * 31 + lf.route_len + (unsigned char) lf.route[0];
		else
			sum += 7;
	}
	return sum;
}
