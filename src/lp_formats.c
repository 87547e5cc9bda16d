/* src/lp_formats.c -- the table of access-log formats and the combined-format parser (plain C) */
#include "lp_formats.h"

static lp_line_status lp_default_parse(const char *line, size_t len,
									   const lp_format_def *fmt, lp_fields *out);
static lp_line_status lp_combined_parse(const char *line, size_t len,
										const lp_format_def *fmt, lp_fields *out);

/* How the timestamps are written, for error hints. */
#define LP_HINT_ISO "The first field of a line is written as YYYY-MM-DDTHH:MM:SS, optionally followed by a fraction of a second and by Z or a UTC offset such as +02:00."
#define LP_HINT_CLF "The time of a combined-format line is written as [DD/Mon/YYYY:HH:MM:SS +HHMM]."

/* See lp_formats.h: every format logp95 reads. */
const lp_format_def lp_formats[] = {
	/* "<timestamp> <method> <route> <latency_ms>" */
	{"default", lp_default_parse, lp_ts_parse_iso_field, 0, LP_HINT_ISO},
	/* combined + request time in seconds, query string dropped */
	{"combined", lp_combined_parse, lp_combined_ts, 0, LP_HINT_CLF},
	/* the same, query string kept in the route */
	{"combined_query", lp_combined_parse, lp_combined_ts, LP_FMT_KEEP_QUERY, LP_HINT_CLF},
	/* combined + Apache %D microseconds, query string dropped */
	{"combined_us", lp_combined_parse, lp_combined_ts, LP_FMT_MICROS, LP_HINT_CLF},
	/* the same, query string kept in the route */
	{"combined_us_query", lp_combined_parse, lp_combined_ts,
	LP_FMT_MICROS | LP_FMT_KEEP_QUERY, LP_HINT_CLF},
	{NULL, NULL, NULL, 0, NULL}
};

/* Room for every name and its ", " (the table is checked against it). */
#define LP_FORMAT_NAMES_MAX 256

/* See lp_formats.h. */
const lp_format_def *
lp_format_lookup(const char *name, size_t len)
{
	const lp_format_def *f;

	for (f = lp_formats; f->name; f++)
	{
		if (strlen(f->name) == len && memcmp(f->name, name, len) == 0)
			return f;
	}
	return NULL;
}

/* See lp_formats.h: built from the table on the first call. */
const char *
lp_format_names(void)
{
	static char names[LP_FORMAT_NAMES_MAX];
	const lp_format_def *f;
	size_t		n = 0;

	if (names[0])
		return names;
	for (f = lp_formats; f->name; f++)
	{
		size_t		len = strlen(f->name);

		if (n + len + 3 > sizeof(names))
			break;				/* cannot happen with the table above */
		if (n > 0)
		{
			memcpy(names + n, ", ", 2);
			n += 2;
		}
		memcpy(names + n, f->name, len);
		n += len;
	}
	names[n] = '\0';
	return names;
}

/* The default format's entry: lp_parse_line, its statuses renamed. */
static lp_line_status
lp_default_parse(const char *line, size_t len, const lp_format_def *fmt, lp_fields *out)
{
	lp_line		pl;
	lp_parse_status st = lp_parse_line(line, len, &pl);
	lp_fields	f = {pl.route, pl.route_len, pl.latency, pl.bad, pl.bad_len,
	LP_LINE_FIELDS, pl.nfields};

	*out = f;
	switch (st)
	{
		case LP_PARSE_OK:
			return LP_LINE_OK;
		case LP_PARSE_TOO_FEW_FIELDS:
			return LP_LINE_TOO_FEW_FIELDS;
		case LP_PARSE_LATENCY_RANGE:
			return LP_LINE_LATENCY_RANGE;
		case LP_PARSE_BAD_LATENCY:
			break;
	}
	return LP_LINE_BAD_LATENCY;
}

/* The combined formats' entries: lp_parse_combined with the entry's flags. */
static lp_line_status
lp_combined_parse(const char *line, size_t len, const lp_format_def *fmt, lp_fields *out)
{
	lp_cline	cl;
	lp_cparse_status st = lp_parse_combined(line, len, fmt->flags, &cl);
	int			noreq = st == LP_C_BAD_REQUEST;
	lp_fields	f = {cl.route, cl.route_len, cl.latency,
		/* the field an error is about: the request when it has no path */
		noreq ? cl.request : cl.bad, noreq ? cl.request_len : cl.bad_len,
	LP_C_MIN_TAIL_FIELDS, cl.tail_fields};

	*out = f;
	switch (st)
	{
		case LP_C_OK:
			return LP_LINE_OK;
		case LP_C_NO_TIME:
			return LP_LINE_NO_TIME;
		case LP_C_NO_REQUEST:
			return LP_LINE_NO_REQUEST;
		case LP_C_BAD_REQUEST:
			return LP_LINE_BAD_REQUEST;
		case LP_C_UNTERMINATED:
			return LP_LINE_UNTERMINATED;
		case LP_C_TOO_FEW_FIELDS:
			return LP_LINE_TOO_FEW_TAIL_FIELDS;
		case LP_C_LATENCY_RANGE:
			return LP_LINE_REQTIME_RANGE;
		case LP_C_BAD_LATENCY:
			break;
	}
	return (fmt->flags & LP_FMT_MICROS) ? LP_LINE_BAD_MICROS : LP_LINE_BAD_SECONDS;
}

/* See lp_formats.h. */
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

/* See lp_formats.h. */
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

/* See lp_formats.h. */
lp_cparse_status
lp_parse_combined(const char *line, size_t len, unsigned flags, lp_cline *out)
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
	if (!(flags & LP_FMT_KEEP_QUERY))
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
	else if (flags & LP_FMT_MICROS)
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

/* See lp_formats.h. */
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
