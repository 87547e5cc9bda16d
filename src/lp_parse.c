/* src/lp_parse.c -- access-log line parser (plain C, no PostgreSQL headers) */
#include "lp_parse.h"

#include <string.h>

/* A field separator: space or tab. */
#define LP_IS_BLANK(c) ((c) == ' ' || (c) == '\t')

/*
 * Parse a plain non-negative decimal integer that must fit in int64.
 * No sign, no spaces, no exponent, no hex: only one or more ASCII digits.
 * A non-digit anywhere wins over an overflow.
 */
lp_parse_status
lp_parse_uint63(const char *s, size_t len, int64_t *out)
{
	uint64_t	v = 0;
	size_t		i;
	int			overflow = 0;

	if (len == 0)
		return LP_PARSE_BAD_LATENCY;
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

/*
 * Find the four fields of a default-format line without copying anything.
 * The route slice and the error slice point into `line`.
 */
lp_parse_status
lp_parse_line(const char *line, size_t len, lp_line *out)
{
	const char *p = line;
	const char *end = line + len;
	const char *start[4];
	const char *stop[4];
	int			n = 0;
	lp_parse_status st;

	if (len > 0 && end[-1] == '\r')
		end--;

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
	st = lp_parse_uint63(start[3], (size_t) (stop[3] - start[3]), &out->latency);
	if (st != LP_PARSE_OK)
	{
		out->bad = start[3];
		out->bad_len = (size_t) (stop[3] - start[3]);
	}
	return st;
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
