/* src/lp_gen.c -- deterministic access-log generator (plain C) */
#include "lp_gen.h"

#include <stdio.h>

/* 2026-11-07T00:00:00 UTC as days since 1970-01-01. */
#define LP_GEN_EPOCH_DAYS 20764

/* splitmix64: a small, well-mixed deterministic sequence. */
static uint64_t
lp_mix(uint64_t *s)
{
	uint64_t	z = (*s += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* See lp_gen.h. */
void
lp_gen_init(lp_gen *g, int32_t routes, int64_t seed)
{
	g->seed = (uint64_t) seed;
	g->rng = (uint64_t) seed ^ UINT64_C(0x6C6F67703935);	/* "logp95" */
	g->routes = routes < 1 ? 1 : routes;
}

/* Civil date from days since 1970-01-01 (Howard Hinnant's algorithm). */
static void
lp_civil(int64_t z, int *y, int *m, int *d)
{
	int64_t		era,
				doe,
				yoe,
				doy,
				mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int) (doy - (153 * mp + 2) / 5 + 1);
	*m = (int) (mp < 10 ? mp + 3 : mp - 9);
	*y = (int) (yoe + era * 400 + (*m <= 2));
}

/* See lp_gen.h. */
size_t
lp_gen_line(lp_gen *g, int64_t i, char *buf)
{
	static const char *const methods[] = {"GET", "GET", "GET", "GET", "GET", "POST", "PUT", "DELETE"};
	int64_t		secs = i / 10;
	int64_t		days = LP_GEN_EPOCH_DAYS + secs / 86400;
	int			sod = (int) (secs % 86400);
	int			y,
				mo,
				d;
	uint64_t	x = lp_mix(&g->rng);
	int32_t		hot = g->routes / 10 > 0 ? g->routes / 10 : 1;
	int32_t		r;
	uint64_t	rs,
				base,
				lat,
				tail;
	char		route[64];
	int			n;

	/* half of the traffic goes to the hottest tenth of the routes */
	r = (int32_t) ((x >> 1) % (uint64_t) ((x & 1) ? hot : g->routes));

	switch (r % 4)
	{
		case 0:
			snprintf(route, sizeof(route), "/api/v1/resource%d/items", (int) r);
			break;
		case 1:
			snprintf(route, sizeof(route), "/api/v1/resource%d", (int) r);
			break;
		case 2:
			snprintf(route, sizeof(route), "/api/v2/users/%d/orders", (int) r);
			break;
		default:
			snprintf(route, sizeof(route), "/static/app%d.js", (int) r);
			break;
	}

	/* a per-route typical latency of 3..122 ms */
	rs = g->seed ^ ((uint64_t) r * UINT64_C(0x2545F4914F6CDD1D));
	base = 3 + lp_mix(&rs) % 120;

	/* body: base .. 2*base; 9% slow by 2..5x; 1% very slow by 5..40x */
	x = lp_mix(&g->rng);
	lat = base + base * (x % 100) / 100;
	tail = (x >> 8) % 1000;
	if (tail < 10)
		lat *= 5 + (x >> 20) % 36;
	else if (tail < 100)
		lat *= 2 + (x >> 20) % 4;

	lp_civil(days, &y, &mo, &d);
	n = snprintf(buf, LP_GEN_MAXLINE, "%04d-%02d-%02dT%02d:%02d:%02d %s %s %llu",
				 y, mo, d, sod / 3600, sod / 60 % 60, sod % 60,
				 methods[(x >> 40) % 8], route, (unsigned long long) lat);
	return n < 0 ? 0 : (size_t) n;
}
