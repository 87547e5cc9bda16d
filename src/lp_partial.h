/* src/lp_partial.h -- partial states kept encoded until they are merged (plain C) */
#ifndef LP_PARTIAL_H
#define LP_PARTIAL_H

#include "lp_codec.h"
#include "lp_state.h"

/*
 * Deferred decoding, for states that are only ever merged and then encoded
 * or dropped (the partial states of a parallel query, which the leader's
 * finalize adds up and flattens).  It needs the state, the codec and the
 * sums of encodings, so it sits above all three instead of inside one.
 *
 * A state holds up to LP_DEFER_MAX encodings that are part of it but not
 * decoded (checked when they were deferred); one more decodes them all
 * first.  lp_state_encode_any writes the encoding of the whole, by one walk
 * over its own encoding and the deferred ones (lp_encoded_sum) instead of
 * decoding them into its hash tables only to encode those again.
 *
 * lp_state_defer checks `buf` like lp_decode_into and makes it part of the
 * state without decoding it (the caller keeps `buf` alive as long as `st`),
 * joining its options at once (LP_EOPTIONS as decoding gives it; an empty
 * state is simply decoded); a count past INT64_MAX is found only when the
 * state is encoded or materialized;
 * lp_state_defer_copy does the same with a copy of `buf` the state owns;
 * lp_state_defer_state with the encoding of another state;
 * lp_state_merge_any merges any state into `dst`, decoding the encodings
 * `src` deferred straight into `dst` and leaving those of `dst` deferred;
 * lp_state_materialize decodes what a state deferred, in the order it came.
 * Every other function but lp_state_free wants a state without a deferred
 * encoding (lp_encode refuses one).
 */
#define LP_DEFER_MAX 8

/*
 * ... and up to lp_defer_budget bytes of them (LP_DEFER_BYTES unless a test
 * lowers it): an encoding that would pass it decodes the others first, and
 * one larger than it alone is decoded at once, so that a few huge states
 * (Citus workers', say) take no more memory than decoding them did.
 */
#define LP_DEFER_BYTES ((size_t) 32 << 20)
extern size_t lp_defer_budget;

extern int	lp_state_defer(lp_state *st, const uint8_t *buf, size_t len);
extern int	lp_state_defer_copy(lp_state *st, const uint8_t *buf, size_t len);
extern int	lp_state_merge_any(lp_state *dst, const lp_state *src);

/*
 * Add `src` (nothing pending) to `dst` as an encoding it defers: src
 * encoded (lp_state_encode_any) into a block of dst's allocator, which is
 * cheaper than merging its hash tables into dst's when dst is only going
 * to be encoded (a parallel query's leader takes its own partial state so).
 */
extern int	lp_state_defer_state(lp_state *dst, lp_state *src);
extern int	lp_state_materialize(lp_state *st);

/*
 * lp_encode of `st` and every encoding it deferred, as if it had decoded
 * them in the order they came (nothing pending: LP_EINTERNAL otherwise).
 * The state does not change.
 */
extern int	lp_state_encode_any(lp_state *st, const lp_allocator *out_alloc,
								size_t reserve, size_t max_len,
								uint8_t **out, size_t *outlen);

#endif							/* LP_PARTIAL_H */
