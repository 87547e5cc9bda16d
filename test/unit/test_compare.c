/* test/unit/test_compare.c -- unit tests of lp_compare.c: hand-computed cases, scipy's and mpmath's values, brute force */
#include "test_harness.h"
#include "lp_compare.h"

/*
 * Is got within relative tolerance rel of want?  Values that both
 * underflow below 1e-300 count as equal (subnormal doubles carry too few
 * digits for a relative tolerance).
 */
static int
near(double got, double want, double rel)
{
	if (got == want || (fabs(got) < 1e-300 && fabs(want) < 1e-300))
		return 1;
	return fabs(got - want) <= rel * fabs(want);
}

/*
 * Does long double arithmetic carry more digits than double at run time?
 * Not under valgrind, which emulates the x87 with 53-bit precision, nor
 * where long double is double: the binomial tail then loses up to about
 * four digits at 10^10 requests (1e-12 relative seen), and loose() widens
 * the tolerances of the tail's checks by that much.
 */
static int
long_double_extended(void)
{
	volatile long double one = 1.0L;
	volatile long double eps = 1.0L / 1099511627776.0L / 1099511627776.0L;	/* 2^-80 */

	return one + eps * 262144.0L != one;	/* 1 + 2^-62 */
}

/* A tolerance of the binomial tail's checks, widened when long double is double. */
static double
loose(double rel)
{
	static int	extended = -1;

	if (extended < 0)
	{
		extended = long_double_extended();
		if (!extended)
			printf("  compare: long double has 53 bits at run time: the tail's tolerances x 1e4\n");
	}
	return extended ? rel : rel * 1e4;
}

#define CHECK_NEAR(got, want, rel, what) \
	CHECK(near((got), (want), (rel)), "%s: got %.17g, want %.17g (rel %g)", (what), \
		  (double) (got), (double) (want), (double) (rel))

/* Mann-Whitney sums of two samples given as ascending groups {c1, c2}. */
static void
mwu_of(lp_mwu *m, const uint64_t (*g)[2], int n)
{
	int			i;

	lp_mwu_init(m);
	for (i = 0; i < n; i++)
		lp_mwu_group(m, g[i][0], g[i][1]);
}

/*
 * Hand-computed cases.  p-values: scipy 1.10
 * mannwhitneyu(after, before, method='asymptotic', use_continuity=True).
 */
void
test_compare_mwu(void)
{
	lp_mwu		m;

	/*
	 * before {1, 2, 3}, after {2, 3, 4}: U = 1.5 + 2.5 + 3 = 7 of 9 pairs;
	 * groups 1, 2, 2, 1: sum(t^3 - t) = 12, n^3 - n = 210, D = 198;
	 * sigma^2 = 9/12 * 198/30 = 4.95; |2U - 9| = 5, z = 2 / sqrt(4.95).
	 */
	{
		static const uint64_t g[][2] = {{1, 0}, {1, 1}, {1, 1}, {0, 1}};

		mwu_of(&m, g, 4);
		CHECK_EQ_U(m.u2_twice, 14, "small: 2U");
		CHECK_NEAR(m.tie_d, 198, 0, "small: D");
		CHECK_NEAR(lp_mwu_share(&m), 7.0 / 9.0, 0, "small: share");
		CHECK_NEAR(lp_mwu_p_value(&m), erfc(2.0 / sqrt(4.95) / sqrt(2.0)), 1e-15, "small: p");
		CHECK_NEAR(lp_mwu_p_value(&m), 0.36868826936178156, 1e-14, "small: p (scipy)");
	}

	/*
	 * before {10, 10}, after {10, 20, 20}: U = 1 + 2 + 2 = 5 of 6;
	 * groups 3, 2: sum(t^3 - t) = 30, D = 120 - 30 = 90;
	 * sigma^2 = 6/12 * 90/20 = 2.25; z = (4 - 1) / 2 / 1.5 = 1.
	 */
	{
		static const uint64_t g[][2] = {{2, 1}, {0, 2}};

		mwu_of(&m, g, 2);
		CHECK_EQ_U(m.u2_twice, 10, "two_three: 2U");
		CHECK_NEAR(m.tie_d, 90, 0, "two_three: D");
		CHECK_NEAR(lp_mwu_share(&m), 5.0 / 6.0, 0, "two_three: share");
		CHECK_NEAR(lp_mwu_p_value(&m), erfc(1.0 / sqrt(2.0)), 1e-15, "two_three: p");
		CHECK_NEAR(lp_mwu_p_value(&m), 0.31731050786291415, 1e-14, "two_three: p (scipy)");
	}

	/* one request a side, the after one slower: U = 1, |2U - 1| = 1, z = 0, p = 1 */
	{
		static const uint64_t g[][2] = {{1, 0}, {0, 1}};

		mwu_of(&m, g, 2);
		CHECK_NEAR(lp_mwu_share(&m), 1.0, 0, "one_each: share");
		CHECK_NEAR(lp_mwu_p_value(&m), 1.0, 0, "one_each: p");
	}

	/* everything tied: sigma = 0, share 1/2, p 1 (scipy: z = -0.5 / 0 = -inf) */
	{
		static const uint64_t g[][2] = {{3, 2}};

		mwu_of(&m, g, 1);
		CHECK_NEAR(m.tie_d, 0, 0, "tied: D");
		CHECK_NEAR(lp_mwu_share(&m), 0.5, 0, "tied: share");
		CHECK_NEAR(lp_mwu_p_value(&m), 1.0, 0, "tied: p");
	}

	/* 100 a side on three values (heavy ties) */
	{
		static const uint64_t g[][2] = {{50, 20}, {30, 30}, {20, 50}};

		mwu_of(&m, g, 3);
		CHECK_NEAR(lp_mwu_share(&m), 0.695, 0, "ties_many: share");
		CHECK_NEAR(lp_mwu_p_value(&m), 4.2604759929677277e-07, 1e-13, "ties_many: p (scipy)");
	}

	/*
	 * 2^62 a side, every after-request slower: 2U = 2^125 (past 64 bits),
	 * D = 3 * 2^62 * 2^62 * 2^63 (past 2^128), share exactly 1, p 0.
	 */
	{
		static const uint64_t g[][2] = {{(uint64_t) 1 << 62, 0}, {0, (uint64_t) 1 << 62}};

		mwu_of(&m, g, 2);
		CHECK(m.u2_twice == (unsigned __int128) 1 << 125, "huge: 2U is 2^125");
		CHECK_NEAR(m.tie_d, 3.0 * ldexp(1.0, 187), 1e-18, "huge: D");
		CHECK_NEAR(lp_mwu_share(&m), 1.0, 0, "huge: share");
		CHECK_NEAR(lp_mwu_p_value(&m), 0.0, 0, "huge: p underflows to 0");
	}

	/*
	 * N = INT64_MAX a side, all tied but one after-request above: 2U =
	 * N^2 + N, |2U - N^2| = N; D = 3 (2N - 1) 2N; sigma^2 = N^2 / 12 *
	 * 6 (2N - 1) 2N / (2N (2N - 1)) = N^2 / 4, so z = (N - 1) / N = 1 to
	 * 19 digits: p = erfc(1 / sqrt 2), as in two_three.
	 */
	{
		static const uint64_t g[][2] = {{INT64_MAX, INT64_MAX - 1}, {0, 1}};

		mwu_of(&m, g, 2);
		CHECK_NEAR(lp_mwu_p_value(&m), 0.31731050786291415, 1e-14, "nearly tied: p");
		CHECK_NEAR(lp_mwu_share(&m), 0.5, 1e-15, "nearly tied: share");
	}
}

/* One value of lp_binom_sf against a reference. */
static void
check_binom(uint64_t k, uint64_t n, double want, double rel)
{
	double		got = lp_binom_sf(k, n, LP_TAIL_P, LP_TAIL_Q);

	rel = loose(rel);
	CHECK(near(got, want, rel), "P(Bin(%llu, 0.05) >= %llu): got %.17g, want %.17g (rel %g)",
		  (unsigned long long) n, (unsigned long long) k, got, want, rel);
}

/*
 * The binomial tail: by hand; mpmath at 40 digits (betainc, or the sum of
 * terms from loggamma at 30 digits past n = 10^6), which scipy 1.10
 * (boost in doubles) matches to 1e-11 up to n = 10^9 and misses by 8e-8 at
 * 10^10 and 2 % at 10^16; extremes.
 */
void
test_compare_binom(void)
{
	/* by hand */
	check_binom(0, 0, 1.0, 0);
	check_binom(0, 10, 1.0, 0);
	check_binom(11, 10, 0.0, 0);
	check_binom(1, 1, 0.05, 1e-16);
	check_binom(1, 2, 1 - 0.95 * 0.95, 1e-15);	/* 0.0975 */
	check_binom(2, 2, 0.0025, 1e-15);
	check_binom(2, 3, 3 * 0.0025 * 0.95 + 0.000125, 1e-15);	/* 0.00725 */
	/* mpmath */
	check_binom(3, 20, 0.075483673788496342973, 1e-15);
	check_binom(60, 1000, 0.086732178384860956752, 1e-15);
	check_binom(50, 1000, 0.52025894291267939808, 1e-15);
	check_binom(40, 1000, 0.94018512094809667055, 1e-15);
	check_binom(50100000, 1000000000, 5.64040234741806728e-48, 1e-14);
	check_binom(500001000, 10000000000, 0.481708099163709451, 1e-14);
	check_binom(499990000, 10000000000, 0.676828689092979805, 1e-14);
	/* scipy (its own error is below 1e-12 here) */
	check_binom(5600, 100000, 6.497180590789556e-18, 1e-12);
	check_binom(7000, 100000, 5.014521257755467e-166, 1e-12);
	check_binom(51000, 1000000, 2.4113966830818812e-06, 1e-12);
	check_binom(56000, 1000000, 3.147951975674929e-161, 1e-11);
	/* underflow: 0, never negative */
	check_binom(60000, 1000000, 0.0, 0);
	check_binom(1000000, 1000000, 0.0, 0);
	check_binom(INT64_MAX, INT64_MAX, 0.0, 0);
	/* certainties */
	check_binom(1, 1000000, 1.0, 0);
	check_binom(1, INT64_MAX, 1.0, 0);

	/*
	 * Past LP_BINOM_MAX_STEPS terms the sum is integrated: both ways agree
	 * where both work (n = 10^9 .. 10^11, around the mean and in the tail),
	 * and at n = 2^63 - 1 the answer near the mean is 1/2 plus about
	 * half the probability at the mean (sd = 6.6e8).
	 */
	{
		static const uint64_t cases[][2] = {
			{50010000, 1000000000}, {50000000, 1000000000}, {49990000, 1000000000},
			{50100000, 1000000000}, {500001000, 10000000000}, {499990000, 10000000000},
			{5000100000, 100000000000}, {4999950000, 100000000000}
		};
		int			i;

		for (i = 0; i < (int) (sizeof(cases) / sizeof(cases[0])); i++)
		{
			double		sum = lp_binom_sf_steps(cases[i][0], cases[i][1], LP_TAIL_P, LP_TAIL_Q, UINT64_MAX);
			double		em = lp_binom_sf_steps(cases[i][0], cases[i][1], LP_TAIL_P, LP_TAIL_Q, 0);

			CHECK(near(em, sum, loose(1e-14)), "summed and integrated tails of Bin(%llu) >= %llu: %.17g, %.17g",
				  (unsigned long long) cases[i][1], (unsigned long long) cases[i][0], sum, em);
		}
		{
			double		mid = lp_binom_sf(461168601842738790, INT64_MAX, LP_TAIL_P, LP_TAIL_Q);
			double		sd = sqrt((double) INT64_MAX * 0.05 * 0.95);

			/* with 53 bits, k and n themselves round (to multiples of 64 and 1024) */
			CHECK(mid > 0.5 && mid < 0.5 + (loose(1) > 1 ? 1e-7 : 1 / sd),
				  "near the mean at n = 2^63 - 1: %.17g", mid);
		}
	}
}


/* A one-route state of n values, encoded; its view in *rv. */
static uint8_t *
view_of(const int64_t *vals, int n, lp_route_view *rv)
{
	lp_state   *st = lp_state_create(&g_alloc);
	uint8_t    *enc;
	size_t		len;
	lp_reader	r;
	int			i;

	for (i = 0; i < n; i++)
		lp_state_add(st, "r", 1, vals[i]);
	enc = encode(st, &len);
	lp_state_free(st);
	if (enc == NULL || lp_reader_init(&r, enc, len) != LP_OK || lp_reader_next(&r, rv) != 1)
	{
		CHECK(0, "could not read back a one-route state");
		rv->total = 0;
	}
	return enc;
}

/*
 * Random samples with many ties against brute force: U over every pair,
 * the tie groups counted from the sorted pooled sample, the p-value by
 * scipy's formula in doubles, p95 at rank min(floor(0.95 n), n - 1) of
 * the sorted sample, and the tail by summing the binomial terms from
 * lgamma (fine at these sizes).
 */
void
test_compare_random(void)
{
	uint64_t	x = 0x2545F4914F6CDD1DULL;
	int			round;

	for (round = 0; round < 200; round++)
	{
		int			n1 = 1 + (int) (test_rnd(&x) % (round < 50 ? 4 : 400));
		int			n2 = 1 + (int) (test_rnd(&x) % (round < 50 ? 4 : 400));
		int			spread = 1 + (int) (test_rnd(&x) % (round % 3 == 0 ? 3 : 200));
		int			shift = (int) (test_rnd(&x) % 20);
		int64_t    *b = malloc(sizeof(int64_t) * n1);
		int64_t    *a = malloc(sizeof(int64_t) * n2);
		int64_t    *pool = malloc(sizeof(int64_t) * (n1 + n2));
		uint8_t    *eb,
				   *ea;
		lp_route_view vb,
					va;
		lp_compare_row row;
		double		u = 0,
					tie = 0,
					n = n1 + n2,
					sigma,
					z,
					p,
					tail = 0;
		int64_t		p95b,
					p95a;
		int			above = 0,
					i,
					j;

		for (i = 0; i < n1; i++)
			b[i] = (int64_t) (test_rnd(&x) % spread);
		for (i = 0; i < n2; i++)
			a[i] = (int64_t) (test_rnd(&x) % spread) + (round % 2 ? shift : 0);
		eb = view_of(b, n1, &vb);
		ea = view_of(a, n2, &va);
		lp_compare_views(&vb, &va, &row);

		for (i = 0; i < n2; i++)
			for (j = 0; j < n1; j++)
				u += a[i] > b[j] ? 1 : a[i] == b[j] ? 0.5 : 0;
		memcpy(pool, b, sizeof(int64_t) * n1);
		memcpy(pool + n1, a, sizeof(int64_t) * n2);
		qsort(pool, n1 + n2, sizeof(int64_t), test_cmp_i64);
		for (i = 0; i < n1 + n2; i = j)
		{
			for (j = i; j < n1 + n2 && pool[j] == pool[i]; j++)
				;
			tie += pow(j - i, 3) - (j - i);
		}
		sigma = sqrt((double) n1 * n2 / 12 * ((n + 1) - tie / (n * (n - 1))));
		z = ((u > n1 * n2 / 2.0 ? u : n1 * n2 - u) - n1 * n2 / 2.0 - 0.5) / sigma;
		p = sigma == 0 ? 1 : fmin(1, erfc(z / sqrt(2.0)));
		qsort(b, n1, sizeof(int64_t), test_cmp_i64);
		qsort(a, n2, sizeof(int64_t), test_cmp_i64);
		p95b = b[(int) fmin(floor(n1 * 0.95), n1 - 1)];
		p95a = a[(int) fmin(floor(n2 * 0.95), n2 - 1)];
		for (i = 0; i < n2; i++)
			above += a[i] > p95b;
		for (i = above; i <= n2; i++)
			tail += exp(lgamma(n2 + 1.0) - lgamma(i + 1.0) - lgamma(n2 - i + 1.0) +
						i * log(0.05) + (n2 - i) * log(0.95));

		CHECK_EQ_U(row.n_before, n1, "random: n_before");
		CHECK_EQ_U(row.n_after, n2, "random: n_after");
		CHECK_EQ_I(row.p95_before, p95b, "random: p95_before");
		CHECK_EQ_I(row.p95_after, p95a, "random: p95_after");
		CHECK_EQ_U(row.above, above, "random: above");
		CHECK_NEAR(row.slower_share, u / ((double) n1 * n2), 1e-15, "random: slower_share");
		CHECK_NEAR(row.p_value, p, 1e-10, "random: p_value");
		CHECK_NEAR(row.tail_p_value, fmin(tail, 1), 1e-11, "random: tail_p_value");

		g_alloc.free(g_alloc.ctx, eb);
		g_alloc.free(g_alloc.ctx, ea);
		free(b);
		free(a);
		free(pool);
	}
}

/*
 * A hand-made encoding with counts no sample could hold: 2^62 requests at
 * 10 ms before, 2^62 at 10 ms and 2^61 at 11 ms after (the pair walk and
 * the tail at n past 2^62).
 */
void
test_compare_huge_views(void)
{
	bytes		bb,
				ba;
	lp_reader	r;
	lp_route_view vb,
				va;
	lp_compare_row row;
	uint64_t	h = (uint64_t) 1 << 62,
				q = (uint64_t) 1 << 61;
	size_t		plen;
	uint8_t		tmp[32];

	b_head(&bb, 0, 1);
	plen = lp_varint_put(tmp, 10) + lp_varint_put(tmp, h);
	b_route(&bb, "r", 1, plen);
	b_var(&bb, 10);
	b_var(&bb, h);
	b_head(&ba, 0, 1);
	plen = lp_varint_put(tmp, 10) + lp_varint_put(tmp, h) + lp_varint_put(tmp, 1) + lp_varint_put(tmp, q);
	b_route(&ba, "r", 2, plen);
	b_var(&ba, 10);
	b_var(&ba, h);
	b_var(&ba, 1);
	b_var(&ba, q);
	if (!CHECK(lp_reader_init(&r, bb.b, bb.n) == LP_OK && lp_reader_next(&r, &vb) == 1, "huge before reads") ||
		!CHECK(lp_reader_init(&r, ba.b, ba.n) == LP_OK && lp_reader_next(&r, &va) == 1, "huge after reads"))
		return;
	lp_compare_views(&vb, &va, &row);
	CHECK_EQ_U(row.n_before, h, "huge: n_before");
	CHECK_EQ_U(row.n_after, h + q, "huge: n_after");
	CHECK_EQ_I(row.p95_before, 10, "huge: p95_before");
	CHECK_EQ_I(row.p95_after, 11, "huge: p95_after");
	CHECK_EQ_U(row.above, q, "huge: above");
	/* U = 2^62 * 2^62 / 2 + 2^61 * 2^62, over 2^62 * (2^62 + 2^61): 2/3 */
	CHECK_NEAR(row.slower_share, 2.0 / 3.0, 1e-15, "huge: slower_share");
	CHECK_NEAR(row.p_value, 0.0, 0, "huge: p_value underflows to 0");
	CHECK_NEAR(row.tail_p_value, 0.0, 0, "huge: tail_p_value underflows to 0");
}
