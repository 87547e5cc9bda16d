/* src/lp_formats.c -- the table of access-log formats and the combined-format parser (plain C) */
#include <stdlib.h>

#include "lp_formats.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif
/*
 * On x86-64 with GCC or clang the combined parser is built a second time for
 * CPUs with AVX2 (LP_NO_AVX2 leaves it out), chosen at run time.
 */
#if defined(__x86_64__) && defined(__SSE2__) && defined(__GNUC__) && !defined(LP_NO_AVX2)
#define LP_AVX2_DISPATCH 1
#include <immintrin.h>
#define LP_AVX2_ATTR __attribute__((target("avx2")))
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
	LP_ASSERT((size_t) (o - buf) <= LP_ROUTE_BUF_SIZE(n));	/* the caller's buffer */
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
			LP_ASSERT(pl.route >= line && pl.route_len > 0 &&
					  pl.route + pl.route_len <= line + len && pl.latency >= 0);
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
			/* a route, a latency, and the fields the format wants after the request */
			LP_ASSERT(cl.route != NULL && cl.route_len > 0 && cl.latency >= 0 &&
					  cl.tail_fields >= LP_C_MIN_TAIL_FIELDS);
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

	/*
	 * nginx's $request_time, "D.DDD" with one to five whole digits: read at
	 * once (the general loop below gives the same, more slowly)
	 */
	if (len >= 5 && len <= 9 && s[len - 4] == '.')
	{
		unsigned	d1 = (unsigned char) s[len - 3] - '0';
		unsigned	d2 = (unsigned char) s[len - 2] - '0';
		unsigned	d3 = (unsigned char) s[len - 1] - '0';
		const char *dot = s + len - 4;

		if (d1 <= 9 && d2 <= 9 && d3 <= 9)
		{
			for (; p < dot; p++)
			{
				unsigned	d = (unsigned char) *p - '0';

				if (d > 9)
					break;
				ip = ip * 10 + d;
			}
			if (p == dot)
			{
				*ms = (int64_t) (ip * 1000 + d1 * 100 + d2 * 10 + d3);
				return LP_C_OK;
			}
			p = s;
			ip = 0;
		}
	}
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
 * The byte masks of the combined parser's scans (lp_scan3 in
 * lp_combined_impl.h): each scan finds, in [p, end), the first byte equal to
 * one of up to three given bytes, 32 bytes a step in the AVX2 build, 16 with
 * SSE2 (x86-64 always has it), 8 with SWAR on other little-endian machines,
 * then byte by byte; no load reaches past end.  They return the same byte the
 * plain loop after them would (the reference, test/unit/ref_combined.h).
 */
#ifdef __SSE2__
/* Bit i set: byte p[i] is a, b or c. */
static LP_ALWAYS_INLINE unsigned
lp_mask16(const char *p, __m128i a, __m128i b, __m128i c)
{
	__m128i		v = _mm_loadu_si128((const __m128i *) p);

	return (unsigned) _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, a),
																  _mm_cmpeq_epi8(v, b)),
													 _mm_cmpeq_epi8(v, c)));
}
#elif defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LP_SWAR_SCAN 1
/*
 * High bit of each byte of the 8 at p that is a, b or c (each the byte
 * repeated 8 times); the lowest set bit is exact (a borrow only flags bytes
 * above a zero byte).
 */
static LP_ALWAYS_INLINE uint64_t
lp_mask8(const char *p, uint64_t a, uint64_t b, uint64_t c)
{
	const uint64_t ones = UINT64_C(0x0101010101010101);
	uint64_t	w,
				x,
				y,
				z;

	memcpy(&w, p, 8);
	x = w ^ a;
	y = w ^ b;
	z = w ^ c;
	return (((x - ones) & ~x) | ((y - ones) & ~y) | ((z - ones) & ~z)) &
		UINT64_C(0x8080808080808080);
}
#endif


#ifdef LP_AVX2_DISPATCH
/* Bit i set: byte p[i] is a, b or c, for the 32 bytes at p (AVX2 only). */
static LP_ALWAYS_INLINE LP_AVX2_ATTR unsigned
lp_mask32(const char *p, __m256i a, __m256i b, __m256i c)
{
	__m256i		v = _mm256_loadu_si256((const __m256i *) p);

	return (unsigned) _mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, a),
																		   _mm256_cmpeq_epi8(v, b)),
														   _mm256_cmpeq_epi8(v, c)));
}
#endif

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


#ifdef __SSE2__
/*
 * The byte classes of the combined parser's whole-block paths
 * (lp_word_masks in lp_combined_impl.h): the tail's three first, then the
 * three the front needs too.
 */
enum
{
	LP_WM_Q,					/* '"' */
	LP_WM_BS,					/* '\\' */
	LP_WM_BL,					/* ' ' or '\t' (LP_IS_BLANK) */
	LP_WM_TAIL,					/* (the tail's classes end here) */
	LP_WM_LB = LP_WM_TAIL,		/* '[' */
	LP_WM_RB,					/* ']' */
	LP_WM_QM,					/* '?' */
	LP_WM_CLASSES
};

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 lp_u128;

/* The lowest set bit of a 128-bit mask that has one. */
static LP_ALWAYS_INLINE unsigned
lp_ctz128(lp_u128 c)
{
	return (uint64_t) c ? (unsigned) __builtin_ctzll((uint64_t) c) :
		64 + (unsigned) __builtin_ctzll((uint64_t) (c >> 64));
}

/* The highest set bit of a 128-bit mask that has one. */
static LP_ALWAYS_INLINE unsigned
lp_top128(lp_u128 c)
{
	return (c >> 64) ? 127 - (unsigned) __builtin_clzll((uint64_t) (c >> 64)) :
		63 - (unsigned) __builtin_clzll((uint64_t) c);
}
#endif
#endif

/* The base build of the combined parser: SSE2, SWAR or bytes. */
#define LP_CI(name) name##_base
#define LP_CI_ATTR
#define LP_CI_AVX2 0
#include "lp_combined_impl.h"

#ifdef LP_AVX2_DISPATCH
/* The AVX2 build: its scans step 32 bytes at a time. */
#define LP_CI(name) name##_avx2
#define LP_CI_ATTR LP_AVX2_ATTR
#define LP_CI_AVX2 1
#include "lp_combined_impl.h"
#endif

/* The best build, chosen once (lp_combined_parser(LP_ISA_BEST)). */
static lp_combined_fn lp_combined_best;

/* See lp_formats.h. */
lp_combined_fn
lp_combined_parser(lp_isa isa)
{
	if (isa == LP_ISA_BEST)
	{
		if (!lp_combined_best)
		{
			const char *e = getenv("LOGP95_ISA");
			lp_combined_fn avx2 = lp_combined_parser(LP_ISA_AVX2);

			lp_combined_best = (e && strcmp(e, "base") == 0) || !avx2 ?
				lp_parse_combined_base : avx2;
		}
		return lp_combined_best;
	}
	if (isa == LP_ISA_BASE)
		return lp_parse_combined_base;
#ifdef LP_AVX2_DISPATCH
	__builtin_cpu_init();
	if (isa == LP_ISA_AVX2 && __builtin_cpu_supports("avx2"))
		return lp_parse_combined_avx2;
#endif
	return NULL;
}

/* See lp_formats.h: the best build. */
lp_cparse_status
lp_parse_combined(const char *line, size_t len, unsigned flags, lp_cline *out)
{
	return lp_combined_parser(LP_ISA_BEST)(line, len, flags, out);
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
	rq = lp_find_request_base(line, end, &lb);
	if (!lp_find_time_base(line, lb, rq ? rq : end, &time, &time_len))
	{
		out->text = NULL;
		out->text_len = 0;
		return LP_TS_MISSING;
	}
	return lp_ts_parse_clf(time, time_len, out);
}

/* See lp_formats.h. */
lp_ts_status
lp_combined_ts_of(const lp_cline *cl, lp_ts *out)
{
	return lp_ts_parse_clf(cl->time, cl->time_len, out);
}
