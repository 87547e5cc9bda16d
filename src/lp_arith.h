/* src/lp_arith.h -- exact sum and difference of two encoded states in one ordered walk (plain C) */
#ifndef LP_ARITH_H
#define LP_ARITH_H

#include "lp_codec.h"

/*
 * Both inputs are encodings (lp_codec.h), checked as they are read; the
 * result is the canonical encoding of their sum or difference, built by
 * walking the two route lists (and each route's values) side by side in
 * their stored order, without hash tables: linear in the two sizes.  The
 * result is allocated with `alloc` with `reserve` free bytes before it (a
 * varlena header) and *outlen counts the encoding only; LP_ETOOBIG when
 * reserve + encoding would pass max_len.
 */

/*
 * a + b: every count added; LP_EOVERFLOW when a count passes INT64_MAX,
 * LP_EMALFORMED_OVERFLOW when the malformed count does.
 */
extern int	lp_encoded_add(const uint8_t *a, size_t alen,
						   const uint8_t *b, size_t blen,
						   const lp_allocator *alloc, size_t reserve,
						   size_t max_len, uint8_t **out, size_t *outlen);

/*
 * a - b: every count of b taken from a; values and routes left with no
 * count disappear.  LP_ENOFIT when b holds a count that a does not (a
 * route or value missing from a, or a smaller count there, or a larger
 * malformed count): *misfit then points at the key of the first such route
 * in b (*misfit_len its length), or is NULL when it is the malformed count.
 */
extern int	lp_encoded_subtract(const uint8_t *a, size_t alen,
								const uint8_t *b, size_t blen,
								const lp_allocator *alloc, size_t reserve,
								size_t max_len, uint8_t **out, size_t *outlen,
								const char **misfit, size_t *misfit_len);

/* The most encodings lp_encoded_sum adds in one walk. */
#define LP_SUM_MAX 16

/*
 * in[0] + ... + in[n - 1] (1 <= n <= LP_SUM_MAX) of encodings lp_validate
 * accepted (not checked again: a parallel query's partial states, checked
 * when they arrived), in one walk over all of them: the bytes lp_encode
 * writes for the state they decode into one after the other, in that
 * order (the options taken as lp_state_join_options takes them: LP_EOPTIONS
 * for two non-empty ones that differ).  LP_EOVERFLOW and
 * LP_EMALFORMED_OVERFLOW as lp_encoded_add; LP_EINTERNAL for n out of range.
 */
extern int	lp_encoded_sum(const uint8_t *const *in, const size_t *inlen, int n,
						   const lp_allocator *alloc, size_t reserve,
						   size_t max_len, uint8_t **out, size_t *outlen);

#endif							/* LP_ARITH_H */
