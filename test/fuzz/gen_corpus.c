/*
 * test/fuzz/gen_corpus.c -- writes the seed corpus of the fuzz harnesses
 *
 * The files it writes are committed in test/fuzz/corpus/; to write them again:
 *   cc -Isrc -o test/fuzz/build/gen_corpus test/fuzz/gen_corpus.c \
 *      src/lp_parse.c src/lp_state.c src/lp_codec.c src/lp_gen.c
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

		if (lp_parse_line(buf, n, &l) == LP_PARSE_OK)
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
	return 0;
}
