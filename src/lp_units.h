/* src/lp_units.h -- latencies as logged, in seconds or microseconds, to milliseconds (plain C) */
#ifndef LP_UNITS_H
#define LP_UNITS_H

#include "lp_format.h"

/*
 * The converters of the latencies the formats log: every one rounds to
 * the nearest millisecond, half up, and says which unit it failed to read
 * (the status names the unit in the line's message).  They sit below the
 * parsers, which call them on the field they found.
 */

/*
 * A request time in seconds, "D+" or "D+.D+", to milliseconds rounded to
 * nearest, half up (0.0005 -> 1, 0.0004999 -> 0): LP_ST_OK,
 * LP_ST_BAD_SECONDS, or LP_ST_REQTIME_RANGE past INT64_MAX ms.
 */
extern lp_status lp_parse_seconds_ms(const char *s, size_t len, int64_t *ms);

/*
 * A request time in integer microseconds to milliseconds, rounded half up:
 * LP_ST_OK, LP_ST_BAD_MICROS, or LP_ST_REQTIME_RANGE past INT64_MAX us.
 */
extern lp_status lp_parse_micros_ms(const char *s, size_t len, int64_t *ms);

/*
 * lp_parse_seconds_ms, inline: the combined parser reads the request time
 * of every line with it.
 */
static LP_ALWAYS_INLINE lp_status
lp_seconds_ms(const char *s, size_t len, int64_t *ms)
{
	const char *p = s;
	const char *end = s + len;
	uint64_t	ip = 0;
	uint64_t	frac = 0;
	int			ndig = 0;
	int			round_up = 0;

	/*
	 * nginx's $request_time, "D.DDD" with one to five whole digits: read at
	 * once (the general loop below gives the same, more slowly)
	 */
	if (len >= 5 && len <= 9 && s[len - 4] == '.')
	{
		unsigned	d1 = (unsigned char) s[len - 3] - '0';
		unsigned	d2 = (unsigned char) s[len - 2] - '0';
		unsigned	d3 = (unsigned char) s[len - 1] - '0';
		const char *dot = s + len - 4;

		if (d1 <= 9 && d2 <= 9 && d3 <= 9)
		{
			for (; p < dot; p++)
			{
				unsigned	d = (unsigned char) *p - '0';

				if (d > 9)
					break;
				ip = ip * 10 + d;
			}
			if (p == dot)
			{
				*ms = (int64_t) (ip * 1000 + d1 * 100 + d2 * 10 + d3);
				return LP_ST_OK;
			}
			p = s;
			ip = 0;
		}
	}
	if (p == end || (unsigned) ((unsigned char) *p - '0') > 9)
		return LP_ST_BAD_SECONDS;
	while (p < end && (unsigned) ((unsigned char) *p - '0') <= 9)
	{
		/* ip * 1000 must stay <= INT64_MAX; checked again below with the fraction */
		if (ip > (uint64_t) INT64_MAX / 10000)
			ip = (uint64_t) INT64_MAX;	/* saturate: reported as out of range */
		else
			ip = ip * 10 + (uint64_t) (*p - '0');
		p++;
	}
	if (p < end)
	{
		if (*p != '.')
			return LP_ST_BAD_SECONDS;
		p++;
		if (p == end)
			return LP_ST_BAD_SECONDS;
		while (p < end)
		{
			unsigned	d = (unsigned char) *p - '0';

			if (d > 9)
				return LP_ST_BAD_SECONDS;
			if (ndig < 3)
				frac = frac * 10 + d;
			else if (ndig == 3 && d >= 5)
				round_up = 1;
			ndig++;
			p++;
		}
	}
	for (; ndig < 3; ndig++)
		frac *= 10;
	if (ip > ((uint64_t) INT64_MAX - frac - (uint64_t) round_up) / 1000)
		return LP_ST_REQTIME_RANGE;
	*ms = (int64_t) (ip * 1000 + frac + (uint64_t) round_up);
	return LP_ST_OK;
}

#endif							/* LP_UNITS_H */
