/* src/lp_common.h -- what every plain C unit shares: result codes, memory, interrupts (plain C) */
#ifndef LP_COMMON_H
#define LP_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Result codes of the plain C units; 0 is success. */
#define LP_OK			0
#define LP_ENOMEM		(-1)	/* the allocator returned NULL */
#define LP_EOVERFLOW	(-2)	/* a request count would pass INT64_MAX */
#define LP_ECORRUPT		(-3)	/* encoded input is invalid */
#define LP_ETOOBIG		(-4)	/* encoded output would pass the size limit */
#define LP_EINTERNAL	(-5)	/* a caller broke a precondition: a bug, not bad input */
#define LP_ENOFIT		(-6)	/* a difference: a count to take away is not there */
#define LP_EMALFORMED_OVERFLOW	(-7)	/* the malformed-line count would pass INT64_MAX */
#define LP_EOPTIONS	(-8)	/* states counted with different recorded options (LP_SOPT_*) */

/*
 * Memory comes from the caller: PostgreSQL's aggregate context in the
 * extension, malloc in unit tests and fuzzers.  alloc returns NULL on
 * failure; free may be a no-op when the whole context is dropped at once.
 */
typedef struct lp_allocator
{
	void	   *(*alloc) (void *ctx, size_t size);	/* get size bytes */
	void		(*free) (void *ctx, void *ptr); /* give back one block */
	void	   *ctx;			/* passed to both */
} lp_allocator;

/* size zeroed bytes from allocator `a`; NULL when memory runs out. */
static inline void *
lp_zalloc(const lp_allocator *a, size_t size)
{
	void	   *p = a->alloc(a->ctx, size);

	if (p)
		memset(p, 0, size);
	return p;
}

/*
 * Interrupt hook: every loop that can run long (route table and histogram
 * growth and rehash, merge, both sorts, encode, decode, validate, hex) calls
 * it every LP_CHECK_EVERY steps.  The PostgreSQL glue sets it
 * to a function that runs CHECK_FOR_INTERRUPTS(), which may not return
 * (statement_timeout, a cancel request); it is only called where the state
 * is consistent, and temporary memory of the interrupted call stays in the
 * caller's memory context, which PostgreSQL resets.  NULL, the default, in
 * unit tests and fuzzers (defined in lp_common.c).
 */
extern void (*lp_interrupt_hook) (void);

/* Steps between two calls of lp_interrupt_hook (a power of two). */
#define LP_CHECK_EVERY 4096

/* Count one step on `counter` (a uint32_t) and call the hook every LP_CHECK_EVERY. */
#define LP_CHECK_INTERRUPTS(counter) \
	do { \
		if ((++(counter) & (LP_CHECK_EVERY - 1)) == 0 && lp_interrupt_hook) \
			lp_interrupt_hook(); \
	} while (0)

/*
 * Invariants of the plain C units.  LP_ASSERT(cond) checks cond where
 * LP_ASSERTS is defined: the unit tests, the fuzzers and the sanitizer
 * builds (their Makefiles pass -DLP_ASSERTS), and the extension built
 * against a PostgreSQL configured with --enable-cassert (the Makefile adds
 * it when pg_config.h defines USE_ASSERT_CHECKING).  A false cond calls
 * lp_assert_fail, which writes "TRAP: failed LP_ASSERT(cond), File: ...,
 * Line: ..." to stderr (the server log in a backend), as PostgreSQL's
 * Assert does, and aborts.  Elsewhere LP_ASSERT compiles to nothing: cond
 * is not evaluated (only its size is taken, so that variables read only
 * by assertions still count as used), and so must have no side effects.
 * For a whole state, see LP_ASSERT_STATE in lp_state.h.
 */
#if defined(__GNUC__)
#define LP_NORETURN __attribute__((noreturn))
#else
#define LP_NORETURN
#endif

#ifdef LP_ASSERTS
#define LP_ASSERT(cond) \
	((cond) ? (void) 0 : lp_assert_fail("LP_ASSERT(" #cond ")", __FILE__, __LINE__))

/* Report a failed invariant (`what`) and abort. */
extern void lp_assert_fail(const char *what, const char *file, int line) LP_NORETURN;
#else
#define LP_ASSERT(cond) ((void) sizeof(!(cond)))
#endif

/* Inline even where the compiler would rather not: the per-row path. */
#if defined(__GNUC__)
#define LP_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define LP_ALWAYS_INLINE inline
#endif

/* A field separator of every log format: space or tab. */
#define LP_IS_BLANK(c) ((c) == ' ' || (c) == '\t')

#endif							/* LP_COMMON_H */
