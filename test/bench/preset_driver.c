/* test/bench/preset_driver.c -- the preset parsers beside the combined parser, on the same requests (plain C)
 *
 *   make -C test/bench presets
 *   test/bench/preset_driver [lines] [repeats] [preset|all] [prefetch bytes]
 *   valgrind --tool=callgrind test/bench/preset_driver 100000 1
 *
 * Generates N combined lines with lp_gen (300 routes, seed 42: the lines of
 * parse_driver and bench.sh), rewrites each request into a line of every
 * preset (the same client, time, method, route, query, status, size, user
 * agent and latency, in the vendor's layout, with its usual other fields),
 * then times the parse of every line, the fastest of the repeats (each
 * repeat parses the combined lines, then the preset's: a busy machine
 * slows both alike), and prints the time a line of each preset beside
 * combined's, their ratio, the bytes a line and a checksum of routes and
 * latencies.  With a prefetch distance, both loops ask for the line that
 * far ahead, as the aggregate does (logp95.prefetch_distance): the
 * aggregate's memory behaviour rather than parse_driver's.  Callgrind: the
 * functions parse_preset and bench_combined_parse hold the parse loops.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lp_presets.h"

extern size_t bench_combined_lines(long n, char **text, size_t **off);
extern uint64_t bench_combined_parse(const char *text, const size_t *off, long n);
extern void bench_set_prefetch(long bytes);

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

/*
 * Bytes ahead the parse loops ask the CPU for (0: none), as the aggregate
 * does for the rows to come (logp95_line_arg, logp95.prefetch_distance):
 * the line that starts that far ahead, up to 1024 of its bytes.
 */
static long prefetch_ahead = 0;

/* Ask for the line that starts about prefetch_ahead bytes after line i. */
static inline void
prefetch_from(const char *text, const size_t *off, long n, long i)
{
	const char *p = text + off[i] + prefetch_ahead;
	const char *e = p + 1024;
	const char *lim = text + off[n];

	for (; p < e && p < lim; p += 64)
		__builtin_prefetch(p);
}

/* Parse every line once with preset k; kept out of line so that callgrind names it. */
__attribute__((noinline)) static uint64_t
parse_preset(int k, const char *text, const size_t *off, long n, char *buf)
{
	lp_parse_ctx ctx = {0, buf};	/* presets undo their log's escaping by default */
	uint64_t	sum = 0;
	long		i;

	for (i = 0; i < n; i++)
	{
		lp_result	r;

		if (prefetch_ahead)
			prefetch_from(text, off, n, i);

		if (lp_presets[k].parse(text + off[i], off[i + 1] - off[i], &ctx, &r) == LP_ST_OK)
			sum += (uint64_t) r.latency * 31 + r.route_len + (unsigned char) r.route[0];
		else
			sum += 7;
	}
	return sum;
}

/* Seconds now. */
static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	long		n = argc > 1 ? atol(argv[1]) : 100000;
	int			reps = argc > 2 ? atoi(argv[2]) : 5;
	const char *only = argc > 3 && strcmp(argv[3], "all") != 0 ? argv[3] : NULL;
	char	   *ctext;
	size_t	   *coff;
	size_t		cbytes;
	double		cbest = 0;
	uint64_t	csum = 0;
	char	   *text;
	size_t	   *off;
	char	   *buf = malloc(LP_ROUTE_BUF_SIZE(8192));
	int			k,
				r;
	long		i;

	prefetch_ahead = argc > 4 ? atol(argv[4]) : 0;
	if (n <= 0 || reps <= 0 || prefetch_ahead < 0)
	{
		fprintf(stderr, "usage: preset_driver [lines] [repeats] [preset|all] [prefetch bytes]\n");
		return 2;
	}
	bench_set_prefetch(prefetch_ahead);
	cbytes = bench_combined_lines(n, &ctext, &coff);
	text = malloc((size_t) n * 2048);
	off = malloc(((size_t) n + 1) * sizeof(size_t));
	for (r = 0; r < reps; r++)
	{
		double		t0 = now();
		double		ns;

		csum = bench_combined_parse(ctext, coff, n);
		ns = (now() - t0) * 1e9 / (double) n;
		if (r == 0 || ns < cbest)
			cbest = ns;
	}
	printf("%-10s %ld lines, %6.1f bytes a line, checksum %llu: %6.1f ns a line (fastest of %d)\n",
		   "combined", n, (double) cbytes / (double) n, (unsigned long long) csum, cbest, reps);
	for (k = 0; lp_presets[k].name; k++)
	{
		double		best = 0;
		double		cb;
		uint64_t	sum = 0;
		long		ok = 0;

		if (only && strcmp(only, lp_presets[k].name) != 0)
			continue;
		off[0] = 0;
		for (i = 0; i < n; i++)
		{
			parts		p;

			split(ctext + coff[i], coff[i + 1] - coff[i], &p);
			off[i + 1] = off[i] + write_line(k, i, &p, text + off[i], 2048);
		}
		for (i = 0; i < n; i++)
		{
			lp_parse_ctx ctx = {0, buf};
			lp_result	res;

			ok += lp_presets[k].parse(text + off[i], off[i + 1] - off[i], &ctx, &res) == LP_ST_OK;
		}
		/* combined and the preset in turns, so that a busy machine slows both alike */
		cb = 0;
		for (r = 0; r < reps; r++)
		{
			double		t0 = now();
			double		t1;
			double		t2;

			csum = bench_combined_parse(ctext, coff, n);
			t1 = now();
			sum = parse_preset(k, text, off, n, buf);
			t2 = now();
			if (r == 0 || (t1 - t0) * 1e9 / (double) n < cb)
				cb = (t1 - t0) * 1e9 / (double) n;
			if (r == 0 || (t2 - t1) * 1e9 / (double) n < best)
				best = (t2 - t1) * 1e9 / (double) n;
		}
		printf("%-10s %ld lines, %6.1f bytes a line, checksum %llu: %6.1f ns a line, combined %6.1f: %.2fx (%ld parse)\n",
			   lp_presets[k].name, n, (double) off[n] / (double) n, (unsigned long long) sum, best,
			   cb, best / cb, ok);
	}
	free(ctext);
	free(coff);
	free(text);
	free(off);
	free(buf);
	return 0;
}
