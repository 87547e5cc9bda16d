/* test/unit/test_diff_state.h -- the first field where two encoded states differ: for unit tests and fuzzers */
#ifndef TEST_DIFF_STATE_H
#define TEST_DIFF_STATE_H

#include "lp_codec.h"
#include "test_diff.h"

/* The first differing byte of two byte strings (or where the shorter ends). */
static inline int
diff_bytes(test_diff *d, const uint8_t *got, size_t glen, const uint8_t *want, size_t wlen)
{
	size_t		i;
	char		name[64];

	for (i = 0; i < glen && i < wlen && got[i] == want[i]; i++)
		;
	if (i == glen && i == wlen)
		return 1;
	snprintf(name, sizeof(name), "byte %zu", i);
	if (diff_note(d, name))
	{
		if (i < glen)
			snprintf(d->got, sizeof(d->got), "0x%02x (%zu bytes)", got[i], glen);
		else
			snprintf(d->got, sizeof(d->got), "the end (%zu bytes)", glen);
		if (i < wlen)
			snprintf(d->want, sizeof(d->want), "0x%02x (%zu bytes)", want[i], wlen);
		else
			snprintf(d->want, sizeof(d->want), "the end (%zu bytes)", wlen);
	}
	return 0;
}

/*
 * Compare two encoded states by what they hold: the malformed count, the
 * number of routes, then route by route its key, its values and counts in
 * order and its number of values, naming the first that differs ("field
 * route "/a" count of value 12: expected 3 got 4").  Where the bytes
 * differ without any of those differing, or either does not walk, the
 * first differing byte.
 */
static inline int
diff_encodings(test_diff *d, const uint8_t *got, size_t glen, const uint8_t *want, size_t wlen)
{
	lp_reader	rg,
				rw;
	lp_route_view vg,
				vw;
	int			ng,
				nw;
	uint64_t	k;
	char		name[160];

	if (glen == wlen && (glen == 0 || memcmp(got, want, glen) == 0))
		return 1;
	if (lp_reader_init(&rg, got, glen) == LP_OK && lp_reader_init(&rw, want, wlen) == LP_OK)
	{
		if (!diff_u(d, "malformed", rg.malformed, rw.malformed) ||
			!diff_u(d, "routes", rg.nroutes, rw.nroutes))
			return 0;
		for (k = 0;; k++)
		{
			lp_pair_iter ig,
						iw;
			int64_t		xg = 0,
						xw = 0;
			uint64_t	cg = 0,
						cw = 0,
						j;
			const char *key;

			ng = lp_reader_next(&rg, &vg);
			nw = lp_reader_next(&rw, &vw);
			if (ng != 1 || nw != 1)
				break;
			snprintf(name, sizeof(name), "key of route %llu", (unsigned long long) k);
			if (!diff_text(d, name, vg.key, vg.keylen, vw.key, vw.keylen))
				return 0;
			key = diff_q(vw.key, vw.keylen);
			lp_pairs_begin(&vg, &ig);
			lp_pairs_begin(&vw, &iw);
			for (j = 0; j < vg.npairs && j < vw.npairs; j++)
			{
				lp_pairs_next(&ig, &xg, &cg);
				lp_pairs_next(&iw, &xw, &cw);
				snprintf(name, sizeof(name), "route %s value %llu", key, (unsigned long long) j);
				if (!diff_i(d, name, xg, xw))
					return 0;
				snprintf(name, sizeof(name), "route %s count of value %lld", key, (long long) xw);
				if (!diff_u(d, name, cg, cw))
					return 0;
			}
			snprintf(name, sizeof(name), "route %s values", key);
			if (!diff_u(d, name, vg.npairs, vw.npairs))
				return 0;
		}
	}
	return diff_bytes(d, got, glen, want, wlen);
}

#endif							/* TEST_DIFF_STATE_H */
