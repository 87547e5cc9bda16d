/* test/unit/test_run.c -- unit tests of the rollups' running state (lp_run.c) against lp_state and lp_encode */
#include "test_harness.h"

#include "lp_run.h"

/* A small deterministic generator (xorshift64*). */
static uint64_t
run_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

/*
 * Route number i of a family: keys that share long prefixes, that are
 * prefixes of one another, of every length from 0 (the empty route) up,
 * with bytes past 0x7f; written into buf, the length returned.
 */
static size_t
run_key(uint64_t i, char *buf)
{
	switch (i % 5)
	{
		case 0:
			return (size_t) sprintf(buf, "/api/v2/users/%llu/orders", (unsigned long long) (i / 5));
		case 1:
			return (size_t) sprintf(buf, "/api/v2/users/%llu", (unsigned long long) (i / 5));
		case 2:
			return (size_t) sprintf(buf, "/s%llu\xc3\xa9", (unsigned long long) (i / 5));
		case 3:
			return i / 5 % 7 == 0 ? 0 : (size_t) sprintf(buf, "%c", (char) ('a' + i / 5 % 26));
		default:
			memset(buf, 'x', 40 + i % 300);
			return 40 + i % 300;
	}
}

/* A value of a kind: small, milliseconds, wide, or past 32 bits. */
static int64_t
run_value(uint64_t *s, int kind)
{
	uint64_t	x = run_rand(s);

	switch (kind)
	{
		case 0:
			return (int64_t) (x % 8);
		case 1:
			return (int64_t) (x % 5000);
		case 2:
			return (int64_t) (x % 100000000);
		default:
			return (x & 1) ? INT64_MAX - (int64_t) (x % 3) : (int64_t) (x >> 2);
	}
}

/*
 * One run of `rows` rows over `nroutes` routes starting at route `first`,
 * values of `kind`, `malformed` malformed lines: counted into r and into a
 * fresh lp_state; both encodings must be the same bytes.
 */
static void
run_compare(lp_run *r, uint64_t *seed, uint64_t first, uint64_t nroutes, size_t rows,
			int kind, uint64_t malformed, const char *what)
{
	lp_state   *st = lp_state_create(&g_alloc);
	char		key[512];
	size_t		i,
				klen,
				got_len,
				want_len;
	uint8_t    *got,
			   *want;
	int			rc_run = LP_OK,
				rc_state = LP_OK;

	for (i = 0; i < rows; i++)
	{
		uint64_t	route = first + run_rand(seed) % nroutes;
		int64_t		v = run_value(seed, kind);

		klen = run_key(route, key);
		if (rc_run == LP_OK)
			rc_run = lp_run_add(r, key, klen, v);
		if (rc_state == LP_OK)
			rc_state = lp_state_add(st, key, klen, v);
	}
	CHECK_EQ_I(rc_run, LP_OK, what);
	CHECK_EQ_I(rc_state, LP_OK, what);
	CHECK_EQ_I(lp_run_add_malformed(r, malformed), LP_OK, what);
	CHECK_EQ_I(lp_state_add_malformed(st, malformed), LP_OK, what);
	CHECK_EQ_I(lp_run_encode(r, &g_alloc, 5, SIZE_MAX / 4, &got, &got_len), LP_OK, what);
	CHECK_EQ_I(lp_encode(st, &g_alloc, 0, SIZE_MAX / 4, &want, &want_len), LP_OK, what);
	CHECK_SAME_ENC(got + 5, got_len, want, want_len, "%s: the run encodes as lp_encode of the same rows", what);
	g_alloc.free(g_alloc.ctx, got);
	g_alloc.free(g_alloc.ctx, want);
	lp_state_free(st);
}

/*
 * Runs against lp_state and lp_encode: empty runs, one row, the routes of
 * one run kept for the next (the ranks computed again when a new route
 * comes), every kind of value, runs past LP_RUN_ROWS_MAX (moved into an
 * lp_state), routes forgotten after runs of lines with a route each.
 */
void
test_run_encode(void)
{
	lp_run	   *r = lp_run_create(&g_alloc);
	uint64_t	seed = 0x9E3779B97F4A7C15u;
	int			kind;
	char		what[128];

	CHECK(r != NULL, "run: create");
	run_compare(r, &seed, 0, 1, 0, 0, 0, "run: empty");
	run_compare(r, &seed, 0, 1, 0, 0, 3, "run: only malformed lines");
	run_compare(r, &seed, 0, 1, 1, 1, 0, "run: one row");
	for (kind = 0; kind < 4; kind++)
	{
		snprintf(what, sizeof(what), "run: 600 rows, 200 routes, values of kind %d", kind);
		run_compare(r, &seed, 0, 200, 600, kind, kind, what);
		snprintf(what, sizeof(what), "run: the same routes again, kind %d", kind);
		run_compare(r, &seed, 0, 200, 600, kind, 0, what);
		snprintf(what, sizeof(what), "run: 20 new routes among them, kind %d", kind);
		run_compare(r, &seed, 190, 30, 600, kind, 1, what);
		snprintf(what, sizeof(what), "run: one route, many values, kind %d", kind);
		run_compare(r, &seed, 7, 1, 5000, kind, 0, what);
	}
	run_compare(r, &seed, 0, 300, LP_RUN_ROWS_MAX, 1, 2, "run: exactly LP_RUN_ROWS_MAX rows");
	run_compare(r, &seed, 0, 300, LP_RUN_ROWS_MAX + 1, 1, 2, "run: one row past LP_RUN_ROWS_MAX");
	run_compare(r, &seed, 0, 300, 3 * LP_RUN_ROWS_MAX + 17, 2, 0, "run: three times LP_RUN_ROWS_MAX");
	run_compare(r, &seed, 0, 300, 600, 1, 0, "run: short again after long ones");
	/* a route a line, many of them: kept past LP_RUN_ROUTES_KEEP, then forgotten */
	run_compare(r, &seed, 1000, 3 * LP_RUN_ROUTES_KEEP, 3 * LP_RUN_ROUTES_KEEP, 1, 0,
				"run: a new route nearly every line");
	run_compare(r, &seed, 1000, 3 * LP_RUN_ROUTES_KEEP, 10, 1, 0,
				"run: a short run after it (routes forgotten)");
	run_compare(r, &seed, 0, 200, 600, 1, 0, "run: the first routes again");
	run_compare(r, &seed, 5000, 2 * LP_RUN_ROWS_MAX, 2 * LP_RUN_ROWS_MAX + 5, 0, 0,
				"run: long, a route a line");
	run_compare(r, &seed, 0, 200, 600, 3, 0, "run: after it");
	lp_run_free(r);
}

/* Negative values, the size limit, a run emptied by a failed encoding. */
void
test_run_limits(void)
{
	lp_run	   *r = lp_run_create(&g_alloc);
	uint8_t    *out = NULL;
	size_t		len = 0;
	uint8_t		empty[3] = {LP_CODEC_VERSION, 0, 0};

	CHECK_EQ_I(lp_run_add(r, "/a", 2, -1), LP_EINTERNAL, "run: a negative value is a caller's bug");
	CHECK_EQ_I(lp_run_add(r, "/a", 2, 5), LP_OK, "run: add");
	CHECK_EQ_I(lp_run_add_malformed(r, INT64_MAX), LP_OK, "run: malformed up to INT64_MAX");
	CHECK_EQ_I(lp_run_add_malformed(r, 1), LP_EOVERFLOW, "run: malformed past INT64_MAX");
	CHECK_EQ_I(lp_run_encode(r, &g_alloc, 0, 8, &out, &len), LP_ETOOBIG, "run: past max_len");
	CHECK_EQ_I(lp_run_encode(r, &g_alloc, 0, SIZE_MAX / 4, &out, &len), LP_OK,
			   "run: encode after a failed encoding");
	CHECK_SAME_ENC(out, len, empty, sizeof(empty), "run: a failed encoding leaves the next run empty");
	g_alloc.free(g_alloc.ctx, out);
	lp_run_free(r);
}

/*
 * Count `rows` rows (routes of the first `nroutes`) and encode them with
 * an allocator that fails at allocation `at`: the result code.
 */
static int
run_oom_once(lp_run **rp, lp_allocator *a, test_heap *h, long at, size_t rows, uint64_t nroutes)
{
	uint64_t	seed = 42;
	size_t		i;
	int			rc = LP_OK;
	uint8_t    *out = NULL;
	size_t		len;
	char		key[512];

	h->nalloc = 0;
	h->nfailed = 0;
	h->fail_at = at;
	*rp = lp_run_create(a);
	if (!*rp)
		return LP_ENOMEM;
	for (i = 0; i < rows && rc == LP_OK; i++)
		rc = lp_run_add(*rp, key, run_key(run_rand(&seed) % nroutes, key), run_value(&seed, 1));
	if (rc == LP_OK)
		rc = lp_run_encode(*rp, a, 0, SIZE_MAX / 4, &out, &len);
	if (rc == LP_OK)
		a->free(a->ctx, out);
	return rc;
}

/*
 * Every allocation of a run (a short one, and one moved into an lp_state)
 * and of its encoding failing in turn: LP_ENOMEM, never a crash or a leak,
 * and after the failure the run counts and encodes what it is given next.
 */
void
test_run_oom(void)
{
	static const struct
	{
		size_t		rows;
		uint64_t	nroutes;
	}			cases[] = {{600, 60}, {LP_RUN_ROWS_MAX + 300, 40}};
	test_heap	h;
	lp_allocator a;
	int			c;

	heap_init(&h, &a);
	for (c = 0; c < 2; c++)
	{
		long		at;
		int			done = 0;

		for (at = 0; !done && at < 100000; at++)
		{
			lp_run	   *r;
			int			rc = run_oom_once(&r, &a, &h, at, cases[c].rows, cases[c].nroutes);
			uint8_t    *e;
			size_t		el;

			CHECK(rc == LP_OK || rc == LP_ENOMEM, "run oom: LP_OK or LP_ENOMEM (%zu rows, allocation %ld)",
				  cases[c].rows, at);
			if (rc == LP_OK && h.nfailed == 0)
				done = 1;
			h.fail_at = -1;
			if (r && rc != LP_OK)
			{
				/* what the failure left is dropped by the next encoding; then a run as any */
				if (lp_run_encode(r, &a, 0, SIZE_MAX / 4, &e, &el) == LP_OK)
					a.free(a.ctx, e);
				CHECK(lp_run_add(r, "/after", 6, 1) == LP_OK &&
					  lp_run_encode(r, &a, 0, SIZE_MAX / 4, &e, &el) == LP_OK &&
					  el == 14 && memcmp(e + 4, "/after", 6) == 0,
					  "run oom: the run after a failure at allocation %ld counts and encodes", at);
				if (el == 14)
					a.free(a.ctx, e);
			}
			if (r)
				lp_run_free(r);
			CHECK_EQ_I(h.live, 0, "run oom: no leak");
		}
		CHECK(done, "run oom: %zu rows: a run with no failure was reached", cases[c].rows);
	}
}
