/* src/lp_formats.c -- access-log formats beyond the default (plain C, no PostgreSQL headers) */
#include "lp_formats.h"

#include <string.h>

#include "lp_parse.h"

/* A field separator: space or tab. */
#define LP_IS_BLANK(c) ((c) == ' ' || (c) == '\t')

/* Names of the formats, in lp_format order. */
static const char *const lp_format_name_list[LP_FMT_COUNT] = {
	"default",
	"combined",
	"combined_query",
	"combined_us",
	"combined_us_query"
};

int
lp_format_lookup(const char *name, size_t len)
{
	int			i;

	for (i = 0; i < LP_FMT_COUNT; i++)
	{
		if (strlen(lp_format_name_list[i]) == len &&
			memcmp(lp_format_name_list[i], name, len) == 0)
			return i;
	}
	return -1;
}

const char *
lp_format_name(lp_format f)
{
	if ((int) f < 0 || f >= LP_FMT_COUNT)
		return "unknown";
	return lp_format_name_list[f];
}

const char *
lp_format_names(void)
{
	return "default, combined, combined_query, combined_us, combined_us_query";
}

int
lp_format_keeps_query(lp_format f)
{
	return f == LP_FMT_COMBINED_QUERY || f == LP_FMT_COMBINED_US_QUERY;
}

int
lp_format_micros(lp_format f)
{
	return f == LP_FMT_COMBINED_US || f == LP_FMT_COMBINED_US_QUERY;
}

lp_cparse_status
lp_parse_seconds_ms(const char *s, size_t len, int64_t *ms)
{
	const char *p = s;
	const char *end = s + len;
	uint64_t	ip = 0;
	uint64_t	frac = 0;
	int			ndig = 0;
	int			round_up = 0;

	if (p == end || (unsigned) ((unsigned char) *p - '0') > 9)
		return LP_C_BAD_LATENCY;
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
			return LP_C_BAD_LATENCY;
		p++;
		if (p == end)
			return LP_C_BAD_LATENCY;
		while (p < end)
		{
			unsigned	d = (unsigned char) *p - '0';

			if (d > 9)
				return LP_C_BAD_LATENCY;
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
		return LP_C_LATENCY_RANGE;
	*ms = (int64_t) (ip * 1000 + frac + (uint64_t) round_up);
	return LP_C_OK;
}

lp_cparse_status
lp_parse_micros_ms(const char *s, size_t len, int64_t *ms)
{
	int64_t		us;
	lp_parse_status st = lp_parse_uint63(s, len, &us);

	if (st == LP_PARSE_LATENCY_RANGE)
		return LP_C_LATENCY_RANGE;
	if (st != LP_PARSE_OK)
		return LP_C_BAD_LATENCY;
	*ms = us / 1000 + (us % 1000 >= 500 ? 1 : 0);
	return LP_C_OK;
}

/*
 * Find the "[...]" field: skip leading blanks and the client address, then
 * take the first '[' and the next ']'.  Returns the byte after ']' or NULL.
 */
static const char *
lp_find_time(const char *line, const char *end, const char **time, size_t *time_len)
{
	const char *p = line;
	const char *lb;
	const char *rb;

	while (p < end && LP_IS_BLANK(*p))
		p++;
	while (p < end && !LP_IS_BLANK(*p))
		p++;
	lb = p < end ? memchr(p, '[', (size_t) (end - p)) : NULL;
	if (!lb)
		return NULL;
	rb = memchr(lb + 1, ']', (size_t) (end - lb - 1));
	if (!rb)
		return NULL;
	*time = lb + 1;
	*time_len = (size_t) (rb - lb - 1);
	return rb + 1;
}

/*
 * p points at an opening '"': return the closing '"' (a backslash escapes
 * the byte after it), or NULL when the line ends first.
 */
static const char *
lp_close_quote(const char *p, const char *end)
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

lp_cparse_status
lp_parse_combined(const char *line, size_t len, lp_format f, lp_cline *out)
{
	const char *end = line + len;
	const char *p;
	const char *q;
	const char *rq;
	const char *rq_end;
	const char *last = NULL;
	size_t		last_len = 0;
	int			last_quoted = 0;
	lp_cparse_status st;

	out->route = NULL;
	out->route_len = 0;
	out->time = NULL;
	out->time_len = 0;
	out->request = NULL;
	out->request_len = 0;
	out->bad = NULL;
	out->bad_len = 0;
	out->tail_fields = 0;
	if (len > 0 && end[-1] == '\r')
		end--;

	/* [time] */
	p = lp_find_time(line, end, &out->time, &out->time_len);
	if (!p)
		return LP_C_NO_TIME;

	/* "request" */
	while (p < end && LP_IS_BLANK(*p))
		p++;
	if (p == end || *p != '"')
		return LP_C_NO_REQUEST;
	q = lp_close_quote(p, end);
	if (!q)
		return LP_C_UNTERMINATED;
	out->request = p + 1;
	out->request_len = (size_t) (q - p - 1);

	/* method, then the request target: the route */
	rq = out->request;
	rq_end = q;
	while (rq < rq_end && LP_IS_BLANK(*rq))
		rq++;
	while (rq < rq_end && !LP_IS_BLANK(*rq))
		rq++;
	while (rq < rq_end && LP_IS_BLANK(*rq))
		rq++;
	out->route = rq;
	while (rq < rq_end && !LP_IS_BLANK(*rq))
		rq++;
	out->route_len = (size_t) (rq - out->route);
	if (!lp_format_keeps_query(f))
	{
		const char *qm = out->route_len > 0 ?
			memchr(out->route, '?', out->route_len) : NULL;

		if (qm)
			out->route_len = (size_t) (qm - out->route);
	}
	if (out->route_len == 0)
		return LP_C_BAD_REQUEST;

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
			q = lp_close_quote(p, end);
			if (!q)
				return LP_C_UNTERMINATED;
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
		return LP_C_TOO_FEW_FIELDS;
	if (last_quoted)
		st = LP_C_BAD_LATENCY;
	else if (lp_format_micros(f))
		st = lp_parse_micros_ms(last, last_len, &out->latency);
	else
		st = lp_parse_seconds_ms(last, last_len, &out->latency);
	if (st != LP_C_OK)
	{
		out->bad = last;
		out->bad_len = last_len;
	}
	return st;
}

lp_ts_status
lp_combined_ts(const char *line, size_t len, lp_ts *out)
{
	const char *end = line + len;
	const char *time;
	size_t		time_len;

	if (len > 0 && end[-1] == '\r')
		end--;
	if (!lp_find_time(line, end, &time, &time_len))
	{
		out->field = LP_TS_F_NONE;
		out->text = NULL;
		out->text_len = 0;
		return LP_TS_MISSING;
	}
	return lp_ts_parse_clf(time, time_len, out);
}
