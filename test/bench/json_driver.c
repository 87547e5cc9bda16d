/* test/bench/json_driver.c -- JSON lines against the combined parser on the same requests, for timing and callgrind (plain C)
 *
 *   make -C test/bench json_driver
 *   test/bench/json_driver 200000 5 [caddy|minimal]
 *   valgrind --tool=callgrind test/bench/json_driver 100000 1
 *     (instructions a line: the functions parse_combined_all and
 *     parse_json_all, inclusive, / N)
 *
 * Generates N combined lines with lp_gen (300 routes, seed 42, the
 * benchmark's lines) and, from each, the Caddy 2 access-log line of the
 * same request as Caddy writes it by default (https://caddyserver.com/docs/logging:
 * ts, logger, msg, request with remote_ip, remote_port, client_ip, proto,
 * method, host, uri and the User-Agent and Referer headers, bytes_read,
 * user_id, duration in seconds with nanosecond digits (those past the
 * millisecond below 0.0005 s, so that it rounds as the combined line's
 * request time), size, status,
 * resp_headers; with "minimal", only the fields the combined line has,
 * in Caddy's keys).  Parses the combined lines through their table entry
 * (the aggregate's path) and the Caddy lines with lp_json_parse and the
 * caddy preset, checks that both give the same routes and latencies, and
 * prints each loop's time a line (the fastest of the repeats) and their
 * ratio.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lp_formats.h"
#include "lp_gen.h"
#include "lp_simd.h"
#include "lp_json.h"

/* Longest Caddy line built from one combined line. */
#define CADDY_MAXLINE 1536

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
	sscanf(s + p, "%d %ld", &status, &size);
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

/* Parse every combined line once; kept out of line so that callgrind names it. */
__attribute__((noinline)) static uint64_t
parse_combined_all(const lp_format_def *f, const char *text, const size_t *off, long n)
{
	uint64_t	sum = 0;
	long		i;

	for (i = 0; i < n; i++)
	{
		lp_result	lf;

		if (f->parse(text + off[i], off[i + 1] - off[i], f, NULL, &lf) == LP_ST_OK)
			sum += (uint64_t) lf.latency * 31 + lf.route_len + (unsigned char) lf.route[0];
		else
			sum += 7;
	}
	return sum;
}

/* Parse every JSON line once (the same checksum). */
__attribute__((noinline)) static uint64_t
parse_json_all(const lp_json_spec *spec, const char *text, const size_t *off, long n, char *buf)
{
	uint64_t	sum = 0;
	long		i;
	lp_parse_ctx ctx = {0, buf};

	for (i = 0; i < n; i++)
	{
		lp_result	r;

		if (lp_json_parse(spec, text + off[i], off[i + 1] - off[i], &ctx, &r) == LP_ST_OK)
			sum += (uint64_t) r.latency * 31 + r.route_len + (unsigned char) r.route[0];
		else
			sum += 7;
	}
	return sum;
}

/* ns a line of the fastest of reps runs of loop k (0 combined, 1 JSON); *sum its checksum. */
static double
best_ns(int k, int reps, long n, const lp_format_def *f, const char *ctext, const size_t *coff,
		const lp_json_spec *spec, const char *jtext, const size_t *joff, char *buf, uint64_t *sum)
{
	double		best = 0;
	int			r;

	for (r = 0; r < reps; r++)
	{
		struct timespec t0,
					t1;
		double		ns;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		*sum = k ? parse_json_all(spec, jtext, joff, n, buf) : parse_combined_all(f, ctext, coff, n);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ns = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / (double) n;
		if (r == 0 || ns < best)
			best = ns;
	}
	return best;
}

int
main(int argc, char **argv)
{
	long		n = argc > 1 ? atol(argv[1]) : 200000;
	int			reps = argc > 2 ? atoi(argv[2]) : 5;
	int			minimal = argc > 3 && strcmp(argv[3], "minimal") == 0;
	const lp_format_def *f = lp_gen_format_lookup("combined", 8);
	const char *preset = lp_json_preset_spec("caddy", 5);
	lp_json_spec spec;
	size_t		pos;
	lp_gen		g;
	char	   *ctext,
			   *jtext,
			   *buf;
	size_t	   *coff,
			   *joff;
	long		i;
	uint64_t	csum,
				jsum;
	double		cns,
				jns;
	int			round;

	if (n <= 0 || reps <= 0 || (argc > 3 && !minimal && strcmp(argv[3], "caddy") != 0) ||
		lp_json_compile(preset, strlen(preset), &spec, &pos) != LP_JSPEC_OK)
	{
		fprintf(stderr, "usage: json_driver [lines] [repeats] [caddy|minimal]\n");
		return 2;
	}
	/* the CPU build of the parsers, chosen once as _PG_init does */
	lp_simd_choose();
	ctext = malloc((size_t) n * LP_GEN_MAXLINE);
	jtext = malloc((size_t) n * CADDY_MAXLINE);
	coff = malloc(((size_t) n + 1) * sizeof(size_t));
	joff = malloc(((size_t) n + 1) * sizeof(size_t));
	buf = malloc(LP_ROUTE_BUF_SIZE(CADDY_MAXLINE));
	if (!ctext || !jtext || !coff || !joff || !buf)
		return 1;
	lp_gen_init(&g, 300, 42);
	lp_gen_set_format(&g, f);
	coff[0] = joff[0] = 0;
	for (i = 0; i < n; i++)
	{
		coff[i + 1] = coff[i] + lp_gen_line(&g, i, ctext + coff[i]);
		joff[i + 1] = joff[i] + caddy_of(ctext + coff[i], coff[i + 1] - coff[i], i, jtext + joff[i],
												  minimal);
	}
	/* the same requests: the same routes and latencies */
	csum = parse_combined_all(f, ctext, coff, n);
	jsum = parse_json_all(&spec, jtext, joff, n, buf);
	if (csum != jsum)
	{
		fprintf(stderr, "json_driver: checksums differ: combined %llu, caddy %llu\n",
				(unsigned long long) csum, (unsigned long long) jsum);
		return 1;
	}
	/* alternate the two loops, so that both see the same machine */
	cns = jns = 0;
	for (round = 0; round < 3; round++)
	{
		double		c = best_ns(0, reps, n, f, ctext, coff, &spec, jtext, joff, buf, &csum);
		double		j = best_ns(1, reps, n, f, ctext, coff, &spec, jtext, joff, buf, &jsum);

		if (round == 0 || c < cns)
			cns = c;
		if (round == 0 || j < jns)
			jns = j;
	}
	printf("combined: %ld lines, %.0f bytes a line, %.1f ns a line\n", n, (double) coff[n] / n, cns);
	printf("%s: %ld lines, %.0f bytes a line, %.1f ns a line (%.2fx combined, %.2f bytes/ns)\n",
		   minimal ? "caddy, the combined line's fields only" : "caddy, Caddy's default line",
		   n, (double) joff[n] / n, jns, jns / cns, (double) joff[n] / n / jns);
	free(ctext);
	free(jtext);
	free(coff);
	free(joff);
	free(buf);
	return 0;
}
