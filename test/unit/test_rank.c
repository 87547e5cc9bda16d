/* test/unit/test_rank.c -- unit tests of the percentile rank rule (lp_rank.c) */
#include "test_harness.h"

/* floor(n*k/100) clamped to n-1, computed in 128 bits. */
static uint64_t
ref_rank_pct(uint64_t n, unsigned k)
{
	unsigned __int128 x = (unsigned __int128) n * k / 100;

	if (n == 0)
		return 0;
	return x < n ? (uint64_t) x : n - 1;
}

/* lp_rank_pct and lp_rank_fraction at the rule's edges. */
void
test_ranks(void)
{
	static const uint64_t ns[] = {
		1, 2, 19, 20, 21, 99, 100, 101, 199, 1000, 12345,
		UINT64_C(92233720368547758), (uint64_t) INT64_MAX - 1, (uint64_t) INT64_MAX,
		(uint64_t) INT64_MAX + 1, UINT64_MAX - 1, UINT64_MAX
	};
	size_t		i;
	unsigned	k;
	uint64_t	x = 88172645463325252ULL;
	long		bad = 0;

	CHECK_EQ_U(lp_rank_pct(1, 50), 0, "n=1 p50");
	CHECK_EQ_U(lp_rank_pct(1, 95), 0, "n=1 p95");
	CHECK_EQ_U(lp_rank_pct(1, 100), 0, "n=1 p100");
	CHECK_EQ_U(lp_rank_pct(20, 95), 19, "n=20 p95 is index 19");
	CHECK_EQ_U(lp_rank_pct(20, 50), 10, "n=20 p50");
	CHECK_EQ_U(lp_rank_pct(20, 99), 19, "n=20 p99");
	CHECK_EQ_U(lp_rank_pct(20, 0), 0, "n=20 p0");
	CHECK_EQ_U(lp_rank_pct(100, 50), 50, "n=100 p50");
	CHECK_EQ_U(lp_rank_pct(100, 95), 95, "n=100 p95");
	CHECK_EQ_U(lp_rank_pct(100, 99), 99, "n=100 p99");
	CHECK_EQ_U(lp_rank_pct(100, 100), 99, "n=100 p100");
	CHECK_EQ_U(lp_rank_pct(0, 95), 0, "n=0");
	CHECK_EQ_U(lp_rank_pct((uint64_t) INT64_MAX, 95), UINT64_C(8762203435012037016),
			   "n=INT64_MAX p95");
	CHECK_EQ_U(lp_rank_pct((uint64_t) INT64_MAX, 100), (uint64_t) INT64_MAX - 1,
			   "n=INT64_MAX p100");
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		for (k = 0; k <= 100; k++)
			if (lp_rank_pct(ns[i], k) != ref_rank_pct(ns[i], k) && bad++ < 5)
				CHECK(0, "lp_rank_pct(%llu, %u): expected %llu got %llu",
					  (unsigned long long) ns[i], k,
					  (unsigned long long) ref_rank_pct(ns[i], k),
					  (unsigned long long) lp_rank_pct(ns[i], k));
	for (i = 0; i < 20000; i++)
	{
		uint64_t	n;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		n = x >> (i % 64);
		k = (unsigned) (x % 101);
		if (lp_rank_pct(n, k) != ref_rank_pct(n, k) && bad++ < 5)
			CHECK(0, "lp_rank_pct(%llu, %u): expected %llu got %llu",
				  (unsigned long long) n, k, (unsigned long long) ref_rank_pct(n, k),
				  (unsigned long long) lp_rank_pct(n, k));
	}
	CHECK_EQ_I(bad, 0, "lp_rank_pct matches 128-bit arithmetic at the edges and on 20,000 random counts");

	CHECK_EQ_U(lp_rank_fraction(1, 0.95), 0, "fraction n=1");
	CHECK_EQ_U(lp_rank_fraction(20, 0.95), 19, "fraction n=20 0.95");
	CHECK_EQ_U(lp_rank_fraction(20, 0.5), 10, "fraction n=20 0.5");
	CHECK_EQ_U(lp_rank_fraction(100, 0.95), 95, "fraction n=100 0.95");
	CHECK_EQ_U(lp_rank_fraction(100, 0.99), 99, "fraction n=100 0.99");
	CHECK_EQ_U(lp_rank_fraction(100, 0), 0, "fraction 0");
	CHECK_EQ_U(lp_rank_fraction(100, 1), 99, "fraction 1");
	CHECK_EQ_U(lp_rank_fraction(3, 0.5), 1, "fraction n=3 0.5");
	CHECK_EQ_U(lp_rank_fraction(0, 0.5), 0, "fraction n=0");
	CHECK_EQ_U(lp_rank_fraction(10, NAN), 0, "fraction NaN");
	CHECK_EQ_U(lp_rank_fraction(10, -0.5), 0, "fraction negative");
	CHECK_EQ_U(lp_rank_fraction(10, 7.0), 9, "fraction above 1");
	CHECK_EQ_U(lp_rank_fraction(10, INFINITY), 9, "fraction infinity");
	CHECK_EQ_U(lp_rank_fraction((uint64_t) INT64_MAX, 1.0), (uint64_t) INT64_MAX - 1,
			   "fraction INT64_MAX 1");
	CHECK_EQ_U(lp_rank_fraction((uint64_t) INT64_MAX, 0.5), UINT64_C(4611686018427387904),
			   "fraction INT64_MAX 0.5");
	CHECK(lp_rank_fraction((uint64_t) INT64_MAX, 0.9999999999999999) < (uint64_t) INT64_MAX,
		  "fraction INT64_MAX just below 1");
	CHECK_EQ_U(lp_rank_fraction(UINT64_MAX, 1.0), UINT64_MAX - 1, "fraction UINT64_MAX 1");
	CHECK(lp_rank_fraction(UINT64_MAX, 0.9999999999999999) < UINT64_MAX,
		  "fraction UINT64_MAX just below 1");
}


/* The report's columns and logp95_percentile's value, read from an encoded route. */
void
test_rank_views(void)
{
	lp_state   *st = lp_state_create(&g_alloc);
	lp_reader	r;
	lp_route_view rv;
	int64_t		v[LP_REPORT_NPCT];
	uint8_t    *enc;
	size_t		len;
	int64_t		i;

	/* /a: 1 .. 100 once each; /b: one value 7, 3 times */
	for (i = 1; i <= 100; i++)
		lp_state_add(st, "/a", 2, i);
	for (i = 0; i < 3; i++)
		lp_state_add(st, "/b", 2, 7);
	enc = encode(st, &len);
	CHECK_EQ_I(lp_reader_init(&r, enc, len), LP_OK, "views: header");
	CHECK_EQ_I(lp_reader_next(&r, &rv), 1, "views: /a");
	lp_view_report(&rv, v);
	CHECK(v[0] == 51 && v[1] == 96 && v[2] == 100 && v[3] == 100,
		  "views: /a p50 p95 p99 max = 51 96 100 100, got %lld %lld %lld %lld",
		  (long long) v[0], (long long) v[1], (long long) v[2], (long long) v[3]);
	CHECK_EQ_I(lp_view_fraction(&rv, 0.5), 51, "views: /a fraction 0.5 is p50");
	CHECK_EQ_I(lp_view_fraction(&rv, 0), 1, "views: /a fraction 0 is the minimum");
	CHECK_EQ_I(lp_view_fraction(&rv, 1), 100, "views: /a fraction 1 is the maximum");
	CHECK_EQ_I(lp_reader_next(&r, &rv), 1, "views: /b");
	lp_view_report(&rv, v);
	CHECK(v[0] == 7 && v[1] == 7 && v[2] == 7 && v[3] == 7, "views: /b every column 7");
	CHECK_EQ_I(lp_reader_next(&r, &rv), 0, "views: two routes");
	g_alloc.free(g_alloc.ctx, enc);
	lp_state_free(st);
}
