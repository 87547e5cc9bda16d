/* src/lp_combined.c -- the combined family: nginx's combined layout with a request time (plain C) */
#include <stdlib.h>

#include "lp_combined.h"

#include "lp_parse.h"
#include "lp_templates.h"
#include "lp_units.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif
/*
 * On x86-64 with GCC or clang the combined parser is built a second time for
 * CPUs with AVX2 (LP_NO_AVX2 leaves it out), chosen at run time.
 */
#if defined(__x86_64__) && defined(__SSE2__) && defined(__GNUC__) && !defined(LP_NO_AVX2)
#define LP_AVX2_DISPATCH 1
#include <immintrin.h>
#define LP_AVX2_ATTR __attribute__((target("avx2")))
#endif

/* See lp_combined.h. */
lp_status
lp_combined_parse(const char *line, size_t len, const lp_format_def *fmt,
				  const lp_parse_ctx *ctx, lp_result *out)
{
	lp_cline	cl;
	unsigned	flags = fmt->flags | (ctx ? (ctx->flags & LP_FMT_KEEP_QUERY) : 0);
	lp_status	st = lp_parse_combined(line, len, flags, &cl);
	int			noreq = st == LP_ST_BAD_REQUEST || st == LP_ST_NOT_HTTP;
	lp_result	f = {.route = cl.route,.route_len = cl.route_len,.latency = cl.latency,
		/* the field an error is about: the request when it has no path */
		.bad = noreq ? cl.request : cl.bad,.bad_len = noreq ? cl.request_len : cl.bad_len,
	.nwant = LP_C_MIN_TAIL_FIELDS,.nfields = cl.tail_fields};

	*out = f;
	if (st == LP_ST_OK)
	{
		/* a route, a latency, and the fields the format wants after the request */
		LP_ASSERT(cl.route != NULL && cl.route_len > 0 && cl.latency >= 0 &&
				  cl.tail_fields >= LP_C_MIN_TAIL_FIELDS);
		lp_route_finish(ctx, cl.route, cl.route_len, cl.route_slash, out);
	}
	return st;
}

/*
 * The byte masks of the combined parser's scans (lp_scan3 in
 * lp_combined_impl.h): each scan finds, in [p, end), the first byte equal to
 * one of up to three given bytes, 32 bytes a step in the AVX2 build, 16 with
 * SSE2 (x86-64 always has it), 8 with SWAR on other little-endian machines,
 * then byte by byte; no load reaches past end.  They return the same byte the
 * plain loop after them would (the reference, test/unit/ref_combined.h).
 */
#ifdef __SSE2__
/* Bit i set: byte p[i] is a, b or c. */
static LP_ALWAYS_INLINE unsigned
lp_mask16(const char *p, __m128i a, __m128i b, __m128i c)
{
	__m128i		v = _mm_loadu_si128((const __m128i *) p);

	return (unsigned) _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, a),
																  _mm_cmpeq_epi8(v, b)),
													 _mm_cmpeq_epi8(v, c)));
}
#elif defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LP_SWAR_SCAN 1
/*
 * High bit of each byte of the 8 at p that is a, b or c (each the byte
 * repeated 8 times); the lowest set bit is exact (a borrow only flags bytes
 * above a zero byte).
 */
static LP_ALWAYS_INLINE uint64_t
lp_mask8(const char *p, uint64_t a, uint64_t b, uint64_t c)
{
	const uint64_t ones = UINT64_C(0x0101010101010101);
	uint64_t	w,
				x,
				y,
				z;

	memcpy(&w, p, 8);
	x = w ^ a;
	y = w ^ b;
	z = w ^ c;
	return (((x - ones) & ~x) | ((y - ones) & ~y) | ((z - ones) & ~z)) &
		UINT64_C(0x8080808080808080);
}
#endif


#ifdef LP_AVX2_DISPATCH
/* Bit i set: byte p[i] is a, b or c, for the 32 bytes at p (AVX2 only). */
static LP_ALWAYS_INLINE LP_AVX2_ATTR unsigned
lp_mask32(const char *p, __m256i a, __m256i b, __m256i c)
{
	__m256i		v = _mm256_loadu_si256((const __m256i *) p);

	return (unsigned) _mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, a),
																		   _mm256_cmpeq_epi8(v, b)),
														   _mm256_cmpeq_epi8(v, c)));
}
#endif

/* RFC 9110 tchar: the bytes of an HTTP method. */
static const unsigned char lp_tchar[256] = {
	['!'] = 1,['#'] = 1,['$'] = 1,['%'] = 1,['&'] = 1,['\''] = 1,['*'] = 1,
	['+'] = 1,['-'] = 1,['.'] = 1,['^'] = 1,['_'] = 1,['`'] = 1,['|'] = 1,['~'] = 1,
	['0'] = 1,['1'] = 1,['2'] = 1,['3'] = 1,['4'] = 1,['5'] = 1,['6'] = 1,['7'] = 1,
	['8'] = 1,['9'] = 1,
	['A'] = 1,['B'] = 1,['C'] = 1,['D'] = 1,['E'] = 1,['F'] = 1,['G'] = 1,['H'] = 1,
	['I'] = 1,['J'] = 1,['K'] = 1,['L'] = 1,['M'] = 1,['N'] = 1,['O'] = 1,['P'] = 1,
	['Q'] = 1,['R'] = 1,['S'] = 1,['T'] = 1,['U'] = 1,['V'] = 1,['W'] = 1,['X'] = 1,
	['Y'] = 1,['Z'] = 1,
	['a'] = 1,['b'] = 1,['c'] = 1,['d'] = 1,['e'] = 1,['f'] = 1,['g'] = 1,['h'] = 1,
	['i'] = 1,['j'] = 1,['k'] = 1,['l'] = 1,['m'] = 1,['n'] = 1,['o'] = 1,['p'] = 1,
	['q'] = 1,['r'] = 1,['s'] = 1,['t'] = 1,['u'] = 1,['v'] = 1,['w'] = 1,['x'] = 1,
	['y'] = 1,['z'] = 1
};

/* Is c a byte of a URI scheme after its first letter (ALPHA DIGIT + - .)? */
static inline int
lp_is_scheme(unsigned char c)
{
	return (unsigned) ((c | 0x20) - 'a') <= 25 || (unsigned) (c - '0') <= 9 ||
		c == '+' || c == '-' || c == '.';
}


#ifdef __SSE2__
/*
 * The byte classes of the combined parser's whole-block paths
 * (lp_word_masks in lp_combined_impl.h): the tail's three first, then the
 * three the front needs too.
 */
enum
{
	LP_WM_Q,					/* '"' */
	LP_WM_BS,					/* '\\' */
	LP_WM_BL,					/* ' ' or '\t' (LP_IS_BLANK) */
	LP_WM_TAIL,					/* (the tail's classes end here) */
	LP_WM_LB = LP_WM_TAIL,		/* '[' */
	LP_WM_RB,					/* ']' */
	LP_WM_QM,					/* '?' */
	LP_WM_CLASSES
};

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 lp_u128;

/* The lowest set bit of a 128-bit mask that has one. */
static LP_ALWAYS_INLINE unsigned
lp_ctz128(lp_u128 c)
{
	return (uint64_t) c ? (unsigned) __builtin_ctzll((uint64_t) c) :
		64 + (unsigned) __builtin_ctzll((uint64_t) (c >> 64));
}

/* The highest set bit of a 128-bit mask that has one. */
static LP_ALWAYS_INLINE unsigned
lp_top128(lp_u128 c)
{
	return (c >> 64) ? 127 - (unsigned) __builtin_clzll((uint64_t) (c >> 64)) :
		63 - (unsigned) __builtin_clzll((uint64_t) c);
}
#endif
#endif

/* The base build of the combined parser: SSE2, SWAR or bytes. */
#define LP_CI(name) name##_base
#define LP_CI_ATTR
#define LP_CI_AVX2 0
#include "lp_combined_impl.h"

#ifdef LP_AVX2_DISPATCH
/* The AVX2 build: its scans step 32 bytes at a time. */
#define LP_CI(name) name##_avx2
#define LP_CI_ATTR LP_AVX2_ATTR
#define LP_CI_AVX2 1
#include "lp_combined_impl.h"
#endif

/* The best build, chosen once (lp_combined_parser(LP_ISA_BEST)). */
static lp_combined_fn lp_combined_best;

/* See lp_combined.h. */
lp_combined_fn
lp_combined_parser(lp_isa isa)
{
	if (isa == LP_ISA_BEST)
	{
		if (!lp_combined_best)
		{
			const char *e = getenv("LOGP95_ISA");
			lp_combined_fn avx2 = lp_combined_parser(LP_ISA_AVX2);

			lp_combined_best = (e && strcmp(e, "base") == 0) || !avx2 ?
				lp_parse_combined_base : avx2;
		}
		return lp_combined_best;
	}
	if (isa == LP_ISA_BASE)
		return lp_parse_combined_base;
#ifdef LP_AVX2_DISPATCH
	__builtin_cpu_init();
	if (isa == LP_ISA_AVX2 && __builtin_cpu_supports("avx2"))
		return lp_parse_combined_avx2;
#endif
	return NULL;
}

/* See lp_combined.h: the best build. */
lp_status
lp_parse_combined(const char *line, size_t len, unsigned flags, lp_cline *out)
{
	return lp_combined_parser(LP_ISA_BEST)(line, len, flags, out);
}


/* See lp_combined.h. */
lp_ts_status
lp_combined_ts(const char *line, size_t len, lp_ts *out)
{
	const char *end = line + len;
	const char *time;
	size_t		time_len;
	const char *rq;
	const char *lb;

	if (len > 0 && end[-1] == '\r')
		end--;
	rq = lp_find_request_base(line, end, &lb);
	if (!lp_find_time_base(line, lb, rq ? rq : end, &time, &time_len))
	{
		out->text = NULL;
		out->text_len = 0;
		return LP_TS_MISSING;
	}
	return lp_ts_parse_clf(time, time_len, out);
}
