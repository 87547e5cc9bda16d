/* test/fuzz/fuzz_presets.c -- libFuzzer harness: every preset parser on random lines, against its reference */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp_presets.h"
#include "../unit/ref_presets.h"

/*
 * Each input is one line for every preset of lp_presets[] (haproxy, alb,
 * cloudfront, envoy, traefik, iis), parsed under five flag sets, in a
 * block of exactly its size (so that ASan sees a read past the line) with
 * a scratch buffer of exactly LP_ROUTE_BUF_SIZE(len) bytes.  Checked:
 *   - the answer equals the reference's (test/unit/ref_presets.h), field
 *     by field;
 *   - every slice lies inside the line (the route inside the line, the
 *     scratch buffer, or the constant "/"); an LP_ST_OK line has a route,
 *     a latency >= 0, a method and a time; a status is 100..999;
 *   - a copy of the line gives the same answer at the same offsets.
 */

#define FUZZ_ASSERT(c) do { if (!(c)) abort(); } while (0)

/* Is [p, p + n) inside [base, base + len)? */
static int
inside(const char *p, size_t n, const char *base, size_t len)
{
	return p >= base && n <= len && (size_t) (p - base) <= len - n;
}

/* The flag sets every input is parsed with. */
static const unsigned fuzz_flags[] = {
	0,
	LP_PARSE_KEEP_QUERY | LP_PARSE_LOGGED,
	LP_PARSE_TEMPLATES,
	LP_PARSE_HOST | LP_PARSE_LOGGED,
	LP_PARSE_KEEP_QUERY | LP_PARSE_TEMPLATES | LP_PARSE_HOST
};

/* The invariants of one answer. */
static void
check_answer(const char *line, size_t len, const char *buf, lp_status st, const lp_result *r)
{
	FUZZ_ASSERT((unsigned) st < LP_ST_COUNT);
	if (st == LP_ST_OK)
		FUZZ_ASSERT((r->has & (LP_HAS_ROUTE | LP_HAS_LATENCY | LP_HAS_METHOD | LP_HAS_TIME)) ==
					(LP_HAS_ROUTE | LP_HAS_LATENCY | LP_HAS_METHOD | LP_HAS_TIME));
	if (r->has & LP_HAS_ROUTE)
		FUZZ_ASSERT(r->route_len > 0 &&
					(inside(r->route, r->route_len, line, len) ||
					 inside(r->route, r->route_len, buf, LP_ROUTE_BUF_SIZE(len)) ||
					 (r->route_len == 1 && r->route[0] == '/')));
	if (r->has & LP_HAS_LATENCY)
		FUZZ_ASSERT(r->latency >= 0);
	if (r->has & LP_HAS_STATUS)
		FUZZ_ASSERT(r->status >= 100 && r->status <= 999);
	if (r->has & LP_HAS_METHOD)
		FUZZ_ASSERT(r->method_len > 0 && inside(r->method, r->method_len, line, len));
	if (r->has & LP_HAS_TIME)
		FUZZ_ASSERT(inside(r->time, r->time_len, line, len) &&
					(!r->time2 || inside(r->time2, r->time2_len, line, len)));
	if (r->has & LP_HAS_HOST)
		FUZZ_ASSERT(r->host_len > 0 && inside(r->host, r->host_len, line, len));
	if (st != LP_ST_OK && r->bad)
		FUZZ_ASSERT(inside(r->bad, r->bad_len, line, len));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	   *line = malloc(size ? size : 1);
	char	   *copy = malloc(size ? size : 1);
	char	   *buf = malloc(LP_ROUTE_BUF_SIZE(size));
	char	   *buf2 = malloc(LP_ROUTE_BUF_SIZE(size));
	int			k;
	size_t		f;

	memcpy(line, data, size);
	memcpy(copy, data, size);
	for (k = 0; lp_presets[k].name; k++)
		for (f = 0; f < sizeof(fuzz_flags) / sizeof(fuzz_flags[0]); f++)
		{
			lp_parse_ctx ctx = {fuzz_flags[f], buf};
			lp_parse_ctx ctx2 = {fuzz_flags[f], buf2};
			lp_result	r,
						r2;
			lp_status	st = lp_presets[k].parse(line, size, &ctx, &r);
			lp_status	st2 = lp_presets[k].parse(copy, size, &ctx2, &r2);
			ref_res		w;
			test_diff	d;

			check_answer(line, size, buf, st, &r);

			/* the reference */
			ref_presets[k] (line, (long) size, fuzz_flags[f], &w);
			diff_init(&d);
			ref_diff(&d, line, st, &r, &w);
			if (d.field)
				diff_abort(&d, "fuzz_presets", "preset %s, flags 0x%x, line %s", lp_presets[k].name,
						   fuzz_flags[f], diff_q(line, size));
			ref_free(&w);

			/* a copy: the same answer, at the same offsets */
			FUZZ_ASSERT(st2 == st && r2.has == r.has && r2.bad_len == r.bad_len &&
						(r.bad == NULL) == (r2.bad == NULL));
			if (r.has & LP_HAS_LATENCY)
				FUZZ_ASSERT(r2.latency == r.latency);
			if (r.has & LP_HAS_ROUTE)
				FUZZ_ASSERT(r2.route_len == r.route_len &&
							memcmp(r.route, r2.route, r.route_len) == 0);
			if (r.bad)
				FUZZ_ASSERT(r2.bad - copy == r.bad - line);
			if (r.has & LP_HAS_TIME)
				FUZZ_ASSERT(r2.time - copy == r.time - line && r2.time_len == r.time_len);
		}
	free(line);
	free(copy);
	free(buf);
	free(buf2);
	return 0;
}
