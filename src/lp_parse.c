/* src/lp_parse.c -- access-log line parser (plain C, no PostgreSQL headers) */
#include "lp_parse.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* A field separator: space or tab. */
#define LP_IS_BLANK(c) ((c) == ' ' || (c) == '\t')

/*
 * Parse a plain non-negative decimal integer that must fit in int64.
 * No sign, no spaces, no exponent, no hex: only one or more ASCII digits.
 * A non-digit anywhere wins over an overflow.
 */
static inline lp_parse_status
lp_parse_digits(const char *s, size_t len, int64_t *out)
{
	uint64_t	v = 0;
	size_t		i;
	int			overflow = 0;

	if (len == 0)
		return LP_PARSE_BAD_LATENCY;
	if (len <= 18)
	{
		/* at most 18 digits: below 10^18, no overflow possible */
		for (i = 0; i < len; i++)
		{
			unsigned	d = (unsigned char) s[i] - '0';

			if (d > 9)
				return LP_PARSE_BAD_LATENCY;
			v = v * 10 + d;
		}
		*out = (int64_t) v;
		return LP_PARSE_OK;
	}
	for (i = 0; i < len; i++)
	{
		unsigned	d = (unsigned char) s[i] - '0';

		if (d > 9)
			return LP_PARSE_BAD_LATENCY;
		/* v * 10 + d must stay <= INT64_MAX */
		if (v > (uint64_t) (INT64_MAX - d) / 10)
			overflow = 1;
		v = v * 10 + d;
	}
	if (overflow)
		return LP_PARSE_LATENCY_RANGE;
	*out = (int64_t) v;
	return LP_PARSE_OK;
}

lp_parse_status
lp_parse_uint63(const char *s, size_t len, int64_t *out)
{
	return lp_parse_digits(s, len, out);
}

/*
 * First space or tab in [p, end), or end.  On little-endian machines eight
 * bytes are tested at once: a byte b is a blank when b ^ ' ' or b ^ '\t' is
 * zero, and the lowest zero byte of a word is found exactly by the
 * (x - 0x01..) & ~x & 0x80.. test (a borrow only flags bytes above it).
 */
static inline const char *
lp_find_blank(const char *p, const char *end)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = UINT64_C(0x0101010101010101);
	const uint64_t highs = UINT64_C(0x8080808080808080);

	while (end - p >= 8)
	{
		uint64_t	w,
					s,
					t,
					m;

		memcpy(&w, p, 8);
		s = w ^ UINT64_C(0x2020202020202020);
		t = w ^ UINT64_C(0x0909090909090909);
		m = (((s - ones) & ~s) | ((t - ones) & ~t)) & highs;
		if (m)
			return p + (__builtin_ctzll(m) >> 3);
		p += 8;
	}
#endif
	while (p < end && !LP_IS_BLANK(*p))
		p++;
	return p;
}

#ifdef __SSE2__
/* Bit i set when byte i of the 16 bytes at p is a space or a tab. */
static inline uint32_t
lp_blank_bits16(const char *p)
{
	__m128i		v = _mm_loadu_si128((const __m128i *) p);
	__m128i		b = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
								 _mm_cmpeq_epi8(v, _mm_set1_epi8('\t')));

	return (uint32_t) _mm_movemask_epi8(b);
}

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

	/* whole 16-byte blocks, never reading past the end */
	blank = lp_blank_bits16(line);
	if (len >= 32)
		blank |= (uint64_t) lp_blank_bits16(line + 16) << 16;
	if (len >= 48)
		blank |= (uint64_t) lp_blank_bits16(line + 32) << 32;
	/* and the last 16 bytes (overlapping ones give the same bits) */
	blank |= (uint64_t) lp_blank_bits16(line + len - 16) << (len - 16);
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
	*route = line + __builtin_ctzll(starts);
	*route_end = line + __builtin_ctzll(stops);
	starts &= starts - 1;
	stops &= stops - 1;
	*lat = line + __builtin_ctzll(starts);
	*lat_end = line + __builtin_ctzll(stops);
	return 1;
}
#endif

/*
 * Find the four fields of any line, one field at a time; also counts the
 * fields of a line with fewer than four, for the error message.
 */
static lp_parse_status
lp_parse_line_generic(const char *line, const char *end, lp_line *out)
{
	const char *p = line;
	const char *start[4];
	const char *stop[4];
	int			n = 0;
	lp_parse_status st;

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
		return LP_PARSE_TOO_FEW_FIELDS;

	out->route = start[2];
	out->route_len = (size_t) (stop[2] - start[2]);
	st = lp_parse_digits(start[3], (size_t) (stop[3] - start[3]), &out->latency);
	if (st != LP_PARSE_OK)
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
lp_parse_status
lp_parse_line(const char *line, size_t len, lp_line *out)
{
	const char *end = line + len;

	if (len > 0 && end[-1] == '\r')
		end--;

#ifdef __SSE2__
	if (end - line >= 16 && end - line < 64)
	{
		const char *route,
				   *route_end,
				   *lat,
				   *lat_end;

		if (lp_fields_short(line, (size_t) (end - line), &route, &route_end, &lat, &lat_end) &&
			lp_parse_digits(lat, (size_t) (lat_end - lat), &out->latency) == LP_PARSE_OK)
		{
			out->route = route;
			out->route_len = (size_t) (route_end - route);
			out->nfields = 4;
			out->bad = NULL;
			out->bad_len = 0;
			return LP_PARSE_OK;
		}
		/* not a plain good line: let the general path say what is wrong */
	}
#endif
	return lp_parse_line_generic(line, end, out);
}

const char *
lp_parse_status_text(lp_parse_status st)
{
	switch (st)
	{
		case LP_PARSE_OK:
			return "ok";
		case LP_PARSE_TOO_FEW_FIELDS:
			return "fewer than four fields";
		case LP_PARSE_BAD_LATENCY:
			return "latency is not a non-negative integer";
		case LP_PARSE_LATENCY_RANGE:
			return "latency is out of range for type bigint";
	}
	return "unknown error";
}
