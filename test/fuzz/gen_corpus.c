/*
 * test/fuzz/gen_corpus.c -- writes the seed corpus of the fuzz harnesses
 *
 * The files it writes are committed in test/fuzz/corpus/; to write them again:
 *   cc -Isrc -o test/fuzz/build/gen_corpus test/fuzz/gen_corpus.c \
 *      $(the UNITS of test/unit/Makefile) -lm
 *   test/fuzz/build/gen_corpus test/fuzz/corpus
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lp_codec.h"
#include "lp_gen.h"
#include "lp_parse.h"
#include "lp_state.h"

/* malloc for the states. */
static void *
g_alloc(void *ctx, size_t size)
{
	return malloc(size ? size : 1);
}

/* free for the states. */
static void
g_free(void *ctx, void *ptr)
{
	free(ptr);
}

static const lp_allocator alloc = {g_alloc, g_free, NULL};

/* Directory the files go to (argv[1]). */
static const char *outdir;

/* Write one corpus file dir/name. */
static void
put(const char *dir, const char *name, const void *data, size_t len)
{
	char		path[1024];
	FILE	   *f;

	snprintf(path, sizeof(path), "%s/%s", outdir, dir);
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
	{
		perror(path);
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/%s/%s", outdir, dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0)
	{
		perror(path);
		exit(1);
	}
}

/* Write a state's encoding to corpus/decode and its text form to corpus/hex. */
static void
put_state(const char *name, lp_state *st)
{
	uint8_t    *buf;
	size_t		len;
	char	   *hex;

	if (lp_encode(st, &alloc, 0, SIZE_MAX / 4, &buf, &len) != LP_OK ||
		lp_validate(buf, len) != LP_OK)
	{
		fprintf(stderr, "cannot encode %s\n", name);
		exit(1);
	}
	put("decode", name, buf, len);
	hex = malloc(lp_hex_len(len));
	lp_hex_encode(buf, len, hex);
	put("hex", name, hex, lp_hex_len(len));
	free(hex);
	free(buf);
	lp_state_free(st);
}

/* A state of `lines` generated lines. */
static lp_state *
gen_state(int64_t lines, int32_t routes, int64_t seed)
{
	lp_state   *st = lp_state_create(&alloc);
	lp_gen		g;
	char		buf[LP_GEN_MAXLINE];
	int64_t		i;

	lp_gen_init(&g, routes, seed);
	for (i = 0; i < lines; i++)
	{
		size_t		n = lp_gen_line(&g, i, buf);
		lp_line		l;

		if (lp_parse_line(buf, n, &l) == LP_ST_OK)
			lp_state_add(st, l.route, l.route_len, l.latency);
	}
	return st;
}

/* Lines for the parser: real ones and every documented edge. */
static const char *const lines[] = {
	"2026-11-07T12:00:05 GET /api/v1/resource17/items 214",
	"2026-11-07T12:00:05\tPOST\t/api/v2/users/3/orders\t1032",
	"  \t2026-11-07T12:00:06   GET  \t /static/app3.js    7   ",
	"2026-11-07T12:00:07 GET /crlf 19\r",
	"2026-11-07T12:00:07 GET /crlf 19\r\r",
	"2026-11-07T12:00:08 GET /extra 21 HTTP/1.1 200 \"Mozilla/5.0\"",
	"2026-11-07T12:00:09 GET /caf\xc3\xa9/\xe6\x97\xa5\xe6\x9c\xac 5",
	"2026-11-07T12:00:09 GET /a\xc2\xa0" "b 6",
	"2026-11-07T12:00:10 GET /ms 12ms",
	"2026-11-07T12:00:10 GET /neg -5",
	"2026-11-07T12:00:10 GET /exp 1e3",
	"2026-11-07T12:00:10 GET /plus +",
	"2026-11-07T12:00:10 GET /hex 0x10",
	"2026-11-07T12:00:10 GET /quotes \"\"",
	"2026-11-07T12:00:10 GET /zeros 007",
	"2026-11-07T12:00:10 GET /max 9223372036854775807",
	"2026-11-07T12:00:10 GET /max1 9223372036854775808",
	"2026-11-07T12:00:10 GET /big 99999999999999999999",
	"2026-11-07T12:00:10 GET /zero 0",
	"2026-11-07T12:00:11 GET /three",
	"2026-11-07T12:00:11 GET",
	"2026-11-07T12:00:11",
	"",
	" \t ",
	"\r",
};

/*
 * Inputs for the formats harness: combined lines (nginx with seconds,
 * Apache with microseconds), lone timestamps (ISO 8601, common log format)
 * and lone request times; real ones and the documented edges.
 */
static const char *const format_lines[] = {
	"203.0.113.7 - - [07/Nov/2026:12:00:05 +0000] \"GET /api/v1/items?page=2&sort=desc HTTP/1.1\" 200 5123 \"https://example.com/start\" \"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0 Safari/537.36\" 0.214",
	"2001:db8::1 - alice [07/Nov/2026:12:00:06 +0530] \"POST /api/v2/users/3/orders HTTP/2.0\" 201 87 \"-\" \"curl/8.4.0\" 1.032",
	"::1 - - [29/Feb/2024:23:59:59 -1000] \"GET /search?q=%22a%22 HTTP/1.1\" 200 17 \"-\" \"Mozilla/5.0 \\\"quoted\\\" agent\\\\\" 0.0005",
	"198.51.100.23 - frank [10/Oct/2000:13:55:36 -0700] \"GET /apache_pb.gif HTTP/1.0\" 200 2326 \"http://www.example.com/start.html\" \"Mozilla/4.08 [en] (Win98; I ;Nav)\" 1534",
	"198.51.100.24 - - [10/oct/2000:13:55:37 -0700] \"GET /img/logo.png?v=3 HTTP/1.0\" 304 - \"-\" \"-\" 499",
	"192.0.2.1 - - [07/Nov/2026:12:00:07 +0000] \"-\" 400 0 \"-\" \"-\" 0.000",
	"[2001:db8::2] - - [07/nov/2026:12:00:08 +01:00] \"GET /caf\xc3\xa9/?x=1 HTTP/1.1\" 304 0 \"-\" \"-\" 12.5\r",
	"10.0.0.1 - - [07/Nov/2026:12:00:09 +0000] \"GET ?only=query HTTP/1.1\" 200 1 \"-\" \"-\" 0.001",
	"10.0.0.1 - - [07/Nov/2026:12:00:09 +0000] \"GET /max HTTP/1.1\" 200 1 \"-\" \"-\" 9223372036854775.807",
	"10.0.0.1 - - [07/Nov/2026:12:00:09 +0000] \"GET /max HTTP/1.1\" 200 1 \"-\" \"-\" 9223372036854775807",
	"10.0.0.1 - - [07/Nov/2026:12:00:09 +0000] \"GET /range HTTP/1.1\" 200 1 \"-\" \"-\" 9223372036854775.808",
	"10.0.0.2 - - [07/Nov/2026:12:00:10 +0000] \"GET /x HTTP/1.1\" 200 1 \"-\" \"unterminated 0.1",
	"10.0.0.2 - - [07/Nov/2026:12:00:10 +0000] \"GET /few HTTP/1.1\" 200 1 0.1",
	"10.0.0.2 - - [07/Nov/2026:12:00:10 +0000] \"GET /quoted HTTP/1.1\" 200 1 \"-\" \"-\" \"0.1\"",
	"10.0.0.2 - - [07/Nov/2026:12:00:10 +0000] \"GET /upstream HTTP/1.1\" 502 157 \"-\" \"-\" 0.050 -",
	"  10.0.0.3\t-\t-\t[07/Nov/2026:12:00:11 +0000]\t\"GET /tabs HTTP/1.1\"\t200\t1\t\"-\"\t\"-\"\t0.3  \r",
	"10.0.0.4 - - [31/Dec/2026:23:59:60 +0000] \"GET /leap-second HTTP/1.1\" 200 1 \"-\" \"-\" 1e3",
	"10.0.0.4 - - 07/Nov/2026:12:00:12 +0000 \"GET /no-brackets HTTP/1.1\" 200 1 \"-\" \"-\" 0.1",
	"2026-11-07T12:00:05",
	"2026-11-07T12:00:05Z",
	"2026-11-07T12:00:05.123456Z",
	"2026-11-07T12:00:05.9999995+05:30",
	"2024-02-29T23:59:59.5-0800",
	"2026-11-07T12:00:05+15:59",
	"2026-11-07T12:00:05+16:00",
	"2023-02-29T00:00:00Z",
	"0000-01-01T00:00:00Z",
	"9999-12-31T23:59:59.999999999-15",
	"  2026-11-07T12:00:05.250+01:00 GET /api/v1/x 214\r",
	"07/Nov/2026:12:00:05 +0000",
	"07/Nov/2026:12:00:05 +05:30",
	"07/NOV/2026:12:00:05 -07",
	"31/dec/1999:23:59:60 -0500",
	"0.0005",
	"0.0004999",
	"9223372036854775807",
};

/* Write every corpus file. */
int
main(int argc, char **argv)
{
	size_t		i;
	char		name[64];
	lp_state   *st;
	lp_route   *r;
	lp_gen		g;
	char		buf[LP_GEN_MAXLINE];

	if (argc != 2)
	{
		fprintf(stderr, "usage: gen_corpus DIR\n");
		return 2;
	}
	outdir = argv[1];

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
	{
		snprintf(name, sizeof(name), "line-%02zu", i);
		put("parse", name, lines[i], strlen(lines[i]));
	}
	for (i = 0; i < sizeof(format_lines) / sizeof(format_lines[0]); i++)
	{
		snprintf(name, sizeof(name), "line-%02zu", i);
		put("formats", name, format_lines[i], strlen(format_lines[i]));
	}
	lp_gen_init(&g, 300, 1);
	for (i = 0; i < 5; i++)
	{
		size_t		n = lp_gen_line(&g, (int64_t) i * 977, buf);

		snprintf(name, sizeof(name), "gen-%02zu", i);
		put("parse", name, buf, n);
	}

	/* states: empty, small, edge values, generated */
	put_state("empty", lp_state_create(&alloc));
	st = lp_state_create(&alloc);
	lp_state_add(st, "/a", 2, 5);
	lp_state_add(st, "/a", 2, 7);
	lp_state_add(st, "/a", 2, 5);
	lp_state_add_malformed(st, 3);
	put_state("small", st);
	st = lp_state_create(&alloc);
	lp_state_add(st, "", 0, 0);
	lp_state_add(st, "/", 1, INT64_MAX);
	lp_state_add(st, "/", 1, 0);
	lp_state_add(st, "/\xc3\xa9", 3, 1);
	lp_state_route(st, "/count", 6, &r);
	lp_hist_add(st, &r->hist, 128, (uint64_t) INT64_MAX);
	lp_state_add_malformed(st, (uint64_t) INT64_MAX);
	put_state("edges", st);
	put_state("gen-20-routes", gen_state(200, 20, 3));
	put_state("gen-70-routes", gen_state(700, 70, 42));

	/* encoding version 2 (issue 24): statuses, a route without latency, options */
	st = lp_state_create(&alloc);
	lp_state_use_options(st, 0);
	lp_state_add_status(st, "/a", 2, 5, 1);
	lp_state_add_status(st, "/a", 2, 7, 4);
	lp_state_add_status(st, "/a", 2, -1, 3);
	lp_state_add_status(st, "/b", 2, 300, LP_CLASS_UNKNOWN);
	lp_state_add_status(st, "/nolat", 6, -1, 0);
	lp_state_add_malformed(st, 2);
	lp_state_flush(st);
	put_state("red-status", st);
	st = lp_state_create(&alloc);
	lp_state_use_options(st, LP_SOPT_METHOD | LP_SOPT_OK_LATENCY);
	lp_state_add_status(st, "GET /a", 6, 5, 1);
	lp_state_add_status(st, "GET /a", 6, 60000, 4);
	lp_state_add_status(st, "PUT /a", 6, 60000, 4);
	lp_state_add_status(st, "PUT /a", 6, -1, 2);
	lp_state_flush(st);
	put_state("red-method-ok_latency", st);
	st = lp_state_create(&alloc);
	lp_state_use_options(st, LP_SOPT_METHOD);
	put_state("red-empty-method", st);
	return 0;
}
