/* test/unit/test_gen.c -- unit tests of the sample-line generator (lp_gen.c) */
#include "test_harness.h"

/* Deterministic lines in the documented format, timestamps ascending. */
void
test_gen(void)
{
	lp_gen		g1,
				g2,
				g3;
	char		a[LP_GEN_MAXLINE],
				b[LP_GEN_MAXLINE],
				c[LP_GEN_MAXLINE],
				prev_ts[32] = "";
	int64_t		i;
	int			same_seed_differs = 0,
				other_seed_same = 0,
				bad_parse = 0,
				bad_ts = 0,
				bad_len = 0;
	lp_state   *st = lp_state_create(&g_alloc);

	lp_gen_init(&g1, 300, 42);
	lp_gen_init(&g2, 300, 42);
	lp_gen_init(&g3, 300, 43);
	for (i = 0; i < 20000; i++)
	{
		size_t		n1 = lp_gen_line(&g1, i, a);
		size_t		n2 = lp_gen_line(&g2, i, b);
		lp_line		l;
		char		ts[32];

		lp_gen_line(&g3, i, c);
		if (n1 != n2 || strcmp(a, b) != 0)
			same_seed_differs++;
		if (strcmp(a, c) == 0)
			other_seed_same++;
		if (n1 == 0 || n1 >= LP_GEN_MAXLINE || strlen(a) != n1)
			bad_len++;
		if (lp_parse_line(a, n1, &l) != LP_PARSE_OK || l.route[0] != '/' || l.latency < 3)
			bad_parse++;
		else
			lp_state_add(st, l.route, l.route_len, l.latency);
		memcpy(ts, a, 19);
		ts[19] = '\0';
		if (a[19] != ' ' || strcmp(ts, prev_ts) < 0)
			bad_ts++;
		strcpy(prev_ts, ts);
		if (i == 0)
			CHECK(strncmp(a, "2026-11-07T00:00:00 ", 20) == 0, "first timestamp: %s", a);
		if (i == 9)
			CHECK(strncmp(a, "2026-11-07T00:00:00 ", 20) == 0, "ten lines a second: %s", a);
		if (i == 10)
			CHECK(strncmp(a, "2026-11-07T00:00:01 ", 20) == 0, "one second later: %s", a);
		if (i == 19999)
			CHECK(strncmp(a, "2026-11-07T00:33:19 ", 20) == 0, "line 19999: %s", a);
	}
	CHECK_EQ_I(same_seed_differs, 0, "same seed, same lines");
	CHECK(other_seed_same < 100, "another seed, other lines (%d equal)", other_seed_same);
	CHECK_EQ_I(bad_len, 0, "line lengths");
	CHECK_EQ_I(bad_parse, 0, "every line parses");
	CHECK_EQ_I(bad_ts, 0, "timestamps ascending");
	CHECK(st->nroutes > 250 && st->nroutes <= 300, "about 300 routes (%u)", st->nroutes);
	lp_state_free(st);

	/* days, months and years roll over */
	lp_gen_init(&g1, 5, 1);
	lp_gen_line(&g1, 864000, a);
	CHECK(strncmp(a, "2026-11-08T00:00:00 ", 20) == 0, "next day: %s", a);
	lp_gen_line(&g1, 864000LL * 55 - 1, a);
	CHECK(strncmp(a, "2026-12-31T23:59:59 ", 20) == 0, "last second of 2026: %s", a);
	lp_gen_line(&g1, 864000LL * 55, a);
	CHECK(strncmp(a, "2027-01-01T00:00:00 ", 20) == 0, "new year: %s", a);

	/* one route; routes < 1 means one */
	lp_gen_init(&g1, 1, 9);
	lp_gen_init(&g2, 0, 9);
	for (i = 0; i < 100; i++)
	{
		lp_line		l;
		size_t		n = lp_gen_line(&g1, i, a);

		lp_parse_line(a, n, &l);
		if (!slice_is(l.route, l.route_len, "/api/v1/resource0/items"))
			bad_parse++;
		n = lp_gen_line(&g2, i, b);
		if (strcmp(a, b) != 0)
			bad_parse++;
	}
	CHECK_EQ_I(bad_parse, 0, "one route");
	/* a negative seed works like any other */
	lp_gen_init(&g1, 10, -1);
	lp_gen_init(&g2, 10, -1);
	CHECK(lp_gen_line(&g1, 0, a) == lp_gen_line(&g2, 0, b) && strcmp(a, b) == 0,
		  "negative seed deterministic");
}

