/* test/unit/ref_combined.h -- the reference combined-format parser the unit tests and the fuzzer compare lp_parse_combined with */
#ifndef REF_COMBINED_H
#define REF_COMBINED_H

#include <stdint.h>
#include <string.h>

#include "lp_combined.h"
#include "lp_units.h"

/*
 * The byte-by-byte combined parser of commit c45f4f1, kept verbatim (names
 * prefixed ref_c_) as the reference of the fast lp_parse_combined: the same
 * rules read the plainest way.  The seconds converter is the general loop
 * of that commit (ref_c_seconds_ms: lp_parse_seconds_ms has a fast path
 * since); the microseconds one is the library's (lp_parse_micros_ms, over
 * lp_parse_uint63, tested on its own).
 */

/* A request time in seconds to milliseconds, the general loop (c45f4f1). */
static inline lp_status
ref_c_seconds_ms(const char *s, size_t len, int64_t *ms)
{
	const char *p = s;
	const char *end = s + len;
	uint64_t	ip = 0;
	uint64_t	frac = 0;
	int			ndig = 0;
	int			round_up = 0;

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


/*
 * The '"' that opens the request: the first '"' at the start of the line or
 * after a blank, or NULL.  Such a '"' is never escaped (the byte before it
 * is not a backslash), and nginx escapes the '"' of a user name.
 */
static inline const char *
ref_c_find_request(const char *line, const char *end)
{
	const char *p = line;

	while (p < end)
	{
		const char *q = memchr(p, '"', (size_t) (end - p));

		if (!q)
			return NULL;
		if (q == line || LP_IS_BLANK(q[-1]))
			return q;
		p = q + 1;
	}
	return NULL;
}

/*
 * Find the "[...]" field before limit (the request's quote, or the end of
 * the line): the last '[' before limit and the first ']' after it.  Returns
 * the byte after ']' or NULL.
 */
static inline const char *
ref_c_find_time(const char *line, const char *limit, const char **time, size_t *time_len)
{
	const char *lb = NULL;
	const char *p = line;
	const char *x;
	const char *rb;

	/* forward with memchr: a line has few '[', and this is faster than a byte loop back */
	while (p < limit && (x = memchr(p, '[', (size_t) (limit - p))) != NULL)
	{
		lb = x + 1;
		p = lb;
	}
	if (!lb)
		return NULL;
	rb = memchr(lb, ']', (size_t) (limit - lb));
	if (!rb)
		return NULL;
	*time = lb;
	*time_len = (size_t) (rb - lb);
	return rb + 1;
}

/*
 * p points at an opening '"': return the closing '"' (a backslash escapes
 * the byte after it), or NULL when the line ends first.
 */
static inline const char *
ref_c_close_quote(const char *p, const char *end)
{
	p++;
	while (p < end)
	{
		if (*p == '\\')
		{
			if (end - p < 2)
				return NULL;
			p += 2;
		}
		else if (*p == '"')
			return p;
		else
			p++;
	}
	return NULL;
}

/* RFC 9110 tchar: the bytes of an HTTP method. */
static const unsigned char ref_c_tchar[256] = {
	['!'] = 1,['#'] = 1,['$'] = 1,['%'] = 1,['&'] = 1,['\''] = 1,['*'] = 1,
	['+'] = 1,['-'] = 1,['.'] = 1,['^'] = 1,['_'] = 1,['`'] = 1,['|'] = 1,['~'] = 1,
	['0'] = 1,['1'] = 1,['2'] = 1,['3'] = 1,['4'] = 1,['5'] = 1,['6'] = 1,['7'] = 1,
	['8'] = 1,['9'] = 1,
	['A'] = 1,['B'] = 1,['C'] = 1,['D'] = 1,['E'] = 1,['F'] = 1,['G'] = 1,['H'] = 1,
	['I'] = 1,['J'] = 1,['K'] = 1,['L'] = 1,['M'] = 1,['N'] = 1,['O'] = 1,['P'] = 1,
	['Q'] = 1,['R'] = 1,['S'] = 1,['T'] = 1,['U'] = 1,['V'] = 1,['W'] = 1,['X'] = 1,
	['Y'] = 1,['Z'] = 1,
	['a'] = 1,['b'] = 1,['c'] = 1,['d'] = 1,['e'] = 1,['f'] = 1,['g'] = 1,['h'] = 1,
	['i'] = 1,['j'] = 1,['k'] = 1,['l'] = 1,['m'] = 1,['n'] = 1,['o'] = 1,['p'] = 1,
	['q'] = 1,['r'] = 1,['s'] = 1,['t'] = 1,['u'] = 1,['v'] = 1,['w'] = 1,['x'] = 1,
	['y'] = 1,['z'] = 1
};

/* Is c a byte of a URI scheme after its first letter (ALPHA DIGIT + - .)? */
static inline int
ref_c_is_scheme(unsigned char c)
{
	return (unsigned) ((c | 0x20) - 'a') <= 25 || (unsigned) (c - '0') <= 9 ||
		c == '+' || c == '-' || c == '.';
}

/*
 * The route of the request text rq[0..rq_end): METHOD SP TARGET [...].
 * Sets out->route, out->route_len and out->route_slash.
 */
static inline lp_status
ref_c_request_route(const char *rq, const char *rq_end, unsigned flags, lp_cline *out)
{
	const char *m = rq;
	const char *t;
	const char *te;

	while (m < rq_end && ref_c_tchar[(unsigned char) *m])
		m++;
	if (m == rq_end && rq_end - rq == 1 && *rq == '-')
		return LP_ST_BAD_REQUEST;	/* nginx's "-": no request line */
	if (m == rq || m == rq_end || *m != ' ')
		return LP_ST_NOT_HTTP;
	t = m + 1;
	te = t;
	while (te < rq_end && !LP_IS_BLANK(*te))
		te++;
	if (te == t)
		return LP_ST_NOT_HTTP;
	/* the HTTP/2 connection preface, sent to an HTTP/1 port */
	if (m - rq == 3 && memcmp(rq, "PRI", 3) == 0 && te - t == 1 && *t == '*' &&
		rq_end - te == 9 && memcmp(te, " HTTP/2.0", 9) == 0)
		return LP_ST_NOT_HTTP;

	/* absolute form, scheme://authority[/path][?query]: the path counts */
	if ((unsigned) ((*t | 0x20) - 'a') <= 25)
	{
		const char *s = t + 1;

		while (s < te && ref_c_is_scheme((unsigned char) *s))
			s++;
		if (te - s >= 3 && s[0] == ':' && s[1] == '/' && s[2] == '/')
		{
			s += 3;
			while (s < te && *s != '/' && *s != '?')
				s++;
			if (s == te || (*s == '?' && !(flags & LP_PARSE_KEEP_QUERY)))
			{
				out->route = "/";
				out->route_len = 1;
				return LP_ST_OK;
			}
			out->route_slash = *s == '?';
			t = s;
		}
	}
	out->route = t;
	out->route_len = (size_t) (te - t);
	if (!(flags & LP_PARSE_KEEP_QUERY))
	{
		const char *qm = memchr(t, '?', (size_t) (te - t));

		if (qm)
			out->route_len = (size_t) (qm - t);
	}
	if (out->route_len == 0)
		return LP_ST_BAD_REQUEST;
	return LP_ST_OK;
}

/*
 * The reference: lp_parse_combined as it was written byte by byte
 * (commit c45f4f1); the fast path must agree with it on every input.
 */
static inline lp_status
ref_parse_combined(const char *line, size_t len, unsigned flags, lp_cline *out)
{
	const char *end = line + len;
	const char *p;
	const char *q;
	const char *rq;
	const char *last = NULL;
	size_t		last_len = 0;
	int			last_quoted = 0;
	lp_status	st;

	out->route = NULL;
	out->route_len = 0;
	out->time = NULL;
	out->time_len = 0;
	out->request = NULL;
	out->request_len = 0;
	out->bad = NULL;
	out->bad_len = 0;
	out->tail_fields = 0;
	out->route_slash = 0;
	if (len > 0 && end[-1] == '\r')
		end--;

	/* "request": the first field opened by a '"'; [time]: the last '[' before it */
	rq = ref_c_find_request(line, end);
	if (!ref_c_find_time(line, rq ? rq : end, &out->time, &out->time_len))
		return LP_ST_NO_TIME;
	if (!rq)
		return LP_ST_NO_REQUEST;
	q = ref_c_close_quote(rq, end);
	if (!q)
		return LP_ST_UNTERMINATED;
	out->request = rq + 1;
	out->request_len = (size_t) (q - rq - 1);
	st = ref_c_request_route(out->request, q, flags, out);
	if (st != LP_ST_OK)
		return st;

	/* status size "referer" "agent" ... request-time: the last field counts */
	p = q + 1;
	for (;;)
	{
		while (p < end && LP_IS_BLANK(*p))
			p++;
		if (p == end)
			break;
		if (*p == '"')
		{
			q = ref_c_close_quote(p, end);
			if (!q)
				return LP_ST_UNTERMINATED;
			last = p;
			last_len = (size_t) (q + 1 - p);
			last_quoted = 1;
			p = q + 1;
		}
		else
		{
			last = p;
			while (p < end && !LP_IS_BLANK(*p))
				p++;
			last_len = (size_t) (p - last);
			last_quoted = 0;
		}
		out->tail_fields++;
	}
	if (out->tail_fields < LP_C_MIN_TAIL_FIELDS)
		return LP_ST_TOO_FEW_TAIL_FIELDS;
	if (last_quoted)
		st = (flags & LP_C_MICROS) ? LP_ST_BAD_MICROS : LP_ST_BAD_SECONDS;
	else if (flags & LP_C_MICROS)
		st = lp_parse_micros_ms(last, last_len, &out->latency);
	else
		st = ref_c_seconds_ms(last, last_len, &out->latency);
	if (st != LP_ST_OK)
	{
		out->bad = last;
		out->bad_len = last_len;
	}
	return st;
}

/* lp_combined_ts as it was: the reference's time field, then the CLF reader. */
static inline lp_ts_status
ref_combined_ts(const char *line, size_t len, lp_ts *out)
{
	const char *end = line + len;
	const char *time;
	size_t		time_len;
	const char *rq;

	if (len > 0 && end[-1] == '\r')
		end--;
	rq = ref_c_find_request(line, end);
	if (!ref_c_find_time(line, rq ? rq : end, &time, &time_len))
	{
		out->text = NULL;
		out->text_len = 0;
		return LP_TS_MISSING;
	}
	return lp_ts_parse_clf(time, time_len, out);
}

#endif							/* REF_COMBINED_H */
