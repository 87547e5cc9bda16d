/* test/unit/test_codec.c -- unit tests of the canonical encoding (lp_codec.c): varints, round trips, corrupt input, hex */
#include "test_harness.h"

/* Varint put/get at the edges; shortest form only. */
void
test_varint(void)
{
	static const uint64_t vals[] = {0, 1, 127, 128, 255, 16383, 16384, (uint64_t) INT64_MAX,
	(uint64_t) INT64_MAX + 1, UINT64_MAX};
	static const size_t lens[] = {1, 1, 1, 2, 2, 2, 3, 9, 10, 10};
	uint8_t		b[16];
	uint64_t	v;
	size_t		i;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
	{
		size_t		n = lp_varint_put(b, vals[i]);

		CHECK_EQ_U(n, lens[i], "varint length");
		CHECK_EQ_U(lp_varint_get(b, b + n, &v), n, "varint read length");
		CHECK_EQ_U(v, vals[i], "varint value");
		CHECK_EQ_U(lp_varint_get(b, b + n - 1, &v), 0, "varint truncated");
	}
	/* lp_varint_len (what lp_encode reserves) at every bit width, and the inline writer */
	{
		int			bits,
					bad = 0;

		for (bits = 0; bits <= 64; bits++)
		{
			uint64_t	edge[3];
			int			k;

			edge[0] = bits == 0 ? 0 : bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
			edge[1] = bits == 0 ? 1 : bits == 64 ? UINT64_C(1) << 63 : UINT64_C(1) << (bits - 1);
			edge[2] = edge[0] ^ (edge[0] >> 1);
			for (k = 0; k < 3; k++)
			{
				uint8_t		c[16];
				size_t		n = lp_varint_put(b, edge[k]);

				bad += lp_varint_len(edge[k]) != n;
				bad += lp_varint_put_inline(c, edge[k]) != n || memcmp(b, c, n) != 0;
			}
		}
		CHECK_EQ_I(bad, 0, "lp_varint_len and lp_varint_put_inline agree with lp_varint_put at every width");
	}
	memcpy(b, "\x80\x00", 2);
	CHECK_EQ_U(lp_varint_get(b, b + 2, &v), 0, "overlong zero");
	memcpy(b, "\xff\x00", 2);
	CHECK_EQ_U(lp_varint_get(b, b + 2, &v), 0, "overlong 127");
	memcpy(b, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 10);
	CHECK_EQ_U(lp_varint_get(b, b + 10, &v), 10, "10-byte max");
	CHECK_EQ_U(v, UINT64_MAX, "10-byte max value");
	memcpy(b, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 10);
	CHECK_EQ_U(lp_varint_get(b, b + 10, &v), 0, "65 bits");
	memcpy(b, "\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", 11);
	CHECK_EQ_U(lp_varint_get(b, b + 11, &v), 0, "11-byte varint");
	memcpy(b, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x81\x01", 11);
	CHECK_EQ_U(lp_varint_get(b, b + 11, &v), 0, "11-byte varint, continuation on 10th");
	CHECK_EQ_U(lp_varint_get(b, b, &v), 0, "empty varint");
}

/* Known bytes: the empty state and a small one. */
void
test_codec_known(void)
{
	lp_state   *st = lp_state_create(&g_alloc);
	uint8_t    *buf;
	size_t		len;
	static const uint8_t small[] = {1, 3, 1, 2, '/', 'a', 2, 4, 5, 2, 2, 1};

	buf = encode(st, &len);
	CHECK(buf && len == 3 && memcmp(buf, "\x01\x00\x00", 3) == 0, "empty state = 01 00 00");
	g_alloc.free(g_alloc.ctx, buf);

	lp_state_add(st, "/a", 2, 5);
	lp_state_add(st, "/a", 2, 7);
	lp_state_add(st, "/a", 2, 5);
	lp_state_add_malformed(st, 3);
	buf = encode(st, &len);
	CHECK_SAME_ENC(buf, len, small, sizeof(small), "small state bytes");
	g_alloc.free(g_alloc.ctx, buf);

	/* reserve leaves room in front, max_len counts it */
	buf = NULL;
	len = 0;
	if (CHECK_EQ_I(lp_encode(st, &g_alloc, 4, 4 + sizeof(small), &buf, &len), LP_OK,
				   "encoding exactly at max_len"))
	{
		CHECK_SAME_ENC(buf + 4, len, small, sizeof(small),
					   "bytes after the reserve, reserve excluded from the length");
		g_alloc.free(g_alloc.ctx, buf);
	}
	buf = NULL;
	CHECK_EQ_I(lp_encode(st, &g_alloc, 4, 3 + sizeof(small), &buf, &len), LP_ETOOBIG,
			   "one byte past max_len");
	CHECK(buf == NULL, "no output on ETOOBIG");
	lp_state_free(st);

	/*
	 * A route whose pairs take fewer bytes than the encoder's bound (a
	 * value of three bytes, deltas and counts of one): at exactly its
	 * length max_len leaves no room for the bound, and the pairs are
	 * counted first; the bytes are the same as without a limit.
	 */
	{
		uint8_t    *full,
				   *exact = NULL;
		size_t		flen,
					elen = 0;
		int64_t		v;

		st = lp_state_create(&g_alloc);
		for (v = 20000; v < 20100; v++)
			lp_state_add(st, "/b", 2, v);
		lp_state_add(st, "/b", 2, 20000);
		full = encode(st, &flen);
		if (CHECK_EQ_I(lp_encode(st, &g_alloc, 0, flen, &exact, &elen), LP_OK,
					   "pairs under their bound, encoding exactly at max_len"))
		{
			CHECK_SAME_ENC(exact, elen, full, flen, "the same bytes as without a limit");
			g_alloc.free(g_alloc.ctx, exact);
		}
		exact = NULL;
		CHECK_EQ_I(lp_encode(st, &g_alloc, 0, flen - 1, &exact, &elen), LP_ETOOBIG,
				   "pairs under their bound, one byte past max_len");
		g_alloc.free(g_alloc.ctx, full);
		lp_state_free(st);
	}
	st = lp_state_create(&g_alloc);
	buf = NULL;
	len = 0;
	if (CHECK_EQ_I(lp_encode(st, &g_alloc, 0, 3, &buf, &len), LP_OK, "empty state at max_len 3"))
	{
		CHECK_EQ_U(len, 3, "empty length");
		g_alloc.free(g_alloc.ctx, buf);
	}
	lp_state_free(st);
}

/*
 * Walk an encoding with lp_reader and compare it to the state (the
 * reference): the header, each route's key, values, counts and total, and
 * p50, p95, p99 and the maximum against a walk of the sorted pairs.  The
 * first field that differs goes to *d.
 */
static int
reader_agrees(const lp_state *st, const uint8_t *buf, size_t len, test_diff *d)
{
	lp_reader	r;
	lp_route_view rv;
	const lp_route **routes = malloc(sizeof(*routes) * (st->nroutes + 1));
	lp_pair    *pairs = NULL;
	uint32_t	i = 0;
	int			rc = 0;
	char		name[256];

	diff_init(d);
	lp_state_sorted_routes(st, routes);
	if (!diff_i(d, "lp_reader_init", lp_reader_init(&r, buf, len), LP_OK) ||
		!diff_u(d, "malformed", r.malformed, st->malformed) ||
		!diff_u(d, "routes", r.nroutes, st->nroutes))
		goto out;
	while ((rc = lp_reader_next(&r, &rv)) == 1)
	{
		const lp_route *sr;
		const char *key;
		lp_pair_iter it;
		int64_t		v;
		uint64_t	c,
					j = 0;
		uint64_t	ranks[4];
		int64_t		vals[4];
		int			k;

		if (i >= st->nroutes)
		{
			diff_u(d, "routes walked", i + 1, st->nroutes);
			goto out;
		}
		sr = routes[i++];
		key = diff_q(sr->key, sr->keylen);
		snprintf(name, sizeof(name), "key of route %u", i - 1);
		if (!diff_text(d, name, rv.key, rv.keylen, sr->key, sr->keylen))
			goto out;
		snprintf(name, sizeof(name), "route %s values", key);
		if (!diff_u(d, name, rv.npairs, sr->hist.used))
			goto out;
		snprintf(name, sizeof(name), "route %s requests", key);
		if (!diff_u(d, name, rv.total, sr->hist.total))
			goto out;
		pairs = realloc(pairs, sizeof(lp_pair) * (sr->hist.used + 1));
		lp_hist_sorted(&sr->hist, pairs);
		lp_pairs_begin(&rv, &it);
		while (lp_pairs_next(&it, &v, &c))
		{
			snprintf(name, sizeof(name), "route %s value %llu", key, (unsigned long long) j);
			if (!diff_i(d, name, v, pairs[j].value))
				goto out;
			snprintf(name, sizeof(name), "route %s count of value %lld", key, (long long) v);
			if (!diff_u(d, name, c, pairs[j].count))
				goto out;
			j++;
		}
		snprintf(name, sizeof(name), "route %s pairs walked", key);
		if (!diff_u(d, name, j, sr->hist.used))
			goto out;
		/* p50, p95, p99, max by the rule, against a walk of the sorted pairs */
		ranks[0] = lp_rank_pct(rv.total, 50);
		ranks[1] = lp_rank_pct(rv.total, 95);
		ranks[2] = lp_rank_pct(rv.total, 99);
		ranks[3] = rv.total - 1;
		lp_view_ranks(&rv, ranks, vals, 4);
		for (k = 0; k < 4; k++)
		{
			uint64_t	seen = 0;

			for (j = 0; j < sr->hist.used; j++)
			{
				seen += pairs[j].count;
				if (ranks[k] < seen)
					break;
			}
			snprintf(name, sizeof(name), "route %s value at rank %llu", key,
					 (unsigned long long) ranks[k]);
			if (!diff_i(d, name, vals[k], pairs[j].value))
				goto out;
		}
	}
	if (diff_i(d, "lp_reader_next at the end", rc, 0))
		diff_u(d, "routes walked", i, st->nroutes);
out:
	free(pairs);
	free(routes);
	return d->field == NULL;
}

/* Encode, decode, encode: identical bytes; the reader agrees with the state. */
void
test_codec_roundtrip(void)
{
	lp_state   *st = gen_state(&g_alloc, 0, 20000, 300, 7);
	lp_state   *back = lp_state_create(&g_alloc);
	lp_route   *r;
	test_diff	d;
	uint8_t    *buf,
			   *buf2;
	size_t		len,
				len2;

	/* extremes too: INT64_MAX values and counts, empty and long keys */
	lp_state_add(st, "", 0, 0);
	lp_state_add(st, "/max", 4, INT64_MAX);
	lp_state_add(st, "/max", 4, 0);
	lp_state_route(st, "/count", 6, &r);
	lp_hist_add(&st->alloc, &r->hist, 12345678901234LL, (uint64_t) INT64_MAX);
	lp_state_add_malformed(st, 77);

	buf = encode(st, &len);
	if (!buf)
		return;
	CHECK_EQ_I(lp_validate(buf, len), LP_OK, "encoding validates");
	reader_agrees(st, buf, len, &d);
	CHECK(d.field == NULL, "reader walk agrees with the state: %s", diff_say(&d));
	CHECK_EQ_I(lp_decode_into(back, buf, len), LP_OK, "decode");
	buf2 = encode(back, &len2);
	CHECK_SAME_ENC(buf2, len2, buf, len, "re-encoding is byte-identical");
	CHECK_EQ_U(back->malformed, 77, "decoded malformed");
	CHECK_EQ_U(route_total(back, "/count"), INT64_MAX, "decoded INT64_MAX count");
	CHECK_SAME_STATE(back, st, "decoded state equals the original");

	/* decoding into a non-empty state adds (a merge) */
	CHECK_EQ_I(lp_decode_into(back, buf, len), LP_EOVERFLOW, "decode twice overflows /count");
	lp_state_free(back);
	back = gen_state(&g_alloc, 0, 20000, 300, 7);
	CHECK_EQ_I(lp_decode_into(back, buf, len), LP_OK, "decode into a state");
	CHECK_EQ_U(route_total(back, "/api/v1/resource0/items"),
			   2 * route_total(st, "/api/v1/resource0/items"), "decode adds counts");
	g_alloc.free(g_alloc.ctx, buf);
	g_alloc.free(g_alloc.ctx, buf2);
	lp_state_free(st);
	lp_state_free(back);
}

/* Expect lp_validate to refuse bytes, and lp_decode_into to leave a state alone. */
static void
expect_corrupt(const bytes *b, const char *what)
{
	lp_state   *st = lp_state_create(&g_alloc);
	lp_reader	r;
	lp_route_view rv;
	int			rc = 0;

	lp_state_add(st, "/keep", 5, 1);
	CHECK_EQ_I(lp_validate(b->b, b->n), LP_ECORRUPT, what);
	CHECK_EQ_I(lp_decode_into(st, b->b, b->n), LP_ECORRUPT, what);
	CHECK(st->nroutes == 1 && st->malformed == 0 && route_total(st, "/keep") == 1,
		  "state unchanged after %s", what);
	/* a reader walk fails too */
	if (lp_reader_init(&r, b->b, b->n) == LP_OK)
		while ((rc = lp_reader_next(&r, &rv)) == 1)
			;
	else
		rc = LP_ECORRUPT;
	CHECK_EQ_I(rc, LP_ECORRUPT, what);
	lp_state_free(st);
}

/* Expect lp_validate to accept bytes. */
static void
expect_valid(const bytes *b, const char *what)
{
	lp_state   *st = lp_state_create(&g_alloc);
	uint8_t    *buf;
	size_t		len;

	CHECK_EQ_I(lp_validate(b->b, b->n), LP_OK, what);
	CHECK_EQ_I(lp_decode_into(st, b->b, b->n), LP_OK, what);
	buf = encode(st, &len);
	CHECK_SAME_ENC(buf, len, b->b, b->n, "canonical: %s", what);
	g_alloc.free(g_alloc.ctx, buf);
	lp_state_free(st);
}

/* Every kind of corrupt encoding is refused before anything is used. */
void
test_codec_corrupt(void)
{
	lp_state   *st = gen_state(&g_alloc, 0, 300, 20, 3);
	uint8_t    *buf;
	size_t		len,
				i;
	bytes		b;
	int			bad = 0;

	/* truncation at every byte offset, and any trailing byte */
	buf = encode(st, &len);
	for (i = 0; i < len; i++)
		if (lp_validate(buf, i) != LP_ECORRUPT)
			bad++;
	CHECK_EQ_I(bad, 0, "every truncation refused");
	memcpy(b.b, buf, len);
	b.n = len;
	expect_valid(&b, "generated state");
	b_byte(&b, 0);
	expect_corrupt(&b, "trailing byte");
	b.n = len;
	b_byte(&b, 1);
	expect_corrupt(&b, "trailing byte 1");
	g_alloc.free(g_alloc.ctx, buf);
	lp_state_free(st);

	/* header */
	b.n = 0;
	expect_corrupt(&b, "no bytes");
	b_head(&b, 0, 0);
	expect_valid(&b, "empty");
	b.b[0] = 0;
	expect_corrupt(&b, "version 0");
	b.b[0] = 2;
	expect_corrupt(&b, "version 2");
	b.b[0] = 0xff;
	expect_corrupt(&b, "version 255");
	b.n = 0;
	b_byte(&b, 1);
	b_raw(&b, "\x80\x00", 2);
	b_byte(&b, 0);
	expect_corrupt(&b, "overlong malformed count");
	b.n = 0;
	b_byte(&b, 1);
	b_byte(&b, 0);
	b_raw(&b, "\x80\x00", 2);
	expect_corrupt(&b, "overlong route count");
	b.n = 0;
	b_byte(&b, 1);
	b_raw(&b, "\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", 11);
	b_byte(&b, 0);
	expect_corrupt(&b, "11-byte varint");
	b_head(&b, (uint64_t) INT64_MAX + 1, 0);
	expect_corrupt(&b, "malformed count past INT64_MAX");
	b_head(&b, (uint64_t) INT64_MAX, 0);
	expect_valid(&b, "malformed count INT64_MAX");

	/* huge route counts with few bytes behind them */
	b_head(&b, 0, UINT64_C(1) << 62);
	b_route(&b, "/a", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	expect_corrupt(&b, "huge nroutes");
	b_head(&b, 0, UINT64_MAX);
	expect_corrupt(&b, "nroutes UINT64_MAX");
	b_head(&b, 0, 2);
	b_route(&b, "/a", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	expect_corrupt(&b, "one route missing");

	/* a good route, to compare the broken ones with */
	b_head(&b, 0, 1);
	b_route(&b, "/a", 2, 4);
	b_var(&b, 5);
	b_var(&b, 1);
	b_var(&b, 3);
	b_var(&b, 2);
	expect_valid(&b, "two pairs");

	b_head(&b, 0, 1);
	b_route(&b, "/a", 2, 4);
	b_var(&b, 5);
	b_var(&b, 0);
	b_var(&b, 3);
	b_var(&b, 2);
	expect_corrupt(&b, "zero count");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 2, 4);
	b_var(&b, 5);
	b_var(&b, 1);
	b_var(&b, 0);
	b_var(&b, 2);
	expect_corrupt(&b, "zero delta");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 1, 2);
	b_var(&b, 0);
	b_var(&b, 1);
	expect_valid(&b, "first value 0");

	b_head(&b, 0, 1);
	b_route(&b, "/a", 0, 0);
	expect_corrupt(&b, "zero pairs");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 2, 2);
	b_var(&b, 5);
	b_var(&b, 1);
	expect_corrupt(&b, "npairs 2, pairs_len of one pair");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 1, 4);
	b_var(&b, 5);
	b_var(&b, 1);
	b_var(&b, 3);
	b_var(&b, 2);
	expect_corrupt(&b, "npairs 1, pairs_len of two pairs");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 1, 3);
	b_var(&b, 5);
	b_var(&b, 1);
	expect_corrupt(&b, "pairs_len past the end");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 1, 3);
	b_var(&b, 5);
	b_var(&b, 1);
	b_byte(&b, 0);
	expect_corrupt(&b, "pairs_len covers a stray byte");
	b_head(&b, 0, 1);
	b_route(&b, "/a", UINT64_C(1) << 62, 2);
	b_var(&b, 5);
	b_var(&b, 1);
	expect_corrupt(&b, "huge npairs");
	b_head(&b, 0, 1);
	b_route(&b, "/a", UINT64_MAX, UINT64_MAX);
	b_var(&b, 5);
	b_var(&b, 1);
	expect_corrupt(&b, "npairs and pairs_len UINT64_MAX");
	b_head(&b, 0, 1);
	b_var(&b, UINT64_C(1) << 63);
	b_raw(&b, "/a", 2);
	b_var(&b, 1);
	b_var(&b, 2);
	b_var(&b, 5);
	b_var(&b, 1);
	expect_corrupt(&b, "huge key length");

	/* values and totals at INT64_MAX */
	b_head(&b, 0, 1);
	b_route(&b, "/a", 1, 10);
	b_var(&b, (uint64_t) INT64_MAX);
	b_var(&b, 1);
	expect_valid(&b, "value INT64_MAX");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 1, 11);
	b_var(&b, (uint64_t) INT64_MAX + 1);
	b_var(&b, 1);
	expect_corrupt(&b, "value past INT64_MAX");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 2, 12);
	b_var(&b, (uint64_t) INT64_MAX);
	b_var(&b, 1);
	b_var(&b, 1);
	b_var(&b, 1);
	expect_corrupt(&b, "delta past INT64_MAX");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 2, 12);
	b_var(&b, 1);
	b_var(&b, 1);
	b_var(&b, (uint64_t) INT64_MAX);
	b_var(&b, 1);
	expect_corrupt(&b, "1 + delta INT64_MAX");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 2, 12);
	b_var(&b, 1);
	b_var(&b, 1);
	b_var(&b, (uint64_t) INT64_MAX - 1);
	b_var(&b, 1);
	expect_valid(&b, "1 + delta INT64_MAX-1");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 1, 10);
	b_var(&b, 5);
	b_var(&b, (uint64_t) INT64_MAX);
	expect_valid(&b, "count INT64_MAX");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 1, 11);
	b_var(&b, 5);
	b_var(&b, (uint64_t) INT64_MAX + 1);
	expect_corrupt(&b, "count past INT64_MAX");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 2, 11);
	b_var(&b, 5);
	b_var(&b, (uint64_t) INT64_MAX);
	b_var(&b, 1);
	b_var(&b, 1);
	expect_corrupt(&b, "route total past INT64_MAX");
	b_head(&b, 0, 2);
	b_route(&b, "/a", 1, 10);
	b_var(&b, 5);
	b_var(&b, (uint64_t) INT64_MAX);
	b_route(&b, "/b", 1, 10);
	b_var(&b, 5);
	b_var(&b, (uint64_t) INT64_MAX);
	expect_valid(&b, "two routes at INT64_MAX each");

	/* route keys: order, duplicates, NUL */
	b_head(&b, 0, 2);
	b_route(&b, "/b", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	b_route(&b, "/a", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	expect_corrupt(&b, "routes out of order");
	b_head(&b, 0, 2);
	b_route(&b, "/a", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	b_route(&b, "/a", 1, 2);
	b_var(&b, 2);
	b_var(&b, 1);
	expect_corrupt(&b, "duplicate route");
	b_head(&b, 0, 2);
	b_route(&b, "/a", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	b_route(&b, "/", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	expect_corrupt(&b, "longer key before its prefix");
	b_head(&b, 0, 3);
	b_route(&b, "", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	b_route(&b, "/", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	b_route(&b, "/\xc3\xa9", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	expect_valid(&b, "empty key, prefix, high bytes in order");
	b_head(&b, 0, 2);
	b_route(&b, "", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	b_route(&b, "", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	expect_corrupt(&b, "two empty keys");
	b_head(&b, 0, 1);
	b_var(&b, 3);
	b_raw(&b, "/\0a", 3);
	b_var(&b, 1);
	b_var(&b, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	expect_corrupt(&b, "NUL in a route");
}

/* Hex text form. */
void
test_hex(void)
{
	lp_state   *st = gen_state(&g_alloc, 0, 500, 30, 11);
	uint8_t    *buf,
			   *back;
	size_t		len,
				blen = 0;
	char	   *hex;
	uint8_t		out[16];
	size_t		olen = 99;

	buf = encode(st, &len);
	hex = malloc(lp_hex_len(len) + 1);
	back = malloc(len + 1);
	lp_hex_encode(buf, len, hex);
	hex[lp_hex_len(len)] = '\0';
	CHECK_EQ_U(lp_hex_len(len), 2 + 2 * len, "hex length");
	CHECK(hex[0] == '\\' && hex[1] == 'x' && strspn(hex + 2, "0123456789abcdef") == 2 * len,
		  "hex is \\x and lower-case digits");
	CHECK_EQ_I(lp_hex_decode(hex, lp_hex_len(len), back, &blen), LP_OK, "hex decode");
	CHECK_SAME_ENC(back, blen, buf, len, "hex round trip");
	free(hex);
	free(back);
	g_alloc.free(g_alloc.ctx, buf);
	lp_state_free(st);

	CHECK_EQ_I(lp_hex_decode("\\x010000", 8, out, &olen), LP_OK, "empty state hex");
	CHECK(olen == 3 && memcmp(out, "\x01\x00\x00", 3) == 0, "empty state hex bytes");
	CHECK_EQ_I(lp_hex_decode("\\xABcdEf", 8, out, &olen), LP_OK, "either case");
	CHECK(olen == 3 && memcmp(out, "\xab\xcd\xef", 3) == 0, "either case bytes");
	CHECK_EQ_I(lp_hex_decode("\\x", 2, out, &olen), LP_OK, "no digits");
	CHECK_EQ_U(olen, 0, "no digits length");
	olen = 99;
	CHECK_EQ_I(lp_hex_decode("\\x0", 3, out, &olen), LP_ECORRUPT, "odd length");
	CHECK_EQ_I(lp_hex_decode("\\x01000", 7, out, &olen), LP_ECORRUPT, "odd length 5");
	CHECK_EQ_I(lp_hex_decode("\\x0g", 4, out, &olen), LP_ECORRUPT, "bad digit g");
	CHECK_EQ_I(lp_hex_decode("\\xg0", 4, out, &olen), LP_ECORRUPT, "bad high digit");
	CHECK_EQ_I(lp_hex_decode("\\x0 ", 4, out, &olen), LP_ECORRUPT, "space digit");
	CHECK_EQ_I(lp_hex_decode("\\x:0", 4, out, &olen), LP_ECORRUPT, "':' after '9'");
	CHECK_EQ_I(lp_hex_decode("\\x@0", 4, out, &olen), LP_ECORRUPT, "'@' before 'A'");
	CHECK_EQ_I(lp_hex_decode("\\x0\0", 4, out, &olen), LP_ECORRUPT, "NUL digit");
	CHECK_EQ_I(lp_hex_decode("010000", 6, out, &olen), LP_ECORRUPT, "missing \\x");
	CHECK_EQ_I(lp_hex_decode("\\X0100", 6, out, &olen), LP_ECORRUPT, "\\X upper case");
	CHECK_EQ_I(lp_hex_decode("x\\0100", 6, out, &olen), LP_ECORRUPT, "x\\ swapped");
	CHECK_EQ_I(lp_hex_decode("\\", 1, out, &olen), LP_ECORRUPT, "backslash alone");
	CHECK_EQ_I(lp_hex_decode("", 0, out, &olen), LP_ECORRUPT, "empty text");
	CHECK_EQ_I(lp_hex_decode(" \\x01", 5, out, &olen), LP_ECORRUPT, "leading space");
	CHECK_EQ_U(olen, 99, "outlen untouched on error");
}

