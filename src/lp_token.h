/* src/lp_token.h -- tokenizers every format shares: the HTTP request line, routes, logged escapes, latencies (plain C) */
#ifndef LP_TOKEN_H
#define LP_TOKEN_H

#include "lp_format.h"
#include "lp_http.h"
#include "lp_units.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/*
 * The pieces a parser of any format calls once it has cut a line into
 * fields (lp_definition.c, the presets): read the request line, build the
 * route the call asked for, undo the server's escaping, and turn a
 * latency in any unit into milliseconds.  None of them copies the line;
 * a built route goes to the caller's scratch buffer (lp_parse_ctx.buf).
 */

/* ---------- byte scans ---------- */

/*
 * The first byte c in [s, end), or NULL; lo <= s is the start of the
 * buffer (every byte of [lo, end) may be read).  Fields are short, and a
 * call of memchr costs more than the few blocks they take, so on x86-64
 * the bytes are compared inline, 32 a step with SSE2 (the last block read
 * as the 16 bytes of [lo, end) that end at end, the bits below s shifted
 * out); elsewhere it is memchr.  The unit tests compare it with a byte
 * loop at every offset and length.
 */
static inline const char *
lp_find_byte(const char *lo, const char *s, const char *end, char c)
{
#ifdef __SSE2__
	const __m128i v = _mm_set1_epi8(c);
	unsigned	m;

	/* the first 16 bytes alone: most fields end in them */
	if (end - s >= 16)
	{
		m = (unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *) s), v));
		if (m)
			return s + __builtin_ctz(m);
		s += 16;
	}
	while (end - s >= 32)
	{
		m = (unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *) s), v)) |
			(unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *) (s + 16)), v)) << 16;
		if (m)
			return s + __builtin_ctz(m);
		s += 32;
	}
	if (end - s >= 16)
	{
		m = (unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *) s), v));
		if (m)
			return s + __builtin_ctz(m);
		s += 16;
	}
	if (s < end && end - lo >= 16)
	{
		m = (unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *) (end - 16)),
														v)) >> (16 - (end - s));
		return m ? s + __builtin_ctz(m) : NULL;
	}
	for (; s < end; s++)
		if (*s == c)
			return s;
	return NULL;
#else
	(void) lo;
	return s < end ? (const char *) memchr(s, c, (size_t) (end - s)) : NULL;
#endif
}

/*
 * The first byte a, b, c or d in [s, end), or NULL; lo as for
 * lp_find_byte.  16 bytes a step with SSE2 (the last block read as the 16
 * bytes that end at end), byte by byte elsewhere.  For the short runs of
 * a request line.
 */
static inline const char *
lp_find_byte4(const char *lo, const char *s, const char *end, char a, char b, char c, char d)
{
#ifdef __SSE2__
	const __m128i va = _mm_set1_epi8(a);
	const __m128i vb = _mm_set1_epi8(b);
	const __m128i vc = _mm_set1_epi8(c);
	const __m128i vd = _mm_set1_epi8(d);
	unsigned	m;

#define LP_TOK_EQ4(v) \
	((unsigned) _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8((v), va), _mm_cmpeq_epi8((v), vb)), \
											   _mm_or_si128(_mm_cmpeq_epi8((v), vc), _mm_cmpeq_epi8((v), vd)))))
	while (end - s >= 16)
	{
		m = LP_TOK_EQ4(_mm_loadu_si128((const __m128i *) s));
		if (m)
			return s + __builtin_ctz(m);
		s += 16;
	}
	if (s < end && end - lo >= 16)
	{
		m = LP_TOK_EQ4(_mm_loadu_si128((const __m128i *) (end - 16))) >> (16 - (end - s));
		return m ? s + __builtin_ctz(m) : NULL;
	}
#undef LP_TOK_EQ4
#else
	(void) lo;
#endif
	for (; s < end; s++)
		if (*s == a || *s == b || *s == c || *s == d)
			return s;
	return NULL;
}

/* ---------- escapes ---------- */

/* How a server escaped a logged field. */
typedef enum lp_escape
{
	LP_ESC_NONE = 0,			/* nothing escaped (nginx escape=none, varnishncsa) */
	LP_ESC_NGINX,				/* nginx's default: \xHH for '"', '\', bytes < 0x20 and >= 0x7f */
	LP_ESC_JSON,				/* JSON strings, nginx escape=json: \" \\ \/ \b \f \n \r \t \uXXXX */
	LP_ESC_APACHE,				/* Apache (ap_escape_logitem), lighttpd: \xhh, \" \\, \b \n \r \t \v */
	LP_ESC_HASH,				/* HAProxy: '#' and two hex digits ("#22" for '"') */
	LP_ESC_PERCENT				/* CloudFront: '%' and two hex digits ("%20" for ' ') */
} lp_escape;

/* The byte that starts an escape of esc (not LP_ESC_NONE): '\\', '#' or '%'. */
static inline char
lp_escape_mark(lp_escape esc)
{
	return esc == LP_ESC_HASH ? '#' : esc == LP_ESC_PERCENT ? '%' : '\\';
}

/*
 * Undo escaping `esc` in s[0..n) into out (n bytes are enough; out may be
 * s itself: the result is never longer).  Returns the length written.
 * A sequence that is not an escape of `esc` (a lone backslash, \xZZ, a
 * lone UTF-16 surrogate) and one that would give a NUL byte (\x00,
 * \u0000) are copied as logged.  *high is set to 1 when a decoded byte is
 * >= 0x80 (the caller checks that the result is valid in its encoding),
 * and left alone otherwise.
 */
extern size_t lp_unescape(const char *s, size_t n, lp_escape esc, char *out, int *high);

/*
 * The one escape of `esc` at s (s[0] == lp_escape_mark(esc), e the end of the input),
 * for a reader that decodes as it goes (lp_json.c compares keys so):
 * its decoded bytes (at most 4) written at o and *used set to the bytes
 * it takes; returns the bytes written, 0 when s does not start an escape
 * of `esc` or starts one that gives a NUL byte (lp_unescape then copies
 * the mark as logged).  *high as for lp_unescape.
 */
extern size_t lp_unescape_one(const char *s, const char *e, lp_escape esc, char *o, size_t *used,
							  int *high);

/* ---------- the HTTP request line ---------- */

/* What lp_request_parse and lp_target_route found; slices of their input. */
typedef struct lp_request
{
	const char *method;			/* the method (lp_request_parse only), else NULL */
	size_t		method_len;
	const char *route;			/* the route: the target's path, query kept with LP_PARSE_KEEP_QUERY */
	size_t		route_len;
	int			route_slash;	/* 1: the route is "/" followed by route[0..route_len): an
								 * absolute-form target with no path and a query kept */
	int			route_escaped;	/* 0: the route has no backslash; 1: it may have one */
} lp_request;

/*
 * Read a request line rq[0..len) as the combined parser does
 * (test/unit/ref_combined.h, ref_c_request_route): METHOD SP TARGET [...],
 * METHOD one or more RFC 9110 tchars, TARGET the run of non-blank bytes
 * after the space; what follows it is not read.  An absolute-form target
 * (scheme://authority[/path][?query]) counts under its path ("/" when it
 * has none); the query string is cut unless flags has
 * LP_PARSE_KEEP_QUERY.  Statuses:
 *   LP_ST_OK           out->method and out->route set
 *   LP_ST_BAD_REQUEST  "-" (nginx: no request line), or a target with an empty path
 *   LP_ST_NOT_HTTP     no method, no blank after it, no target, the HTTP/2
 *                      preface "PRI * HTTP/2.0", or the placeholder of a
 *                      request the server could not read: method "-"
 *                      (varnishncsa's "- http://localhost HTTP/1.0") or
 *                      blanks (lighttpd's "  ")
 * The placeholder method "-" is the one difference from the combined
 * parser of 1.1, which counted such lines under "/".
 */
extern lp_status lp_request_parse(const char *rq, size_t len, unsigned flags, lp_request *out);

/*
 * Read a request target alone, t[0..len) (nginx $request_uri, $uri,
 * Apache %U%q): the same rules as the target of lp_request_parse;
 * LP_ST_BAD_REQUEST when it is empty, "-", or has an empty path.
 */
extern lp_status lp_target_route(const char *t, size_t len, unsigned flags, lp_request *out);

/* ---------- routes ---------- */

/*
 * Set out->route from the route r[0..n) (slash: "/" goes in front, and
 * escaped: 0 when r is known to have no backslash; see lp_request) as the
 * call's flags ask, and add LP_HAS_ROUTE to out->has:
 *   - route templates (LP_PARSE_TEMPLATES) through lp_route_template;
 *   - the host in front (LP_PARSE_HOST, when host_len > 0): "example.com/login";
 *   - escaping `esc` undone (unless LP_PARSE_LOGGED), in the route and the
 *     host; LP_HAS_ROUTE_HIGH is added when that gave a byte >= 0x80.
 * The route stays a slice of r when nothing changes, else it is built in
 * ctx->buf, which must hold LP_ROUTE_BUF_SIZE(len) bytes for the line of
 * len bytes that r and host are disjoint slices of.  Templates and the
 * query cut work on the logged bytes: the escapers of nginx and Apache
 * never escape the bytes they look at (digits, letters, '-', '/', '?').
 * Without a buffer (ctx or ctx->buf NULL) the route stays as logged.
 */
static inline void lp_route_build(const char *r, size_t n, int slash, int escaped,
								  const char *host, size_t host_len,
								  lp_escape esc, const lp_parse_ctx *ctx, lp_result *out);

/* lp_route_build when something is to be done (lp_token.c). */
extern void lp_route_build_slow(const char *r, size_t n, int slash, int escaped,
								const char *host, size_t host_len,
								lp_escape esc, const lp_parse_ctx *ctx, lp_result *out);

/* See above: the usual route, a slice of the line, set inline. */
static inline void
lp_route_build(const char *r, size_t n, int slash, int escaped, const char *host, size_t host_len,
			   lp_escape esc, const lp_parse_ctx *ctx, lp_result *out)
{
	if (!slash && (!ctx || !(ctx->flags & (LP_PARSE_TEMPLATES | LP_PARSE_HOST))) &&
		(!escaped || esc == LP_ESC_NONE || (ctx && (ctx->flags & LP_PARSE_LOGGED))))
	{
		out->has |= LP_HAS_ROUTE;
		out->route = r;
		out->route_len = n;
		return;
	}
	lp_route_build_slow(r, n, slash, escaped, host, host_len, esc, ctx, out);
}

/* ---------- latencies ---------- */

/*
 * A latency s[0..len) in `unit` to milliseconds, rounded half up:
 *   LP_UNIT_S   "D+" or "D+.D+" (lp_parse_seconds_ms, the combined parser's reader)
 *   LP_UNIT_MS  an integer of milliseconds
 *   LP_UNIT_US  an integer of microseconds (lp_parse_micros_ms)
 *   LP_UNIT_NS  an integer of nanoseconds
 * "-" or nothing is LP_ST_NO_LATENCY (no response: nginx's upstream time
 * of a request that never reached one); otherwise LP_ST_BAD_SECONDS,
 * LP_ST_BAD_MICROS or LP_ST_BAD_LATENCY for a value not written so, and
 * LP_ST_REQTIME_RANGE or LP_ST_LATENCY_RANGE past bigint milliseconds.
 */
extern lp_status lp_latency_ms(const char *s, size_t len, lp_unit unit, int64_t *ms);

/*
 * lp_latency_ms with its usual case, seconds, inline (lp_units.h's
 * lp_seconds_ms, the combined parser's reader): the definitions read a
 * latency on every line.
 */
static LP_ALWAYS_INLINE lp_status
lp_latency_ms_inline(const char *s, size_t len, lp_unit unit, int64_t *ms)
{
	if (unit == LP_UNIT_S && len >= 2)
		return lp_seconds_ms(s, len, ms);
	return lp_latency_ms(s, len, unit, ms);
}

/*
 * nginx's upstream lists ($upstream_response_time): latencies separated
 * by ", " (servers of one group) and " : " (groups after an internal
 * redirect), summed; a "-" item counts 0, and a list of nothing but "-"
 * is LP_ST_NO_LATENCY.  Each item is rounded on its own (nginx writes
 * milliseconds, so the sum is exact).  A single latency is a list of one.
 */
extern lp_status lp_latency_list_ms(const char *s, size_t len, lp_unit unit, int64_t *ms);

/*
 * The end of an upstream list that starts at p: items (runs of bytes
 * other than blanks and ',') joined by ", " or " : ".  Lets a parser find
 * where such a field ends although it holds blanks.
 */
extern const char *lp_list_end(const char *p, const char *end);

#endif							/* LP_TOKEN_H */
