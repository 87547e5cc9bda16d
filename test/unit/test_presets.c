/* test/unit/test_presets.c -- the preset parsers: documented lines, hostile lines, and a differential test against ref_presets.h */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lp_presets.h"
#include "ref_presets.h"

/*
 * test_harness.h cannot be included here: it includes lp_formats.h, whose
 * lp_parse_ctx is not lp_format.h's (until the format table is redesigned).
 * The counters of test_main.c are declared by hand instead.
 */
extern int	check_at(int ok, const char *file, int line, const char *fmt,...);
extern int	check_eq_i(long long got, long long want, const char *what, const char *file, int line);

#define CHECK(cond, ...) check_at((cond) ? 1 : 0, __FILE__, __LINE__, __VA_ARGS__)
#define CHECK_EQ_I(a, b, what) check_eq_i((long long) (a), (long long) (b), (what), __FILE__, __LINE__)

void		test_presets_haproxy(void);
void		test_presets_alb(void);
void		test_presets_cloudfront(void);
void		test_presets_envoy(void);
void		test_presets_traefik(void);
void		test_presets_iis(void);
void		test_presets_routes(void);
void		test_presets_prefixes(void);
void		test_presets_differential(void);

/* Shorthands for lp_result.has. */
#define R_ LP_HAS_ROUTE
#define L_ LP_HAS_LATENCY
#define S_ LP_HAS_STATUS
#define M_ LP_HAS_METHOD
#define T_ LP_HAS_TIME
#define H_ LP_HAS_HOST
#define ALL_ (R_ | L_ | S_ | M_ | T_)

/* What a line must give; a NULL text is a field that must be absent (or, for bad, NULL). */
typedef struct want
{
	lp_status	st;
	unsigned	has;
	const char *route;
	long long	latency;
	int			status;
	const char *method;
	const char *time;
	const char *time2;
	const char *host;
	const char *bad;
	int			nwant;
	int			nfields;
} want;

/* Parse line (strlen) with fn and flags into *r, the route built in a buffer of exactly LP_ROUTE_BUF_SIZE bytes. */
static lp_status
parse_with(lp_line_fn fn, const char *line, size_t len, unsigned flags, lp_result *r, char **buf)
{
	lp_parse_ctx ctx;

	*buf = malloc(LP_ROUTE_BUF_SIZE(len));
	ctx.flags = flags;
	ctx.buf = *buf;
	memset(r, 0x5A, sizeof(*r));
	return fn(line, len, &ctx, r);
}

/* A slice against the text wanted (NULL: absent). */
static void
diff_field(test_diff *d, const char *name, const char *got, size_t glen, const char *want_text)
{
	diff_text(d, name, got, glen, want_text, want_text ? strlen(want_text) : 0);
}

/* Check every field of fn's answer on line against w. */
static void
expect_at(const char *file, int lineno, const char *fname, lp_line_fn fn, const char *line,
		  unsigned flags, want w)
{
	lp_result	r;
	char	   *buf;
	lp_status	st = parse_with(fn, line, strlen(line), flags, &r, &buf);
	test_diff	d;

	diff_init(&d);
	diff_i(&d, "status code", st, w.st);
	diff_u(&d, "has", r.has, w.has);
	if (w.has & R_)
		diff_field(&d, "route", r.route, r.route_len, w.route);
	if (w.has & L_)
		diff_i(&d, "latency", r.latency, w.latency);
	if (w.has & S_)
		diff_i(&d, "status", r.status, w.status);
	if (w.has & M_)
		diff_field(&d, "method", r.method, r.method_len, w.method);
	if (w.has & T_)
	{
		diff_field(&d, "time", r.time, r.time_len, w.time);
		diff_field(&d, "time2", r.time2, r.time2_len, w.time2);
	}
	if (w.has & H_)
		diff_field(&d, "host", r.host, r.host_len, w.host);
	if (w.st != LP_ST_OK)
	{
		diff_field(&d, "bad", r.bad, r.bad_len, w.bad);
		if (w.st == LP_ST_TOO_FEW_FIELDS || w.st == LP_ST_TOO_FEW_TAIL_FIELDS)
		{
			diff_i(&d, "nwant", r.nwant, w.nwant);
			diff_i(&d, "nfields", r.nfields, w.nfields);
		}
	}
	check_at(d.field == NULL, file, lineno, "%s(%s, flags 0x%x): %s", fname,
			 diff_q(line, strlen(line)), flags, diff_say(&d));
	free(buf);
}

/* EXPECT(fn, line, flags, st, has, route, latency, status, method, time, ...): fields left out are empty */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#define EXPECT(fn, line, flags, ...) \
	expect_at(__FILE__, __LINE__, #fn, fn, (line), (flags), (want) {__VA_ARGS__})

/* The latency of a line that must parse, -1 when it does not. */
static long long
latency_of(lp_line_fn fn, const char *line)
{
	lp_result	r;
	char	   *buf;
	lp_status	st = parse_with(fn, line, strlen(line), 0, &r, &buf);

	free(buf);
	return st == LP_ST_OK ? (long long) r.latency : -1;
}

/* ---------- haproxy ---------- */

/* The example of the HAProxy manual, 8.2.3 (its syslog part as rsyslog writes it). */
static const char haproxy_doc[] =
	"Feb  6 12:14:14 localhost haproxy[14389]: 10.0.1.2:33317 [06/Feb/2009:12:14:14.655] "
	"http-in static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu} {} "
	"\"GET /index.html HTTP/1.1\"";

void
test_presets_haproxy(void)
{
	char	   *big;
	size_t		n;

	EXPECT(lp_parse_haproxy, haproxy_doc, 0, LP_ST_OK, ALL_, "/index.html", 109, 200, "GET",
		   "06/Feb/2009:12:14:14.655");
	/* the same message raw, and behind the other headers HAProxy and syslog daemons write */
	EXPECT(lp_parse_haproxy, haproxy_doc + 42, 0, LP_ST_OK, ALL_, "/index.html", 109, 200, "GET",
		   "06/Feb/2009:12:14:14.655");
	EXPECT(lp_parse_haproxy,
		   "haproxy[14389]: 10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 "
		   "10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu} {} \"GET /index.html HTTP/1.1\"",
		   0, LP_ST_OK, ALL_, "/index.html", 109, 200, "GET", "06/Feb/2009:12:14:14.655");
	EXPECT(lp_parse_haproxy,
		   "<134>Nov  7 01:00:00 haproxy[4242]: 192.0.2.7:5050 [07/Nov/2026:01:00:00.123] fe "
		   "be/s1 0/0/1/20/25 201 512 - - ---- 1/1/0/0/0 0/0 \"POST /api/v1/items?id=7 HTTP/1.1\"",
		   0, LP_ST_OK, ALL_, "/api/v1/items", 25, 201, "POST", "07/Nov/2026:01:00:00.123");
	EXPECT(lp_parse_haproxy,
		   "2012-06-12T17:56:11+00:00 localhost haproxy[21732]: 127.0.0.1:40074 "
		   "[12/Jun/2012:17:56:10.548] dogarchive-frontend dogarchive-backend/i-8bcc18ed:9105 "
		   "14/0/0/283/575 200 107 - - ---- 232/162/162/5/0 0/0 \"POST /intake HTTP/1.1\"",
		   0, LP_ST_OK, ALL_, "/intake", 575, 200, "POST", "12/Jun/2012:17:56:10.548");
	/* RFC 5424, as HAProxy sends it with "format rfc5424", with and without structured data */
	EXPECT(lp_parse_haproxy,
		   "<134>1 2026-11-07T01:00:00.123456+00:00 lb1 haproxy 4242 - - 192.0.2.7:5050 "
		   "[07/Nov/2026:01:00:00.123] fe be/s1 0/0/1/20/25 200 512 - - ---- 1/1/0/0/0 0/0 "
		   "\"GET /a: b HTTP/1.1\"",
		   0, LP_ST_OK, ALL_, "/a:", 25, 200, "GET", "07/Nov/2026:01:00:00.123");
	EXPECT(lp_parse_haproxy,
		   "<134>1 2026-11-07T01:00:00Z lb1 haproxy 4242 - [meta seq=\"1\" note=\"a \\] b: c\"]"
		   "[x@1 y=\"2\"] 192.0.2.7:5050 [07/Nov/2026:01:00:00.123] fe be/s1 0/0/1/20/25 200 512 "
		   "- - ---- 1/1/0/0/0 0/0 \"GET /sd HTTP/1.1\"",
		   0, LP_ST_OK, ALL_, "/sd", 25, 200, "GET", "07/Nov/2026:01:00:00.123");
	EXPECT(lp_parse_haproxy,
		   "1 2026-11-07T01:00:00Z lb1 haproxy - - - 192.0.2.7:5050 [07/Nov/2026:01:00:00.123] fe "
		   "be/s1 0/0/1/20/25 200 512 - - ---- 1/1/0/0/0 0/0 \"GET /nopri HTTP/1.1\"",
		   0, LP_ST_OK, ALL_, "/nopri", 25, 200, "GET", "07/Nov/2026:01:00:00.123");
	/* "format short": the priority and the message */
	EXPECT(lp_parse_haproxy,
		   "<134>192.0.2.7:5050 [07/Nov/2026:01:00:00.123] fe be/s1 0/0/1/20/25 200 512 - - ---- "
		   "1/1/0/0/0 0/0 \"GET /short HTTP/1.1\"",
		   0, LP_ST_OK, ALL_, "/short", 25, 200, "GET", "07/Nov/2026:01:00:00.123");

	/* the examples of the manual's 8.9 */
	EXPECT(lp_parse_haproxy,
		   "haproxy[674]: 127.0.0.1:33318 [15/Oct/2003:08:31:57.130] px-http px-http/srv1 "
		   "6559/0/7/147/6723 200 243 - - ---- 5/3/3/1/0 0/0 \"HEAD / HTTP/1.0\"",
		   0, LP_ST_OK, ALL_, "/", 6723, 200, "HEAD", "15/Oct/2003:08:31:57.130");
	/* option logasap: "+30" is a lower bound, not the latency */
	EXPECT(lp_parse_haproxy,
		   "haproxy[674]: 127.0.0.1:33320 [15/Oct/2003:08:32:17.654] px-http px-http/srv1 "
		   "9/0/7/14/+30 200 +243 - - ---- 3/3/3/1/0 0/0 \"GET /image.iso HTTP/1.0\"",
		   0, LP_ST_NO_LATENCY, R_ | S_ | M_ | T_, "/image.iso", 0, 200, "GET",
		   "15/Oct/2003:08:32:17.654", .bad = "+30");
	EXPECT(lp_parse_haproxy,
		   "haproxy[674]: 127.0.0.1:33320 [15/Oct/2003:08:32:17.925] px-http px-http/srv1 "
		   "9/0/7/14/30 502 243 - - PH-- 3/2/2/0/0 0/0 \"GET /cgi-bin/bug.cgi? HTTP/1.0\"",
		   0, LP_ST_OK, ALL_, "/cgi-bin/bug.cgi", 30, 502, "GET", "15/Oct/2003:08:32:17.925");
	/* the client never completed its request: no status (-1), an empty request */
	EXPECT(lp_parse_haproxy,
		   "haproxy[18113]: 127.0.0.1:34548 [15/Oct/2003:15:18:55.798] px-http px-http/<NOSRV> "
		   "-1/-1/-1/-1/8490 -1 0 - - CR-- 2/2/2/0/0 0/0 \"\"",
		   0, LP_ST_NOT_HTTP, T_, .time = "15/Oct/2003:15:18:55.798", .bad = "");
	EXPECT(lp_parse_haproxy,
		   "haproxy[18113]: 127.0.0.1:34549 [15/Oct/2003:15:19:06.103] px-http px-http/<NOSRV> "
		   "-1/-1/-1/-1/50001 408 0 - - cR-- 2/2/2/0/0 0/0 \"\"",
		   0, LP_ST_NOT_HTTP, T_ | S_, .status = 408, .time = "15/Oct/2003:15:19:06.103", .bad = "");
	/* a "-1" in the other timers does not matter: the response went out after Ta ms */
	EXPECT(lp_parse_haproxy,
		   "haproxy[18989]: 10.0.0.1:34552 [15/Oct/2003:15:26:31.462] px-http px-http/srv1 "
		   "3183/-1/-1/-1/11215 503 0 - - SC-- 205/202/202/115/3 0/0 \"HEAD / HTTP/1.0\"",
		   0, LP_ST_OK, ALL_, "/", 11215, 503, "HEAD", "15/Oct/2003:15:26:31.462");
	/* a tcplog line has three timers */
	EXPECT(lp_parse_haproxy,
		   "haproxy[18989]: 127.0.0.1:34550 [15/Oct/2003:15:24:28.312] px-tcp px-tcp/srv1 "
		   "0/0/5007 0 cD 0/0/0/0/0 0/0",
		   0, LP_ST_BAD_FIELD, T_, .time = "15/Oct/2003:15:24:28.312", .bad = "0/0/5007");
	/* captured headers (spaces inside), an absolute target with no version, logasap */
	EXPECT(lp_parse_haproxy,
		   "haproxy[2022]: 127.0.0.1:34014 [09/Aug/2004:20:26:09] proxy-out proxy-out/cache1 "
		   "0/0/0/162/+162 200 +350 - - ---- 0/0/0/0/0 0/0 {fr.adserver.yahoo.co||http://fr.f416."
		   "mail.} {|864|private||} \"GET http://fr.adserver.yahoo.com/\"",
		   0, LP_ST_NO_LATENCY, R_ | S_ | M_ | T_, "/", 0, 200, "GET", "09/Aug/2004:20:26:09",
		   .bad = "+162");
	EXPECT(lp_parse_haproxy,
		   "haproxy[2022]: 127.0.0.1:34020 [09/Aug/2004:20:30:46] proxy-out proxy-out/cache1 "
		   "0/0/0/182/182 200 279 - - ---- 0/0/0/0/0 0/0 {w.ods.org||} {Formilux/0.1.8|3495|||} "
		   "\"GET http://trafic.1wt.eu/ HTTP/1.1\"",
		   0, LP_ST_OK, ALL_, "/", 182, 200, "GET", "09/Aug/2004:20:30:46");
	/* a bad request HAProxy refused */
	EXPECT(lp_parse_haproxy,
		   "66.132.224.85:16860 [26/May/2026:14:43:17.333] main main/<NOSRV> -1/-1/-1/-1/0 400 0 - - "
		   "PR-- 3/1/0/0/0 0/0 \"<BADREQ>\"",
		   0, LP_ST_NOT_HTTP, T_ | S_, .status = 400, .time = "26/May/2026:14:43:17.333",
		   .bad = "<BADREQ>");

	/* "#22" and other escapes: decoded, "#00" kept; LP_PARSE_LOGGED keeps them all */
	EXPECT(lp_parse_haproxy,
		   "10.0.0.1:1 [07/Nov/2026:01:00:00.000] fe be/s 1/0/0/2/3 200 1 - - ---- 1/1/1/1/0 0/0 "
		   "\"GET /a#22b#23c#00d#7 HTTP/1.1\"",
		   0, LP_ST_OK, ALL_, "/a\"b#c#00d#7", 3, 200, "GET", "07/Nov/2026:01:00:00.000");
	EXPECT(lp_parse_haproxy,
		   "10.0.0.1:1 [07/Nov/2026:01:00:00.000] fe be/s 1/0/0/2/3 200 1 - - ---- 1/1/1/1/0 0/0 "
		   "\"GET /a#22b#23c HTTP/1.1\"",
		   LP_PARSE_LOGGED, LP_ST_OK, ALL_, "/a#22b#23c", 3, 200, "GET", "07/Nov/2026:01:00:00.000");
	/* HAProxy escapes every byte >= 127: a UTF-8 path comes back, flagged for the glue's check */
	EXPECT(lp_parse_haproxy,
		   "10.0.0.1:1 [07/Nov/2026:01:00:00.000] fe be/s 1/0/0/2/3 200 1 - - ---- 1/1/1/1/0 0/0 "
		   "\"GET /caf#C3#A9 HTTP/1.1\"",
		   0, LP_ST_OK, ALL_ | LP_HAS_ROUTE_HIGH, "/caf\xc3\xa9", 3, 200, "GET",
		   "07/Nov/2026:01:00:00.000");
	/* HAProxy's https format adds fields after the request */
	EXPECT(lp_parse_haproxy,
		   "10.0.0.1:1 [07/Nov/2026:01:00:00.000] fe~ be/s 1/0/0/2/3 200 1 - - ---- 1/1/1/1/0 0/0 "
		   "\"GET /tls HTTP/1.1\" 0/0/0/0/0 example.com/TLSv1.3/TLS_AES_256_GCM_SHA384",
		   0, LP_ST_OK, ALL_, "/tls", 3, 200, "GET", "07/Nov/2026:01:00:00.000");

	/* a message cut at 1024 bytes: no closing quote, the route is read and counts */
	big = malloc(4096);
	n = (size_t) snprintf(big, 4096, "<134>Nov  7 01:00:00 haproxy[1]: 10.0.0.1:1 "
						  "[07/Nov/2026:01:00:00.000] fe be/s 1/0/0/2/7 200 1 - - ---- "
						  "1/1/1/1/0 0/0 \"GET /long/");
	while (n < 1024)
		big[n++] = 'x';
	big[n] = '\0';
	{
		lp_result	r;
		char	   *buf;
		lp_status	st = parse_with(lp_parse_haproxy, big, n, 0, &r, &buf);

		CHECK(st == LP_ST_OK && r.latency == 7 && r.route == strstr(big, "/long/") &&
			  r.route + r.route_len == big + 1024,
			  "a request cut at 1024 bytes counts: status %d, route %zu bytes", st, r.route_len);
		free(buf);
		/* cut in its query string: the path counts */
		memcpy(big + 500, "?q=", 3);
		st = parse_with(lp_parse_haproxy, big, n, 0, &r, &buf);
		CHECK(st == LP_ST_OK && r.route + r.route_len == big + 500,
			  "a request cut in its query: status %d, route %zu bytes", st, r.route_len);
		free(buf);
	}
	free(big);
	EXPECT(lp_parse_haproxy,
		   "10.0.0.1:1 [07/Nov/2026:01:00:00.000] fe be/s 1/0/0/2/3 200 1 - - ---- 1/1/1/1/0 0/0 \"GET",
		   0, LP_ST_NOT_HTTP, S_ | T_, .status = 200, .time = "07/Nov/2026:01:00:00.000", .bad = "GET");

	/* hostile and broken lines */
	EXPECT(lp_parse_haproxy, "", 0, LP_ST_NO_TIME, 0);
	EXPECT(lp_parse_haproxy, "garbage", 0, LP_ST_NO_TIME, 0);
	EXPECT(lp_parse_haproxy, "10.0.0.1:1 [07/Nov/2026:01:00:00.000", 0, LP_ST_NO_TIME, 0);
	EXPECT(lp_parse_haproxy, "10.0.0.1:1 [07/Nov/2026:01:00:00.000] fe be/s", 0,
		   LP_ST_TOO_FEW_FIELDS, T_, .time = "07/Nov/2026:01:00:00.000", .nwant = 6, .nfields = 4);
	EXPECT(lp_parse_haproxy, "10.0.0.1:1 [07/Nov/2026:01:00:00.000] fe be/s 1/2/3/4/5/6 200", 0,
		   LP_ST_BAD_FIELD, T_, .time = "07/Nov/2026:01:00:00.000", .bad = "1/2/3/4/5/6");
	EXPECT(lp_parse_haproxy, "10.0.0.1:1 [07/Nov/2026:01:00:00.000] fe be/s 1/2/x/4/5 200", 0,
		   LP_ST_BAD_FIELD, T_, .time = "07/Nov/2026:01:00:00.000", .bad = "1/2/x/4/5");
	EXPECT(lp_parse_haproxy, "10.0.0.1:1 [07/Nov/2026:01:00:00.000] fe be/s 1/2/3/4/5 20x \"GET / HTTP/1.1\"",
		   0, LP_ST_BAD_STATUS, T_, .time = "07/Nov/2026:01:00:00.000", .bad = "20x");
	EXPECT(lp_parse_haproxy, "10.0.0.1:1 [07/Nov/2026:01:00:00.000] fe be/s 1/2/3/4/5 200 1 - -", 0,
		   LP_ST_NO_REQUEST, S_ | T_, .status = 200, .time = "07/Nov/2026:01:00:00.000");
	EXPECT(lp_parse_haproxy, "10.0.0.1:1 [07/Nov/2026:01:00:00.000] fe be/s 1/2/3/4/5x 200 1 \"GET / HTTP/1.1\"",
		   0, LP_ST_BAD_LATENCY, R_ | S_ | M_ | T_, "/", 0, 200, "GET", "07/Nov/2026:01:00:00.000",
		   .bad = "5x");
	EXPECT(lp_parse_haproxy,
		   "10.0.0.1:1 [07/Nov/2026:01:00:00.000] fe be/s 1/2/3/4/99999999999999999999 200 1 \"GET / HTTP/1.1\"",
		   0, LP_ST_LATENCY_RANGE, R_ | S_ | M_ | T_, "/", 0, 200, "GET", "07/Nov/2026:01:00:00.000",
		   .bad = "99999999999999999999");
	EXPECT(lp_parse_haproxy,
		   "10.0.0.1:1 [07/Nov/2026:01:00:00.000] fe be/s 1/2/3/4/9223372036854775807 200 1 \"GET / HTTP/1.1\"\r",
		   0, LP_ST_OK, ALL_, "/", INT64_MAX, 200, "GET", "07/Nov/2026:01:00:00.000");
	EXPECT(lp_parse_haproxy, "10.0.0.1:1 [07/Nov/2026:01:00:00.000] fe be/s 1/2/3/4/5 200 1 \"- /x HTTP/1.0\"",
		   0, LP_ST_NOT_HTTP, S_ | T_, .status = 200, .time = "07/Nov/2026:01:00:00.000",
		   .bad = "- /x HTTP/1.0");
	EXPECT(lp_parse_haproxy, "10.0.0.1:1 [07/Nov/2026:01:00:00.000] fe be/s 1/2/3/4/5 200 1 \"GET - HTTP/1.0\"",
		   0, LP_ST_BAD_REQUEST, S_ | T_, .status = 200, .time = "07/Nov/2026:01:00:00.000",
		   .bad = "GET - HTTP/1.0");
	EXPECT(lp_parse_haproxy, "10.0.0.1:1 [07/Nov/2026:01:00:00.000] fe be/s 1/2/3/4/5 200 1 \"PRI * HTTP/2.0\"",
		   0, LP_ST_NOT_HTTP, S_ | T_, .status = 200, .time = "07/Nov/2026:01:00:00.000",
		   .bad = "PRI * HTTP/2.0");
	/* a '"' inside a field (not after a blank) does not open the request */
	EXPECT(lp_parse_haproxy,
		   "10.0.0.1:1 [07/Nov/2026:01:00:00.000] fe be/s 1/2/3/4/5 200 1 a\"b \"GET /real HTTP/1.1\"",
		   0, LP_ST_OK, ALL_, "/real", 5, 200, "GET", "07/Nov/2026:01:00:00.000");
}

/* ---------- alb ---------- */

/* The examples of "Access logs for your Application Load Balancer", one line each. */
static const char alb_http[] =
	"http 2018-07-02T22:23:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 192.168.131.39:2817 "
	"10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 \"GET http://www.example.com:80/ HTTP/1.1\" "
	"\"curl/7.46.0\" - - arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/"
	"my-targets/73e2d6bc24d8a067 \"Root=1-58337262-36d228ad5d99923122bbe354\" \"-\" \"-\" 0 "
	"2018-07-02T22:22:48.364000Z \"forward\" \"-\" \"-\"";
static const char alb_https[] =
	"https 2018-07-02T22:23:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 192.168.131.39:2817 "
	"10.0.0.1:80 0.086 0.048 0.037 200 200 0 57 \"GET https://www.example.com:443/ HTTP/1.1\" "
	"\"curl/7.46.0\" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:"
	"123456789012:targetgroup/my-targets/73e2d6bc24d8a067 \"Root=1-58337281-1d84f3d73c47ec4e58577259\" "
	"\"www.example.com\" \"arn:aws:acm:us-east-2:123456789012:certificate/12345678-1234-1234-1234-"
	"123456789012\" 1 2018-07-02T22:22:48.364000Z \"authenticate,forward\" \"-\" \"-\"";
static const char alb_h2[] =
	"h2 2018-07-02T22:23:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 10.0.1.252:48160 "
	"10.0.0.66:9000 0.000 0.002 0.000 200 200 5 257 \"GET https://10.0.2.105:773/ HTTP/2.0\" "
	"\"curl/7.46.0\" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:"
	"123456789012:targetgroup/my-targets/73e2d6bc24d8a067 \"Root=1-58337327-72bd00b0343d75b906739c42\" "
	"\"-\" \"-\" 1 2018-07-02T22:22:48.364000Z \"redirect\" \"https://example.com:80/\" \"-\"";
static const char alb_ws[] =
	"ws 2018-07-02T22:23:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 10.0.0.140:40914 "
	"10.0.1.192:8010 0.001 0.003 0.000 101 101 218 587 \"GET http://10.0.0.30:80/ HTTP/1.1\" \"-\" - - "
	"arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "
	"\"Root=1-58337364-23a8c76965a2ef7629b185e3\" \"-\" \"-\" 1 2018-07-02T22:22:48.364000Z "
	"\"forward\" \"-\" \"-\"";
static const char alb_lambda_failed[] =
	"http 2018-11-30T22:23:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 192.168.131.39:2817 - "
	"0.000 0.001 0.000 502 - 34 366 \"GET http://www.example.com:80/ HTTP/1.1\" \"curl/7.46.0\" - - "
	"arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "
	"\"Root=1-58337364-23a8c76965a2ef7629b185e3\" \"-\" \"-\" 0 2018-11-30T22:22:48.364000Z "
	"\"forward\" \"-\" \"LambdaInvalidResponse\"";

/* An ALB line with the three processing times, the status and the request given. */
static char *
alb_line(const char *t1, const char *t2, const char *t3, const char *status, const char *request)
{
	static char buf[1024];

	snprintf(buf, sizeof(buf),
			 "https 2026-11-07T01:00:00.123456Z app/lb/50dc6c495c0c9188 203.0.113.9:40000 10.0.0.7:80 "
			 "%s %s %s %s 200 100 200 %s \"curl/8.0\" - - arn:tg \"Root=1\" \"-\" \"-\" 0 "
			 "2026-11-07T01:00:00.000000Z \"forward\" \"-\" \"-\"", t1, t2, t3, status, request);
	return buf;
}

void
test_presets_alb(void)
{
	static const char tm[] = "2026-11-07T01:00:00.123456Z";
	static const char get[] = "\"GET https://api.example.com:443/v1/users/42?x=1 HTTP/1.1\"";

	EXPECT(lp_parse_alb, alb_http, 0, LP_ST_OK, ALL_ | H_, "/", 1, 200, "GET",
		   "2018-07-02T22:23:00.186641Z", .host = "www.example.com");
	EXPECT(lp_parse_alb, alb_https, 0, LP_ST_OK, ALL_ | H_, "/", 171, 200, "GET",
		   "2018-07-02T22:23:00.186641Z", .host = "www.example.com");
	EXPECT(lp_parse_alb, alb_h2, 0, LP_ST_OK, ALL_ | H_, "/", 2, 200, "GET",
		   "2018-07-02T22:23:00.186641Z", .host = "10.0.2.105");
	EXPECT(lp_parse_alb, alb_ws, 0, LP_ST_OK, ALL_ | H_, "/", 4, 101, "GET",
		   "2018-07-02T22:23:00.186641Z", .host = "10.0.0.30");
	EXPECT(lp_parse_alb, alb_lambda_failed, 0, LP_ST_OK, ALL_ | H_, "/", 1, 502, "GET",
		   "2018-11-30T22:23:00.186641Z", .host = "www.example.com");
	/* the host keys the route with LP_PARSE_HOST */
	EXPECT(lp_parse_alb, alb_https, LP_PARSE_HOST, LP_ST_OK, ALL_ | H_, "www.example.com/", 171, 200,
		   "GET", "2018-07-02T22:23:00.186641Z", .host = "www.example.com");
	EXPECT(lp_parse_alb, alb_line("0.001", "0.010", "0.000", "200", get), LP_PARSE_HOST | LP_PARSE_KEEP_QUERY,
		   LP_ST_OK, ALL_ | H_, "api.example.com/v1/users/42?x=1", 11, 200, "GET", tm,
		   .host = "api.example.com");
	EXPECT(lp_parse_alb, alb_line("0.001", "0.010", "0.000", "200", get), LP_PARSE_TEMPLATES,
		   LP_ST_OK, ALL_ | H_, "/v1/users/:id", 11, 200, "GET", tm, .host = "api.example.com");

	/* -1: not dispatched; the line keeps its status and route */
	EXPECT(lp_parse_alb, alb_line("-1", "-1", "-1", "502", get), 0, LP_ST_NO_LATENCY,
		   R_ | S_ | M_ | T_ | H_, "/v1/users/42", 0, 502, "GET", tm, .host = "api.example.com",
		   .bad = "-1");
	EXPECT(lp_parse_alb, alb_line("0.001", "-1", "-1", "460", get), 0, LP_ST_NO_LATENCY,
		   R_ | S_ | M_ | T_ | H_, "/v1/users/42", 0, 460, "GET", tm, .host = "api.example.com",
		   .bad = "-1");
	EXPECT(lp_parse_alb, alb_line("x", "0.1", "-1", "200", get), 0, LP_ST_NO_LATENCY,
		   R_ | S_ | M_ | T_ | H_, "/v1/users/42", 0, 200, "GET", tm, .host = "api.example.com",
		   .bad = "-1");

	/* the sum is exact, rounded once */
	CHECK_EQ_I(latency_of(lp_parse_alb, alb_line("0.0005", "0.0005", "0.000", "200", get)), 1,
			   "0.0005 + 0.0005 + 0.000 s");
	CHECK_EQ_I(latency_of(lp_parse_alb, alb_line("0.00025", "0.00025", "0", "200", get)), 1,
			   "0.00025 + 0.00025 + 0 s (each alone rounds to 0)");
	CHECK_EQ_I(latency_of(lp_parse_alb, alb_line("0.0002", "0.0002", "0.0000", "200", get)), 0,
			   "0.0002 + 0.0002 s");
	CHECK_EQ_I(latency_of(lp_parse_alb, alb_line("1.9999", "0.0001", "0", "200", get)), 2000,
			   "1.9999 + 0.0001 s");
	CHECK_EQ_I(latency_of(lp_parse_alb, alb_line("0.0004999", "0", "0", "200", get)), 0,
			   "0.0004999 s");
	CHECK_EQ_I(latency_of(lp_parse_alb, alb_line("0.33333333333333333333333333", "0.33333333333333333333333333",
												 "0.33333333333333333333333334", "200", get)), 1000,
			   "thirds, 26 digits each");
	CHECK_EQ_I(latency_of(lp_parse_alb, alb_line("9223372036854775", "0.807", "0", "200", get)), INT64_MAX,
			   "the largest sum");
	EXPECT(lp_parse_alb, alb_line("9223372036854775", "0.807", "0.0005", "200", get), 0,
		   LP_ST_REQTIME_RANGE, R_ | S_ | M_ | T_ | H_, "/v1/users/42", 0, 200, "GET", tm,
		   .host = "api.example.com", .bad = "9223372036854775 0.807 0.0005");
	EXPECT(lp_parse_alb, alb_line("0.1", "1.", "0", "200", get), 0, LP_ST_BAD_SECONDS,
		   R_ | S_ | M_ | T_ | H_, "/v1/users/42", 0, 200, "GET", tm, .host = "api.example.com",
		   .bad = "1.");
	EXPECT(lp_parse_alb, alb_line("0.1", "0", ".5", "200", get), 0, LP_ST_BAD_SECONDS,
		   R_ | S_ | M_ | T_ | H_, "/v1/users/42", 0, 200, "GET", tm, .host = "api.example.com",
		   .bad = ".5");

	/* statuses, requests */
	EXPECT(lp_parse_alb, alb_line("0", "0", "0", "-", get), 0, LP_ST_OK, R_ | L_ | M_ | T_ | H_,
		   "/v1/users/42", 0, 0, "GET", tm, .host = "api.example.com");
	EXPECT(lp_parse_alb, alb_line("0", "0", "0", "2000", get), 0, LP_ST_BAD_STATUS, T_,
		   .time = tm, .bad = "2000");
	EXPECT(lp_parse_alb, alb_line("0.001", "0", "0", "400", "\"- - - \""), 0, LP_ST_NOT_HTTP,
		   S_ | T_, .status = 400, .time = tm, .bad = "- - - ");
	EXPECT(lp_parse_alb, alb_line("0", "0", "0", "200", "\"GET https://h.example:443 HTTP/1.1\""), 0,
		   LP_ST_OK, ALL_ | H_, "/", 0, 200, "GET", tm, .host = "h.example");
	EXPECT(lp_parse_alb, alb_line("0", "0", "0", "200", "\"GET https://h.example:443?q=1 HTTP/1.1\""),
		   LP_PARSE_KEEP_QUERY | LP_PARSE_HOST, LP_ST_OK, ALL_ | H_, "h.example/?q=1", 0, 200, "GET",
		   tm, .host = "h.example");
	EXPECT(lp_parse_alb, alb_line("0", "0", "0", "200", "\"GET https://u:p@[2001:db8::1]:443/v6 HTTP/1.1\""),
		   0, LP_ST_OK, ALL_ | H_, "/v6", 0, 200, "GET", tm, .host = "[2001:db8::1]");
	/* the URL is logged as the client sent it: a '"' inside stays in the route */
	EXPECT(lp_parse_alb, alb_line("0", "0", "0", "200", "\"GET https://h:443/a\"b HTTP/1.1\""), 0,
		   LP_ST_OK, ALL_ | H_, "/a\"b", 0, 200, "GET", tm, .host = "h");
	EXPECT(lp_parse_alb, alb_line("0", "0", "0", "200", "GET"), 0, LP_ST_NO_REQUEST, S_ | T_,
		   .status = 200, .time = tm);
	EXPECT(lp_parse_alb, "http 2026-11-07T01:00:00Z app/lb 1.2.3.4:5 - 0 0 0 200 200 1 2 \"GET /x",
		   0, LP_ST_UNTERMINATED, S_ | T_, .status = 200, .time = "2026-11-07T01:00:00Z");
	EXPECT(lp_parse_alb, "http 2026-11-07T01:00:00Z app/lb 1.2.3.4:5 - 0 0 0 200 200 1 2", 0,
		   LP_ST_TOO_FEW_FIELDS, 0, .nwant = 13, .nfields = 12);
	EXPECT(lp_parse_alb, "http 2026-11-07T01:00:00Z", 0, LP_ST_TOO_FEW_FIELDS, 0, .nwant = 13,
		   .nfields = 2);
}

/* ---------- cloudfront ---------- */

/* The example log file of the CloudFront Developer Guide ("Standard log file format"). */
static const char cf_version[] = "#Version: 1.0";
static const char cf_fields[] =
	"#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status "
	"cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id "
	"x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher "
	"x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port "
	"time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start "
	"sc-range-end";
static const char cf_hit[] =
	"2019-12-04\t21:02:31\tLAX1\t392\t192.0.2.100\tGET\td111111abcdef8.cloudfront.net\t/index.html\t"
	"200\t-\tMozilla/5.0%20(Windows%20NT%2010.0;%20Win64;%20x64)%20AppleWebKit/537.36%20(KHTML,%20"
	"like%20Gecko)%20Chrome/78.0.3904.108%20Safari/537.36\t-\t-\tHit\tSOX4xwn4XV6Q4rgb7XiVGOHms_BGl"
	"TAC4KyHmureZmBNrjGdRLiNIQ==\td111111abcdef8.cloudfront.net\thttps\t23\t0.001\t-\tTLSv1.2\t"
	"ECDHE-RSA-AES128-GCM-SHA256\tHit\tHTTP/2.0\t-\t-\t11040\t0.001\tHit\ttext/html\t78\t-\t-";
static const char cf_error[] =
	"2019-12-13\t22:36:27\tSEA19-C1\t900\t192.0.2.200\tGET\td111111abcdef8.cloudfront.net\t"
	"/favicon.ico\t502\thttp://www.example.com/\tMozilla/5.0%20(Windows%20NT%2010.0;%20Win64;%20x64)"
	"%20AppleWebKit/537.36%20(KHTML,%20like%20Gecko)%20Chrome/78.0.3904.108%20Safari/537.36\t-\t-\t"
	"Error\t1pkpNfBQ39sYMnjjUQjmH2w1wdJnbHYTbag21o_3OfcQgPzdL2RSSQ==\twww.example.com\thttp\t675\t"
	"0.102\t-\t-\t-\tError\tHTTP/1.1\t-\t-\t25260\t0.102\tOriginDnsError\ttext/html\t507\t-\t-";

/* A CloudFront line with the fields that matter given. */
static char *
cf_line(const char *method, const char *stem, const char *status, const char *query,
		const char *xhost, const char *taken)
{
	static char buf[1024];

	snprintf(buf, sizeof(buf),
			 "2026-11-07\t01:00:00\tFRA56-P1\t512\t203.0.113.9\t%s\td1.cloudfront.net\t%s\t%s\t-\t"
			 "curl/8.0\t%s\t-\tMiss\tid==\t%s\thttps\t90\t%s\t-\tTLSv1.3\tTLS_AES_128_GCM_SHA256\t"
			 "Miss\tHTTP/2.0\t-\t-\t443\t0.001\tMiss\ttext/html\t10\t-\t-",
			 method, stem, status, query, xhost, taken);
	return buf;
}

void
test_presets_cloudfront(void)
{
	static const char d[] = "2026-11-07";
	static const char t[] = "01:00:00";

	EXPECT(lp_parse_cloudfront, cf_version, 0, LP_ST_DIRECTIVE, 0, .bad = cf_version);
	EXPECT(lp_parse_cloudfront, cf_fields, 0, LP_ST_DIRECTIVE, 0, .bad = cf_fields);
	EXPECT(lp_parse_cloudfront, cf_hit, 0, LP_ST_OK, ALL_ | H_, "/index.html", 1, 200, "GET",
		   "2019-12-04", "21:02:31", "d111111abcdef8.cloudfront.net");
	EXPECT(lp_parse_cloudfront, cf_error, 0, LP_ST_OK, ALL_ | H_, "/favicon.ico", 102, 502, "GET",
		   "2019-12-13", "22:36:27", "www.example.com");
	EXPECT(lp_parse_cloudfront, cf_error, LP_PARSE_HOST, LP_ST_OK, ALL_ | H_,
		   "www.example.com/favicon.ico", 102, 502, "GET", "2019-12-13", "22:36:27", "www.example.com");

	/* 000: the viewer closed the connection first; the line counts, without a status */
	EXPECT(lp_parse_cloudfront, cf_line("GET", "/a", "000", "-", "www.example.com", "0.250"), 0,
		   LP_ST_OK, R_ | L_ | M_ | T_ | H_, "/a", 250, 0, "GET", d, t, "www.example.com");
	EXPECT(lp_parse_cloudfront, cf_line("GET", "/a", "200", "-", "www.example.com", "-"), 0,
		   LP_ST_NO_LATENCY, R_ | S_ | M_ | T_ | H_, "/a", 0, 200, "GET", d, t, "www.example.com",
		   .bad = "-");
	EXPECT(lp_parse_cloudfront, cf_line("GET", "/a", "200", "-", "www.example.com", "0.0005"), 0,
		   LP_ST_OK, ALL_ | H_, "/a", 1, 200, "GET", d, t, "www.example.com");
	EXPECT(lp_parse_cloudfront, cf_line("GET", "/a", "200", "-", "www.example.com", "1e3"), 0,
		   LP_ST_BAD_SECONDS, R_ | S_ | M_ | T_ | H_, "/a", 0, 200, "GET", d, t, "www.example.com",
		   .bad = "1e3");
	/* the query string: a field of its own, kept with LP_PARSE_KEEP_QUERY */
	EXPECT(lp_parse_cloudfront, cf_line("GET", "/s", "200", "q=a%2520b", "h.example:8443", "0.002"),
		   LP_PARSE_KEEP_QUERY | LP_PARSE_LOGGED, LP_ST_OK, ALL_ | H_, "/s?q=a%2520b", 2, 200, "GET", d,
		   t, "h.example");
	EXPECT(lp_parse_cloudfront, cf_line("GET", "/s", "200", "q=a%2520b", "h.example:8443", "0.002"),
		   LP_PARSE_KEEP_QUERY | LP_PARSE_HOST, LP_ST_OK, ALL_ | H_,
		   "h.example/s?q=a%20b", 2, 200, "GET", d, t, "h.example");
	/* a host with an escape is decoded in the route key, not in the host field */
	EXPECT(lp_parse_cloudfront, cf_line("GET", "/s", "200", "-", "h%2Dx.example", "0.002"),
		   LP_PARSE_HOST, LP_ST_OK, ALL_ | H_, "h-x.example/s", 2, 200, "GET", d, t, "h%2Dx.example");
	EXPECT(lp_parse_cloudfront, cf_line("GET", "/caf%C3%A9", "200", "-", "-", "0.002"), 0, LP_ST_OK,
		   ALL_ | LP_HAS_ROUTE_HIGH, "/caf\xc3\xa9", 2, 200, "GET", d, t);
	/* CloudFront's escapes: once decoded, the client's own "%20" comes back */
	EXPECT(lp_parse_cloudfront, cf_line("GET", "/a%2520b/%22q%22/%00/x%3Fy", "200", "-", "-", "0.002"),
		   0, LP_ST_OK, ALL_, "/a%20b/\"q\"/%00/x?y", 2, 200, "GET", d, t);
	EXPECT(lp_parse_cloudfront, cf_line("GET", "/users/42/a%2520b", "200", "-", "-", "0.002"),
		   LP_PARSE_TEMPLATES, LP_ST_OK, ALL_, "/users/:id/a%20b", 2, 200, "GET", d, t);
	/* bad fields, in their order */
	EXPECT(lp_parse_cloudfront, cf_line("-", "-", "xx", "-", "-", "x"), 0, LP_ST_BAD_FIELD, T_,
		   .time = d, .time2 = t, .bad = "-");
	EXPECT(lp_parse_cloudfront, cf_line("G T", "-", "xx", "-", "-", "x"), 0, LP_ST_BAD_FIELD, T_,
		   .time = d, .time2 = t, .bad = "G T");
	EXPECT(lp_parse_cloudfront, cf_line("GET", "-", "xx", "-", "-", "x"), 0, LP_ST_BAD_REQUEST,
		   M_ | T_, .method = "GET", .time = d, .time2 = t, .bad = "-");
	EXPECT(lp_parse_cloudfront, cf_line("GET", "/", "xx", "-", "-", "x"), 0, LP_ST_BAD_STATUS,
		   M_ | T_, .method = "GET", .time = d, .time2 = t, .bad = "xx");
	EXPECT(lp_parse_cloudfront, "2026-11-07\t01:00:00\tFRA\t1\t2\tGET", 0, LP_ST_TOO_FEW_FIELDS, 0,
		   .nwant = 19, .nfields = 6);
	/* spaces do not separate fields; a CRLF line end is fine */
	{
		char		crlf[1100];

		snprintf(crlf, sizeof(crlf), "%s\r", cf_hit);
		EXPECT(lp_parse_cloudfront, crlf, 0, LP_ST_OK, ALL_ | H_, "/index.html", 1, 200, "GET",
			   "2019-12-04", "21:02:31", "d111111abcdef8.cloudfront.net");
	}
	EXPECT(lp_parse_cloudfront, "2026-11-07 01:00:00 FRA 1 2 GET h /x 200", 0, LP_ST_TOO_FEW_FIELDS,
		   0, .nwant = 19, .nfields = 1);
}

/* ---------- envoy ---------- */

/* The example of Envoy's "Access logging", "Default format string". */
static const char envoy_doc[] =
	"[2016-04-15T20:17:00.310Z] \"POST /api/v1/locations HTTP/2\" 204 - 154 0 226 100 \"10.0.35.28\" "
	"\"nsq2http\" \"cc21d9b0-cf5c-432b-8c7e-98aeb7988cd2\" \"locations\" \"tcp://10.0.2.1:80\"";

void
test_presets_envoy(void)
{
	static const char t[] = "2021-11-01T21:09:42.717Z";

	EXPECT(lp_parse_envoy, envoy_doc, 0, LP_ST_OK, ALL_ | H_, "/api/v1/locations", 226, 204, "POST",
		   "2016-04-15T20:17:00.310Z", .host = "locations");
	EXPECT(lp_parse_envoy, envoy_doc, LP_PARSE_HOST, LP_ST_OK, ALL_ | H_, "locations/api/v1/locations",
		   226, 204, "POST", "2016-04-15T20:17:00.310Z", .host = "locations");
	EXPECT(lp_parse_envoy,
		   "[2021-11-01T21:09:42.717Z] \"GET /test HTTP/1.1\" 404 NR 0 0 0 - \"-\" \"curl/7.64.0\" "
		   "\"1acc3559-50eb-463c-ae21-686fe34abbe8\" \"localhost:10000\" \"-\"",
		   0, LP_ST_OK, ALL_ | H_, "/test", 0, 404, "GET", t, .host = "localhost");
	/* response code 0: the client went away before a response */
	EXPECT(lp_parse_envoy,
		   "[2021-11-01T21:09:42.717Z] \"GET /slow?x=1 HTTP/1.1\" 0 DC 0 0 5001 - \"-\" \"curl/7.64.0\" "
		   "\"id\" \"-\" \"10.0.0.2:80\"",
		   0, LP_ST_OK, R_ | L_ | M_ | T_, "/slow", 5001, 0, "GET", t);
	EXPECT(lp_parse_envoy,
		   "[2021-11-01T21:09:42.717Z] \"GET /x HTTP/1.1\" 200 - 0 0 - - \"-\" \"ua\" \"id\" \"h\" \"-\"",
		   0, LP_ST_NO_LATENCY, R_ | S_ | M_ | T_ | H_, "/x", 0, 200, "GET", t, .host = "h", .bad = "-");
	/* a user agent with a '"': the authority is still found from the end */
	EXPECT(lp_parse_envoy,
		   "[2021-11-01T21:09:42.717Z] \"GET /x HTTP/1.1\" 200 - 0 0 7 6 \"-\" \"a \"b\" c\" \"id\" "
		   "\"api.example.com:443\" \"10.0.0.2:80\"",
		   0, LP_ST_OK, ALL_ | H_, "/x", 7, 200, "GET", t, .host = "api.example.com");
	/* X-ENVOY-ORIGINAL-PATH with a '"' and a query */
	EXPECT(lp_parse_envoy,
		   "[2021-11-01T21:09:42.717Z] \"GET /q\"x?a=\"b HTTP/1.1\" 200 - 0 0 7 6 \"-\" \"ua\" \"id\" \"h\" \"u\"",
		   LP_PARSE_KEEP_QUERY, LP_ST_OK, ALL_ | H_, "/q\"x?a=\"b", 7, 200, "GET", t, .host = "h");
	/* a line cut before the authority: no host, still counted */
	EXPECT(lp_parse_envoy, "[2021-11-01T21:09:42.717Z] \"GET /x HTTP/1.1\" 200 - 0 0 7", 0, LP_ST_OK,
		   ALL_, "/x", 7, 200, "GET", t);
	EXPECT(lp_parse_envoy, "[2021-11-01T21:09:42.717Z] \"GET /x HTTP/1.1\" 200 - 0 0", 0,
		   LP_ST_TOO_FEW_TAIL_FIELDS, R_ | M_ | T_, "/x", .method = "GET", .time = t, .nwant = 5,
		   .nfields = 4);
	EXPECT(lp_parse_envoy, "[2021-11-01T21:09:42.717Z] \"GET /x HTTP/1.1\" 2000 - 0 0 7", 0,
		   LP_ST_BAD_STATUS, R_ | M_ | T_, "/x", .method = "GET", .time = t, .bad = "2000");
	EXPECT(lp_parse_envoy, "[2021-11-01T21:09:42.717Z] \"GET /x HTTP/1.1\" 200 - 0 0 7ms", 0,
		   LP_ST_BAD_LATENCY, R_ | S_ | M_ | T_, "/x", 0, 200, "GET", t, .bad = "7ms");
	EXPECT(lp_parse_envoy, "[2021-11-01T21:09:42.717Z] \"CONNECT - HTTP/2\" 200 - 0 0 7 - \"-\" \"-\" "
		   "\"-\" \"example.com:443\" \"-\"", 0, LP_ST_BAD_REQUEST, T_ | H_, .time = t,
		   .host = "example.com", .bad = "CONNECT - HTTP/2");
	EXPECT(lp_parse_envoy, "[2021-11-01T21:09:42.717Z] \"GET /x HTTP/1.1", 0, LP_ST_UNTERMINATED, T_,
		   .time = t);
	EXPECT(lp_parse_envoy, "[2021-11-01T21:09:42.717Z] GET /x HTTP/1.1", 0, LP_ST_NO_REQUEST, T_,
		   .time = t);
	EXPECT(lp_parse_envoy, " [2021-11-01T21:09:42.717Z] \"GET /x HTTP/1.1\" 200 - 0 0 7", 0,
		   LP_ST_NO_TIME, 0);
	EXPECT(lp_parse_envoy, "[2021-11-01T21:09:42.717Z", 0, LP_ST_NO_TIME, 0);
}

/* ---------- traefik ---------- */

void
test_presets_traefik(void)
{
	static const char t[] = "07/Nov/2026:01:00:00 +0000";

	/* built from the documented CLF template */
	EXPECT(lp_parse_traefik,
		   "192.168.1.10 - - [07/Nov/2026:01:00:00 +0000] \"GET /whoami HTTP/1.1\" 200 433 \"-\" "
		   "\"curl/8.5.0\" 1 \"whoami@docker\" \"http://172.18.0.3:80\" 3ms",
		   0, LP_ST_OK, ALL_, "/whoami", 3, 200, "GET", t);
	EXPECT(lp_parse_traefik,
		   "2001:db8::7 - alice [07/Nov/2026:01:00:00 +0000] \"POST /api/v1/orders/123?x=1 HTTP/2.0\" "
		   "201 12 \"https://example.com/\" \"Mozilla/5.0 (X11; Linux x86_64)\" 17 \"api@file\" "
		   "\"http://10.0.0.5:8080\" 1250ms",
		   LP_PARSE_TEMPLATES, LP_ST_OK, ALL_, "/api/v1/orders/:id", 1250, 201, "POST", t);
	/* a user name with brackets and a quote, as Traefik logs it unescaped */
	EXPECT(lp_parse_traefik,
		   "10.0.0.1 - a[b]c [07/Nov/2026:01:00:00 +0000] \"GET /u HTTP/1.1\" 200 1 \"-\" \"ua\" 2 "
		   "\"r\" \"s\" 9ms",
		   0, LP_ST_OK, ALL_, "/u", 9, 200, "GET", t);
	/* no origin status */
	EXPECT(lp_parse_traefik,
		   "10.0.0.1 - - [07/Nov/2026:01:00:00 +0000] \"GET /u HTTP/1.1\" - - \"-\" \"-\" 2 \"-\" \"-\" 0ms",
		   0, LP_ST_OK, R_ | L_ | M_ | T_, "/u", 0, 0, "GET", t);
	/* a user agent with quotes and many words */
	EXPECT(lp_parse_traefik,
		   "10.0.0.1 - - [07/Nov/2026:01:00:00 +0000] \"GET /u\"v HTTP/1.1\" 304 0 \"-\" \"x \"y\" z w\" 2 "
		   "\"r\" \"s\" 12ms \r",
		   0, LP_ST_OK, ALL_, "/u\"v", 12, 304, "GET", t);
	EXPECT(lp_parse_traefik,
		   "10.0.0.1 - - [07/Nov/2026:01:00:00 +0000] \"GET /u HTTP/1.1\" 200 1 \"-\" \"ua\" 2 \"r\" \"s\" 12",
		   0, LP_ST_BAD_LATENCY, R_ | S_ | M_ | T_, "/u", 0, 200, "GET", t, .bad = "12");
	EXPECT(lp_parse_traefik,
		   "10.0.0.1 - - [07/Nov/2026:01:00:00 +0000] \"GET /u HTTP/1.1\" 200 1 \"-\" \"ua\" 2 \"r\" 12ms",
		   0, LP_ST_TOO_FEW_TAIL_FIELDS, R_ | M_ | T_, "/u", .method = "GET", .time = t, .nwant = 8,
		   .nfields = 7);
	EXPECT(lp_parse_traefik,
		   "10.0.0.1 - - [07/Nov/2026:01:00:00 +0000] \"GET /u HTTP/1.1\" OK 1 \"-\" \"ua\" 2 \"r\" \"s\" 12ms",
		   0, LP_ST_BAD_STATUS, R_ | M_ | T_, "/u", .method = "GET", .time = t, .bad = "OK");
	EXPECT(lp_parse_traefik, "10.0.0.1 - - \"GET /u HTTP/1.1\" 200 1 \"-\" \"ua\" 2 \"r\" \"s\" 12ms", 0,
		   LP_ST_NO_TIME, 0);
	EXPECT(lp_parse_traefik, "10.0.0.1 - - [07/Nov/2026:01:00:00 +0000] 200", 0, LP_ST_NO_REQUEST, T_,
		   .time = t);
	EXPECT(lp_parse_traefik, "10.0.0.1 - - [07/Nov/2026:01:00:00 +0000] \"GET /u HTTP/1.1", 0,
		   LP_ST_UNTERMINATED, T_, .time = t);
	EXPECT(lp_parse_traefik,
		   "10.0.0.1 - - [07/Nov/2026:01:00:00 +0000] \"\\x16\\x03\\x01\" 400 0 \"-\" \"-\" 2 \"-\" \"-\" 0ms",
		   0, LP_ST_NOT_HTTP, T_, .time = t, .bad = "\\x16\\x03\\x01");
}

/* ---------- iis ---------- */

void
test_presets_iis(void)
{
	static const char d[] = "2026-11-07";
	static const char t[] = "01:00:00";

	EXPECT(lp_parse_iis, "#Software: Microsoft Internet Information Services 10.0", 0, LP_ST_DIRECTIVE,
		   0, .bad = "#Software: Microsoft Internet Information Services 10.0");
	EXPECT(lp_parse_iis,
		   "#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip "
		   "cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken\r",
		   0, LP_ST_DIRECTIVE, 0,
		   .bad = "#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip "
		   "cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken");
	/* the default field set since IIS 8.5 (15 fields), CRLF as IIS writes */
	EXPECT(lp_parse_iis,
		   "2026-11-07 01:00:00 10.0.0.5 GET /index.html - 443 - 203.0.113.8 "
		   "Mozilla/5.0+(Windows+NT+10.0) - 200 0 0 8\r",
		   0, LP_ST_OK, ALL_, "/index.html", 8, 200, "GET", d, t);
	/* IIS 7.5's (14 fields, no cs(Referer)) */
	EXPECT(lp_parse_iis,
		   "2012-07-30 00:00:00 10.8.5.123 GET /en/indonesia/gili_trawangan/191229-manta_bungalows.html - 80 - "
		   "195.245.125.101 Mozilla/5.0+(iPad;+CPU+OS+5_1_1+like+Mac+OS+X)+AppleWebKit/534.46+(KHTML,+like+"
		   "Gecko)+Version/5.1+Mobile/9B206+Safari/7534.48.3 200 0 0 858",
		   0, LP_ST_OK, ALL_, "/en/indonesia/gili_trawangan/191229-manta_bungalows.html", 858, 200,
		   "GET", "2012-07-30", "00:00:00");
	EXPECT(lp_parse_iis,
		   "2026-11-07 01:00:00 10.0.0.5 POST /api/orders/42 id=1&x=2 443 bob 203.0.113.8 ua - 404 0 2 15",
		   LP_PARSE_KEEP_QUERY | LP_PARSE_TEMPLATES, LP_ST_OK, ALL_, "/api/orders/:id?id=1&x=2", 15, 404,
		   "POST", d, t);
	EXPECT(lp_parse_iis, "2026-11-07 01:00:00 10.0.0.5 GET /a+b - 80 - 1.2.3.4 ua - 200 0 0 -", 0,
		   LP_ST_NO_LATENCY, R_ | S_ | M_ | T_, "/a+b", 0, 200, "GET", d, t, .bad = "-");
	EXPECT(lp_parse_iis, "2026-11-07 01:00:00 10.0.0.5 GET /a - 80 - 1.2.3.4 ua - 200 0 0 1.5", 0,
		   LP_ST_BAD_LATENCY, R_ | S_ | M_ | T_, "/a", 0, 200, "GET", d, t, .bad = "1.5");
	EXPECT(lp_parse_iis, "2026-11-07 01:00:00 10.0.0.5 GET /a - 80 - 1.2.3.4 ua - 200 0 0 8 extra", 0,
		   LP_ST_BAD_FIELD, 0, .bad = "extra");
	EXPECT(lp_parse_iis, "2026-11-07 01:00:00 10.0.0.5 GET /a - 80 - 1.2.3.4 ua", 0,
		   LP_ST_TOO_FEW_FIELDS, 0, .nwant = 14, .nfields = 10);
	EXPECT(lp_parse_iis, "2026-11-07 01:00:00 10.0.0.5 GET - - 80 - 1.2.3.4 ua - 200 0 0 8", 0,
		   LP_ST_BAD_REQUEST, M_ | T_, .method = "GET", .time = d, .time2 = t, .bad = "-");
	EXPECT(lp_parse_iis, "2026-11-07 01:00:00 10.0.0.5 GET /a - 80 - 1.2.3.4 ua - 0 0 0 8", 0,
		   LP_ST_BAD_STATUS, M_ | T_, .method = "GET", .time = d, .time2 = t, .bad = "0");
	EXPECT(lp_parse_iis, "   ", 0, LP_ST_TOO_FEW_FIELDS, 0, .nwant = 14, .nfields = 0);
}

/* ---------- route options on every preset ---------- */

void
test_presets_routes(void)
{
	/* an absolute-form target with a query and no path, the query kept: "/" then the query */
	EXPECT(lp_parse_haproxy,
		   "10.0.0.1:1 [07/Nov/2026:01:00:00.000] fe be/s 1/0/0/2/3 200 1 - - ---- 1/1/1/1/0 0/0 "
		   "\"GET http://example.com?x=1 HTTP/1.1\"",
		   LP_PARSE_KEEP_QUERY | LP_PARSE_HOST, LP_ST_OK, ALL_, "/?x=1", 3, 200, "GET",
		   "07/Nov/2026:01:00:00.000");
	/* templates before unescaping: "#31" (an escaped "1", which HAProxy never writes) stays a segment */
	EXPECT(lp_parse_haproxy,
		   "10.0.0.1:1 [07/Nov/2026:01:00:00.000] fe be/s 1/0/0/2/3 200 1 - - ---- 1/1/1/1/0 0/0 "
		   "\"GET /u/12/#31/3f2504e0-4f89-11d3-9a0c-0305e82c3301 HTTP/1.1\"",
		   LP_PARSE_TEMPLATES, LP_ST_OK, ALL_, "/u/:id/1/:uuid", 3, 200, "GET",
		   "07/Nov/2026:01:00:00.000");
	/* a host, a template and unescaping together */
	EXPECT(lp_parse_cloudfront, cf_line("GET", "/o/0123456789abcdef0123/%2541", "200", "k=v", "Shop.example:443", "0.010"),
		   LP_PARSE_KEEP_QUERY | LP_PARSE_TEMPLATES | LP_PARSE_HOST, LP_ST_OK,
		   ALL_ | H_, "Shop.example/o/:hex/%41?k=v", 10, 200, "GET", "2026-11-07", "01:00:00",
		   "Shop.example");
	/* a preset without a host ignores LP_PARSE_HOST */
	EXPECT(lp_parse_iis, "2026-11-07 01:00:00 10.0.0.5 GET /a - 80 - 1.2.3.4 ua - 200 0 0 8",
		   LP_PARSE_HOST, LP_ST_OK, ALL_, "/a", 8, 200, "GET", "2026-11-07", "01:00:00");
	/* no scratch buffer: the route as logged (an assertion in test builds, so not run here) */
}

/* ---------- every prefix of every sample line ---------- */

/* Flag sets every line is parsed with. */
static const unsigned flag_sets[] = {
	0,
	LP_PARSE_KEEP_QUERY | LP_PARSE_LOGGED,
	LP_PARSE_TEMPLATES,
	LP_PARSE_HOST | LP_PARSE_LOGGED,
	LP_PARSE_KEEP_QUERY | LP_PARSE_TEMPLATES | LP_PARSE_HOST
};
#define N_FLAG_SETS ((int) (sizeof(flag_sets) / sizeof(flag_sets[0])))

/*
 * Parse line[0..len) (copied to a block of exactly len bytes, so that the
 * sanitizers see a read past it) with preset k and every flag set, and
 * compare with the reference.  Returns 1 when every answer agrees.
 */
static int
check_line(int k, const char *text, size_t len, const char *file, int lineno)
{
	char	   *line = malloc(len ? len : 1);
	int			f;
	int			ok = 1;

	memcpy(line, text, len);
	for (f = 0; f < N_FLAG_SETS; f++)
	{
		lp_result	g;
		ref_res		w;
		char	   *buf;
		lp_status	st = parse_with(lp_presets[k].parse, line, len, flag_sets[f], &g, &buf);
		test_diff	d;

		ref_presets[k] (line, (long) len, flag_sets[f], &w);
		diff_init(&d);
		ref_diff(&d, line, st, &g, &w);
		if (d.field)
		{
			check_at(0, file, lineno, "%s (flags 0x%x) against the reference: %s (line %s)",
					 lp_presets[k].name, flag_sets[f], diff_say(&d), diff_q(line, len));
			ok = 0;
		}
		ref_free(&w);
		free(buf);
		if (!ok)
			break;
	}
	free(line);
	return ok;
}

void
test_presets_prefixes(void)
{
	static const struct
	{
		int			preset;
		const char *line;
	}			samples[] = {
		{0, haproxy_doc},
		{0, "<134>1 2026-11-07T01:00:00Z lb1 haproxy 4242 - [m x=\"a \\] b\"] 10.0.0.1:1 "
		"[07/Nov/2026:01:00:00.000] fe be/s 1/0/-1/2/+3 -1 1 - - ---- 1/1/1/1/0 0/0 {a b} "
		"\"GET http://u@h:80/a#22b?c HTTP/1.1\""},
		{1, alb_https},
		{1, alb_lambda_failed},
		{2, cf_hit},
		{2, cf_version},
		{3, envoy_doc},
		{4, "10.0.0.1 - a[b] [07/Nov/2026:01:00:00 +0000] \"GET /u\"v?q HTTP/1.1\" 200 1 \"-\" "
		"\"x \"y\" z\" 2 \"r\" \"s\" 12ms"},
		{5, "2026-11-07 01:00:00 10.0.0.5 GET /index.html a=1 443 - 203.0.113.8 ua - 200 0 0 8\r"},
	};
	size_t		i;
	long		lines = 0;

	for (i = 0; i < sizeof(samples) / sizeof(samples[0]); i++)
	{
		size_t		n = strlen(samples[i].line);
		size_t		cut;

		for (cut = 0; cut <= n; cut++)
		{
			lines++;
			if (!check_line(samples[i].preset, samples[i].line, cut, __FILE__, __LINE__))
				break;
		}
	}
	CHECK(1, "prefixes");
	printf("  presets: %ld prefixes of %zu sample lines agree with the reference\n", lines,
		   sizeof(samples) / sizeof(samples[0]));
}

/* ---------- the differential test ---------- */

/* splitmix64 */
static uint64_t
rnd_next(uint64_t *s)
{
	uint64_t	z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A number below n. */
static unsigned
rnd(uint64_t *s, unsigned n)
{
	return (unsigned) (rnd_next(s) % n);
}

/* One of the strings of a NULL-ended array. */
static const char *
rnd_pick(uint64_t *s, const char *const *a)
{
	unsigned	n = 0;

	while (a[n])
		n++;
	return a[rnd(s, n)];
}

/* A line being written: at most GEN_MAX bytes. */
#define GEN_MAX 4096
typedef struct gen
{
	char		b[GEN_MAX];
	size_t		n;
} gen;

/* Append formatted text (cut at GEN_MAX). */
static void
put(gen *g, const char *fmt,...)
{
	va_list		ap;
	int			w;

	if (g->n >= GEN_MAX - 1)
		return;
	va_start(ap, fmt);
	w = vsnprintf(g->b + g->n, GEN_MAX - g->n, fmt, ap);
	va_end(ap);
	if (w > 0)
		g->n += (size_t) w < GEN_MAX - g->n ? (size_t) w : GEN_MAX - 1 - g->n;
}

/* A random path (no quotes unless `quotes`), of the escapes of preset `esc` ('#', '%' or 0). */
static void
gen_path(uint64_t *s, gen *g, char esc, int quotes)
{
	static const char *const segs[] = {
		"api", "v1", "users", "42", "0", "items", "0123456789abcdef0123", "deadbeefdeadbeefdead",
		"3f2504e0-4f89-11d3-9a0c-0305e82c3301", "a.json", "", "caf\xc3\xa9", "x:y", "-", NULL
	};
	static const char *const hash[] = {"#22", "#23", "#00", "#7f", "#2F", "#3f", "#", "#2", "#zz", NULL};
	static const char *const pct[] = {"%2520", "%22", "%00", "%3F", "%2F", "%", "%4", "%C3%A9", NULL};
	int			k,
				nseg = 1 + (int) rnd(s, 4);

	for (k = 0; k < nseg; k++)
	{
		put(g, "/%s", rnd_pick(s, segs));
		if (esc && rnd(s, 4) == 0)
			put(g, "%s", rnd_pick(s, esc == '#' ? hash : pct));
		if (quotes && rnd(s, 20) == 0)
			put(g, "\"q");
	}
	if (rnd(s, 3) == 0)
		put(g, "?%s", rnd_pick(s, (const char *const[]) {"a=1", "a=1&b=2", "", "x=/y/42", "q=%20", "?", NULL}));
}

/* A random request line (what goes between the quotes). */
static void
gen_request(uint64_t *s, gen *g, char esc, int quotes, int absolute_often)
{
	static const char *const methods[] = {
		"GET", "GET", "GET", "GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "M-SEARCH", NULL
	};
	static const char *const specials[] = {
		"-", "- - -", "- - - ", "", "<BADREQ>", "PRI * HTTP/2.0", "GET", "G{T /x HTTP/1.1", "- /x HTTP/1.0",
		"GET  /x HTTP/1.1", "GET - HTTP/1.1", "GET ?a=1 HTTP/1.1", "OPTIONS * HTTP/1.1",
		"CONNECT example.com:443 HTTP/1.1", "\\x16\\x03\\x01", "GET\t/tab HTTP/1.1", "get /lower HTTP/1.1",
		NULL
	};
	static const char *const hosts[] = {
		"example.com", "api.example.com:443", "[2001:db8::1]:8443", "u:p@h.example", "10.0.0.1:80", "", "h:", NULL
	};
	static const char *const versions[] = {" HTTP/1.1", " HTTP/1.1", " HTTP/2.0", " HTTP/1.0", "", NULL};

	if (rnd(s, 12) == 0)
	{
		put(g, "%s", rnd_pick(s, specials));
		return;
	}
	put(g, "%s ", rnd_pick(s, methods));
	if (rnd(s, absolute_often ? 2 : 8) == 0)
	{
		put(g, "%s://%s", rnd_pick(s, (const char *const[]) {"http", "https", "ws", "h2c+x", NULL}),
			rnd_pick(s, hosts));
		if (rnd(s, 6) == 0)
		{
			if (rnd(s, 2))
				put(g, "?k=v");
		}
		else
			gen_path(s, g, esc, quotes);
	}
	else
		gen_path(s, g, esc, quotes);
	put(g, "%s", rnd_pick(s, versions));
}

/* A status field: mostly right, sometimes the preset's "none", sometimes wrong. */
static void
gen_status(uint64_t *s, gen *g, const char *none)
{
	static const char *const good[] = {
		"200", "200", "200", "201", "204", "301", "304", "400", "403", "404", "499", "500", "502", "503", NULL
	};
	static const char *const bad[] = {"20", "2000", "abc", "099", "-", "0", "000", "-1", NULL};
	unsigned	r = rnd(s, 40);

	if (r < 36)
		put(g, "%s", rnd_pick(s, good));
	else if (r < 38 && none)
		put(g, "%s", none);
	else
		put(g, "%s", rnd_pick(s, bad));
}

/* A latency in ms: mostly digits; sometimes odd. */
static void
gen_ms(uint64_t *s, gen *g)
{
	static const char *const odd[] = {
		"-", "-1", "+30", "1.5", "", "99999999999999999999", "9223372036854775807", "9223372036854775808",
		"007", "12ms", NULL
	};

	if (rnd(s, 25) == 0)
		put(g, "%s", rnd_pick(s, odd));
	else
		put(g, "%u", rnd(s, 3) == 0 ? rnd(s, 100000) : rnd(s, 1000));
}

/* A time in seconds: mostly three decimals; sometimes more, fewer or odd. */
static void
gen_seconds(uint64_t *s, gen *g)
{
	static const char *const odd[] = {
		"-1", "-", "1.", ".5", "1e3", "0.0005", "0.00025", "12", "9223372036854775.807",
		"9223372036854776", "0.99999999999999999999999", "00.100",
		/* five bytes that are not "D.ddd" by one byte (lp_seconds_sum_ms's word test) */
		"0.0:0", "0/000", "/.000", "0.00\x7f", "9.999", "0.9.9", "00000", NULL
	};

	if (rnd(s, 20) == 0)
		put(g, "%s", rnd_pick(s, odd));
	else
		put(g, "%u.%03u", rnd(s, 4) == 0 ? rnd(s, 30) : 0, rnd(s, 1000));
}

static void
gen_haproxy(uint64_t *s, gen *g)
{
	static const char *const heads[] = {
		"", "", "<134>", "Nov  7 01:00:00 lb1 haproxy[4242]: ", "<134>Nov  7 01:00:00 haproxy[4242]: ",
		"2026-11-07T01:00:00+00:00 lb1 haproxy[21732]: ", "<134>1 2026-11-07T01:00:00.123456+00:00 lb1 haproxy 4242 - - ",
		"<134>1 2026-11-07T01:00:00Z lb1 haproxy 4242 - [m@1 a=\"x\\]y: z\"][n b=\"2\"] ",
		"1 2026-11-07T01:00:00Z h haproxy - - - ", "haproxy[14389]: ", "<1345>x ", "<134>1 - - - - - - \xEF\xBB\xBF",
		NULL
	};
	static const char *const clients[] = {"10.0.1.2:33317", "[::1]:5", "unix:1", "2001:db8::1:443", NULL};
	int			k;

	put(g, "%s%s [07/Nov/2026:01:%02u:%02u.%03u] %s %s ", rnd_pick(s, heads), rnd_pick(s, clients),
		rnd(s, 60), rnd(s, 60), rnd(s, 1000),
		rnd_pick(s, (const char *const[]) {"http-in", "fe~", "main", NULL}),
		rnd_pick(s, (const char *const[]) {"static/srv1", "be/<NOSRV>", "api/s2", NULL}));
	for (k = 0; k < 4; k++)
	{
		if (rnd(s, 10) == 0)
			put(g, "-1/");
		else
			put(g, "%u/", rnd(s, 300));
	}
	if (rnd(s, 30) == 0)
		put(g, "%s", rnd_pick(s, (const char *const[]) {"x", "", "1/2", NULL}));
	gen_ms(s, g);
	put(g, " ");
	gen_status(s, g, "-1");
	put(g, " %u - - ---- 1/1/0/0/0 0/0 ", rnd(s, 100000));
	if (rnd(s, 3) == 0)
		put(g, "{host.example|Mozilla/5.0 (X11; Linux)} {} ");
	put(g, "\"");
	gen_request(s, g, '#', 0, 0);
	if (rnd(s, 15) != 0)
		put(g, "\"");
	if (rnd(s, 20) == 0)
		put(g, " 0/0/0/0/0 example.com/TLSv1.3");
}

static void
gen_alb(uint64_t *s, gen *g)
{
	put(g, "%s 2026-11-07T01:00:%02u.%06uZ app/lb/50dc6c495c0c9188 203.0.113.9:%u %s ",
		rnd_pick(s, (const char *const[]) {"http", "https", "h2", "ws", "grpcs", NULL}),
		rnd(s, 60), rnd(s, 1000000), rnd(s, 65536),
		rnd_pick(s, (const char *const[]) {"10.0.0.7:80", "-", NULL}));
	gen_seconds(s, g);
	put(g, " ");
	gen_seconds(s, g);
	put(g, " ");
	gen_seconds(s, g);
	put(g, " ");
	gen_status(s, g, "-");
	put(g, " %s %u %u \"", rnd_pick(s, (const char *const[]) {"200", "-", NULL}), rnd(s, 9999), rnd(s, 99999));
	gen_request(s, g, 0, 1, 1);
	put(g, "\" \"curl/8.0 \"x\"\" - - arn:aws:elasticloadbalancing:us-east-2:1:targetgroup/t/7 "
		"\"Root=1-2\" \"-\" \"-\" 0 2026-11-07T01:00:00.000000Z \"forward\" \"-\" \"-\"");
}

static void
gen_cloudfront(uint64_t *s, gen *g)
{
	static const char *const methods[] = {"GET", "GET", "POST", "HEAD", NULL};
	static const char *const bad_methods[] = {"-", "G T", "", "G{T", NULL};
	static const char *const xhosts[] = {"www.example.com", "d1.cloudfront.net", "-", "h.example:8443", "", "a@b", NULL};
	int			nfields = rnd(s, 10) == 0 ? (int) rnd(s, 34) : 33;
	int			k;

	if (rnd(s, 30) == 0)
	{
		put(g, "#%s", rnd_pick(s, (const char *const[]) {"Version: 1.0", "Fields: date time", "", NULL}));
		return;
	}
	for (k = 0; k < nfields; k++)
	{
		if (k > 0)
			put(g, "\t");
		switch (k)
		{
			case 0:
				put(g, "2026-11-07");
				break;
			case 1:
				put(g, "01:%02u:%02u", rnd(s, 60), rnd(s, 60));
				break;
			case 5:
				put(g, "%s", rnd_pick(s, rnd(s, 30) ? methods : bad_methods));
				break;
			case 7:
				if (rnd(s, 30) == 0)
					put(g, "%s", rnd_pick(s, (const char *const[]) {"-", "", NULL}));
				else
					gen_path(s, g, '%', 0);
				break;
			case 8:
				gen_status(s, g, "000");
				break;
			case 11:
				put(g, "%s", rnd_pick(s, (const char *const[]) {"-", "-", "a=1", "q=a%2520b&c=%22", "", NULL}));
				break;
			case 15:
				put(g, "%s", rnd_pick(s, xhosts));
				break;
			case 18:
				gen_seconds(s, g);
				break;
			case 10:
				put(g, "Mozilla/5.0%%20(X11)");
				break;
			default:
				put(g, "%s", rnd_pick(s, (const char *const[]) {"-", "x", "1", "a b", NULL}));
				break;
		}
	}
}

static void
gen_iis(uint64_t *s, gen *g)
{
	int			referer = rnd(s, 2);
	int			extra = rnd(s, 40) == 0;

	if (rnd(s, 30) == 0)
	{
		put(g, "#%s", rnd_pick(s, (const char *const[]) {"Software: Microsoft Internet Information Services 10.0",
						"Fields: date time s-ip", NULL}));
		return;
	}
	put(g, "2026-11-07 01:%02u:%02u 10.0.0.5 %s ", rnd(s, 60), rnd(s, 60),
		rnd(s, 30) ? rnd_pick(s, (const char *const[]) {"GET", "GET", "POST", "HEAD", NULL}) :
		rnd_pick(s, (const char *const[]) {"-", "G{T", NULL}));
	if (rnd(s, 30) == 0)
		put(g, "-");
	else
		gen_path(s, g, 0, 0);
	put(g, " %s 443 %s 203.0.113.%u Mozilla/5.0+(Windows+NT+10.0)",
		rnd_pick(s, (const char *const[]) {"-", "-", "id=1&x=2", NULL}),
		rnd_pick(s, (const char *const[]) {"-", "bob", NULL}), rnd(s, 256));
	if (referer)
		put(g, " %s", rnd_pick(s, (const char *const[]) {"-", "https://example.com/", NULL}));
	put(g, " ");
	gen_status(s, g, NULL);
	put(g, " 0 %u ", rnd(s, 3));
	gen_ms(s, g);
	if (extra)
		put(g, " extra");
	if (rnd(s, 2))
		put(g, "\r");
}

static void
gen_envoy(uint64_t *s, gen *g)
{
	put(g, "[2026-11-07T01:%02u:%02u.%03uZ] \"", rnd(s, 60), rnd(s, 60), rnd(s, 1000));
	gen_request(s, g, 0, 1, 0);
	put(g, "\" ");
	gen_status(s, g, "0");
	put(g, " %s %u %u ", rnd_pick(s, (const char *const[]) {"-", "NR", "UF,URX", NULL}), rnd(s, 1000), rnd(s, 100000));
	gen_ms(s, g);
	put(g, " %s \"-\" \"%s\" \"%08x\" \"%s\" \"%s\"",
		rnd_pick(s, (const char *const[]) {"-", "12", NULL}),
		rnd_pick(s, (const char *const[]) {"curl/8.0", "a \"b\" c", "-", NULL}), (unsigned) rnd(s, 1u << 31),
		rnd_pick(s, (const char *const[]) {"api.example.com", "localhost:10000", "-", "", "[::1]:9901", "a\"b", NULL}),
		rnd_pick(s, (const char *const[]) {"10.0.0.2:80", "-", NULL}));
}

static void
gen_traefik(uint64_t *s, gen *g)
{
	put(g, "%s - %s [07/Nov/2026:01:%02u:%02u +0000] \"",
		rnd_pick(s, (const char *const[]) {"192.168.1.10", "2001:db8::7", NULL}),
		rnd(s, 20) ? rnd_pick(s, (const char *const[]) {"-", "-", "alice", "a[b]c", NULL}) :
		rnd_pick(s, (const char *const[]) {"x \"y", "[01/Jan/2000:00:00:00 +0000]",
			"[01/Jan/2000:00:00:00 +0000] \"GET /fake HTTP/1.1\" 200 1 \"-\" \"-\" 1 \"r\" \"s\"", NULL}),
		rnd(s, 60), rnd(s, 60));
	gen_request(s, g, 0, 1, 0);
	put(g, "\" ");
	gen_status(s, g, "-");
	put(g, " %u \"-\" \"%s\" %u \"%s\" \"%s\" ", rnd(s, 100000),
		rnd_pick(s, (const char *const[]) {"curl/8.5.0", "Mozilla/5.0 (X11; Linux x86_64)", "x \"y\" z", NULL}),
		rnd(s, 100000),
		rnd_pick(s, (const char *const[]) {"whoami@docker", "-", NULL}),
		rnd_pick(s, (const char *const[]) {"http://172.18.0.3:80", "-", NULL}));
	if (rnd(s, 25) == 0)
		put(g, "%s", rnd_pick(s, (const char *const[]) {"12", "ms", "-ms", "1.5ms", "99999999999999999999ms", NULL}));
	else
		put(g, "%ums", rnd(s, 5000));
}

/* Every preset's generator, in the order of lp_presets[]. */
static void (*const generators[]) (uint64_t *s, gen *g) = {
	gen_haproxy, gen_alb, gen_cloudfront, gen_envoy, gen_traefik, gen_iis
};

/* Spoil a line now and then: cut it, insert a byte, drop a byte. */
static void
mutate(uint64_t *s, gen *g)
{
	static const char bytes[] = " \t\"[]#%?/\r\0x-:";
	unsigned	r = rnd(s, 20);

	if (g->n == 0 || r >= 4)
		return;
	if (r == 0)
		g->n = rnd(s, (unsigned) g->n);
	else if (r == 1 && g->n + 1 < GEN_MAX)
	{
		size_t		at = rnd(s, (unsigned) g->n + 1);

		memmove(g->b + at + 1, g->b + at, g->n - at);
		g->b[at] = bytes[rnd(s, sizeof(bytes) - 1)];
		g->n++;
	}
	else if (r == 2)
	{
		size_t		at = rnd(s, (unsigned) g->n);

		memmove(g->b + at, g->b + at + 1, g->n - at - 1);
		g->n--;
	}
	else
		g->b[rnd(s, (unsigned) g->n)] = bytes[rnd(s, sizeof(bytes) - 1)];
}

/*
 * Now and then double some separators of a line (a blank or tab becomes
 * two): lp_scan_fields takes windows with no two separators side by side
 * one way and the others another, so both, and lines that switch between
 * them from one 64-byte window to the next, are compared.
 */
static void
double_separators(uint64_t *s, gen *g)
{
	size_t		i;
	unsigned	often;

	if (rnd(s, 6) != 0)
		return;
	often = 2 + rnd(s, 12);
	for (i = 0; i < g->n && g->n + 1 < GEN_MAX; i++)
		if ((g->b[i] == ' ' || g->b[i] == '\t') && rnd(s, often) == 0)
		{
			memmove(g->b + i + 1, g->b + i, g->n - i);
			g->n++;
			i++;
		}
}

/* Lines of each preset in the differential test. */
#define DIFF_LINES 20000

void
test_presets_differential(void)
{
	int			k;

	for (k = 0; lp_presets[k].name; k++)
	{
		uint64_t	seed = 0x1234 + (uint64_t) k;
		long		counts[LP_ST_COUNT] = {0};
		long		i;
		int			failed = 0;

		for (i = 0; i < DIFF_LINES && !failed; i++)
		{
			gen			g;
			ref_res		w;

			g.n = 0;
			generators[k] (&seed, &g);
			double_separators(&seed, &g);
			mutate(&seed, &g);
			if (!check_line(k, g.b, g.n, __FILE__, __LINE__))
				failed = 1;
			ref_presets[k] (g.b, (long) g.n, 0, &w);
			counts[w.st]++;
			ref_free(&w);
		}
		CHECK(!failed, "%s: %ld generated lines agree with the reference", lp_presets[k].name, i);
		/* the lines exercise the parser: most parse, and the failures vary */
		{
			int			kinds = 0;
			int			j;

			for (j = 1; j < LP_ST_COUNT; j++)
				kinds += counts[j] > 0;
			CHECK(counts[LP_ST_OK] > DIFF_LINES / 2 && kinds >= 5,
				  "%s: %ld of %d lines parse, %d kinds of failure", lp_presets[k].name,
				  counts[LP_ST_OK], DIFF_LINES, kinds);
			printf("  presets: %-10s %ld lines x %d flag sets agree with the reference; %ld OK,",
				   lp_presets[k].name, i, N_FLAG_SETS, counts[LP_ST_OK]);
			for (j = 1; j < LP_ST_COUNT; j++)
				if (counts[j])
					printf(" %ld st%d", counts[j], j);
			printf("\n");
		}
	}
}
