/* test/unit/test_arith.c -- unit tests of the ordered-walk sum and difference of encoded states (lp_arith.c) */
#include "test_harness.h"

#include "lp_arith.h"

/*
 * The reference is the hash-table merge of lp_state (lp_state_merge) and
 * its encoder: a + b must be the same bytes as encode(merge(A, B)), and
 * (a + b) - b the same bytes as a.  States of generated lines over
 * overlapping and disjoint ranges of lines and routes, with malformed
 * counts, hand-made value gaps that move varint lengths, and the empty
 * state.
 */

/* A state of generated lines plus `malformed` malformed lines and `extra` values of route "/gap". */
static lp_state *
arith_state(int64_t first, int64_t lines, int32_t routes, int64_t seed,
			uint64_t malformed, int64_t extra)
{
	lp_state   *st = gen_state(&g_alloc, first, lines, routes, seed);
	int64_t		i;

	if (!st)
		return NULL;
	if (malformed)
		lp_state_add_malformed(st, malformed);
	/* values 0, 127, 128, 16383, 16384, ...: deltas across varint lengths */
	for (i = 0; i < extra; i++)
		lp_state_add_slow(st, "/gap", 4, (i % 2) ? (int64_t) 1 << (7 * (int) (i / 2 + 1)) : ((int64_t) 1 << (7 * (int) (i / 2 + 1))) - 1);
	return st;
}

/* Compare the sum and difference of two states with the reference; name says which case. */
static void
arith_case(const char *name, lp_state *a, lp_state *b)
{
	uint8_t    *ea,
			   *eb,
			   *sum,
			   *diff,
			   *ref;
	size_t		la,
				lb,
				ls,
				ld,
				lr;
	lp_state   *m = lp_state_create(&g_alloc);
	const char *misfit = NULL;
	size_t		mlen = 0;
	int			rc;

	ea = encode(a, &la);
	eb = encode(b, &lb);
	CHECK(m && lp_state_merge(m, a) == LP_OK && lp_state_merge(m, b) == LP_OK,
		  "%s: reference merge", name);
	ref = encode(m, &lr);

	rc = lp_encoded_add(ea, la, eb, lb, &g_alloc, 4, SIZE_MAX / 4, &sum, &ls);
	if (CHECK(rc == LP_OK, "%s: lp_encoded_add returned %d", name, rc))
	{
		CHECK(ls == lr && memcmp(sum + 4, ref, lr) == 0,
			  "%s: a + b differs from the merged state (%zu vs %zu bytes)", name, ls, lr);
		CHECK(ls <= la + lb, "%s: a + b (%zu bytes) longer than a and b (%zu)", name, ls, la + lb);

		rc = lp_encoded_subtract(sum + 4, ls, eb, lb, &g_alloc, 0, SIZE_MAX / 4,
								 &diff, &ld, &misfit, &mlen);
		if (CHECK(rc == LP_OK, "%s: (a + b) - b returned %d", name, rc))
		{
			CHECK(ld == la && memcmp(diff, ea, la) == 0,
				  "%s: (a + b) - b differs from a (%zu vs %zu bytes)", name, ld, la);
			g_alloc.free(g_alloc.ctx, diff);
		}
		rc = lp_encoded_subtract(sum + 4, ls, sum + 4, ls, &g_alloc, 0, SIZE_MAX / 4,
								 &diff, &ld, &misfit, &mlen);
		if (CHECK(rc == LP_OK, "%s: s - s returned %d", name, rc))
		{
			CHECK(ld == 3 && memcmp(diff, "\x01\x00\x00", 3) == 0,
				  "%s: s - s is not the empty state (%zu bytes)", name, ld);
			g_alloc.free(g_alloc.ctx, diff);
		}
		g_alloc.free(g_alloc.ctx, sum);
	}
	g_alloc.free(g_alloc.ctx, ea);
	g_alloc.free(g_alloc.ctx, eb);
	g_alloc.free(g_alloc.ctx, ref);
	lp_state_free(m);
}

void
test_arith_sums(void)
{
	struct
	{
		const char *name;
		int64_t		af,
					al,
					bf,
					bl;
		int32_t		ar,
					br;
		uint64_t	am,
					bm;
		int64_t		ax,
					bx;
	}			cases[] = {
		{"empty + empty", 0, 0, 0, 0, 5, 5, 0, 0, 0, 0},
		{"empty + some", 0, 0, 0, 500, 5, 5, 0, 3, 0, 0},
		{"same lines twice", 0, 2000, 0, 2000, 40, 40, 1, 2, 0, 0},
		{"overlapping ranges", 0, 3000, 1500, 3000, 40, 40, 0, 0, 4, 7},
		{"disjoint routes", 0, 2000, 0, 2000, 3, 300, 0, 0, 9, 0},
		{"varint gaps", 0, 10, 0, 10, 2, 2, 0, 0, 9, 8},
		{"one line", 0, 1, 7, 1, 300, 300, 0, 0, 1, 0},
	};
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		lp_state   *a = arith_state(cases[i].af, cases[i].al, cases[i].ar, 11, cases[i].am, cases[i].ax);
		lp_state   *b = arith_state(cases[i].bf, cases[i].bl, cases[i].br, 11, cases[i].bm, cases[i].bx);

		if (CHECK(a && b, "%s: states built", cases[i].name))
		{
			arith_case(cases[i].name, a, b);
			arith_case(cases[i].name, b, a);
		}
		lp_state_free(a);
		lp_state_free(b);
	}
}

/* What does not fit: a route, a value or a count a lacks, and the malformed count. */
void
test_arith_misfits(void)
{
	lp_state   *a = lp_state_create(&g_alloc);
	lp_state   *b = lp_state_create(&g_alloc);
	uint8_t    *ea,
			   *eb,
			   *out = NULL;
	size_t		la,
				lb,
				lo;
	const char *misfit = NULL;
	size_t		mlen = 0;
	int			rc;

	lp_state_add_slow(a, "/a", 2, 5);
	lp_state_add_slow(a, "/a", 2, 5);
	lp_state_add_slow(a, "/b", 2, 7);
	ea = encode(a, &la);

	/* a count larger than a's */
	lp_state_add_slow(b, "/a", 2, 5);
	lp_state_add_slow(b, "/a", 2, 5);
	lp_state_add_slow(b, "/a", 2, 5);
	eb = encode(b, &lb);
	rc = lp_encoded_subtract(ea, la, eb, lb, &g_alloc, 0, SIZE_MAX / 4, &out, &lo, &misfit, &mlen);
	CHECK_EQ_I(rc, LP_ENOFIT, "a larger count does not fit");
	CHECK(misfit && mlen == 2 && memcmp(misfit, "/a", 2) == 0, "the misfit names /a");
	g_alloc.free(g_alloc.ctx, eb);
	lp_state_free(b);

	/* a value a lacks */
	b = lp_state_create(&g_alloc);
	lp_state_add_slow(b, "/b", 2, 8);
	eb = encode(b, &lb);
	misfit = NULL;
	rc = lp_encoded_subtract(ea, la, eb, lb, &g_alloc, 0, SIZE_MAX / 4, &out, &lo, &misfit, &mlen);
	CHECK_EQ_I(rc, LP_ENOFIT, "a missing value does not fit");
	CHECK(misfit && mlen == 2 && memcmp(misfit, "/b", 2) == 0, "the misfit names /b");
	g_alloc.free(g_alloc.ctx, eb);
	lp_state_free(b);

	/* a route a lacks, after one that fits */
	b = lp_state_create(&g_alloc);
	lp_state_add_slow(b, "/a", 2, 5);
	lp_state_add_slow(b, "/c", 2, 5);
	eb = encode(b, &lb);
	misfit = NULL;
	rc = lp_encoded_subtract(ea, la, eb, lb, &g_alloc, 0, SIZE_MAX / 4, &out, &lo, &misfit, &mlen);
	CHECK_EQ_I(rc, LP_ENOFIT, "a missing route does not fit");
	CHECK(misfit && mlen == 2 && memcmp(misfit, "/c", 2) == 0, "the misfit names /c");
	g_alloc.free(g_alloc.ctx, eb);
	lp_state_free(b);

	/* more malformed lines */
	b = lp_state_create(&g_alloc);
	lp_state_add_malformed(b, 1);
	eb = encode(b, &lb);
	misfit = "x";
	rc = lp_encoded_subtract(ea, la, eb, lb, &g_alloc, 0, SIZE_MAX / 4, &out, &lo, &misfit, &mlen);
	CHECK_EQ_I(rc, LP_ENOFIT, "a larger malformed count does not fit");
	CHECK(misfit == NULL, "the malformed misfit names no route");

	/* b - ... and the sum of a count past INT64_MAX */
	{
		bytes		bb;

		b_head(&bb, 0, 1);
		b_route(&bb, "/a", 1, 10);
		b_var(&bb, 5);
		b_var(&bb, (uint64_t) INT64_MAX);
		rc = lp_encoded_add(bb.b, bb.n, ea, la, &g_alloc, 0, SIZE_MAX / 4, &out, &lo);
		CHECK_EQ_I(rc, LP_EOVERFLOW, "a sum past INT64_MAX");
	}

	/* corrupt input and a size limit */
	rc = lp_encoded_add(ea, la - 1, ea, la, &g_alloc, 0, SIZE_MAX / 4, &out, &lo);
	CHECK_EQ_I(rc, LP_ECORRUPT, "a truncated input");
	rc = lp_encoded_add(ea, la, ea, la, &g_alloc, 0, 5, &out, &lo);
	CHECK_EQ_I(rc, LP_ETOOBIG, "a result past max_len");

	g_alloc.free(g_alloc.ctx, ea);
	g_alloc.free(g_alloc.ctx, eb);
	lp_state_free(a);
	lp_state_free(b);
}
