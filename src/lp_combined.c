/* src/lp_combined.c -- the combined family: nginx's combined layout with a request time (plain C) */
#include "lp_combined.h"

#include "lp_parse.h"
#include "lp_simd.h"
#include "lp_templates.h"
#include "lp_token.h"
#include "lp_units.h"

/*
 * LP_PARSE_FIELDS: the method (the request's first word) and the status
 * (the first field after the request, three digits) of a line whose
 * request closed (cl->request set) and is an HTTP request.
 */
static void
lp_combined_fields(const char *line, size_t len, lp_status st, const lp_cline *cl,
				   lp_result *out)
{
	const char *end = line + len;
	const char *p;
	const char *f;

	if (!cl->request || st == LP_ST_BAD_REQUEST || st == LP_ST_NOT_HTTP)
		return;
	p = memchr(cl->request, ' ', cl->request_len);
	if (p && p > cl->request)
	{
		out->method = cl->request;
		out->method_len = (size_t) (p - cl->request);
		out->has |= LP_HAS_METHOD;
	}
	if (len > 0 && end[-1] == '\r')
		end--;
	p = cl->request + cl->request_len + 1;	/* past the closing quote */
	while (p < end && LP_IS_BLANK(*p))
		p++;
	f = p;
	while (p < end && !LP_IS_BLANK(*p))
		p++;
	if (p - f == 3 && f[0] >= '1' && f[0] <= '9' && (unsigned) (f[1] - '0') <= 9 &&
		(unsigned) (f[2] - '0') <= 9)
	{
		out->status = (f[0] - '0') * 100 + (f[1] - '0') * 10 + (f[2] - '0');
		out->has |= LP_HAS_STATUS;
	}
}

/*
 * The option "unescape" (LP_PARSE_UNESCAPE, unless LP_PARSE_LOGGED): undo
 * the server's escaping in a counted route, nginx's \xHH and Apache's
 * \xhh, \" and \\ alike (lp_token.h, LP_ESC_APACHE: nginx escapes every
 * backslash it logs, so each one starts an escape), in ctx->buf.
 */
static void
lp_combined_unescape(const lp_parse_ctx *ctx, lp_result *out)
{
	int			high = 0;

	if (!ctx->buf || memchr(out->route, '\\', out->route_len) == NULL)
		return;
	out->route_len = lp_unescape(out->route, out->route_len, LP_ESC_APACHE, ctx->buf, &high);
	out->route = ctx->buf;
	if (high)
		out->has |= LP_HAS_ROUTE_HIGH;
}

/* See lp_combined.h. */
lp_status
lp_combined_parse(const char *line, size_t len, const lp_format_def *fmt,
				  const lp_parse_ctx *ctx, lp_result *out)
{
	lp_cline	cl;
	unsigned	flags = fmt->pflags | (ctx ? (ctx->flags & LP_PARSE_KEEP_QUERY) : 0);
	lp_status	st = lp_parse_combined(line, len, flags, &cl);

	if (st == LP_ST_OK)
	{
		/* a route, a latency, and the fields the format wants after the request */
		LP_ASSERT(cl.route != NULL && cl.route_len > 0 && cl.latency >= 0 &&
				  cl.tail_fields >= LP_C_MIN_TAIL_FIELDS);
		out->has = LP_HAS_ROUTE | LP_HAS_LATENCY | LP_HAS_TIME;
		out->latency = cl.latency;
		out->time = cl.time;
		out->time_len = cl.time_len;
		lp_route_finish(ctx, cl.route, cl.route_len, cl.route_slash, out);
		if (ctx && (ctx->flags & (LP_PARSE_UNESCAPE | LP_PARSE_LOGGED)) == LP_PARSE_UNESCAPE)
			lp_combined_unescape(ctx, out);
	}
	else
	{
		out->has = cl.time ? LP_HAS_TIME : 0;
		out->time = cl.time;
		out->time_len = cl.time_len;
		/* the field an error is about: the request when it has no path */
		if (st == LP_ST_BAD_REQUEST || st == LP_ST_NOT_HTTP)
		{
			out->bad = cl.request;
			out->bad_len = cl.request_len;
		}
		else
		{
			out->bad = cl.bad;
			out->bad_len = cl.bad_len;
		}
		out->nwant = LP_C_MIN_TAIL_FIELDS;
		out->nfields = cl.tail_fields;
	}
	if (ctx && (ctx->flags & LP_PARSE_FIELDS))
		lp_combined_fields(line, len, st, &cl, out);
	return st;
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


#ifdef LP_SIMD_SSE2
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

#endif

/*
 * The builds of the combined parser, one per lp_isa: the base build (SSE2,
 * SWAR or bytes) and, where the compiler has one, the AVX2 build, whose
 * scans step 32 bytes at a time.
 */
#define LP_CI(name) name##_base
#define LP_CI_ATTR
#define LP_CI_AVX2 0
#include "lp_combined_impl.h"

#ifdef LP_SIMD_AVX2
#define LP_CI(name) name##_avx2
#define LP_CI_ATTR LP_AVX2_ATTR
#define LP_CI_AVX2 1
#include "lp_combined_impl.h"
#endif

/* Every build, indexed by lp_isa (NULL: not in this binary). */
static const lp_combined_fn lp_combined_builds[LP_ISA_COUNT] = {
	[LP_ISA_BASE] = lp_parse_combined_base,
#ifdef LP_SIMD_AVX2
	[LP_ISA_AVX2] = lp_parse_combined_avx2,
#endif
};

/* See lp_combined.h. */
const lp_direct_fn lp_combined_direct[LP_ISA_COUNT] = {
	[LP_ISA_BASE] = lp_combined_direct_base,
#ifdef LP_SIMD_AVX2
	[LP_ISA_AVX2] = lp_combined_direct_avx2,
#endif
};

/* See lp_combined.h. */
lp_combined_fn
lp_combined_parser(lp_isa isa)
{
	if (isa == LP_ISA_BEST)
		return lp_combined_builds[lp_simd_isa];
	if (isa < 0 || isa >= LP_ISA_COUNT || !lp_simd_has(isa))
		return NULL;
	return lp_combined_builds[isa];
}

/* See lp_combined.h: the chosen build. */
lp_status
lp_parse_combined(const char *line, size_t len, unsigned flags, lp_cline *out)
{
	return lp_combined_builds[lp_simd_isa] (line, len, flags, out);
}

/* See lp_combined.h. */
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
