/* test/unit/test_simd.c -- every primitive of lp_simd.h against its scalar twin */
#include "test_harness.h"

#include "lp_simd.h"

/*
 * Each primitive of lp_simd.h is compared with a plain loop that says the
 * same thing byte by byte or bit by bit (its scalar twin, written here and
 * nowhere else), on every byte value at every position of a block whose
 * other bytes are random, and on random words.  A failure names the
 * primitive, the position and the byte.
 */

/* A splitmix64 step: the random bytes and words of these tests. */
static uint64_t
simd_rand(uint64_t *s)
{
	uint64_t	z = (*s += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/*
 * Fill buf[0..n) with random bytes, half of them from the bytes the
 * primitives look for (and their neighbours), the rest any byte.
 */
static void
simd_fill(unsigned char *buf, size_t n, uint64_t *s)
{
	static const unsigned char near[] = {'"', '\\', ' ', '\t', '[', ']', '?', 'A', 'Z', '@', '[',
	'a', 'z', 0, 0x80, 0xFF, 0x7F, '!', '#', 0x0A, 0x21, 0x5B};
	size_t		i;

	for (i = 0; i < n; i++)
	{
		uint64_t	r = simd_rand(s);

		buf[i] = (r & 1) ? near[(r >> 8) % sizeof(near)] : (unsigned char) (r >> 16);
	}
}

/* Scalar twin: bit i set when p[i] (of n) is one of a, b, c. */
static uint64_t
twin_eq3(const unsigned char *p, size_t n, unsigned char a, unsigned char b, unsigned char c)
{
	uint64_t	m = 0;
	size_t		i;

	for (i = 0; i < n; i++)
		if (p[i] == a || p[i] == b || p[i] == c)
			m |= UINT64_C(1) << i;
	return m;
}

#ifdef LP_SIMD_SSE2
/* Scalar twin: bit i set when 'A' <= p[i] <= 'Z'. */
static uint64_t
twin_upper(const unsigned char *p, size_t n)
{
	uint64_t	m = 0;
	size_t		i;

	for (i = 0; i < n; i++)
		if (p[i] >= 'A' && p[i] <= 'Z')
			m |= UINT64_C(1) << i;
	return m;
}
#endif

/* The bits: lowest and highest set bit, population, prefix XOR, 128-bit masks. */
void
test_simd_bits(void)
{
	uint64_t	s = 1;
	long		bad = 0;
	int			k;

	for (k = 0; k < 200000; k++)
	{
		uint64_t	x = simd_rand(&s);
		unsigned	lo = 64,
					hi = 64,
					pop = 0,
					i;
		uint64_t	px = 0,
					acc = 0;

		/* sparse and dense words both */
		if (k % 3 == 0)
			x &= simd_rand(&s) & simd_rand(&s);
		if (k % 5 == 0)
			x = UINT64_C(1) << (k % 64);
		for (i = 0; i < 64; i++)
		{
			uint64_t	bit = (x >> i) & 1;

			if (bit && lo == 64)
				lo = i;
			if (bit)
				hi = i;
			pop += (unsigned) bit;
			acc ^= bit;
			px |= acc << i;
		}
		if (x && (lp_ctz64(x) != lo || lp_top64(x) != hi) && bad++ < 5)
			CHECK(0, "lp_ctz64/lp_top64 of %016llx: %u %u, the twin %u %u",
				  (unsigned long long) x, lp_ctz64(x), lp_top64(x), lo, hi);
		if ((uint32_t) x && lp_ctz32((uint32_t) x) != lo && bad++ < 5)
			CHECK(0, "lp_ctz32 of %08x", (unsigned) (uint32_t) x);
		if (lp_popcount64(x) != pop && bad++ < 5)
			CHECK(0, "lp_popcount64 of %016llx: %u, the twin %u", (unsigned long long) x,
				  lp_popcount64(x), pop);
		if (lp_prefix_xor64(x) != px && bad++ < 5)
			CHECK(0, "lp_prefix_xor64 of %016llx: %016llx, the twin %016llx", (unsigned long long) x,
				  (unsigned long long) lp_prefix_xor64(x), (unsigned long long) px);
#ifdef LP_SIMD_U128
		{
			uint64_t	y = (k % 7 == 0) ? 0 : simd_rand(&s);
			lp_u128		c = (lp_u128) y << 64 | x;
			unsigned	lo128 = 200,
						hi128 = 200;

			/* the twin, bit by bit */
			for (i = 0; i < 128; i++)
				if ((c >> i) & 1)
				{
					if (lo128 == 200)
						lo128 = i;
					hi128 = i;
				}
			if (c && (lp_ctz128(c) != lo128 || lp_top128(c) != hi128) && bad++ < 5)
				CHECK(0, "lp_ctz128/lp_top128 of %016llx%016llx: %u %u, the twin %u %u",
					  (unsigned long long) y, (unsigned long long) x,
					  lp_ctz128(c), lp_top128(c), lo128, hi128);
		}
#endif
	}
	CHECK_EQ_I(bad, 0, "the bit primitives = their twins on 200,000 words");
	CHECK(lp_prefix_xor64(UINT64_C(0x12)) == UINT64_C(0xe), "prefix XOR: quotes at 1 and 4 mark 1..3");

	/*
	 * lp_nonzero8_32 (SSE2 where built) against its scalar twin and
	 * against the pattern itself: every one of the 256 patterns of zero
	 * and nonzero counts, the nonzero ones drawn from 1, the sign bit,
	 * all ones and random words, at every alignment of a 4-byte array
	 */
	{
		static const uint32_t edge[] = {1, UINT32_C(0x80000000), UINT32_MAX, 0x100};
		uint32_t	buf[8 + 3];
		unsigned	pat;
		int			off,
					k;
		long		nbad = 0;

		for (off = 0; off < 4; off++)
			for (pat = 0; pat < 256; pat++)
			{
				uint32_t   *d = buf + off;

				for (k = 0; k < 8; k++)
					d[k] = !((pat >> k) & 1) ? 0 :
						(pat + k) % 5 < 4 ? edge[(pat + k) % 5] : (uint32_t) simd_rand(&s) | 1;
				nbad += lp_nonzero8_32(d) != pat || lp_nonzero8_32_scalar(d) != pat;
			}
		CHECK_EQ_I(nbad, 0, "lp_nonzero8_32 and its twin give the nonzero counts of all 256 patterns");
	}

	/*
	 * lp_pairs4_small (SWAR where built) against its scalar twin and the
	 * sums written out: every byte value at every one of the 8 places,
	 * the others random bytes of 1..127, and random words of any bytes
	 */
	{
		uint8_t		w[8];
		long		nbad = 0,
					nyes = 0;
		int			pos,
					v,
					k,
					r;

		for (r = 0; r < 20000; r++)
		{
			uint64_t	d1 = 0,
						c1 = 0,
						d2 = 0,
						c2 = 0,
						dw = 0,
						cw = 0;
			int			want = 1,
						got1,
						got2;

			for (k = 0; k < 8; k++)
				w[k] = r < 2048 ? (uint8_t) (1 + simd_rand(&s) % 127) : (uint8_t) simd_rand(&s);
			if (r < 2048)
			{
				pos = r % 8;
				v = r / 8;		/* 0 .. 255 */
				w[pos] = (uint8_t) v;
			}
			for (k = 0; k < 8; k++)
			{
				want &= w[k] != 0 && w[k] < 0x80;
				if (k % 2 == 0)
					dw += w[k];
				else
					cw += w[k];
			}
			got1 = lp_pairs4_small(w, &d1, &c1);
			got2 = lp_pairs4_small_scalar(w, &d2, &c2);
			nbad += got1 != want || got2 != want ||
				(want && (d1 != dw || c1 != cw || d2 != dw || c2 != cw));
			nyes += want;
		}
		CHECK_EQ_I(nbad, 0, "lp_pairs4_small and its twin accept exactly 8 bytes of 1..127 and add up both lanes");
		CHECK(nyes > 1000, "lp_pairs4_small: %ld of the words were four small pairs", nyes);
	}
}

/* The SWAR byte classes: every match flagged, the lowest flag exact. */
void
test_simd_swar(void)
{
#ifdef LP_SIMD_SWAR
	uint64_t	s = 2;
	long		bad = 0;
	int			k;
	const unsigned char targets[][3] = {{'"', '\\', '\\'}, {' ', '\t', '\t'}, {'"', '[', '['},
	{']', ']', ']'}, {' ', '\t', '?'}, {0, 0x80, 0xFF}};

	for (k = 0; k < 300000; k++)
	{
		unsigned char p[8];
		const unsigned char *t = targets[k % 6];
		uint64_t	m,
					want;
		int			first = -1,
					i;

		simd_fill(p, 8, &s);
		m = lp_swar_eq3((const char *) p, lp_swar_splat((char) t[0]), lp_swar_splat((char) t[1]),
						lp_swar_splat((char) t[2]));
		want = twin_eq3(p, 8, t[0], t[1], t[2]);
		for (i = 0; i < 8; i++)
		{
			int			flagged = (int) ((m >> (8 * i + 7)) & 1);

			if (((want >> i) & 1) && !flagged && bad++ < 5)
				CHECK(0, "lp_swar_eq3: byte %d (0x%02x) matches and is not flagged", i, p[i]);
			if (((want >> i) & 1) && first < 0)
				first = i;
		}
		if ((m & ~UINT64_C(0x8080808080808080)) && bad++ < 5)
			CHECK(0, "lp_swar_eq3: a bit outside the bytes' high bits");
		if ((first < 0) != (m == 0) && bad++ < 5)
			CHECK(0, "lp_swar_eq3: a match and no flag, or a flag and no match");
		if (m && (int) (lp_ctz64(m) >> 3) != first && bad++ < 5)
			CHECK(0, "lp_swar_eq3: lowest flag at byte %u, first match at %d", lp_ctz64(m) >> 3, first);
	}
	CHECK_EQ_I(bad, 0, "lp_swar_eq3 = its twin on 300,000 words (every match flagged, the first exact)");
	CHECK(lp_swar_zero_bytes(UINT64_C(0x4100000000000041)) == UINT64_C(0x0080808080808000),
		  "lp_swar_zero_bytes: the zero bytes of a word");
#else
	printf("  no SWAR primitives on this machine\n");
#endif
}

/*
 * One primitive of 16 or 64 bytes against its twin: every byte value v at
 * every position i of a random block; `what` names it in a failure.
 */
#define SIMD_EVERY_BYTE(n, what, got, want) \
	do { \
		unsigned char blk[64]; \
		long		nbad = 0; \
		int			i, v; \
		for (i = 0; i < (n); i++) \
			for (v = 0; v < 256; v++) \
			{ \
				simd_fill(blk, sizeof(blk), &s); \
				blk[i] = (unsigned char) v; \
				if ((uint64_t) (got) != (uint64_t) (want) && nbad++ < 5) \
					CHECK(0, "%s: byte 0x%02x at %d: %016llx, the twin %016llx", what, v, i, \
						  (unsigned long long) (got), (unsigned long long) (want)); \
			} \
		CHECK_EQ_I(nbad, 0, what " = its twin, every byte at every position"); \
	} while (0)

#ifdef LP_SIMD_SSE2
/* lp_quotes_16 of p, with bit 16 set when it flagged a byte as bad. */
static uint64_t
twin_quotes_simd(const unsigned char *p)
{
	__m128i		bad = _mm_setzero_si128();
	unsigned	q = lp_quotes_16((const char *) p, &bad);

	return q | (uint64_t) (_mm_movemask_epi8(bad) != 0) << 16;
}

/* Scalar twin of lp_quotes_16 and lp_quotes_32: the quotes of p[0..n), bit n for a backslash or a byte below 0x20. */
static uint64_t
twin_quotes(const unsigned char *p, int n)
{
	uint64_t	m = twin_eq3(p, (size_t) n, '"', '"', '"');
	int			i;

	for (i = 0; i < n; i++)
		if (p[i] == '\\' || p[i] < 0x20)
			m |= UINT64_C(1) << n;
	return m;
}
#endif

/* The SSE2 byte classes: 16-byte masks and the 64-byte block. */
void
test_simd_sse2(void)
{
#ifdef LP_SIMD_SSE2
	uint64_t	s = 3;

	SIMD_EVERY_BYTE(16, "lp_eq3_16 \" \\\\ [",
					lp_eq3_16((const char *) blk, lp_splat16('"'), lp_splat16('\\'), lp_splat16('[')),
					twin_eq3(blk, 16, '"', '\\', '['));
	SIMD_EVERY_BYTE(16, "lp_eq3_16 0x00 0x80 0xff",
					lp_eq3_16((const char *) blk, lp_splat16(0), lp_splat16((char) 0x80), lp_splat16((char) 0xFF)),
					twin_eq3(blk, 16, 0, 0x80, 0xFF));
	SIMD_EVERY_BYTE(16, "lp_blank_16", lp_blank_16((const char *) blk), twin_eq3(blk, 16, ' ', '\t', '\t'));
	/* lp_quotes_16: the quotes' mask, and bit 16 for a backslash or a byte below 0x20 */
	SIMD_EVERY_BYTE(16, "lp_quotes_16", twin_quotes_simd(blk), twin_quotes(blk, 16));
	SIMD_EVERY_BYTE(16, "lp_upper_16", lp_upper_16((const char *) blk), twin_upper(blk, 16));
	/* lp_eq_16_32 against memcmp: every length, one byte changed at every place */
	{
		char		a[32],
					b[32];
		long		nbad = 0;
		size_t		n,
					i;

		for (n = 16; n <= 32; n++)
		{
			simd_fill((unsigned char *) a, sizeof(a), &s);
			memcpy(b, a, sizeof(b));
			nbad += lp_eq_16_32(a, b, n) != 1;
			for (i = 0; i < n; i++)
			{
				int			v;

				for (v = 1; v < 256; v += 37)
				{
					b[i] = (char) (a[i] ^ v);
					nbad += lp_eq_16_32(a, b, n) != (memcmp(a, b, n) == 0);
				}
				b[i] = a[i];
			}
			/* the bytes past n never count */
			if (n < 32)
			{
				b[n] = (char) (a[n] ^ 1);
				nbad += lp_eq_16_32(a, b, n) != 1;
				b[n] = a[n];
			}
		}
		CHECK_EQ_I(nbad, 0, "lp_eq_16_32 agrees with memcmp at every length from 16 to 32");
	}
	SIMD_EVERY_BYTE(64, "lp_blk64_eq \"",
					lp_blk64_eq(lp_blk64_load((const char *) blk), '"'), twin_eq3(blk, 64, '"', '"', '"'));
	SIMD_EVERY_BYTE(64, "lp_blk64_eq 0xff",
					lp_blk64_eq(lp_blk64_load((const char *) blk), (char) 0xFF), twin_eq3(blk, 64, 0xFF, 0xFF, 0xFF));
	SIMD_EVERY_BYTE(64, "lp_blk64_eq2 blank",
					lp_blk64_eq2(lp_blk64_load((const char *) blk), ' ', '\t'), twin_eq3(blk, 64, ' ', '\t', '\t'));
#else
	printf("  no SSE2 primitives on this machine\n");
#endif
}

#ifdef LP_SIMD_AVX2
/* The AVX2 primitives, called from functions of the AVX2 build. */
static LP_AVX2_ATTR uint64_t
avx2_eq3_32(const unsigned char *p, char a, char b, char c)
{
	return lp_eq3_32((const char *) p, lp_splat32(a), lp_splat32(b), lp_splat32(c));
}

static LP_AVX2_ATTR uint64_t
avx2_blk_eq(const unsigned char *p, char c)
{
	return lp_blk64x2_eq(lp_blk64x2_load((const char *) p), c);
}

static LP_AVX2_ATTR uint64_t
avx2_blk_eq2(const unsigned char *p, char c, char d)
{
	return lp_blk64x2_eq2(lp_blk64x2_load((const char *) p), c, d);
}

/* lp_quotes_32 of p, with bit 32 set when it flagged a byte as bad. */
static LP_AVX2_ATTR uint64_t
avx2_quotes_32(const unsigned char *p)
{
	__m256i		bad = _mm256_setzero_si256();
	uint32_t	q = lp_quotes_32((const char *) p, &bad);

	return q | (uint64_t) (_mm256_movemask_epi8(bad) != 0) << 32;
}

#endif

/* The AVX2 byte classes, where the CPU runs them; the choice of the build. */
void
test_simd_avx2(void)
{
	const char *e = getenv("LOGP95_ISA");

	CHECK(lp_simd_has(LP_ISA_BASE), "the base build runs everywhere");
	CHECK_EQ_I(lp_simd_isa, (e && strcmp(e, "base") == 0) || !lp_simd_has(LP_ISA_AVX2) ?
			   LP_ISA_BASE : LP_ISA_AVX2, "lp_simd_choose took the widest build the CPU runs");
#ifdef LP_SIMD_AVX2
	if (lp_simd_has(LP_ISA_AVX2))
	{
		uint64_t	s = 4;

		SIMD_EVERY_BYTE(32, "lp_eq3_32 \" \\\\ [", avx2_eq3_32(blk, '"', '\\', '['), twin_eq3(blk, 32, '"', '\\', '['));
		SIMD_EVERY_BYTE(32, "lp_eq3_32 0x00 0x80 0xff", avx2_eq3_32(blk, 0, (char) 0x80, (char) 0xFF),
						twin_eq3(blk, 32, 0, 0x80, 0xFF));
		SIMD_EVERY_BYTE(64, "lp_blk64x2_eq ]", avx2_blk_eq(blk, ']'), twin_eq3(blk, 64, ']', ']', ']'));
		SIMD_EVERY_BYTE(64, "lp_blk64x2_eq2 blank", avx2_blk_eq2(blk, ' ', '\t'), twin_eq3(blk, 64, ' ', '\t', '\t'));
		SIMD_EVERY_BYTE(32, "lp_quotes_32", avx2_quotes_32(blk), twin_quotes(blk, 32));
		return;
	}
#endif
	printf("  no AVX2 build on this compiler or CPU: its primitives are not run\n");
}
