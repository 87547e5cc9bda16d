/* src/lp_ts.h -- timestamps of access-log lines (plain C, no PostgreSQL headers) */
#ifndef LP_TS_H
#define LP_TS_H

#include <stddef.h>
#include <stdint.h>

/* Outcome of parsing a timestamp. */
typedef enum lp_ts_status
{
	LP_TS_OK = 0,				/* every field was read and is in range */
	LP_TS_MISSING,				/* there is no timestamp at all */
	LP_TS_SYNTAX,				/* a field is not written as expected */
	LP_TS_RANGE					/* a field is well formed but out of range */
} lp_ts_status;

/*
 * A civil date and time as written in a log line, plus its UTC offset.
 * The fields are range-checked; usec may be 1000000 after rounding (the
 * caller adds it as a whole second, which carries into the minute, day...).
 */
typedef struct lp_ts
{
	int			year;			/* 1 .. 9999 */
	int			month;			/* 1 .. 12 */
	int			day;			/* 1 .. days in the month */
	int			hour;			/* 0 .. 23 */
	int			minute;			/* 0 .. 59 */
	int			second;			/* 0 .. 59 */
	int			usec;			/* 0 .. 1000000, rounded half up */
	int			offset_sec;		/* seconds east of UTC; subtract to get UTC */
	const char *text;			/* the timestamp's bytes inside the line */
	size_t		text_len;		/* their length */
} lp_ts;

/*
 * Parse the first blank-separated field of a default-format line (leading
 * blanks skipped, a trailing '\r' dropped) as ISO 8601
 * "YYYY-MM-DDTHH:MM:SS[.fraction][Z|+HH:MM|-HH:MM|+HHMM|-HHMM]".
 * out->text is set whenever a field was found, also on errors.
 */
extern lp_ts_status lp_ts_parse_iso_field(const char *line, size_t len, lp_ts *out);

/* Parse exactly the bytes s[0..len) as an ISO 8601 timestamp (see above). */
extern lp_ts_status lp_ts_parse_iso(const char *s, size_t len, lp_ts *out);

/*
 * Parse exactly s[0..len) as a common-log-format time, the text between
 * '[' and ']': "DD/Mon/YYYY:HH:MM:SS +HHMM" (English month abbreviation in
 * any case, the offset is required).
 */
extern lp_ts_status lp_ts_parse_clf(const char *s, size_t len, lp_ts *out);

/* Days in a month of the proleptic Gregorian calendar (month 1 .. 12). */
extern int	lp_ts_days_in_month(int year, int month);

#endif							/* LP_TS_H */
