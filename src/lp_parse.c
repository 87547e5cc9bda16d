/* src/lp_parse.c -- access-log line parser (plain C, no PostgreSQL headers) */
#include "lp_parse.h"

#include <string.h>

#include "lp_common.h"
#include "lp_simd.h"

/*
 * Parse a plain non-negative decimal integer that must fit in int64.
 * No sign, no spaces, no exponent, no hex: only one or more ASCII digits.
 * A non-digit anywhere wins over an overflow.
 */
static inline lp_status
lp_parse_digits(const char *s, size_t len, int64_t *out)
{
	uint64_t	v = 0;
	size_t		i;
	int			overflow = 0;

	if (len == 0)
		return LP_ST_BAD_LATENCY;
	if (len <= 18)
	{
		/* at most 18 digits: below 10^18, no overflow possible */
		for (i = 0; i < len; i++)
		{
			unsigned	d = (unsigned char) s[i] - '0';

			if (d > 9)
				return LP_ST_BAD_LATENCY;
			v = v * 10 + d;
		}
		*out = (int64_t) v;
		return LP_ST_OK;
	}
	for (i = 0; i < len; i++)
	{
		unsigned	d = (unsigned char) s[i] - '0';

		if (d > 9)
			return LP_ST_BAD_LATENCY;
		/* v * 10 + d must stay <= INT64_MAX */
		if (v > (uint64_t) (INT64_MAX - d) / 10)
			overflow = 1;
		v = v * 10 + d;
	}
	if (overflow)
		return LP_ST_LATENCY_RANGE;
	*out = (int64_t) v;
	return LP_ST_OK;
}

/* See lp_parse.h. */
lp_status
lp_parse_uint63(const char *s, size_t len, int64_t *out)
{
	return lp_parse_digits(s, len, out);
}

/*
 * First space or tab in [p, end), or end.  On little-endian machines eight
 * bytes are tested at once (lp_swar_eq3: its lowest set bit is exact).
 */
static inline const char *
lp_find_blank(const char *p, const char *end)
{
#ifdef LP_SIMD_SWAR
	const uint64_t sp = lp_swar_splat(' ');
	const uint64_t tab = lp_swar_splat('\t');

	while (end - p >= 8)
	{
		uint64_t	m = lp_swar_eq3(p, sp, tab, tab);

		if (m)
			return p + (lp_ctz64(m) >> 3);
		p += 8;
	}
#endif
	while (p < end && !LP_IS_BLANK(*p))
		p++;
	return p;
}

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
static inline int
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
static inline int
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
 * Find the four fields of any line, one field at a time; also counts the
 * fields of a line with fewer than four, for the error message.
 */
static lp_status
lp_parse_line_generic(const char *line, const char *end, lp_line *out)
{
	const char *p = line;
	const char *start[4];
	const char *stop[4];
	int			n = 0;
	lp_status	st;

	while (n < 4)
	{
		while (p < end && LP_IS_BLANK(*p))
			p++;
		if (p == end)
			break;
		start[n] = p;
		p = lp_find_blank(p + 1, end);
		stop[n] = p;
		n++;
	}
	out->nfields = n;
	out->bad = NULL;
	out->bad_len = 0;
	if (n < 4)
		return LP_ST_TOO_FEW_FIELDS;

	out->route = start[2];
	out->route_len = (size_t) (stop[2] - start[2]);
	st = lp_parse_digits(start[3], (size_t) (stop[3] - start[3]), &out->latency);
	if (st != LP_ST_OK)
	{
		out->bad = start[3];
		out->bad_len = (size_t) (stop[3] - start[3]);
	}
	return st;
}

/*
 * Find the four fields of a default-format line without copying anything.
 * The route slice and the error slice point into `line`.
 */
lp_status
lp_parse_line(const char *line, size_t len, lp_line *out)
{
	const char *end = line + len;

	if (len > 0 && end[-1] == '\r')
		end--;

#ifdef LP_SIMD_SSE2
	if (end - line >= 16 && end - line < 64)
	{
		const char *route,
				   *route_end,
				   *lat,
				   *lat_end;

		if (lp_fields_short(line, (size_t) (end - line), &route, &route_end, &lat, &lat_end) &&
#ifdef LP_SWAR_DIGITS
			(lat_end - lat <= 8 && lat_end - line >= 8 ?
			 lp_digits8(lat_end, (size_t) (lat_end - lat), &out->latency) :
			 lp_parse_digits(lat, (size_t) (lat_end - lat), &out->latency) == LP_ST_OK))
#else
			lp_parse_digits(lat, (size_t) (lat_end - lat), &out->latency) == LP_ST_OK)
#endif
		{
			/* the fields the bit arithmetic found lie in order inside the line */
			LP_ASSERT(line < route && route < route_end && route_end < lat &&
					  lat < lat_end && lat_end <= end);
			out->route = route;
			out->route_len = (size_t) (route_end - route);
			out->nfields = 4;
			out->bad = NULL;
			out->bad_len = 0;
			return LP_ST_OK;
		}
		/* not a plain good line: let the general path say what is wrong */
	}
#endif
	return lp_parse_line_generic(line, end, out);
}
