/* src/lp_hash.h -- the hashes of route keys and of latency values (plain C) */
#ifndef LP_HASH_H
#define LP_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * A 64-bit multiply-xorshift hash over 8-byte words, read with memcpy in
 * host byte order: the hash is never stored or sent, so byte order does not
 * matter.  Inline, because it runs once per input row.
 */
#define LP_HASH_SEED UINT64_C(0x9E3779B97F4A7C15)

/* Fold one whole 8-byte word into the hash. */
static inline uint64_t
lp_hash_word(uint64_t h, uint64_t w)
{
	h = (h ^ w) * UINT64_C(0xbf58476d1ce4e5b9);
	return h ^ (h >> 31);
}

/* Fold the last 0..7 bytes (zero-padded in `tail`) and the length; finish. */
static inline uint64_t
lp_hash_finish(uint64_t h, uint64_t tail, size_t len)
{
	h = (h ^ tail ^ ((uint64_t) len << 56) ^ (uint64_t) len) * UINT64_C(0x94d049bb133111eb);
	h ^= h >> 29;
	h *= UINT64_C(0xbf58476d1ce4e5b9);
	return h ^ (h >> 32);
}

/* Hash of a byte string. */
static inline uint64_t
lp_hash_bytes(const char *p, size_t n)
{
	uint64_t	h = LP_HASH_SEED;
	uint64_t	tail = 0;
	size_t		len = n;

	while (n >= 8)
	{
		uint64_t	w;

		memcpy(&w, p, 8);
		h = lp_hash_word(h, w);
		p += 8;
		n -= 8;
	}
	if (n > 0 && len >= 8)
	{
		/* the last 8 bytes end with the n tail bytes: shift the others out */
		memcpy(&tail, p + n - 8, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		tail <<= 8 * (8 - n);
#else
		tail >>= 8 * (8 - n);
#endif
	}
	else if (n > 0)
		memcpy(&tail, p, n);
	return lp_hash_finish(h, tail, len);
}

/* Fibonacci hashing of a latency value: the high 32 bits of v * 2^64/phi (LP_HASH_SEED). */
static inline uint32_t
lp_hash_value(int64_t v)
{
	return (uint32_t) (((uint64_t) v * LP_HASH_SEED) >> 32);
}

#endif							/* LP_HASH_H */
