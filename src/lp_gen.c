/* src/lp_gen.c -- deterministic access-log generator (plain C) */
#include "lp_gen.h"

#include <stdio.h>
#include <string.h>

#include "lp_options.h"
#include "lp_time.h"

/* 2026-11-07T00:00:00 UTC as days since 1970-01-01. */
#define LP_GEN_EPOCH_DAYS 20764

/* splitmix64: a small, well-mixed deterministic sequence. */
static uint64_t
lp_mix(uint64_t *s)
{
	uint64_t	z = (*s += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* See lp_gen.h. */
void
lp_gen_init(lp_gen *g, int32_t routes, int64_t seed)
{
	g->seed = (uint64_t) seed;
	g->rng = (uint64_t) seed ^ UINT64_C(0x6C6F67703935);	/* "logp95" */
	g->routes = routes < 1 ? 1 : routes;
	g->latency = LP_GEN_NARROW;
	g->fmt = LP_FORMAT_DEFAULT;
}

/* See lp_gen.h. */
int
lp_gen_latency_lookup(const char *name, size_t len, lp_gen_latency *out)
{
	if (len == 6 && memcmp(name, "narrow", 6) == 0)
		*out = LP_GEN_NARROW;
	else if (len == 9 && memcmp(name, "long_tail", 9) == 0)
		*out = LP_GEN_LONG_TAIL;
	else
		return 0;
	return 1;
}

/* See lp_gen.h. */
void
lp_gen_set_latency(lp_gen *g, lp_gen_latency lat)
{
	g->latency = lat;
}

/* The route of route number r: four shapes, as the default format has always written. */
static int
lp_gen_route(int32_t r, char *route, size_t size)
{
	switch (r % 4)
	{
		case 0:
			return snprintf(route, size, "/api/v1/resource%d/items", (int) r);
		case 1:
			return snprintf(route, size, "/api/v1/resource%d", (int) r);
		case 2:
			return snprintf(route, size, "/api/v2/users/%d/orders", (int) r);
		default:
			return snprintf(route, size, "/static/app%d.js", (int) r);
	}
}

/*
 * Draw line i's route number, latency (ms) and method: two steps of the
 * sequence, the same for every format (which is why the default and the
 * combined reports of the same (routes, seed) are equal).
 */
static void
lp_gen_draw(lp_gen *g, int32_t *route, uint64_t *latency, const char **method)
{
	static const char *const methods[] = {"GET", "GET", "GET", "GET", "GET", "POST", "PUT", "DELETE"};
	uint64_t	x = lp_mix(&g->rng);
	int32_t		hot = g->routes / 10 > 0 ? g->routes / 10 : 1;
	int32_t		r;
	uint64_t	rs,
				base,
				lat,
				tail;

	/* half of the traffic goes to the hottest tenth of the routes */
	r = (int32_t) ((x >> 1) % (uint64_t) ((x & 1) ? hot : g->routes));

	/* a per-route typical latency of 3..122 ms */
	rs = g->seed ^ ((uint64_t) r * UINT64_C(0x2545F4914F6CDD1D));
	base = 3 + lp_mix(&rs) % 120;

	/* body: base .. 2*base; 9% slow by 2..5x; 1% very slow by 5..40x */
	x = lp_mix(&g->rng);
	lat = base + base * (x % 100) / 100;
	tail = (x >> 8) % 1000;
	if (tail < 10)
		lat *= 5 + (x >> 20) % 36;
	else if (tail < 100)
		lat *= 2 + (x >> 20) % 4;
	*route = r;
	*latency = lat;
	*method = methods[(x >> 40) % 8];
}

/*
 * Fixed-point base-2 logarithms and powers for the long-tailed mode, in
 * integers only, so that a seed gives the same lines on every platform and
 * compiler (libm's exp and log, and floating-point contraction, may differ
 * in the last bit, which moves a rounded millisecond).  A "q16" number is
 * x * 65536.  lp_pow2_tab[j] is 2^(j/16) * 2^30, rounded; between two
 * entries both functions interpolate linearly (relative error below
 * 2.5e-4: a few tenths of a millisecond at a second).
 */
static const int64_t lp_pow2_tab[17] = {
	1073741824, 1121280436, 1170923762, 1222764986, 1276901417, 1333434672,
	1392470869, 1454120821, 1518500250, 1585730000, 1655936265, 1729250827,
	1805811301, 1885761398, 1969251188, 2056437387, 2147483648
};

/* 2^(e / 65536), rounded to an integer; e at most 40 * 65536. */
static uint64_t
lp_gen_exp2_q16(int64_t e)
{
	int64_t		k = e >= 0 ? e / 65536 : -((-e + 65535) / 65536);	/* floor */
	int64_t		f = e - k * 65536;	/* 0 .. 65535 */
	int			j = (int) (f >> 12);
	int64_t		mant = lp_pow2_tab[j] +
		((lp_pow2_tab[j + 1] - lp_pow2_tab[j]) * (f & 4095)) / 4096;
	int64_t		shift = 30 - k;

	LP_ASSERT(k <= 40);
	if (shift >= 62)
		return 0;
	if (shift <= 0)
		return (uint64_t) mant << -shift;
	return (uint64_t) ((mant + ((int64_t) 1 << (shift - 1))) >> shift);
}

/* log2(u) * 65536, truncated; u >= 1. */
static int64_t
lp_gen_log2_q16(uint64_t u)
{
	int			k = 63;
	int64_t		m;
	int			j = 0;

	LP_ASSERT(u >= 1);
	while (!(u >> k))
		k--;
	/* the mantissa in [2^30, 2^31) */
	m = (int64_t) (k >= 30 ? u >> (k - 30) : u << (30 - k));
	while (j < 15 && lp_pow2_tab[j + 1] <= m)
		j++;
	return (int64_t) k * 65536 + j * 4096 +
		((m - lp_pow2_tab[j]) * 4096) / (lp_pow2_tab[j + 1] - lp_pow2_tab[j]);
}

/* The long-tailed mode's cap: a gateway's 60-second timeout. */
#define LP_GEN_TIMEOUT_MS 60000

/*
 * Draw line i's route, latency and method in the long-tailed mode: two
 * steps of the sequence, as the narrow mode takes.  The route is the narrow mode's (the first step,
 * read the same way).  Per route r, from a hash of (seed, r):
 *   median m_r: log-uniform over 8 .. 512 ms (log2 m_r uniform in [3, 9));
 *   spread s_r: the body's standard deviation in log2 units, uniform in
 *               [0.6, 1.4) (0.42 .. 0.97 in natural-log units).
 * Per line, 95.0% (973 in 1,024) of the requests: the body, log-normal,
 *   log2(latency) = log2(m_r) + s_r * z, with z the sum of four uniforms
 *   centred and scaled to unit variance (an Irwin-Hall approximation of the
 *   normal, bounded at +-3.46);
 * 5.0% (51 in 1,024): the tail, Pareto with shape alpha = 1.2 from
 *   x_min = m_r * 2^(2 s_r) (the body's 97.7th percentile),
 *   log2(latency) = log2(x_min) - log2(u) / alpha, u uniform in (0, 1].
 * Latencies are rounded to whole ms and capped at 60,000 ms (the requests
 * that time out).  At 300 routes, seed 42: 400,000 lines hold 5,117
 * distinct values and 88,000 distinct (route, value) pairs, p50 77 ms, p99
 * 2,318 ms, p99.9 15,619 ms; 4,000,000 lines hold 13,596 values and
 * 246,443 pairs, up to 5,572 distinct values on one route and over 1,000
 * on 87 of the 300.
 */
static void
lp_gen_draw_long_tail(lp_gen *g, int32_t *route, uint64_t *latency, const char **method)
{
	static const char *const methods[] = {"GET", "GET", "GET", "GET", "GET", "POST", "PUT", "DELETE"};
	uint64_t	x = lp_mix(&g->rng);
	int32_t		hot = g->routes / 10 > 0 ? g->routes / 10 : 1;
	int32_t		r;
	uint64_t	rs,
				h1,
				h2,
				y,
				w,
				lat;
	int64_t		mu,
				sigma,
				z,
				l2;

	/* the narrow mode's route: half of the traffic to the hottest tenth */
	r = (int32_t) ((x >> 1) % (uint64_t) ((x & 1) ? hot : g->routes));

	/* the route's median and spread (q16 log2 units) */
	rs = g->seed ^ ((uint64_t) r * UINT64_C(0x2545F4914F6CDD1D)) ^ UINT64_C(0x7461696C);	/* "tail" */
	h1 = lp_mix(&rs);
	h2 = lp_mix(&rs);
	mu = 3 * 65536 + (int64_t) (h1 % (6 * 65536));	/* [3, 9) */
	sigma = 39322 + (int64_t) (h2 % 52429); /* [0.6, 1.4) */

	/* two steps a line, as in the narrow mode: w is a hash of y */
	y = lp_mix(&g->rng);
	w = y;
	w = lp_mix(&w);
	if ((w & 1023) < 51)
	{
		/* the tail: u in (0, 1] as a 53-bit integer over 2^53 */
		uint64_t	u = (w >> 11) + 1;
		int64_t		neglog2u = (int64_t) 53 * 65536 - lp_gen_log2_q16(u);	/* >= 0 */

		l2 = mu + 2 * sigma + neglog2u * 65536 / 78643;	/* alpha = 1.2 in q16 */
	}
	else
	{
		/* the body: z = (sum of 4 uniforms of 16 bits - 2) * sqrt(3), q16 */
		z = (int64_t) (y & 0xFFFF) + (int64_t) ((y >> 16) & 0xFFFF) +
			(int64_t) ((y >> 32) & 0xFFFF) + (int64_t) (y >> 48) - 2 * 65536;
		z = z * 113512 / 65536; /* sqrt(3) in q16 */
		l2 = mu + sigma * z / 65536;
	}
	if (l2 > 16 * 65536)
		lat = LP_GEN_TIMEOUT_MS;	/* past 65,536 ms: the timeout */
	else
	{
		lat = lp_gen_exp2_q16(l2);
		if (lat > LP_GEN_TIMEOUT_MS)
			lat = LP_GEN_TIMEOUT_MS;
	}
	*route = r;
	*latency = lat;
	*method = methods[w >> 61];
}

/* Line i's route, latency and method, from the generator's distribution. */
static LP_ALWAYS_INLINE void
lp_gen_next(lp_gen *g, int32_t *route, uint64_t *latency, const char **method)
{
	if (g->latency == LP_GEN_LONG_TAIL)
		lp_gen_draw_long_tail(g, route, latency, method);
	else
		lp_gen_draw(g, route, latency, method);
}

/* See lp_gen.h. */
void
lp_gen_set_format(lp_gen *g, const lp_format_def *fmt)
{
	g->fmt = fmt ? fmt : LP_FORMAT_DEFAULT;
}

/* Whether the generator writes format f (its entry says so: LP_FMT_GENERATE). */
static int
lp_gen_writes(const lp_format_def *f)
{
	return (f->flags & LP_FMT_GENERATE) != 0;
}

/* See lp_gen.h. */
const lp_format_def *
lp_gen_format_lookup(const char *name, size_t len)
{
	const lp_format_def *f = lp_format_lookup(name, len);

	return f && lp_gen_writes(f) ? f : NULL;
}

/* Room for every name the generator writes and its ", ". */
#define LP_GEN_NAMES_MAX 256

/* lp_gen_writes for an entry of lp_formats[], as lp_names_join passes it. */
static int
lp_gen_writes_entry(const void *entry)
{
	return lp_gen_writes((const lp_format_def *) entry);
}

/* See lp_gen.h: built from lp_formats[] on the first call. */
const char *
lp_gen_format_names(void)
{
	static char names[LP_GEN_NAMES_MAX];

	return lp_names_join(names, sizeof(names), lp_formats, sizeof(lp_formats[0]),
						 lp_gen_writes_entry);
}

/* The UTC date and time of line i: 10 lines a second from LP_GEN_EPOCH_DAYS. */
typedef struct lp_gen_time
{
	int			year;			/* calendar year */
	int			month;			/* 1 .. 12 */
	int			day;			/* 1 .. 31 */
	int			hour;			/* 0 .. 23 */
	int			minute;			/* 0 .. 59 */
	int			second;			/* 0 .. 59 */
} lp_gen_time;

/* Fill *t with the time of line i. */
static void
lp_gen_time_of(int64_t i, lp_gen_time *t)
{
	int64_t		secs = i / 10;
	int			sod = (int) (secs % 86400);

	lp_civil_from_days(LP_GEN_EPOCH_DAYS + secs / 86400, &t->year, &t->month, &t->day);
	t->hour = sod / 3600;
	t->minute = sod / 60 % 60;
	t->second = sod % 60;
}

/* The default format: "<timestamp> <method> <route> <latency_ms>". */
static size_t
lp_gen_default(lp_gen *g, int64_t i, char *buf)
{
	lp_gen_time t;
	int32_t		r;
	uint64_t	lat;
	const char *method;
	char		route[64];
	int			n;

	lp_gen_next(g, &r, &lat, &method);
	lp_gen_route(r, route, sizeof(route));
	lp_gen_time_of(i, &t);
	n = snprintf(buf, LP_GEN_MAXLINE, "%04d-%02d-%02dT%02d:%02d:%02d %s %s %llu",
				 t.year, t.month, t.day, t.hour, t.minute, t.second,
				 method, route, (unsigned long long) lat);
	LP_ASSERT(n >= 0 && n < LP_GEN_MAXLINE);	/* the whole line, not a cut one */
	return n < 0 ? 0 : (size_t) n;
}

/*
 * The combined formats: nginx's combined log_format followed by
 * " $request_time" (seconds, three decimals), or by Apache's %D
 * (microseconds) for a format whose unit is LP_UNIT_US.  Route, method and
 * latency come from lp_gen_draw; everything else (client, user, query
 * string, protocol, status, size, referer, user agent) from a hash of
 * (seed, i), so that the route sequence stays the default format's.
 */
static size_t
lp_gen_combined(lp_gen *g, int64_t i, char *buf)
{
	static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
	static const char *const users[] = {"alice", "bob", "carol", "deploy-bot"};
	static const char *const referers[] = {
		"https://example.com/",
		"https://example.com/dashboard?tab=latency&range=24h",
		"https://www.google.com/",
		"https://shop.example.org/cart/checkout",
		"http://localhost:3000/debug"
	};
	static const char *const agents[] = {
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36 Edg/119.0.2151.97",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1.2 Mobile/15E148 Safari/604.1",
		"Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0",
		"Mozilla/5.0 (Linux; Android 14; Pixel 8 Pro) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.43 Mobile Safari/537.36",
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"curl/8.5.0"
	};
	/* status mix, per 100 requests */
	static const struct
	{
		int			status;
		int			upto;
	}			statuses[] = {
		{200, 70}, {201, 75}, {204, 78}, {301, 81}, {304, 88}, {400, 91}, {404, 97}, {500, 100}
	};
	lp_gen_time t;
	int32_t		r;
	uint64_t	lat;
	const char *method;
	uint64_t	h = g->seed ^ ((uint64_t) i * UINT64_C(0xD6E8FEB86659FD93)) ^ UINT64_C(0x636F6D62);
	uint64_t	e1 = lp_mix(&h);
	uint64_t	e2 = lp_mix(&h);
	char	   *p = buf;
	char	   *end = buf + LP_GEN_MAXLINE;
	int			status = 200,
				k,
				pct;
	uint64_t	bytes;

	lp_gen_next(g, &r, &lat, &method);
	lp_gen_time_of(i, &t);

/* append with snprintf, never past the buffer */
#define LP_GEN_PUT(...) \
	do { \
		int			w_ = snprintf(p, (size_t) (end - p), __VA_ARGS__); \
		if (w_ > 0) \
			p += w_ < end - p ? w_ : end - p - 1; \
	} while (0)

	/* client: 15% IPv6, else IPv4 from the documentation ranges and 10/8 */
	pct = (int) (e1 % 100);
	if (pct < 15)
		LP_GEN_PUT("2001:db8:%x::%x", (unsigned) (e1 >> 8) % 4096, (unsigned) (e1 >> 20) % 65536);
	else
	{
		static const char *const nets[] = {"203.0.113", "198.51.100", "192.0.2"};
		unsigned	v = (unsigned) (e1 >> 8);

		if (pct < 40)
			LP_GEN_PUT("10.%u.%u.%u", v % 256, (v >> 8) % 256, (v >> 16) % 254 + 1);
		else
			LP_GEN_PUT("%s.%u", nets[v % 3], (v >> 8) % 254 + 1);
	}

	/* ident is always "-"; 5% of the requests carry a remote user */
	pct = (int) ((e1 >> 36) % 100);
	LP_GEN_PUT(" - %s ", pct < 5 ? users[pct % 4] : "-");

	/* [07/Nov/2026:00:00:00 +0000] */
	LP_GEN_PUT("[%02d/%s/%04d:%02d:%02d:%02d +0000] ",
			   t.day, months[t.month - 1], t.year, t.hour, t.minute, t.second);

	/* "METHOD route[?query] HTTP/x": a query string on 20% of the requests */
	LP_GEN_PUT("\"%s ", method);
	{
		int			w = lp_gen_route(r, p, (size_t) (end - p));

		if (w > 0)
			p += w < end - p ? w : end - p - 1;
	}
	pct = (int) ((e1 >> 44) % 100);
	if (pct < 10)
		LP_GEN_PUT("?page=%u", (unsigned) (e2 % 50) + 1);
	else if (pct < 16)
		LP_GEN_PUT("?page=%u&sort=desc&limit=%u", (unsigned) (e2 % 50) + 1, 10u << (e2 >> 8) % 4);
	else if (pct < 20)
		LP_GEN_PUT("?id=%u&utm_source=newsletter", (unsigned) (e2 >> 12) % 100000);
	LP_GEN_PUT(" %s\" ", (e1 >> 52) % 10 < 3 ? "HTTP/2.0" : "HTTP/1.1");

	/* status and body size */
	pct = (int) ((e2 >> 20) % 100);
	for (k = 0; k < (int) (sizeof(statuses) / sizeof(statuses[0])); k++)
	{
		if (pct < statuses[k].upto)
		{
			status = statuses[k].status;
			break;
		}
	}
	bytes = (status == 204 || status == 304) ? 0 : 100 + (e2 >> 28) % 60000;
	LP_GEN_PUT("%d %llu ", status, (unsigned long long) bytes);

	/* "referer" "user agent": 40% without a referer */
	pct = (int) ((e2 >> 44) % 100);
	LP_GEN_PUT("\"%s\" \"%s\" ", pct < 40 ? "-" : referers[pct % 5],
			   agents[(e2 >> 52) % (sizeof(agents) / sizeof(agents[0]))]);

	/* request time: seconds with three decimals, or integer microseconds */
	if (g->fmt->unit == LP_UNIT_US)
		LP_GEN_PUT("%llu", (unsigned long long) lat * 1000);
	else
		LP_GEN_PUT("%llu.%03llu", (unsigned long long) lat / 1000,
				   (unsigned long long) lat % 1000);
#undef LP_GEN_PUT
	LP_ASSERT(p < buf + LP_GEN_MAXLINE);	/* room for the NUL: no line was cut */
	return (size_t) (p - buf);
}

/* See lp_gen.h. */
size_t
lp_gen_line(lp_gen *g, int64_t i, char *buf)
{
	if (g->fmt == NULL || g->fmt->family == LP_FAMILY_DEFAULT)
		return lp_gen_default(g, i, buf);
	LP_ASSERT(g->fmt->family == LP_FAMILY_COMBINED);
	return lp_gen_combined(g, i, buf);
}
