/* src/lp_time.h -- the time of a parsed line, for every lp_time_kind (plain C) */
#ifndef LP_TIME_H
#define LP_TIME_H

#include "lp_format.h"

/*
 * The time of a line as its parser found it (lp_result.time, and .time2
 * for LP_TIME_DATE_TIME), read by the kind its format writes:
 *   LP_TIME_ISO8601   lp_ts_parse_iso; without an offset: offset_sec
 *   LP_TIME_CLF       "07/Nov/2026:01:00:00 +0100" (brackets around it
 *                     allowed); without an offset: offset_sec
 *   LP_TIME_CLF_MS    the same with ".fff" after the seconds (HAProxy),
 *                     no offset: offset_sec
 *   LP_TIME_EPOCH*    digits, a fraction allowed, since 1970 in UTC
 *                     (offset_sec does not apply), rounded half up to
 *                     the microsecond
 *   LP_TIME_DATE_TIME "2026-11-07" and "01:00:00[.fff]" (W3C): offset_sec
 * LP_TS_MISSING when r has no LP_HAS_TIME; LP_TS_SYNTAX or LP_TS_RANGE as
 * lp_ts.h says (an epoch outside the years 1 to 9999 is LP_TS_RANGE).
 */
extern lp_ts_status lp_result_ts(const lp_result *r, lp_time_kind kind, int offset_sec,
								 lp_ts *out);

/*
 * Days since 1970-01-01 (either side of it) to a civil date: Howard
 * Hinnant's civil_from_days.  Also the generator's (lp_gen.c).
 */
extern void lp_civil_from_days(int64_t z, int *y, int *m, int *d);

#endif							/* LP_TIME_H */
