/*
 * test/fuzz/fuzz_formats.c -- libFuzzer harness for the combined-format
 * line parsers (lp_formats) and the timestamp parsers (lp_ts)
 *
 * Every input is fed to lp_parse_combined under the four combined formats
 * (and checked equal, field for field, to the byte-by-byte reference of
 * test/unit/ref_combined.h),
 * to lp_parse_line (the default format), to lp_combined_ts, to the ISO and
 * common-log-format timestamp parsers (whole input and first field) and to
 * the two request-time converters.  Checked: every slice lies inside the
 * input and has the documented shape; the query-dropping route is a prefix
 * of the query-keeping one; the seconds and microseconds formats agree on
 * everything but the latency, and on the latency when the request time is
 * rewritten in the other unit; a line rebuilt from the parsed parts parses
 * to the same route, latency and time; parsing a copy gives the same
 * answer; timestamps are in range, match their text and survive a
 * print-and-parse round trip.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lp_combined.h"
#include "lp_formats.h"
#include "lp_options.h"
#include "lp_templates.h"
#include "lp_units.h"
#include "lp_parse.h"
#include "lp_ts.h"

#include "../unit/ref_combined.h"
#include "../unit/test_diff.h"

/* Stop the run with a crash that libFuzzer reports and saves. */
#define FUZZ_ASSERT(c) do { if (!(c)) abort(); } while (0)

/* The names of the four combined formats, in the order of combined_formats. */
static const char *const format_names[4] = {
	"combined", "combined_query", "combined_us", "combined_us_query"
};

/* The flags of the four combined formats: combined, _query, _us, _us_query. */
#define FMT_COMBINED 0
#define FMT_COMBINED_QUERY LP_PARSE_KEEP_QUERY
#define FMT_COMBINED_US LP_C_MICROS
#define FMT_COMBINED_US_QUERY (LP_C_MICROS | LP_PARSE_KEEP_QUERY)
static const unsigned combined_formats[4] = {
	FMT_COMBINED, FMT_COMBINED_QUERY,
	FMT_COMBINED_US, FMT_COMBINED_US_QUERY
};

/* Is c a field separator? */
static int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Is c an ASCII digit? */
static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Does the slice [s, s + n) lie inside [base, base + len)? */
static int
inside(const char *s, size_t n, const char *base, size_t len)
{
	return s >= base && s <= base + len && n <= (size_t) (base + len - s);
}

/* The value of n digits at s (the caller checked they are digits). */
static int
digits_at(const char *s, int n)
{
	int			v = 0;
	int			i;

	for (i = 0; i < n; i++)
	{
		FUZZ_ASSERT(is_digit(s[i]));
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* Days in a month, written out independently of lp_ts_days_in_month. */
static int
ref_days(int year, int month)
{
	int			leap = (year % 400 == 0) || (year % 4 == 0 && year % 100 != 0);

	switch (month)
	{
		case 2:
			return leap ? 29 : 28;
		case 4:
		case 6:
		case 9:
		case 11:
			return 30;
		default:
			return 31;
	}
}

/*
 * Reference for lp_parse_seconds_ms: "D+" or "D+.D+" to milliseconds, half
 * up on the fourth fraction digit, in 128 bits with the integer part capped.
 */
static lp_status
ref_seconds_ms(const char *s, size_t len, int64_t *ms)
{
	size_t		i = 0;
	unsigned __int128 ip = 0;
	unsigned __int128 v;
	int			frac[4] = {0, 0, 0, 0};
	int			n = 0;

	while (i < len && is_digit(s[i]))
	{
		if (ip < ((unsigned __int128) 1 << 100))
			ip = ip * 10 + (unsigned) (s[i] - '0');
		i++;
	}
	if (i == 0)
		return LP_ST_BAD_SECONDS;
	if (i < len)
	{
		if (s[i] != '.' || i + 1 == len)
			return LP_ST_BAD_SECONDS;
		for (i++; i < len; i++)
		{
			if (!is_digit(s[i]))
				return LP_ST_BAD_SECONDS;
			if (n < 4)
				frac[n] = s[i] - '0';
			n++;
		}
	}
	v = ip * 1000 + (unsigned) (frac[0] * 100 + frac[1] * 10 + frac[2]) +
		(frac[3] >= 5 ? 1 : 0);
	if (v > (unsigned __int128) INT64_MAX)
		return LP_ST_REQTIME_RANGE;
	*ms = (int64_t) v;
	return LP_ST_OK;
}

/* Reference for lp_parse_micros_ms: digits only, microseconds to ms half up. */
static lp_status
ref_micros_ms(const char *s, size_t len, int64_t *ms)
{
	size_t		i;
	unsigned __int128 v = 0;

	if (len == 0)
		return LP_ST_BAD_MICROS;
	for (i = 0; i < len; i++)
		if (!is_digit(s[i]))
			return LP_ST_BAD_MICROS;
	for (i = 0; i < len; i++)
	{
		v = v * 10 + (unsigned) (s[i] - '0');
		if (v > (unsigned __int128) INT64_MAX)
			return LP_ST_REQTIME_RANGE;
	}
	*ms = (int64_t) ((v + 500) / 1000);
	return LP_ST_OK;
}

/* Both request-time converters agree with their references on s. */
static void
check_request_time(const char *s, size_t len)
{
	int64_t		a = -1,
				b = -1;
	lp_status	st;

	lp_status	rst;
	test_diff	d;

	st = lp_parse_seconds_ms(s, len, &a);
	rst = ref_seconds_ms(s, len, &b);
	diff_init(&d);
	if (diff_i(&d, "status", st, rst) && st == LP_ST_OK)
		diff_i(&d, "milliseconds", a, b);
	if (d.field)
		diff_abort(&d, "fuzz_formats: lp_parse_seconds_ms", "input %s", diff_q(s, len));
	if (st == LP_ST_OK)
		FUZZ_ASSERT(a >= 0);
	else
		FUZZ_ASSERT(st == LP_ST_BAD_SECONDS || st == LP_ST_REQTIME_RANGE);
	a = b = -1;
	st = lp_parse_micros_ms(s, len, &a);
	rst = ref_micros_ms(s, len, &b);
	if (diff_i(&d, "status", st, rst) && st == LP_ST_OK)
		diff_i(&d, "milliseconds", a, b);
	if (d.field)
		diff_abort(&d, "fuzz_formats: lp_parse_micros_ms", "input %s", diff_q(s, len));
	if (st == LP_ST_OK)
		FUZZ_ASSERT(a >= 0);
	else
		FUZZ_ASSERT(st == LP_ST_BAD_MICROS || st == LP_ST_REQTIME_RANGE);
}

/*
 * Is the UTC offset of a timestamp's text out of range (hours past 15 or
 * minutes past 59)?  It starts at text[from], after an ISO fraction.
 */
static int
offset_out_of_range(const lp_ts *t, size_t from)
{
	const char *s = t->text;
	size_t		n = t->text_len,
				i = from;
	int			hh,
				mm = 0;

	if (i < n && s[i] == '.')
		for (i++; i < n && is_digit(s[i]); i++)
			;
	if (i + 3 > n || (s[i] != '+' && s[i] != '-') || !is_digit(s[i + 1]) || !is_digit(s[i + 2]))
		return 0;
	hh = (s[i + 1] - '0') * 10 + (s[i + 2] - '0');
	i += 3;
	if (i < n && s[i] == ':')
		i++;
	if (i + 2 <= n && is_digit(s[i]) && is_digit(s[i + 1]))
		mm = (s[i] - '0') * 10 + (s[i + 1] - '0');
	return hh > 15 || mm > 59;
}

/*
 * A parsed timestamp whose status is st: a missing one has no text, a
 * range error is a real one (a field out of its range, or the offset at
 * text[offset_from], after an ISO fraction), and success means every
 * field is in its documented range.
 */
static void
check_ts_fields(lp_ts_status st, const lp_ts *t, size_t offset_from)
{
	FUZZ_ASSERT(st == LP_TS_OK || st == LP_TS_MISSING || st == LP_TS_SYNTAX ||
				st == LP_TS_RANGE);
	if (st == LP_TS_MISSING)
	{
		FUZZ_ASSERT(t->text_len == 0);
		return;
	}
	if (st == LP_TS_RANGE)
		FUZZ_ASSERT(t->year < 1 || t->month < 1 || t->month > 12 || t->day < 1 ||
					t->day > ref_days(t->year, t->month) || t->hour > 23 ||
					t->minute > 59 || t->second > 59 || offset_out_of_range(t, offset_from));
	if (st != LP_TS_OK)
		return;
	FUZZ_ASSERT(t->year >= 1 && t->year <= 9999);
	FUZZ_ASSERT(t->month >= 1 && t->month <= 12);
	FUZZ_ASSERT(lp_ts_days_in_month(t->year, t->month) == ref_days(t->year, t->month));
	FUZZ_ASSERT(t->day >= 1 && t->day <= ref_days(t->year, t->month));
	FUZZ_ASSERT(t->hour >= 0 && t->hour <= 23);
	FUZZ_ASSERT(t->minute >= 0 && t->minute <= 59);
	FUZZ_ASSERT(t->second >= 0 && t->second <= 59);
	FUZZ_ASSERT(t->usec >= 0 && t->usec <= 1000000);
	FUZZ_ASSERT(t->offset_sec % 60 == 0);
	FUZZ_ASSERT(t->offset_sec >= -(15 * 3600 + 59 * 60) &&
				t->offset_sec <= 15 * 3600 + 59 * 60);
}

/*
 * Two parses of timestamps agree field by field (text aside): the first,
 * (sa, a), is the expected one; `what` names the second.
 */
static void
check_ts_same(const char *what, lp_ts_status sa, const lp_ts *a, lp_ts_status sb, const lp_ts *b)
{
	test_diff	d;

	diff_init(&d);
	diff_i(&d, "status", sb, sa);
	if (sa == LP_TS_OK)
	{
		diff_i(&d, "year", b->year, a->year);
		diff_i(&d, "month", b->month, a->month);
		diff_i(&d, "day", b->day, a->day);
		diff_i(&d, "hour", b->hour, a->hour);
		diff_i(&d, "minute", b->minute, a->minute);
		diff_i(&d, "second", b->second, a->second);
		diff_i(&d, "usec", b->usec, a->usec);
		diff_i(&d, "offset_sec", b->offset_sec, a->offset_sec);
	}
	if (d.field)
		diff_abort(&d, "fuzz_formats: timestamp", "%s, its text %s", what,
				   diff_q(b->text, b->text ? b->text_len : 0));
}

/* Write an offset as "+HH:MM" (colon) or "+HHMM" into buf. */
static int
put_offset(char *buf, size_t size, int offset_sec, int colon)
{
	int			a = offset_sec < 0 ? -offset_sec : offset_sec;

	return snprintf(buf, size, colon ? "%c%02d:%02d" : "%c%02d%02d",
					offset_sec < 0 ? '-' : '+', a / 3600, a / 60 % 60);
}

/*
 * An ISO timestamp s[0..len) was parsed with status st into t: on success
 * check the text against the fields position by position, then print the
 * fields back (with and without fraction and offset) and parse them again.
 */
static void
check_iso(const char *s, size_t len, lp_ts_status st, const lp_ts *t)
{
	char		buf[96];
	int			n;
	lp_ts		u;
	lp_ts_status su;
	size_t		i;

	check_ts_fields(st, t, 19);
	FUZZ_ASSERT(t->text == s && t->text_len == len);
	if (st != LP_TS_OK)
		return;
	FUZZ_ASSERT(len >= 19);
	FUZZ_ASSERT(s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':' && s[16] == ':');
	FUZZ_ASSERT(digits_at(s, 4) == t->year && digits_at(s + 5, 2) == t->month &&
				digits_at(s + 8, 2) == t->day && digits_at(s + 11, 2) == t->hour &&
				digits_at(s + 14, 2) == t->minute && digits_at(s + 17, 2) == t->second);
	i = 19;
	if (i < len && s[i] == '.')
	{
		long long	us = 0;
		int			nd = 0;

		for (i++; i < len && is_digit(s[i]); i++, nd++)
		{
			if (nd < 6)
				us = us * 10 + (s[i] - '0');
			else if (nd == 6 && s[i] >= '5')
				us++;
		}
		FUZZ_ASSERT(nd >= 1);
		for (; nd < 6; nd++)
			us *= 10;
		FUZZ_ASSERT(us == t->usec);
	}
	else
		FUZZ_ASSERT(t->usec == 0);
	if (i == len || (s[i] == 'Z' && i + 1 == len))
		FUZZ_ASSERT(t->offset_sec == 0);
	else
	{
		int			sign = s[i] == '-' ? -1 : 1;
		int			mm = 0;

		FUZZ_ASSERT(s[i] == '+' || s[i] == '-');
		FUZZ_ASSERT(len - i == 3 || len - i == 5 || (len - i == 6 && s[i + 3] == ':'));
		if (len - i > 3)
			mm = digits_at(s + len - 2, 2);
		FUZZ_ASSERT(t->offset_sec == sign * (digits_at(s + i + 1, 2) * 3600 + mm * 60));
	}

	/* print and parse again: the same fields (seven digits keep a rounded 1000000) */
	n = snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d",
				 t->year, t->month, t->day, t->hour, t->minute, t->second);
	if (t->usec == 1000000)
		n += snprintf(buf + n, sizeof(buf) - n, ".9999995");
	else
		n += snprintf(buf + n, sizeof(buf) - n, ".%06d", t->usec);
	n += put_offset(buf + n, sizeof(buf) - n, t->offset_sec, t->offset_sec % 120 == 0);
	su = lp_ts_parse_iso(buf, (size_t) n, &u);
	check_ts_same("ISO time printed and parsed again", st, t, su, &u);
	if (t->usec == 0 && t->offset_sec == 0)
	{
		/* the shortest form, and the same with "Z" and a '\r' line end */
		n = snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02dZ\r",
					 t->year, t->month, t->day, t->hour, t->minute, t->second);
		su = lp_ts_parse_iso(buf, (size_t) n - 2, &u);
		check_ts_same("ISO time printed with Z and parsed again", st, t, su, &u);
		su = lp_ts_parse_iso_field(buf, (size_t) n, &u);
		check_ts_same("ISO time printed with Z and CR, parsed as a field", st, t, su, &u);
	}
}

/* The English month abbreviations, in month order. */
static const char *const month_abbrev[12] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
};

/*
 * A common-log-format time s[0..len) was parsed with status st into t: on
 * success check the text position by position, print it back, parse again.
 */
static void
check_clf(const char *s, size_t len, lp_ts_status st, const lp_ts *t)
{
	char		buf[64];
	int			n;
	lp_ts		u;
	lp_ts_status su;
	int			i;

	check_ts_fields(st, t, 21);
	FUZZ_ASSERT(t->text == s && t->text_len == len);
	if (st != LP_TS_OK)
		return;
	FUZZ_ASSERT(t->usec == 0);
	FUZZ_ASSERT(len == 24 || len == 26 || (len == 27 && s[24] == ':'));
	FUZZ_ASSERT(s[2] == '/' && s[6] == '/' && s[11] == ':' && s[14] == ':' &&
				s[17] == ':' && s[20] == ' ' && (s[21] == '+' || s[21] == '-'));
	FUZZ_ASSERT(digits_at(s, 2) == t->day && digits_at(s + 7, 4) == t->year &&
				digits_at(s + 12, 2) == t->hour && digits_at(s + 15, 2) == t->minute &&
				digits_at(s + 18, 2) == t->second);
	for (i = 0; i < 3; i++)
		FUZZ_ASSERT((s[3 + i] | 0x20) == (month_abbrev[t->month - 1][i] | 0x20));
	FUZZ_ASSERT(t->offset_sec == (s[21] == '-' ? -1 : 1) *
				(digits_at(s + 22, 2) * 3600 + (len > 24 ? digits_at(s + len - 2, 2) * 60 : 0)));

	n = snprintf(buf, sizeof(buf), "%02d/%s/%04d:%02d:%02d:%02d ",
				 t->day, month_abbrev[t->month - 1], t->year,
				 t->hour, t->minute, t->second);
	n += put_offset(buf + n, sizeof(buf) - n, t->offset_sec, 0);
	su = lp_ts_parse_clf(buf, (size_t) n, &u);
	check_ts_same("CLF time printed and parsed again", st, t, su, &u);
	FUZZ_ASSERT(u.text == buf && u.text_len == (size_t) n);
}

/* Everything a combined parse found, as offsets into its line (for comparing copies). */
typedef struct cl_snap
{
	lp_status	st;		/* the status */
	ptrdiff_t	route;			/* route offset, -1 when NULL */
	size_t		route_len;		/* route length */
	int64_t		latency;		/* latency when OK, else -1 */
	ptrdiff_t	time;			/* time offset, -1 when NULL */
	size_t		time_len;		/* time length */
	ptrdiff_t	request;		/* request offset, -1 when NULL */
	size_t		request_len;	/* request length */
	ptrdiff_t	bad;			/* bad field offset, -1 when NULL */
	size_t		bad_len;		/* bad field length */
	int			tail_fields;	/* fields after the request */
} cl_snap;

/* Offset of p from base, -1 for NULL. */
static ptrdiff_t
off(const char *p, const char *base)
{
	return p ? p - base : -1;
}

/* Snapshot a parse result relative to its line. */
static cl_snap
snap(lp_status st, const lp_cline *c, const char *line)
{
	cl_snap		s;

	s.st = st;
	/* a route outside the line (the "/" of an absolute form) is -2 */
	s.route = c->route && c->request && (c->route < c->request || c->route > c->request + c->request_len) ?
		-2 : off(c->route, line);
	s.route_len = c->route_len;
	s.latency = st == LP_ST_OK ? c->latency : -1;
	s.time = off(c->time, line);
	s.time_len = c->time_len;
	s.request = off(c->request, line);
	s.request_len = c->request_len;
	s.bad = off(c->bad, line);
	s.bad_len = c->bad_len;
	s.tail_fields = c->tail_fields;
	return s;
}

/* Is st a status about the request time (the last field)? */
static int
latency_status(lp_status st)
{
	return st == LP_ST_OK || st == LP_ST_BAD_SECONDS || st == LP_ST_BAD_MICROS ||
		st == LP_ST_REQTIME_RANGE;
}

/*
 * The request time of a successfully parsed line: the run of digits and
 * dots that ends the line (after trailing blanks and the '\r').  The byte
 * before the field is a blank or a closing quote, neither in the run, so
 * the run is exactly the field.
 */
static void
last_field(const char *line, size_t len, const char **s, size_t *n)
{
	const char *end = line + len;
	const char *p;

	if (len > 0 && end[-1] == '\r')
		end--;
	while (end > line && is_blank(end[-1]))
		end--;
	p = end;
	while (p > line && (is_digit(p[-1]) || p[-1] == '.'))
		p--;
	*s = p;
	*n = (size_t) (end - p);
}

/* Is c an RFC 9110 tchar? */
static int
is_tchar(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ||
		(c != 0 && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/*
 * Invariants of one combined parse of line[0..len) under format f, from
 * the rules of issue 12 written again here: the request is the first '"'
 * at the start of the line or after a blank; the time the last '[' before
 * it up to the first ']' after that.
 */
static void
check_cline(const char *line, size_t len, unsigned f, lp_status st,
			const lp_cline *c)
{
	const char *end = line + len;
	const char *p;
	const char *ro = NULL;
	const char *lb = NULL;
	const char *rb = NULL;
	const char *limit;
	size_t		i;

	if (len > 0 && end[-1] == '\r')
		end--;
	FUZZ_ASSERT(st == LP_ST_OK || st == LP_ST_NO_TIME || st == LP_ST_NO_REQUEST ||
				st == LP_ST_BAD_REQUEST || st == LP_ST_UNTERMINATED ||
				st == LP_ST_TOO_FEW_TAIL_FIELDS || st == LP_ST_BAD_SECONDS ||
				st == LP_ST_BAD_MICROS || st == LP_ST_REQTIME_RANGE || st == LP_ST_NOT_HTTP);
	for (p = line; p < end && !ro; p++)
		if (*p == '"' && (p == line || is_blank(p[-1])))
			ro = p;
	limit = ro ? ro : end;
	for (p = line; p < limit; p++)
		if (*p == '[')
			lb = p;
	if (lb)
		rb = memchr(lb + 1, ']', (size_t) (limit - lb - 1));
	if (!rb)
	{
		FUZZ_ASSERT(st == LP_ST_NO_TIME);
		FUZZ_ASSERT(c->time == NULL && c->request == NULL && c->route == NULL);
		return;
	}
	FUZZ_ASSERT(st != LP_ST_NO_TIME);
	FUZZ_ASSERT(c->time == lb + 1 && c->time_len == (size_t) (rb - lb - 1));
	if (!ro)
	{
		FUZZ_ASSERT(st == LP_ST_NO_REQUEST && c->request == NULL && c->route == NULL);
		return;
	}
	FUZZ_ASSERT(st != LP_ST_NO_REQUEST);
	if (c->request == NULL)
	{
		/* only an unterminated request leaves it unset */
		FUZZ_ASSERT(st == LP_ST_UNTERMINATED && c->route == NULL);
		return;
	}

	/* the request: quoted, opened at ro, no unescaped quote inside */
	FUZZ_ASSERT(c->request == ro + 1);
	FUZZ_ASSERT(inside(c->request, c->request_len, line, (size_t) (end - line)));
	FUZZ_ASSERT(c->request + c->request_len < end && c->request[c->request_len] == '"');
	for (i = 0; i < c->request_len; i++)
	{
		FUZZ_ASSERT(c->request[i] != '"');
		if (c->request[i] == '\\')
			i++;
	}
	FUZZ_ASSERT(i == c->request_len);

	if (st == LP_ST_BAD_REQUEST || st == LP_ST_NOT_HTTP)
	{
		FUZZ_ASSERT(c->tail_fields == 0 && c->bad == NULL);
		if (st == LP_ST_BAD_REQUEST)
			FUZZ_ASSERT(c->route_len == 0 || (c->request_len == 1 && c->request[0] == '-'));
		return;
	}
	/* METHOD SP: one or more tchars and a space */
	for (i = 0; i < c->request_len && is_tchar((unsigned char) c->request[i]); i++)
		;
	FUZZ_ASSERT(i > 0 && i < c->request_len && c->request[i] == ' ');
	FUZZ_ASSERT(!(c->request_len == 14 && memcmp(c->request, "PRI * HTTP/2.0", 14) == 0));
	/* the route: inside the target, or the "/" of an absolute form without a path */
	FUZZ_ASSERT(c->route != NULL && c->route_len > 0);
	if (!inside(c->route, c->route_len, c->request, c->request_len))
		FUZZ_ASSERT(c->route_len == 1 && c->route[0] == '/' && !c->route_slash);
	else
	{
		FUZZ_ASSERT(c->route > c->request + i);
		FUZZ_ASSERT(c->route == c->request + i + 1 || c->route[0] == '/' || c->route[0] == '?');
		FUZZ_ASSERT(!c->route_slash || ((f & LP_PARSE_KEEP_QUERY) && c->route[0] == '?'));
		for (i = 0; i < c->route_len; i++)
		{
			FUZZ_ASSERT(!is_blank(c->route[i]));
			if (!(f & LP_PARSE_KEEP_QUERY))
				FUZZ_ASSERT(c->route[i] != '?');
		}
		p = c->route + c->route_len;
		FUZZ_ASSERT(p == c->request + c->request_len || is_blank(*p) ||
					(!(f & LP_PARSE_KEEP_QUERY) && *p == '?'));
	}

	if (st == LP_ST_UNTERMINATED || st == LP_ST_TOO_FEW_TAIL_FIELDS)
	{
		FUZZ_ASSERT(c->bad == NULL);
		if (st == LP_ST_TOO_FEW_TAIL_FIELDS)
			FUZZ_ASSERT(c->tail_fields >= 0 && c->tail_fields < LP_C_MIN_TAIL_FIELDS);
		return;
	}
	FUZZ_ASSERT(c->tail_fields >= LP_C_MIN_TAIL_FIELDS);
	if (st == LP_ST_OK)
	{
		const char *s;
		size_t		n;
		int64_t		ms = -1;

		FUZZ_ASSERT(c->latency >= 0 && c->bad == NULL);
		last_field(line, len, &s, &n);
		FUZZ_ASSERT(n > 0 && s > c->request + c->request_len);
		FUZZ_ASSERT(is_blank(s[-1]) || s[-1] == '"');
		FUZZ_ASSERT(((f & LP_C_MICROS) ? lp_parse_micros_ms(s, n, &ms) :
					 lp_parse_seconds_ms(s, n, &ms)) == LP_ST_OK);
		FUZZ_ASSERT(ms == c->latency);
		return;
	}
	/* a bad request time: the last field, after the request */
	FUZZ_ASSERT(c->bad != NULL && c->bad_len > 0 &&
				c->bad > c->request + c->request_len &&
				inside(c->bad, c->bad_len, line, (size_t) (end - line)));
	p = c->bad + c->bad_len;
	while (p < end && is_blank(*p))
		p++;
	FUZZ_ASSERT(p == end);
	if (c->bad[0] == '"')
	{
		FUZZ_ASSERT(st == ((f & LP_C_MICROS) ? LP_ST_BAD_MICROS : LP_ST_BAD_SECONDS) &&
					c->bad_len >= 2 &&
					c->bad[c->bad_len - 1] == '"');
	}
	else
	{
		int64_t		ms;

		for (i = 0; i < c->bad_len; i++)
			FUZZ_ASSERT(!is_blank(c->bad[i]));
		FUZZ_ASSERT(((f & LP_C_MICROS) ? lp_parse_micros_ms(c->bad, c->bad_len, &ms) :
					 lp_parse_seconds_ms(c->bad, c->bad_len, &ms)) == st);
	}
}

/*
 * The query-dropping parse d and the query-keeping parse k of one line:
 * the same up to the route, whose dropped form is a prefix of the kept
 * one ending where a '?' starts; past the route, the same answer.
 */
static void
check_query_pair(lp_status sd, const lp_cline *d,
				 lp_status sk, const lp_cline *k)
{
	FUZZ_ASSERT(d->time == k->time && d->time_len == k->time_len);
	FUZZ_ASSERT(d->request == k->request && d->request_len == k->request_len);
	if (k->route_slash)
	{
		/* an absolute form with a query and no path: "/" and "/" + query */
		FUZZ_ASSERT(d->route_len == 1 && d->route[0] == '/');
		FUZZ_ASSERT(k->route_len > 0 && k->route[0] == '?');
	}
	else if (d->route_len == 1 && d->route[0] == '/' && d->route != k->route)
		FUZZ_ASSERT(k->route_len == 1 && k->route[0] == '/');	/* no path, no query */
	else
	{
		FUZZ_ASSERT(d->route == k->route && d->route_len <= k->route_len);
		if (d->route != NULL && d->route_len < k->route_len)
			FUZZ_ASSERT(k->route[d->route_len] == '?');
	}
	if (sd == LP_ST_BAD_REQUEST)
	{
		/* nothing but a query string, or nothing at all */
		FUZZ_ASSERT(sk == LP_ST_BAD_REQUEST || (k->route_len > 0 && k->route[0] == '?'));
		return;
	}
	FUZZ_ASSERT(sd == sk && d->tail_fields == k->tail_fields);
	FUZZ_ASSERT(d->bad == k->bad && d->bad_len == k->bad_len);
	if (sd == LP_ST_OK)
		FUZZ_ASSERT(d->latency == k->latency);
}

/*
 * The seconds parse s (format_names[is]) and the microseconds parse u
 * (format_names[iu]) of one line, the same query handling: identical
 * except for how the request time is read.
 */
static void
check_unit_pair(const char *line, size_t len, int is, lp_status ss, const lp_cline *s,
				int iu, lp_status su, const lp_cline *u)
{
	test_diff	d;

	diff_init(&d);
	diff_slice(&d, "time", line, u->time, u->time_len, s->time, s->time_len);
	diff_slice(&d, "request", line, u->request, u->request_len, s->request, s->request_len);
	diff_slice(&d, "route", line, u->route, u->route_len, s->route, s->route_len);
	diff_i(&d, "tail_fields", u->tail_fields, s->tail_fields);
	if (latency_status(ss) || latency_status(su))
		diff_i(&d, "a status about the request time", latency_status(su), latency_status(ss));
	else
		diff_i(&d, "status", su, ss);
	if (d.field)
		diff_abort(&d, "fuzz_formats: microseconds against seconds",
				   "%s against %s, line %s", format_names[iu], format_names[is],
				   diff_q(line, len));
}

/*
 * Parse line[0..len) with the request time field [fs, fs + fn) replaced
 * by text[0..tn) under format f; buf must hold len + tn bytes.
 */
static lp_status
parse_replaced(const char *line, size_t len, const char *fs, size_t fn,
			   const char *text, size_t tn, unsigned f, char *buf, lp_cline *out)
{
	size_t		pre = (size_t) (fs - line);
	size_t		post = len - pre - fn;

	memcpy(buf, line, pre);
	memcpy(buf + pre, text, tn);
	memcpy(buf + pre + tn, fs + fn, post);
	return lp_parse_combined(buf, pre + tn + post, f, out);
}

/*
 * A line that parsed under format f (a seconds format) or its microseconds
 * twin: rewrite the request time in the other unit, parse again, and the
 * route and latency must not change.
 */
static void
check_unit_rewrite(const char *line, size_t len, unsigned fsec, unsigned fus,
				   lp_status ss, const lp_cline *s,
				   lp_status su, const lp_cline *u)
{
	const char *fs;
	size_t		fn;
	char		text[64];
	int			tn;
	char	   *buf;
	lp_cline	r;
	lp_status	sr;

	if (su == LP_ST_OK)
	{
		int64_t		us;

		/* microseconds -> "S.ffffff": the same milliseconds */
		last_field(line, len, &fs, &fn);
		FUZZ_ASSERT(lp_parse_uint63(fs, fn, &us) == LP_ST_OK);
		tn = snprintf(text, sizeof(text), "%lld.%06lld",
					  (long long) (us / 1000000), (long long) (us % 1000000));
		buf = malloc(len + (size_t) tn);
		sr = parse_replaced(line, len, fs, fn, text, (size_t) tn, fsec, buf, &r);
		FUZZ_ASSERT(sr == LP_ST_OK && r.latency == u->latency);
		FUZZ_ASSERT(snap(sr, &r, buf).route == snap(su, u, line).route && r.route_len == u->route_len);
		free(buf);
	}
	if (ss == LP_ST_OK)
	{
		const char *dot;
		unsigned __int128 us = 0;
		size_t		i;
		int			nd = 0;

		/* "S[.f]" with at most six fraction digits -> microseconds, if they fit */
		last_field(line, len, &fs, &fn);
		dot = memchr(fs, '.', fn);
		if (dot && fn - (size_t) (dot + 1 - fs) > 6)
			return;
		for (i = 0; i < fn; i++)
		{
			if (fs[i] == '.')
				continue;
			us = us * 10 + (unsigned) (fs[i] - '0');
			if (us > (unsigned __int128) INT64_MAX)
				return;
			if (dot && fs + i > dot)
				nd++;
		}
		for (; nd < 6; nd++)
		{
			us *= 10;
			if (us > (unsigned __int128) INT64_MAX)
				return;
		}
		tn = snprintf(text, sizeof(text), "%lld", (long long) us);
		buf = malloc(len + (size_t) tn);
		sr = parse_replaced(line, len, fs, fn, text, (size_t) tn, fus, buf, &r);
		FUZZ_ASSERT(sr == LP_ST_OK && r.latency == s->latency);
		FUZZ_ASSERT(snap(sr, &r, buf).route == snap(ss, s, line).route && r.route_len == s->route_len);
		free(buf);
	}
}

/*
 * A line that parsed under f: rebuild a plain line from its time, route
 * and request time; it must parse to the same route, latency and time.
 */
static void
check_rebuild(const char *line, size_t len, unsigned f, const lp_cline *c)
{
	static const char head[] = "203.0.113.9 - - [";
	static const char mid1[] = "] \"GET ";
	static const char mid2[] = " HTTP/1.1\" 200 512 \"-\" \"Mozilla/5.0 (X11)\" ";
	const char *fs;
	size_t		fn;
	size_t		n;
	char	   *buf;
	char	   *p;
	lp_cline	r;
	lp_status	sr;
	lp_ts		t1,
				t2;
	lp_ts_status st1,
				st2;

	last_field(line, len, &fs, &fn);
	n = strlen(head) + c->time_len + strlen(mid1) + c->route_len + strlen(mid2) + fn;
	buf = malloc(n);
	p = buf;
	memcpy(p, head, strlen(head));
	p += strlen(head);
	memcpy(p, c->time, c->time_len);
	p += c->time_len;
	memcpy(p, mid1, strlen(mid1));
	p += strlen(mid1);
	memcpy(p, c->route, c->route_len);
	p += c->route_len;
	memcpy(p, mid2, strlen(mid2));
	p += strlen(mid2);
	memcpy(p, fs, fn);
	p += fn;
	FUZZ_ASSERT((size_t) (p - buf) == n);
	sr = lp_parse_combined(buf, n, f, &r);
	FUZZ_ASSERT(sr == LP_ST_OK && r.latency == c->latency && r.tail_fields == 5);
	FUZZ_ASSERT(r.route_len == c->route_len && memcmp(r.route, c->route, c->route_len) == 0);
	FUZZ_ASSERT(r.time_len == c->time_len && memcmp(r.time, c->time, c->time_len) == 0);
	st1 = lp_combined_ts(line, len, &t1);
	st2 = lp_combined_ts(buf, n, &t2);
	check_ts_same("the time of a line rebuilt from the parsed parts", st1, &t1, st2, &t2);
	free(buf);
}

/* The name of the build lp_parse_combined runs (LP_ISA_BEST). */
static const char *
best_build_name(void)
{
	return lp_combined_parser(LP_ISA_BEST) == lp_combined_parser(LP_ISA_AVX2) ? "avx2" : "base";
}

/* "fuzz_formats: build NAME", for a report of the best build against the reference. */
static const char *
best_build_prefix(void)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "fuzz_formats: build %s", best_build_name());
	return buf;
}

/* Check every invariant on one input. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *line = (const char *) data;
	lp_cline	c[4];
	lp_status	st[4];
	char	   *copy;
	int			i;
	lp_ts		t;
	lp_ts		t2;
	lp_ts_status ts;
	lp_ts_status ts2;
	lp_line		dl;
	lp_status	ds;
	static int	names_checked = 0;
	test_diff	d;

	if (!names_checked)
	{
		/* the build of the dispatched parsers, chosen once as _PG_init does */
		lp_simd_choose();

		/* the format names round-trip through the lookup */
		for (i = 0; lp_formats[i].name; i++)
		{
			const char *nm = lp_formats[i].name;

			FUZZ_ASSERT(lp_format_lookup(nm, strlen(nm)) == &lp_formats[i]);
			FUZZ_ASSERT(strstr(lp_format_names(), nm) != NULL);
		}
		FUZZ_ASSERT(lp_format_lookup("Combined", 8) == NULL);
		names_checked = 1;
	}

	/* the combined formats, each on its own */
	for (i = 0; i < 4; i++)
	{
		memset(&c[i], 0xA5, sizeof(c[i]));
		st[i] = lp_parse_combined(line, size, combined_formats[i], &c[i]);
		check_cline(line, size, combined_formats[i], st[i], &c[i]);
	}
	/* query dropped vs kept, seconds vs microseconds */
	check_query_pair(st[0], &c[0], st[1], &c[1]);
	check_query_pair(st[2], &c[2], st[3], &c[3]);
	check_unit_pair(line, size, 0, st[0], &c[0], 2, st[2], &c[2]);
	check_unit_pair(line, size, 1, st[1], &c[1], 3, st[3], &c[3]);
	check_unit_rewrite(line, size, FMT_COMBINED, FMT_COMBINED_US,
					   st[0], &c[0], st[2], &c[2]);
	check_unit_rewrite(line, size, FMT_COMBINED_QUERY, FMT_COMBINED_US_QUERY,
					   st[1], &c[1], st[3], &c[3]);
	for (i = 0; i < 4; i++)
		if (st[i] == LP_ST_OK && !c[i].route_slash && snap(st[i], &c[i], line).route != -2)
			check_rebuild(line, size, combined_formats[i], &c[i]);

	/*
	 * every entry with LP_PARSE_FIELDS (logp95_parse): the same status and
	 * route as without it, and the fields it adds inside the line (a status
	 * of three digits); the direct parser counts what the entry counts
	 */
	{
		char	   *fb = malloc(LP_ROUTE_BUF_SIZE(size));
		const lp_format_def *f;

		for (f = lp_formats; f->name; f++)
		{
			lp_parse_ctx plain = {0, fb};
			lp_parse_ctx fields = {LP_PARSE_FIELDS, fb};
			lp_result	a,
						b;
			lp_status	sa = f->parse(line, size, f, &plain, &a);
			lp_status	sb = f->parse(line, size, f, &fields, &b);
			lp_row		row;
			unsigned	dflags;
			lp_direct_fn direct = lp_format_direct(f, 0, &dflags);

			FUZZ_ASSERT(sa == sb && (sa != LP_ST_OK || (a.route_len == b.route_len &&
														 memcmp(a.route, b.route, a.route_len) == 0 &&
														 a.latency == b.latency)));
			/* (a preset or JSON line's route may say that unescaping made a high byte) */
			FUZZ_ASSERT((b.has & ~(f->has | LP_HAS_ROUTE_HIGH)) == 0 && (a.has & ~b.has) == 0);
			/* fields lie in the line, or (decoded JSON strings) in the scratch */
			if (b.has & LP_HAS_METHOD)
				FUZZ_ASSERT(b.method_len > 0 && (inside(b.method, b.method_len, line, size) ||
												 inside(b.method, b.method_len, fb, LP_ROUTE_BUF_SIZE(size))));
			if (b.has & LP_HAS_TIME)
				FUZZ_ASSERT(inside(b.time, b.time_len, line, size) || b.time_len == 0 ||
							inside(b.time, b.time_len, fb, LP_ROUTE_BUF_SIZE(size)));
			if (b.has & LP_HAS_STATUS)
				FUZZ_ASSERT(b.status >= 100 && b.status <= 999);
			/* only the built-in formats have a direct parser */
			FUZZ_ASSERT((direct != NULL) == (f->direct != NULL));
			if (direct && direct(line, size, dflags, &row))
				FUZZ_ASSERT(sa == LP_ST_OK && row.route == a.route && row.route_len == a.route_len &&
							row.latency == a.latency);
		}
		free(fb);
	}

	/* route templates and options on the raw input: within bounds, idempotent */
	{
		char	   *tb = malloc(LP_ROUTE_BUF_SIZE(size));
		char	   *tb2 = malloc(LP_ROUTE_BUF_SIZE(LP_ROUTE_BUF_SIZE(size)));
		size_t		tn = lp_route_template(line, size, 0, 1, tb);
		unsigned	fl;
		const char *w;
		size_t		wn;
		lp_opts_status os;

		FUZZ_ASSERT(tn <= LP_ROUTE_BUF_SIZE(size));
		if (tn > 0)
			FUZZ_ASSERT(lp_route_template(tb, tn, 0, 1, tb2) == 0);	/* nothing left to fold */
		tn = lp_route_template(line, size, 1, 0, tb);
		FUZZ_ASSERT(tn == size + 1 && tb[0] == '/' && memcmp(tb + 1, line, size) == 0);
		free(tb);
		free(tb2);
		os = lp_parse_options(line, size, &fl, &w, &wn);
		FUZZ_ASSERT(os == LP_OPTS_OK || inside(w, wn, line, size));
	}

	/*
	 * a copy of the line parses the same, slices at the same offsets, with
	 * the base build (lp_parse_combined above is the best one: AVX2 where
	 * the CPU has it), so every build meets the reference below
	 */
	copy = malloc(size ? size : 1);
	memcpy(copy, line, size);
	for (i = 0; i < 4; i++)
	{
		lp_cline	cc;
		lp_status	sc = lp_combined_parser(LP_ISA_BASE)(copy, size, combined_formats[i], &cc);
		cl_snap		a = snap(st[i], &c[i], line);
		cl_snap		b = snap(sc, &cc, copy);

		diff_init(&d);
		diff_i(&d, "status", b.st, a.st);
		diff_i(&d, "route offset (-2: outside the request)", b.route, a.route);
		diff_u(&d, "route length", b.route_len, a.route_len);
		diff_i(&d, "latency", b.latency, a.latency);
		diff_i(&d, "time offset", b.time, a.time);
		diff_u(&d, "time length", b.time_len, a.time_len);
		diff_i(&d, "request offset", b.request, a.request);
		diff_u(&d, "request length", b.request_len, a.request_len);
		diff_i(&d, "bad field offset", b.bad, a.bad);
		diff_u(&d, "bad field length", b.bad_len, a.bad_len);
		diff_i(&d, "tail_fields", b.tail_fields, a.tail_fields);
		if (d.field)
			diff_abort(&d, "fuzz_formats: build base on a copy",
					   "expected: build %s on the input; format %s, line %s", best_build_name(),
					   format_names[i], diff_q(line, size));
	}

	/* the fast parser = the byte-by-byte reference, every field, same slices */
	for (i = 0; i < 4; i++)
	{
		lp_cline	rc;
		lp_status	rs;
		lp_ts		rt;

		memset(&rc, 0x5A, sizeof(rc));
		rs = ref_parse_combined(line, size, combined_formats[i], &rc);
		diff_init(&d);
		diff_i(&d, "status", st[i], rs);
		diff_slice(&d, "time", line, c[i].time, c[i].time_len, rc.time, rc.time_len);
		diff_slice(&d, "request", line, c[i].request, c[i].request_len, rc.request, rc.request_len);
		/* the same slice of the line, or the same constant ("/") */
		if (rc.route && c[i].route && !inside(rc.route, rc.route_len, line, size) &&
			!inside(c[i].route, c[i].route_len, line, size))
			diff_text(&d, "route", c[i].route, c[i].route_len, rc.route, rc.route_len);
		else
			diff_slice(&d, "route", line, c[i].route, c[i].route_len, rc.route, rc.route_len);
		diff_i(&d, "route_slash", c[i].route_slash, rc.route_slash);
		if (rs == LP_ST_OK)
			diff_i(&d, "latency", c[i].latency, rc.latency);
		diff_slice(&d, "bad", line, c[i].bad, c[i].bad_len, rc.bad, rc.bad_len);
		diff_i(&d, "tail_fields", c[i].tail_fields, rc.tail_fields);
		if (i == 0)
		{
			lp_ts		ft;
			lp_ts_status fs = lp_combined_ts(line, size, &ft);

			memset(&rt, 0, sizeof(rt));
			diff_i(&d, "lp_combined_ts status", fs, ref_combined_ts(line, size, &rt));
			diff_slice(&d, "lp_combined_ts text", line, ft.text, ft.text_len, rt.text, rt.text_len);
		}
		if (d.field)
			diff_abort(&d, best_build_prefix(), "format %s, line %s", format_names[i],
					   diff_q(line, size));
	}

	/* the time of a combined line: the parser's "[...]" field, read as CLF */
	ts = lp_combined_ts(line, size, &t);
	check_ts_fields(ts, &t, 21);
	if (st[0] == LP_ST_NO_TIME)
		FUZZ_ASSERT(ts == LP_TS_MISSING && t.text == NULL);
	else
	{
		FUZZ_ASSERT(t.text == c[0].time && t.text_len == c[0].time_len);
		check_clf(t.text, t.text_len, ts, &t);
		ts2 = lp_combined_ts(copy, size, &t2);
		check_ts_same("lp_combined_ts of a copy of the line", ts, &t, ts2, &t2);
		FUZZ_ASSERT(t2.text - copy == t.text - line);
	}

	/* the timestamp parsers on the whole input */
	ts = lp_ts_parse_iso(line, size, &t);
	check_iso(line, size, ts, &t);
	ts2 = lp_ts_parse_iso(copy, size, &t2);
	check_ts_same("lp_ts_parse_iso of a copy of the input", ts, &t, ts2, &t2);
	ts = lp_ts_parse_clf(line, size, &t);
	check_clf(line, size, ts, &t);

	/* the ISO timestamp as the first field of a default-format line */
	ts = lp_ts_parse_iso_field(line, size, &t);
	FUZZ_ASSERT(t.text != NULL && inside(t.text, t.text_len, line, size));
	{
		const char *end = line + size;
		const char *p = line;

		if (size > 0 && end[-1] == '\r')
			end--;
		while (p < end && is_blank(*p))
			p++;
		FUZZ_ASSERT(t.text == p);
		FUZZ_ASSERT(t.text + t.text_len == end || is_blank(t.text[t.text_len]));
		for (p = t.text; p < t.text + t.text_len; p++)
			FUZZ_ASSERT(!is_blank(*p));
		check_iso(t.text, t.text_len, ts, &t);
		FUZZ_ASSERT((ts == LP_TS_MISSING) == (t.text_len == 0));
	}

	/* the default format's parser, whose route is its third field */
	ds = lp_parse_line(line, size, &dl);
	FUZZ_ASSERT(ds == LP_ST_OK || ds == LP_ST_TOO_FEW_FIELDS ||
				ds == LP_ST_BAD_LATENCY || ds == LP_ST_LATENCY_RANGE);
	if (ds == LP_ST_OK)
		FUZZ_ASSERT(dl.latency >= 0 && inside(dl.route, dl.route_len, line, size));

	/* the request-time converters on the whole input */
	check_request_time(line, size);
	free(copy);
	return 0;
}
