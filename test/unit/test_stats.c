/* test/unit/test_stats.c -- unit tests of the SRE walks (lp_stats.c) against brute force over expanded values */
#include "test_harness.h"
#include "lp_stats.h"

/* The first route of an encoding, checked; 0 when there is none. */
static int
first_view(const uint8_t *buf, size_t len, lp_route_view *rv)
{
	lp_reader	r;

	if (lp_reader_init(&r, buf, len) != LP_OK)
		return 0;
	return lp_reader_next(&r, rv) == 1;
}


/* Random long-tailed routes: every walk against the sorted expansion. */
void
test_stats_random(void)
{
	uint64_t	x = 0x9E3779B97F4A7C15ULL;
	int			round;
	long		bad = 0;

	for (round = 0; round < 300; round++)
	{
		lp_state   *st = lp_state_create(&g_alloc);
		int			n = 1 + (int) (test_rnd(&x) % (round < 20 ? 25 : 3000));
		int64_t    *vals = malloc(sizeof(int64_t) * n);
		uint8_t    *enc;
		size_t		len;
		lp_route_view rv;
		int			i,
					k;
		static const double fr[] = {0.95, 0.5, 0, 1, 0.99, 0.5, 0.05, 0.999, 0.25};
		lp_fraction fs[9];
		uint64_t	ranks[9];
		int64_t		out[9];
		static const int64_t bounds[] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000};
		uint64_t	counts[11];
		lp_summary	s;
		unsigned __int128 sum = 0;
		test_diff	d;
		char		name[64];

		for (i = 0; i < n; i++)
		{
			uint64_t	u = test_rnd(&x);

			/* typical 3..60 ms, a tenth 5-40x slower */
			vals[i] = 3 + (int64_t) (u % 58);
			if (u % 10 == 0)
				vals[i] *= 5 + (int64_t) ((u >> 20) % 36);
			lp_state_add(st, "/r", 2, vals[i]);
			sum += (uint64_t) vals[i];
		}
		qsort(vals, n, sizeof(int64_t), test_cmp_i64);
		enc = encode(st, &len);
		if (!enc || !first_view(enc, len, &rv))
		{
			CHECK(0, "random state encodes");
			break;
		}
		for (k = 0; k < 9; k++)
		{
			fs[k].f = fr[k];
			fs[k].pos = k;
		}
		lp_fractions_sort(fs, 9);
		lp_view_fractions(&rv, fs, 9, ranks, out);
		diff_init(&d);
		for (k = 0; k < 9; k++)
		{
			snprintf(name, sizeof(name), "lp_view_fractions at %g", fr[k]);
			diff_i(&d, name, out[k], vals[lp_rank_fraction(n, fr[k])]);
			snprintf(name, sizeof(name), "lp_view_fraction at %g", fr[k]);
			diff_i(&d, name, lp_view_fraction(&rv, fr[k]), vals[lp_rank_fraction(n, fr[k])]);
		}
		for (k = -1; k < 400; k += 7)
		{
			uint64_t	w = 0;

			for (i = 0; i < n; i++)
				w += vals[i] <= k;
			snprintf(name, sizeof(name), "lp_view_within %d ms", k);
			diff_u(&d, name, lp_view_within(&rv, k), w);
		}
		lp_view_summary(&rv, &s);
		diff_u(&d, "summary total", s.total, (uint64_t) n);
		diff_i(&d, "summary min", s.min, vals[0]);
		diff_i(&d, "summary max", s.max, vals[n - 1]);
		diff_u(&d, "summary sum (low 64 bits)", (uint64_t) s.sum, (uint64_t) sum);
		diff_u(&d, "summary sum (high 64 bits)", (uint64_t) (s.sum >> 64), (uint64_t) (sum >> 64));
		if (fabs(lp_summary_mean(&s) - (double) sum / n) > 1e-9 * ((double) sum / n) &&
			diff_note(&d, "summary mean"))
		{
			snprintf(d.got, sizeof(d.got), "%.17g", lp_summary_mean(&s));
			snprintf(d.want, sizeof(d.want), "%.17g (within 1e-9)", (double) sum / n);
		}
		lp_view_buckets(&rv, bounds, 10, counts);
		for (k = 0; k <= 10; k++)
		{
			uint64_t	c = 0;

			for (i = 0; i < n; i++)
				c += (k == 0 || vals[i] > bounds[k - 1]) && (k == 10 || vals[i] <= bounds[k]);
			snprintf(name, sizeof(name), "bucket %d", k);
			diff_u(&d, name, counts[k], c);
		}
		if (d.field && bad++ < 5)
			CHECK(0, "random route of %d requests (round %d): %s", n, round, diff_say(&d));
		g_alloc.free(g_alloc.ctx, enc);
		lp_state_free(st);
		free(vals);
	}
	CHECK_EQ_I(bad, 0, "random routes: fractions, within, summary, buckets match brute force");
}

/* Ranks where n*f is whole, the empty fraction list, huge counts and values, bounds. */
void
test_stats_edges(void)
{
	lp_state   *st = lp_state_create(&g_alloc);
	uint8_t    *enc;
	size_t		len;
	lp_route_view rv;
	lp_fraction fs[3] = {{0.95, 0}, {0.5, 1}, {1.0, 2}};
	uint64_t	ranks[3];
	int64_t		out[3];
	lp_summary	s;
	int64_t		v;
	uint64_t	counts[3];
	static const int64_t b2[] = {10, 15};
	static const int64_t bad1[] = {1, 5, 5};
	static const int64_t bad2[] = {1, 5, 3};
	lp_route   *r;

	/* 1..20: p95 is index 19 (20), p50 index 10 (11) */
	for (v = 1; v <= 20; v++)
		lp_state_add(st, "/a", 2, v);
	enc = encode(st, &len);
	CHECK(first_view(enc, len, &rv), "1..20 view");
	lp_fractions_sort(fs, 3);
	lp_view_fractions(&rv, fs, 3, ranks, out);
	CHECK_EQ_I(out[0], 20, "n=20 f=0.95 is index 19");
	CHECK_EQ_I(out[1], 11, "n=20 f=0.5 is index 10");
	CHECK_EQ_I(out[2], 20, "n=20 f=1 is the max");
	lp_view_fractions(&rv, fs, 0, ranks, out);	/* no fractions: nothing written, no crash */
	CHECK_EQ_U(lp_view_within(&rv, -1), 0, "negative threshold");
	CHECK_EQ_U(lp_view_within(&rv, 0), 0, "threshold below every value");
	CHECK_EQ_U(lp_view_within(&rv, 19), 19, "threshold 19");
	CHECK_EQ_U(lp_view_within(&rv, INT64_MAX), 20, "threshold max");
	lp_view_buckets(&rv, b2, 2, counts);
	CHECK(counts[0] == 10 && counts[1] == 5 && counts[2] == 5, "buckets le 10, le 15, +Inf");
	lp_view_buckets(&rv, b2, 0, counts);
	CHECK_EQ_U(counts[0], 20, "no bounds: all in +Inf");
	CHECK_EQ_I(lp_bounds_bad(bad1, 3), 2, "duplicate bound");
	CHECK_EQ_I(lp_bounds_bad(bad2, 3), 2, "descending bound");
	CHECK_EQ_I(lp_bounds_bad(b2, 2), -1, "ascending bounds");
	CHECK_EQ_I(lp_bounds_bad(lp_default_bounds, LP_DEFAULT_NBOUNDS), -1, "default bounds ascending");
	g_alloc.free(g_alloc.ctx, enc);
	lp_state_free(st);

	/* values near the limit, counts past 2^32: the sum needs 128 bits */
	st = lp_state_create(&g_alloc);
	CHECK_EQ_I(lp_state_route(st, "/b", 2, &r), LP_OK, "huge route");
	CHECK_EQ_I(lp_hist_add(&st->alloc, &r->hist, INT64_MAX, UINT64_C(1) << 40), LP_OK, "add 2^40 x max");
	CHECK_EQ_I(lp_hist_add(&st->alloc, &r->hist, INT64_MAX - 1, UINT64_C(1) << 40), LP_OK,
			   "add 2^40 x max-1");
	enc = encode(st, &len);
	CHECK(first_view(enc, len, &rv), "huge view");
	lp_view_summary(&rv, &s);
	CHECK_EQ_U(s.total, UINT64_C(1) << 41, "huge total");
	CHECK(s.sum == ((unsigned __int128) (UINT64_C(1) << 40)) * ((unsigned __int128) INT64_MAX * 2 - 1),
		  "huge exact sum");
	CHECK(lp_summary_mean(&s) == 9223372036854775806.5, "huge mean (rounds to 2^63)");
	CHECK_EQ_I(s.min, INT64_MAX - 1, "huge min");
	CHECK_EQ_I(s.max, INT64_MAX, "huge max");
	g_alloc.free(g_alloc.ctx, enc);
	lp_state_free(st);
}

/* Folding every route into one. */
void
test_stats_fold(void)
{
	lp_state   *st = lp_state_create(&g_alloc);
	lp_state   *want = lp_state_create(&g_alloc);
	lp_state   *got = lp_state_create(&g_alloc);
	lp_state   *empty = lp_state_create(&g_alloc);
	uint8_t    *enc;
	size_t		len;
	lp_route   *r;

	lp_state_add(st, "/a", 2, 5);
	lp_state_add(st, "/a", 2, 7);
	lp_state_add(st, "/b", 2, 5);
	lp_state_add(st, "/c", 2, 100000);
	lp_state_add_malformed(st, 3);
	lp_state_add(want, "*", 1, 5);
	lp_state_add(want, "*", 1, 7);
	lp_state_add(want, "*", 1, 5);
	lp_state_add(want, "*", 1, 100000);
	lp_state_add_malformed(want, 3);
	enc = encode(st, &len);
	CHECK_EQ_I(lp_state_fold(got, "*", 1, enc, len), LP_OK, "fold");
	CHECK_SAME_STATE(got, want, "fold gives one route * with every value");
	g_alloc.free(g_alloc.ctx, enc);
	lp_state_free(got);

	/* the empty state folds to the empty state */
	got = lp_state_create(&g_alloc);
	enc = encode(empty, &len);
	CHECK_EQ_I(lp_state_fold(got, "*", 1, enc, len), LP_OK, "fold empty");
	CHECK_EQ_U(got->nroutes, 0, "fold of empty has no route");
	g_alloc.free(g_alloc.ctx, enc);
	lp_state_free(got);

	/* routes whose requests add up past INT64_MAX */
	lp_state_free(st);
	st = lp_state_create(&g_alloc);
	lp_state_route(st, "/a", 2, &r);
	lp_hist_add(&st->alloc, &r->hist, 1, (uint64_t) INT64_MAX);
	lp_state_route(st, "/b", 2, &r);
	lp_hist_add(&st->alloc, &r->hist, 1, 1);
	enc = encode(st, &len);
	got = lp_state_create(&g_alloc);
	CHECK_EQ_I(lp_state_fold(got, "*", 1, enc, len), LP_EOVERFLOW, "fold past INT64_MAX");
	lp_state_free(got);
	got = lp_state_create(&g_alloc);
	CHECK_EQ_I(lp_state_fold(got, "*", 1, enc, len - 1), LP_ECORRUPT, "fold of a truncated state");
	g_alloc.free(g_alloc.ctx, enc);
	lp_state_free(got);
	lp_state_free(st);
	lp_state_free(want);
	lp_state_free(empty);
}
