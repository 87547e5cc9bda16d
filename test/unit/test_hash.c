/* test/unit/test_hash.c -- the keyed hashes: old collision sets and adversarial keys stay short-probe */
#include "test_harness.h"

/* ---- the unkeyed hash logp95 had before issue 14, kept to build its collisions ---- */

#define OLD_SEED UINT64_C(0x9E3779B97F4A7C15)
#define OLD_C1 UINT64_C(0xbf58476d1ce4e5b9)

/* One word of the old route hash. */
static uint64_t
old_word(uint64_t h, uint64_t w)
{
	h = (h ^ w) * OLD_C1;
	return h ^ (h >> 31);
}

/* The old route hash of a 16-byte key (two words, no tail). */
static uint64_t
old_hash16(const uint8_t *k)
{
	uint64_t	w0,
				w1,
				h;

	memcpy(&w0, k, 8);
	memcpy(&w1, k + 8, 8);
	h = old_word(old_word(OLD_SEED, w0), w1);
	h = (h ^ ((uint64_t) 16 << 56) ^ 16) * UINT64_C(0x94d049bb133111eb);
	h ^= h >> 29;
	h *= OLD_C1;
	return h ^ (h >> 32);
}

/* The old value hash. */
static uint32_t
old_hash_value(int64_t v)
{
	return (uint32_t) (((uint64_t) v * OLD_SEED) >> 32);
}

/* The inverse of an odd number modulo 2^64 (Newton). */
static uint64_t
inv64(uint64_t a)
{
	uint64_t	x = a;
	int			i;

	for (i = 0; i < 6; i++)
		x *= 2 - a * x;
	return x;
}

/*
 * 16-byte key number i of a set that all share one old 64-bit hash: any
 * first word, then the second word that takes the chain to a fixed value
 * (the old mixing step is invertible).
 */
static void
old_collision_key(uint64_t i, uint8_t *k)
{
	uint64_t	w0 = UINT64_C(0x2f6170692f000000) + i;	/* any first word */
	uint64_t	h1 = old_word(OLD_SEED, w0);
	uint64_t	t = UINT64_C(0x0123456789abcdef);	/* the chain's value after word 2 */
	uint64_t	y = t ^ (t >> 31) ^ (t >> 62);	/* undo the xorshift */
	uint64_t	w1 = h1 ^ (y * inv64(OLD_C1));	/* undo the multiply */

	memcpy(k, &w0, 8);
	memcpy(k + 8, &w1, 8);
}

/* Mean and longest distance from home slot of a state's routes. */
static void
route_probes(const lp_state *st, double *mean, uint32_t *max)
{
	uint64_t	sum = 0;
	uint32_t	i,
				n = 0;

	*max = 0;
	for (i = 0; i <= st->mask; i++)
	{
		const lp_route *r = &st->routes[i];
		uint32_t	d;

		if (!r->key)
			continue;
		d = (i - ((uint32_t) r->hash & st->mask)) & st->mask;
		sum += d;
		n++;
		if (d > *max)
			*max = d;
	}
	*mean = n ? (double) sum / n : 0;
}

/* The same over a histogram's slot table. */
static void
value_probes(const lp_hist *h, double *mean, uint32_t *max)
{
	uint64_t	sum = 0;
	uint32_t	i,
				n = 0;

	*max = 0;
	for (i = 0; h->slots && i <= h->mask; i++)
	{
		uint32_t	d;

		if (!h->slots[i].count)
			continue;
		d = (i - (lp_hash_value(h->slots[i].value) & h->mask)) & h->mask;
		sum += d;
		n++;
		if (d > *max)
			*max = d;
	}
	*mean = n ? (double) sum / n : 0;
}

/* Insert n 16-byte keys into a fresh state; probe statistics. */
static void
state_of_keys(const uint8_t (*keys)[16], int n, double *mean, uint32_t *max)
{
	lp_state   *st = lp_state_create(&g_alloc);
	int			i,
				ok = 1;

	for (i = 0; i < n; i++)
		ok &= lp_state_add(st, (const char *) keys[i], 16, 1) == LP_OK;
	CHECK(ok && st->nroutes == (uint32_t) n, "every key stored");
	route_probes(st, mean, max);
	lp_state_free(st);
}

/* Add n values (count 1 each) to a fresh histogram; probe statistics. */
static void
hist_of_values(const int64_t *v, int n, double *mean, uint32_t *max)
{
	lp_hist		h;
	int			i,
				ok = 1;

	memset(&h, 0, sizeof(h));
	for (i = 0; i < n; i++)
		ok &= lp_hist_add(&g_alloc, &h, v[i], 1) == LP_OK;
	CHECK(ok && h.used == (uint32_t) n, "every value stored");
	value_probes(&h, mean, max);
	lp_hist_release(&g_alloc, &h);
}

#define NKEYS 20000
#define NVALS 100000

/*
 * Keys and values that all collide under the old hash (the attacks of
 * issue 14) probe like random ones under the keyed hash.
 */
void
test_hash_old_collisions(void)
{
	static uint8_t keys[NKEYS][16];
	static int64_t vals[NVALS];
	uint64_t	h0;
	uint64_t	vinv = inv64(OLD_SEED) & ((UINT64_C(1) << 54) - 1);
	double		mean,
				rmean;
	uint32_t	max,
				rmax;
	int			i,
				same = 1;

	for (i = 0; i < NKEYS; i++)
		old_collision_key((uint64_t) i, keys[i]);
	h0 = old_hash16(keys[0]);
	for (i = 1; i < NKEYS; i++)
		same &= old_hash16(keys[i]) == h0;
	CHECK(same, "the set really collides under the old hash");
	state_of_keys((const uint8_t (*)[16]) keys, NKEYS, &mean, &max);
	for (i = 0; i < NKEYS; i++)
	{
		uint64_t	r = (uint64_t) i * UINT64_C(0xd1342543de82ef95) + 12345;

		memcpy(keys[i], &r, 8);
		r = r * UINT64_C(0xd1342543de82ef95) + 1;
		memcpy(keys[i] + 8, &r, 8);
	}
	state_of_keys((const uint8_t (*)[16]) keys, NKEYS, &rmean, &rmax);
	printf("  hash: 20k old-colliding routes: mean probe %.2f, max %u; random: %.2f, %u\n",
		   mean, max, rmean, rmax);
	CHECK(mean <= 2 * rmean + 1 && max <= 64, "old-colliding routes probe like random ones");

	/* values t / SEED mod 2^54: all in slot 0 under the old hash */
	same = 1;
	for (i = 0; i < NVALS; i++)
	{
		vals[i] = (int64_t) (((uint64_t) (i + 1) * vinv) & ((UINT64_C(1) << 54) - 1));
		same &= (old_hash_value(vals[i]) & 0xfffff) == 0;
	}
	CHECK(same, "the values really collide under the old hash");
	hist_of_values(vals, NVALS, &mean, &max);
	for (i = 0; i < NVALS; i++)
		vals[i] = (int64_t) (((uint64_t) (i + 1) * UINT64_C(0x9E3779B97F4A7C15)) >> 10);
	hist_of_values(vals, NVALS, &rmean, &rmax);
	printf("  hash: 100k old-colliding values: mean probe %.2f, max %u; random: %.2f, %u\n",
		   mean, max, rmean, rmax);
	CHECK(mean <= 2 * rmean + 1 && max <= 256, "old-colliding values probe like random ones");
}

#define NADV 1500
#define ADV_BITS 12

/*
 * The key matters: keys and values built to share a home slot under a
 * KNOWN key pile up under it, and probe like random ones under another.
 */
void
test_hash_known_key(void)
{
	static const uint64_t k1[4] = {1, 2, 3, 4};
	static const uint64_t k2[4] = {UINT64_C(0x9c1f1b4e0d5a7733), UINT64_C(0x51ed2701ab3c9f8d),
	UINT64_C(0x0b7e1516628aed2a), UINT64_C(0xdeadbeefcafef00d)};
	lp_hash_key_t saved = lp_hash_key;
	static uint8_t keys[NADV][16];
	static int64_t vals[NADV];
	double		mean1,
				mean2;
	uint32_t	max1,
				max2;
	uint64_t	t;
	int			n;

	lp_hash_set_key(k1);
	for (t = 0, n = 0; n < NADV; t++)
	{
		char		k[17];

		snprintf(k, sizeof(k), "/a/%013llu", (unsigned long long) t);
		if ((lp_hash_bytes(k, 16) & ((1u << ADV_BITS) - 1)) == 0)
			memcpy(keys[n++], k, 16);
	}
	for (t = 1 << 20, n = 0; n < NADV; t++)
		if ((lp_hash_value((int64_t) t) & ((1u << ADV_BITS) - 1)) == 0)
			vals[n++] = (int64_t) t;

	state_of_keys((const uint8_t (*)[16]) keys, NADV, &mean1, &max1);
	lp_hash_set_key(k2);
	state_of_keys((const uint8_t (*)[16]) keys, NADV, &mean2, &max2);
	printf("  hash: %d routes built against a known key: mean probe %.1f under it, %.2f (max %u) under another\n",
		   NADV, mean1, mean2, max2);
	CHECK(mean1 > 100, "the attack works against the key it was built for");
	CHECK(mean2 < 3 && max2 <= 32, "and fails against another key");

	lp_hash_set_key(k1);
	hist_of_values(vals, NADV, &mean1, &max1);
	lp_hash_set_key(k2);
	hist_of_values(vals, NADV, &mean2, &max2);
	printf("  hash: %d values built against a known key: mean probe %.1f under it, %.2f (max %u) under another\n",
		   NADV, mean1, mean2, max2);
	CHECK(mean1 > 100, "the value attack works against the key it was built for");
	CHECK(mean2 < 4 && max2 <= 64, "and fails against another key");
	lp_hash_key = saved;
}

/*
 * Every byte of a route key counts: flipping any one bit of a key of 0..72
 * bytes changes its hash (under the fixed test key and under another), so
 * no length's path leaves a byte out, the one-path 8..32 bytes included.
 */
void
test_hash_every_byte(void)
{
	static const uint64_t k2[4] = {UINT64_C(0x243f6a8885a308d3), UINT64_C(0x13198a2e03707344),
	UINT64_C(0xa4093822299f31d0), UINT64_C(0x082efa98ec4e6c89)};
	lp_hash_key_t saved = lp_hash_key;
	int			bad = 0,
				checks = 0,
				pass;
	size_t		n,
				i;

	for (pass = 0; pass < 2; pass++)
	{
		if (pass == 1)
			lp_hash_set_key(k2);
		for (n = 0; n <= 72; n++)
		{
			char	   *key = malloc(n ? n : 1);
			uint64_t	h0;

			for (i = 0; i < n; i++)
				key[i] = (char) ('a' + (i * 5 + n) % 26);
			h0 = lp_hash_bytes(key, n);
			for (i = 0; i < n; i++)
			{
				int			bit;

				for (bit = 0; bit < 8; bit++)
				{
					key[i] ^= (char) (1 << bit);
					bad += lp_hash_bytes(key, n) == h0;
					checks++;
					key[i] ^= (char) (1 << bit);
				}
			}
			bad += lp_hash_bytes(key, n) != h0;
			free(key);
		}
	}
	lp_hash_key = saved;
	CHECK_EQ_I(bad, 0, "every bit of a 0..72-byte key changes its hash, under two keys");
	CHECK(checks > 40000, "hash: every bit flipped");
}
