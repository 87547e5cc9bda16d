/* test/bench/formats_driver.c -- every preset, definition and JSON format beside combined, instructions and ns a line (plain C)
 *
 *   make -C test/bench formats_driver
 *   test/bench/formats_driver [lines] [repeats] [name...]      ns a line
 *   valgrind --tool=callgrind test/bench/formats_driver --instr [lines] [name...]
 *   test/bench/formats.sh [lines]       both, side by side (the way to run it)
 *   test/bench/formats_driver --list    every format: name, tab, its SQL format argument
 *   test/bench/formats_driver --write lines name    that format's lines (bench.sh formats)
 *
 * Generates N combined lines with lp_gen (300 routes, seed 42: the lines
 * of parse_driver, bench.sh and the other drivers) and writes each
 * request again in the layout of every format (the same client, time,
 * method, route, query, status, size, user agent and latency): the
 * definitions (nginx's combined + $request_time on the generator's own
 * lines, a reordered nginx format with an upstream list, nginx
 * escape=json, Apache with %D), the presets,
 * Caddy's default JSON line and the same with the combined line's fields
 * only, and Traefik's JSON line.  Each format's lines
 * are parsed by its parser as the aggregate calls it (a scratch buffer
 * given: routes are unescaped), the combined lines by their table entry's
 * parser (lp_formats[], lp_result: the reference of the targets)
 * and by the direct parser the aggregate uses for them.
 *
 * Timing: the fastest of the repeats, combined and the format in turns
 * (a busy machine slows both alike); the ratio is the format's over
 * combined's of the same turn set.  With --instr, under callgrind, each
 * loop runs once between CALLGRIND_ZERO_STATS and CALLGRIND_DUMP_STATS_AT
 * (name), so that each dump holds one loop: formats.sh divides its
 * instructions by N.  Without valgrind's header the driver still times.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lp_formats.h"
#include "lp_gen.h"
#include "lp_simd.h"
#include "lp_definition.h"
#include "lp_json.h"
#include "lp_presets.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define BENCH_CALLGRIND 1
#endif
#endif
#ifndef BENCH_CALLGRIND
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(s) ((void) (s))
#endif

/* Longest line any writer below makes from one combined line. */
#define BENCH_MAXLINE 2048
/* Longest Caddy line. */
#define CADDY_MAXLINE 1536

/* The parts of one generated combined line. */
typedef struct parts
{
	char		client[64];
	int			day,
				hour,
				minute,
				second;
	char		method[16];
	char		path[256];		/* without the query */
	char		query[128];		/* without the '?', "" for none */
	char		proto[16];
	int			status;
	long		bytes;
	char		referer[128];
	char		agent[256];
	long		ms;				/* latency */
} parts;

/* Copy s[0..n) into a buffer of cap bytes. */
static void
cut(char *dst, size_t cap, const char *s, size_t n)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* Split a line lp_gen wrote (its layout is known: lp_gen.c). */
static void
split(const char *line, size_t len, parts *p)
{
	const char *end = line + len;
	const char *s = line;
	const char *e = memchr(s, ' ', (size_t) (end - s));
	const char *q;

	cut(p->client, sizeof(p->client), s, (size_t) (e - s));
	s = memchr(s, '[', (size_t) (end - s)) + 1;
	p->day = atoi(s);
	p->hour = atoi(s + 12);
	p->minute = atoi(s + 15);
	p->second = atoi(s + 18);
	s = memchr(s, '"', (size_t) (end - s)) + 1;
	e = memchr(s, ' ', (size_t) (end - s));
	cut(p->method, sizeof(p->method), s, (size_t) (e - s));
	s = e + 1;
	e = memchr(s, ' ', (size_t) (end - s));
	q = memchr(s, '?', (size_t) (e - s));
	cut(p->path, sizeof(p->path), s, (size_t) ((q ? q : e) - s));
	if (q)
		cut(p->query, sizeof(p->query), q + 1, (size_t) (e - q - 1));
	else
		p->query[0] = '\0';
	s = e + 1;
	e = memchr(s, '"', (size_t) (end - s));
	cut(p->proto, sizeof(p->proto), s, (size_t) (e - s));
	s = e + 2;
	p->status = atoi(s);
	s = memchr(s, ' ', (size_t) (end - s)) + 1;
	p->bytes = atol(s);
	s = memchr(s, '"', (size_t) (end - s)) + 1;
	e = memchr(s, '"', (size_t) (end - s));
	cut(p->referer, sizeof(p->referer), s, (size_t) (e - s));
	s = memchr(e + 1, '"', (size_t) (end - e - 1)) + 1;
	e = memchr(s, '"', (size_t) (end - s));
	cut(p->agent, sizeof(p->agent), s, (size_t) (e - s));
	s = e + 2;
	p->ms = atol(s) * 1000 + atol(strchr(s, '.') + 1);
}

/* The agent with each space written as `sp` (W3C: '+', CloudFront: "%20"). */
static const char *
agent_with(const char *a, const char *sp)
{
	static char buf[1024];
	size_t		o = 0;

	for (; *a && o + 4 < sizeof(buf); a++)
	{
		if (*a == ' ')
		{
			memcpy(buf + o, sp, strlen(sp));
			o += strlen(sp);
		}
		else
			buf[o++] = *a;
	}
	buf[o] = '\0';
	return buf;
}

/* Write request i of preset k into buf; returns its length. */
static size_t
write_line(int k, long i, const parts *p, char *buf, size_t cap)
{
	const char *qm = p->query[0] ? "?" : "";
	int			n = 0;

	switch (k)
	{
		case 0:					/* haproxy, behind rsyslog's RFC 3164 header */
			n = snprintf(buf, cap,
						 "Nov %2d %02d:%02d:%02d lb1 haproxy[4242]: %s:%ld [%02d/Nov/2026:%02d:%02d:%02d.%03ld] "
						 "http-in api/srv%ld 0/0/1/%ld/%ld %d %ld - - ---- 12/12/3/1/0 0/0 \"%s %s%s%s %s\"",
						 p->day, p->hour, p->minute, p->second, p->client, 30000 + i % 30000, p->day,
						 p->hour, p->minute, p->second, i % 1000, i % 4, p->ms > 2 ? p->ms - 2 : 0,
						 p->ms, p->status, p->bytes, p->method, p->path, qm, p->query, p->proto);
			break;
		case 1:					/* alb */
			n = snprintf(buf, cap,
						 "https 2026-11-%02dT%02d:%02d:%02d.%06ldZ app/my-loadbalancer/50dc6c495c0c9188 %s:%ld "
						 "10.0.0.%ld:80 0.000 %ld.%03ld 0.000 %d %d 312 %ld \"%s https://api.example.com:443%s%s%s %s\" "
						 "\"%s\" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:"
						 "123456789012:targetgroup/my-targets/73e2d6bc24d8a067 \"Root=1-58337281-1d84f3d73c47ec4e58577259\" "
						 "\"api.example.com\" \"arn:aws:acm:us-east-2:123456789012:certificate/12345678-1234-1234-1234-"
						 "123456789012\" 1 2026-11-%02dT%02d:%02d:%02d.000000Z \"forward\" \"-\" \"-\"",
						 p->day, p->hour, p->minute, p->second, i % 1000000, p->client, 30000 + i % 30000,
						 i % 8 + 1, p->ms / 1000, p->ms % 1000, p->status, p->status, p->bytes, p->method,
						 p->path, qm, p->query, p->proto, p->agent, p->day, p->hour, p->minute, p->second);
			break;
		case 2:					/* cloudfront */
			n = snprintf(buf, cap,
						 "2026-11-%02d\t%02d:%02d:%02d\tFRA56-P1\t%ld\t%s\t%s\td111111abcdef8.cloudfront.net\t%s\t%d\t"
						 "%s\t%s\t%s\t-\tMiss\tSOX4xwn4XV6Q4rgb7XiVGOHms_BGlTAC4KyHmureZmBNrjGdRLiNIQ==\t"
						 "api.example.com\thttps\t312\t%ld.%03ld\t-\tTLSv1.3\tTLS_AES_128_GCM_SHA256\tMiss\t%s\t-\t-\t"
						 "%ld\t%ld.%03ld\tMiss\tapplication/json\t%ld\t-\t-",
						 p->day, p->hour, p->minute, p->second, p->bytes + 300, p->client, p->method,
						 p->path, p->status, p->referer, agent_with(p->agent, "%20"),
						 p->query[0] ? p->query : "-", p->ms / 1000, p->ms % 1000, p->proto,
						 30000 + i % 30000, p->ms / 2000, (p->ms / 2) % 1000, p->bytes);
			break;
		case 3:					/* envoy */
			n = snprintf(buf, cap,
						 "[2026-11-%02dT%02d:%02d:%02d.%03ldZ] \"%s %s%s%s %s\" %d - 0 %ld %ld %ld \"%s\" \"%s\" "
						 "\"%08lx-%04lx-4aa5-88d4-e56118165a7d\" \"api.example.com\" \"10.0.0.%ld:80\"",
						 p->day, p->hour, p->minute, p->second, i % 1000, p->method, p->path, qm, p->query,
						 p->proto, p->status, p->bytes, p->ms, p->ms > 1 ? p->ms - 1 : 0, p->client,
						 p->agent, (unsigned long) i * 2654435761UL % 0xffffffffUL, i % 0xffff, i % 8 + 1);
			break;
		case 4:					/* traefik */
			n = snprintf(buf, cap,
						 "%s - - [%02d/Nov/2026:%02d:%02d:%02d +0000] \"%s %s%s%s %s\" %d %ld \"%s\" \"%s\" %ld "
						 "\"api@docker\" \"http://10.0.0.%ld:80\" %ldms",
						 p->client, p->day, p->hour, p->minute, p->second, p->method, p->path, qm, p->query,
						 p->proto, p->status, p->bytes, p->referer, p->agent, i + 1, i % 8 + 1, p->ms);
			break;
		case 5:					/* iis, the default field set */
			n = snprintf(buf, cap,
						 "2026-11-%02d %02d:%02d:%02d 10.0.0.5 %s %s %s 443 - %s %s %s %d 0 0 %ld",
						 p->day, p->hour, p->minute, p->second, p->method, p->path,
						 p->query[0] ? p->query : "-", p->client, agent_with(p->agent, "+"), p->referer,
						 p->status, p->ms);
			break;
	}
	return n > 0 && (size_t) n < cap ? (size_t) n : cap - 1;
}


/* The quoted field after position *p of s (up to the closing quote); 0 if none. */
static size_t
quoted(const char *s, size_t n, size_t *p, const char **out)
{
	size_t		i = *p,
				j;

	while (i < n && s[i] != '"')
		i++;
	if (i == n)
		return 0;
	for (j = i + 1; j < n && s[j] != '"'; j++)
		;
	*out = s + i + 1;
	*p = j + 1;
	return j - i - 1;
}

/*
 * The Caddy line of combined line s[0..n) (line number i: the time) into
 * out; its length.  minimal: only the combined line's own fields (client,
 * time, request, status, size, referer, user agent, request time), in
 * Caddy's keys and nesting, instead of Caddy's whole default line.
 */
static size_t
caddy_of(const char *s, size_t n, long i, char *out, int minimal)
{
	const char *client = s,
			   *rq,
			   *ref,
			   *ua,
			   *mth,
			   *uri,
			   *proto;
	size_t		cl,
				rql,
				refl,
				ual,
				p = 0,
				ml,
				ul;
	int			status = 0;
	long		size = 0;
	const char *rt;
	char		tail[64];

	for (cl = 0; s[cl] != ' '; cl++)
		;
	rql = quoted(s, n, &p, &rq);
	{
		/* not sscanf: glibc's takes strlen of s, every line after this one */
		char	   *e;

		status = (int) strtol(s + p, &e, 10);
		size = strtol(e, NULL, 10);
	}
	refl = quoted(s, n, &p, &ref);
	ual = quoted(s, n, &p, &ua);
	rt = s + p + 1;
	snprintf(tail, sizeof(tail), "%.*s", (int) (s + n - rt), rt);
	for (ml = 0; rq[ml] != ' '; ml++)
		;
	mth = rq;
	uri = rq + ml + 1;
	for (ul = 0; uri[ul] != ' '; ul++)
		;
	proto = uri + ul + 1;
	if (minimal)
		return (size_t) snprintf(out, CADDY_MAXLINE,
								 "{\"ts\":%ld.%07ld,\"request\":{\"remote_ip\":\"%.*s\",\"proto\":\"%.*s\","
								 "\"method\":\"%.*s\",\"uri\":\"%.*s\",\"headers\":{\"User-Agent\":[\"%.*s\"],"
								 "\"Referer\":[\"%.*s\"]}},\"duration\":%s%03ld,\"size\":%ld,\"status\":%d}",
								 1794009600L + i / 10, (i * 7919) % 10000000, (int) cl, client,
								 (int) (rql - ml - ul - 2), proto, (int) ml, mth, (int) ul, uri,
								 (int) ual, ua, (int) refl, ref, tail, (i * 131) % 500, size, status);
	return (size_t) snprintf(out, CADDY_MAXLINE,
							 "{\"level\":\"info\",\"ts\":%ld.%07ld,\"logger\":\"http.log.access.log0\","
							 "\"msg\":\"handled request\",\"request\":{\"remote_ip\":\"%.*s\","
							 "\"remote_port\":\"%ld\",\"client_ip\":\"%.*s\",\"proto\":\"%.*s\","
							 "\"method\":\"%.*s\",\"host\":\"example.com\",\"uri\":\"%.*s\","
							 "\"headers\":{\"User-Agent\":[\"%.*s\"],\"Referer\":[\"%.*s\"]}},"
							 "\"bytes_read\":0,\"user_id\":\"\",\"duration\":%s%03ld,\"size\":%ld,"
							 "\"status\":%d,\"resp_headers\":{\"Server\":[\"Caddy\"],"
							 "\"Content-Type\":[\"application/json\"]}}",
							 1794009600L + i / 10, (i * 7919) % 10000000, (int) cl, client,
							 40000 + i % 20000, (int) cl, client, (int) (rql - ml - ul - 2), proto,
							 (int) ml, mth, (int) ul, uri, (int) ual, ua, (int) refl, ref, tail,
							 (i * 131) % 500, size, status);
}


/* The n bytes of s up to c (or the end), copied to out as a C string; the byte after c. */
static const char *
dcut(const char *s, const char *end, char c, char *out)
{
	const char *e = memchr(s, c, (size_t) (end - s));

	if (!e)
		e = end;
	memcpy(out, s, (size_t) (e - s));
	out[e - s] = '\0';
	return e < end ? e + 1 : end;
}

/*
 * The generator's combined lines (client - user [time] "request" status
 * bytes "referer" "agent" seconds) written again as `how` asks (see
 * above) into text2 and off2; 0 when `how` is unknown.
 */
static int
rewrite(const char *how, const char *text, const size_t *off, long n, char *text2, size_t *off2)
{
	long		i;

	off2[0] = 0;
	for (i = 0; i < n; i++)
	{
		const char *p = text + off[i];
		const char *end = text + off[i + 1];
		char		ip[64],
					user[64],
					tm[64],
					rq[512],
					st[16],
					by[32],
					ref[512],
					ua[512],
					rt[32];
		char	   *o = text2 + off2[i];
		int			w;

		p = dcut(p, end, ' ', ip);
		p = dcut(p + 2, end, ' ', user);
		p = dcut(p + 1, end, ']', tm);
		p = dcut(p + 2, end, '"', rq);
		p = dcut(p + 1, end, ' ', st);
		p = dcut(p, end, ' ', by);
		p = dcut(p + 1, end, '"', ref);
		p = dcut(p + 2, end, '"', ua);
		dcut(p + 1, end, ' ', rt);
		if (strcmp(how, "json") == 0)
			w = snprintf(o, 2 * LP_GEN_MAXLINE,
						 "{\"time\":\"%s\",\"ip\":\"%s\",\"request\":\"%s\",\"status\":%s,\"bytes\":%s,"
						 "\"referer\":\"%s\",\"ua\":\"%s\",\"rt\":%s}", tm, ip, rq, st, by, ref, ua, rt);
		else if (strcmp(how, "reorder") == 0)
			w = snprintf(o, 2 * LP_GEN_MAXLINE, "%s [%s] \"%s\" %s %s rt=%s urt=0.010, 0.002 \"%s\"",
						 ip, tm, rq, st, by, rt, ua);
		else
			return 0;
		off2[i + 1] = off2[i] + (size_t) w;
	}
	return 1;
}


/* Traefik's JSON access-log line of request i (format json, its documented default fields; the
 * nanoseconds past the millisecond below 500000, so that it rounds as the combined line). */
static size_t
traefik_json_of(long i, const parts *p, char *buf, size_t cap)
{
	const char *qm = p->query[0] ? "?" : "";
	int			n;

	n = snprintf(buf, cap,
				 "{\"ClientAddr\":\"%s:%ld\",\"ClientHost\":\"%s\",\"ClientPort\":\"%ld\",\"ClientUsername\":\"-\","
				 "\"DownstreamContentSize\":%ld,\"DownstreamStatus\":%d,\"Duration\":%ld%06ld,"
				 "\"OriginContentSize\":%ld,\"OriginDuration\":%ld%06ld,\"OriginStatus\":%d,\"Overhead\":%ld,"
				 "\"RequestAddr\":\"api.example.com\",\"RequestContentSize\":0,\"RequestCount\":%ld,"
				 "\"RequestHost\":\"api.example.com\",\"RequestMethod\":\"%s\",\"RequestPath\":\"%s%s%s\","
				 "\"RequestPort\":\"-\",\"RequestProtocol\":\"%s\",\"RequestScheme\":\"http\",\"RetryAttempts\":0,"
				 "\"RouterName\":\"api@docker\",\"ServiceAddr\":\"10.0.0.%ld:80\",\"ServiceName\":\"api@docker\","
				 "\"ServiceURL\":\"http://10.0.0.%ld:80\",\"StartLocal\":\"2026-11-%02dT%02d:%02d:%02d.%06ldZ\","
				 "\"StartUTC\":\"2026-11-%02dT%02d:%02d:%02d.%06ldZ\",\"entryPointName\":\"web\",\"level\":\"info\","
				 "\"msg\":\"\",\"time\":\"2026-11-%02dT%02d:%02d:%02dZ\"}",
				 p->client, 30000 + i % 30000, p->client, 30000 + i % 30000, p->bytes, p->status,
				 p->ms, (i * 7919) % 500000, p->bytes, p->ms, (i * 7919) % 500000, p->status,
				 (i * 31) % 100000, i + 1, p->method, p->path, qm, p->query, p->proto, i % 8 + 1,
				 i % 8 + 1, p->day, p->hour, p->minute, p->second, i % 1000000, p->day, p->hour,
				 p->minute, p->second, i % 1000000, p->day, p->hour, p->minute, p->second);
	return n > 0 && (size_t) n < cap ? (size_t) n : cap - 1;
}

/* The combined line with its request time in microseconds (Apache's %D). */
static size_t
micros_of(const char *s, size_t n, const parts *p, char *out)
{
	const char *sp = s + n;

	while (sp > s && sp[-1] != ' ')
		sp--;
	memcpy(out, s, (size_t) (sp - s));
	return (size_t) (sp - s) + (size_t) sprintf(out + (sp - s), "%ld", p->ms * 1000);
}

/* ---------- the formats ---------- */

enum
{
	K_DEF,						/* a definition: def, rewrite mode `how` */
	K_PRESET,					/* a preset of lp_presets[], named by name */
	K_JSON						/* a JSON-lines preset, spec from lp_json_presets */
};

/* One format of the run. */
typedef struct bench_fmt
{
	const char *name;			/* one word: the rows of formats.sh */
	int			kind;
	const char *def;			/* K_DEF: "nginx:..." or "apache:..." */
	const char *how;			/* K_DEF: NULL (the combined lines), "json", "reorder", "micros";
								 * K_JSON: "caddy", "minimal", "traefik" */
} bench_fmt;

#define NGINX_COMBINED "nginx:'$remote_addr - $remote_user [$time_local] \"$request\" $status " \
	"$body_bytes_sent \"$http_referer\" \"$http_user_agent\" $request_time'"

static const bench_fmt formats[] = {
	{"nginx-combined", K_DEF, NGINX_COMBINED, NULL},
	{"nginx-reorder", K_DEF, "nginx:'$remote_addr [$time_local] \"$request\" $status $body_bytes_sent "
	"rt=$request_time urt=$upstream_response_time \"$http_user_agent\"'", "reorder"},
	{"nginx-json", K_DEF, "nginx:escape=json '{\"time\":\"$time_local\",\"ip\":\"$remote_addr\","
	"\"request\":\"$request\",\"status\":$status,\"bytes\":$body_bytes_sent,\"referer\":\"$http_referer\","
	"\"ua\":\"$http_user_agent\",\"rt\":$request_time}'", "json"},
	{"apache-D", K_DEF, "apache:%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\" %D", "micros"},
	{"haproxy", K_PRESET, NULL, NULL},
	{"alb", K_PRESET, NULL, NULL},
	{"cloudfront", K_PRESET, NULL, NULL},
	{"envoy", K_PRESET, NULL, NULL},
	{"traefik", K_PRESET, NULL, NULL},
	{"iis", K_PRESET, NULL, NULL},
	{"caddy", K_JSON, NULL, "caddy"},
	{"caddy-minimal", K_JSON, NULL, "minimal"},
	{"traefik_json", K_JSON, NULL, "traefik"},
	{NULL, 0, NULL, NULL}
};

/* What a format's loop reads: compiled once. */
typedef struct bench_parser
{
	int			kind;
	lp_def_program *prog;		/* K_DEF */
	lp_line_fn	preset;			/* K_PRESET */
	lp_json_spec *spec;			/* K_JSON */
} bench_parser;

/* The sum every loop returns: routes and latencies of the lines that parse. */
#define BENCH_SUM(st, r) \
	((st) == LP_ST_OK ? (uint64_t) (r).latency * 31 + (r).route_len + (unsigned char) (r).route[0] : 7)

/* Parse every combined line by its table entry's parser; kept out of line so that callgrind names it. */
__attribute__((noinline)) static uint64_t
loop_combined(const lp_format_def *f, const char *text, const size_t *off, long n)
{
	uint64_t	sum = 0;
	long		i;

	for (i = 0; i < n; i++)
	{
		lp_result	r;
		lp_status	st = f->parse(text + off[i], off[i + 1] - off[i], f, NULL, &r);

		sum += BENCH_SUM(st, r);
	}
	return sum;
}

/* The same lines by the direct parser the aggregate calls first. */
__attribute__((noinline)) static uint64_t
loop_direct(const lp_format_def *f, lp_direct_fn direct, unsigned dflags, const char *text,
			const size_t *off, long n)
{
	uint64_t	sum = 0;
	long		i;

	for (i = 0; i < n; i++)
	{
		lp_row		row;
		lp_result	r;

		if (direct(text + off[i], off[i + 1] - off[i], dflags, &row))
			sum += (uint64_t) row.latency * 31 + row.route_len + (unsigned char) row.route[0];
		else
		{
			lp_status	st = f->parse(text + off[i], off[i + 1] - off[i], f, NULL, &r);

			sum += BENCH_SUM(st, r);
		}
	}
	return sum;
}

/* Parse every line of a format once. */
__attribute__((noinline)) static uint64_t
loop_format(const bench_parser *bp, const char *text, const size_t *off, long n, char *buf)
{
	lp_parse_ctx ctx = {0, buf};
	uint64_t	sum = 0;
	long		i;

	switch (bp->kind)
	{
		case K_DEF:
			for (i = 0; i < n; i++)
			{
				lp_result	r;
				lp_status	st = lp_definition_parse(bp->prog, text + off[i], off[i + 1] - off[i], &ctx, &r);

				sum += BENCH_SUM(st, r);
			}
			break;
		case K_PRESET:
			for (i = 0; i < n; i++)
			{
				lp_result	r;
				lp_status	st = bp->preset(text + off[i], off[i + 1] - off[i], &ctx, &r);

				sum += BENCH_SUM(st, r);
			}
			break;
		default:
			for (i = 0; i < n; i++)
			{
				lp_result	r;
				lp_status	st = lp_json_parse(bp->spec, text + off[i], off[i + 1] - off[i], &ctx, &r);

				sum += BENCH_SUM(st, r);
			}
			break;
	}
	return sum;
}

/* CPU time now, in ns. */
static double
now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/* Is name one of the names asked for (none asked: every one)? */
static int
wanted(const char *name, char **names, int nnames)
{
	int			i;

	if (nnames == 0)
		return 1;
	for (i = 0; i < nnames; i++)
		if (strcmp(names[i], name) == 0)
			return 1;
	return 0;
}

/* The format argument of SQL calls (logp95_agg(line, format)) for bf. */
static const char *
sql_format(const bench_fmt *bf)
{
	if (bf->kind == K_DEF)
		return bf->def;
	if (bf->kind == K_JSON)
		return strcmp(bf->how, "traefik") == 0 ? "traefik_json" : "caddy";
	return bf->name;
}

int
main(int argc, char **argv)
{
	int			instr = argc > 1 && strcmp(argv[1], "--instr") == 0;
	int			write = argc > 1 && strcmp(argv[1], "--write") == 0;
	int			a = instr ? 2 : 1;
	long		n = argc > a ? atol(argv[a]) : 100000;
	int			reps = instr ? 1 : (argc > a + 1 ? atoi(argv[a + 1]) : 5);
	char	  **names = argv + (instr ? a + 1 : a + 2);
	int			nnames = argc - (instr ? a + 1 : a + 2);
	const lp_format_def *f = lp_format_lookup("combined", 8);
	lp_direct_fn direct;
	unsigned	dflags = 0;
	lp_gen		g;
	char	   *ctext,
			   *text,
			   *buf;
	size_t	   *coff,
			   *off;
	parts	   *pp;
	long		i;
	int			k;
	uint64_t	csum;

	if (argc > 1 && strcmp(argv[1], "--list") == 0)
	{
		/* name, tab, the SQL format argument: bench.sh formats */
		printf("combined\tcombined\n");
		for (k = 0; formats[k].name; k++)
			printf("%s\t%s\n", formats[k].name, sql_format(&formats[k]));
		return 0;
	}
	if (write)
	{
		/* --write lines name: the lines of one format, one a line, on stdout */
		n = argc > 2 ? atol(argv[2]) : 0;
		names = argv + 3;
		nnames = argc - 3;
		if (n <= 0 || nnames != 1)
		{
			fprintf(stderr, "usage: formats_driver --write lines name\n");
			return 2;
		}
	}
	if (n <= 0 || reps <= 0 || !f)
	{
		fprintf(stderr, "usage: formats_driver [lines] [repeats] [name...] | --instr [lines] [name...] | "
				"--list | --write lines name\n");
		return 2;
	}
	if (nnames < 0)
		nnames = 0;
	/* the CPU build of the parsers, chosen once as _PG_init does */
	lp_simd_choose();
	direct = lp_format_direct(f, 0, &dflags);
	ctext = malloc((size_t) n * LP_GEN_MAXLINE);
	coff = malloc(((size_t) n + 1) * sizeof(size_t));
	text = malloc((size_t) n * BENCH_MAXLINE);
	off = malloc(((size_t) n + 1) * sizeof(size_t));
	pp = malloc((size_t) n * sizeof(parts));
	buf = malloc(LP_ROUTE_BUF_SIZE(BENCH_MAXLINE));
	if (!ctext || !coff || !text || !off || !pp || !buf)
		return 1;
	lp_gen_init(&g, 300, 42);
	lp_gen_set_format(&g, lp_gen_format_lookup("combined", 8));
	coff[0] = 0;
	for (i = 0; i < n; i++)
	{
		coff[i + 1] = coff[i] + lp_gen_line(&g, i, ctext + coff[i]);
		split(ctext + coff[i], coff[i + 1] - coff[i], &pp[i]);
	}

	if (write && strcmp(names[0], "combined") == 0)
	{
		for (i = 0; i < n; i++)
			printf("%.*s\n", (int) (coff[i + 1] - coff[i]), ctext + coff[i]);
		return 0;
	}

	/* combined: the table entry's parser, and the direct parser */
	if (write)
		;
	else if (instr)
	{
		CALLGRIND_ZERO_STATS;
		csum = loop_combined(f, ctext, coff, n);
		CALLGRIND_DUMP_STATS_AT("combined");
		CALLGRIND_ZERO_STATS;
		loop_direct(f, direct, dflags, ctext, coff, n);
		CALLGRIND_DUMP_STATS_AT("combined-direct");
	}
	else
	{
		double		best = 0,
					bestd = 0;
		int			r;

		for (r = 0; r < reps; r++)
		{
			double		t0 = now_ns(),
						t1,
						t2;

			csum = loop_combined(f, ctext, coff, n);
			t1 = now_ns();
			loop_direct(f, direct, dflags, ctext, coff, n);
			t2 = now_ns();
			if (r == 0 || (t1 - t0) / n < best)
				best = (t1 - t0) / n;
			if (r == 0 || (t2 - t1) / n < bestd)
				bestd = (t2 - t1) / n;
		}
		printf("%-16s %7.1f bytes %7.1f ns a line  1.00x  checksum %llu\n", "combined",
			   (double) coff[n] / n, best, (unsigned long long) csum);
		printf("%-16s %7.1f bytes %7.1f ns a line  %.2fx\n", "combined-direct",
			   (double) coff[n] / n, bestd, bestd / best);
	}

	for (k = 0; formats[k].name; k++)
	{
		const bench_fmt *bf = &formats[k];
		static lp_def_program prog;
		static lp_json_spec spec;
		bench_parser bp = {bf->kind, &prog, NULL, &spec};
		uint64_t	sum = 0;
		long		ok = 0;

		if (!wanted(bf->name, names, nnames))
			continue;
		/* compile, and write the lines */
		if (bf->kind == K_DEF)
		{
			lp_def_error err;
			lp_def_dialect d = bf->def[0] == 'n' ? LP_DEF_NGINX : LP_DEF_APACHE;
			const char *def = bf->def + (d == LP_DEF_NGINX ? 6 : 7);

			if (lp_definition_compile(d, def, strlen(def), LP_HAS_ROUTE | LP_HAS_LATENCY, 0, &prog,
									  &err) != LP_DEF_OK)
			{
				fprintf(stderr, "formats_driver: %s: at %zu: %s\n", bf->name, err.pos, err.message);
				return 1;
			}
			off[0] = 0;
			if (bf->how && strcmp(bf->how, "micros") == 0)
			{
				for (i = 0; i < n; i++)
					off[i + 1] = off[i] + micros_of(ctext + coff[i], coff[i + 1] - coff[i], &pp[i], text + off[i]);
			}
			else if (bf->how)
				rewrite(bf->how, ctext, coff, n, text, off);
			else
				memcpy(text, ctext, coff[n]), memcpy(off, coff, ((size_t) n + 1) * sizeof(size_t));
		}
		else if (bf->kind == K_PRESET)
		{
			int			j;

			for (j = 0; lp_presets[j].name && strcmp(lp_presets[j].name, bf->name) != 0; j++)
				;
			if (!lp_presets[j].name)
				return 1;
			bp.preset = lp_presets[j].parse;
			off[0] = 0;
			for (i = 0; i < n; i++)
				off[i + 1] = off[i] + write_line(j, i, &pp[i], text + off[i], BENCH_MAXLINE);
		}
		else
		{
			const char *sp = lp_json_preset_spec(strcmp(bf->how, "traefik") == 0 ? "traefik_json" : "caddy",
												 strcmp(bf->how, "traefik") == 0 ? 12 : 5);
			size_t		pos;

			if (lp_json_compile(sp, strlen(sp), &spec, &pos) != LP_JSPEC_OK)
				return 1;
			off[0] = 0;
			for (i = 0; i < n; i++)
				off[i + 1] = off[i] + (strcmp(bf->how, "traefik") == 0 ?
									   traefik_json_of(i, &pp[i], text + off[i], BENCH_MAXLINE) :
									   caddy_of(ctext + coff[i], coff[i + 1] - coff[i], i, text + off[i],
												strcmp(bf->how, "minimal") == 0));
		}
		/* every line must parse, or the figures say nothing */
		for (i = 0; i < n; i++)
		{
			lp_parse_ctx ctx = {0, buf};
			lp_result	r;
			lp_status	st = bp.kind == K_DEF ? lp_definition_parse(&prog, text + off[i], off[i + 1] - off[i], &ctx, &r) :
				bp.kind == K_PRESET ? bp.preset(text + off[i], off[i + 1] - off[i], &ctx, &r) :
				lp_json_parse(&spec, text + off[i], off[i + 1] - off[i], &ctx, &r);

			ok += st == LP_ST_OK;
		}
		if (ok != n)
		{
			fprintf(stderr, "formats_driver: %s: %ld of %ld lines parse\n", bf->name, ok, n);
			return 1;
		}
		if (write)
		{
			for (i = 0; i < n; i++)
				printf("%.*s\n", (int) (off[i + 1] - off[i]), text + off[i]);
		}
		else if (instr)
		{
			CALLGRIND_ZERO_STATS;
			loop_format(&bp, text, off, n, buf);
			CALLGRIND_DUMP_STATS_AT(bf->name);
		}
		else
		{
			double		best = 0,
						cb = 0;
			int			r;

			for (r = 0; r < reps; r++)
			{
				double		t0 = now_ns(),
							t1,
							t2;

				csum = loop_combined(f, ctext, coff, n);
				t1 = now_ns();
				sum = loop_format(&bp, text, off, n, buf);
				t2 = now_ns();
				if (r == 0 || (t1 - t0) / n < cb)
					cb = (t1 - t0) / n;
				if (r == 0 || (t2 - t1) / n < best)
					best = (t2 - t1) / n;
			}
			printf("%-16s %7.1f bytes %7.1f ns a line  %.2fx  (combined %.1f in the same turns) checksum %llu\n",
				   bf->name, (double) off[n] / n, best, best / cb, cb, (unsigned long long) sum);
		}
	}
	free(ctext);
	free(coff);
	free(text);
	free(off);
	free(pp);
	free(buf);
	return 0;
}
