/* test/bench/definition_driver.c -- the line parser of a compiled definition beside the built-in combined parser, for callgrind and perf (plain C)
 *
 *   make -C test/bench definition_driver
 *   valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \
 *       test/bench/definition_driver combined 'nginx:...' 100000
 *   callgrind_annotate --inclusive=yes /tmp/cg.out | grep -E 'parse_(builtin|definition)'
 *
 * Generates N lines of a built-in format the generator writes (combined,
 * combined_us...; 300 routes, seed 42, the benchmark's lines) into
 * memory, then parses each once through the format's entry of
 * lp_formats[] (parse_builtin, the aggregate's path, as parse_driver.c)
 * and once by the program of the definition given ("nginx:..." or
 * "apache:...", compiled once: parse_definition), and prints both
 * checksums (equal when both read the same routes and latencies) and the
 * time a line of each (the fastest of the repeats).  Instructions a line
 * = each function's inclusive count / N.
 *
 * With a fifth argument, the definition reads the same requests written
 * in another layout (the built-in still reads the generator's lines):
 *   json     nginx escape=json, one object a line:
 *            nginx:escape=json '{"time":"$time_local","ip":"$remote_addr","request":"$request",
 *            "status":$status,"bytes":$body_bytes_sent,"referer":"$http_referer",
 *            "ua":"$http_user_agent","rt":$request_time}'
 *   reorder  nginx:'$remote_addr [$time_local] "$request" $status $body_bytes_sent
 *            rt=$request_time urt=$upstream_response_time "$http_user_agent"'
 *            with an upstream list "0.010, 0.002" in urt
 * so that the instructions a line of other definitions can be set beside
 * the built-in's (the checksums then differ).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lp_formats.h"
#include "lp_gen.h"
#include "lp_simd.h"
#include "lp_definition.h"

/* Parse every line once by the table's entry; kept out of line so that callgrind names it. */
__attribute__((noinline)) static uint64_t
parse_builtin(const lp_format_def *f, const char *text, const size_t *off, long n)
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

/* Parse every line once by the program, with no options (as parse_builtin). */
__attribute__((noinline)) static uint64_t
parse_definition(const lp_def_program *prog, const char *text, const size_t *off, long n)
{
	uint64_t	sum = 0;
	long		i;

	for (i = 0; i < n; i++)
	{
		lp_result	r;

		if (lp_definition_parse(prog, text + off[i], off[i + 1] - off[i], NULL, &r) == LP_ST_OK)
			sum += (uint64_t) r.latency * 31 + r.route_len + (unsigned char) r.route[0];
		else
			sum += 7;
	}
	return sum;
}

/* The n bytes of s up to c (or the end), copied to out as a C string; the byte after c. */
static const char *
cut(const char *s, const char *end, char c, char *out)
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

		p = cut(p, end, ' ', ip);
		p = cut(p + 2, end, ' ', user);
		p = cut(p + 1, end, ']', tm);
		p = cut(p + 2, end, '"', rq);
		p = cut(p + 1, end, ' ', st);
		p = cut(p, end, ' ', by);
		p = cut(p + 1, end, '"', ref);
		p = cut(p + 2, end, '"', ua);
		cut(p + 1, end, ' ', rt);
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

/* Nanoseconds since some start. */
static double
now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

int
main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "combined";
	const char *def = argc > 2 ? argv[2] : NULL;
	long		n = argc > 3 ? atol(argv[3]) : 100000;
	int			reps = argc > 4 ? atoi(argv[4]) : 1;
	const lp_format_def *f = lp_gen_format_lookup(name, strlen(name));
	static lp_def_program prog;
	lp_def_error err;
	lp_def_dialect dialect;
	lp_gen		g;
	char	   *text;
	size_t	   *off;
	long		i;
	int			r;
	double		best_b = 0,
				best_d = 0;
	const char *def_text;
	const size_t *def_off;
	uint64_t	sum_b = 0,
				sum_d = 0;

	if (!f || !def || n <= 0 || reps <= 0 ||
		(strncmp(def, "nginx:", 6) != 0 && strncmp(def, "apache:", 7) != 0))
	{
		fprintf(stderr, "usage: definition_driver format nginx:...|apache:... [lines] [repeats]\n");
		return 2;
	}
	dialect = def[0] == 'n' ? LP_DEF_NGINX : LP_DEF_APACHE;
	def += dialect == LP_DEF_NGINX ? 6 : 7;
	if (lp_definition_compile(dialect, def, strlen(def), LP_HAS_ROUTE | LP_HAS_LATENCY, 0,
							  &prog, &err) != LP_DEF_OK)
	{
		fprintf(stderr, "definition_driver: at %zu: %s\n", err.pos, err.message);
		return 2;
	}
	/* the CPU build of the parsers, chosen once as _PG_init does */
	lp_simd_choose();
	text = malloc((size_t) n * LP_GEN_MAXLINE);
	off = malloc(((size_t) n + 1) * sizeof(size_t));
	if (!text || !off)
		return 1;
	lp_gen_init(&g, 300, 42);
	lp_gen_set_format(&g, f);
	off[0] = 0;
	for (i = 0; i < n; i++)
		off[i + 1] = off[i] + lp_gen_line(&g, i, text + off[i]);
	if (argc > 5)
	{
		char	   *text2 = malloc((size_t) n * 2 * LP_GEN_MAXLINE);
		size_t	   *off2 = malloc(((size_t) n + 1) * sizeof(size_t));

		if (!text2 || !off2 || !rewrite(argv[5], text, off, n, text2, off2))
		{
			fprintf(stderr, "definition_driver: cannot rewrite as %s\n", argv[5]);
			return 2;
		}
		def_text = text2;
		def_off = off2;
	}
	else
	{
		def_text = text;
		def_off = off;
	}
	for (r = 0; r < reps; r++)
	{
		double		t0 = now_ns();
		double		t1,
					t2;

		sum_b = parse_builtin(f, text, off, n);
		t1 = now_ns();
		sum_d = parse_definition(&prog, def_text, def_off, n);
		t2 = now_ns();
		if (r == 0 || (t1 - t0) / n < best_b)
			best_b = (t1 - t0) / n;
		if (r == 0 || (t2 - t1) / n < best_d)
			best_d = (t2 - t1) / n;
	}
	printf("%s %ld lines %zu bytes: built-in checksum %llu, %.1f ns a line; definition checksum %llu, %.1f ns a line (%.2fx; fastest of %d)\n",
		   name, n, off[n], (unsigned long long) sum_b, best_b, (unsigned long long) sum_d, best_d,
		   best_d / best_b, reps);
	free(text);
	free(off);
	return sum_b == sum_d || argc > 5 ? 0 : 1;
}
