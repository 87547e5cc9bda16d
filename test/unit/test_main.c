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
lp_parse_status
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

/* Requests of one route of a state, 0 when absent. */
uint64_t
route_total(const lp_state *st, const char *key)
{
	lp_route   *r = lp_state_lookup(st, key, strlen(key));

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
		if (lp_parse_line(buf, n, &l) != LP_PARSE_OK ||
			lp_state_add(st, l.route, l.route_len, l.latency) != LP_OK)
		{
			lp_state_free(st);
			return NULL;
		}
	}
	return st;
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
	test_rank_views();
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
	test_state_key_blocks();
	test_state_key_eq();
	test_state_merge();
	test_varint();
	test_codec_known();
	test_codec_roundtrip();
	test_codec_corrupt();
	test_hex();
	test_tag();
	test_codec_routes();
	test_gen();
	test_gen_formats();
	test_ts_iso();
	test_ts_iso_field();
	test_ts_clf();
	test_ts_calendar();
	test_formats_table();
	test_formats_combined();
	test_formats_request_time();
	test_formats_parsers();
	test_formats_hostile();
	test_formats_templates();
	test_formats_options();
	test_formats_fast_vs_ref();
	test_hash_old_collisions();
	test_hash_known_key();
	test_hash_every_byte();
	test_oom();
	test_stats();

	CHECK_EQ_I(g_heap.live, 0, "every block given back");
	printf("%ld passed, %ld failed\n", n_passed, n_failed);
	return n_failed == 0 ? 0 : 1;
}

