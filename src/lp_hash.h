/* src/lp_hash.h -- the keyed hashes of route keys and of latency values (plain C) */
#ifndef LP_HASH_H
#define LP_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lp_common.h"

/*
 * Route keys come from whoever sends an HTTP request, and latency values
 * from whoever writes a state: neither may choose where their entries land
 * in a table.  So both hashes are keyed by a secret drawn once per process
 * (lp_hash_set_key, called by the PostgreSQL glue's _PG_init from
 * pg_strong_random); unit tests and fuzzers use the fixed default key or
 * set their own.  The construction is wyhash's: each step multiplies two
 * 64-bit words, each xor'ed with key material, to a 128-bit product and
 * folds its halves.  Without the key an attacker can neither predict a
 * hash nor build keys that collide under every key: the old unkeyed
 * multiply-xorshift was invertible, so any number of 16-byte keys sharing
 * one 64-bit hash cost a few multiplications (see test_hash.c).
 *
 * The hash is never stored or sent (the encoding sorts routes and values),
 * so processes with different keys still produce identical states.  The
 * key must not change while a table built with it exists: the glue sets it
 * once, before any state is made.
 */
typedef struct lp_hash_key_t
{
	uint64_t	k[4];			/* secret words; k[0..2] routes, k[2..3] values */
} lp_hash_key_t;

/* The process's key (defined in lp_common.c). */
extern lp_hash_key_t lp_hash_key;

/* Replace the key: only before the first table of the process is made. */
extern void lp_hash_set_key(const uint64_t k[4]);

/* The 128-bit product of a and b, halves folded: the one mixing step. */
static inline uint64_t
lp_mum(uint64_t a, uint64_t b)
{
#if defined(__SIZEOF_INT128__)
	unsigned __int128 r = (unsigned __int128) a * b;

	return (uint64_t) r ^ (uint64_t) (r >> 64);
#else
	uint64_t	ha = a >> 32,
				la = (uint32_t) a,
				hb = b >> 32,
				lb = (uint32_t) b;
	uint64_t	rh = ha * hb,
				rm0 = ha * lb,
				rm1 = hb * la,
				rl = la * lb;
	uint64_t	t = rl + (rm0 << 32);
	uint64_t	c = t < rl;
	uint64_t	lo = t + (rm1 << 32);

	c += lo < t;
	return lo ^ (rh + (rm0 >> 32) + (rm1 >> 32) + c);
#endif
}

/* Read 8 bytes, host order (the hash never leaves the process). */
static inline uint64_t
lp_hash_r8(const char *p)
{
	uint64_t	w;

	memcpy(&w, p, 8);
	return w;
}

/* Read 1..7 bytes (n) into a word without reading past them. */
static inline uint64_t
lp_hash_rsmall(const char *p, size_t n)
{
	uint64_t	w = 0;

	if (n >= 4)
	{
		uint32_t	a,
					b;

		memcpy(&a, p, 4);
		memcpy(&b, p + n - 4, 4);
		return ((uint64_t) a << 32) | b;
	}
	if (n > 0)
		w = ((uint64_t) (unsigned char) p[0] << 16) |
			((uint64_t) (unsigned char) p[n >> 1] << 8) |
			(unsigned char) p[n - 1];
	return w;
}

/*
 * Keyed hash of a byte string: 16 bytes per multiplication, the last 16
 * (overlapping) read whole when the key is longer than 16, and the length
 * in the final step; keys of 8 to 32 bytes take one path without a branch
 * on their length (a route's length changes from row to row, and a
 * mispredicted branch costs more than a multiplication).  Inline: it runs
 * once per input row.
 */
static LP_ALWAYS_INLINE uint64_t
lp_hash_bytes(const char *p, size_t n)
{
	const uint64_t *k = lp_hash_key.k;
	uint64_t	h = k[0] ^ lp_mum((uint64_t) n ^ k[1], k[2]);
	uint64_t	a,
				b;

	if (n - 8 <= 24)
	{
		/*
		 * 8 to 32 bytes (most routes), one path whatever the length: the
		 * words at 0 and o, then at n - 16 + 8 - o and n - 8 (o = 8 from 16
		 * bytes on, else 0, chosen without a branch); from 17 bytes on this
		 * is the loop below run once
		 */
		size_t		o = n >= 16 ? 8 : 0;

		h = lp_mum(lp_hash_r8(p) ^ k[1], lp_hash_r8(p + o) ^ h);
		a = lp_hash_r8(p + n - 8 - o);
		b = lp_hash_r8(p + n - 8);
	}
	else if (n < 8)
	{
		a = lp_hash_rsmall(p, n);
		b = 0;
	}
	else
	{
		size_t		i = n;

		while (i > 16)
		{
			h = lp_mum(lp_hash_r8(p) ^ k[1], lp_hash_r8(p + 8) ^ h);
			p += 16;
			i -= 16;
		}
		a = lp_hash_r8(p + i - 16);
		b = lp_hash_r8(p + i - 8);
	}
	return lp_mum(k[1] ^ (uint64_t) n, lp_mum(a ^ k[1], b ^ h) ^ k[0]);
}

/*
 * Keyed hash of a latency value, for the slot tables: one multiplication
 * of the value, xor'ed with one secret, by another (odd) one.  The tables
 * use the low bits; the fold puts the product's high half into them.
 */
static inline uint32_t
lp_hash_value(int64_t v)
{
	uint64_t	x = lp_mum((uint64_t) v ^ lp_hash_key.k[2], lp_hash_key.k[3] | 1);

	return (uint32_t) (x ^ (x >> 32));
}

#endif							/* LP_HASH_H */
