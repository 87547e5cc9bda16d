/* test/unit/ref_presets.h -- reference parsers of the preset formats, the plainest reading of their documented rules */
#ifndef REF_PRESETS_H
#define REF_PRESETS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp_format.h"
#include "test_diff.h"

/*
 * What test_presets.c and fuzz_presets.c compare lp_parse_<preset> with:
 * each preset read again from the rules written above its parser
 * (src/lp_presets.c) and in docs/formats.md, the plain way: the line split
 * into fields by the documented separators first (offsets into the line,
 * no pointer walking, no memchr), fields picked by index, numbers compared
 * as digit strings and seconds added as decimal strings column by column
 * (no strtod, no sscanf), the route built step by step in a buffer of its
 * own.  Only lp_route_template, tested on its own in test_formats.c, is
 * shared with the parsers.
 */

/* The route templates (lp_formats.c; lp_formats.h cannot be included beside lp_format.h). */
extern size_t lp_route_template(const char *r, size_t n, int slash, int templates, char *buf);

/* What the reference finds; offsets into the line, -1 for none. */
typedef struct ref_res
{
	lp_status	st;
	unsigned	has;
	char	   *route;			/* malloc'ed, route_len bytes (NULL without LP_HAS_ROUTE) */
	size_t		route_len;
	int64_t		latency;
	int			status;
	long		method_off,
				method_len;
	long		time_off,
				time_len;
	long		time2_off,
				time2_len;
	long		host_off,
				host_len;
	long		bad_off,
				bad_len;
	int			nwant,
				nfields;
} ref_res;

/* A start for a result. */
static inline void
ref_init(ref_res *r)
{
	memset(r, 0, sizeof(*r));
	r->method_off = r->time_off = r->time2_off = r->host_off = r->bad_off = -1;
}

/* Give back the route of r. */
static inline void
ref_free(ref_res *r)
{
	free(r->route);
	r->route = NULL;
}

static inline int
ref_blank(char c)
{
	return c == ' ' || c == '\t';
}

static inline int
ref_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The RFC 9110 token characters. */
static inline int
ref_tchar(char ch)
{
	unsigned char c = (unsigned char) ch;

	if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
		return 1;
	return c != 0 && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

/* Is s[a..b) exactly the text lit? */
static inline int
ref_is(const char *s, long a, long b, const char *lit)
{
	return (long) strlen(lit) == b - a && memcmp(s + a, lit, (size_t) (b - a)) == 0;
}

/* Set the bad field and return st. */
static inline lp_status
ref_bad(ref_res *r, lp_status st, long off, long len)
{
	r->st = st;
	r->bad_off = off;
	r->bad_len = len;
	return st;
}

/* Set the counts and return st. */
static inline lp_status
ref_count(ref_res *r, lp_status st, int nwant, int nfields)
{
	r->st = st;
	r->nwant = nwant;
	r->nfields = nfields;
	return st;
}

/*
 * Split s[from..to) at runs of blanks: the start and end of each of the
 * first `max` fields in a[] and b[]; returns how many fields there are in
 * all.
 */
static inline int
ref_fields(const char *s, long from, long to, long *a, long *b, int max)
{
	int			n = 0;
	long		i = from;

	for (;;)
	{
		long		start;

		while (i < to && ref_blank(s[i]))
			i++;
		if (i == to)
			return n;
		start = i;
		while (i < to && !ref_blank(s[i]))
			i++;
		if (n < max)
		{
			a[n] = start;
			b[n] = i;
		}
		n++;
	}
}

/* The end of the line: one trailing CR dropped. */
static inline long
ref_end(const char *s, long len)
{
	return (len > 0 && s[len - 1] == '\r') ? len - 1 : len;
}

/* An HTTP status field: 1 and *v for [1-9][0-9][0-9], 0 for the "none" text, -1 else. */
static inline int
ref_status(const char *s, long a, long b, const char *none, int *v)
{
	if (b - a == 3 && s[a] >= '1' && s[a] <= '9' && ref_digit(s[a + 1]) && ref_digit(s[a + 2]))
	{
		*v = (s[a] - '0') * 100 + (s[a + 1] - '0') * 10 + (s[a + 2] - '0');
		return 1;
	}
	if (none && ref_is(s, a, b, none))
		return 0;
	return -1;
}

/* Integer milliseconds s[a..b): compared as a digit string with INT64_MAX. */
static inline lp_status
ref_ms(const char *s, long a, long b, int64_t *v)
{
	long		i;
	long		z = a;
	int64_t		x = 0;

	if (b == a)
		return LP_ST_BAD_LATENCY;
	for (i = a; i < b; i++)
		if (!ref_digit(s[i]))
			return LP_ST_BAD_LATENCY;
	while (z < b - 1 && s[z] == '0')
		z++;
	if (b - z > 19 || (b - z == 19 && memcmp(s + z, "9223372036854775807", 19) > 0))
		return LP_ST_LATENCY_RANGE;
	for (i = z; i < b; i++)
		x = x * 10 + (s[i] - '0');
	*v = x;
	return LP_ST_OK;
}

/*
 * The sum of k values in seconds s[a[i]..b[i]) ("D+" or "D+.D+"): the
 * decimal strings written into columns (integer digits right-aligned,
 * fraction digits left-aligned), added from the right, and the sum read to
 * ms, half up.  *which: the first value that is not a number.
 */
static inline lp_status
ref_seconds(const char *s, const long *a, const long *b, int k, int64_t *ms, int *which)
{
	long		ia[3],
				ib[3],
				fa[3],
				fb[3];
	long		icols = 0,
				fcols = 4;
	long		ncol,
				c;
	int		   *col;
	int			i;
	int			carry = 0;
	long		lead;
	unsigned __int128 v = 0;

	for (i = 0; i < k; i++)
	{
		long		p = a[i];

		ia[i] = p;
		while (p < b[i] && ref_digit(s[p]))
			p++;
		ib[i] = p;
		fa[i] = fb[i] = p;
		if (ib[i] == ia[i])
		{
			*which = i;
			return LP_ST_BAD_SECONDS;
		}
		if (p < b[i])
		{
			long		q;

			if (s[p] != '.' || p + 1 == b[i])
			{
				*which = i;
				return LP_ST_BAD_SECONDS;
			}
			for (q = p + 1; q < b[i]; q++)
				if (!ref_digit(s[q]))
				{
					*which = i;
					return LP_ST_BAD_SECONDS;
				}
			fa[i] = p + 1;
			fb[i] = b[i];
		}
		if (ib[i] - ia[i] > icols)
			icols = ib[i] - ia[i];
		if (fb[i] - fa[i] > fcols)
			fcols = fb[i] - fa[i];
	}
	icols += 2;					/* room for the carries */
	ncol = icols + fcols;
	col = calloc((size_t) ncol, sizeof(int));
	for (i = 0; i < k; i++)
	{
		long		j;

		for (j = 0; j < ib[i] - ia[i]; j++)
			col[icols - 1 - j] += s[ib[i] - 1 - j] - '0';
		for (j = 0; j < fb[i] - fa[i]; j++)
			col[icols + j] += s[fa[i] + j] - '0';
	}
	for (c = ncol - 1; c >= 0; c--)
	{
		col[c] += carry;
		carry = col[c] / 10;
		col[c] %= 10;
	}
	/* the integer digits, leading zeros skipped: more than 20 never fit */
	lead = 0;
	while (lead < icols && col[lead] == 0)
		lead++;
	if (icols - lead > 20)
	{
		free(col);
		return LP_ST_REQTIME_RANGE;
	}
	for (c = lead; c < icols; c++)
		v = v * 10 + (unsigned) col[c];
	v = v * 1000 + (unsigned) (col[icols] * 100 + col[icols + 1] * 10 + col[icols + 2]) +
		(col[icols + 3] >= 5 ? 1 : 0);
	free(col);
	if (v > (unsigned __int128) INT64_MAX)
		return LP_ST_REQTIME_RANGE;
	*ms = (int64_t) v;
	return LP_ST_OK;
}

/* A hex digit's value, or -1. */
static inline int
ref_hex(char c)
{
	static const char digits[] = "0123456789abcdef0123456789ABCDEF";
	const char *x;

	if (c == 0 || (x = strchr(digits, c)) == NULL)
		return -1;
	return (int) ((x - digits) % 16);
}

/*
 * Undo the escapes of mark ('#', '%') in t[0..m) into u (not a NUL byte):
 * returns the length; *high set when a byte >= 0x80 came out.
 */
static inline size_t
ref_unescape(const char *t, size_t m, char mark, char *u, int *high)
{
	size_t		i,
				o = 0;

	for (i = 0; i < m; i++)
	{
		if (t[i] == mark && i + 2 < m &&
			ref_hex(t[i + 1]) >= 0 && ref_hex(t[i + 2]) >= 0 &&
			ref_hex(t[i + 1]) * 16 + ref_hex(t[i + 2]) != 0)
		{
			int			v = ref_hex(t[i + 1]) * 16 + ref_hex(t[i + 2]);

			if (v >= 0x80)
				*high = 1;
			u[o++] = (char) v;
			i += 2;
		}
		else
			u[o++] = t[i];
	}
	return o;
}

/*
 * A route: (slash ? "/" : "") path, templated on the logged form, then
 * "?" query when given, then unescaped (mark '#' or '%', 0 for none;
 * not with LP_PARSE_LOGGED) but for a NUL byte, then the host in front,
 * unescaped on its own.  Returns it malloc'ed; *high set when unescaping
 * gave a byte >= 0x80.
 */
static inline char *
ref_route(const char *path, long n, int slash, const char *query, long qn,
		  const char *host, long hn, unsigned flags, char mark, size_t *len, int *high)
{
	size_t		cap = (size_t) (2 * n + qn + hn + 8);
	char	   *t = malloc(cap);
	char	   *u = malloc(cap);
	size_t		m = 0;
	size_t		o = 0;
	int			decode = mark && !(flags & LP_PARSE_LOGGED);

	if (flags & LP_PARSE_TEMPLATES)
		m = lp_route_template(path, (size_t) n, slash, 1, t);
	if (m == 0)
	{
		if (slash)
			t[m++] = '/';
		memcpy(t + m, path, (size_t) n);
		m += (size_t) n;
	}
	if (query)
	{
		t[m++] = '?';
		memcpy(t + m, query, (size_t) qn);
		m += (size_t) qn;
	}
	if ((flags & LP_PARSE_HOST) && host)
	{
		if (decode)
			o = ref_unescape(host, (size_t) hn, mark, u, high);
		else
		{
			memcpy(u, host, (size_t) hn);
			o = (size_t) hn;
		}
	}
	if (decode)
		o += ref_unescape(t, m, mark, u + o, high);
	else
	{
		memcpy(u + o, t, m);
		o += m;
	}
	free(t);
	*len = o;
	return u;
}

/*
 * A host: "userinfo@" dropped up to the last '@', a trailing ":digits"
 * dropped; [*a, *b) narrowed, 0 when nothing is left.
 */
static inline int
ref_host(const char *s, long *a, long *b)
{
	long		i;
	long		d;

	for (i = *a; i < *b; i++)
		if (s[i] == '@')
			*a = i + 1;
	d = *b;
	while (d > *a && ref_digit(s[d - 1]))
		d--;
	if (d > *a && s[d - 1] == ':')
		*b = d - 1;
	return *b > *a;
}

/* A host field that may be "-" (none). */
static inline void
ref_host_field(const char *s, long a, long b, ref_res *r)
{
	if (b == a || ref_is(s, a, b, "-"))
		return;
	if (ref_host(s, &a, &b))
	{
		r->host_off = a;
		r->host_len = b - a;
		r->has |= LP_HAS_HOST;
	}
}

/* The byte after the closing quote of a request that opens at q ('"' at q): -1 when none. */
static inline long
ref_close(const char *s, long q, long end)
{
	long		i;

	for (i = q + 1; i < end; i++)
		if (s[i] == '"' && (i + 1 == end || ref_blank(s[i + 1])))
			return i;
	return -1;
}

/*
 * The request line s[a..b): method, route and (host_from_target) host
 * into r; the request's problem with the request as the bad field.
 */
static inline lp_status
ref_request(const char *s, long a, long b, unsigned flags, char mark, int host_from_target,
			ref_res *r)
{
	long		m = a;
	long		t,
				te,
				p,
				pe;
	int			slash = 0;
	long		ha = -1,
				hb = -1;

	while (m < b && ref_tchar(s[m]))
		m++;
	if (b - a == 1 && s[a] == '-')
		return ref_bad(r, LP_ST_BAD_REQUEST, a, b - a);
	if (m == a || m == b || s[m] != ' ')
		return ref_bad(r, LP_ST_NOT_HTTP, a, b - a);
	t = m + 1;
	te = t;
	while (te < b && !ref_blank(s[te]))
		te++;
	if (te == t)
		return ref_bad(r, LP_ST_NOT_HTTP, a, b - a);
	if (ref_is(s, a, m, "PRI") && ref_is(s, t, te, "*") && ref_is(s, te, b, " HTTP/2.0"))
		return ref_bad(r, LP_ST_NOT_HTTP, a, b - a);
	if (ref_is(s, a, m, "-"))
		return ref_bad(r, LP_ST_NOT_HTTP, a, b - a);
	if (ref_is(s, t, te, "-"))
		return ref_bad(r, LP_ST_BAD_REQUEST, a, b - a);
	p = t;
	pe = te;
	/* scheme://authority: a letter, then letters, digits, + - . */
	if ((s[t] >= 'a' && s[t] <= 'z') || (s[t] >= 'A' && s[t] <= 'Z'))
	{
		long		k = t + 1;

		while (k < te && ((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z') ||
						  ref_digit(s[k]) || s[k] == '+' || s[k] == '-' || s[k] == '.'))
			k++;
		if (te - k >= 3 && s[k] == ':' && s[k + 1] == '/' && s[k + 2] == '/')
		{
			long		au = k + 3;
			long		ae = au;

			while (ae < te && s[ae] != '/' && s[ae] != '?')
				ae++;
			ha = au;
			hb = ae;
			if (!ref_host(s, &ha, &hb))
				ha = hb = -1;
			p = ae;
			if (ae == te || (s[ae] == '?' && !(flags & LP_PARSE_KEEP_QUERY)))
				p = pe = -1;	/* the route is "/" */
			else
				slash = s[ae] == '?';
		}
	}
	if (p >= 0 && !(flags & LP_PARSE_KEEP_QUERY))
	{
		long		k;

		for (k = p; k < pe; k++)
			if (s[k] == '?')
			{
				pe = k;
				break;
			}
	}
	if (p >= 0 && pe == p)
		return ref_bad(r, LP_ST_BAD_REQUEST, a, b - a);
	r->method_off = a;
	r->method_len = m - a;
	r->has |= LP_HAS_METHOD;
	if (host_from_target && ha >= 0)
	{
		r->host_off = ha;
		r->host_len = hb - ha;
		r->has |= LP_HAS_HOST;
	}
	{
		const char *hs = (r->has & LP_HAS_HOST) ? s + r->host_off : NULL;

		int			high = 0;

		if (p < 0)
			r->route = ref_route("/", 1, 0, NULL, 0, hs, r->host_len, flags, mark, &r->route_len,
								 &high);
		else
			r->route = ref_route(s + p, pe - p, slash, NULL, 0, hs, r->host_len, flags, mark,
								 &r->route_len, &high);
		if (high)
			r->has |= LP_HAS_ROUTE_HIGH;
	}
	r->has |= LP_HAS_ROUTE;
	return LP_ST_OK;
}

/* ---------- haproxy ---------- */

/* Where a HAProxy message starts: after a 5424 or 3164 header, or 0 (format raw). */
static inline long
ref_haproxy_start(const char *s, long end)
{
	long		st = 0;
	long		i,
				v;
	int			k;

	if (end > 0 && s[0] == '<')
	{
		i = 1;
		while (i < end && i <= 3 && ref_digit(s[i]))
			i++;
		if (i > 1 && i < end && s[i] == '>')
			st = i + 1;
	}
	/* RFC 5424 */
	v = st;
	while (v < end && v - st < 3 && ref_digit(s[v]))
		v++;
	if (v > st && s[st] != '0' && v + 1 < end && s[v] == ' ' &&
		(ref_digit(s[v + 1]) || s[v + 1] == '-'))
	{
		long		q = v + 1;

		for (k = 0; k < 5; k++)
		{
			long		f = q;

			while (q < end && s[q] != ' ')
				q++;
			if (q == f || q == end)
				break;
			q++;
		}
		if (k == 5 && q < end)
		{
			if (s[q] == '-')
				q++;
			else
			{
				while (q < end && s[q] == '[')
				{
					q++;
					while (q < end && s[q] != ']')
					{
						if (s[q] == '\\' && q + 1 < end)
							q++;
						q++;
					}
					if (q == end)
						break;
					q++;
				}
			}
			if (q == end)
				return end;
			if (s[q] == ' ')
			{
				q++;
				if (end - q >= 3 && (unsigned char) s[q] == 0xEF &&
					(unsigned char) s[q + 1] == 0xBB && (unsigned char) s[q + 2] == 0xBF)
					q += 3;
				return q;
			}
		}
	}
	/* raw: the first field and " [" */
	for (i = st; i < end && !ref_blank(s[i]); i++)
		;
	if (i > st && i + 1 < end && s[i + 1] == '[')
		return st;
	/* RFC 3164: after the first ": " */
	for (i = st; i + 1 < end; i++)
		if (s[i] == ':' && s[i + 1] == ' ')
			return i + 2;
	return st;
}

static inline lp_status
ref_haproxy(const char *s, long len, unsigned flags, ref_res *r)
{
	long		end = ref_end(s, len);
	long		m = ref_haproxy_start(s, end);
	long		i,
				rb,
				q,
				cl;
	long		a[4],
				b[4];
	long		part_a[5],
				part_b[5];
	int			nparts = 0;
	int			n,
				k,
				sv;
	lp_status	lat;
	int64_t		ms = 0;

	ref_init(r);
	i = m;
	while (i < end && !ref_blank(s[i]))
		i++;
	if (i == m)
		return r->st = LP_ST_NO_TIME;
	while (i < end && ref_blank(s[i]))
		i++;
	if (i == end || s[i] != '[')
		return r->st = LP_ST_NO_TIME;
	for (rb = i + 1; rb < end && s[rb] != ']'; rb++)
		;
	if (rb == end)
		return r->st = LP_ST_NO_TIME;
	r->time_off = i + 1;
	r->time_len = rb - i - 1;
	r->has |= LP_HAS_TIME;
	n = ref_fields(s, rb + 1, end, a, b, 4);
	if (n < 4)
		return ref_count(r, LP_ST_TOO_FEW_FIELDS, 6, 2 + n);

	/* the timers, split at '/' */
	part_a[0] = a[2];
	for (i = a[2]; i < b[2]; i++)
		if (s[i] == '/')
		{
			if (nparts < 4)
				part_b[nparts] = i;
			nparts++;
			if (nparts < 5)
				part_a[nparts] = i + 1;
		}
	if (nparts != 4)
		return ref_bad(r, LP_ST_BAD_FIELD, a[2], b[2] - a[2]);
	part_b[4] = b[2];
	for (k = 0; k < 4; k++)
	{
		long		d = part_a[k];

		if (d < part_b[k] && s[d] == '-')
			d++;

		if (d == part_b[k])
			return ref_bad(r, LP_ST_BAD_FIELD, a[2], b[2] - a[2]);
		for (; d < part_b[k]; d++)
			if (!ref_digit(s[d]))
				return ref_bad(r, LP_ST_BAD_FIELD, a[2], b[2] - a[2]);
	}
	if (part_b[4] > part_a[4] && (s[part_a[4]] == '+' || s[part_a[4]] == '-'))
	{
		lat = LP_ST_NO_LATENCY;
		if (part_b[4] - part_a[4] == 1)
			lat = LP_ST_BAD_LATENCY;
		for (i = part_a[4] + 1; i < part_b[4]; i++)
			if (!ref_digit(s[i]))
				lat = LP_ST_BAD_LATENCY;
	}
	else
		lat = ref_ms(s, part_a[4], part_b[4], &ms);

	k = ref_status(s, a[3], b[3], "-1", &sv);
	if (k < 0)
		return ref_bad(r, LP_ST_BAD_STATUS, a[3], b[3] - a[3]);
	if (k > 0)
	{
		r->status = sv;
		r->has |= LP_HAS_STATUS;
	}
	for (q = b[3]; q < end; q++)
		if (s[q] == '"' && ref_blank(s[q - 1]))
			break;
	if (q >= end)
		return r->st = LP_ST_NO_REQUEST;
	cl = ref_close(s, q, end);
	if (cl < 0)
		cl = end;
	if (ref_request(s, q + 1, cl, flags, '#', 0, r) != LP_ST_OK)
		return r->st;
	if (lat != LP_ST_OK)
		return ref_bad(r, lat, part_a[4], part_b[4] - part_a[4]);
	r->latency = ms;
	r->has |= LP_HAS_LATENCY;
	return r->st = LP_ST_OK;
}

/* ---------- alb ---------- */

static inline lp_status
ref_alb(const char *s, long len, unsigned flags, ref_res *r)
{
	long		end = ref_end(s, len);
	long		a[13],
				b[13];
	int			n = ref_fields(s, 0, end, a, b, 13);
	int			k,
				sv,
				which = 0;
	lp_status	lat = LP_ST_OK;
	long		bad_a = -1,
				bad_b = -1;
	int64_t		ms = 0;
	long		cl;

	ref_init(r);
	if (n < 13)
		return ref_count(r, LP_ST_TOO_FEW_FIELDS, 13, n);
	r->time_off = a[1];
	r->time_len = b[1] - a[1];
	r->has |= LP_HAS_TIME;
	for (k = 5; k <= 7; k++)
		if (ref_is(s, a[k], b[k], "-1"))
		{
			lat = LP_ST_NO_LATENCY;
			bad_a = a[k];
			bad_b = b[k];
			break;
		}
	if (lat == LP_ST_OK)
	{
		lat = ref_seconds(s, a + 5, b + 5, 3, &ms, &which);
		if (lat == LP_ST_BAD_SECONDS)
		{
			bad_a = a[5 + which];
			bad_b = b[5 + which];
		}
		else if (lat == LP_ST_REQTIME_RANGE)
		{
			bad_a = a[5];
			bad_b = b[7];
		}
	}
	k = ref_status(s, a[8], b[8], "-", &sv);
	if (k < 0)
		return ref_bad(r, LP_ST_BAD_STATUS, a[8], b[8] - a[8]);
	if (k > 0)
	{
		r->status = sv;
		r->has |= LP_HAS_STATUS;
	}
	if (s[a[12]] != '"')
		return r->st = LP_ST_NO_REQUEST;
	cl = ref_close(s, a[12], end);
	if (cl < 0)
		return r->st = LP_ST_UNTERMINATED;
	if (ref_request(s, a[12] + 1, cl, flags, 0, 1, r) != LP_ST_OK)
		return r->st;
	if (lat != LP_ST_OK)
		return ref_bad(r, lat, bad_a, bad_b - bad_a);
	r->latency = ms;
	r->has |= LP_HAS_LATENCY;
	return r->st = LP_ST_OK;
}

/* ---------- W3C: cloudfront, iis ---------- */

/* cs-method, cs-uri-stem, sc-status and the route (query s[qa..qb)) of a W3C line. */
static inline lp_status
ref_w3c(const char *s, long ma, long mb, long sa, long sb, long qa, long qb, long ta, long tb,
		const char *none, unsigned flags, char mark, ref_res *r)
{
	long		i;
	int			k,
				sv;
	int			keep = (flags & LP_PARSE_KEEP_QUERY) && !ref_is(s, qa, qb, "-");

	if (mb == ma || ref_is(s, ma, mb, "-"))
		return ref_bad(r, LP_ST_BAD_FIELD, ma, mb - ma);
	for (i = ma; i < mb; i++)
		if (!ref_tchar(s[i]))
			return ref_bad(r, LP_ST_BAD_FIELD, ma, mb - ma);
	r->method_off = ma;
	r->method_len = mb - ma;
	r->has |= LP_HAS_METHOD;
	if (sb == sa || ref_is(s, sa, sb, "-"))
		return ref_bad(r, LP_ST_BAD_REQUEST, sa, sb - sa);
	k = ref_status(s, ta, tb, none, &sv);
	if (k < 0)
		return ref_bad(r, LP_ST_BAD_STATUS, ta, tb - ta);
	if (k > 0)
	{
		r->status = sv;
		r->has |= LP_HAS_STATUS;
	}
	{
		int			high = 0;

		r->route = ref_route(s + sa, sb - sa, 0, keep ? s + qa : NULL, keep ? qb - qa : 0,
							 (r->has & LP_HAS_HOST) ? s + r->host_off : NULL, r->host_len,
							 flags, mark, &r->route_len, &high);
		if (high)
			r->has |= LP_HAS_ROUTE_HIGH;
	}
	r->has |= LP_HAS_ROUTE;
	return LP_ST_OK;
}

static inline lp_status
ref_cloudfront(const char *s, long len, unsigned flags, ref_res *r)
{
	long		end = ref_end(s, len);
	long		a[19],
				b[19];
	int			n = 0;
	long		i,
				start = 0;
	int			which;
	lp_status	lat;
	int64_t		ms = 0;

	ref_init(r);
	if (end > 0 && s[0] == '#')
		return ref_bad(r, LP_ST_DIRECTIVE, 0, end);
	for (i = 0; i <= end && n < 19; i++)
		if (i == end || s[i] == '\t')
		{
			a[n] = start;
			b[n] = i;
			n++;
			start = i + 1;
		}
	if (n < 19)
		return ref_count(r, LP_ST_TOO_FEW_FIELDS, 19, n);
	r->time_off = a[0];
	r->time_len = b[0] - a[0];
	r->time2_off = a[1];
	r->time2_len = b[1] - a[1];
	r->has |= LP_HAS_TIME;
	ref_host_field(s, a[15], b[15], r);
	if (ref_is(s, a[18], b[18], "-"))
		lat = LP_ST_NO_LATENCY;
	else
		lat = ref_seconds(s, a + 18, b + 18, 1, &ms, &which);
	if (ref_w3c(s, a[5], b[5], a[7], b[7], a[11], b[11], a[8], b[8], "000", flags, '%', r) !=
		LP_ST_OK)
		return r->st;
	if (lat != LP_ST_OK)
		return ref_bad(r, lat, a[18], b[18] - a[18]);
	r->latency = ms;
	r->has |= LP_HAS_LATENCY;
	return r->st = LP_ST_OK;
}

static inline lp_status
ref_iis(const char *s, long len, unsigned flags, ref_res *r)
{
	long		end = ref_end(s, len);
	long		a[16],
				b[16];
	int			n;
	lp_status	lat;
	int64_t		ms = 0;

	ref_init(r);
	if (end > 0 && s[0] == '#')
		return ref_bad(r, LP_ST_DIRECTIVE, 0, end);
	n = ref_fields(s, 0, end, a, b, 16);
	if (n < 14)
		return ref_count(r, LP_ST_TOO_FEW_FIELDS, 14, n);
	if (n > 15)
		return ref_bad(r, LP_ST_BAD_FIELD, a[15], b[15] - a[15]);
	r->time_off = a[0];
	r->time_len = b[0] - a[0];
	r->time2_off = a[1];
	r->time2_len = b[1] - a[1];
	r->has |= LP_HAS_TIME;
	if (ref_is(s, a[n - 1], b[n - 1], "-"))
		lat = LP_ST_NO_LATENCY;
	else
		lat = ref_ms(s, a[n - 1], b[n - 1], &ms);
	if (ref_w3c(s, a[3], b[3], a[4], b[4], a[5], b[5], a[n - 4], b[n - 4], NULL, flags, 0, r) !=
		LP_ST_OK)
		return r->st;
	if (lat != LP_ST_OK)
		return ref_bad(r, lat, a[n - 1], b[n - 1] - a[n - 1]);
	r->latency = ms;
	r->has |= LP_HAS_LATENCY;
	return r->st = LP_ST_OK;
}

/* ---------- envoy ---------- */

static inline lp_status
ref_envoy(const char *s, long len, unsigned flags, ref_res *r)
{
	long		end = ref_end(s, len);
	long		rb,
				q,
				cl;
	long		a[5],
				b[5];
	int			n,
				k,
				sv;
	lp_status	lat;
	int64_t		ms = 0;

	ref_init(r);
	if (end == 0 || s[0] != '[')
		return r->st = LP_ST_NO_TIME;
	for (rb = 1; rb < end && s[rb] != ']'; rb++)
		;
	if (rb == end)
		return r->st = LP_ST_NO_TIME;
	r->time_off = 1;
	r->time_len = rb - 1;
	r->has |= LP_HAS_TIME;
	q = rb + 1;
	while (q < end && ref_blank(s[q]))
		q++;
	if (q == end || s[q] != '"')
		return r->st = LP_ST_NO_REQUEST;
	cl = ref_close(s, q, end);
	if (cl < 0)
		return r->st = LP_ST_UNTERMINATED;

	/* "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%" at the end: found from the end */
	{
		long		from = cl + 1;
		long		q4 = end - 1;
		long		q3 = -1,
					q1 = -1;
		long		i;

		if (end - from >= 6 && s[q4] == '"')
		{
			for (i = q4 - 1; i >= from; i--)
				if (s[i] == '"')
				{
					q3 = i;
					break;
				}
			if (q3 >= from + 3 && s[q3 - 1] == ' ' && s[q3 - 2] == '"')
			{
				for (i = q3 - 3; i >= from; i--)
					if (s[i] == '"')
					{
						q1 = i;
						break;
					}
				if (q1 >= 0)
					ref_host_field(s, q1 + 1, q3 - 2, r);
			}
		}
	}
	if (ref_request(s, q + 1, cl, flags, 0, 0, r) != LP_ST_OK)
		return r->st;
	n = ref_fields(s, cl + 1, end, a, b, 5);
	if (n < 5)
		return ref_count(r, LP_ST_TOO_FEW_TAIL_FIELDS, 5, n);
	if (ref_is(s, a[4], b[4], "-"))
		lat = LP_ST_NO_LATENCY;
	else
		lat = ref_ms(s, a[4], b[4], &ms);
	k = ref_status(s, a[0], b[0], "0", &sv);
	if (k < 0)
		return ref_bad(r, LP_ST_BAD_STATUS, a[0], b[0] - a[0]);
	if (k > 0)
	{
		r->status = sv;
		r->has |= LP_HAS_STATUS;
	}
	if (lat != LP_ST_OK)
		return ref_bad(r, lat, a[4], b[4] - a[4]);
	r->latency = ms;
	r->has |= LP_HAS_LATENCY;
	return r->st = LP_ST_OK;
}

/* ---------- traefik ---------- */

static inline lp_status
ref_traefik(const char *s, long len, unsigned flags, ref_res *r)
{
	long		end = ref_end(s, len);
	long		rq = -1,
				lb = -1,
				rb = -1,
				lim,
				cl,
				i;
	long		a[8],
				b[8];
	long		la = 0,
				lbb = 0;
	int			n,
				k,
				sv;
	lp_status	lat;
	int64_t		ms = 0;

	ref_init(r);
	for (i = 0; i < end; i++)
		if (s[i] == '"' && (i == 0 || ref_blank(s[i - 1])))
		{
			rq = i;
			break;
		}
	lim = rq >= 0 ? rq : end;
	for (i = 0; i < lim; i++)
		if (s[i] == '[')
			lb = i;
	if (lb < 0)
		return r->st = LP_ST_NO_TIME;
	for (i = lb + 1; i < lim; i++)
		if (s[i] == ']')
		{
			rb = i;
			break;
		}
	if (rb < 0)
		return r->st = LP_ST_NO_TIME;
	r->time_off = lb + 1;
	r->time_len = rb - lb - 1;
	r->has |= LP_HAS_TIME;
	if (rq < 0)
		return r->st = LP_ST_NO_REQUEST;
	cl = ref_close(s, rq, end);
	if (cl < 0)
		return r->st = LP_ST_UNTERMINATED;
	if (ref_request(s, rq + 1, cl, flags, 0, 0, r) != LP_ST_OK)
		return r->st;
	n = ref_fields(s, cl + 1, end, a, b, 8);
	if (n < 8)
		return ref_count(r, LP_ST_TOO_FEW_TAIL_FIELDS, 8, n);
	/* the last field: split the whole tail again and take the last one */
	{
		long	   *aa = malloc(sizeof(long) * (size_t) n);
		long	   *bb = malloc(sizeof(long) * (size_t) n);

		ref_fields(s, cl + 1, end, aa, bb, n);
		la = aa[n - 1];
		lbb = bb[n - 1];
		free(aa);
		free(bb);
	}
	if (lbb - la >= 3 && s[lbb - 2] == 'm' && s[lbb - 1] == 's')
		lat = ref_ms(s, la, lbb - 2, &ms);
	else
		lat = LP_ST_BAD_LATENCY;
	k = ref_status(s, a[0], b[0], "-", &sv);
	if (k < 0)
		return ref_bad(r, LP_ST_BAD_STATUS, a[0], b[0] - a[0]);
	if (k > 0)
	{
		r->status = sv;
		r->has |= LP_HAS_STATUS;
	}
	if (lat != LP_ST_OK)
		return ref_bad(r, lat, la, lbb - la);
	r->latency = ms;
	r->has |= LP_HAS_LATENCY;
	return r->st = LP_ST_OK;
}

/* Every preset's reference, in the order of lp_presets[]. */
typedef lp_status (*ref_fn) (const char *s, long len, unsigned flags, ref_res *r);

static const ref_fn ref_presets[] = {
	ref_haproxy, ref_alb, ref_cloudfront, ref_envoy, ref_traefik, ref_iis
};

/*
 * Compare a parser's answer (st, g) on line with the reference's (w),
 * field by field, into d: the fields the reference found, slices by their
 * place in the line, the route by its text; on a failure, the bad field
 * and the counts.
 */
static inline void
ref_diff(test_diff *d, const char *line, lp_status st, const lp_result *g, const ref_res *w)
{
	diff_i(d, "status code", st, w->st);
	diff_u(d, "has", g->has, w->has);
	if (w->has & LP_HAS_ROUTE)
		diff_text(d, "route", g->route, g->route_len, w->route, w->route_len);
	if (w->has & LP_HAS_LATENCY)
		diff_i(d, "latency", g->latency, w->latency);
	if (w->has & LP_HAS_STATUS)
		diff_i(d, "status", g->status, w->status);
	if (w->has & LP_HAS_METHOD)
		diff_slice(d, "method", line, g->method, g->method_len, line + w->method_off,
				   (size_t) w->method_len);
	if (w->has & LP_HAS_TIME)
	{
		diff_slice(d, "time", line, g->time, g->time_len, line + w->time_off, (size_t) w->time_len);
		diff_slice(d, "time2", line, g->time2, g->time2_len,
				   w->time2_off < 0 ? NULL : line + w->time2_off,
				   w->time2_off < 0 ? 0 : (size_t) w->time2_len);
	}
	if (w->has & LP_HAS_HOST)
		diff_slice(d, "host", line, g->host, g->host_len, line + w->host_off, (size_t) w->host_len);
	if (w->st != LP_ST_OK)
	{
		diff_slice(d, "bad", line, g->bad, g->bad_len, w->bad_off < 0 ? NULL : line + w->bad_off,
				   w->bad_off < 0 ? 0 : (size_t) w->bad_len);
		if (w->st == LP_ST_TOO_FEW_FIELDS || w->st == LP_ST_TOO_FEW_TAIL_FIELDS)
		{
			diff_i(d, "nwant", g->nwant, w->nwant);
			diff_i(d, "nfields", g->nfields, w->nfields);
		}
	}
}

#endif							/* REF_PRESETS_H */
