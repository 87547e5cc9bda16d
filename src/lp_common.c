/* src/lp_common.c -- the few variables and functions the plain C units share (plain C) */
#include "lp_common.h"
#include "lp_hash.h"

#ifdef LP_ASSERTS
#include <stdio.h>
#include <stdlib.h>
#endif

/* See lp_common.h: set by the PostgreSQL glue, NULL elsewhere. */
void		(*lp_interrupt_hook) (void) = NULL;

/*
 * See lp_hash.h: a fixed default (digits of pi), replaced by a random key
 * in every backend; unit tests and fuzzers keep it or set their own.
 */
lp_hash_key_t lp_hash_key = {{
		UINT64_C(0x243f6a8885a308d3), UINT64_C(0x13198a2e03707344),
		UINT64_C(0xa4093822299f31d0), UINT64_C(0x082efa98ec4e6c89)
}};

/* See lp_hash.h. */
void
lp_hash_set_key(const uint64_t k[4])
{
	int			i;

	for (i = 0; i < 4; i++)
		lp_hash_key.k[i] = k[i];
}

#ifdef LP_ASSERTS
/* See lp_common.h: the words of PostgreSQL's ExceptionalCondition. */
void
lp_assert_fail(const char *what, const char *file, int line)
{
	fprintf(stderr, "TRAP: failed %s, File: \"%s\", Line: %d\n", what, file, line);
	fflush(stderr);
	abort();
}
#endif
