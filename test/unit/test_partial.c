/* test/unit/test_partial.c -- unit tests of deferred decoding of partial states (lp_partial.c) */
#include "test_harness.h"

#include "lp_arith.h"

/*
 * Deferred decoding (parallel query's partial states): a deferred state
 * merges like the decoded one, materializes to the same bytes, and cannot
 * be encoded by mistake before that; nor can a state with a pending row.
 */
void
test_state_deferred(void)
{
	test_heap	heap;
	lp_allocator a;
	lp_state   *src = gen_state(&g_alloc, 0, 20000, 40, 21);
	lp_state   *part = gen_state(&g_alloc, 20000, 5000, 60, 21);
	lp_state   *def,
			   *viadef,
			   *viadec;
	uint8_t    *enc,
			   *e1,
			   *e2,
			   *out;
	size_t		len,
				l1,
				l2,
				outlen;

	heap_init(&heap, &a);
	enc = encode(src, &len);
	def = lp_state_create(&a);
	CHECK_EQ_I(lp_state_defer(def, enc, len - 1), LP_ECORRUPT, "deferred: a cut encoding is refused");
	CHECK(def->deferred == NULL && def->nroutes == 0, "deferred: a refused encoding leaves the state empty");
	CHECK_EQ_I(lp_state_defer(def, enc, len), LP_OK, "deferred: defer");
	CHECK_EQ_I(def->nroutes, 0, "deferred: nothing decoded yet");
	CHECK_EQ_I(lp_encode(def, &a, 0, SIZE_MAX, &out, &outlen), LP_EINTERNAL,
			   "deferred: encoding a state with a deferred encoding is refused");

	/* merged into a non-empty state: the same as decoding, then merging */
	viadef = gen_state(&a, 20000, 5000, 60, 21);
	viadec = lp_state_create(&a);
	CHECK_EQ_I(lp_decode_into(viadec, enc, len), LP_OK, "deferred: plain decode");
	CHECK_EQ_I(lp_state_merge_any(viadef, def), LP_OK, "deferred: merge_any of a deferred state");
	CHECK_EQ_I(lp_state_merge_any(part, viadec), LP_OK, "deferred: merge_any of a decoded state");
	e1 = encode(viadef, &l1);
	e2 = encode(part, &l2);
	CHECK_SAME_ENC(e1, l1, e2, l2, "deferred: merged deferred == merged decoded, byte for byte");
	g_alloc.free(g_alloc.ctx, e1);
	g_alloc.free(g_alloc.ctx, e2);

	/* materialized in place: the original bytes */
	CHECK_EQ_I(lp_state_materialize(def), LP_OK, "deferred: materialize");
	CHECK(def->deferred == NULL, "deferred: nothing deferred after materializing");
	CHECK_EQ_I(lp_state_materialize(def), LP_OK, "deferred: materialize again is a no-op");
	e1 = encode(def, &l1);
	CHECK_SAME_ENC(e1, l1, enc, len, "deferred: materialized state encodes to its input");
	g_alloc.free(g_alloc.ctx, e1);

	/* a pending pipelined row blocks encoding until flushed */
	{
		int			v,
					bad = 0;

		/* a route with a dense array, so that the last add stays pending */
		for (v = 0; v < 100; v++)
			bad += lp_state_add_pipelined(def, "/p", 2, v) != LP_OK;
		CHECK_EQ_I(bad, 0, "deferred: adds to /p");
	}
	CHECK(def->npend > 0, "deferred: a row is pending");
	CHECK_EQ_I(lp_encode(def, &a, 0, SIZE_MAX, &out, &outlen), LP_EINTERNAL,
			   "deferred: encoding a state with a pending row is refused");
	CHECK_EQ_I(lp_state_flush(def), LP_OK, "deferred: flush");
	CHECK_EQ_I(lp_encode(def, &a, 0, SIZE_MAX, &out, &outlen), LP_OK, "deferred: encodes once flushed");
	a.free(a.ctx, out);

	lp_state_free(def);
	lp_state_free(viadef);
	lp_state_free(viadec);
	CHECK_EQ_I(heap.live, 0, "deferred test frees everything");
	lp_state_free(src);
	lp_state_free(part);
	g_alloc.free(g_alloc.ctx, enc);
}


/* ---------- sums of deferred encodings (lp_encoded_sum, lp_state_encode_any) ---------- */

/*
 * One part of a workload split as a parallel scan splits it: `kind` 0 a
 * state without status counts (version 1), 1 one that counts statuses
 * with options `sopts`, some lines without a latency (version 2), 2 the
 * empty state, 3 only malformed lines.  Routes from a set of 50 shared by
 * every part plus a few of its own, values with gaps that cross varint
 * lengths, from seed `seed`.
 */
static lp_state *
sum_part(int kind, unsigned sopts, int lines, uint64_t seed)
{
	lp_state   *st = lp_state_create(&g_alloc);
	uint64_t	x = seed;
	int			i,
				bad = 0;

	if (!st)
		return NULL;
	if (kind == 1)
		bad += lp_state_use_options(st, sopts) != LP_OK;
	if (kind == 3)
		bad += lp_state_add_malformed(st, 1 + seed % 5) != LP_OK;
	for (i = 0; kind < 2 && i < lines; i++)
	{
		uint64_t	r = test_rnd(&x);
		char		key[24];
		int			klen;
		int64_t		v = (int64_t) ((r >> 16) % 700);

		if (r % 97 == 0)
			klen = snprintf(key, sizeof(key), "/own/%llu/%d", (unsigned long long) seed, (int) (r >> 40) % 3);
		else
			klen = snprintf(key, sizeof(key), "/r%d", (int) ((r >> 8) % 50));
		if (r % 13 == 0)
			v = (int64_t) 1 << (7 * (int) (1 + (r >> 32) % 8));	/* past the dense array, long varints */
		if (kind == 0)
			bad += lp_state_add_pipelined(st, key, (size_t) klen, v) != LP_OK;
		else
		{
			if (r % 11 == 0)
				v = -1;			/* no latency */
			bad += lp_state_add_status(st, key, (size_t) klen, v, (int) ((r >> 48) % LP_CLASSES)) != LP_OK;
		}
	}
	if (kind == 1 && seed % 3 == 0)
	{
		/* a route with requests but no latency at all: no pair */
		bad += lp_state_add_status(st, "/nolat", 6, -1, LP_CLASS_5XX) != LP_OK;
	}
	bad += lp_state_flush(st) != LP_OK;
	CHECK(bad == 0, "sum: part of kind %d built (%d failures)", kind, bad);
	return st;
}

/*
 * The parts' encodings added up three ways, each against the reference
 * (decoding them one after the other into an empty state, as the leader's
 * combine did before): lp_encoded_sum; a state that holds the first part
 * and defers the others (lp_state_defer_copy), encoded by
 * lp_state_encode_any; and that state merged into another one
 * (lp_state_merge_any) then materialized.  An error of the reference must
 * be the sum's error too.
 */
static void
sum_case(const char *what, lp_state *const *part, int k)
{
	uint8_t    *enc[24],
			   *sum,
			   *ref = NULL,
			   *any;
	size_t		len[24],
				ls,
				lr = 0,
				la;
	lp_state   *dec = lp_state_create(&g_alloc);
	lp_state   *hold = lp_state_create(&g_alloc);
	int			i,
				rrc = LP_OK,
				rc;

	for (i = 0; i < k; i++)
		enc[i] = encode(part[i], &len[i]);
	for (i = 0; i < k && rrc == LP_OK; i++)
		rrc = lp_decode_into(dec, enc[i], len[i]);
	if (rrc == LP_OK)
		ref = encode(dec, &lr);

	if (k <= LP_SUM_MAX)
	{
		rc = lp_encoded_sum((const uint8_t *const *) enc, len, k, &g_alloc, 4, SIZE_MAX / 4, &sum, &ls);
		if (CHECK(rc == rrc, "%s: lp_encoded_sum returned %d, decoding one by one %d", what, rc, rrc) && rc == LP_OK)
		{
			CHECK_SAME_ENC(sum + 4, ls, ref, lr, "%s: lp_encoded_sum == decoded one by one", what);
			g_alloc.free(g_alloc.ctx, sum);
		}
	}

	/* the first part decoded, the others deferred (more than LP_DEFER_MAX: some decoded) */
	rc = lp_decode_into(hold, enc[0], len[0]);
	for (i = 1; i < k && rc == LP_OK; i++)
		rc = lp_state_defer_copy(hold, enc[i], len[i]);
	if (rc == LP_OK)
		rc = lp_state_encode_any(hold, &g_alloc, 0, SIZE_MAX / 4, &any, &la);
	if (CHECK(rc == rrc, "%s: deferred, lp_state_encode_any returned %d, decoding %d", what, rc, rrc) && rc == LP_OK)
	{
		CHECK_SAME_ENC(any, la, ref, lr, "%s: lp_state_encode_any == decoded one by one", what);
		g_alloc.free(g_alloc.ctx, any);

		/*
		 * merged into a state that defers the first part once more, whose
		 * deferred encoding stays: the first part twice and the others
		 */
		{
			lp_state   *into = lp_state_create(&g_alloc);
			lp_state   *twice = lp_state_create(&g_alloc);
			int			r2 = lp_decode_into(twice, enc[0], len[0]);

			for (i = 0; i < k && r2 == LP_OK; i++)
				r2 = lp_decode_into(twice, enc[i], len[i]);
			rc = lp_state_defer_copy(into, enc[0], len[0]);
			if (rc == LP_OK)
				rc = lp_state_merge_any(into, hold);
			CHECK(rc == r2, "%s: merge_any of the deferring state returned %d, decoding %d", what, rc, r2);
			CHECK(rc != LP_OK || lp_state_empty(part[0]) || len[0] > lp_defer_budget || into->deferred != NULL,
				  "%s: merge_any leaves dst's deferred encodings", what);
			if (rc == LP_OK && CHECK(lp_state_materialize(into) == LP_OK, "%s: materialize", what))
				CHECK_SAME_STATE(into, twice, "%s: merged and materialized == decoded one by one", what);
			lp_state_free(into);
			lp_state_free(twice);
		}
	}
	for (i = 0; i < k; i++)
		g_alloc.free(g_alloc.ctx, enc[i]);
	if (ref)
		g_alloc.free(g_alloc.ctx, ref);
	lp_state_free(dec);
	lp_state_free(hold);
}

void
test_state_deferred_sums(void)
{
	/* kinds of the parts, one string a case: 0 v1, 1 v2, 2 empty, 3 malformed only */
	static const struct
	{
		const char *kinds;
		unsigned	sopts;		/* of the kind 1 parts */
	}			cases[] = {
		{"0", 0}, {"1", 0}, {"00", 0}, {"000", 0}, {"0000", 0}, {"11", 0}, {"111", 0},
		{"111", LP_SOPT_METHOD}, {"111", LP_SOPT_OK_LATENCY}, {"111", LP_SOPT_ALL},
		{"010", 0}, {"101", 0}, {"2", 0}, {"22", 0}, {"202", 0}, {"020", 0}, {"3", 0}, {"303", 0},
		{"0123", 0}, {"2103", LP_SOPT_METHOD}, {"1212", LP_SOPT_ALL},
		{"0000000000000000", 0}, {"1010101010101010", 0}, {"2222222220", 0},
		{"00000000000000000000", 0},	/* more than LP_SUM_MAX: deferred and decoded only */
	};
	lp_state   *part[24];
	size_t		c;
	int			i;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
	{
		int			k = (int) strlen(cases[c].kinds);
		char		what[80];

		snprintf(what, sizeof(what), "sum of parts \"%s\", options %u", cases[c].kinds, cases[c].sopts);
		for (i = 0; i < k; i++)
			part[i] = sum_part(cases[c].kinds[i] - '0', cases[c].sopts, 3000 + 700 * i, 17 + 31 * c + (uint64_t) i);
		sum_case(what, part, k);
		for (i = 0; i < k; i++)
			lp_state_free(part[i]);
	}

	/*
	 * a budget of 4 kB: parts past it are decoded at once, or decode those
	 * kept before them; the same bytes
	 */
	lp_defer_budget = 4000;
	for (c = 0; c < 3; c++)
	{
		static const char *const kinds[] = {"0000", "1111", "01210"};
		int			k = (int) strlen(kinds[c]);
		char		what[80];

		snprintf(what, sizeof(what), "sum of parts \"%s\" over a 4 kB budget", kinds[c]);
		for (i = 0; i < k; i++)
			part[i] = sum_part(kinds[c][i] - '0', 0, i % 2 ? 300 : 9000, 5 + (uint64_t) i);
		sum_case(what, part, k);
		{
			/* a state too large for the budget, given as a state: merged */
			lp_state   *held = lp_state_create(&g_alloc);
			lp_state   *dec = lp_state_create(&g_alloc);
			uint8_t    *e1,
					   *e2;
			size_t		l1,
						l2;

			CHECK(lp_state_defer_state(held, part[1]) == LP_OK &&
				  lp_state_defer_state(held, part[0]) == LP_OK &&
				  lp_state_merge(dec, part[1]) == LP_OK && lp_state_merge(dec, part[0]) == LP_OK,
				  "%s: defer_state", what);
			CHECK(lp_state_encode_any(held, &g_alloc, 0, SIZE_MAX / 4, &e1, &l1) == LP_OK,
				  "%s: encode_any", what);
			e2 = encode(dec, &l2);
			CHECK_SAME_ENC(e1, l1, e2, l2, "%s: defer_state == merge", what);
			g_alloc.free(g_alloc.ctx, e1);
			g_alloc.free(g_alloc.ctx, e2);
			lp_state_free(held);
			lp_state_free(dec);
		}
		for (i = 0; i < k; i++)
			lp_state_free(part[i]);
	}
	lp_defer_budget = LP_DEFER_BYTES;

	/* options that differ: refused like decoding refuses them (both orders); empty parts may differ */
	part[0] = sum_part(1, LP_SOPT_METHOD, 500, 3);
	part[1] = sum_part(1, 0, 500, 4);
	part[2] = lp_state_create(&g_alloc);
	CHECK(part[2] && lp_state_use_options(part[2], LP_SOPT_OK_LATENCY) == LP_OK, "sum: empty state with options");
	sum_case("options differ", part, 2);
	{
		lp_state   *swap[3] = {part[1], part[0], part[2]};
		lp_state   *e1[2] = {part[2], part[0]};
		lp_state   *e2[2] = {part[0], part[2]};

		sum_case("options differ, swapped", swap, 2);
		sum_case("an empty state's options give way", e1, 2);
		sum_case("an empty state's options give way, after", e2, 2);
	}
	/*
	 * options are joined when a state is deferred, as when it is decoded:
	 * refused at once, also between two states that only hold deferred ones
	 */
	{
		lp_state   *x = lp_state_create(&g_alloc);
		lp_state   *y = lp_state_create(&g_alloc);
		uint8_t    *e0,
				   *e1,
				   *e2;
		size_t		l0,
					l1,
					l2;

		e0 = encode(part[0], &l0);
		e1 = encode(part[1], &l1);
		e2 = encode(part[2], &l2);
		CHECK(lp_state_defer_copy(x, e2, l2) == LP_OK && x->deferred == NULL,
			  "sum: an empty state is decoded, not deferred");
		CHECK(lp_state_defer_copy(x, e0, l0) == LP_OK && x->deferred != NULL, "sum: defer a state");
		CHECK_EQ_I(lp_state_defer_copy(x, e1, l1), LP_EOPTIONS, "sum: other options refused when deferred");
		CHECK(lp_state_defer_copy(y, e1, l1) == LP_OK, "sum: defer the other");
		CHECK_EQ_I(lp_state_merge_any(x, y), LP_EOPTIONS,
				   "sum: merge_any of deferring states with other options refused");
		CHECK_EQ_I(lp_state_defer_state(x, part[1]), LP_EOPTIONS, "sum: defer_state with other options refused");
		g_alloc.free(g_alloc.ctx, e0);
		g_alloc.free(g_alloc.ctx, e1);
		g_alloc.free(g_alloc.ctx, e2);
		lp_state_free(x);
		lp_state_free(y);
	}
	for (i = 0; i < 3; i++)
		lp_state_free(part[i]);

	/* counts past INT64_MAX, and malformed counts */
	for (i = 0; i < 2; i++)
	{
		lp_route   *r;

		part[i] = lp_state_create(&g_alloc);
		CHECK(part[i] && lp_state_route(part[i], "/big", 4, &r) == LP_OK &&
			  lp_hist_add(&part[i]->alloc, &r->hist, 5 + i, (uint64_t) INT64_MAX / 2 + 1) == LP_OK,
			  "sum: a route with a huge count");
	}
	sum_case("route counts past INT64_MAX", part, 2);
	for (i = 0; i < 2; i++)
	{
		lp_state_free(part[i]);
		part[i] = lp_state_create(&g_alloc);
		CHECK(part[i] && lp_state_add_malformed(part[i], (uint64_t) INT64_MAX / 2 + 1) == LP_OK,
			  "sum: a huge malformed count");
	}
	sum_case("malformed counts past INT64_MAX", part, 2);
	for (i = 0; i < 2; i++)
		lp_state_free(part[i]);

	/* the size limit, and n out of range */
	{
		lp_state   *p = sum_part(0, 0, 4000, 9);
		uint8_t    *e,
				   *out;
		size_t		l,
					ol;
		const uint8_t *in[2];
		size_t		inl[2];

		e = encode(p, &l);
		in[0] = in[1] = e;
		inl[0] = inl[1] = l;
		CHECK_EQ_I(lp_encoded_sum(in, inl, 2, &g_alloc, 4, l, &out, &ol), LP_ETOOBIG,
				   "sum: a result past max_len is LP_ETOOBIG");
		CHECK_EQ_I(lp_encoded_sum(in, inl, 0, &g_alloc, 0, SIZE_MAX, &out, &ol), LP_EINTERNAL,
				   "sum: no input is a caller's bug");
		CHECK_EQ_I(lp_encoded_sum(in, inl, LP_SUM_MAX + 1, &g_alloc, 0, SIZE_MAX, &out, &ol), LP_EINTERNAL,
				   "sum: too many inputs is a caller's bug");
		g_alloc.free(g_alloc.ctx, e);
		lp_state_free(p);
	}
}
