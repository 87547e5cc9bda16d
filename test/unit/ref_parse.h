/* test/unit/ref_parse.h -- the reference parser the unit tests and the fuzzer compare lp_parse_line with */
#ifndef REF_PARSE_H
#define REF_PARSE_H

#include <stdint.h>
#include <string.h>

#include "lp_parse.h"

/* Is c a field separator? */
static inline int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * The reference: the plain byte-by-byte reading of the documented format,
 * with the number checked in 128 bits.  lp_parse_line (with its fast paths)
 * must agree with it on every input.
 */
static inline lp_status
ref_parse(const char *line, size_t len, lp_line *out)
{
	const char *p = line;
	const char *end = line + len;
	const char *start[4];
	const char *stop[4];
	int			n = 0;
	unsigned __int128 v = 0;
	const char *q;

	if (len > 0 && end[-1] == '\r')
		end--;
	while (n < 4)
	{
		while (p < end && is_blank(*p))
			p++;
		if (p == end)
			break;
		start[n] = p;
		while (p < end && !is_blank(*p))
			p++;
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
	out->latency = -1;
	for (q = start[3]; q < stop[3]; q++)
		if (*q < '0' || *q > '9')
			break;
	if (q != stop[3] || start[3] == stop[3])
	{
		out->bad = start[3];
		out->bad_len = (size_t) (stop[3] - start[3]);
		return LP_ST_BAD_LATENCY;
	}
	for (q = start[3]; q < stop[3]; q++)
	{
		v = v * 10 + (unsigned) (*q - '0');
		if (v > (unsigned __int128) INT64_MAX)
		{
			out->bad = start[3];
			out->bad_len = (size_t) (stop[3] - start[3]);
			return LP_ST_LATENCY_RANGE;
		}
	}
	out->latency = (int64_t) v;
	return LP_ST_OK;
}

#endif							/* REF_PARSE_H */
