/* test/unit/test_units.c -- unit tests of logp95's plain C units (no PostgreSQL) */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lp_codec.h"
#include "lp_gen.h"
#include "lp_parse.h"
#include "lp_partial.h"
#include "lp_rank.h"
#include "ref_parse.h"
#include "lp_state.h"

/* ---------- assertions ---------- */

static long n_passed;			/* assertions that held */
static long n_failed;			/* assertions that did not */

/* Count one assertion; print it when it fails. */
static int
check_at(int ok, const char *file, int line, const char *fmt,...)
{
	va_list		ap;

	if (ok)
	{
		n_passed++;
		return 1;
	}
	n_failed++;
	fprintf(stderr, "FAIL %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 0;
}

#define CHECK(cond, ...) check_at((cond) ? 1 : 0, __FILE__, __LINE__, __VA_ARGS__)
#define CHECK_EQ_I(a, b, what) check_eq_i((long long) (a), (long long) (b), (what), __FILE__, __LINE__)
#define CHECK_EQ_U(a, b, what) \
	check_eq_u((unsigned long long) (a), (unsigned long long) (b), (what), __FILE__, __LINE__)

/* Count one signed equality (each argument evaluated once). */
static int
check_eq_i(long long got, long long want, const char *what, const char *file, int line)
{
	return check_at(got == want, file, line, "%s: got %lld, want %lld", what, got, want);
}

/* Count one unsigned equality (each argument evaluated once). */
static int
check_eq_u(unsigned long long got, unsigned long long want, const char *what,
		   const char *file, int line)
{
	return check_at(got == want, file, line, "%s: got %llu, want %llu", what, got, want);
}

/* ---------- a counting malloc allocator that can be told to fail ---------- */

/* Book-keeping of the test allocator; the block header records the size. */
typedef struct test_heap
{
	long		live;			/* blocks handed out and not given back */
	long		nalloc;			/* allocations asked for so far */
	long		fail_at;		/* allocation index that fails first, -1 = never */
	int			sticky;			/* 1: every allocation from fail_at on fails */
	long		nfailed;		/* allocations refused */
} test_heap;

/* Allocate from malloc unless the failure point is reached. */
static void *
heap_alloc(void *ctx, size_t size)
{
	test_heap  *h = ctx;
	long		idx = h->nalloc++;
	void	   *p;

	if (h->fail_at >= 0 && (idx == h->fail_at || (h->sticky && idx > h->fail_at)))
	{
		h->nfailed++;
		return NULL;
	}
	p = malloc(size ? size : 1);
	if (p)
		h->live++;
	return p;
}

/* Give one block back. */
static void
heap_free(void *ctx, void *ptr)
{
	test_heap  *h = ctx;

	if (ptr)
	{
		h->live--;
		free(ptr);
	}
}

/* A fresh heap that never fails. */
static void
heap_init(test_heap *h, lp_allocator *a)
{
	memset(h, 0, sizeof(*h));
	h->fail_at = -1;
	a->alloc = heap_alloc;
	a->free = heap_free;
	a->ctx = h;
}

/* The heap of most tests, checked for leaks at the end. */
static test_heap g_heap;
static lp_allocator g_alloc;

/* ---------- helpers ---------- */

/* Parse a NUL-terminated line. */
static lp_parse_status
parse(const char *s, lp_line *out)
{
	memset(out, 0xAB, sizeof(*out));
	return lp_parse_line(s, strlen(s), out);
}

/* Does a route slice equal a C string? */
static int
slice_is(const char *p, size_t n, const char *want)
{
	return n == strlen(want) && memcmp(p, want, n) == 0;
}

/* Encode a state with the global allocator; aborts the test on failure. */
static uint8_t *
encode(const lp_state *st, size_t *len)
{
	uint8_t    *buf = NULL;
	int			rc = lp_encode(st, &g_alloc, 0, SIZE_MAX / 4, &buf, len);

	if (!CHECK(rc == LP_OK, "lp_encode returned %d", rc))
		return NULL;
	return buf;
}

/* Do two states encode to the same bytes? */
static int
same_state(const lp_state *a, const lp_state *b)
{
	size_t		la,
				lb;
	uint8_t    *ea = encode(a, &la);
	uint8_t    *eb = encode(b, &lb);
	int			same = ea && eb && la == lb && memcmp(ea, eb, la) == 0;

	g_alloc.free(g_alloc.ctx, ea);
	g_alloc.free(g_alloc.ctx, eb);
	return same;
}

/* Requests of one route of a state, 0 when absent. */
static uint64_t
route_total(const lp_state *st, const char *key)
{
	lp_route   *r = lp_state_lookup(st, key, strlen(key));

	return r ? r->hist.total : 0;
}

/* A byte builder for hand-made encodings. */
typedef struct bytes
{
	uint8_t		b[4096];		/* the bytes */
	size_t		n;				/* how many */
} bytes;

/* Append one byte. */
static void
b_byte(bytes *b, uint8_t v)
{
	b->b[b->n++] = v;
}

/* Append a canonical varint. */
static void
b_var(bytes *b, uint64_t v)
{
	b->n += lp_varint_put(b->b + b->n, v);
}

/* Append raw bytes. */
static void
b_raw(bytes *b, const void *p, size_t n)
{
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

/* Append a route header: key, npairs and pairs_len. */
static void
b_route(bytes *b, const char *key, uint64_t npairs, uint64_t plen)
{
	b_var(b, strlen(key));
	b_raw(b, key, strlen(key));
	b_var(b, npairs);
	b_var(b, plen);
}

/* Start an encoding: version, malformed count, number of routes. */
static void
b_head(bytes *b, uint64_t malformed, uint64_t nroutes)
{
	b->n = 0;
	b_byte(b, LP_CODEC_VERSION);
	b_var(b, malformed);
	b_var(b, nroutes);
}

/* Build a state from `lines` generated lines of `routes` routes. */
static lp_state *
gen_state(const lp_allocator *a, int64_t first, int64_t lines, int32_t routes, int64_t seed)
{
	lp_state   *st = lp_state_create(a);
	lp_gen		g;
	char		buf[LP_GEN_MAXLINE];
	int64_t		i;

	if (!st)
		return NULL;
	lp_gen_init(&g, routes, seed);
	for (i = 0; i < first + lines; i++)
	{
		size_t		n = lp_gen_line(&g, i, buf);
		lp_line		l;

		if (i < first)
			continue;
		if (lp_parse_line(buf, n, &l) != LP_PARSE_OK ||
			lp_state_add(st, l.route, l.route_len, l.latency) != LP_OK)
		{
			lp_state_free(st);
			return NULL;
		}
	}
	return st;
}

/* ---------- parser ---------- */

/* Four fields with the documented separators. */
static void
test_parse_fields(void)
{
	lp_line		l;
	const char *s;

	s = "2026-11-07T12:00:05 GET /api/v1/resource17/items 214";
	CHECK_EQ_I(parse(s, &l), LP_PARSE_OK, "plain line");
	CHECK(slice_is(l.route, l.route_len, "/api/v1/resource17/items"), "plain route");
	CHECK_EQ_I(l.latency, 214, "plain latency");
	CHECK_EQ_I(l.nfields, 4, "plain nfields");
	CHECK(l.bad == NULL && l.bad_len == 0, "no bad slice on success");
	CHECK(l.route == s + 24, "route points into the input");

	CHECK_EQ_I(parse("ts\tGET\t/tab\t15", &l), LP_PARSE_OK, "tabs");
	CHECK(slice_is(l.route, l.route_len, "/tab") && l.latency == 15, "tab fields");

	CHECK_EQ_I(parse("ts  \t GET   /multi \t\t  16", &l), LP_PARSE_OK, "runs of blanks");
	CHECK(slice_is(l.route, l.route_len, "/multi") && l.latency == 16, "runs of blanks fields");

	CHECK_EQ_I(parse(" \t  ts GET /lead 17", &l), LP_PARSE_OK, "leading blanks");
	CHECK(slice_is(l.route, l.route_len, "/lead") && l.latency == 17, "leading blanks fields");

	CHECK_EQ_I(parse("ts GET /trail 18 \t ", &l), LP_PARSE_OK, "trailing blanks");
	CHECK_EQ_I(l.latency, 18, "trailing blanks latency");

	CHECK_EQ_I(parse("ts GET /crlf 19\r", &l), LP_PARSE_OK, "one trailing CR dropped");
	CHECK_EQ_I(l.latency, 19, "CR latency");
	CHECK_EQ_I(parse("ts GET /crlf 19\r\r", &l), LP_PARSE_BAD_LATENCY, "only one CR dropped");
	CHECK(slice_is(l.bad, l.bad_len, "19\r"), "second CR stays in the latency field");
	CHECK_EQ_I(parse("ts GET /cr\r", &l), LP_PARSE_TOO_FEW_FIELDS, "CR alone is no field");
	CHECK_EQ_I(l.nfields, 3, "CR line nfields");
	CHECK_EQ_I(parse("ts GET /crmid\r 20", &l), LP_PARSE_OK, "CR inside a line is a route byte");
	CHECK(slice_is(l.route, l.route_len, "/crmid\r"), "CR kept in the route");

	CHECK_EQ_I(parse("ts GET /extra 21 more fields\there 12ms -5", &l), LP_PARSE_OK,
			   "fields after the fourth ignored");
	CHECK(slice_is(l.route, l.route_len, "/extra") && l.latency == 21, "extra fields values");
	CHECK_EQ_I(l.nfields, 4, "nfields counts up to four");

	/* the length bounds the line: bytes after it are not read */
	s = "ts GET /len 22XYZ";
	CHECK_EQ_I(lp_parse_line(s, strlen(s) - 3, &l), LP_PARSE_OK, "length bounds the line");
	CHECK_EQ_I(l.latency, 22, "length-bounded latency");
	CHECK_EQ_I(lp_parse_line(s, 11, &l), LP_PARSE_TOO_FEW_FIELDS, "length cut before the latency");
	CHECK_EQ_I(lp_parse_line("", 0, &l), LP_PARSE_TOO_FEW_FIELDS, "empty input");
	CHECK_EQ_I(l.nfields, 0, "empty input nfields");
}

/* Fewer than four fields, with the count of those found. */
static void
test_parse_few(void)
{
	static const struct
	{
		const char *line;
		int			n;
	}			cases[] = {
		{"", 0}, {"   \t ", 0}, {"\r", 0}, {"ts", 1}, {"ts GET", 2},
		{"ts GET /a", 3}, {"ts GET /a \t", 3}, {"  ts\tGET  ", 2}, {"ts GET /a\r", 3},
	};
	size_t		i;
	lp_line		l;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		CHECK_EQ_I(parse(cases[i].line, &l), LP_PARSE_TOO_FEW_FIELDS, cases[i].line);
		CHECK_EQ_I(l.nfields, cases[i].n, cases[i].line);
		CHECK(l.bad == NULL, "no bad slice for too few fields");
	}
}

/* Latencies: plain non-negative decimal integers that fit in int64. */
static void
test_parse_latency(void)
{
	static const struct
	{
		const char *lat;
		lp_parse_status st;
		int64_t		value;
	}			cases[] = {
		{"12ms", LP_PARSE_BAD_LATENCY, 0},
		{"-5", LP_PARSE_BAD_LATENCY, 0},
		{"1e3", LP_PARSE_BAD_LATENCY, 0},
		{"+", LP_PARSE_BAD_LATENCY, 0},
		{"+5", LP_PARSE_BAD_LATENCY, 0},
		{"0x10", LP_PARSE_BAD_LATENCY, 0},
		{"\"\"", LP_PARSE_BAD_LATENCY, 0},
		{"1.5", LP_PARSE_BAD_LATENCY, 0},
		{"5,0", LP_PARSE_BAD_LATENCY, 0},
		{"\xd9\xa3", LP_PARSE_BAD_LATENCY, 0},	/* ARABIC-INDIC DIGIT THREE */
		{"0", LP_PARSE_OK, 0},
		{"007", LP_PARSE_OK, 7},
		{"00000000000000000000000000000001", LP_PARSE_OK, 1},
		{"9223372036854775807", LP_PARSE_OK, INT64_MAX},
		{"09223372036854775807", LP_PARSE_OK, INT64_MAX},
		{"9223372036854775808", LP_PARSE_LATENCY_RANGE, 0},
		{"9223372036854775810", LP_PARSE_LATENCY_RANGE, 0},
		{"18446744073709551615", LP_PARSE_LATENCY_RANGE, 0},
		{"18446744073709551616", LP_PARSE_LATENCY_RANGE, 0},
		{"99999999999999999999", LP_PARSE_LATENCY_RANGE, 0},
		{"99999999999999999999x", LP_PARSE_BAD_LATENCY, 0},
	};
	size_t		i;
	char		line[200];
	lp_line		l;
	int64_t		v;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		lp_parse_status st;

		snprintf(line, sizeof(line), "ts GET /lat %s tail", cases[i].lat);
		st = parse(line, &l);
		CHECK_EQ_I(st, cases[i].st, cases[i].lat);
		if (st == LP_PARSE_OK)
			CHECK_EQ_I(l.latency, cases[i].value, cases[i].lat);
		else
			CHECK(slice_is(l.bad, l.bad_len, cases[i].lat) && l.bad == line + 12,
				  "bad slice of %s", cases[i].lat);
		CHECK(slice_is(l.route, l.route_len, "/lat"), "route beside latency %s", cases[i].lat);
		/* lp_parse_uint63 alone agrees */
		CHECK_EQ_I(lp_parse_uint63(cases[i].lat, strlen(cases[i].lat), &v), cases[i].st,
				   cases[i].lat);
	}
	CHECK_EQ_I(lp_parse_uint63("", 0, &v), LP_PARSE_BAD_LATENCY, "empty number");
	CHECK_EQ_I(lp_parse_uint63("12", 1, &v), LP_PARSE_OK, "length-bounded number");
	CHECK_EQ_I(v, 1, "length-bounded number value");

	/* every value around the int64 limit */
	for (i = 0; i < 10; i++)
	{
		snprintf(line, sizeof(line), "922337203685477580%d", (int) i);
		CHECK_EQ_I(lp_parse_uint63(line, strlen(line), &v),
				   i <= 7 ? LP_PARSE_OK : LP_PARSE_LATENCY_RANGE, line);
		if (i <= 7)
			CHECK_EQ_I(v, INT64_MAX - 7 + (int64_t) i, line);
	}

	/*
	 * the short-line path reads latencies of up to 8 digits without a loop:
	 * every length 1..9 at the end of lines of 16..63 bytes, and every byte
	 * value in every position of the field, against the plain digit loop
	 */
	{
		static const char digits[] = "90817263549";
		long		wrong = 0,
					tried = 0;
		size_t		n,
					pad,
					pos;
		int			b;

		for (n = 1; n <= 9; n++)
			for (pad = 0; pad < 48; pad += 5)
			{
				char		lat[16];
				int			len;

				memcpy(lat, digits, n);
				lat[n] = '\0';
				len = snprintf(line, sizeof(line), "t GET /r%.*s %s", (int) pad,
							   "/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", lat);
				for (pos = 0; pos <= n; pos++)
					for (b = 0; b < 256; b++)
					{
						char		l2[200];
						lp_parse_status want,
									got;
						int64_t		wv = -1;

						if (pos == n && b != 0)
							break;	/* pos == n: the field unchanged, once */
						memcpy(l2, line, (size_t) len + 1);
						if (pos < n)
							l2[len - (int) n + (int) pos] = (char) b;
						if (pos < n && (b == ' ' || b == '\t' || (b == '\r' && pos == n - 1)))
							continue;	/* would change the fields, not the latency */
						want = lp_parse_uint63(l2 + len - n, n, &wv);
						got = lp_parse_line(l2, (size_t) len, &l);
						tried++;
						if (got != want || (got == LP_PARSE_OK && l.latency != wv))
							wrong++;
					}
			}
		CHECK(wrong == 0 && tried > 20000, "short-line latency digits agree with the digit loop (%ld of %ld differ)",
			  wrong, tried);
	}

	CHECK(strcmp(lp_parse_status_text(LP_PARSE_OK), "ok") == 0, "status text ok");
	CHECK(strcmp(lp_parse_status_text(LP_PARSE_TOO_FEW_FIELDS), "fewer than four fields") == 0,
		  "status text too few");
	CHECK(strstr(lp_parse_status_text(LP_PARSE_BAD_LATENCY), "non-negative integer") != NULL,
		  "status text bad latency");
	CHECK(strstr(lp_parse_status_text(LP_PARSE_LATENCY_RANGE), "out of range") != NULL,
		  "status text range");
}

/* Routes are any run of non-blank bytes, UTF-8 included. */
static void
test_parse_utf8(void)
{
	lp_line		l;
	char		big[70000];

	CHECK_EQ_I(parse("ts GET /caf\xc3\xa9/\xe6\x97\xa5\xe6\x9c\xac/\xf0\x9f\x98\x80 5", &l),
			   LP_PARSE_OK, "UTF-8 route");
	CHECK(slice_is(l.route, l.route_len, "/caf\xc3\xa9/\xe6\x97\xa5\xe6\x9c\xac/\xf0\x9f\x98\x80"),
		  "UTF-8 bytes kept");
	/* a no-break space (U+00A0) is not a separator */
	CHECK_EQ_I(parse("ts GET /a\xc2\xa0" "b 6", &l), LP_PARSE_OK, "NBSP in route");
	CHECK(slice_is(l.route, l.route_len, "/a\xc2\xa0" "b"), "NBSP kept");
	/* invalid UTF-8 and high bytes are bytes like any other */
	CHECK_EQ_I(parse("ts GET \xff\xfe\x80 7", &l), LP_PARSE_OK, "high bytes");
	CHECK(slice_is(l.route, l.route_len, "\xff\xfe\x80"), "high bytes kept");
	/* other control bytes are not blanks either */
	CHECK_EQ_I(parse("ts GET /v\x0b\x0c" "x 8", &l), LP_PARSE_OK, "VT FF in route");
	CHECK_EQ_I(l.route_len, 5, "VT FF kept");
	/* a long route */
	memset(big, 'r', sizeof(big));
	memcpy(big, "ts GET /", 8);
	memcpy(big + sizeof(big) - 3, " 9", 2);
	big[sizeof(big) - 1] = '\0';
	CHECK_EQ_I(parse(big, &l), LP_PARSE_OK, "long route");
	CHECK_EQ_I(l.route_len, sizeof(big) - 10, "long route length");
	CHECK_EQ_I(l.latency, 9, "long route latency");
}

/* Random lines of 0..90 bytes (every fast-path length) agree with the reference. */
static void
test_parse_differential(void)
{
	static const char alphabet[] = "  \t\t\raa/09919";
	uint64_t	x = 0x2545F4914F6CDD1DULL;
	char		buf[96];
	int			i,
				bad = 0;

	for (i = 0; i < 200000; i++)
	{
		size_t		len,
					j;
		lp_line		a,
					b;
		lp_parse_status sa,
					sb;
		char	   *line;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		len = (size_t) (x % 91);
		for (j = 0; j < len; j++)
		{
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			/* mostly field bytes, so that four fields are common */
			buf[j] = alphabet[(x >> 20) % (sizeof(alphabet) - 1)];
		}
		/* a heap copy of exactly len bytes, so that ASan sees any overread */
		line = malloc(len ? len : 1);
		memcpy(line, buf, len);
		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		sa = lp_parse_line(line, len, &a);
		sb = ref_parse(line, len, &b);
		if (sa != sb || a.nfields != b.nfields || a.bad != b.bad || a.bad_len != b.bad_len ||
			(sa != LP_PARSE_TOO_FEW_FIELDS &&
			 (a.route != b.route || a.route_len != b.route_len)) ||
			(sa == LP_PARSE_OK && a.latency != b.latency))
		{
			if (bad++ < 5)
				fprintf(stderr, "parser differs from the reference on \"%.*s\" (%zu bytes)\n",
						(int) len, line, len);
		}
		free(line);
	}
	CHECK_EQ_I(bad, 0, "parser agrees with the byte-by-byte reference on 200000 random lines");
}

/* ---------- percentile ranks ---------- */

/* floor(n*k/100) clamped to n-1, computed in 128 bits. */
static uint64_t
ref_rank_pct(uint64_t n, unsigned k)
{
	unsigned __int128 x = (unsigned __int128) n * k / 100;

	if (n == 0)
		return 0;
	return x < n ? (uint64_t) x : n - 1;
}

/* lp_rank_pct and lp_rank_fraction at the rule's edges. */
static void
test_ranks(void)
{
	static const uint64_t ns[] = {
		1, 2, 19, 20, 21, 99, 100, 101, 199, 1000, 12345,
		UINT64_C(92233720368547758), (uint64_t) INT64_MAX - 1, (uint64_t) INT64_MAX,
		(uint64_t) INT64_MAX + 1, UINT64_MAX - 1, UINT64_MAX
	};
	size_t		i;
	unsigned	k;
	uint64_t	x = 88172645463325252ULL;

	CHECK_EQ_U(lp_rank_pct(1, 50), 0, "n=1 p50");
	CHECK_EQ_U(lp_rank_pct(1, 95), 0, "n=1 p95");
	CHECK_EQ_U(lp_rank_pct(1, 100), 0, "n=1 p100");
	CHECK_EQ_U(lp_rank_pct(20, 95), 19, "n=20 p95 is index 19");
	CHECK_EQ_U(lp_rank_pct(20, 50), 10, "n=20 p50");
	CHECK_EQ_U(lp_rank_pct(20, 99), 19, "n=20 p99");
	CHECK_EQ_U(lp_rank_pct(20, 0), 0, "n=20 p0");
	CHECK_EQ_U(lp_rank_pct(100, 50), 50, "n=100 p50");
	CHECK_EQ_U(lp_rank_pct(100, 95), 95, "n=100 p95");
	CHECK_EQ_U(lp_rank_pct(100, 99), 99, "n=100 p99");
	CHECK_EQ_U(lp_rank_pct(100, 100), 99, "n=100 p100");
	CHECK_EQ_U(lp_rank_pct(0, 95), 0, "n=0");
	CHECK_EQ_U(lp_rank_pct((uint64_t) INT64_MAX, 95), UINT64_C(8762203435012037016),
			   "n=INT64_MAX p95");
	CHECK_EQ_U(lp_rank_pct((uint64_t) INT64_MAX, 100), (uint64_t) INT64_MAX - 1,
			   "n=INT64_MAX p100");
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		for (k = 0; k <= 100; k++)
			if (lp_rank_pct(ns[i], k) != ref_rank_pct(ns[i], k))
				CHECK(0, "lp_rank_pct(%llu, %u)", (unsigned long long) ns[i], k);
	for (i = 0; i < 20000; i++)
	{
		uint64_t	n;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		n = x >> (i % 64);
		k = (unsigned) (x % 101);
		if (lp_rank_pct(n, k) != ref_rank_pct(n, k))
			CHECK(0, "lp_rank_pct(%llu, %u)", (unsigned long long) n, k);
	}
	CHECK(1, "lp_rank_pct matches 128-bit arithmetic");

	CHECK_EQ_U(lp_rank_fraction(1, 0.95), 0, "fraction n=1");
	CHECK_EQ_U(lp_rank_fraction(20, 0.95), 19, "fraction n=20 0.95");
	CHECK_EQ_U(lp_rank_fraction(20, 0.5), 10, "fraction n=20 0.5");
	CHECK_EQ_U(lp_rank_fraction(100, 0.95), 95, "fraction n=100 0.95");
	CHECK_EQ_U(lp_rank_fraction(100, 0.99), 99, "fraction n=100 0.99");
	CHECK_EQ_U(lp_rank_fraction(100, 0), 0, "fraction 0");
	CHECK_EQ_U(lp_rank_fraction(100, 1), 99, "fraction 1");
	CHECK_EQ_U(lp_rank_fraction(3, 0.5), 1, "fraction n=3 0.5");
	CHECK_EQ_U(lp_rank_fraction(0, 0.5), 0, "fraction n=0");
	CHECK_EQ_U(lp_rank_fraction(10, NAN), 0, "fraction NaN");
	CHECK_EQ_U(lp_rank_fraction(10, -0.5), 0, "fraction negative");
	CHECK_EQ_U(lp_rank_fraction(10, 7.0), 9, "fraction above 1");
	CHECK_EQ_U(lp_rank_fraction(10, INFINITY), 9, "fraction infinity");
	CHECK_EQ_U(lp_rank_fraction((uint64_t) INT64_MAX, 1.0), (uint64_t) INT64_MAX - 1,
			   "fraction INT64_MAX 1");
	CHECK_EQ_U(lp_rank_fraction((uint64_t) INT64_MAX, 0.5), UINT64_C(4611686018427387904),
			   "fraction INT64_MAX 0.5");
	CHECK(lp_rank_fraction((uint64_t) INT64_MAX, 0.9999999999999999) < (uint64_t) INT64_MAX,
		  "fraction INT64_MAX just below 1");
	CHECK_EQ_U(lp_rank_fraction(UINT64_MAX, 1.0), UINT64_MAX - 1, "fraction UINT64_MAX 1");
	CHECK(lp_rank_fraction(UINT64_MAX, 0.9999999999999999) < UINT64_MAX,
		  "fraction UINT64_MAX just below 1");
}

/* ---------- state ---------- */

/* Add, lookup, counts and sorted views on a small state. */
static void
test_state_basic(void)
{
	lp_state   *st = lp_state_create(&g_alloc);
	lp_route   *r;
	lp_pair		pairs[8];
	const lp_route *routes[8];

	if (!CHECK(st != NULL, "create"))
		return;
	CHECK_EQ_I(lp_state_add(st, "/b", 2, 7), LP_OK, "add");
	CHECK_EQ_I(lp_state_add(st, "/a", 2, 5), LP_OK, "add");
	CHECK_EQ_I(lp_state_add(st, "/b", 2, 3), LP_OK, "add");
	CHECK_EQ_I(lp_state_add(st, "/b", 2, 7), LP_OK, "add");
	CHECK_EQ_I(lp_state_add(st, "", 0, 0), LP_OK, "add empty route");
	CHECK_EQ_I(lp_state_add(st, "/b/", 3, INT64_MAX), LP_OK, "add max value");
	CHECK_EQ_I(lp_state_add(st, "/\xc3\xa9", 3, 1), LP_OK, "add UTF-8 route");
	CHECK_EQ_I(st->nroutes, 5, "nroutes");

	r = lp_state_lookup(st, "/b", 2);
	if (CHECK(r != NULL, "lookup /b"))
	{
		CHECK_EQ_U(r->hist.total, 3, "/b total");
		CHECK_EQ_U(r->hist.used, 2, "/b distinct");
		lp_hist_sorted(&r->hist, pairs);
		CHECK(pairs[0].value == 3 && pairs[0].count == 1 &&
			  pairs[1].value == 7 && pairs[1].count == 2, "/b sorted pairs");
	}
	CHECK(lp_state_lookup(st, "/c", 2) == NULL, "lookup absent");
	CHECK(lp_state_lookup(st, "/", 1) == NULL, "lookup a prefix");
	CHECK(lp_state_lookup(st, "/b\0", 3) == NULL, "lookup with a NUL");
	CHECK_EQ_U(route_total(st, ""), 1, "empty route total");
	CHECK_EQ_U(route_total(st, "/b/"), 1, "max value route total");

	lp_state_sorted_routes(st, routes);
	CHECK(routes[0]->keylen == 0 && slice_is(routes[1]->key, routes[1]->keylen, "/a") &&
		  slice_is(routes[2]->key, routes[2]->keylen, "/b") &&
		  slice_is(routes[3]->key, routes[3]->keylen, "/b/") &&
		  slice_is(routes[4]->key, routes[4]->keylen, "/\xc3\xa9"),
		  "routes in byte order, prefix first, high bytes last");

	/* lp_state_route finds and creates */
	CHECK_EQ_I(lp_state_route(st, "/a", 2, &r), LP_OK, "route existing");
	CHECK_EQ_U(r->hist.total, 1, "route existing total");
	CHECK_EQ_I(lp_state_route(st, "/new", 4, &r), LP_OK, "route new");
	CHECK_EQ_U(st->nroutes, 6, "route new counted");
	CHECK_EQ_I(lp_hist_add(&st->alloc, &r->hist, 10, 1000), LP_OK, "hist add count");
	CHECK_EQ_U(route_total(st, "/new"), 1000, "hist add total");

	/* malformed counter */
	CHECK_EQ_U(st->malformed, 0, "malformed starts at 0");
	CHECK_EQ_I(lp_state_add_malformed(st, 3), LP_OK, "add malformed");
	CHECK_EQ_I(lp_state_add_malformed(st, 0), LP_OK, "add 0 malformed");
	CHECK_EQ_U(st->malformed, 3, "malformed count");
	CHECK_EQ_I(lp_state_add_malformed(st, (uint64_t) INT64_MAX - 3), LP_OK, "malformed to max");
	CHECK_EQ_I(lp_state_add_malformed(st, 1), LP_EOVERFLOW, "malformed overflow");
	CHECK_EQ_U(st->malformed, (uint64_t) INT64_MAX, "malformed unchanged by overflow");

	/* lp_key_cmp */
	CHECK(lp_key_cmp("a", 1, "b", 1) < 0, "key cmp a<b");
	CHECK(lp_key_cmp("ab", 2, "a", 1) > 0, "key cmp prefix");
	CHECK(lp_key_cmp("", 0, "", 0) == 0, "key cmp empty");
	CHECK(lp_key_cmp("\x80", 1, "z", 1) > 0, "key cmp unsigned");
	CHECK(lp_hash_bytes("/api", 4) == lp_hash_bytes("/api", 4), "hash deterministic");
	CHECK(lp_hash_bytes("/api", 4) != lp_hash_bytes("/apj", 4), "hash differs");
	lp_state_free(st);
}

/* Counts that would pass INT64_MAX are refused and change nothing. */
static void
test_state_overflow(void)
{
	lp_state   *a = lp_state_create(&g_alloc);
	lp_state   *b = lp_state_create(&g_alloc);
	lp_route   *r;

	CHECK_EQ_I(lp_state_route(a, "/o", 2, &r), LP_OK, "overflow route");
	CHECK_EQ_I(lp_hist_add(&a->alloc, &r->hist, 1, (uint64_t) INT64_MAX - 1), LP_OK, "big count");
	CHECK_EQ_I(lp_state_add(a, "/o", 2, 2), LP_OK, "reach INT64_MAX");
	CHECK_EQ_U(route_total(a, "/o"), INT64_MAX, "total at INT64_MAX");
	CHECK_EQ_I(lp_state_add(a, "/o", 2, 2), LP_EOVERFLOW, "existing value overflow");
	CHECK_EQ_I(lp_state_add(a, "/o", 2, 3), LP_EOVERFLOW, "new value overflow");
	CHECK_EQ_U(route_total(a, "/o"), INT64_MAX, "total unchanged");
	CHECK_EQ_U(lp_state_lookup(a, "/o", 2)->hist.used, 2, "no value added");
	CHECK_EQ_I(lp_state_add(a, "/other", 6, 3), LP_OK, "other routes still fine");

	CHECK_EQ_I(lp_state_add(b, "/o", 2, 1), LP_OK, "one more");
	CHECK_EQ_I(lp_state_merge(a, b), LP_EOVERFLOW, "merge overflow");
	CHECK_EQ_I(lp_state_merge(b, a), LP_EOVERFLOW, "merge overflow reversed");
	lp_state_free(a);
	lp_state_free(b);
}

/* Thousands of routes and values: growth past many resizes stays exact. */
static void
test_state_growth(void)
{
	lp_state   *st = lp_state_create(&g_alloc);
	const int	nroutes = 5000;
	const int	nbig = 60000;
	int			i,
				j,
				bad = 0;
	char		key[32];
	lp_route   *r;
	lp_pair    *pairs;
	const lp_route **routes;

	/* route i gets values i, i+1, ..., i+(i%7); value i+j twice when j is even */
	for (i = 0; i < nroutes; i++)
		for (j = 0; j <= i % 7; j++)
		{
			int			n = snprintf(key, sizeof(key), "/g/%d", i);

			if (lp_state_add(st, key, (size_t) n, i + j) != LP_OK ||
				(j % 2 == 0 && lp_state_add(st, key, (size_t) n, i + j) != LP_OK))
				bad++;
		}
	/* one route with many distinct values, in a scattered order */
	for (i = 0; i < nbig; i++)
		if (lp_state_add(st, "/big", 4, (int64_t) ((i * 7919L) % nbig) * 1000003) != LP_OK)
			bad++;
	CHECK_EQ_I(bad, 0, "growth adds");
	CHECK_EQ_U(st->nroutes, nroutes + 1, "growth nroutes");
	CHECK(st->mask + 1 >= 2 * st->nroutes, "route load factor <= 1/2");

	pairs = malloc(sizeof(lp_pair) * nbig);
	for (i = 0; i < nroutes; i++)
	{
		int			n = snprintf(key, sizeof(key), "/g/%d", i);
		uint64_t	want = 0;

		r = lp_state_lookup(st, key, (size_t) n);
		if (!r)
		{
			bad++;
			continue;
		}
		for (j = 0; j <= i % 7; j++)
			want += j % 2 == 0 ? 2 : 1;
		if (r->hist.total != want || r->hist.used != (uint32_t) (i % 7 + 1))
			bad++;
		lp_hist_sorted(&r->hist, pairs);
		for (j = 0; j <= i % 7; j++)
			if (pairs[j].value != i + j || pairs[j].count != (j % 2 == 0 ? 2u : 1u))
				bad++;
	}
	CHECK_EQ_I(bad, 0, "every grown route exact");
	r = lp_state_lookup(st, "/big", 4);
	if (CHECK(r != NULL, "big route"))
	{
		CHECK_EQ_U(r->hist.used, nbig, "big route distinct values");
		CHECK_EQ_U(r->hist.total, nbig, "big route total");
		CHECK((uint64_t) r->hist.hused * 4 <= (uint64_t) (r->hist.mask + 1) * 3,
			  "hist load factor <= 3/4");
		lp_hist_sorted(&r->hist, pairs);
		for (i = 0; i < nbig; i++)
			if (pairs[i].value != (int64_t) i * 1000003 || pairs[i].count != 1)
				bad++;
		CHECK_EQ_I(bad, 0, "big route sorted values");
	}
	free(pairs);

	routes = malloc(sizeof(*routes) * st->nroutes);
	lp_state_sorted_routes(st, routes);
	for (i = 1; i < (int) st->nroutes; i++)
		if (lp_key_cmp(routes[i - 1]->key, routes[i - 1]->keylen,
					   routes[i]->key, routes[i]->keylen) >= 0)
			bad++;
	CHECK_EQ_I(bad, 0, "sorted routes strictly ascending");
	free(routes);
	lp_state_free(st);
}

/* Keys of every size, big ones in their own arena blocks, stay intact. */
static void
test_state_keys(void)
{
	lp_state   *st = lp_state_create(&g_alloc);
	static const size_t sizes[] = {1, 100, 16383, 16384, 16385, 40000, 65536, 65537, 1 << 20, 3, 5};
	char	   *k = malloc((1 << 20) + 1);
	size_t		i;
	int			bad = 0;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
	{
		memset(k, 'a' + (int) i, sizes[i]);
		if (lp_state_add(st, k, sizes[i], (int64_t) i) != LP_OK)
			bad++;
	}
	/* many small keys after the big ones, filling several blocks */
	for (i = 0; i < 20000; i++)
	{
		char		s[32];
		int			n = snprintf(s, sizeof(s), "/small/%zu", i);

		if (lp_state_add(st, s, (size_t) n, 1) != LP_OK)
			bad++;
	}
	CHECK_EQ_I(bad, 0, "keys added");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
	{
		lp_route   *r;

		memset(k, 'a' + (int) i, sizes[i]);
		r = lp_state_lookup(st, k, sizes[i]);
		if (!r || r->keylen != sizes[i] || memcmp(r->key, k, sizes[i]) != 0 ||
			r->hist.total != 1)
			bad++;
	}
	for (i = 0; i < 20000; i++)
	{
		char		s[32];
		int			n = snprintf(s, sizeof(s), "/small/%zu", i);

		if (route_total(st, s) != 1)
			bad++;
		(void) n;
	}
	CHECK_EQ_I(bad, 0, "keys intact, a 1 MB key included");
	free(k);
	lp_state_free(st);
}

/* Merging parts gives the state of adding everything to one state. */
static void
test_state_merge(void)
{
	lp_state   *whole = gen_state(&g_alloc, 0, 30000, 300, 42);
	lp_state   *p1 = gen_state(&g_alloc, 0, 10000, 300, 42);
	lp_state   *p2 = NULL;
	lp_state   *p3 = NULL;
	lp_state   *m = lp_state_create(&g_alloc);
	lp_state   *e = lp_state_create(&g_alloc);
	lp_gen		g;
	char		buf[LP_GEN_MAXLINE];
	int			i;

	/* p2 and p3 continue the same line sequence */
	p2 = lp_state_create(&g_alloc);
	p3 = lp_state_create(&g_alloc);
	lp_gen_init(&g, 300, 42);
	for (i = 0; i < 30000; i++)
	{
		size_t		n = lp_gen_line(&g, i, buf);
		lp_line		l;

		lp_parse_line(buf, n, &l);
		if (i >= 10000)
			lp_state_add(i < 20000 ? p2 : p3, l.route, l.route_len, l.latency);
	}
	lp_state_add_malformed(whole, 5);
	lp_state_add_malformed(p1, 2);
	lp_state_add_malformed(p3, 3);

	CHECK_EQ_I(lp_state_merge(m, p3), LP_OK, "merge p3");
	CHECK_EQ_I(lp_state_merge(m, p1), LP_OK, "merge p1");
	CHECK_EQ_I(lp_state_merge(m, e), LP_OK, "merge empty");
	CHECK(!same_state(m, whole), "two parts differ from the whole");
	CHECK_EQ_I(lp_state_merge(m, p2), LP_OK, "merge p2");
	CHECK(same_state(m, whole), "merge of parts == whole");
	CHECK_EQ_U(m->malformed, 5, "merged malformed count");
	CHECK_EQ_I(lp_state_merge(e, whole), LP_OK, "merge into empty");
	CHECK(same_state(e, whole), "merge into empty == copy");
	CHECK_EQ_U(route_total(whole, "/api/v1/resource0/items"),
			   route_total(p1, "/api/v1/resource0/items") +
			   route_total(p2, "/api/v1/resource0/items") +
			   route_total(p3, "/api/v1/resource0/items"), "route totals add up");
	lp_state_free(whole);
	lp_state_free(p1);
	lp_state_free(p2);
	lp_state_free(p3);
	lp_state_free(m);
	lp_state_free(e);
}

/* ---------- codec ---------- */

/* Varint put/get at the edges; shortest form only. */
static void
test_varint(void)
{
	static const uint64_t vals[] = {0, 1, 127, 128, 255, 16383, 16384, (uint64_t) INT64_MAX,
	(uint64_t) INT64_MAX + 1, UINT64_MAX};
	static const size_t lens[] = {1, 1, 1, 2, 2, 2, 3, 9, 10, 10};
	uint8_t		b[16];
	uint64_t	v;
	size_t		i;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
	{
		size_t		n = lp_varint_put(b, vals[i]);

		CHECK_EQ_U(n, lens[i], "varint length");
		CHECK_EQ_U(lp_varint_get(b, b + n, &v), n, "varint read length");
		CHECK_EQ_U(v, vals[i], "varint value");
		CHECK_EQ_U(lp_varint_get(b, b + n - 1, &v), 0, "varint truncated");
	}
	memcpy(b, "\x80\x00", 2);
	CHECK_EQ_U(lp_varint_get(b, b + 2, &v), 0, "overlong zero");
	memcpy(b, "\xff\x00", 2);
	CHECK_EQ_U(lp_varint_get(b, b + 2, &v), 0, "overlong 127");
	memcpy(b, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 10);
	CHECK_EQ_U(lp_varint_get(b, b + 10, &v), 10, "10-byte max");
	CHECK_EQ_U(v, UINT64_MAX, "10-byte max value");
	memcpy(b, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 10);
	CHECK_EQ_U(lp_varint_get(b, b + 10, &v), 0, "65 bits");
	memcpy(b, "\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", 11);
	CHECK_EQ_U(lp_varint_get(b, b + 11, &v), 0, "11-byte varint");
	memcpy(b, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x81\x01", 11);
	CHECK_EQ_U(lp_varint_get(b, b + 11, &v), 0, "11-byte varint, continuation on 10th");
	CHECK_EQ_U(lp_varint_get(b, b, &v), 0, "empty varint");
}

/* Known bytes: the empty state and a small one. */
static void
test_codec_known(void)
{
	lp_state   *st = lp_state_create(&g_alloc);
	uint8_t    *buf;
	size_t		len;
	static const uint8_t small[] = {1, 3, 1, 2, '/', 'a', 2, 4, 5, 2, 2, 1};

	buf = encode(st, &len);
	CHECK(buf && len == 3 && memcmp(buf, "\x01\x00\x00", 3) == 0, "empty state = 01 00 00");
	g_alloc.free(g_alloc.ctx, buf);

	lp_state_add(st, "/a", 2, 5);
	lp_state_add(st, "/a", 2, 7);
	lp_state_add(st, "/a", 2, 5);
	lp_state_add_malformed(st, 3);
	buf = encode(st, &len);
	CHECK(buf && len == sizeof(small) && memcmp(buf, small, len) == 0, "small state bytes");
	g_alloc.free(g_alloc.ctx, buf);

	/* reserve leaves room in front, max_len counts it */
	buf = NULL;
	len = 0;
	if (CHECK_EQ_I(lp_encode(st, &g_alloc, 4, 4 + sizeof(small), &buf, &len), LP_OK,
				   "encoding exactly at max_len"))
	{
		CHECK(len == sizeof(small) && memcmp(buf + 4, small, len) == 0,
			  "bytes after the reserve, reserve excluded from the length");
		g_alloc.free(g_alloc.ctx, buf);
	}
	buf = NULL;
	CHECK_EQ_I(lp_encode(st, &g_alloc, 4, 3 + sizeof(small), &buf, &len), LP_ETOOBIG,
			   "one byte past max_len");
	CHECK(buf == NULL, "no output on ETOOBIG");
	lp_state_free(st);
	st = lp_state_create(&g_alloc);
	buf = NULL;
	len = 0;
	if (CHECK_EQ_I(lp_encode(st, &g_alloc, 0, 3, &buf, &len), LP_OK, "empty state at max_len 3"))
	{
		CHECK_EQ_U(len, 3, "empty length");
		g_alloc.free(g_alloc.ctx, buf);
	}
	lp_state_free(st);
}

/* Walk an encoding with lp_reader and compare it to the state. */
static int
reader_agrees(const lp_state *st, const uint8_t *buf, size_t len)
{
	lp_reader	r;
	lp_route_view rv;
	const lp_route **routes = malloc(sizeof(*routes) * (st->nroutes + 1));
	lp_pair    *pairs = NULL;
	uint32_t	i = 0;
	int			rc,
				ok = 1;

	lp_state_sorted_routes(st, routes);
	if (lp_reader_init(&r, buf, len) != LP_OK || r.malformed != st->malformed ||
		r.nroutes != st->nroutes)
		ok = 0;
	while (ok && (rc = lp_reader_next(&r, &rv)) == 1)
	{
		const lp_route *sr = routes[i++];
		lp_pair_iter it;
		int64_t		v;
		uint64_t	c,
					j = 0;
		uint64_t	ranks[4];
		int64_t		vals[4],
					want[4];
		int			k;

		if (i > st->nroutes || rv.keylen != sr->keylen ||
			memcmp(rv.key, sr->key, rv.keylen) != 0 ||
			rv.npairs != sr->hist.used || rv.total != sr->hist.total)
		{
			ok = 0;
			break;
		}
		pairs = realloc(pairs, sizeof(lp_pair) * (sr->hist.used + 1));
		lp_hist_sorted(&sr->hist, pairs);
		lp_pairs_begin(&rv, &it);
		while (lp_pairs_next(&it, &v, &c))
		{
			if (j >= sr->hist.used || pairs[j].value != v || pairs[j].count != c)
				ok = 0;
			j++;
		}
		if (j != sr->hist.used)
			ok = 0;
		/* p50, p95, p99, max by the rule, against a walk of the sorted pairs */
		ranks[0] = lp_rank_pct(rv.total, 50);
		ranks[1] = lp_rank_pct(rv.total, 95);
		ranks[2] = lp_rank_pct(rv.total, 99);
		ranks[3] = rv.total - 1;
		lp_view_ranks(&rv, ranks, vals, 4);
		for (k = 0; k < 4; k++)
		{
			uint64_t	seen = 0;

			for (j = 0; j < sr->hist.used; j++)
			{
				seen += pairs[j].count;
				if (ranks[k] < seen)
					break;
			}
			want[k] = pairs[j].value;
			if (vals[k] != want[k])
				ok = 0;
		}
	}
	if (ok && (rc != 0 || i != st->nroutes))
		ok = 0;
	free(pairs);
	free(routes);
	return ok;
}

/* Encode, decode, encode: identical bytes; the reader agrees with the state. */
static void
test_codec_roundtrip(void)
{
	lp_state   *st = gen_state(&g_alloc, 0, 20000, 300, 7);
	lp_state   *back = lp_state_create(&g_alloc);
	lp_route   *r;
	uint8_t    *buf,
			   *buf2;
	size_t		len,
				len2;

	/* extremes too: INT64_MAX values and counts, empty and long keys */
	lp_state_add(st, "", 0, 0);
	lp_state_add(st, "/max", 4, INT64_MAX);
	lp_state_add(st, "/max", 4, 0);
	lp_state_route(st, "/count", 6, &r);
	lp_hist_add(&st->alloc, &r->hist, 12345678901234LL, (uint64_t) INT64_MAX);
	lp_state_add_malformed(st, 77);

	buf = encode(st, &len);
	if (!buf)
		return;
	CHECK_EQ_I(lp_validate(buf, len), LP_OK, "encoding validates");
	CHECK(reader_agrees(st, buf, len), "reader walk agrees with the state");
	CHECK_EQ_I(lp_decode_into(back, buf, len), LP_OK, "decode");
	buf2 = encode(back, &len2);
	CHECK(buf2 && len2 == len && memcmp(buf, buf2, len) == 0, "re-encoding is byte-identical");
	CHECK_EQ_U(back->malformed, 77, "decoded malformed");
	CHECK_EQ_U(route_total(back, "/count"), INT64_MAX, "decoded INT64_MAX count");
	CHECK(same_state(st, back), "decoded state equals the original");

	/* decoding into a non-empty state adds (a merge) */
	CHECK_EQ_I(lp_decode_into(back, buf, len), LP_EOVERFLOW, "decode twice overflows /count");
	lp_state_free(back);
	back = gen_state(&g_alloc, 0, 20000, 300, 7);
	CHECK_EQ_I(lp_decode_into(back, buf, len), LP_OK, "decode into a state");
	CHECK_EQ_U(route_total(back, "/api/v1/resource0/items"),
			   2 * route_total(st, "/api/v1/resource0/items"), "decode adds counts");
	g_alloc.free(g_alloc.ctx, buf);
	g_alloc.free(g_alloc.ctx, buf2);
	lp_state_free(st);
	lp_state_free(back);
}

/* Expect lp_validate to refuse bytes, and lp_decode_into to leave a state alone. */
static void
expect_corrupt(const bytes *b, const char *what)
{
	lp_state   *st = lp_state_create(&g_alloc);
	lp_reader	r;
	lp_route_view rv;
	int			rc = 0;

	lp_state_add(st, "/keep", 5, 1);
	CHECK_EQ_I(lp_validate(b->b, b->n), LP_ECORRUPT, what);
	CHECK_EQ_I(lp_decode_into(st, b->b, b->n), LP_ECORRUPT, what);
	CHECK(st->nroutes == 1 && st->malformed == 0 && route_total(st, "/keep") == 1,
		  "state unchanged after %s", what);
	/* a reader walk fails too */
	if (lp_reader_init(&r, b->b, b->n) == LP_OK)
		while ((rc = lp_reader_next(&r, &rv)) == 1)
			;
	else
		rc = LP_ECORRUPT;
	CHECK_EQ_I(rc, LP_ECORRUPT, what);
	lp_state_free(st);
}

/* Expect lp_validate to accept bytes. */
static void
expect_valid(const bytes *b, const char *what)
{
	lp_state   *st = lp_state_create(&g_alloc);
	uint8_t    *buf;
	size_t		len;

	CHECK_EQ_I(lp_validate(b->b, b->n), LP_OK, what);
	CHECK_EQ_I(lp_decode_into(st, b->b, b->n), LP_OK, what);
	buf = encode(st, &len);
	CHECK(buf && len == b->n && memcmp(buf, b->b, len) == 0, "canonical: %s", what);
	g_alloc.free(g_alloc.ctx, buf);
	lp_state_free(st);
}

/* Every kind of corrupt encoding is refused before anything is used. */
static void
test_codec_corrupt(void)
{
	lp_state   *st = gen_state(&g_alloc, 0, 300, 20, 3);
	uint8_t    *buf;
	size_t		len,
				i;
	bytes		b;
	int			bad = 0;

	/* truncation at every byte offset, and any trailing byte */
	buf = encode(st, &len);
	for (i = 0; i < len; i++)
		if (lp_validate(buf, i) != LP_ECORRUPT)
			bad++;
	CHECK_EQ_I(bad, 0, "every truncation refused");
	memcpy(b.b, buf, len);
	b.n = len;
	expect_valid(&b, "generated state");
	b_byte(&b, 0);
	expect_corrupt(&b, "trailing byte");
	b.n = len;
	b_byte(&b, 1);
	expect_corrupt(&b, "trailing byte 1");
	g_alloc.free(g_alloc.ctx, buf);
	lp_state_free(st);

	/* header */
	b.n = 0;
	expect_corrupt(&b, "no bytes");
	b_head(&b, 0, 0);
	expect_valid(&b, "empty");
	b.b[0] = 0;
	expect_corrupt(&b, "version 0");
	b.b[0] = 2;
	expect_corrupt(&b, "version 2");
	b.b[0] = 0xff;
	expect_corrupt(&b, "version 255");
	b.n = 0;
	b_byte(&b, 1);
	b_raw(&b, "\x80\x00", 2);
	b_byte(&b, 0);
	expect_corrupt(&b, "overlong malformed count");
	b.n = 0;
	b_byte(&b, 1);
	b_byte(&b, 0);
	b_raw(&b, "\x80\x00", 2);
	expect_corrupt(&b, "overlong route count");
	b.n = 0;
	b_byte(&b, 1);
	b_raw(&b, "\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", 11);
	b_byte(&b, 0);
	expect_corrupt(&b, "11-byte varint");
	b_head(&b, (uint64_t) INT64_MAX + 1, 0);
	expect_corrupt(&b, "malformed count past INT64_MAX");
	b_head(&b, (uint64_t) INT64_MAX, 0);
	expect_valid(&b, "malformed count INT64_MAX");

	/* huge route counts with few bytes behind them */
	b_head(&b, 0, UINT64_C(1) << 62);
	b_route(&b, "/a", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	expect_corrupt(&b, "huge nroutes");
	b_head(&b, 0, UINT64_MAX);
	expect_corrupt(&b, "nroutes UINT64_MAX");
	b_head(&b, 0, 2);
	b_route(&b, "/a", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	expect_corrupt(&b, "one route missing");

	/* a good route, to compare the broken ones with */
	b_head(&b, 0, 1);
	b_route(&b, "/a", 2, 4);
	b_var(&b, 5);
	b_var(&b, 1);
	b_var(&b, 3);
	b_var(&b, 2);
	expect_valid(&b, "two pairs");

	b_head(&b, 0, 1);
	b_route(&b, "/a", 2, 4);
	b_var(&b, 5);
	b_var(&b, 0);
	b_var(&b, 3);
	b_var(&b, 2);
	expect_corrupt(&b, "zero count");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 2, 4);
	b_var(&b, 5);
	b_var(&b, 1);
	b_var(&b, 0);
	b_var(&b, 2);
	expect_corrupt(&b, "zero delta");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 1, 2);
	b_var(&b, 0);
	b_var(&b, 1);
	expect_valid(&b, "first value 0");

	b_head(&b, 0, 1);
	b_route(&b, "/a", 0, 0);
	expect_corrupt(&b, "zero pairs");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 2, 2);
	b_var(&b, 5);
	b_var(&b, 1);
	expect_corrupt(&b, "npairs 2, pairs_len of one pair");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 1, 4);
	b_var(&b, 5);
	b_var(&b, 1);
	b_var(&b, 3);
	b_var(&b, 2);
	expect_corrupt(&b, "npairs 1, pairs_len of two pairs");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 1, 3);
	b_var(&b, 5);
	b_var(&b, 1);
	expect_corrupt(&b, "pairs_len past the end");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 1, 3);
	b_var(&b, 5);
	b_var(&b, 1);
	b_byte(&b, 0);
	expect_corrupt(&b, "pairs_len covers a stray byte");
	b_head(&b, 0, 1);
	b_route(&b, "/a", UINT64_C(1) << 62, 2);
	b_var(&b, 5);
	b_var(&b, 1);
	expect_corrupt(&b, "huge npairs");
	b_head(&b, 0, 1);
	b_route(&b, "/a", UINT64_MAX, UINT64_MAX);
	b_var(&b, 5);
	b_var(&b, 1);
	expect_corrupt(&b, "npairs and pairs_len UINT64_MAX");
	b_head(&b, 0, 1);
	b_var(&b, UINT64_C(1) << 63);
	b_raw(&b, "/a", 2);
	b_var(&b, 1);
	b_var(&b, 2);
	b_var(&b, 5);
	b_var(&b, 1);
	expect_corrupt(&b, "huge key length");

	/* values and totals at INT64_MAX */
	b_head(&b, 0, 1);
	b_route(&b, "/a", 1, 10);
	b_var(&b, (uint64_t) INT64_MAX);
	b_var(&b, 1);
	expect_valid(&b, "value INT64_MAX");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 1, 11);
	b_var(&b, (uint64_t) INT64_MAX + 1);
	b_var(&b, 1);
	expect_corrupt(&b, "value past INT64_MAX");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 2, 12);
	b_var(&b, (uint64_t) INT64_MAX);
	b_var(&b, 1);
	b_var(&b, 1);
	b_var(&b, 1);
	expect_corrupt(&b, "delta past INT64_MAX");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 2, 12);
	b_var(&b, 1);
	b_var(&b, 1);
	b_var(&b, (uint64_t) INT64_MAX);
	b_var(&b, 1);
	expect_corrupt(&b, "1 + delta INT64_MAX");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 2, 12);
	b_var(&b, 1);
	b_var(&b, 1);
	b_var(&b, (uint64_t) INT64_MAX - 1);
	b_var(&b, 1);
	expect_valid(&b, "1 + delta INT64_MAX-1");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 1, 10);
	b_var(&b, 5);
	b_var(&b, (uint64_t) INT64_MAX);
	expect_valid(&b, "count INT64_MAX");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 1, 11);
	b_var(&b, 5);
	b_var(&b, (uint64_t) INT64_MAX + 1);
	expect_corrupt(&b, "count past INT64_MAX");
	b_head(&b, 0, 1);
	b_route(&b, "/a", 2, 11);
	b_var(&b, 5);
	b_var(&b, (uint64_t) INT64_MAX);
	b_var(&b, 1);
	b_var(&b, 1);
	expect_corrupt(&b, "route total past INT64_MAX");
	b_head(&b, 0, 2);
	b_route(&b, "/a", 1, 10);
	b_var(&b, 5);
	b_var(&b, (uint64_t) INT64_MAX);
	b_route(&b, "/b", 1, 10);
	b_var(&b, 5);
	b_var(&b, (uint64_t) INT64_MAX);
	expect_valid(&b, "two routes at INT64_MAX each");

	/* route keys: order, duplicates, NUL */
	b_head(&b, 0, 2);
	b_route(&b, "/b", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	b_route(&b, "/a", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	expect_corrupt(&b, "routes out of order");
	b_head(&b, 0, 2);
	b_route(&b, "/a", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	b_route(&b, "/a", 1, 2);
	b_var(&b, 2);
	b_var(&b, 1);
	expect_corrupt(&b, "duplicate route");
	b_head(&b, 0, 2);
	b_route(&b, "/a", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	b_route(&b, "/", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	expect_corrupt(&b, "longer key before its prefix");
	b_head(&b, 0, 3);
	b_route(&b, "", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	b_route(&b, "/", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	b_route(&b, "/\xc3\xa9", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	expect_valid(&b, "empty key, prefix, high bytes in order");
	b_head(&b, 0, 2);
	b_route(&b, "", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	b_route(&b, "", 1, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	expect_corrupt(&b, "two empty keys");
	b_head(&b, 0, 1);
	b_var(&b, 3);
	b_raw(&b, "/\0a", 3);
	b_var(&b, 1);
	b_var(&b, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	expect_corrupt(&b, "NUL in a route");
}

/* Hex text form. */
static void
test_hex(void)
{
	lp_state   *st = gen_state(&g_alloc, 0, 500, 30, 11);
	uint8_t    *buf,
			   *back;
	size_t		len,
				blen = 0;
	char	   *hex;
	uint8_t		out[16];
	size_t		olen = 99;

	buf = encode(st, &len);
	hex = malloc(lp_hex_len(len) + 1);
	back = malloc(len + 1);
	lp_hex_encode(buf, len, hex);
	hex[lp_hex_len(len)] = '\0';
	CHECK_EQ_U(lp_hex_len(len), 2 + 2 * len, "hex length");
	CHECK(hex[0] == '\\' && hex[1] == 'x' && strspn(hex + 2, "0123456789abcdef") == 2 * len,
		  "hex is \\x and lower-case digits");
	CHECK_EQ_I(lp_hex_decode(hex, lp_hex_len(len), back, &blen), LP_OK, "hex decode");
	CHECK(blen == len && memcmp(back, buf, len) == 0, "hex round trip");
	free(hex);
	free(back);
	g_alloc.free(g_alloc.ctx, buf);
	lp_state_free(st);

	CHECK_EQ_I(lp_hex_decode("\\x010000", 8, out, &olen), LP_OK, "empty state hex");
	CHECK(olen == 3 && memcmp(out, "\x01\x00\x00", 3) == 0, "empty state hex bytes");
	CHECK_EQ_I(lp_hex_decode("\\xABcdEf", 8, out, &olen), LP_OK, "either case");
	CHECK(olen == 3 && memcmp(out, "\xab\xcd\xef", 3) == 0, "either case bytes");
	CHECK_EQ_I(lp_hex_decode("\\x", 2, out, &olen), LP_OK, "no digits");
	CHECK_EQ_U(olen, 0, "no digits length");
	olen = 99;
	CHECK_EQ_I(lp_hex_decode("\\x0", 3, out, &olen), LP_ECORRUPT, "odd length");
	CHECK_EQ_I(lp_hex_decode("\\x01000", 7, out, &olen), LP_ECORRUPT, "odd length 5");
	CHECK_EQ_I(lp_hex_decode("\\x0g", 4, out, &olen), LP_ECORRUPT, "bad digit g");
	CHECK_EQ_I(lp_hex_decode("\\xg0", 4, out, &olen), LP_ECORRUPT, "bad high digit");
	CHECK_EQ_I(lp_hex_decode("\\x0 ", 4, out, &olen), LP_ECORRUPT, "space digit");
	CHECK_EQ_I(lp_hex_decode("\\x:0", 4, out, &olen), LP_ECORRUPT, "':' after '9'");
	CHECK_EQ_I(lp_hex_decode("\\x@0", 4, out, &olen), LP_ECORRUPT, "'@' before 'A'");
	CHECK_EQ_I(lp_hex_decode("\\x0\0", 4, out, &olen), LP_ECORRUPT, "NUL digit");
	CHECK_EQ_I(lp_hex_decode("010000", 6, out, &olen), LP_ECORRUPT, "missing \\x");
	CHECK_EQ_I(lp_hex_decode("\\X0100", 6, out, &olen), LP_ECORRUPT, "\\X upper case");
	CHECK_EQ_I(lp_hex_decode("x\\0100", 6, out, &olen), LP_ECORRUPT, "x\\ swapped");
	CHECK_EQ_I(lp_hex_decode("\\", 1, out, &olen), LP_ECORRUPT, "backslash alone");
	CHECK_EQ_I(lp_hex_decode("", 0, out, &olen), LP_ECORRUPT, "empty text");
	CHECK_EQ_I(lp_hex_decode(" \\x01", 5, out, &olen), LP_ECORRUPT, "leading space");
	CHECK_EQ_U(olen, 99, "outlen untouched on error");
}

/* ---------- generator ---------- */

/* Deterministic lines in the documented format, timestamps ascending. */
static void
test_gen(void)
{
	lp_gen		g1,
				g2,
				g3;
	char		a[LP_GEN_MAXLINE],
				b[LP_GEN_MAXLINE],
				c[LP_GEN_MAXLINE],
				prev_ts[32] = "";
	int64_t		i;
	int			same_seed_differs = 0,
				other_seed_same = 0,
				bad_parse = 0,
				bad_ts = 0,
				bad_len = 0;
	lp_state   *st = lp_state_create(&g_alloc);

	lp_gen_init(&g1, 300, 42);
	lp_gen_init(&g2, 300, 42);
	lp_gen_init(&g3, 300, 43);
	for (i = 0; i < 20000; i++)
	{
		size_t		n1 = lp_gen_line(&g1, i, a);
		size_t		n2 = lp_gen_line(&g2, i, b);
		lp_line		l;
		char		ts[32];

		lp_gen_line(&g3, i, c);
		if (n1 != n2 || strcmp(a, b) != 0)
			same_seed_differs++;
		if (strcmp(a, c) == 0)
			other_seed_same++;
		if (n1 == 0 || n1 >= LP_GEN_MAXLINE || strlen(a) != n1)
			bad_len++;
		if (lp_parse_line(a, n1, &l) != LP_PARSE_OK || l.route[0] != '/' || l.latency < 3)
			bad_parse++;
		else
			lp_state_add(st, l.route, l.route_len, l.latency);
		memcpy(ts, a, 19);
		ts[19] = '\0';
		if (a[19] != ' ' || strcmp(ts, prev_ts) < 0)
			bad_ts++;
		strcpy(prev_ts, ts);
		if (i == 0)
			CHECK(strncmp(a, "2026-11-07T00:00:00 ", 20) == 0, "first timestamp: %s", a);
		if (i == 9)
			CHECK(strncmp(a, "2026-11-07T00:00:00 ", 20) == 0, "ten lines a second: %s", a);
		if (i == 10)
			CHECK(strncmp(a, "2026-11-07T00:00:01 ", 20) == 0, "one second later: %s", a);
		if (i == 19999)
			CHECK(strncmp(a, "2026-11-07T00:33:19 ", 20) == 0, "line 19999: %s", a);
	}
	CHECK_EQ_I(same_seed_differs, 0, "same seed, same lines");
	CHECK(other_seed_same < 100, "another seed, other lines (%d equal)", other_seed_same);
	CHECK_EQ_I(bad_len, 0, "line lengths");
	CHECK_EQ_I(bad_parse, 0, "every line parses");
	CHECK_EQ_I(bad_ts, 0, "timestamps ascending");
	CHECK(st->nroutes > 250 && st->nroutes <= 300, "about 300 routes (%u)", st->nroutes);
	lp_state_free(st);

	/* days, months and years roll over */
	lp_gen_init(&g1, 5, 1);
	lp_gen_line(&g1, 864000, a);
	CHECK(strncmp(a, "2026-11-08T00:00:00 ", 20) == 0, "next day: %s", a);
	lp_gen_line(&g1, 864000LL * 55 - 1, a);
	CHECK(strncmp(a, "2026-12-31T23:59:59 ", 20) == 0, "last second of 2026: %s", a);
	lp_gen_line(&g1, 864000LL * 55, a);
	CHECK(strncmp(a, "2027-01-01T00:00:00 ", 20) == 0, "new year: %s", a);

	/* one route; routes < 1 means one */
	lp_gen_init(&g1, 1, 9);
	lp_gen_init(&g2, 0, 9);
	for (i = 0; i < 100; i++)
	{
		lp_line		l;
		size_t		n = lp_gen_line(&g1, i, a);

		lp_parse_line(a, n, &l);
		if (!slice_is(l.route, l.route_len, "/api/v1/resource0/items"))
			bad_parse++;
		n = lp_gen_line(&g2, i, b);
		if (strcmp(a, b) != 0)
			bad_parse++;
	}
	CHECK_EQ_I(bad_parse, 0, "one route");
	/* a negative seed works like any other */
	lp_gen_init(&g1, 10, -1);
	lp_gen_init(&g2, 10, -1);
	CHECK(lp_gen_line(&g1, 0, a) == lp_gen_line(&g2, 0, b) && strcmp(a, b) == 0,
		  "negative seed deterministic");
}

/* ---------- out of memory ---------- */

/* Operations run against a heap that fails at allocation `fail_at`. */
typedef enum oom_op
{
	OOM_CREATE_ADD,				/* create a state and add many lines */
	OOM_MERGE,					/* merge a prepared state into another */
	OOM_DECODE,					/* decode an encoding into a state */
	OOM_ENCODE					/* encode a prepared state */
} oom_op;

/* Run one operation; the number of failures seen, or -1 on a wrong result. */
static int
oom_run(oom_op op, test_heap *h, lp_allocator *a, const uint8_t *enc, size_t enclen,
		const char **why)
{
	lp_state   *st = NULL;
	lp_state   *src = NULL;
	int			rc = LP_OK;
	long		saved = h->fail_at;

	*why = "";
	/* preparation never fails */
	h->fail_at = -1;
	if (op == OOM_MERGE || op == OOM_ENCODE)
	{
		src = gen_state(a, 0, 600, 100, 5);
		lp_state_add(src, "/long", 5, 1);	/* plus a key bigger than a block share */
		if (!src)
			return -1;
		lp_state_add_malformed(src, 4);
	}
	if (op != OOM_CREATE_ADD)
	{
		st = lp_state_create(a);
		lp_state_add(st, "/api/v1/resource1", 17, 1);
	}
	h->nalloc = 0;
	h->fail_at = saved;

	switch (op)
	{
		case OOM_CREATE_ADD:
			{
				lp_gen		g;
				char		buf[LP_GEN_MAXLINE];
				int64_t		i;

				st = lp_state_create(a);
				if (!st)
				{
					rc = LP_ENOMEM;
					break;
				}
				lp_gen_init(&g, 100, 5);
				for (i = 0; i < 600 && rc == LP_OK; i++)
				{
					lp_line		l;
					size_t		n = lp_gen_line(&g, i, buf);

					lp_parse_line(buf, n, &l);
					rc = lp_state_add(st, l.route, l.route_len, l.latency);
				}
				break;
			}
		case OOM_MERGE:
			rc = lp_state_merge(st, src);
			break;
		case OOM_DECODE:
			rc = lp_decode_into(st, enc, enclen);
			break;
		case OOM_ENCODE:
			{
				uint8_t    *out = (uint8_t *) "untouched";
				size_t		outlen = 12345;

				rc = lp_encode(src, a, 4, SIZE_MAX / 4, &out, &outlen);
				if (rc == LP_OK)
				{
					if (lp_validate(out + 4, outlen) != LP_OK)
						*why = "encoding does not validate";
					a->free(a->ctx, out);
				}
				else if (strcmp((char *) out, "untouched") != 0 || outlen != 12345)
					*why = "output changed on failure";
				break;
			}
	}
	if (rc != LP_OK && rc != LP_ENOMEM)
		*why = "not LP_ENOMEM";
	if (rc == LP_ENOMEM && h->nfailed == 0)
		*why = "LP_ENOMEM without a failed allocation";
	if (rc == LP_OK && h->nfailed > 0)
		*why = "LP_OK after a failed allocation";
	/* what is left, after a success or a failure, must still be a usable state */
	h->fail_at = -1;
	if (st)
	{
		uint8_t    *out;
		size_t		outlen;

		if (lp_encode(st, a, 0, SIZE_MAX / 4, &out, &outlen) != LP_OK)
			*why = "state does not encode";
		else
		{
			if (lp_validate(out, outlen) != LP_OK && !**why)
				*why = rc == LP_OK ? "state does not encode after success" :
					"state left inconsistent by the failure (an encoding that does not validate)";
			a->free(a->ctx, out);
		}
	}
	lp_state_free(st);
	lp_state_free(src);
	if (h->live != 0 && !**why)
		*why = "leak";
	return **why ? -1 : (int) h->nfailed;
}

/* Fail every allocation index in turn: each function reports LP_ENOMEM cleanly. */
static void
test_oom(void)
{
	static const char *const names[] = {"create+add", "merge", "decode", "encode"};
	lp_state   *src = gen_state(&g_alloc, 0, 600, 100, 5);
	uint8_t    *enc;
	size_t		enclen;
	int			op;

	lp_state_add(src, "/long", 5, 1);
	lp_state_add_malformed(src, 4);
	enc = encode(src, &enclen);
	lp_state_free(src);
	for (op = OOM_CREATE_ADD; op <= OOM_ENCODE; op++)
	{
		int			sticky;

		for (sticky = 0; sticky <= 1; sticky++)
		{
			long		n,
						bad = 0,
						runs = 0;
			const char *why = "";

			for (n = 0;; n++)
			{
				test_heap	h;
				lp_allocator a;
				int			nf;

				heap_init(&h, &a);
				h.fail_at = n;
				h.sticky = sticky;
				nf = oom_run((oom_op) op, &h, &a, enc, enclen, &why);
				runs++;
				if (nf < 0)
				{
					if (bad++ == 0)
						CHECK(0, "%s: failing allocation %ld%s: %s", names[op], n,
							  sticky ? " and after" : "", why);
				}
				if (nf == 0)
					break;		/* the operation needed fewer than n allocations */
				if (n > 100000)
				{
					CHECK(0, "%s: no end to the allocations", names[op]);
					break;
				}
			}
			CHECK(bad == 0 && runs > 1, "%s: %ld allocation failure points%s handled",
				  names[op], runs - 1, sticky ? " (sticky)" : "");
		}
	}
	g_alloc.free(g_alloc.ctx, enc);
}

/* ---------- main ---------- */

/*
 * The dense array for small values: values arrive in a scrambled order,
 * small and large mixed, so the array is created, doubled and fed from the
 * slot table on the way; the sorted pairs, the merge and the encoding must
 * all equal a plain reference count.  Also: a route with few values never
 * gets an array (memory follows distinct values), and running out of
 * memory while the array grows leaves the histogram as it was.
 */
static void
test_state_dense(void)
{
	enum
	{
		NV = 9000
	};
	static uint64_t want[NV];
	test_heap	heap;
	lp_allocator a;
	lp_state   *st,
			   *half1,
			   *half2;
	lp_route   *r;
	lp_pair    *pairs = malloc(sizeof(lp_pair) * NV);
	uint64_t	total = 0;
	uint32_t	i,
				n = 0,
				bad = 0;
	uint8_t    *e1,
			   *e2;
	size_t		l1,
				l2;

	heap_init(&heap, &a);
	st = lp_state_create(&a);
	half1 = lp_state_create(&a);
	half2 = lp_state_create(&a);
	memset(want, 0, sizeof(want));
	for (i = 0; i < 60000; i++)
	{
		/* a scrambled walk over 0..NV-1 with uneven repeats */
		uint32_t	v = (uint32_t) (((uint64_t) i * 7919u + (i >> 3)) % NV);

		if (i % 5 == 0)
			v = v % 300;		/* a hot body of small values */
		want[v]++;
		total++;
		bad += lp_state_add(st, "/d", 2, v) != LP_OK;
		bad += lp_state_add(i % 2 ? half1 : half2, "/d", 2, v) != LP_OK;
	}
	CHECK_EQ_U(bad, 0, "every add succeeds");
	r = lp_state_lookup(st, "/d", 2);
	if (CHECK(r != NULL, "dense route"))
	{
		CHECK_EQ_U(r->hist.dense_cap, LP_DENSE_MAX, "dense array grew to its maximum");
		CHECK_EQ_U(r->hist.total, total, "dense total");
		for (i = 0; i < NV; i++)
			n += want[i] != 0;
		CHECK_EQ_U(r->hist.used, n, "dense distinct values");
		CHECK((uint64_t) r->hist.hused * 4 <= (uint64_t) (r->hist.mask + 1) * 3,
			  "slot load factor <= 3/4");
		lp_hist_sorted(&r->hist, pairs);
		for (i = 0, n = 0; i < NV; i++)
		{
			if (!want[i])
				continue;
			if (pairs[n].value != (int64_t) i || pairs[n].count != want[i])
				bad++;
			n++;
		}
		CHECK_EQ_U(bad, 0, "dense + slots sorted pairs equal the reference");
	}
	/* merged halves encode to the same bytes as the whole */
	CHECK_EQ_I(lp_state_merge(half1, half2), LP_OK, "merge halves");
	CHECK_EQ_I(lp_encode(st, &a, 0, SIZE_MAX, &e1, &l1), LP_OK, "encode whole");
	CHECK_EQ_I(lp_encode(half1, &a, 0, SIZE_MAX, &e2, &l2), LP_OK, "encode merged");
	CHECK(l1 == l2 && memcmp(e1, e2, l1) == 0, "merged halves == whole, byte for byte");
	a.free(a.ctx, e1);
	a.free(a.ctx, e2);
	lp_state_free(half1);
	lp_state_free(half2);

	/* outside the contract, refused cleanly: a zero count, a negative value */
	{
		lp_route   *rz = lp_state_lookup(st, "/d", 2);
		lp_hist		before = rz->hist;

		CHECK_EQ_I(lp_hist_add(&st->alloc, &rz->hist, 5, 0), LP_OK, "zero count is a no-op");
		CHECK_EQ_I(lp_hist_add(&st->alloc, &rz->hist, 99999, 0), LP_OK, "zero count, new value: no-op");
		CHECK_EQ_I(lp_state_add(st, "/d", 2, -1), LP_EINTERNAL, "negative value refused");
		CHECK(rz->hist.used == before.used && rz->hist.total == before.total &&
			  rz->hist.hused == before.hused, "refused adds change nothing");
	}

	/* a sparse route keeps to the slot table */
	for (i = 0; i < 6; i++)
		lp_state_add(st, "/sparse", 7, i * 500);
	r = lp_state_lookup(st, "/sparse", 7);
	CHECK(r && r->hist.dense == NULL && r->hist.used == 6, "few values: no dense array");

	/* out of memory while the array would be made: nothing changes */
	{
		lp_state   *s2;
		lp_route   *r2;
		long		k;
		int			rc = LP_OK;

		for (k = 0; k < 64 && rc == LP_OK; k++)
			rc = lp_state_add(st, "/grow", 5, k * 3);
		s2 = st;
		r2 = lp_state_lookup(s2, "/grow", 5);
		if (CHECK(r2 != NULL, "grow route"))
		{
			lp_hist		before = r2->hist;

			heap.fail_at = heap.nalloc;
			heap.sticky = 1;
			/* a value that makes the array grow or be made */
			rc = lp_state_add(s2, "/grow", 5, 1000);
			heap.fail_at = -1;
			heap.sticky = 0;
			if (rc == LP_ENOMEM)
				CHECK(r2->hist.used == before.used && r2->hist.total == before.total &&
					  r2->hist.dense == before.dense && r2->hist.slots == before.slots,
					  "failed growth leaves the histogram unchanged");
			else
				CHECK_EQ_I(rc, LP_OK, "add without allocation");
		}
	}
	lp_state_free(st);
	CHECK_EQ_I(heap.live, 0, "dense test frees everything");
	free(pairs);
}

/*
 * Decoding and merging size each route's histogram once for all its values
 * (lp_hist_reserve): the same contents as value-by-value adds, the density
 * rule kept, and only a few allocations per route however many values.
 */
static void
test_state_batch(void)
{
	test_heap	heap;
	lp_allocator a;
	lp_state   *src,
			   *dec,
			   *mrg,
			   *acc;
	lp_route   *r;
	lp_hist_batch b;
	uint8_t    *e0,
			   *e1;
	size_t		l0,
				l1;
	long		before;
	uint32_t	i;

	heap_init(&heap, &a);
	src = lp_state_create(&a);
	/* /body: 1500 distinct values in 0..2999, /tail: sparse big values, /mix: both */
	for (i = 0; i < 1500; i++)
	{
		lp_state_add(src, "/body", 5, (int64_t) i * 2);
		lp_state_add(src, "/body", 5, (int64_t) i * 2);
		lp_state_add(src, "/tail", 5, (int64_t) i * 1000 + 7);
		lp_state_add(src, "/mix", 4, i % 3 ? (int64_t) (i % 200) : (int64_t) i * 37);
	}
	e0 = encode(src, &l0);

	/* decode into an empty state: at most 4 allocations per route, equal bytes */
	dec = lp_state_create(&a);
	before = heap.nalloc;
	CHECK_EQ_I(lp_decode_into(dec, e0, l0), LP_OK, "batch: decode");
	CHECK(heap.nalloc - before <= 3 * 4 + 1, "batch: decode allocates at most 4 blocks per route (%ld for 3 routes)",
		  heap.nalloc - before);
	e1 = encode(dec, &l1);
	CHECK(l0 == l1 && memcmp(e0, e1, l0) == 0, "batch: decoded state encodes to the same bytes");
	g_alloc.free(g_alloc.ctx, e1);
	r = lp_state_lookup(dec, "/body", 5);
	if (CHECK(r != NULL, "batch: /body decoded"))
	{
		CHECK_EQ_U(r->hist.dense_cap, 4096, "batch: /body dense array sized at once");
		CHECK_EQ_U(r->hist.hused, 0, "batch: /body has nothing in slots");
	}
	r = lp_state_lookup(dec, "/tail", 5);
	if (CHECK(r != NULL, "batch: /tail decoded"))
	{
		CHECK((uint64_t) r->hist.dense_cap <= (uint64_t) LP_DENSE_RATIO * r->hist.used,
			  "batch: /tail keeps the density rule");
		CHECK((uint64_t) r->hist.hused * 4 <= (uint64_t) (r->hist.mask + 1) * 3,
			  "batch: /tail slot load factor <= 3/4");
	}

	/* merge a live state into an empty one: few allocations, equal bytes */
	mrg = lp_state_create(&a);
	before = heap.nalloc;
	CHECK_EQ_I(lp_state_merge(mrg, src), LP_OK, "batch: merge into empty");
	CHECK(heap.nalloc - before <= 3 * 4 + 1, "batch: merge allocates at most 4 blocks per route (%ld for 3 routes)",
		  heap.nalloc - before);
	e1 = encode(mrg, &l1);
	CHECK(l0 == l1 && memcmp(e0, e1, l0) == 0, "batch: merged state encodes to the same bytes");
	g_alloc.free(g_alloc.ctx, e1);

	/* merging into a state that has other values of the same routes: exact union */
	acc = lp_state_create(&a);
	for (i = 0; i < 50; i++)
		lp_state_add(acc, "/mix", 4, (int64_t) i * 5000);
	CHECK_EQ_I(lp_state_merge(acc, src), LP_OK, "batch: merge into non-empty");
	CHECK_EQ_I(lp_state_merge(acc, src), LP_OK, "batch: merge the same state again");
	r = lp_state_lookup(acc, "/mix", 4);
	if (CHECK(r != NULL, "batch: /mix merged"))
	{
		lp_route   *rs = lp_state_lookup(src, "/mix", 4);

		CHECK_EQ_U(r->hist.total, 2 * rs->hist.total + 50, "batch: /mix total is the sum");
		CHECK_EQ_U(r->hist.used, rs->hist.used + 49, "batch: /mix distinct values (value 0 shared)");
		CHECK((uint64_t) r->hist.dense_cap <= (uint64_t) LP_DENSE_RATIO * r->hist.used,
			  "batch: /mix keeps the density rule");
	}

	/* the batch counts values by the dense sizes they need */
	memset(&b, 0, sizeof(b));
	lp_hist_batch_note(&b, 0);
	lp_hist_batch_note(&b, 63);
	lp_hist_batch_note(&b, 64);
	lp_hist_batch_note(&b, 4095);
	lp_hist_batch_note(&b, 4096);
	lp_hist_batch_note(&b, INT64_MAX);
	CHECK(b.n == 6 && b.small[0] == 2 && b.small[1] == 1 && b.small[6] == 1 &&
		  b.small[2] + b.small[3] + b.small[4] + b.small[5] == 0,
		  "batch: values counted by dense size");

	g_alloc.free(g_alloc.ctx, e0);
	lp_state_free(src);
	lp_state_free(dec);
	lp_state_free(mrg);
	lp_state_free(acc);
	CHECK_EQ_I(heap.live, 0, "batch test frees everything");
}

/*
 * lp_state_add_pipelined counts a row at the next call: once flushed, the
 * same state as lp_state_add, through new routes, route-table growth,
 * values outside the dense array, merges while a row is pending and a
 * dense count at its 32-bit limit.
 */
static void
test_state_pipelined(void)
{
	test_heap	heap;
	lp_allocator a;
	lp_state   *now,
			   *pip,
			   *other;
	lp_gen		g;
	char		buf[LP_GEN_MAXLINE];
	uint8_t    *e1,
			   *e2;
	size_t		l1,
				l2;
	int64_t		i;
	long		bad = 0;
	lp_route   *r;

	heap_init(&heap, &a);
	now = lp_state_create(&a);
	pip = lp_state_create(&a);
	other = gen_state(&a, 0, 5000, 50, 9);
	lp_gen_init(&g, 3000, 11);
	for (i = 0; i < 120000; i++)
	{
		size_t		n = lp_gen_line(&g, i, buf);
		lp_line		l;
		int64_t		v;

		if (lp_parse_line(buf, n, &l) != LP_PARSE_OK)
		{
			bad++;
			continue;
		}
		/* every 97th row far outside any dense array */
		v = i % 97 == 0 ? l.latency * 100000 : l.latency;
		bad += lp_state_add(now, l.route, l.route_len, v) != LP_OK;
		bad += lp_state_add_pipelined(pip, l.route, l.route_len, v) != LP_OK;
		if (i == 60000)
		{
			/* a merge into a state with a pending row */
			bad += lp_state_merge(now, other) != LP_OK;
			bad += lp_state_merge(pip, other) != LP_OK;
		}
	}
	CHECK_EQ_I(bad, 0, "pipelined: every add succeeds");
	CHECK(pip->pend != NULL, "pipelined: a row is pending before the flush");
	CHECK_EQ_I(lp_state_flush(pip), LP_OK, "pipelined: flush");
	CHECK(pip->pend == NULL, "pipelined: nothing pending after the flush");
	CHECK_EQ_I(lp_state_flush(pip), LP_OK, "pipelined: a second flush is a no-op");
	CHECK(now->nroutes > 1000 && pip->nroutes == now->nroutes, "pipelined: route tables grew alike");
	e1 = encode(now, &l1);
	e2 = encode(pip, &l2);
	CHECK(l1 == l2 && memcmp(e1, e2, l1) == 0, "pipelined: same encoding as row-by-row adds");
	g_alloc.free(g_alloc.ctx, e1);
	g_alloc.free(g_alloc.ctx, e2);

	/* a dense count at 2^32 - 2: the second pending row moves the route to the slot table */
	bad = 0;
	bad += lp_state_add_pipelined(pip, "/max", 4, 5) != LP_OK;
	for (i = 0; i < 40; i++)
		bad += lp_state_add_pipelined(pip, "/max", 4, i) != LP_OK;
	CHECK_EQ_I(lp_state_flush(pip), LP_OK, "pipelined: flush /max");
	r = lp_state_lookup(pip, "/max", 4);
	if (CHECK(r != NULL && r->hist.dense_cap > 5, "pipelined: /max has a dense array"))
	{
		uint64_t	before = r->hist.total;

		bad += lp_hist_add(&pip->alloc, &r->hist, 5, UINT32_MAX - 3) != LP_OK;
		for (i = 0; i < 4; i++)
			bad += lp_state_add_pipelined(pip, "/max", 4, 5) != LP_OK;
		bad += lp_state_add_pipelined(pip, "/max", 4, 7) != LP_OK;
		CHECK_EQ_I(lp_state_flush(pip), LP_OK, "pipelined: flush past 2^32");
		r = lp_state_lookup(pip, "/max", 4);
		CHECK(r && r->hist.total == before + UINT32_MAX - 3 + 5 && r->hist.dense_cap == 0,
			  "pipelined: count past 2^32 - 1 kept exactly, array given up");
		if (r)
		{
			lp_pair    *pairs = malloc(sizeof(lp_pair) * r->hist.used);

			lp_hist_sorted(&r->hist, pairs);
			CHECK(pairs[5].value == 5 && pairs[5].count == (uint64_t) UINT32_MAX - 3 + 4 + 2,
				  "pipelined: the big count is exact");
			free(pairs);
		}
	}
	CHECK_EQ_I(bad, 0, "pipelined: /max adds succeed");
	lp_state_free(now);
	lp_state_free(pip);
	lp_state_free(other);
	CHECK_EQ_I(heap.live, 0, "pipelined test frees everything");
}

/*
 * Deferred decoding (parallel query's partial states): a deferred state
 * merges like the decoded one, materializes to the same bytes, and cannot
 * be encoded by mistake before that; nor can a state with a pending row.
 */
static void
test_state_deferred(void)
{
	test_heap	heap;
	lp_allocator a;
	lp_state   *src = gen_state(&g_alloc, 0, 20000, 40, 21);
	lp_state   *part = gen_state(&g_alloc, 20000, 5000, 60, 21);
	lp_state   *def,
			   *viadef,
			   *viadec;
	uint8_t    *enc,
			   *e1,
			   *e2,
			   *out;
	size_t		len,
				l1,
				l2,
				outlen;

	heap_init(&heap, &a);
	enc = encode(src, &len);
	def = lp_state_create(&a);
	CHECK_EQ_I(lp_state_defer(def, enc, len - 1), LP_ECORRUPT, "deferred: a cut encoding is refused");
	CHECK(def->deferred == NULL && def->nroutes == 0, "deferred: a refused encoding leaves the state empty");
	CHECK_EQ_I(lp_state_defer(def, enc, len), LP_OK, "deferred: defer");
	CHECK_EQ_I(def->nroutes, 0, "deferred: nothing decoded yet");
	CHECK_EQ_I(lp_encode(def, &a, 0, SIZE_MAX, &out, &outlen), LP_EINTERNAL,
			   "deferred: encoding a state with a deferred encoding is refused");

	/* merged into a non-empty state: the same as decoding, then merging */
	viadef = gen_state(&a, 20000, 5000, 60, 21);
	viadec = lp_state_create(&a);
	CHECK_EQ_I(lp_decode_into(viadec, enc, len), LP_OK, "deferred: plain decode");
	CHECK_EQ_I(lp_state_merge_any(viadef, def), LP_OK, "deferred: merge_any of a deferred state");
	CHECK_EQ_I(lp_state_merge_any(part, viadec), LP_OK, "deferred: merge_any of a decoded state");
	e1 = encode(viadef, &l1);
	e2 = encode(part, &l2);
	CHECK(l1 == l2 && memcmp(e1, e2, l1) == 0, "deferred: merged deferred == merged decoded, byte for byte");
	g_alloc.free(g_alloc.ctx, e1);
	g_alloc.free(g_alloc.ctx, e2);

	/* materialized in place: the original bytes */
	CHECK_EQ_I(lp_state_materialize(def), LP_OK, "deferred: materialize");
	CHECK(def->deferred == NULL, "deferred: nothing deferred after materializing");
	CHECK_EQ_I(lp_state_materialize(def), LP_OK, "deferred: materialize again is a no-op");
	e1 = encode(def, &l1);
	CHECK(l1 == len && memcmp(e1, enc, len) == 0, "deferred: materialized state encodes to its input");
	g_alloc.free(g_alloc.ctx, e1);

	/* a pending pipelined row blocks encoding until flushed */
	{
		int			v,
					bad = 0;

		/* a route with a dense array, so that the last add stays pending */
		for (v = 0; v < 100; v++)
			bad += lp_state_add_pipelined(def, "/p", 2, v) != LP_OK;
		CHECK_EQ_I(bad, 0, "deferred: adds to /p");
	}
	CHECK(def->pend != NULL, "deferred: a row is pending");
	CHECK_EQ_I(lp_encode(def, &a, 0, SIZE_MAX, &out, &outlen), LP_EINTERNAL,
			   "deferred: encoding a state with a pending row is refused");
	CHECK_EQ_I(lp_state_flush(def), LP_OK, "deferred: flush");
	CHECK_EQ_I(lp_encode(def, &a, 0, SIZE_MAX, &out, &outlen), LP_OK, "deferred: encodes once flushed");
	a.free(a.ctx, out);

	lp_state_free(def);
	lp_state_free(viadef);
	lp_state_free(viadec);
	CHECK_EQ_I(heap.live, 0, "deferred test frees everything");
	lp_state_free(src);
	lp_state_free(part);
	g_alloc.free(g_alloc.ctx, enc);
}

/* lp_pairs_sort_values at every depth limit, heapsort included: ascending, a permutation. */
static void
test_pairs_sort(void)
{
	static const size_t sizes[] = {0, 1, 2, 24, 25, 100, 1000, 10000};
	static const int depths[] = {0, 1, 3, -1};
	size_t		k,
				d;
	uint64_t	x = 777;
	long		bad = 0,
				runs = 0;

	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
		for (d = 0; d < sizeof(depths) / sizeof(depths[0]); d++)
		{
			size_t		n = sizes[k],
						i;
			lp_pair    *p = malloc(sizeof(lp_pair) * (n + 1));
			uint64_t	want = 0,
						got = 0;

			for (i = 0; i < n; i++)
			{
				x = x * 6364136223846793005u + 1442695040888963407u;
				/* distinct values: i in the low bits, noise above; some in order */
				p[i].value = (int64_t) (k % 2 ? (x >> 34) << 20 | i : (uint64_t) i * 3);
				p[i].count = i + 1;
				want += (uint64_t) p[i].value ^ p[i].count;
			}
			lp_pairs_sort_values(p, n, depths[d]);
			for (i = 0; i < n; i++)
			{
				if (i > 0 && p[i].value <= p[i - 1].value)
					bad++;
				got += (uint64_t) p[i].value ^ p[i].count;
			}
			bad += got != want;
			runs++;
			free(p);
		}
	CHECK(bad == 0 && runs == 32, "pairs sort: 8 sizes x 4 depth limits (0 = heapsort) ascending, same pairs");
}

static long sorted_hook_calls;

static void
sorted_hook(void)
{
	sorted_hook_calls++;
}

/*
 * lp_hist_sorted: the slot-table values come out ascending and complete,
 * whatever their number; a long sort calls the interrupt hook.
 */
static void
test_state_sorted(void)
{
	static const uint32_t sizes[] = {0, 1, 2, 3, 23, 24, 25, 26, 100, 1000, 5000, 40000};
	size_t		k;
	uint64_t	x = 12345;

	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
	{
		lp_state   *st = lp_state_create(&g_alloc);
		lp_route   *r;
		lp_pair    *out;
		uint32_t	i,
					bad = 0;
		uint64_t	sum = 0,
					got = 0;

		/* values >= LP_DENSE_MAX all go to the slot table; some twice */
		for (i = 0; i < sizes[k]; i++)
		{
			int64_t		v;

			x = x * 6364136223846793005u + 1442695040888963407u;
			v = LP_DENSE_MAX + (int64_t) (x >> 20) % 1000000007;
			bad += lp_state_add(st, "/s", 2, v) != LP_OK;
			sum += (uint64_t) v;
		}
		lp_state_add(st, "/s", 2, 1);	/* the route exists even for size 0 */
		r = lp_state_lookup(st, "/s", 2);
		out = malloc(sizeof(lp_pair) * (r->hist.used + 1));
		sorted_hook_calls = 0;
		lp_interrupt_hook = sorted_hook;
		lp_hist_sorted(&r->hist, out);
		lp_interrupt_hook = NULL;
		if (sizes[k] == 40000)
			CHECK(sorted_hook_calls > 0, "sorted pairs: sorting 40000 values calls the interrupt hook (%ld times)",
				  sorted_hook_calls);
		for (i = 0; i < r->hist.used; i++)
		{
			if (i > 0 && out[i].value <= out[i - 1].value)
				bad++;
			got += (uint64_t) out[i].value * out[i].count;
		}
		CHECK(bad == 0 && got == sum + 1, "sorted pairs: %u values ascending and complete",
			  (unsigned) sizes[k]);
		free(out);
		lp_state_free(st);
	}
}

/*
 * A dense slot holds a 32-bit count: a count past 2^32 - 1 for one latency
 * makes the histogram give its array up and keep every count in the slot
 * table, exactly; a decoded state with such a count never makes an array.
 */
static void
test_state_dense_overflow(void)
{
	test_heap	heap;
	lp_allocator a;
	lp_state   *st,
			   *back;
	lp_route   *r;
	lp_pair		pairs[200];
	uint8_t    *e1,
			   *e2;
	size_t		l1,
				l2;
	uint32_t	i,
				bad = 0;
	uint64_t	big = (uint64_t) UINT32_MAX;

	heap_init(&heap, &a);
	st = lp_state_create(&a);
	for (i = 0; i < 100; i++)
		bad += lp_state_add(st, "/o", 2, i) != LP_OK;
	CHECK_EQ_U(bad, 0, "overflow route: adds");
	r = lp_state_lookup(st, "/o", 2);
	if (!CHECK(r != NULL && r->hist.dense_cap >= 64, "overflow route has a dense array"))
		return;
	/* 1 + (2^32 - 1) passes a 32-bit slot */
	CHECK_EQ_I(lp_hist_add(&st->alloc, &r->hist, 5, big), LP_OK, "count past 2^32 - 1");
	CHECK_EQ_U(r->hist.dense_cap, 0, "dense array given up");
	CHECK_EQ_U(r->hist.used, 100, "distinct values kept");
	CHECK_EQ_U(r->hist.hused, 100, "all in the slot table");
	CHECK_EQ_U(r->hist.total, 100 + big, "total exact");
	/* later adds, small and large values, land in the table and stay exact */
	for (i = 0; i < 100; i++)
		bad += lp_state_add(st, "/o", 2, i) != LP_OK;
	bad += lp_state_add(st, "/o", 2, 150) != LP_OK;
	CHECK_EQ_U(bad, 0, "adds after giving up");
	CHECK_EQ_U(r->hist.dense_cap, 0, "no new dense array");
	lp_hist_sorted(&r->hist, pairs);
	for (i = 0; i < 100; i++)
		bad += pairs[i].value != (int64_t) i || pairs[i].count != (i == 5 ? 2 + big : 2);
	bad += pairs[100].value != 150 || pairs[100].count != 1;
	CHECK_EQ_U(bad, 0, "sorted pairs exact after giving up");

	/* the encoding decodes into a state with the same bytes; no dense slot takes the big count */
	CHECK_EQ_I(lp_encode(st, &a, 0, SIZE_MAX, &e1, &l1), LP_OK, "encode big count");
	/* into a state whose route already has an array: the big count gives it up */
	back = lp_state_create(&a);
	for (i = 0; i < 240; i++)
		bad += lp_state_add(back, "/o", 2, i % 120) != LP_OK;
	r = lp_state_lookup(back, "/o", 2);
	CHECK(r != NULL && r->hist.dense_cap >= 64, "receiving route has an array");
	CHECK_EQ_I(lp_decode_into(back, e1, l1), LP_OK, "decode big count into an array");
	CHECK_EQ_U(r->hist.dense_cap, 0, "receiving array given up");
	lp_hist_sorted(&r->hist, pairs);
	CHECK(pairs[5].value == 5 && pairs[5].count == 2 + 2 + big && pairs[110].count == 2 &&
		  r->hist.total == 240 + 200 + big + 1, "decoded into an array: exact");
	lp_state_free(back);
	back = lp_state_create(&a);
	CHECK_EQ_I(lp_decode_into(back, e1, l1), LP_OK, "decode big count");
	CHECK_EQ_I(lp_encode(back, &a, 0, SIZE_MAX, &e2, &l2), LP_OK, "re-encode big count");
	CHECK(l1 == l2 && memcmp(e1, e2, l1) == 0, "big count round trip, byte for byte");
	/* merge twice: the big count doubles, still exact */
	CHECK_EQ_I(lp_decode_into(back, e1, l1), LP_OK, "decode again");
	r = lp_state_lookup(back, "/o", 2);
	lp_hist_sorted(&r->hist, pairs);
	CHECK(pairs[5].value == 5 && pairs[5].count == 2 * (2 + big) && pairs[6].count == 4,
		  "merged big counts exact");
	a.free(a.ctx, e1);
	a.free(a.ctx, e2);
	lp_state_free(back);
	lp_state_free(st);
	CHECK_EQ_I(heap.live, 0, "overflow test frees everything");
}

int
main(void)
{
	heap_init(&g_heap, &g_alloc);

	test_parse_fields();
	test_parse_few();
	test_parse_latency();
	test_parse_utf8();
	test_parse_differential();
	test_ranks();
	test_state_basic();
	test_state_overflow();
	test_state_growth();
	test_state_dense();
	test_state_dense_overflow();
	test_state_batch();
	test_state_pipelined();
	test_state_deferred();
	test_state_sorted();
	test_pairs_sort();
	test_state_keys();
	test_state_merge();
	test_varint();
	test_codec_known();
	test_codec_roundtrip();
	test_codec_corrupt();
	test_hex();
	test_gen();
	test_oom();

	CHECK_EQ_I(g_heap.live, 0, "every block given back");
	printf("%ld passed, %ld failed\n", n_passed, n_failed);
	return n_failed == 0 ? 0 : 1;
}
