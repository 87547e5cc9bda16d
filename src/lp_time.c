/* src/lp_time.c -- the time of a parsed line, for every lp_time_kind (plain C) */
#include "lp_time.h"

/* Does an ISO 8601 time s[0..n) name its offset (Z, +HH:MM, -HHMM after the date)? */
static int
lp_iso_has_offset(const char *s, size_t n)
{
	size_t		i;

	for (i = 11; i < n; i++)
	{
		if (s[i] == 'Z' || s[i] == 'z' || s[i] == '+' || s[i] == '-')
			return 1;
	}
	return 0;
}

/*
 * The fraction after a '.' at s[*k]: six digits kept, the seventh rounds
 * half up, later ones read and dropped; *k moves past it.  0 when there is
 * no '.', -1 when the '.' has no digit.
 */
static int
lp_fraction_usec(const char *s, size_t n, size_t *k)
{
	int			usec = 0;
	int			ndig = 0;

	if (*k >= n || s[*k] != '.')
		return 0;
	(*k)++;
	while (*k < n && (unsigned) ((unsigned char) s[*k] - '0') <= 9)
	{
		int			d = s[*k] - '0';

		if (ndig < 6)
			usec = usec * 10 + d;
		else if (ndig == 6 && d >= 5)
			usec++;
		ndig++;
		(*k)++;
	}
	if (ndig == 0)
		return -1;
	while (ndig < 6)
	{
		usec *= 10;
		ndig++;
	}
	return usec;
}

/*
 * A common-log-format time s[0..n): "DD/Mon/YYYY:HH:MM:SS", a fraction
 * ".fff" allowed, then " +HHMM" or nothing (offset_sec then).
 */
static lp_ts_status
lp_time_clf(const char *s, size_t n, int offset_sec, lp_ts *out)
{
	char		buf[40];
	size_t		k = 20;
	int			usec;
	lp_ts_status st;

	if (n >= 2 && s[0] == '[' && s[n - 1] == ']')
	{
		s++;
		n -= 2;
	}
	if (n < 20)
		return LP_TS_SYNTAX;
	usec = lp_fraction_usec(s, n, &k);
	if (usec < 0 || n - k > sizeof(buf) - 21)
		return LP_TS_SYNTAX;
	memcpy(buf, s, 20);
	if (k == n)
	{
		memcpy(buf + 20, " +0000", 6);
		st = lp_ts_parse_clf(buf, 26, out);
		out->offset_sec = offset_sec;
	}
	else
	{
		memcpy(buf + 20, s + k, n - k);
		st = lp_ts_parse_clf(buf, 20 + (n - k), out);
	}
	if (st == LP_TS_OK)
		out->usec = usec;
	return st;
}

/* See lp_time.h. */
void
lp_civil_from_days(int64_t z, int *y, int *m, int *d)
{
	int64_t		era,
				doe,
				yoe,
				doy,
				mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int) (doy - (153 * mp + 2) / 5 + 1);
	*m = (int) (mp < 10 ? mp + 3 : mp - 9);
	*y = (int) (yoe + era * 400 + (*m <= 2));
}

/* Microseconds since 1970 at 10000-01-01: past it an epoch is out of range. */
#define LP_EPOCH_USEC_END INT64_C(253402300800000000)

/* An epoch time s[0..n) in units of 10^-exp10 seconds (0, 3, 6 or 9). */
static lp_ts_status
lp_time_epoch(const char *s, size_t n, int exp10, lp_ts *out)
{
	uint64_t	v = 0;
	size_t		k = 0;
	int64_t		usec;
	int64_t		secs;
	int			i;

	while (k < n && (unsigned) ((unsigned char) s[k] - '0') <= 9)
	{
		if (k >= 19)
			return LP_TS_RANGE;
		v = v * 10 + (uint64_t) (s[k] - '0');
		k++;
	}
	if (k == 0)
		return LP_TS_SYNTAX;
	if (exp10 == 9)
	{
		/* nanoseconds: the sub-microsecond part rounds half up */
		usec = (int64_t) (v / 1000) + (v % 1000 >= 500);
		if (k < n && s[k] == '.')
		{
			size_t		f = k + 1;

			while (f < n && (unsigned) ((unsigned char) s[f] - '0') <= 9)
				f++;
			if (f == k + 1)
				return LP_TS_SYNTAX;
			k = f;
		}
	}
	else
	{
		int64_t		scale = 1;
		int			frac = 0;
		int			nd = 0;

		for (i = exp10; i < 6; i++)
			scale *= 10;
		if (v > (uint64_t) (LP_EPOCH_USEC_END / scale))
			return LP_TS_RANGE;
		usec = (int64_t) v * scale;
		if (k < n && s[k] == '.')
		{
			k++;
			/* the digits below the microsecond: the first rounds half up */
			while (k < n && (unsigned) ((unsigned char) s[k] - '0') <= 9)
			{
				int			d = s[k] - '0';

				if (nd < 6 - exp10)
					frac = frac * 10 + d;
				else if (nd == 6 - exp10 && d >= 5)
					frac++;
				nd++;
				k++;
			}
			if (nd == 0)
				return LP_TS_SYNTAX;
			for (i = nd; i < 6 - exp10; i++)
				frac *= 10;
			usec += frac;
		}
	}
	if (k != n)
		return LP_TS_SYNTAX;
	if (usec >= LP_EPOCH_USEC_END)
		return LP_TS_RANGE;
	secs = usec / 1000000;
	lp_civil_from_days(secs / 86400, &out->year, &out->month, &out->day);
	out->hour = (int) (secs % 86400 / 3600);
	out->minute = (int) (secs % 3600 / 60);
	out->second = (int) (secs % 60);
	out->usec = (int) (usec % 1000000);
	out->offset_sec = 0;
	return LP_TS_OK;
}

/* W3C: date "2026-11-07" and time "01:00:00[.fff]", in offset_sec. */
static lp_ts_status
lp_time_date_time(const char *d, size_t dn, const char *t, size_t tn, int offset_sec, lp_ts *out)
{
	char		buf[48];
	lp_ts_status st;

	if (dn != 10 || tn < 8 || tn > 20 || !t)
		return LP_TS_SYNTAX;
	memcpy(buf, d, 10);
	buf[10] = 'T';
	memcpy(buf + 11, t, tn);
	if (lp_iso_has_offset(buf, 11 + tn))
		return LP_TS_SYNTAX;
	st = lp_ts_parse_iso(buf, 11 + tn, out);
	out->offset_sec = offset_sec;
	return st;
}

/* See lp_time.h. */
lp_ts_status
lp_result_ts(const lp_result *r, lp_time_kind kind, int offset_sec, lp_ts *out)
{
	const char *s = r->time;
	size_t		n = r->time_len;
	lp_ts_status st;

	memset(out, 0, sizeof(*out));
	if (!(r->has & LP_HAS_TIME) || s == NULL)
		return LP_TS_MISSING;
	switch (kind)
	{
		case LP_TIME_ISO8601:
			st = lp_ts_parse_iso(s, n, out);
			if (st == LP_TS_OK && !lp_iso_has_offset(s, n))
				out->offset_sec = offset_sec;
			break;
		case LP_TIME_CLF:
		case LP_TIME_CLF_MS:
			st = lp_time_clf(s, n, offset_sec, out);
			break;
		case LP_TIME_EPOCH:
			st = lp_time_epoch(s, n, 0, out);
			break;
		case LP_TIME_EPOCH_MS:
			st = lp_time_epoch(s, n, 3, out);
			break;
		case LP_TIME_EPOCH_US:
			st = lp_time_epoch(s, n, 6, out);
			break;
		case LP_TIME_EPOCH_NS:
			st = lp_time_epoch(s, n, 9, out);
			break;
		case LP_TIME_DATE_TIME:
			st = lp_time_date_time(s, n, r->time2, r->time2_len, offset_sec, out);
			break;
		default:
			return LP_TS_MISSING;
	}
	out->text = s;
	out->text_len = n;
	return st;
}
