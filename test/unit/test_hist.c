/* test/unit/test_hist.c -- unit tests of one route's histogram (lp_hist.c): dense array, batches, sorted pairs */
#include "test_harness.h"

/*
 * The dense array for small values: values arrive in a scrambled order,
 * small and large mixed, so the array is created, doubled and fed from the
 * slot table on the way; the sorted pairs, the merge and the encoding must
 * all equal a plain reference count.  Also: a route with few values never
 * gets an array (memory follows distinct values), and running out of
 * memory while the array grows leaves the histogram as it was.
 */
void
test_state_dense(void)
{
	enum
	{
		NV = 9000
	};
	static uint64_t want[NV];
	test_heap	heap;
	lp_allocator a;
	lp_state   *st,
			   *half1,
			   *half2;
	lp_route   *r;
	lp_pair    *pairs = malloc(sizeof(lp_pair) * NV);
	uint64_t	total = 0;
	uint32_t	i,
				n = 0,
				bad = 0;
	uint8_t    *e1,
			   *e2;
	size_t		l1,
				l2;

	heap_init(&heap, &a);
	st = lp_state_create(&a);
	half1 = lp_state_create(&a);
	half2 = lp_state_create(&a);
	memset(want, 0, sizeof(want));
	for (i = 0; i < 60000; i++)
	{
		/* a scrambled walk over 0..NV-1 with uneven repeats */
		uint32_t	v = (uint32_t) (((uint64_t) i * 7919u + (i >> 3)) % NV);

		if (i % 5 == 0)
			v = v % 300;		/* a hot body of small values */
		want[v]++;
		total++;
		bad += lp_state_add(st, "/d", 2, v) != LP_OK;
		bad += lp_state_add(i % 2 ? half1 : half2, "/d", 2, v) != LP_OK;
	}
	CHECK_EQ_U(bad, 0, "every add succeeds");
	r = find_route(st, "/d", 2);
	if (CHECK(r != NULL, "dense route"))
	{
		/* every value below NV: the power of two above it, as the density rule allows */
		CHECK_EQ_U(r->hist.dense_cap, 16384, "dense array grew to take every value");
		CHECK_EQ_U(r->hist.total, total, "dense total");
		for (i = 0; i < NV; i++)
			n += want[i] != 0;
		CHECK_EQ_U(r->hist.used, n, "dense distinct values");
		CHECK((uint64_t) r->hist.hused * 4 <= (uint64_t) (r->hist.mask + 1) * 3,
			  "slot load factor <= 3/4");
		lp_hist_sorted(&r->hist, pairs);
		for (i = 0, n = 0; i < NV; i++)
		{
			if (!want[i])
				continue;
			if ((pairs[n].value != (int64_t) i || pairs[n].count != want[i]) && bad++ < 5)
				CHECK(0, "sorted pair %u: expected value %u count %llu got value %lld count %llu",
					  n, i, (unsigned long long) want[i], (long long) pairs[n].value,
					  (unsigned long long) pairs[n].count);
			n++;
		}
		CHECK_EQ_U(bad, 0, "dense + slots sorted pairs equal the reference");
	}
	/* merged halves encode to the same bytes as the whole */
	CHECK_EQ_I(lp_state_merge(half1, half2), LP_OK, "merge halves");
	CHECK_EQ_I(lp_encode(st, &a, 0, SIZE_MAX, &e1, &l1), LP_OK, "encode whole");
	CHECK_EQ_I(lp_encode(half1, &a, 0, SIZE_MAX, &e2, &l2), LP_OK, "encode merged");
	CHECK_SAME_ENC(e2, l2, e1, l1, "merged halves == whole, byte for byte");
	a.free(a.ctx, e1);
	a.free(a.ctx, e2);
	lp_state_free(half1);
	lp_state_free(half2);

	/* outside the contract, refused cleanly: a zero count, a negative value */
	{
		lp_route   *rz = find_route(st, "/d", 2);
		lp_hist		before = rz->hist;

		CHECK_EQ_I(lp_hist_add(&st->alloc, &rz->hist, 5, 0), LP_OK, "zero count is a no-op");
		CHECK_EQ_I(lp_hist_add(&st->alloc, &rz->hist, 99999, 0), LP_OK, "zero count, new value: no-op");
		CHECK_EQ_I(lp_state_add(st, "/d", 2, -1), LP_EINTERNAL, "negative value refused");
		CHECK(rz->hist.used == before.used && rz->hist.total == before.total &&
			  rz->hist.hused == before.hused, "refused adds change nothing");
	}

	/* a sparse route keeps to the slot table */
	for (i = 0; i < 6; i++)
		lp_state_add(st, "/sparse", 7, i * 500);
	r = find_route(st, "/sparse", 7);
	CHECK(r && r->hist.dense == NULL && r->hist.used == 6, "few values: no dense array");

	/*
	 * The rows rule: one latency of 300 repeated makes no array while the
	 * route has counted fewer than 512 / LP_DENSE_ROWS = 64 rows (one
	 * distinct value never passes the density rule), then an array of 512
	 * that takes the value over from the slot table, count intact; a value
	 * of LP_DENSE_ROWS_MAX or more never widens an array by rows.
	 */
	{
		uint32_t	need = 512 / LP_DENSE_ROWS;

		bad = 0;
		for (i = 0; i + 1 < need; i++)
			bad += lp_state_add(st, "/rows", 5, 300) != LP_OK;
		r = find_route(st, "/rows", 5);
		CHECK(r && r->hist.dense_cap <= 300 && r->hist.hused == 1 && r->hist.total == need - 1,
			  "rows rule: %u rows of 300 stay in the slot table", need - 1);
		bad += lp_state_add(st, "/rows", 5, 300) != LP_OK;
		r = find_route(st, "/rows", 5);
		CHECK(r && r->hist.dense_cap == 512 && r->hist.hused == 0 && r->hist.dense[300] == need &&
			  r->hist.used == 1 && r->hist.total == need,
			  "rows rule: the %u-th row widens the array to 512, the count moved exactly", need);
		for (i = 0; i < 10000; i++)
			bad += lp_state_add(st, "/big", 4, LP_DENSE_ROWS_MAX) != LP_OK;
		r = find_route(st, "/big", 4);
		CHECK(r && r->hist.dense_cap <= LP_DENSE_ROWS_MAX && r->hist.hused == 1 &&
			  r->hist.total == 10000 && r->hist.used == 1,
			  "rows rule: a value of LP_DENSE_ROWS_MAX never widens the array by rows");
		CHECK_EQ_U(bad, 0, "rows rule: every add succeeds");
	}

	/* out of memory while the array would be made: nothing changes */
	{
		lp_state   *s2;
		lp_route   *r2;
		long		k;
		int			rc = LP_OK;

		for (k = 0; k < 64 && rc == LP_OK; k++)
			rc = lp_state_add(st, "/grow", 5, k * 3);
		s2 = st;
		r2 = find_route(s2, "/grow", 5);
		if (CHECK(r2 != NULL, "grow route"))
		{
			lp_hist		before = r2->hist;

			heap.fail_at = heap.nalloc;
			heap.sticky = 1;
			/* a value that makes the array grow or be made */
			rc = lp_state_add(s2, "/grow", 5, 1000);
			heap.fail_at = -1;
			heap.sticky = 0;
			if (rc == LP_ENOMEM)
				CHECK(r2->hist.used == before.used && r2->hist.total == before.total &&
					  r2->hist.dense == before.dense && r2->hist.slots == before.slots,
					  "failed growth leaves the histogram unchanged");
			else
				CHECK_EQ_I(rc, LP_OK, "add without allocation");
		}
	}
	lp_state_free(st);
	CHECK_EQ_I(heap.live, 0, "dense test frees everything");
	free(pairs);
}

/*
 * A dense slot holds a 32-bit count: a count past 2^32 - 1 for one latency
 * makes the histogram give its array up and keep every count in the slot
 * table, exactly; a decoded state with such a count never makes an array.
 */
void
test_state_dense_overflow(void)
{
	test_heap	heap;
	lp_allocator a;
	lp_state   *st,
			   *back;
	lp_route   *r;
	lp_pair		pairs[200];
	uint8_t    *e1,
			   *e2;
	size_t		l1,
				l2;
	uint32_t	i,
				bad = 0;
	uint64_t	big = (uint64_t) UINT32_MAX;

	heap_init(&heap, &a);
	st = lp_state_create(&a);
	for (i = 0; i < 100; i++)
		bad += lp_state_add(st, "/o", 2, i) != LP_OK;
	CHECK_EQ_U(bad, 0, "overflow route: adds");
	r = find_route(st, "/o", 2);
	if (!CHECK(r != NULL && r->hist.dense_cap >= 64, "overflow route has a dense array"))
		return;
	/* 1 + (2^32 - 1) passes a 32-bit slot */
	CHECK_EQ_I(lp_hist_add(&st->alloc, &r->hist, 5, big), LP_OK, "count past 2^32 - 1");
	CHECK_EQ_U(r->hist.dense_cap, 0, "dense array given up");
	CHECK_EQ_U(r->hist.used, 100, "distinct values kept");
	CHECK_EQ_U(r->hist.hused, 100, "all in the slot table");
	CHECK_EQ_U(r->hist.total, 100 + big, "total exact");
	/* later adds, small and large values, land in the table and stay exact */
	for (i = 0; i < 100; i++)
		bad += lp_state_add(st, "/o", 2, i) != LP_OK;
	bad += lp_state_add(st, "/o", 2, 150) != LP_OK;
	CHECK_EQ_U(bad, 0, "adds after giving up");
	CHECK_EQ_U(r->hist.dense_cap, 0, "no new dense array");
	lp_hist_sorted(&r->hist, pairs);
	for (i = 0; i <= 100; i++)
	{
		int64_t		v = i < 100 ? (int64_t) i : 150;
		uint64_t	c = i == 5 ? 2 + big : i < 100 ? 2 : 1;

		if ((pairs[i].value != v || pairs[i].count != c) && bad++ < 5)
			CHECK(0, "sorted pair %u after giving up: expected value %lld count %llu got value %lld count %llu",
				  i, (long long) v, (unsigned long long) c, (long long) pairs[i].value,
				  (unsigned long long) pairs[i].count);
	}
	CHECK_EQ_U(bad, 0, "sorted pairs exact after giving up");

	/* the encoding decodes into a state with the same bytes; no dense slot takes the big count */
	CHECK_EQ_I(lp_encode(st, &a, 0, SIZE_MAX, &e1, &l1), LP_OK, "encode big count");
	/* into a state whose route already has an array: the big count gives it up */
	back = lp_state_create(&a);
	for (i = 0; i < 240; i++)
		bad += lp_state_add(back, "/o", 2, i % 120) != LP_OK;
	r = find_route(back, "/o", 2);
	CHECK(r != NULL && r->hist.dense_cap >= 64, "receiving route has an array");
	CHECK_EQ_I(lp_decode_into(back, e1, l1), LP_OK, "decode big count into an array");
	CHECK_EQ_U(r->hist.dense_cap, 0, "receiving array given up");
	lp_hist_sorted(&r->hist, pairs);
	CHECK(pairs[5].value == 5 && pairs[5].count == 2 + 2 + big && pairs[110].count == 2 &&
		  r->hist.total == 240 + 200 + big + 1, "decoded into an array: exact");
	lp_state_free(back);
	back = lp_state_create(&a);
	CHECK_EQ_I(lp_decode_into(back, e1, l1), LP_OK, "decode big count");
	CHECK_EQ_I(lp_encode(back, &a, 0, SIZE_MAX, &e2, &l2), LP_OK, "re-encode big count");
	CHECK_SAME_ENC(e2, l2, e1, l1, "big count round trip, byte for byte");
	/* merge twice: the big count doubles, still exact */
	CHECK_EQ_I(lp_decode_into(back, e1, l1), LP_OK, "decode again");
	r = find_route(back, "/o", 2);
	lp_hist_sorted(&r->hist, pairs);
	CHECK(pairs[5].value == 5 && pairs[5].count == 2 * (2 + big) && pairs[6].count == 4,
		  "merged big counts exact");
	a.free(a.ctx, e1);
	a.free(a.ctx, e2);
	lp_state_free(back);
	lp_state_free(st);
	CHECK_EQ_I(heap.live, 0, "overflow test frees everything");
}

/*
 * Decoding and merging size each route's histogram once for all its values
 * (lp_hist_reserve): the same contents as value-by-value adds, the density
 * rule kept, and only a few allocations per route however many values.
 */
void
test_state_batch(void)
{
	test_heap	heap;
	lp_allocator a;
	lp_state   *src,
			   *dec,
			   *mrg,
			   *acc;
	lp_route   *r;
	lp_hist_batch b;
	uint8_t    *e0,
			   *e1;
	size_t		l0,
				l1;
	long		before;
	uint32_t	i;

	heap_init(&heap, &a);
	src = lp_state_create(&a);
	/* /body: 1500 distinct values in 0..2999, /tail: sparse big values, /mix: both */
	for (i = 0; i < 1500; i++)
	{
		lp_state_add(src, "/body", 5, (int64_t) i * 2);
		lp_state_add(src, "/body", 5, (int64_t) i * 2);
		lp_state_add(src, "/tail", 5, (int64_t) i * 1000 + 7);
		lp_state_add(src, "/mix", 4, i % 3 ? (int64_t) (i % 200) : (int64_t) i * 37);
	}
	e0 = encode(src, &l0);

	/* decode into an empty state: at most 4 allocations per route, equal bytes */
	dec = lp_state_create(&a);
	before = heap.nalloc;
	CHECK_EQ_I(lp_decode_into(dec, e0, l0), LP_OK, "batch: decode");
	CHECK(heap.nalloc - before <= 3 * 4 + 1, "batch: decode allocates at most 4 blocks per route (%ld for 3 routes)",
		  heap.nalloc - before);
	e1 = encode(dec, &l1);
	CHECK_SAME_ENC(e1, l1, e0, l0, "batch: decoded state encodes to the same bytes");
	g_alloc.free(g_alloc.ctx, e1);
	r = find_route(dec, "/body", 5);
	if (CHECK(r != NULL, "batch: /body decoded"))
	{
		CHECK_EQ_U(r->hist.dense_cap, 4096, "batch: /body dense array sized at once");
		CHECK_EQ_U(r->hist.hused, 0, "batch: /body has nothing in slots");
	}
	r = find_route(dec, "/tail", 5);
	if (CHECK(r != NULL, "batch: /tail decoded"))
	{
		CHECK((uint64_t) r->hist.dense_cap <= (uint64_t) LP_DENSE_RATIO * r->hist.used,
			  "batch: /tail keeps the density rule");
		CHECK((uint64_t) r->hist.hused * 4 <= (uint64_t) (r->hist.mask + 1) * 3,
			  "batch: /tail slot load factor <= 3/4");
	}

	/* merge a live state into an empty one: few allocations, equal bytes */
	mrg = lp_state_create(&a);
	before = heap.nalloc;
	CHECK_EQ_I(lp_state_merge(mrg, src), LP_OK, "batch: merge into empty");
	CHECK(heap.nalloc - before <= 3 * 4 + 1, "batch: merge allocates at most 4 blocks per route (%ld for 3 routes)",
		  heap.nalloc - before);
	e1 = encode(mrg, &l1);
	CHECK_SAME_ENC(e1, l1, e0, l0, "batch: merged state encodes to the same bytes");
	g_alloc.free(g_alloc.ctx, e1);

	/* merging into a state that has other values of the same routes: exact union */
	acc = lp_state_create(&a);
	for (i = 0; i < 50; i++)
		lp_state_add(acc, "/mix", 4, (int64_t) i * 5000);
	CHECK_EQ_I(lp_state_merge(acc, src), LP_OK, "batch: merge into non-empty");
	CHECK_EQ_I(lp_state_merge(acc, src), LP_OK, "batch: merge the same state again");
	r = find_route(acc, "/mix", 4);
	if (CHECK(r != NULL, "batch: /mix merged"))
	{
		lp_route   *rs = find_route(src, "/mix", 4);

		CHECK_EQ_U(r->hist.total, 2 * rs->hist.total + 50, "batch: /mix total is the sum");
		CHECK_EQ_U(r->hist.used, rs->hist.used + 49, "batch: /mix distinct values (value 0 shared)");
		CHECK((uint64_t) r->hist.dense_cap <= (uint64_t) LP_DENSE_RATIO * r->hist.used,
			  "batch: /mix keeps the density rule");
	}

	/* the batch counts values by the dense sizes they need */
	memset(&b, 0, sizeof(b));
	lp_hist_batch_note(&b, 0);
	lp_hist_batch_note(&b, 63);
	lp_hist_batch_note(&b, 64);
	lp_hist_batch_note(&b, 4095);
	lp_hist_batch_note(&b, 4096);
	lp_hist_batch_note(&b, INT64_MAX);
	CHECK(b.n == 6 && b.small[0] == 2 && b.small[1] == 1 && b.small[6] == 1 &&
		  b.small[2] + b.small[3] + b.small[4] + b.small[5] == 0,
		  "batch: values counted by dense size");

	g_alloc.free(g_alloc.ctx, e0);
	lp_state_free(src);
	lp_state_free(dec);
	lp_state_free(mrg);
	lp_state_free(acc);
	CHECK_EQ_I(heap.live, 0, "batch test frees everything");
}

/* Calls of sorted_hook so far. */
static long sorted_hook_calls;

/* An interrupt hook that counts its calls. */
static void
sorted_hook(void)
{
	sorted_hook_calls++;
}

/*
 * lp_hist_sorted: the slot-table values come out ascending and complete,
 * whatever their number; a long sort calls the interrupt hook.
 */
void
test_state_sorted(void)
{
	static const uint32_t sizes[] = {0, 1, 2, 3, 23, 24, 25, 26, 100, 1000, 5000, 40000};
	size_t		k;
	uint64_t	x = 12345;

	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
	{
		lp_state   *st = lp_state_create(&g_alloc);
		lp_route   *r;
		lp_pair    *out;
		uint32_t	i,
					bad = 0;
		uint64_t	sum = 0,
					got = 0;

		/* values >= LP_DENSE_MAX all go to the slot table; some twice */
		for (i = 0; i < sizes[k]; i++)
		{
			int64_t		v;

			x = x * 6364136223846793005u + 1442695040888963407u;
			v = LP_DENSE_MAX + (int64_t) (x >> 20) % 1000000007;
			bad += lp_state_add(st, "/s", 2, v) != LP_OK;
			sum += (uint64_t) v;
		}
		lp_state_add(st, "/s", 2, 1);	/* the route exists even for size 0 */
		r = find_route(st, "/s", 2);
		out = malloc(sizeof(lp_pair) * (r->hist.used + 1));
		sorted_hook_calls = 0;
		lp_interrupt_hook = sorted_hook;
		lp_hist_sorted(&r->hist, out);
		lp_interrupt_hook = NULL;
		if (sizes[k] == 40000)
			CHECK(sorted_hook_calls > 0, "sorted pairs: sorting 40000 values calls the interrupt hook (%ld times)",
				  sorted_hook_calls);
		for (i = 0; i < r->hist.used; i++)
		{
			if (i > 0 && out[i].value <= out[i - 1].value && bad++ < 5)
				CHECK(0, "sorted pairs of %u values: pair %u value %lld after %lld",
					  (unsigned) sizes[k], i, (long long) out[i].value, (long long) out[i - 1].value);
			got += (uint64_t) out[i].value * out[i].count;
		}
		CHECK_EQ_U(bad, 0, "sorted pairs: values ascending");
		CHECK_EQ_U(got, sum + 1, "sorted pairs: the sum of value times count is the sum of the values added");
		free(out);
		lp_state_free(st);
	}
}


/* one (route, value) of the long-tailed test, for the reference sort */
typedef struct lt_row
{
	int32_t		route;
	int64_t		value;
} lt_row;

static int
lt_row_cmp(const void *a, const void *b)
{
	const lt_row *x = a,
			   *y = b;

	if (x->route != y->route)
		return x->route < y->route ? -1 : 1;
	return x->value < y->value ? -1 : x->value > y->value;
}

/*
 * Long-tailed latencies (lp_gen's LP_GEN_LONG_TAIL: thousands of distinct
 * values a busy route, out to 60,000 ms): every route's sorted pairs equal
 * a plain reference (the rows sorted and counted), whether the rows came
 * through lp_state_add, lp_state_add_pipelined or a merge of two halves;
 * the three states pass lp_state_check and encode to the same bytes; and
 * the busiest route counts values past 4,096 ms (the dense array's old
 * limit) in its dense array, with the slot table holding only the sparse
 * rest.
 */
void
test_state_long_tail(void)
{
	enum
	{
		NROWS = 400000, NROUTES = 20
	};
	lt_row	   *rows = malloc(sizeof(lt_row) * NROWS);
	lp_pair    *pairs = malloc(sizeof(lp_pair) * NROWS);
	lp_state   *st = lp_state_create(&g_alloc),
			   *pst = lp_state_create(&g_alloc),
			   *h1 = lp_state_create(&g_alloc),
			   *h2 = lp_state_create(&g_alloc);
	lp_gen		g;
	char		line[LP_GEN_MAXLINE];
	char		key[64];
	uint32_t	i,
				bad = 0,
				badpairs = 0,
				distinct_max = 0,
				busiest = 0,
				big_dense = 0;
	const char *why = NULL;
	uint8_t    *e[3];
	size_t		l[3];

	lp_gen_init(&g, NROUTES, 7);
	lp_gen_set_latency(&g, LP_GEN_LONG_TAIL);
	for (i = 0; i < NROWS; i++)
	{
		/* "<timestamp> <method> <route> <ms>": the route's number and the ms */
		char	   *sp,
				   *r;
		int			klen;

		lp_gen_line(&g, i, line);
		sp = strrchr(line, ' ');
		rows[i].value = atoll(sp + 1);
		*sp = '\0';
		r = strrchr(line, ' ') + 1;
		rows[i].route = (int32_t) strlen(r) * 1000 + (int32_t) atoi(strpbrk(r, "0123456789"));
		klen = snprintf(key, sizeof(key), "/r%d", (int) rows[i].route);
		bad += lp_state_add(st, key, klen, rows[i].value) != LP_OK;
		bad += lp_state_add_pipelined(pst, key, klen, rows[i].value) != LP_OK;
		bad += lp_state_add(i % 3 ? h1 : h2, key, klen, rows[i].value) != LP_OK;
	}
	bad += lp_state_flush(pst) != LP_OK;
	bad += lp_state_merge(h1, h2) != LP_OK;
	CHECK_EQ_U(bad, 0, "long tail: every add and the merge succeed");
	why = lp_state_check(st);
	CHECK(why == NULL, "long tail: state checks (%s)", why ? why : "");
	why = lp_state_check(pst);
	CHECK(why == NULL, "long tail: pipelined state checks (%s)", why ? why : "");
	why = lp_state_check(h1);
	CHECK(why == NULL, "long tail: merged state checks (%s)", why ? why : "");

	/* the reference: rows sorted by (route, value), runs counted */
	qsort(rows, NROWS, sizeof(lt_row), lt_row_cmp);
	for (i = 0; i < NROWS;)
	{
		uint32_t	j = i,
					n = 0,
					k,
					s;
		int			klen = snprintf(key, sizeof(key), "/r%d", (int) rows[i].route);
		const lp_state *states[3] = {st, pst, h1};

		/* the route's reference pairs into pairs[0 .. n) */
		while (j < NROWS && rows[j].route == rows[i].route)
		{
			if (n == 0 || pairs[n - 1].value != rows[j].value)
			{
				pairs[n].value = rows[j].value;
				pairs[n++].count = 0;
			}
			pairs[n - 1].count++;
			j++;
		}
		for (s = 0; s < 3; s++)
		{
			lp_route   *r = find_route(states[s], key, klen);
			lp_pair    *got;

			if (!r || r->hist.used != n || r->hist.total != j - i)
			{
				if (badpairs++ < 5)
					CHECK(0, "long tail: route %s of state %u: %u distinct values and %llu rows, want %u and %u",
						  key, s, r ? r->hist.used : 0, r ? (unsigned long long) r->hist.total : 0ULL, n, j - i);
				continue;
			}
			got = malloc(sizeof(lp_pair) * n);
			lp_hist_sorted(&r->hist, got);
			for (k = 0; k < n; k++)
				if ((got[k].value != pairs[k].value || got[k].count != pairs[k].count) && badpairs++ < 5)
					CHECK(0, "long tail: route %s of state %u, pair %u: value %lld count %llu, want %lld %llu",
						  key, s, k, (long long) got[k].value, (unsigned long long) got[k].count,
						  (long long) pairs[k].value, (unsigned long long) pairs[k].count);
			free(got);
			if (s == 0 && n > distinct_max)
			{
				distinct_max = n;
				busiest = (uint32_t) rows[i].route;
				big_dense = 0;
				for (k = 0; k < n; k++)
					big_dense += pairs[k].value >= 4096 && (uint64_t) pairs[k].value < r->hist.dense_cap;
			}
		}
		i = j;
	}
	CHECK_EQ_U(badpairs, 0, "long tail: sorted pairs of every route equal the reference, three ways");
	CHECK(distinct_max > 1000, "long tail: the busiest route (/r%u) holds %u distinct values", busiest, distinct_max);
	CHECK(big_dense > 0, "long tail: the busiest route (%u distinct values) counts %u values past 4,096 ms in its dense array", distinct_max, big_dense);

	/* the same counts encode to the same bytes */
	CHECK_EQ_I(lp_encode(st, &g_alloc, 0, SIZE_MAX, &e[0], &l[0]), LP_OK, "long tail: encode");
	CHECK_EQ_I(lp_encode(pst, &g_alloc, 0, SIZE_MAX, &e[1], &l[1]), LP_OK, "long tail: encode pipelined");
	CHECK_EQ_I(lp_encode(h1, &g_alloc, 0, SIZE_MAX, &e[2], &l[2]), LP_OK, "long tail: encode merged");
	CHECK(l[0] == l[1] && l[0] == l[2] && memcmp(e[0], e[1], l[0]) == 0 && memcmp(e[0], e[2], l[0]) == 0,
		  "long tail: the three states encode to the same %zu bytes", l[0]);
	for (i = 0; i < 3; i++)
		g_alloc.free(g_alloc.ctx, e[i]);
	lp_state_free(st);
	lp_state_free(pst);
	lp_state_free(h1);
	lp_state_free(h2);
	free(rows);
	free(pairs);
}
