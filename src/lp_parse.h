/* src/lp_parse.h -- access-log line parser (plain C, no PostgreSQL headers) */
#ifndef LP_PARSE_H
#define LP_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include <string.h>

#include "lp_common.h"
#include "lp_format.h"
#include "lp_simd.h"

/* Fields of a default-format line: timestamp, method, route, latency. */
#define LP_LINE_FIELDS 4

/* What the parser found in one line; slices point into the caller's bytes. */
typedef struct lp_line
{
	const char *route;			/* first byte of the route field (not copied) */
	size_t		route_len;		/* length of the route field in bytes */
	int64_t		latency;		/* latency in milliseconds, >= 0 */
	const char *bad;			/* on a latency error: the offending field */
	size_t		bad_len;		/* its length */
	int			nfields;		/* fields found, counted up to four */
} lp_line;

/*
 * Parse "<timestamp> <method> <route> <latency>[ <ignored>...]".
 * Fields are separated by runs of spaces or tabs; one trailing '\r' is
 * dropped; leading blanks are skipped; fields after the fourth are ignored.
 * Returns LP_ST_OK, LP_ST_TOO_FEW_FIELDS (fewer than four fields),
 * LP_ST_BAD_LATENCY (the latency is not a plain non-negative integer) or
 * LP_ST_LATENCY_RANGE (it does not fit in int64).
 */
extern lp_status lp_parse_line(const char *line, size_t len, lp_line *out);

/*
 * Parse a plain non-negative decimal integer (digits only, at least one).
 * Returns LP_ST_OK, LP_ST_BAD_LATENCY or LP_ST_LATENCY_RANGE.
 */
extern lp_status lp_parse_uint63(const char *s, size_t len, int64_t *out);

/*
 * lp_parse_uint63 for the per-row fast path: the value, or -1 when the
 * field is not one (either error).  It takes no pointer, so the inline
 * caller keeps its locals in registers (no stack protector on the
 * transition).
 */
extern int64_t lp_parse_uint63_value(const char *s, size_t len);

/* The fast path's helpers (SSE2 and little-endian words: lp_simd.h). */
#ifdef LP_SIMD_SWAR
#define LP_SWAR_DIGITS 1

/*
 * The multipliers that fold neighbouring numbers of a word pairwise.  With
 * the earlier number e in the low half of a 2k-bit lane and the later l in
 * the high half, lane * (10^m << k | 1) puts e * 10^m + l in the high half
 * (the number the two digit groups spell); the shift by k then moves it
 * down.  Step 1: digits in bytes (k = 8, m = 1): 10 * 2^8 + 1 = 2561.
 * Step 2: pairs in 16-bit lanes (k = 16, m = 2): 100 * 2^16 + 1 = 6553601.
 * Step 3: quads in 32-bit lanes (k = 32, m = 4): 10000 * 2^32 + 1 =
 * 42949672960001.
 */
#define LP_FOLD_DIGITS_2 (UINT64_C(10) << 8 | 1)
#define LP_FOLD_DIGITS_4 (UINT64_C(100) << 16 | 1)
#define LP_FOLD_DIGITS_8 (UINT64_C(10000) << 32 | 1)
/*
 * The 1..8 digits that end at `end` (the 8 bytes before `end` are
 * readable), without a loop: the bytes before the field are replaced by
 * '0', every byte is checked to be a digit (high nibble 3, low nibble <= 9;
 * no carry crosses a byte), and the decimal value is folded pairwise.
 * Returns 1 with *out, or 0 when a byte is not a digit.
 */
static LP_ALWAYS_INLINE int
lp_digits8(const char *end, size_t n, int64_t *out)
{
	const uint64_t zeros = UINT64_C(0x3030303030303030);
	uint64_t	w;
	unsigned	shift = 8 * (8 - (unsigned) n);

	memcpy(&w, end - 8, 8);
	if (shift)
		w = (w >> shift << shift) | (zeros >> (64 - shift));
	if ((w & UINT64_C(0xF0F0F0F0F0F0F0F0)) != zeros ||
		((w & UINT64_C(0x0F0F0F0F0F0F0F0F)) + UINT64_C(0x0606060606060606)) &
		UINT64_C(0xF0F0F0F0F0F0F0F0))
		return 0;
	/* the first digit is the lowest byte: fold 8 -> 4 -> 2 -> 1 numbers */
	w = ((w & UINT64_C(0x0F0F0F0F0F0F0F0F)) * LP_FOLD_DIGITS_2) >> 8;
	w = ((w & UINT64_C(0x00FF00FF00FF00FF)) * LP_FOLD_DIGITS_4) >> 16;
	w = ((w & UINT64_C(0x0000FFFF0000FFFF)) * LP_FOLD_DIGITS_8) >> 32;
	*out = (int64_t) w;
	return 1;
}
#endif

#ifdef LP_SIMD_SSE2
/*
 * The fast path for a line of 16 to 63 bytes (nearly every access-log
 * line): one bit per byte says "blank", computed sixteen bytes at a time,
 * and the field boundaries fall out of bit arithmetic.  Returns 1 with the
 * third and fourth fields when the line has at least four, 0 otherwise.
 */
static LP_ALWAYS_INLINE int
lp_fields_short(const char *line, size_t len, const char **route,
				const char **route_end, const char **lat, const char **lat_end)
{
	uint64_t	blank;
	uint64_t	word,
				starts,
				stops;

	/*
	 * whole 16-byte blocks, never reading past the end: the first two and
	 * the last two (overlapping bytes give the same bits), so no branch
	 * depends on where in 32..63 the length falls
	 */
	if (len >= 32)
		blank = lp_blank_16(line) |
			(uint64_t) lp_blank_16(line + 16) << 16 |
			(uint64_t) lp_blank_16(line + len - 32) << (len - 32) |
			(uint64_t) lp_blank_16(line + len - 16) << (len - 16);
	else
		blank = lp_blank_16(line) |
			(uint64_t) lp_blank_16(line + len - 16) << (len - 16);
	/* bytes past the end count as blanks; len < 64 */
	blank |= ~((UINT64_C(1) << len) - 1);
	word = ~blank;
	starts = word & ~(word << 1);	/* first byte of each field */
	stops = blank & (word << 1);	/* first blank after each field */

	/* drop fields 0 and 1 */
	starts &= starts - 1;
	starts &= starts - 1;
	stops &= stops - 1;
	stops &= stops - 1;
	if (!starts || !(starts & (starts - 1)))
		return 0;
	*route = line + lp_ctz64(starts);
	*route_end = line + lp_ctz64(stops);
	starts &= starts - 1;
	stops &= stops - 1;
	*lat = line + lp_ctz64(starts);
	*lat_end = line + lp_ctz64(stops);
	return 1;
}
#endif


/*
 * lp_parse_line's fast path, inline for the per-row loops (the glue's
 * default-format count): 1 with the route and latency of a plain good
 * line of 16 to 63 bytes (no trailing '\r': the caller drops it), 0 for
 * every other line, which lp_parse_line then parses (and finds the same
 * for every line this counts).
 */
static LP_ALWAYS_INLINE int
lp_parse_line_short(const char *line, size_t len, const char **route, size_t *route_len,
					int64_t *latency)
{
#ifdef LP_SIMD_SSE2
	const char *r,
			   *r_end,
			   *lat,
			   *lat_end;

	if (len < 16 || len >= 64 || !lp_fields_short(line, len, &r, &r_end, &lat, &lat_end))
		return 0;
#ifdef LP_SWAR_DIGITS
	if (lat_end - lat <= 8 && lat_end - line >= 8)
	{
		if (!lp_digits8(lat_end, (size_t) (lat_end - lat), latency))
			return 0;
	}
	else if ((*latency = lp_parse_uint63_value(lat, (size_t) (lat_end - lat))) < 0)
		return 0;
#else
	if ((*latency = lp_parse_uint63_value(lat, (size_t) (lat_end - lat))) < 0)
		return 0;
#endif
	/* the fields the bit arithmetic found lie in order inside the line */
	LP_ASSERT(line < r && r < r_end && r_end < lat && lat < lat_end && lat_end <= line + len);
	*route = r;
	*route_len = (size_t) (r_end - r);
	return 1;
#else
	return 0;
#endif
}

#endif							/* LP_PARSE_H */
