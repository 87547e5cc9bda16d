/* test/unit/test_state.c -- unit tests of the route table and the state (lp_state.c), the pipelined add */
#include "test_harness.h"

/* Add, lookup, counts and sorted views on a small state. */
void
test_state_basic(void)
{
	lp_state   *st = lp_state_create(&g_alloc);
	lp_route   *r;
	lp_pair		pairs[8];
	const lp_route *routes[8];

	if (!CHECK(st != NULL, "create"))
		return;
	CHECK_EQ_I(lp_state_add(st, "/b", 2, 7), LP_OK, "add");
	CHECK_EQ_I(lp_state_add(st, "/a", 2, 5), LP_OK, "add");
	CHECK_EQ_I(lp_state_add(st, "/b", 2, 3), LP_OK, "add");
	CHECK_EQ_I(lp_state_add(st, "/b", 2, 7), LP_OK, "add");
	CHECK_EQ_I(lp_state_add(st, "", 0, 0), LP_OK, "add empty route");
	CHECK_EQ_I(lp_state_add(st, "/b/", 3, INT64_MAX), LP_OK, "add max value");
	CHECK_EQ_I(lp_state_add(st, "/\xc3\xa9", 3, 1), LP_OK, "add UTF-8 route");
	CHECK_EQ_I(st->nroutes, 5, "nroutes");

	r = find_route(st, "/b", 2);
	if (CHECK(r != NULL, "lookup /b"))
	{
		CHECK_EQ_U(r->hist.total, 3, "/b total");
		CHECK_EQ_U(r->hist.used, 2, "/b distinct");
		lp_hist_sorted(&r->hist, pairs);
		CHECK(pairs[0].value == 3 && pairs[0].count == 1 &&
			  pairs[1].value == 7 && pairs[1].count == 2, "/b sorted pairs");
	}
	CHECK(find_route(st, "/c", 2) == NULL, "lookup absent");
	CHECK(find_route(st, "/", 1) == NULL, "lookup a prefix");
	CHECK(find_route(st, "/b\0", 3) == NULL, "lookup with a NUL");
	CHECK_EQ_U(route_total(st, ""), 1, "empty route total");
	CHECK_EQ_U(route_total(st, "/b/"), 1, "max value route total");

	lp_state_sorted_routes(st, routes);
	CHECK(routes[0]->keylen == 0 && slice_is(routes[1]->key, routes[1]->keylen, "/a") &&
		  slice_is(routes[2]->key, routes[2]->keylen, "/b") &&
		  slice_is(routes[3]->key, routes[3]->keylen, "/b/") &&
		  slice_is(routes[4]->key, routes[4]->keylen, "/\xc3\xa9"),
		  "routes in byte order, prefix first, high bytes last");

	/* lp_state_route finds and creates */
	CHECK_EQ_I(lp_state_route(st, "/a", 2, &r), LP_OK, "route existing");
	CHECK_EQ_U(r->hist.total, 1, "route existing total");
	CHECK_EQ_I(lp_state_route(st, "/new", 4, &r), LP_OK, "route new");
	CHECK_EQ_U(st->nroutes, 6, "route new counted");
	CHECK_EQ_I(lp_hist_add(&st->alloc, &r->hist, 10, 1000), LP_OK, "hist add count");
	CHECK_EQ_U(route_total(st, "/new"), 1000, "hist add total");

	/* malformed counter */
	CHECK_EQ_U(st->malformed, 0, "malformed starts at 0");
	CHECK_EQ_I(lp_state_add_malformed(st, 3), LP_OK, "add malformed");
	CHECK_EQ_I(lp_state_add_malformed(st, 0), LP_OK, "add 0 malformed");
	CHECK_EQ_U(st->malformed, 3, "malformed count");
	CHECK_EQ_I(lp_state_add_malformed(st, (uint64_t) INT64_MAX - 3), LP_OK, "malformed to max");
	CHECK_EQ_I(lp_state_add_malformed(st, 1), LP_EMALFORMED_OVERFLOW, "malformed overflow");
	CHECK_EQ_U(st->malformed, (uint64_t) INT64_MAX, "malformed unchanged by overflow");

	/* lp_key_cmp */
	CHECK(lp_key_cmp("a", 1, "b", 1) < 0, "key cmp a<b");
	CHECK(lp_key_cmp("ab", 2, "a", 1) > 0, "key cmp prefix");
	CHECK(lp_key_cmp("", 0, "", 0) == 0, "key cmp empty");
	CHECK(lp_key_cmp("\x80", 1, "z", 1) > 0, "key cmp unsigned");
	CHECK(lp_hash_bytes("/api", 4) == lp_hash_bytes("/api", 4), "hash deterministic");
	CHECK(lp_hash_bytes("/api", 4) != lp_hash_bytes("/apj", 4), "hash differs");
	lp_state_free(st);
}

/* Counts that would pass INT64_MAX are refused and change nothing. */
void
test_state_overflow(void)
{
	lp_state   *a = lp_state_create(&g_alloc);
	lp_state   *b = lp_state_create(&g_alloc);
	lp_route   *r;

	CHECK_EQ_I(lp_state_route(a, "/o", 2, &r), LP_OK, "overflow route");
	CHECK_EQ_I(lp_hist_add(&a->alloc, &r->hist, 1, (uint64_t) INT64_MAX - 1), LP_OK, "big count");
	CHECK_EQ_I(lp_state_add(a, "/o", 2, 2), LP_OK, "reach INT64_MAX");
	CHECK_EQ_U(route_total(a, "/o"), INT64_MAX, "total at INT64_MAX");
	CHECK_EQ_I(lp_state_add(a, "/o", 2, 2), LP_EOVERFLOW, "existing value overflow");
	CHECK_EQ_I(lp_state_add(a, "/o", 2, 3), LP_EOVERFLOW, "new value overflow");
	CHECK_EQ_U(route_total(a, "/o"), INT64_MAX, "total unchanged");
	CHECK_EQ_U(find_route(a, "/o", 2)->hist.used, 2, "no value added");
	CHECK_EQ_I(lp_state_add(a, "/other", 6, 3), LP_OK, "other routes still fine");

	CHECK_EQ_I(lp_state_add(b, "/o", 2, 1), LP_OK, "one more");
	CHECK_EQ_I(lp_state_merge(a, b), LP_EOVERFLOW, "merge overflow");
	CHECK_EQ_I(lp_state_merge(b, a), LP_EOVERFLOW, "merge overflow reversed");
	lp_state_free(a);
	lp_state_free(b);
}

/* Thousands of routes and values: growth past many resizes stays exact. */
void
test_state_growth(void)
{
	lp_state   *st = lp_state_create(&g_alloc);
	const int	nroutes = 5000;
	const int	nbig = 60000;
	int			i,
				j,
				bad = 0;
	char		key[32];
	lp_route   *r;
	lp_pair    *pairs;
	const lp_route **routes;

	/* route i gets values i, i+1, ..., i+(i%7); value i+j twice when j is even */
	for (i = 0; i < nroutes; i++)
		for (j = 0; j <= i % 7; j++)
		{
			int			n = snprintf(key, sizeof(key), "/g/%d", i);

			if (lp_state_add(st, key, (size_t) n, i + j) != LP_OK ||
				(j % 2 == 0 && lp_state_add(st, key, (size_t) n, i + j) != LP_OK))
				bad++;
		}
	/* one route with many distinct values, in a scattered order */
	for (i = 0; i < nbig; i++)
		if (lp_state_add(st, "/big", 4, (int64_t) ((i * 7919L) % nbig) * 1000003) != LP_OK)
			bad++;
	CHECK_EQ_I(bad, 0, "growth adds");
	CHECK_EQ_U(st->nroutes, nroutes + 1, "growth nroutes");
	CHECK(st->mask + 1 >= 2 * st->nroutes, "route load factor <= 1/2");

	pairs = malloc(sizeof(lp_pair) * nbig);
	for (i = 0; i < nroutes; i++)
	{
		int			n = snprintf(key, sizeof(key), "/g/%d", i);
		uint64_t	want = 0;

		r = find_route(st, key, (size_t) n);
		if (!r)
		{
			if (bad++ < 5)
				CHECK(0, "grown route %s: missing", key);
			continue;
		}
		for (j = 0; j <= i % 7; j++)
			want += j % 2 == 0 ? 2 : 1;
		if ((r->hist.total != want || r->hist.used != (uint32_t) (i % 7 + 1)) && bad++ < 5)
			CHECK(0, "grown route %s: expected %llu requests of %d values got %llu of %u",
				  key, (unsigned long long) want, i % 7 + 1,
				  (unsigned long long) r->hist.total, r->hist.used);
		lp_hist_sorted(&r->hist, pairs);
		for (j = 0; j <= i % 7; j++)
			if ((pairs[j].value != i + j || pairs[j].count != (j % 2 == 0 ? 2u : 1u)) && bad++ < 5)
				CHECK(0, "grown route %s pair %d: expected value %d count %u got value %lld count %llu",
					  key, j, i + j, j % 2 == 0 ? 2u : 1u, (long long) pairs[j].value,
					  (unsigned long long) pairs[j].count);
	}
	CHECK_EQ_I(bad, 0, "every grown route exact");
	r = find_route(st, "/big", 4);
	if (CHECK(r != NULL, "big route"))
	{
		CHECK_EQ_U(r->hist.used, nbig, "big route distinct values");
		CHECK_EQ_U(r->hist.total, nbig, "big route total");
		CHECK((uint64_t) r->hist.hused * 4 <= (uint64_t) (r->hist.mask + 1) * 3,
			  "hist load factor <= 3/4");
		lp_hist_sorted(&r->hist, pairs);
		for (i = 0; i < nbig; i++)
			if ((pairs[i].value != (int64_t) i * 1000003 || pairs[i].count != 1) && bad++ < 5)
				CHECK(0, "big route pair %d: expected value %lld count 1 got value %lld count %llu",
					  i, (long long) i * 1000003, (long long) pairs[i].value,
					  (unsigned long long) pairs[i].count);
		CHECK_EQ_I(bad, 0, "big route sorted values");
	}
	free(pairs);

	routes = malloc(sizeof(*routes) * st->nroutes);
	lp_state_sorted_routes(st, routes);
	for (i = 1; i < (int) st->nroutes; i++)
		if (lp_key_cmp(routes[i - 1]->key, routes[i - 1]->keylen,
					   routes[i]->key, routes[i]->keylen) >= 0 && bad++ < 5)
			CHECK(0, "sorted route %d: %s after %s", i, diff_q(routes[i]->key, routes[i]->keylen),
				  diff_q(routes[i - 1]->key, routes[i - 1]->keylen));
	CHECK_EQ_I(bad, 0, "sorted routes strictly ascending");
	free(routes);
	lp_state_free(st);
}

/* Keys of every size, big ones in their own arena blocks, stay intact. */
void
test_state_keys(void)
{
	lp_state   *st = lp_state_create(&g_alloc);
	static const size_t sizes[] = {1, 100, 16383, 16384, 16385, 40000, 65536, 65537, 1 << 20, 3, 5};
	char	   *k = malloc((1 << 20) + 1);
	size_t		i;
	int			bad = 0;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
	{
		memset(k, 'a' + (int) i, sizes[i]);
		if (lp_state_add(st, k, sizes[i], (int64_t) i) != LP_OK)
			bad++;
	}
	/* many small keys after the big ones, filling several blocks */
	for (i = 0; i < 20000; i++)
	{
		char		s[32];
		int			n = snprintf(s, sizeof(s), "/small/%zu", i);

		if (lp_state_add(st, s, (size_t) n, 1) != LP_OK)
			bad++;
	}
	CHECK_EQ_I(bad, 0, "keys added");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
	{
		lp_route   *r;

		memset(k, 'a' + (int) i, sizes[i]);
		r = find_route(st, k, sizes[i]);
		if (!r || r->keylen != sizes[i] || memcmp(r->key, k, sizes[i]) != 0 ||
			r->hist.total != 1)
			bad++;
	}
	for (i = 0; i < 20000; i++)
	{
		char		s[32];
		int			n = snprintf(s, sizeof(s), "/small/%zu", i);

		if (route_total(st, s) != 1)
			bad++;
		(void) n;
	}
	CHECK_EQ_I(bad, 0, "keys intact, a 1 MB key included");
	free(k);
	lp_state_free(st);
}

/*
 * The key arena grows with the state: one short route takes one block of
 * 256 bytes (its header included), not 64 kB; each next block is twice the
 * last, up to 64 kB, so the blocks hold at most twice the key bytes plus one
 * full block; a key of more than a quarter of that gets a block of its own
 * behind the one being filled.
 */
void
test_state_key_blocks(void)
{
	lp_state   *st = lp_state_create(&g_alloc);
	lp_block   *head;
	const lp_block *b;
	char		s[32];
	char	   *big = malloc(20000);
	size_t		keys = 6,
				held = 0,
				prev = 0;
	int			i,
				n,
				bad = 0;

	CHECK_EQ_I(lp_state_add(st, "/api/1", 6, 5), LP_OK, "one route");
	CHECK(st->blocks != NULL && st->blocks->next == NULL &&
		  sizeof(lp_block) + st->blocks->size == 256, "one short route: one block of 256 bytes");
	for (i = 2; i <= 20000; i++)
	{
		n = snprintf(s, sizeof(s), "/api/%d", i);
		keys += (size_t) n;
		if (lp_state_add(st, s, (size_t) n, 5) != LP_OK)
			bad++;
	}
	CHECK_EQ_I(bad, 0, "20,000 routes added");
	/* newest first: no block past 64 kB, each no larger than the one after it */
	for (b = st->blocks; b; b = b->next)
	{
		if (sizeof(lp_block) + b->size > 64 * 1024 || (prev && b->size > prev))
			bad++;
		prev = b->size;
		held += b->size;
	}
	CHECK_EQ_I(bad, 0, "blocks double up to 64 kB");
	CHECK_EQ_U(sizeof(lp_block) + st->blocks->size, 64 * 1024, "the newest block is a full one");
	CHECK(held <= 2 * keys + 64 * 1024, "blocks hold at most twice the keys and one block");

	head = st->blocks;
	memset(big, 'b', 20000);
	CHECK_EQ_I(lp_state_add(st, big, 20000, 5), LP_OK, "a 20,000-byte key");
	CHECK(st->blocks == head && head->next != NULL && head->next->size == 20000,
		  "a big key: a block of its own behind the current one");
	free(big);
	lp_state_free(st);
}

/*
 * lp_key_eq against memcmp: every length from 0 to 72 (the 8-to-32-byte
 * loads, the loop and the byte loop), equal and with one byte changed at
 * every position, and with the keys at the very end of their allocations
 * (the sanitizer build catches a load past them).
 */
void
test_state_key_eq(void)
{
	size_t		n,
				pos;
	int			bad = 0;
	unsigned	checks = 0;

	for (n = 0; n <= 72; n++)
	{
		char	   *a = malloc(n ? n : 1);
		char	   *b = malloc(n ? n : 1);
		size_t		i;

		for (i = 0; i < n; i++)
			a[i] = b[i] = (char) ('a' + (i * 7 + n) % 26);
		if (lp_key_eq(a, b, n) != 1 && bad++ < 5)
			CHECK(0, "lp_key_eq of %zu equal bytes: expected 1 got 0", n);
		checks++;
		for (pos = 0; pos < n; pos++)
		{
			unsigned	bit;

			for (bit = 0; bit < 8; bit++)
			{
				b[pos] = (char) (a[pos] ^ (1 << bit));
				if ((lp_key_eq(a, b, n) != (memcmp(a, b, n) == 0) || lp_key_eq(b, a, n) != 0) &&
					bad++ < 5)
					CHECK(0, "lp_key_eq of %zu bytes, bit %u of byte %zu changed: expected 0 got %d and %d",
						  n, bit, pos, lp_key_eq(a, b, n), lp_key_eq(b, a, n));
				checks += 2;
			}
			b[pos] = a[pos];
		}
		if (lp_key_eq(a, b, n) != 1 && bad++ < 5)
			CHECK(0, "lp_key_eq of %zu equal bytes, once restored: expected 1 got 0", n);
		free(a);
		free(b);
	}
	CHECK_EQ_I(bad, 0, "lp_key_eq agrees with memcmp at every length 0..72 and every changed bit");
	CHECK(checks > 40000, "lp_key_eq: every case checked");
}

/* Merging parts gives the state of adding everything to one state. */
void
test_state_merge(void)
{
	lp_state   *whole = gen_state(&g_alloc, 0, 30000, 300, 42);
	lp_state   *p1 = gen_state(&g_alloc, 0, 10000, 300, 42);
	lp_state   *p2 = NULL;
	lp_state   *p3 = NULL;
	lp_state   *m = lp_state_create(&g_alloc);
	lp_state   *e = lp_state_create(&g_alloc);
	lp_gen		g;
	char		buf[LP_GEN_MAXLINE];
	int			i;

	/* p2 and p3 continue the same line sequence */
	p2 = lp_state_create(&g_alloc);
	p3 = lp_state_create(&g_alloc);
	lp_gen_init(&g, 300, 42);
	for (i = 0; i < 30000; i++)
	{
		size_t		n = lp_gen_line(&g, i, buf);
		lp_line		l;

		lp_parse_line(buf, n, &l);
		if (i >= 10000)
			lp_state_add(i < 20000 ? p2 : p3, l.route, l.route_len, l.latency);
	}
	lp_state_add_malformed(whole, 5);
	lp_state_add_malformed(p1, 2);
	lp_state_add_malformed(p3, 3);

	CHECK_EQ_I(lp_state_merge(m, p3), LP_OK, "merge p3");
	CHECK_EQ_I(lp_state_merge(m, p1), LP_OK, "merge p1");
	CHECK_EQ_I(lp_state_merge(m, e), LP_OK, "merge empty");
	CHECK(!same_state(m, whole), "two parts differ from the whole");
	CHECK_EQ_I(lp_state_merge(m, p2), LP_OK, "merge p2");
	CHECK_SAME_STATE(m, whole, "merge of parts == whole");
	CHECK_EQ_U(m->malformed, 5, "merged malformed count");
	CHECK_EQ_I(lp_state_merge(e, whole), LP_OK, "merge into empty");
	CHECK_SAME_STATE(e, whole, "merge into empty == copy");
	CHECK_EQ_U(route_total(whole, "/api/v1/resource0/items"),
			   route_total(p1, "/api/v1/resource0/items") +
			   route_total(p2, "/api/v1/resource0/items") +
			   route_total(p3, "/api/v1/resource0/items"), "route totals add up");
	lp_state_free(whole);
	lp_state_free(p1);
	lp_state_free(p2);
	lp_state_free(p3);
	lp_state_free(m);
	lp_state_free(e);
}

/*
 * lp_state_add_pipelined counts a row at the next call: once flushed, the
 * same state as lp_state_add, through new routes, route-table growth,
 * values outside the dense array, merges while a row is pending and a
 * dense count at its 32-bit limit.
 */
void
test_state_pipelined(void)
{
	test_heap	heap;
	lp_allocator a;
	lp_state   *now,
			   *pip,
			   *other;
	lp_gen		g;
	char		buf[LP_GEN_MAXLINE];
	uint8_t    *e1,
			   *e2;
	size_t		l1,
				l2;
	int64_t		i;
	long		bad = 0;
	lp_route   *r;
	const char *why;

	heap_init(&heap, &a);
	now = lp_state_create(&a);
	pip = lp_state_create(&a);
	other = gen_state(&a, 0, 5000, 50, 9);
	lp_gen_init(&g, 3000, 11);
	for (i = 0; i < 120000; i++)
	{
		size_t		n = lp_gen_line(&g, i, buf);
		lp_line		l;
		int64_t		v;

		if (lp_parse_line(buf, n, &l) != LP_ST_OK)
		{
			bad++;
			continue;
		}
		/* every 97th row far outside any dense array */
		v = i % 97 == 0 ? l.latency * 100000 : l.latency;
		bad += lp_state_add(now, l.route, l.route_len, v) != LP_OK;
		bad += lp_state_add_pipelined(pip, l.route, l.route_len, v) != LP_OK;
		if (i == 60000)
		{
			/* a merge into a state with a pending row */
			bad += lp_state_merge(now, other) != LP_OK;
			bad += lp_state_merge(pip, other) != LP_OK;
		}
	}
	CHECK_EQ_I(bad, 0, "pipelined: every add succeeds");
	CHECK(pip->npend == LP_PEND_ROWS, "pipelined: %d rows are pending before the flush", LP_PEND_ROWS);
	why = lp_state_check(pip);
	CHECK(why == NULL, "pipelined: a state with rows held back checks (%s)", why ? why : "");
	CHECK_EQ_I(lp_state_flush(pip), LP_OK, "pipelined: flush");
	CHECK(pip->npend == 0, "pipelined: nothing pending after the flush");
	CHECK_EQ_I(lp_state_flush(pip), LP_OK, "pipelined: a second flush is a no-op");
	CHECK(now->nroutes > 1000 && pip->nroutes == now->nroutes, "pipelined: route tables grew alike");
	e1 = encode(now, &l1);
	e2 = encode(pip, &l2);
	CHECK_SAME_ENC(e2, l2, e1, l1, "pipelined: same encoding as row-by-row adds");
	g_alloc.free(g_alloc.ctx, e1);
	g_alloc.free(g_alloc.ctx, e2);

	/* a dense count at 2^32 - 2: the second pending row moves the route to the slot table */
	bad = 0;
	bad += lp_state_add_pipelined(pip, "/max", 4, 5) != LP_OK;
	for (i = 0; i < 40; i++)
		bad += lp_state_add_pipelined(pip, "/max", 4, i) != LP_OK;
	CHECK_EQ_I(lp_state_flush(pip), LP_OK, "pipelined: flush /max");
	r = find_route(pip, "/max", 4);
	if (CHECK(r != NULL && r->hist.dense_cap > 5, "pipelined: /max has a dense array"))
	{
		uint64_t	before = r->hist.total;

		bad += lp_hist_add(&pip->alloc, &r->hist, 5, UINT32_MAX - 3) != LP_OK;
		for (i = 0; i < 4; i++)
			bad += lp_state_add_pipelined(pip, "/max", 4, 5) != LP_OK;
		bad += lp_state_add_pipelined(pip, "/max", 4, 7) != LP_OK;
		CHECK_EQ_I(lp_state_flush(pip), LP_OK, "pipelined: flush past 2^32");
		r = find_route(pip, "/max", 4);
		CHECK(r && r->hist.total == before + UINT32_MAX - 3 + 5 && r->hist.dense_cap == 0,
			  "pipelined: count past 2^32 - 1 kept exactly, array given up");
		if (r)
		{
			lp_pair    *pairs = malloc(sizeof(lp_pair) * r->hist.used);

			lp_hist_sorted(&r->hist, pairs);
			CHECK(pairs[5].value == 5 && pairs[5].count == (uint64_t) UINT32_MAX - 3 + 4 + 2,
				  "pipelined: the big count is exact");
			free(pairs);
		}
	}
	CHECK_EQ_I(bad, 0, "pipelined: /max adds succeed");
	lp_state_free(now);
	lp_state_free(pip);
	lp_state_free(other);
	CHECK_EQ_I(heap.live, 0, "pipelined test frees everything");
}


/* Does lp_state_check name a broken invariant with a message containing `want`? */
static void
check_caught(const lp_state *st, const char *want, const char *what)
{
	const char *why = lp_state_check(st);

	CHECK(why != NULL && strstr(why, want) != NULL, "lp_state_check catches %s: expected \"%s\" got %s",
		  what, want, why ? diff_q(why, strlen(why)) : "NULL (no broken invariant found)");
}

/*
 * The state checker itself: a sound state passes, and each invariant,
 * broken on purpose (and mended again), is named.  Without this a checker
 * that never finds anything would look like one that always passes.
 */
void
test_state_check(void)
{
	lp_state   *st = gen_state(&g_alloc, 0, 20000, 300, 9);
	lp_route   *r = NULL,
			   *moved = NULL;
	lp_hist		fake;
	uint32_t	i,
				j,
				k;
	const char *why;

	lp_state_add(st, "/dense", 6, 3);
	for (i = 0; i < 400; i++)
		lp_state_add(st, "/dense", 6, i % 100);
	why = lp_state_check(st);
	CHECK(why == NULL, "a generated state passes lp_state_check: %s", why ? why : "");

	r = find_route(st, "/dense", 6);
	if (!CHECK(r != NULL && r->hist.dense_cap > 0, "a route with a dense array"))
		return;

	/* counts: the table's, and a histogram's */
	st->nroutes++;
	check_caught(st, "nroutes", "a route counted twice");
	st->nroutes--;
	r->hist.total++;
	check_caught(st, "total", "a total past the counts");
	r->hist.total--;
	r->hist.used--;
	check_caught(st, "used", "a distinct value not counted");
	r->hist.used++;
	r->hist.dense[7]++;
	check_caught(st, "total", "a dense count that the total misses");
	r->hist.dense[7]--;

	/* the hash and the probe chains */
	r->hash ^= 1;
	check_caught(st, "hash", "a stored hash that is not the key's");
	r->hash ^= 1;
	for (i = 0; i <= st->mask && !moved; i++)
	{
		/* a route whose slot is followed by an empty one, which is followed by an empty one */
		j = (i + 1) & st->mask;
		k = (i + 2) & st->mask;
		if (st->routes[i].key && !st->routes[j].key && !st->routes[k].key &&
			((uint32_t) st->routes[i].hash & st->mask) == i)
			moved = &st->routes[i];
	}
	if (CHECK(moved != NULL, "a route at its home slot with two empty slots after it"))
	{
		lp_route	save;

		i = (uint32_t) (moved - st->routes);
		j = (i + 1) & st->mask;
		k = (i + 2) & st->mask;
		/* a copy right after it: the same key twice */
		st->routes[j] = *moved;
		st->nroutes++;
		check_caught(st, "in slots", "a key in two slots");
		memset(&st->routes[j], 0, sizeof(lp_route));
		st->nroutes--;
		/* moved past an empty slot: a probe from its home slot stops before it */
		save = *moved;
		st->routes[k] = save;
		memset(moved, 0, sizeof(lp_route));
		check_caught(st, "empty slot", "a route a probe cannot reach");
		*moved = save;
		memset(&st->routes[k], 0, sizeof(lp_route));
	}

	/* a value in the slot table that belongs in the dense array */
	for (i = 0; i <= r->hist.mask && r->hist.slots[i].count; i++)
		;
	r->hist.slots[i].value = 1;
	r->hist.slots[i].count = 1;
	r->hist.hused++;
	r->hist.used++;
	r->hist.total++;
	check_caught(st, "belongs in the dense array", "a small value in the slot table");
	r->hist.slots[i].count = 0;
	r->hist.hused--;
	r->hist.used--;
	r->hist.total--;

	/* a pending row that points at no route */
	memset(&fake, 0, sizeof(fake));
	st->pend[0].h = &fake;
	st->pend[0].value = 1;
	st->pend_next = 1;
	st->npend = 1;
	check_caught(st, "pending rows point at no route", "a pending row outside the table");
	st->npend = 0;
	st->pend_next = 0;

	why = lp_state_check(st);
	CHECK(why == NULL, "mended again, the state passes: %s", why ? why : "");
	lp_state_free(st);
}
