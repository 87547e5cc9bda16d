/* src/lp_token.c -- tokenizers every format shares: the HTTP request line, routes, logged escapes, latencies (plain C) */
#include "lp_token.h"

#include "lp_parse.h"
#include "lp_templates.h"
#include "lp_units.h"

/* ---------- escapes ---------- */

/* The value of hex digit c, or -1. */
static inline int
lp_hexval(unsigned char c)
{
	if ((unsigned) (c - '0') <= 9)
		return c - '0';
	if ((unsigned) ((c | 0x20) - 'a') <= 5)
		return (c | 0x20) - 'a' + 10;
	return -1;
}

/* The value of the four hex digits at s, or -1. */
static inline long
lp_hex4(const char *s)
{
	long		v = 0;
	int			i;

	for (i = 0; i < 4; i++)
	{
		int			d = lp_hexval((unsigned char) s[i]);

		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* Write code point cp (< 0x110000, no surrogate) as UTF-8 at o; returns the bytes written. */
static inline size_t
lp_utf8_put(long cp, char *o)
{
	if (cp < 0x80)
	{
		o[0] = (char) cp;
		return 1;
	}
	if (cp < 0x800)
	{
		o[0] = (char) (0xC0 | (cp >> 6));
		o[1] = (char) (0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000)
	{
		o[0] = (char) (0xE0 | (cp >> 12));
		o[1] = (char) (0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char) (0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char) (0xF0 | (cp >> 18));
	o[1] = (char) (0x80 | ((cp >> 12) & 0x3F));
	o[2] = (char) (0x80 | ((cp >> 6) & 0x3F));
	o[3] = (char) (0x80 | (cp & 0x3F));
	return 4;
}

/*
 * The byte that the two hex digits at s (before e) spell, into *o, *high
 * set when it is >= 0x80: 1; 0 when there are not two hex digits there or
 * they spell 00 (no text holds a NUL: the escape stays as logged).
 */
static inline int
lp_hex_byte(const char *s, const char *e, char *o, int *high)
{
	int			h,
				l;

	if (e - s < 2 || (h = lp_hexval((unsigned char) s[0])) < 0 ||
		(l = lp_hexval((unsigned char) s[1])) < 0 || (h | l) == 0)
		return 0;
	*o = (char) (h * 16 + l);
	if (h >= 8)
		*high = 1;
	return 1;
}

/* See lp_token.h (no escape is shorter than what it writes, so o may lag s in place). */
size_t
lp_unescape_one(const char *s, const char *e, lp_escape esc, char *o, size_t *used, int *high)
{
	unsigned char c;

	if (e - s < 2)
		return 0;
	c = (unsigned char) s[1];
	if (esc == LP_ESC_HASH || esc == LP_ESC_PERCENT)
	{
		/* the mark and two hex digits */
		if (!lp_hex_byte(s + 1, e, o, high))
			return 0;
		*used = 3;
		return 1;
	}
	if (c == 'x' && esc != LP_ESC_JSON)
	{
		/* \x and two hex digits */
		if (!lp_hex_byte(s + 2, e, o, high))
			return 0;
		*used = 4;
		return 1;
	}
	if (esc == LP_ESC_NGINX)
		return 0;				/* nginx escapes nothing else */
	*used = 2;
	switch (c)
	{
		case '"':
		case '\\':
			*o = (char) c;
			return 1;
		case 'b':
			*o = '\b';
			return 1;
		case 'n':
			*o = '\n';
			return 1;
		case 'r':
			*o = '\r';
			return 1;
		case 't':
			*o = '\t';
			return 1;
		case 'f':
			if (esc != LP_ESC_JSON)
				return 0;
			*o = '\f';
			return 1;
		case '/':
			if (esc != LP_ESC_JSON)
				return 0;
			*o = '/';
			return 1;
		case 'v':
			if (esc != LP_ESC_APACHE)
				return 0;
			*o = '\v';
			return 1;
		case 'u':
			{
				long		cp,
							lo;

				if (esc != LP_ESC_JSON || e - s < 6 || (cp = lp_hex4(s + 2)) <= 0)
					return 0;	/* not \uXXXX, or \u0000 */
				*used = 6;
				if (cp >= 0xDC00 && cp <= 0xDFFF)
					return 0;	/* a low surrogate alone */
				if (cp >= 0xD800 && cp <= 0xDBFF)
				{
					/* a high surrogate: its low half must follow */
					if (e - s < 12 || s[6] != '\\' || s[7] != 'u' ||
						(lo = lp_hex4(s + 8)) < 0xDC00 || lo > 0xDFFF)
						return 0;
					cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
					*used = 12;
				}
				if (cp >= 0x80)
					*high = 1;
				return lp_utf8_put(cp, o);
			}
	}
	return 0;
}

/* See lp_token.h. */
size_t
lp_unescape(const char *s, size_t n, lp_escape esc, char *out, int *high)
{
	const char *e = s + n;
	char	   *o = out;

	if (esc == LP_ESC_NONE)
	{
		if (out != s)
			memmove(out, s, n);
		return n;
	}
	while (s < e)
	{
		const char *bs = memchr(s, lp_escape_mark(esc), (size_t) (e - s));
		size_t		used = 0;
		size_t		w;

		if (!bs)
			bs = e;
		if (o != s)
			memmove(o, s, (size_t) (bs - s));
		o += bs - s;
		s = bs;
		if (s == e)
			break;
		w = lp_unescape_one(s, e, esc, o, &used, high);
		if (w == 0)
		{
			*o++ = *s++;		/* not an escape: its mark copied as logged */
			continue;
		}
		LP_ASSERT(w <= used && (size_t) (e - s) >= used);
		o += w;
		s += used;
	}
	LP_ASSERT((size_t) (o - out) <= n);
	return (size_t) (o - out);
}

/* ---------- the HTTP request line ---------- */

/*
 * The route of the target t[0..te) (not empty): the path of an absolute
 * form, the query cut unless kept; LP_ST_BAD_REQUEST for an empty path.
 */
static lp_status
lp_target(const char *t, const char *te, unsigned flags, lp_request *out)
{
	const char *qm;

	out->route_slash = 0;
	out->route_escaped = 1;
	/* absolute form, scheme://authority[/path][?query]: the path counts */
	if ((unsigned) ((*t | 0x20) - 'a') <= 25)
	{
		const char *s = t + 1;

		while (s < te && lp_is_scheme((unsigned char) *s))
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
	if (!(flags & LP_PARSE_KEEP_QUERY) &&
		(qm = memchr(t, '?', (size_t) (te - t))) != NULL)
		out->route_len = (size_t) (qm - t);
	return out->route_len > 0 ? LP_ST_OK : LP_ST_BAD_REQUEST;
}

/* See lp_token.h. */
lp_status
lp_request_parse(const char *rq, size_t len, unsigned flags, lp_request *out)
{
	const char *end = rq + len;
	const char *m = rq;
	const char *t;
	const char *te;

	out->method = NULL;
	out->method_len = 0;
	out->route = NULL;
	out->route_len = 0;
	out->route_slash = 0;
	out->route_escaped = 1;
#ifdef __SSE2__
	/*
	 * The usual method, capital letters then a blank, read at once (as the
	 * combined parser does): capitals are tchars, so the loop below would
	 * stop at the same blank
	 */
	if (len >= 16)
	{
		const __m128i v = _mm_loadu_si128((const __m128i *) rq);
		unsigned	caps = (unsigned) _mm_movemask_epi8(_mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('A' - 1)),
																	  _mm_cmplt_epi8(v, _mm_set1_epi8('Z' + 1))));
		unsigned	j = (unsigned) __builtin_ctz(~caps);

		if (j > 0 && j < 16 && rq[j] == ' ')
			m = rq + j;
	}
	if (m == rq)
#endif
		while (m < end && lp_tchar[(unsigned char) *m])
			m++;
	if (m == end && len == 1 && *rq == '-')
		return LP_ST_BAD_REQUEST;	/* nginx's "-": no request line */
	if (m == rq || m == end || *m != ' ')
		return LP_ST_NOT_HTTP;
	if (m - rq == 1 && *rq == '-')
		return LP_ST_NOT_HTTP;	/* varnishncsa's placeholder "- http://localhost HTTP/1.0" */
	out->method = rq;
	out->method_len = (size_t) (m - rq);
	t = m + 1;
	/*
	 * The usual origin-form target with its query string cut: the route
	 * ends at the first blank or '?', found in one scan (the rules below
	 * give the same: no "*", no scheme, never empty)
	 */
	if (!(flags & LP_PARSE_KEEP_QUERY) && t < end && *t == '/')
	{
		const char *h = lp_find_byte4(rq, t, end, ' ', '\t', '?', '\\');

		out->route_escaped = 0;
		while (h && *h == '\\')
		{
			out->route_escaped = 1;
			h = lp_find_byte4(rq, h + 1, end, ' ', '\t', '?', '?');
		}
		out->route = t;
		out->route_len = (size_t) ((h ? h : end) - t);
		return LP_ST_OK;
	}
	/* the target: up to the first blank */
	te = lp_find_byte4(rq, t, end, ' ', '\t', '\t', '\t');
	if (!te)
		te = end;
	if (te == t)
		return LP_ST_NOT_HTTP;
	/* the HTTP/2 connection preface, sent to an HTTP/1 port */
	if (m - rq == 3 && memcmp(rq, "PRI", 3) == 0 && te - t == 1 && *t == '*' &&
		end - te == 9 && memcmp(te, " HTTP/2.0", 9) == 0)
		return LP_ST_NOT_HTTP;
	return lp_target(t, te, flags, out);
}

/* See lp_token.h. */
lp_status
lp_target_route(const char *t, size_t len, unsigned flags, lp_request *out)
{
	out->method = NULL;
	out->method_len = 0;
	out->route = NULL;
	out->route_len = 0;
	out->route_slash = 0;
	out->route_escaped = 1;
	if (len == 0 || (len == 1 && *t == '-'))
		return LP_ST_BAD_REQUEST;
	return lp_target(t, t + len, flags, out);
}

/* ---------- routes ---------- */

/* See lp_token.h. */
void
lp_route_build_slow(const char *r, size_t n, int slash, int escaped, const char *host, size_t host_len,
					lp_escape esc, const lp_parse_ctx *ctx, lp_result *out)
{
	unsigned	flags = ctx ? ctx->flags : 0;
	int			templates = (flags & LP_PARSE_TEMPLATES) != 0;
	int			unescape = escaped && esc != LP_ESC_NONE && !(flags & LP_PARSE_LOGGED) &&
		memchr(r, '\\', n) != NULL;
	int			high = 0;
	char	   *o;
	size_t		m;

	if (!(flags & LP_PARSE_HOST))
		host_len = 0;
	out->has |= LP_HAS_ROUTE;
	out->route = r;
	out->route_len = n;
	if (!templates && !slash && !unescape && host_len == 0)
		return;					/* the usual line: a slice of the line */
	if (!ctx || !ctx->buf)
	{
		/* no scratch (the caller's promise broken): the logged route */
		if (slash)
		{
			out->route = "/";
			out->route_len = 1;
		}
		return;
	}
	o = ctx->buf;
	if (host_len > 0)
	{
		if (esc != LP_ESC_NONE && !(flags & LP_PARSE_LOGGED))
			o += lp_unescape(host, host_len, esc, o, &high);
		else
		{
			memcpy(o, host, host_len);
			o += host_len;
		}
	}
	/*
	 * templates first, on the logged bytes, then the escapes undone in
	 * place: both in the LP_ROUTE_BUF_SIZE(len) bytes (host + 2 n + 2 at
	 * most, host and route being disjoint slices of the line)
	 */
	if ((templates || slash) && (m = lp_route_template(r, n, slash, templates, o)) > 0)
	{
		if (unescape)
			m = lp_unescape(o, m, esc, o, &high);
	}
	else if (unescape)
		m = lp_unescape(r, n, esc, o, &high);
	else
	{
		memcpy(o, r, n);
		m = n;
	}
	o += m;
	out->route = ctx->buf;
	out->route_len = (size_t) (o - ctx->buf);
	if (high)
		out->has |= LP_HAS_ROUTE_HIGH;
}

/* ---------- latencies ---------- */

/*
 * An integer of at most 18 digits (which fits in int64) read at once into
 * *v: 1; 0 for anything else, which the general readers below decide.
 */
static inline int
lp_small_uint(const char *s, size_t len, int64_t *v)
{
	uint64_t	x = 0;
	size_t		i;

	if (len > 18)
		return 0;
	for (i = 0; i < len; i++)
	{
		unsigned	d = (unsigned char) s[i] - '0';

		if (d > 9)
			return 0;
		x = x * 10 + d;
	}
	*v = (int64_t) x;
	return 1;
}

/* See lp_token.h. */
lp_status
lp_latency_ms(const char *s, size_t len, lp_unit unit, int64_t *ms)
{
	int64_t		v;

	if (len == 0 || (len == 1 && *s == '-'))
		return LP_ST_NO_LATENCY;
	/* seconds: lp_parse_seconds_ms's body, inline (the combined parser's reader) */
	if (unit == LP_UNIT_S)
		return lp_seconds_ms(s, len, ms);
	/* integers of the usual length: what lp_parse_micros_ms and lp_parse_uint63 give */
	if (lp_small_uint(s, len, &v))
	{
		if (unit == LP_UNIT_US)
			v = v / 1000 + (v % 1000 >= 500 ? 1 : 0);
		else if (unit == LP_UNIT_NS)
			v = v / 1000000 + (v % 1000000 >= 500000 ? 1 : 0);
		else if (unit != LP_UNIT_MS)
			return LP_ST_BAD_LATENCY;
		*ms = v;
		return LP_ST_OK;
	}
	switch (unit)
	{
		case LP_UNIT_S:			/* taken above */
		case LP_UNIT_NONE:
			break;
		case LP_UNIT_US:
			return lp_parse_micros_ms(s, len, ms);
		case LP_UNIT_MS:
		case LP_UNIT_NS:
			{
				lp_status	st = lp_parse_uint63(s, len, &v);

				if (st != LP_ST_OK)
					return st;
			}
			if (unit == LP_UNIT_NS)
				v = v / 1000000 + (v % 1000000 >= 500000 ? 1 : 0);
			*ms = v;
			return LP_ST_OK;
	}
	return LP_ST_BAD_LATENCY;
}

/* Is c a byte of an upstream list's item? */
static inline int
lp_list_item_byte(char c)
{
	return !LP_IS_BLANK(c) && c != ',';
}

/* See lp_token.h. */
const char *
lp_list_end(const char *p, const char *end)
{
	for (;;)
	{
		while (p < end && lp_list_item_byte(*p))
			p++;
		if (end - p >= 3 && p[0] == ',' && p[1] == ' ' && lp_list_item_byte(p[2]))
			p += 2;
		else if (end - p >= 4 && p[0] == ' ' && p[1] == ':' && p[2] == ' ' &&
				 lp_list_item_byte(p[3]))
			p += 3;
		else
			return p;
	}
}

/* The status of a latency in `unit` that is not written as one. */
static inline lp_status
lp_bad_latency(lp_unit unit)
{
	return unit == LP_UNIT_S ? LP_ST_BAD_SECONDS :
		unit == LP_UNIT_US ? LP_ST_BAD_MICROS : LP_ST_BAD_LATENCY;
}

/* See lp_token.h. */
lp_status
lp_latency_list_ms(const char *s, size_t len, lp_unit unit, int64_t *ms)
{
	const char *end = s + len;
	const char *p = s;
	int64_t		sum = 0;
	int			any = 0;

	for (;;)
	{
		const char *i = p;
		int64_t		v;
		lp_status	st;

		while (p < end && lp_list_item_byte(*p))
			p++;
		st = lp_latency_ms(i, (size_t) (p - i), unit, &v);
		if (st == LP_ST_OK)
		{
			if (v > INT64_MAX - sum)
				return unit == LP_UNIT_MS || unit == LP_UNIT_NS ?
					LP_ST_LATENCY_RANGE : LP_ST_REQTIME_RANGE;
			sum += v;
			any = 1;
		}
		else if (st != LP_ST_NO_LATENCY)
			return st;			/* a bad item */
		else if (p == i && (len > 0 || p != end))
			return lp_bad_latency(unit);	/* an empty item */
		if (p == end)
			break;
		if (end - p >= 3 && p[0] == ',' && p[1] == ' ')
			p += 2;
		else if (end - p >= 4 && p[0] == ' ' && p[1] == ':' && p[2] == ' ')
			p += 3;
		else
			return lp_bad_latency(unit);	/* not a separator */
	}
	if (!any)
		return LP_ST_NO_LATENCY;
	*ms = sum;
	return LP_ST_OK;
}
