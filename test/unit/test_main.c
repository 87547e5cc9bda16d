/* test/unit/test_main.c -- the unit tests' runner: assertion counters, the test allocator, helpers */
#include "test_harness.h"

static long n_passed;			/* assertions that held */
static long n_failed;			/* assertions that did not */

/* Count one assertion; print it when it fails. */
int
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

/* Count one signed equality (each argument evaluated once). */
int
check_eq_i(long long got, long long want, const char *what, const char *file, int line)
{
	return check_at(got == want, file, line, "%s: got %lld, want %lld", what, got, want);
}

/* Count one unsigned equality (each argument evaluated once). */
int
check_eq_u(unsigned long long got, unsigned long long want, const char *what,
		   const char *file, int line)
{
	return check_at(got == want, file, line, "%s: got %llu, want %llu", what, got, want);
}

/* A description formatted from fmt and ap, then ": " and the difference. */
static int
check_diff_v(const test_diff *d, const char *file, int line, const char *fmt, va_list ap)
{
	char		what[512];

	vsnprintf(what, sizeof(what), fmt, ap);
	return check_at(d->field == NULL, file, line, "%s: %s", what, diff_say(d));
}

/* See test_harness.h. */
int
check_same_enc(const uint8_t *got, size_t glen, const uint8_t *want, size_t wlen,
			   const char *file, int line, const char *fmt,...)
{
	test_diff	d;
	va_list		ap;
	int			ok;

	diff_init(&d);
	if (!got || !want)
		diff_text(&d, "encoding", got ? "(bytes)" : NULL, 7, want ? "(bytes)" : NULL, 7);
	else
		diff_encodings(&d, got, glen, want, wlen);
	va_start(ap, fmt);
	ok = check_diff_v(&d, file, line, fmt, ap);
	va_end(ap);
	return ok;
}

/* See test_harness.h. */
int
check_same_state(const lp_state *got, const lp_state *want, const char *file, int line,
				 const char *fmt,...)
{
	size_t		lg = 0,
				lw = 0;
	uint8_t    *eg = encode(got, &lg);
	uint8_t    *ew = encode(want, &lw);
	test_diff	d;
	va_list		ap;
	int			ok;

	diff_init(&d);
	if (!eg || !ew)
		diff_text(&d, "encoding", eg ? "(bytes)" : NULL, 7, ew ? "(bytes)" : NULL, 7);
	else
		diff_encodings(&d, eg, lg, ew, lw);
	g_alloc.free(g_alloc.ctx, eg);
	g_alloc.free(g_alloc.ctx, ew);
	va_start(ap, fmt);
	ok = check_diff_v(&d, file, line, fmt, ap);
	va_end(ap);
	return ok;
}

/* See test_harness.h. */
uint64_t
test_rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* See test_harness.h. */
int
test_cmp_i64(const void *a, const void *b)
{
	int64_t		x = *(const int64_t *) a,
				y = *(const int64_t *) b;

	return (x > y) - (x < y);
}

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
void
heap_init(test_heap *h, lp_allocator *a)
{
	memset(h, 0, sizeof(*h));
	h->fail_at = -1;
	a->alloc = heap_alloc;
	a->free = heap_free;
	a->ctx = h;
}

/* The heap of most tests, checked for leaks at the end. */
test_heap	g_heap;
lp_allocator g_alloc;

/* Parse a NUL-terminated line. */
lp_status
parse(const char *s, lp_line *out)
{
	memset(out, 0xAB, sizeof(*out));
	return lp_parse_line(s, strlen(s), out);
}

/* Does a route slice equal a C string? */
int
slice_is(const char *p, size_t n, const char *want)
{
	return n == strlen(want) && memcmp(p, want, n) == 0;
}

/* Encode a state with the global allocator; aborts the test on failure. */
uint8_t *
encode(const lp_state *st, size_t *len)
{
	uint8_t    *buf = NULL;
	int			rc = lp_encode(st, &g_alloc, 0, SIZE_MAX / 4, &buf, len);

	if (!CHECK(rc == LP_OK, "lp_encode returned %d", rc))
		return NULL;
	return buf;
}

/* Do two states encode to the same bytes? */
int
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

/* The route of `key` in a state, NULL when absent (lp_route_find with its hash). */
lp_route *
find_route(const lp_state *st, const char *key, size_t keylen)
{
	return lp_route_find(st, key, keylen, lp_hash_bytes(key, keylen));
}

/* Requests of one route of a state, 0 when absent. */
uint64_t
route_total(const lp_state *st, const char *key)
{
	lp_route   *r = find_route(st, key, strlen(key));

	return r ? r->hist.total : 0;
}

/* Append one byte. */
void
b_byte(bytes *b, uint8_t v)
{
	b->b[b->n++] = v;
}

/* Append a canonical varint. */
void
b_var(bytes *b, uint64_t v)
{
	b->n += lp_varint_put(b->b + b->n, v);
}

/* Append raw bytes. */
void
b_raw(bytes *b, const void *p, size_t n)
{
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

/* Append a route header: key, npairs and pairs_len. */
void
b_route(bytes *b, const char *key, uint64_t npairs, uint64_t plen)
{
	b_var(b, strlen(key));
	b_raw(b, key, strlen(key));
	b_var(b, npairs);
	b_var(b, plen);
}

/* Start an encoding: version, malformed count, number of routes. */
void
b_head(bytes *b, uint64_t malformed, uint64_t nroutes)
{
	b->n = 0;
	b_byte(b, LP_CODEC_VERSION);
	b_var(b, malformed);
	b_var(b, nroutes);
}

/* Build a state from `lines` generated lines of `routes` routes. */
lp_state *
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
		if (lp_parse_line(buf, n, &l) != LP_ST_OK ||
			lp_state_add(st, l.route, l.route_len, l.latency) != LP_OK)
		{
			lp_state_free(st);
			return NULL;
		}
	}
	return st;
}

/* Every test, from test_list.h: its file and its function. */
typedef struct test_entry
{
	const char *file;			/* test/unit/<file>.c */
	const char *name;			/* the function's name */
	void		(*fn) (void);	/* the test */
} test_entry;

static const test_entry tests[] = {
#define TEST(file, name) {#file, #name, name},
#include "test_list.h"
#undef TEST
};

#define NTESTS (sizeof(tests) / sizeof(tests[0]))

/* Is test t selected by one of the names argv[1 .. argc)? (none: every test) */
static int
test_selected(const test_entry *t, int argc, char **argv)
{
	int			i;

	if (argc < 2)
		return 1;
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], t->name) == 0 || strcmp(argv[i], t->file) == 0)
			return 1;
	return 0;
}

/*
 * test_units [NAME...]: run every test, or those whose function or file
 * is a NAME (test_formats: every test of test_formats.c); --list prints
 * them.  Ends with "N passed, N failed" (assertions) and exits 1 on a
 * failure, 2 on a NAME that matches nothing.
 */
int
main(int argc, char **argv)
{
	size_t		k;
	int			i,
				nrun = 0;

	if (argc == 2 && strcmp(argv[1], "--list") == 0)
	{
		for (k = 0; k < NTESTS; k++)
			printf("%-14s %s\n", tests[k].file, tests[k].name);
		return 0;
	}
	for (i = 1; i < argc; i++)
	{
		int			found = 0;

		for (k = 0; k < NTESTS; k++)
			found |= strcmp(argv[i], tests[k].name) == 0 || strcmp(argv[i], tests[k].file) == 0;
		if (!found)
		{
			fprintf(stderr, "no unit test or test file named \"%s\" (test_units --list names them)\n",
					argv[i]);
			return 2;
		}
	}

	heap_init(&g_heap, &g_alloc);
	/* the build of the dispatched parsers, chosen once as _PG_init does */
	lp_simd_choose();
	for (k = 0; k < NTESTS; k++)
	{
		if (!test_selected(&tests[k], argc, argv))
			continue;
		if (argc > 1)
			printf("%s (%s.c)\n", tests[k].name, tests[k].file);
		tests[k].fn();
		nrun++;
	}

	CHECK_EQ_I(g_heap.live, 0, "every block given back");
	if (argc > 1)
		printf("%d of %zu tests run\n", nrun, NTESTS);
	printf("%ld passed, %ld failed\n", n_passed, n_failed);
	return n_failed == 0 ? 0 : 1;
}
