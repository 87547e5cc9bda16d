/* src/lp_ts.c -- timestamps of access-log lines (plain C, no PostgreSQL headers) */
#include "lp_ts.h"

#include "lp_common.h"

/* Largest UTC offset accepted, in hours (PostgreSQL's own limit). */
#define LP_TS_MAX_OFFSET_HOUR 15

/* A cursor over the bytes of one timestamp. */
typedef struct lp_cur
{
	const char *p;				/* next unread byte */
	const char *end;			/* one past the last byte */
} lp_cur;

/*
 * Read exactly n ASCII digits as a number; false when fewer than n digits
 * are there.
 */
static int
lp_digits(lp_cur *c, int n, int *out)
{
	int			v = 0;
	int			i;

	if (c->end - c->p < n)
		return 0;
	for (i = 0; i < n; i++)
	{
		unsigned	d = (unsigned char) c->p[i] - '0';

		if (d > 9)
			return 0;
		v = v * 10 + (int) d;
	}
	c->p += n;
	*out = v;
	return 1;
}

/* Consume byte ch if it is next; false otherwise. */
static int
lp_expect(lp_cur *c, char ch)
{
	if (c->p < c->end && *c->p == ch)
	{
		c->p++;
		return 1;
	}
	return 0;
}

/* See lp_ts.h. */
int
lp_ts_days_in_month(int year, int month)
{
	static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	if (month < 1 || month > 12)
		return 0;
	if (month == 2 && year % 4 == 0 && (year % 100 != 0 || year % 400 == 0))
		return 29;
	return days[month - 1];
}

/* Range-check the calendar and clock fields of a parsed timestamp. */
static lp_ts_status
lp_check_ranges(lp_ts *out)
{
	if (out->year < 1)
		return LP_TS_RANGE;
	if (out->month < 1 || out->month > 12)
		return LP_TS_RANGE;
	if (out->day < 1 || out->day > lp_ts_days_in_month(out->year, out->month))
		return LP_TS_RANGE;
	if (out->hour > 23)
		return LP_TS_RANGE;
	if (out->minute > 59)
		return LP_TS_RANGE;
	if (out->second > 59)
		return LP_TS_RANGE;
	return LP_TS_OK;
}

/*
 * Read a UTC offset "+HH:MM", "+HHMM" or "+HH" (or with '-') at the cursor
 * into out->offset_sec.  The sign must be next.
 */
static lp_ts_status
lp_offset(lp_cur *c, lp_ts *out)
{
	int			sign;
	int			hh;
	int			mm = 0;

	if (lp_expect(c, '+'))
		sign = 1;
	else if (lp_expect(c, '-'))
		sign = -1;
	else
		return LP_TS_SYNTAX;
	if (!lp_digits(c, 2, &hh))
		return LP_TS_SYNTAX;
	if (c->p < c->end)
	{
		lp_expect(c, ':');
		if (!lp_digits(c, 2, &mm))
			return LP_TS_SYNTAX;
	}
	if (hh > LP_TS_MAX_OFFSET_HOUR || mm > 59)
		return LP_TS_RANGE;
	out->offset_sec = sign * (hh * 3600 + mm * 60);
	return LP_TS_OK;
}

/*
 * Set the fields every parse starts from and put the cursor on s;
 * LP_TS_MISSING when there is nothing to parse.
 */
static lp_ts_status
lp_ts_begin(lp_ts *out, lp_cur *c, const char *s, size_t len)
{
	out->year = out->month = out->day = 0;
	out->hour = out->minute = out->second = 0;
	out->usec = 0;
	out->offset_sec = 0;
	out->text = s;
	out->text_len = len;
	c->p = s;
	c->end = s + len;
	return len == 0 ? LP_TS_MISSING : LP_TS_OK;
}

/* The end both forms share: nothing after the last field, every field in range. */
static lp_ts_status
lp_ts_finish(lp_cur *c, lp_ts *out)
{
	if (c->p < c->end)
		return LP_TS_SYNTAX;
	/* what lp_check_ranges does not check: the rounded fraction, the offset read */
	LP_ASSERT(out->usec >= 0 && out->usec <= 1000000);
	LP_ASSERT(out->offset_sec % 60 == 0 &&
			  out->offset_sec >= -(LP_TS_MAX_OFFSET_HOUR * 3600 + 59 * 60) &&
			  out->offset_sec <= LP_TS_MAX_OFFSET_HOUR * 3600 + 59 * 60);
	return lp_check_ranges(out);
}

/* "<lead>HH:MM:SS", the time of day both forms share; LP_TS_OK or LP_TS_SYNTAX. */
static lp_ts_status
lp_time_of_day(lp_cur *c, char lead, lp_ts *out)
{
	if (!lp_expect(c, lead) || !lp_digits(c, 2, &out->hour))
		return LP_TS_SYNTAX;
	if (!lp_expect(c, ':') || !lp_digits(c, 2, &out->minute))
		return LP_TS_SYNTAX;
	if (!lp_expect(c, ':') || !lp_digits(c, 2, &out->second))
		return LP_TS_SYNTAX;
	return LP_TS_OK;
}

/* See lp_ts.h. */
lp_ts_status
lp_ts_parse_iso(const char *s, size_t len, lp_ts *out)
{
	lp_cur		c;
	lp_ts_status st = lp_ts_begin(out, &c, s, len);

	if (st != LP_TS_OK)
		return st;
	if (!lp_digits(&c, 4, &out->year))
		return LP_TS_SYNTAX;
	if (!lp_expect(&c, '-') || !lp_digits(&c, 2, &out->month))
		return LP_TS_SYNTAX;
	if (!lp_expect(&c, '-') || !lp_digits(&c, 2, &out->day))
		return LP_TS_SYNTAX;
	if ((st = lp_time_of_day(&c, 'T', out)) != LP_TS_OK)
		return st;
	if (lp_expect(&c, '.'))
	{
		int			ndig = 0;

		/* six digits are kept; the seventh rounds half up; later ones are read and dropped */
		while (c.p < c.end && (unsigned) ((unsigned char) *c.p - '0') <= 9)
		{
			int			d = *c.p - '0';

			if (ndig < 6)
				out->usec = out->usec * 10 + d;
			else if (ndig == 6 && d >= 5)
				out->usec++;
			ndig++;
			c.p++;
		}
		if (ndig == 0)
			return LP_TS_SYNTAX;
		for (; ndig < 6; ndig++)
			out->usec *= 10;
	}
	if (c.p < c.end && *c.p == 'Z')
		c.p++;
	else if (c.p < c.end && (*c.p == '+' || *c.p == '-') &&
			 (st = lp_offset(&c, out)) != LP_TS_OK)
		return st;
	return lp_ts_finish(&c, out);
}

/* See lp_ts.h. */
lp_ts_status
lp_ts_parse_iso_field(const char *line, size_t len, lp_ts *out)
{
	const char *p = line;
	const char *end = line + len;
	const char *start;

	if (len > 0 && end[-1] == '\r')
		end--;
	while (p < end && LP_IS_BLANK(*p))
		p++;
	start = p;
	while (p < end && !LP_IS_BLANK(*p))
		p++;
	return lp_ts_parse_iso(start, (size_t) (p - start), out);
}

/* Month number 1 .. 12 of a three-letter English abbreviation, any case; 0 if none. */
static int
lp_month_abbrev(const char *s)
{
	static const char names[] = "janfebmaraprmayjunjulaugsepoctnovdec";
	char		a = (char) (s[0] | 0x20);
	char		b = (char) (s[1] | 0x20);
	char		c = (char) (s[2] | 0x20);
	int			i;

	for (i = 0; i < 12; i++)
	{
		if (names[3 * i] == a && names[3 * i + 1] == b && names[3 * i + 2] == c)
			return i + 1;
	}
	return 0;
}

/* See lp_ts.h. */
lp_ts_status
lp_ts_parse_clf(const char *s, size_t len, lp_ts *out)
{
	lp_cur		c;
	lp_ts_status st;

	if (lp_ts_begin(out, &c, s, len) != LP_TS_OK)
		return LP_TS_MISSING;
	if (!lp_digits(&c, 2, &out->day))
		return LP_TS_SYNTAX;
	if (!lp_expect(&c, '/') || c.end - c.p < 3 || (out->month = lp_month_abbrev(c.p)) == 0)
		return LP_TS_SYNTAX;
	c.p += 3;
	if (!lp_expect(&c, '/') || !lp_digits(&c, 4, &out->year))
		return LP_TS_SYNTAX;
	if ((st = lp_time_of_day(&c, ':', out)) != LP_TS_OK)
		return st;
	if (!lp_expect(&c, ' '))
		return LP_TS_SYNTAX;
	if ((st = lp_offset(&c, out)) != LP_TS_OK)
		return st;
	return lp_ts_finish(&c, out);
}

