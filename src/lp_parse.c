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

/* See lp_parse.h. */
int64_t
lp_parse_uint63_value(const char *s, size_t len)
{
	int64_t		v;

	return lp_parse_digits(s, len, &v) == LP_ST_OK ? v : -1;
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

	{
		const char *route;
		size_t		route_len;

		if (lp_parse_line_short(line, (size_t) (end - line), &route, &route_len, &out->latency))
		{
			out->route = route;
			out->route_len = route_len;
			out->nfields = 4;
			out->bad = NULL;
			out->bad_len = 0;
			return LP_ST_OK;
		}
		/* not a plain good line of 16..63 bytes: the general path says what is wrong */
	}
	return lp_parse_line_generic(line, end, out);
}
