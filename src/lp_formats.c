/* src/lp_formats.c -- the table of access-log formats and the combined-format parser (plain C) */
#include "lp_formats.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

static lp_line_status lp_default_parse(const char *line, size_t len,
									   const lp_format_def *fmt,
									   const lp_parse_ctx *ctx, lp_fields *out);
static lp_line_status lp_combined_parse(const char *line, size_t len,
										const lp_format_def *fmt,
										const lp_parse_ctx *ctx, lp_fields *out);

/* See lp_formats.h: every format logp95 reads. */
const lp_format_def lp_formats[] = {
	/* "<timestamp> <method> <route> <latency_ms>" */
	{"default", lp_default_parse, lp_ts_parse_iso_field, 0},
	/* combined + request time in seconds, query string dropped */
	{"combined", lp_combined_parse, lp_combined_ts, 0},
	/* the same, query string kept in the route */
	{"combined_query", lp_combined_parse, lp_combined_ts, LP_FMT_KEEP_QUERY},
	/* combined + Apache %D microseconds, query string dropped */
	{"combined_us", lp_combined_parse, lp_combined_ts, LP_FMT_MICROS},
	/* the same, query string kept in the route */
	{"combined_us_query", lp_combined_parse, lp_combined_ts,
	LP_FMT_MICROS | LP_FMT_KEEP_QUERY},
	{NULL, NULL, NULL, 0}
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

/* See lp_formats.h. */
const char *
lp_names_join(char *buf, size_t cap, const void *table, size_t stride,
			  int (*keep) (const void *entry))
{
	const char *entry = table;
	size_t		n = 0;

	if (buf[0])
		return buf;				/* built on an earlier call */
	for (; *(const char *const *) entry; entry += stride)
	{
		const char *name = *(const char *const *) entry;
		size_t		len = strlen(name);

		if (keep && !keep(entry))
			continue;
		if (n + len + 3 > cap)
			break;				/* cannot happen with the tables here */
		if (n > 0)
		{
			memcpy(buf + n, ", ", 2);
			n += 2;
		}
		memcpy(buf + n, name, len);
		n += len;
	}
	buf[n] = '\0';
	return buf;
}

/*
 * See lp_formats.h: lp_format_names and lp_option_names, each built from its
 * table on the first call.
 */
const char *
lp_format_names(void)
{
	static char names[LP_FORMAT_NAMES_MAX];

	return lp_names_join(names, sizeof(names), lp_formats, sizeof(lp_formats[0]), NULL);
}

const char *
lp_option_names(void)
{
	static char names[LP_FORMAT_NAMES_MAX];

	return lp_names_join(names, sizeof(names), lp_options, sizeof(lp_options[0]), NULL);
}

/* ---------- route templates ---------- */

/* Is c a hex digit (either case)? */
static inline int
lp_is_hex(unsigned char c)
{
	return (unsigned) (c - '0') <= 9 || (unsigned) ((c | 0x20) - 'a') <= 5;
}

/* The placeholder of one path segment s[0..n), or NULL when it stays. */
static const char *
lp_segment_placeholder(const char *s, size_t n, size_t *plen)
{
	size_t		i;
	size_t		digits = 0;

	if (n == 0)
		return NULL;
	for (i = 0; i < n; i++)
	{
		unsigned char c = (unsigned char) s[i];

		if ((unsigned) (c - '0') <= 9)
			digits++;
		else if (!lp_is_hex(c))
			break;
	}
	if (i == n)
	{
		if (digits == n)
		{
			*plen = 3;
			return ":id";
		}
		if (n >= 16 && digits > 0)
		{
			*plen = 4;
			return ":hex";
		}
		return NULL;
	}
	if (n == 36 && s[8] == '-' && s[13] == '-' && s[18] == '-' && s[23] == '-')
	{
		for (i = 0; i < n; i++)
		{
			if (i == 8 || i == 13 || i == 18 || i == 23)
				continue;
			if (!lp_is_hex((unsigned char) s[i]))
				return NULL;
		}
		*plen = 5;
		return ":uuid";
	}
	return NULL;
}

/* See lp_formats.h. */
size_t
lp_route_template(const char *r, size_t n, int slash, int templates, char *buf)
{
	const char *end = r + n;
	const char *qm = n > 0 ? memchr(r, '?', n) : NULL;
	const char *path_end = qm ? qm : end;
	const char *copied = r;		/* r[.. copied) is in buf already */
	const char *s = r;
	char	   *o = buf;
	int			built = slash;

	if (slash)
		*o++ = '/';
	while (templates && s < path_end)
	{
		const char *e = memchr(s, '/', (size_t) (path_end - s));
		const char *ph;
		size_t		plen;

		if (!e)
			e = path_end;
		if ((ph = lp_segment_placeholder(s, (size_t) (e - s), &plen)) != NULL)
		{
			memcpy(o, copied, (size_t) (s - copied));
			o += s - copied;
			memcpy(o, ph, plen);
			o += plen;
			copied = e;
			built = 1;
		}
		if (e == path_end)
			break;
		s = e + 1;
	}
	if (!built)
		return 0;
	memcpy(o, copied, (size_t) (end - copied));
	o += end - copied;
	return (size_t) (o - buf);
}

/*
 * The route of a parsed line, with the call's templates applied: a slice
 * of the line when nothing changes, else built in ctx->buf.
 */
static void
lp_route_finish(const lp_parse_ctx *ctx, const char *r, size_t n, int slash,
				lp_fields *out)
{
	int			templates = ctx && (ctx->flags & LP_OPT_TEMPLATES);
	size_t		m;

	out->route = r;
	out->route_len = n;
	if (!templates && !slash)
		return;
	if (!ctx || !ctx->buf)
	{
		/* no scratch (the caller's promise broken): drop the query string */
		out->route = "/";
		out->route_len = 1;
		return;
	}
	m = lp_route_template(r, n, slash, templates, ctx->buf);
	if (m > 0)
	{
		out->route = ctx->buf;
		out->route_len = m;
	}
}

/* ---------- the table's parsers ---------- */

/* The default format's entry: lp_parse_line, its statuses renamed. */
static lp_line_status
lp_default_parse(const char *line, size_t len, const lp_format_def *fmt,
				 const lp_parse_ctx *ctx, lp_fields *out)
{
	lp_line		pl;
	lp_parse_status st = lp_parse_line(line, len, &pl);
	lp_fields	f = {pl.route, pl.route_len, pl.latency, pl.bad, pl.bad_len,
	LP_LINE_FIELDS, pl.nfields};

	*out = f;
	switch (st)
	{
		case LP_PARSE_OK:
			lp_route_finish(ctx, pl.route, pl.route_len, 0, out);
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

/* The combined formats' entries: lp_parse_combined with the entry's and the call's flags. */
static lp_line_status
lp_combined_parse(const char *line, size_t len, const lp_format_def *fmt,
				  const lp_parse_ctx *ctx, lp_fields *out)
{
	lp_cline	cl;
	unsigned	flags = fmt->flags | (ctx ? (ctx->flags & LP_FMT_KEEP_QUERY) : 0);
	lp_cparse_status st = lp_parse_combined(line, len, flags, &cl);
	int			noreq = st == LP_C_BAD_REQUEST || st == LP_C_NOT_HTTP;
	lp_fields	f = {cl.route, cl.route_len, cl.latency,
		/* the field an error is about: the request when it has no path */
		noreq ? cl.request : cl.bad, noreq ? cl.request_len : cl.bad_len,
	LP_C_MIN_TAIL_FIELDS, cl.tail_fields};

	*out = f;
	switch (st)
	{
		case LP_C_OK:
			lp_route_finish(ctx, cl.route, cl.route_len, cl.route_slash, out);
			return LP_LINE_OK;
		case LP_C_NO_TIME:
			return LP_LINE_NO_TIME;
		case LP_C_NO_REQUEST:
			return LP_LINE_NO_REQUEST;
		case LP_C_BAD_REQUEST:
			return LP_LINE_BAD_REQUEST;
		case LP_C_NOT_HTTP:
			return LP_LINE_NOT_HTTP;
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
int
lp_format_is_combined(const lp_format_def *fmt)
{
	return fmt->parse == lp_combined_parse;
}

/* See lp_formats.h. */
const lp_format_def *
lp_format_guess(const char *line, size_t len)
{
	const lp_format_def *f;
	const lp_format_def *guess = NULL;
	lp_cline	cl;
	lp_cparse_status st;

	for (f = lp_formats + 1; f->name; f++)
	{
		lp_fields	lf;

		if (f->parse == lp_default_parse || (f->flags & LP_FMT_KEEP_QUERY))
			continue;
		if (f->parse(line, len, f, NULL, &lf) == LP_LINE_OK)
			guess = f;
	}
	if (guess)
		return guess;
	/* a combined line with some other problem: a [time] and a request */
	st = lp_parse_combined(line, len, 0, &cl);
	if (st != LP_C_NO_TIME && st != LP_C_NO_REQUEST)
		return lp_format_lookup("combined", 8);
	return NULL;
}

/* ---------- per-call options ---------- */

/* See lp_formats.h: every option of logp95_agg(..., options). */
const lp_option_def lp_options[] = {
	/* count malformed lines, whatever logp95.on_malformed says */
	{"skip", LP_OPT_SKIP, LP_OPT_ERROR, 0},
	/* raise an error on a malformed line, whatever logp95.on_malformed says */
	{"error", LP_OPT_ERROR, LP_OPT_SKIP, 0},
	/* fold ids in the route's path into :id, :uuid, :hex */
	{"templates", LP_OPT_TEMPLATES, 0, 0},
	/* keep the query string in the route (as the _query formats do) */
	{"query", LP_FMT_KEEP_QUERY, 0, 1},
	{NULL, 0, 0, 0}
};

/* See lp_formats.h. */
lp_opts_status
lp_parse_options(const char *s, size_t len, unsigned *flags,
				 const char **word, size_t *word_len)
{
	const char *end = s + len;
	const char *p = s;

	*flags = 0;
	while (p < end && LP_IS_BLANK(*p))
		p++;
	if (p == end)
		return LP_OPTS_OK;		/* "" or blanks: no options */
	for (;;)
	{
		const char *w = p;
		const char *we;
		const char *next;
		const lp_option_def *o;

		while (w < end && LP_IS_BLANK(*w))
			w++;
		next = w;
		while (next < end && *next != ',')
			next++;
		we = next;
		while (we > w && LP_IS_BLANK(we[-1]))
			we--;
		*word = w;
		*word_len = (size_t) (we - w);
		for (o = lp_options; o->name; o++)
		{
			if (strlen(o->name) == *word_len && memcmp(o->name, w, *word_len) == 0)
				break;
		}
		if (!o->name)
			return LP_OPTS_UNKNOWN;
		if (*flags & o->conflicts)
			return LP_OPTS_CONFLICT;
		*flags |= o->flag;
		if (next == end)
			return LP_OPTS_OK;
		p = next + 1;			/* past the comma */
	}
}

/* ---------- the combined parser ---------- */

/* lp_parse_seconds_ms, inlined into lp_parse_combined (the request time of every line). */
static LP_ALWAYS_INLINE lp_cparse_status
lp_seconds_ms(const char *s, size_t len, int64_t *ms)
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
lp_parse_seconds_ms(const char *s, size_t len, int64_t *ms)
{
	return lp_seconds_ms(s, len, ms);
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
 * Byte scans of the combined parser.  Each finds, in [p, end), the first
 * byte equal to one of one or two given bytes, 16 bytes a step with SSE2
 * (x86-64 always has it), 8 with SWAR on other little-endian machines, then
 * byte by byte; no load reaches past end.  They return the same byte the
 * plain loop after them would (the reference, test/unit/ref_combined.h).
 */
#ifdef __SSE2__
/* Bit i set: byte p[i] is a or b. */
static LP_ALWAYS_INLINE unsigned
lp_mask16(const char *p, __m128i a, __m128i b)
{
	__m128i		v = _mm_loadu_si128((const __m128i *) p);

	return (unsigned) _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, a),
													 _mm_cmpeq_epi8(v, b)));
}
#elif defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LP_SWAR_SCAN 1
/*
 * High bit of each byte of the 8 at p that is a or b (a, b: the byte
 * repeated 8 times); the lowest set bit is exact (a borrow only flags bytes
 * above a zero byte).
 */
static LP_ALWAYS_INLINE uint64_t
lp_mask8(const char *p, uint64_t a, uint64_t b)
{
	const uint64_t ones = UINT64_C(0x0101010101010101);
	uint64_t	w,
				x,
				y;

	memcpy(&w, p, 8);
	x = w ^ a;
	y = w ^ b;
	return (((x - ones) & ~x) | ((y - ones) & ~y)) & UINT64_C(0x8080808080808080);
}
#endif

/*
 * The first byte a or b in [p, end), or NULL.  lo <= p is the start of the
 * line: the last block of a line of 16 bytes or more is read as the 16
 * bytes that end at end (from lo on, so inside the line), its bits below p
 * shifted out.
 */
static LP_ALWAYS_INLINE const char *
lp_scan2(const char *lo, const char *p, const char *end, char a, char b)
{
#ifdef __SSE2__
	const __m128i va = _mm_set1_epi8(a);
	const __m128i vb = _mm_set1_epi8(b);
	unsigned	m;

	while (end - p >= 16)
	{
		m = lp_mask16(p, va, vb);
		if (m)
			return p + __builtin_ctz(m);
		p += 16;
	}
	if (p < end && end - lo >= 16)
	{
		m = lp_mask16(end - 16, va, vb) >> (16 - (end - p));
		return m ? p + __builtin_ctz(m) : NULL;
	}
#elif defined(LP_SWAR_SCAN)
	const uint64_t wa = UINT64_C(0x0101010101010101) * (unsigned char) a;
	const uint64_t wb = UINT64_C(0x0101010101010101) * (unsigned char) b;

	(void) lo;
	while (end - p >= 8)
	{
		uint64_t	m = lp_mask8(p, wa, wb);

		if (m)
			return p + (__builtin_ctzll(m) >> 3);
		p += 8;
	}
#else
	(void) lo;
#endif
	for (; p < end; p++)
	{
		if (*p == a || *p == b)
			return p;
	}
	return NULL;
}

/*
 * The '"' that opens the request: the first '"' at the start of the line or
 * after a blank, or NULL.  Such a '"' is never escaped (the byte before it
 * is not a backslash), and nginx escapes the '"' of a user name.  *lb is
 * set to the last '[' before it (before end when there is none), or NULL:
 * the time's opening bracket, found in the same pass.
 */
static LP_ALWAYS_INLINE const char *
lp_find_request(const char *line, const char *end, const char **lb)
{
	const char *p = line;
	const char *q;

	*lb = NULL;
	while ((q = lp_scan2(line, p, end, '"', '[')) != NULL)
	{
		if (*q == '[')
			*lb = q;
		else if (q == line || LP_IS_BLANK(q[-1]))
			return q;
		p = q + 1;
	}
	return NULL;
}

/*
 * The "[...]" field before limit (the request's quote, or the end of the
 * line): lb, the last '[' before limit (from lp_find_request), and the
 * first ']' after it; lo is the start of the line.  Returns the byte after ']' or NULL.
 */
static LP_ALWAYS_INLINE const char *
lp_find_time(const char *lo, const char *lb, const char *limit, const char **time, size_t *time_len)
{
	const char *rb;

	if (!lb)
		return NULL;
	rb = lp_scan2(lo, lb + 1, limit, ']', ']');
	if (!rb)
		return NULL;
	*time = lb + 1;
	*time_len = (size_t) (rb - lb - 1);
	return rb + 1;
}

/*
 * p points at an opening '"': return the closing '"' (a backslash escapes
 * the byte after it), or NULL when the line ends first.  The bytes up to
 * the next '"' or '\' are skipped a block at a time; lo is the start of
 * the line.
 */
static LP_ALWAYS_INLINE const char *
lp_close_quote(const char *lo, const char *p, const char *end)
{
	p++;
	while ((p = lp_scan2(lo, p, end, '"', '\\')) != NULL)
	{
		if (*p == '"')
			return p;
		if (end - p < 2)
			return NULL;
		p += 2;
	}
	return NULL;
}

/* RFC 9110 tchar: the bytes of an HTTP method. */
static const unsigned char lp_tchar[256] = {
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
lp_is_scheme(unsigned char c)
{
	return (unsigned) ((c | 0x20) - 'a') <= 25 || (unsigned) (c - '0') <= 9 ||
		c == '+' || c == '-' || c == '.';
}

/*
 * The route of the request text rq[0..rq_end): METHOD SP TARGET [...].
 * Sets out->route, out->route_len and out->route_slash; lo is the start of
 * the line.
 */
static LP_ALWAYS_INLINE lp_cparse_status
lp_request_route(const char *lo, const char *rq, const char *rq_end, unsigned flags, lp_cline *out)
{
	const char *m = rq;
	const char *t;
	const char *te;

	while (m < rq_end && lp_tchar[(unsigned char) *m])
		m++;
	if (m == rq_end && rq_end - rq == 1 && *rq == '-')
		return LP_C_BAD_REQUEST;	/* nginx's "-": no request line */
	if (m == rq || m == rq_end || *m != ' ')
		return LP_C_NOT_HTTP;
	t = m + 1;
	te = lp_scan2(lo, t, rq_end, ' ', '\t');
	if (!te)
		te = rq_end;
	if (te == t)
		return LP_C_NOT_HTTP;
	/* the HTTP/2 connection preface, sent to an HTTP/1 port */
	if (m - rq == 3 && memcmp(rq, "PRI", 3) == 0 && te - t == 1 && *t == '*' &&
		rq_end - te == 9 && memcmp(te, " HTTP/2.0", 9) == 0)
		return LP_C_NOT_HTTP;

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
			if (s == te || (*s == '?' && !(flags & LP_FMT_KEEP_QUERY)))
			{
				out->route = "/";
				out->route_len = 1;
				return LP_C_OK;
			}
			out->route_slash = *s == '?';
			t = s;
		}
	}
	out->route = t;
	out->route_len = (size_t) (te - t);
	if (!(flags & LP_FMT_KEEP_QUERY))
	{
		const char *qm = lp_scan2(lo, t, te, '?', '?');

		if (qm)
			out->route_len = (size_t) (qm - t);
	}
	if (out->route_len == 0)
		return LP_C_BAD_REQUEST;
	return LP_C_OK;
}

/* See lp_formats.h. */
lp_cparse_status
lp_parse_combined(const char *line, size_t len, unsigned flags, lp_cline *out)
{
	const char *end = line + len;
	const char *p;
	const char *q;
	const char *rq;
	const char *lb;
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
	out->route_slash = 0;
	if (len > 0 && end[-1] == '\r')
		end--;

	/* "request": the first field opened by a '"'; [time]: the last '[' before it */
	rq = lp_find_request(line, end, &lb);
	if (!lp_find_time(line, lb, rq ? rq : end, &out->time, &out->time_len))
		return LP_C_NO_TIME;
	if (!rq)
		return LP_C_NO_REQUEST;
	q = lp_close_quote(line, rq, end);
	if (!q)
		return LP_C_UNTERMINATED;
	out->request = rq + 1;
	out->request_len = (size_t) (q - rq - 1);
	st = lp_request_route(line, out->request, q, flags, out);
	if (st != LP_C_OK)
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
			q = lp_close_quote(line, p, end);
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
			p = lp_scan2(line, p, end, ' ', '\t');
			if (!p)
				p = end;
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
		st = lp_seconds_ms(last, last_len, &out->latency);
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
	const char *rq;
	const char *lb;

	if (len > 0 && end[-1] == '\r')
		end--;
	rq = lp_find_request(line, end, &lb);
	if (!lp_find_time(line, lb, rq ? rq : end, &time, &time_len))
	{
		out->field = LP_TS_F_NONE;
		out->text = NULL;
		out->text_len = 0;
		return LP_TS_MISSING;
	}
	return lp_ts_parse_clf(time, time_len, out);
}
