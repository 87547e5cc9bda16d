/* test/unit/test_harness.h -- what the unit tests share: assertions, a failing allocator, helpers */
#ifndef TEST_HARNESS_H
#define TEST_HARNESS_H

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
#include "lp_simd.h"
#include "lp_state.h"
#include "lp_tag.h"
#include "test_diff_state.h"

/* Count one assertion; print it when it fails (file and line of the CHECK). */
extern int	check_at(int ok, const char *file, int line, const char *fmt,...);
extern int	check_eq_i(long long got, long long want, const char *what, const char *file, int line);
extern int	check_eq_u(unsigned long long got, unsigned long long want, const char *what,
					   const char *file, int line);

#define CHECK(cond, ...) check_at((cond) ? 1 : 0, __FILE__, __LINE__, __VA_ARGS__)
#define CHECK_EQ_I(a, b, what) check_eq_i((long long) (a), (long long) (b), (what), __FILE__, __LINE__)
#define CHECK_EQ_U(a, b, what) \
	check_eq_u((unsigned long long) (a), (unsigned long long) (b), (what), __FILE__, __LINE__)

/*
 * Count one comparison of an encoding (or a state) got with the one
 * wanted; when they differ, print the first field that does (see
 * diff_encodings) after the description.
 */
extern int	check_same_enc(const uint8_t *got, size_t glen, const uint8_t *want, size_t wlen,
						   const char *file, int line, const char *fmt,...);
extern int	check_same_state(const lp_state *got, const lp_state *want,
							 const char *file, int line, const char *fmt,...);

#define CHECK_SAME_ENC(got, glen, want, wlen, ...) \
	check_same_enc((got), (glen), (want), (wlen), __FILE__, __LINE__, __VA_ARGS__)
#define CHECK_SAME_STATE(got, want, ...) \
	check_same_state((got), (want), __FILE__, __LINE__, __VA_ARGS__)

/* Book-keeping of the test allocator; the block header records the size. */
typedef struct test_heap
{
	long		live;			/* blocks handed out and not given back */
	long		nalloc;			/* allocations asked for so far */
	long		fail_at;		/* allocation index that fails first, -1 = never */
	int			sticky;			/* 1: every allocation from fail_at on fails */
	long		nfailed;		/* allocations refused */
} test_heap;

/* The heap of most tests, checked for leaks at the end, and its allocator. */
extern test_heap g_heap;
extern lp_allocator g_alloc;

/* A byte builder for hand-made encodings. */
typedef struct bytes
{
	uint8_t		b[4096];		/* the bytes */
	size_t		n;				/* how many */
} bytes;

/* A fresh heap that never fails. */
extern void heap_init(test_heap *h, lp_allocator *a);

/* Parse a NUL-terminated line. */
extern lp_status parse(const char *s, lp_line *out);

/* Does a route slice equal a C string? */
extern int	slice_is(const char *p, size_t n, const char *want);

/* Encode a state with the global allocator; aborts the test on failure. */
extern uint8_t *encode(const lp_state *st, size_t *len);

/* Do two states encode to the same bytes? */
extern int	same_state(const lp_state *a, const lp_state *b);

/* The route of `key` in a state, NULL when absent (lp_route_find with its hash). */
extern lp_route *find_route(const lp_state *st, const char *key, size_t keylen);

/* Requests of one route of a state, 0 when absent. */
extern uint64_t route_total(const lp_state *st, const char *key);

/* Hand-made encodings: one byte, a canonical varint, raw bytes. */
extern void b_byte(bytes *b, uint8_t v);
extern void b_var(bytes *b, uint64_t v);
extern void b_raw(bytes *b, const void *p, size_t n);

/* Append a route header: key, npairs and pairs_len. */
extern void b_route(bytes *b, const char *key, uint64_t npairs, uint64_t plen);

/* Start an encoding: version, malformed count, number of routes. */
extern void b_head(bytes *b, uint64_t malformed, uint64_t nroutes);

/* Build a state from `lines` generated lines of `routes` routes. */
extern lp_state *gen_state(const lp_allocator *a, int64_t first, int64_t lines,
						   int32_t routes, int64_t seed);

/* The next number of the xorshift64 sequence in *x (never 0 once seeded). */
extern uint64_t test_rnd(uint64_t *x);

/* qsort order of int64_t. */
extern int	test_cmp_i64(const void *a, const void *b);

/* The tests, one file per unit (test_<unit>.c), each named once in test_list.h. */
#define TEST(file, name) extern void name(void);
#include "test_list.h"
#undef TEST

#endif							/* TEST_HARNESS_H */
