/* src/lp_simd.h -- named SIMD and bit primitives, and the choice of a CPU build (plain C) */
#ifndef LP_SIMD_H
#define LP_SIMD_H

#include "lp_common.h"

/*
 * The parsers say what they look for in a line ("the quotes of these 64
 * bytes", "the first blank or '?' from here") and this header says how a
 * CPU finds it, the way simdjson keeps its per-CPU bitmask primitives
 * (haswell/bitmask.h: prefix_xor) apart from the grammar that uses them.
 * Every primitive here has a scalar twin in test/unit/test_simd.c that the
 * unit tests compare it with, on every byte value at every position.
 *
 * Builds.  x86-64 always has SSE2 (LP_SIMD_SSE2).  With GCC or clang on
 * x86-64, a parser may also be compiled a second time for AVX2
 * (LP_SIMD_AVX2: functions marked LP_AVX2_ATTR, whose primitives read 32
 * bytes at a time) and the build is chosen at run time (lp_simd_choose);
 * LP_NO_AVX2 leaves that build out.  On other little-endian machines with
 * GCC or clang, the SWAR primitives read 8 bytes in a 64-bit word.
 *
 * Masks are little-endian: bit i of a mask is byte i of the bytes read.
 * Loads are unaligned and never reach past the bytes the caller names.
 */

#ifdef __SSE2__
#define LP_SIMD_SSE2 1
#include <emmintrin.h>
#endif

#if defined(__x86_64__) && defined(__SSE2__) && defined(__GNUC__) && !defined(LP_NO_AVX2)
#define LP_SIMD_AVX2 1
#include <immintrin.h>
/* The attribute of a function of the AVX2 build. */
#define LP_AVX2_ATTR __attribute__((target("avx2")))
#endif

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LP_SIMD_SWAR 1
#endif

/* ---------- the CPU build ---------- */

/* The instruction sets a dispatched parser is built for. */
typedef enum lp_isa
{
	LP_ISA_BEST = -1,			/* the build lp_simd_choose chose */
	LP_ISA_BASE = 0,			/* SSE2 on x86-64, SWAR or bytes elsewhere */
	LP_ISA_AVX2 = 1,			/* x86-64 with AVX2: 32-byte primitives */
	LP_ISA_COUNT				/* number of builds */
} lp_isa;

/*
 * The build every dispatched parser runs (an index into a table of
 * builds): LP_ISA_BASE until lp_simd_choose has run.  Read-only after it.
 */
extern lp_isa lp_simd_isa;

/*
 * Choose the build once, at module load (_PG_init; the unit tests', the
 * fuzzers' and the benchmark driver's main): AVX2 where this binary has an
 * AVX2 build and the CPU runs it, unless the environment variable
 * LOGP95_ISA is "base" (side-by-side benchmarks).  Returns the choice,
 * also kept in lp_simd_isa.  Every build gives the same result for every
 * input, so the choice changes speed only.
 */
extern lp_isa lp_simd_choose(void);

/* Does this binary have a build for isa that this CPU runs? */
extern int	lp_simd_has(lp_isa isa);

/* ---------- bits ---------- */

/* Index of the lowest set bit of x (x != 0). */
static LP_ALWAYS_INLINE unsigned
lp_ctz32(uint32_t x)
{
	return (unsigned) __builtin_ctz(x);
}

/* Index of the lowest set bit of x (x != 0). */
static LP_ALWAYS_INLINE unsigned
lp_ctz64(uint64_t x)
{
	return (unsigned) __builtin_ctzll(x);
}

/* Index of the highest set bit of x (x != 0). */
static LP_ALWAYS_INLINE unsigned
lp_top64(uint64_t x)
{
	return 63 - (unsigned) __builtin_clzll(x);
}

/* Number of set bits of x. */
static LP_ALWAYS_INLINE unsigned
lp_popcount64(uint64_t x)
{
	return (unsigned) __builtin_popcountll(x);
}

/*
 * Prefix XOR: bit i of the result is the XOR of bits 0..i of x.  With x
 * the quotes of a block, the result marks the bytes from an opening quote
 * up to (not including) its closing one: inside a quoted field (simdjson's
 * prefix_xor, here with shifts, which every x86-64 and every other CPU
 * has).
 */
static LP_ALWAYS_INLINE uint64_t
lp_prefix_xor64(uint64_t x)
{
	x ^= x << 1;
	x ^= x << 2;
	x ^= x << 4;
	x ^= x << 8;
	x ^= x << 16;
	x ^= x << 32;
	return x;
}

#ifdef __SIZEOF_INT128__
#define LP_SIMD_U128 1
/* A mask of 128 bytes: bit i is byte i. */
typedef unsigned __int128 lp_u128;

/* Index of the lowest set bit of a 128-bit mask (c != 0). */
static LP_ALWAYS_INLINE unsigned
lp_ctz128(lp_u128 c)
{
	return (uint64_t) c ? lp_ctz64((uint64_t) c) : 64 + lp_ctz64((uint64_t) (c >> 64));
}

/* Index of the highest set bit of a 128-bit mask (c != 0). */
static LP_ALWAYS_INLINE unsigned
lp_top128(lp_u128 c)
{
	return (c >> 64) ? 64 + lp_top64((uint64_t) (c >> 64)) : lp_top64((uint64_t) c);
}
#endif

/* ---------- counts: eight 32-bit counts ---------- */

/*
 * Bit k set: the count d[k] of the eight 32-bit counts at d is not zero.
 * The walks over a histogram's dense array (lp_hist.c) visit only the
 * counts that are there.  Two compares of four lanes with SSE2; its scalar
 * twin lp_nonzero8_32_scalar is the other builds' and the unit tests'
 * reference (test_simd.c).
 */
static LP_ALWAYS_INLINE unsigned
lp_nonzero8_32_scalar(const uint32_t *d)
{
	unsigned	m = 0;
	int			k;

	for (k = 0; k < 8; k++)
		m |= (unsigned) (d[k] != 0) << k;
	return m;
}

static LP_ALWAYS_INLINE unsigned
lp_nonzero8_32(const uint32_t *d)
{
#ifdef LP_SIMD_SSE2
	const __m128i zero = _mm_setzero_si128();
	__m128i		lo = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *) d), zero);
	__m128i		hi = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *) (d + 4)), zero);
	unsigned	zeros = (unsigned) _mm_movemask_ps(_mm_castsi128_ps(lo)) |
		(unsigned) _mm_movemask_ps(_mm_castsi128_ps(hi)) << 4;

	return ~zeros & 0xffu;
#else
	return lp_nonzero8_32_scalar(d);
#endif
}

/* ---------- encoded pairs: four of one byte each ---------- */

/*
 * The encoding's usual run (lp_codec.h): four (delta, count) pairs whose
 * varints take one byte each, in the 8 bytes at p.  1 when every byte is
 * below 0x80 and none is zero, with the sum of the four deltas (bytes 0,
 * 2, 4, 6) in *dsum and of the four counts (bytes 1, 3, 5, 7) in *csum,
 * each at most 508; 0 otherwise.  One word with SWAR; its scalar twin
 * lp_pairs4_small_scalar is the other builds' and the unit tests'
 * reference (test_simd.c).
 */
static LP_ALWAYS_INLINE int
lp_pairs4_small_scalar(const uint8_t *p, uint64_t *dsum, uint64_t *csum)
{
	uint64_t	d = 0,
				c = 0;
	int			k;

	for (k = 0; k < 8; k++)
		if (p[k] == 0 || p[k] >= 0x80)
			return 0;
	for (k = 0; k < 8; k += 2)
	{
		d += p[k];
		c += p[k + 1];
	}
	*dsum = d;
	*csum = c;
	return 1;
}

static LP_ALWAYS_INLINE int
lp_pairs4_small(const uint8_t *p, uint64_t *dsum, uint64_t *csum)
{
#ifdef LP_SIMD_SWAR
	const uint64_t high = UINT64_C(0x8080808080808080);
	const uint64_t ones = UINT64_C(0x0101010101010101);
	const uint64_t lanes = UINT64_C(0x00FF00FF00FF00FF);
	const uint64_t fold = UINT64_C(0x0001000100010001);
	uint64_t	w;

	memcpy(&w, p, 8);
	/* a byte of 0x80 or more, or (all below it, so no borrow crosses) a zero byte */
	if ((w & high) | ((w - ones) & high))
		return 0;
	/* four 16-bit lanes added into the top one: each sum is at most 508 */
	*dsum = ((w & lanes) * fold) >> 48;
	*csum = (((w >> 8) & lanes) * fold) >> 48;
	return 1;
#else
	return lp_pairs4_small_scalar(p, dsum, csum);
#endif
}

/* ---------- byte classes: SWAR, 8 bytes in a word ---------- */

#ifdef LP_SIMD_SWAR
/* The byte c in each of the 8 bytes of a word. */
static LP_ALWAYS_INLINE uint64_t
lp_swar_splat(char c)
{
	return UINT64_C(0x0101010101010101) * (unsigned char) c;
}

/*
 * The high bit of each zero byte of w.  Only the lowest set bit is exact:
 * a borrow may also flag a byte above a zero byte.
 */
static LP_ALWAYS_INLINE uint64_t
lp_swar_zero_bytes(uint64_t w)
{
	return (w - UINT64_C(0x0101010101010101)) & ~w & UINT64_C(0x8080808080808080);
}

/*
 * The high bit of each of the 8 bytes at p equal to a, b or c (each
 * lp_swar_splat of the byte); the lowest set bit is exact (see above).
 */
static LP_ALWAYS_INLINE uint64_t
lp_swar_eq3(const char *p, uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t	w;

	memcpy(&w, p, 8);
	return lp_swar_zero_bytes(w ^ a) | lp_swar_zero_bytes(w ^ b) | lp_swar_zero_bytes(w ^ c);
}
#endif

/* ---------- byte classes: SSE2, 16 bytes ---------- */

#ifdef LP_SIMD_SSE2
/* The byte c in each of 16 lanes. */
static LP_ALWAYS_INLINE __m128i
lp_splat16(char c)
{
	return _mm_set1_epi8(c);
}

/* Bit i set: byte p[i] of the 16 at p is a, b or c (each lp_splat16 of the byte). */
static LP_ALWAYS_INLINE unsigned
lp_eq3_16(const char *p, __m128i a, __m128i b, __m128i c)
{
	__m128i		v = _mm_loadu_si128((const __m128i *) p);

	return (unsigned) _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, a),
																  _mm_cmpeq_epi8(v, b)),
													 _mm_cmpeq_epi8(v, c)));
}

/*
 * Are the n bytes at a and at b equal, for 16 <= n <= 32: [0, 16) and
 * [n - 16, n) compared sixteen bytes at a time (they cover [0, n)).  Its
 * scalar twin is memcmp (test_simd.c); lp_key_eq uses it for route keys.
 */
static LP_ALWAYS_INLINE int
lp_eq_16_32(const char *a, const char *b, size_t n)
{
	__m128i		head = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *) a),
									  _mm_loadu_si128((const __m128i *) b));
	__m128i		tail = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *) (a + n - 16)),
									  _mm_loadu_si128((const __m128i *) (b + n - 16)));

	return _mm_movemask_epi8(_mm_and_si128(head, tail)) == 0xffff;
}

/* Bit i set: byte p[i] of the 16 at p is a blank (LP_IS_BLANK: ' ' or '\t'). */
static LP_ALWAYS_INLINE unsigned
lp_blank_16(const char *p)
{
	__m128i		v = _mm_loadu_si128((const __m128i *) p);

	return (unsigned) _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
													 _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))));
}

/*
 * Bit i set: byte p[i] of the 16 at p is a capital ASCII letter, 'A' to
 * 'Z' (signed compares: bytes from 0x80 on are below 'A').
 */
static LP_ALWAYS_INLINE unsigned
lp_upper_16(const char *p)
{
	__m128i		v = _mm_loadu_si128((const __m128i *) p);

	return (unsigned) _mm_movemask_epi8(_mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('A' - 1)),
													  _mm_cmplt_epi8(v, _mm_set1_epi8('Z' + 1))));
}

/*
 * The quote map of a JSON line (lp_json.c), 16 bytes at p: bit i set when
 * p[i] is '"'; the lanes of the bytes that are a backslash or below 0x20
 * (an escape, a control byte: the walk of compact lines declines a line
 * with one) are OR-ed into *bad.
 */
static LP_ALWAYS_INLINE unsigned
lp_quotes_16(const char *p, __m128i *bad)
{
	__m128i		v = _mm_loadu_si128((const __m128i *) p);
	__m128i		ctl = _mm_set1_epi8(0x1f);

	*bad = _mm_or_si128(*bad, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')),
										   _mm_cmpeq_epi8(_mm_max_epu8(v, ctl), ctl)));
	return (unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
}

/*
 * 64 bytes held in registers, to take several byte classes of one block
 * from one load: lp_blk64_load, then lp_blk64_eq / lp_blk64_eq2 per class.
 */
typedef struct lp_blk64
{
	__m128i		v[4];
} lp_blk64;

/* The 64 bytes at s. */
static LP_ALWAYS_INLINE lp_blk64
lp_blk64_load(const char *s)
{
	lp_blk64	b;

	b.v[0] = _mm_loadu_si128((const __m128i *) s);
	b.v[1] = _mm_loadu_si128((const __m128i *) (s + 16));
	b.v[2] = _mm_loadu_si128((const __m128i *) (s + 32));
	b.v[3] = _mm_loadu_si128((const __m128i *) (s + 48));
	return b;
}

/* 16 bits of one lane of a block: its bytes equal to c. */
#define LP_BLK_EQ16(v, c) \
	((uint64_t) (unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8((v), _mm_set1_epi8(c))))

/* Bit i set: byte i of the block is c. */
static LP_ALWAYS_INLINE uint64_t
lp_blk64_eq(lp_blk64 b, char c)
{
	return LP_BLK_EQ16(b.v[0], c) | LP_BLK_EQ16(b.v[1], c) << 16 |
		LP_BLK_EQ16(b.v[2], c) << 32 | LP_BLK_EQ16(b.v[3], c) << 48;
}

/* 16 bits of one lane of a block: its bytes equal to c or d. */
#define LP_BLK_EQ16_2(v, c, d) \
	((uint64_t) (unsigned) _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8((v), _mm_set1_epi8(c)), \
														  _mm_cmpeq_epi8((v), _mm_set1_epi8(d)))))

/* Bit i set: byte i of the block is c or d. */
static LP_ALWAYS_INLINE uint64_t
lp_blk64_eq2(lp_blk64 b, char c, char d)
{
	return LP_BLK_EQ16_2(b.v[0], c, d) | LP_BLK_EQ16_2(b.v[1], c, d) << 16 |
		LP_BLK_EQ16_2(b.v[2], c, d) << 32 | LP_BLK_EQ16_2(b.v[3], c, d) << 48;
}
#endif

/* ---------- byte classes: AVX2, 32 bytes (functions of the AVX2 build) ---------- */

#ifdef LP_SIMD_AVX2
/* The byte c in each of 32 lanes. */
static LP_ALWAYS_INLINE LP_AVX2_ATTR __m256i
lp_splat32(char c)
{
	return _mm256_set1_epi8(c);
}

/* Bit i set: byte p[i] of the 32 at p is a, b or c (each lp_splat32 of the byte). */
static LP_ALWAYS_INLINE LP_AVX2_ATTR unsigned
lp_eq3_32(const char *p, __m256i a, __m256i b, __m256i c)
{
	__m256i		v = _mm256_loadu_si256((const __m256i *) p);

	return (unsigned) _mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, a),
																		   _mm256_cmpeq_epi8(v, b)),
														   _mm256_cmpeq_epi8(v, c)));
}

/* lp_quotes_16 of the 32 bytes at p (the AVX2 build of the JSON quote map). */
static LP_ALWAYS_INLINE LP_AVX2_ATTR uint32_t
lp_quotes_32(const char *p, __m256i *bad)
{
	__m256i		v = _mm256_loadu_si256((const __m256i *) p);
	__m256i		ctl = _mm256_set1_epi8(0x1f);

	*bad = _mm256_or_si256(*bad, _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\')),
												 _mm256_cmpeq_epi8(_mm256_max_epu8(v, ctl), ctl)));
	return (uint32_t) _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('"')));
}

/* 64 bytes in two AVX2 registers (lp_blk64 of the AVX2 build). */
typedef struct lp_blk64x2
{
	__m256i		v[2];
} lp_blk64x2;

/* The 64 bytes at s. */
static LP_ALWAYS_INLINE LP_AVX2_ATTR lp_blk64x2
lp_blk64x2_load(const char *s)
{
	lp_blk64x2	b;

	b.v[0] = _mm256_loadu_si256((const __m256i *) s);
	b.v[1] = _mm256_loadu_si256((const __m256i *) (s + 32));
	return b;
}

/* 32 bits of one lane of a block: its bytes equal to c. */
#define LP_BLK_EQ32(v, c) \
	((uint64_t) (uint32_t) _mm256_movemask_epi8(_mm256_cmpeq_epi8((v), _mm256_set1_epi8(c))))

/* Bit i set: byte i of the block is c. */
static LP_ALWAYS_INLINE LP_AVX2_ATTR uint64_t
lp_blk64x2_eq(lp_blk64x2 b, char c)
{
	return LP_BLK_EQ32(b.v[0], c) | LP_BLK_EQ32(b.v[1], c) << 32;
}

/* 32 bits of one lane of a block: its bytes equal to c or d. */
#define LP_BLK_EQ32_2(v, c, d) \
	((uint64_t) (uint32_t) _mm256_movemask_epi8(_mm256_or_si256(_mm256_cmpeq_epi8((v), _mm256_set1_epi8(c)), \
																_mm256_cmpeq_epi8((v), _mm256_set1_epi8(d)))))

/* Bit i set: byte i of the block is c or d. */
static LP_ALWAYS_INLINE LP_AVX2_ATTR uint64_t
lp_blk64x2_eq2(lp_blk64x2 b, char c, char d)
{
	return LP_BLK_EQ32_2(b.v[0], c, d) | LP_BLK_EQ32_2(b.v[1], c, d) << 32;
}
#endif

#endif							/* LP_SIMD_H */
