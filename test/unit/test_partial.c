/* test/unit/test_partial.c -- unit tests of deferred decoding of partial states (lp_partial.c) */
#include "test_harness.h"

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

