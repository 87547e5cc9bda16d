/* src/lp_units.c -- latencies as logged, in seconds or microseconds, to milliseconds (plain C) */
#include "lp_units.h"

#include "lp_parse.h"

/* See lp_units.h. */
lp_status
lp_parse_seconds_ms(const char *s, size_t len, int64_t *ms)
{
	return lp_seconds_ms(s, len, ms);
}

/* See lp_units.h. */
lp_status
lp_parse_micros_ms(const char *s, size_t len, int64_t *ms)
{
	int64_t		us;
	lp_status	st = lp_parse_uint63(s, len, &us);

	if (st == LP_ST_LATENCY_RANGE)
		return LP_ST_REQTIME_RANGE;
	if (st != LP_ST_OK)
		return LP_ST_BAD_MICROS;
	*ms = us / 1000 + (us % 1000 >= 500 ? 1 : 0);
	return LP_ST_OK;
}
