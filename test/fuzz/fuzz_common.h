/* test/fuzz/fuzz_common.h -- shared checks of the decoder harnesses */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp_codec.h"
#include "lp_partial.h"
#include "lp_rank.h"
#include "lp_state.h"
#include "../unit/test_diff_state.h"

/* Stop the run with a crash that libFuzzer reports and saves. */
#define FUZZ_ASSERT(c) do { if (!(c)) abort(); } while (0)

/* malloc for the state. */
static void *
fuzz_alloc(void *ctx, size_t size)
{
	return malloc(size ? size : 1);
}

/* free for the state. */
static void
fuzz_free(void *ctx, void *ptr)
{
	free(ptr);
}

static const lp_allocator fuzz_allocator = {fuzz_alloc, fuzz_free, NULL};

/*
 * Walk an encoding with lp_reader, checking what lp_validate found: the
 * walk ends cleanly exactly when the bytes validate, keys come in strictly
 * ascending order, values strictly ascending, counts >= 1 adding up to the
 * route's total, and lp_view_ranks agrees with a walk of the pairs.
 */
static void
fuzz_walk(const uint8_t *buf, size_t len, int valid)
{
	lp_reader	r;
	lp_route_view rv;
	int			rc;
	uint64_t	routes = 0;
	const char *prev = NULL;
	size_t		prevlen = 0;

	if (lp_reader_init(&r, buf, len) != LP_OK)
	{
		FUZZ_ASSERT(!valid);
		return;
	}
	r.all = 1;					/* version 2: routes without a latency too */
	while ((rc = lp_reader_next(&r, &rv)) == 1)
	{
		lp_pair_iter it;
		int64_t		v,
					last = -1;
		uint64_t	c,
					n = 0,
					total = 0;
		uint64_t	ranks[3];
		int64_t		got[3],
					want[3] = {-1, -1, -1};
		int			k;

		FUZZ_ASSERT(rv.key >= (const char *) buf && rv.keylen <= len);
		FUZZ_ASSERT(rv.keylen == 0 || memchr(rv.key, 0, rv.keylen) == NULL);
		if (routes > 0)
			FUZZ_ASSERT(lp_key_cmp(prev, prevlen, rv.key, rv.keylen) < 0);
		prev = rv.key;
		prevlen = rv.keylen;
		/* version 2: the status counts add up to the histogram as lp_red_check says */
		FUZZ_ASSERT(rv.has_red == (r.version == LP_CODEC_VERSION_RED));
		FUZZ_ASSERT(lp_red_check(&rv.red, rv.total, r.sopts) == LP_OK);
		if (rv.npairs == 0)
		{
			FUZZ_ASSERT(rv.has_red && rv.total == 0 && rv.pairs_len == 0);
			routes++;
			continue;
		}
		FUZZ_ASSERT(rv.npairs >= 1 && rv.total >= 1 && rv.total <= (uint64_t) INT64_MAX);
		ranks[0] = 0;
		ranks[1] = lp_rank_pct(rv.total, 95);
		ranks[2] = rv.total - 1;
		lp_pairs_begin(&rv, &it);
		while (lp_pairs_next(&it, &v, &c))
		{
			FUZZ_ASSERT(v > last && c >= 1);
			for (k = 0; k < 3; k++)
				if (want[k] < 0 && ranks[k] < total + c)
					want[k] = v;
			last = v;
			total += c;
			n++;
		}
		FUZZ_ASSERT(n == rv.npairs && total == rv.total);
		lp_view_ranks(&rv, ranks, got, 3);
		for (k = 0; k < 3; k++)
		{
			test_diff	d;
			char		name[64];

			diff_init(&d);
			snprintf(name, sizeof(name), "value at rank %llu", (unsigned long long) ranks[k]);
			if (!diff_i(&d, name, got[k], want[k]))
				diff_abort(&d, "fuzz: lp_view_ranks", "route %s of %llu requests, against a walk of its pairs",
						   diff_q(rv.key, rv.keylen), (unsigned long long) rv.total);
		}
		routes++;
	}
	FUZZ_ASSERT((rc == 0) == (valid != 0));
	if (valid)
		FUZZ_ASSERT(routes == r.nroutes && r.p == r.end);
}

/*
 * A state a valid input was decoded into re-encodes to the identical bytes;
 * one an invalid input was refused into stays empty.
 */
static void
fuzz_check_decoded(const lp_state *st, const uint8_t *buf, size_t len, int valid)
{
	if (valid)
	{
		uint8_t    *out = NULL;
		size_t		outlen = 0;
		test_diff	d;

		FUZZ_ASSERT(lp_encode(st, &fuzz_allocator, 0, SIZE_MAX / 4, &out, &outlen) == LP_OK);
		diff_init(&d);
		if (!diff_encodings(&d, out, outlen, buf, len))
			diff_abort(&d, "fuzz: encode(decode(x)) against x", "%zu input bytes", len);
		free(out);
	}
	else
		FUZZ_ASSERT(st->nroutes == 0 && st->malformed == 0);
}

/*
 * Validate and decode bytes, directly and through the deferred path: the
 * walk agrees with the validation, and a valid input re-encodes to itself.
 */
static void
fuzz_decode(const uint8_t *buf, size_t len)
{
	int			valid = lp_validate(buf, len) == LP_OK;
	lp_state   *st = lp_state_create(&fuzz_allocator);
	lp_state   *def = lp_state_create(&fuzz_allocator);
	lp_state   *dst = lp_state_create(&fuzz_allocator);

	FUZZ_ASSERT(st != NULL && def != NULL && dst != NULL);
	fuzz_walk(buf, len, valid);
	FUZZ_ASSERT(lp_decode_into(st, buf, len) == (valid ? LP_OK : LP_ECORRUPT));
	fuzz_check_decoded(st, buf, len, valid);

	/* the deferred path (parallel query): checked the same, merges the same */
	FUZZ_ASSERT(lp_state_defer(def, buf, len) == (valid ? LP_OK : LP_ECORRUPT));
	FUZZ_ASSERT(lp_state_merge_any(dst, def) == LP_OK);
	fuzz_check_decoded(dst, buf, len, valid);

	/*
	 * a valid state deferred twice (a copy and in place) and encoded by the
	 * sum of encodings: the bytes, or the error, of decoding it twice
	 */
	if (valid)
	{
		lp_state   *twice = lp_state_create(&fuzz_allocator);
		lp_state   *held = lp_state_create(&fuzz_allocator);
		uint8_t    *a = NULL,
				   *b = NULL;
		size_t		al = 0,
					bl = 0;
		int			ra,
					rb;

		FUZZ_ASSERT(twice != NULL && held != NULL);
		ra = lp_decode_into(twice, buf, len);
		if (ra == LP_OK)
			ra = lp_decode_into(twice, buf, len);
		if (ra == LP_OK)
			ra = lp_encode(twice, &fuzz_allocator, 0, SIZE_MAX / 4, &a, &al);
		FUZZ_ASSERT(lp_state_defer_copy(held, buf, len) == LP_OK);
		FUZZ_ASSERT(lp_state_defer(held, buf, len) == LP_OK);
		rb = lp_state_encode_any(held, &fuzz_allocator, 0, SIZE_MAX / 4, &b, &bl);
		FUZZ_ASSERT(ra == rb);
		if (ra == LP_OK)
			FUZZ_ASSERT(al == bl && memcmp(a, b, al) == 0);
		if (a)
			fuzz_allocator.free(fuzz_allocator.ctx, a);
		if (b)
			fuzz_allocator.free(fuzz_allocator.ctx, b);
		lp_state_free(twice);
		lp_state_free(held);
	}
	lp_state_free(st);
	lp_state_free(def);
	lp_state_free(dst);
}

#endif							/* FUZZ_COMMON_H */
