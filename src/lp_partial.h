/* src/lp_partial.h -- a parallel worker's state kept encoded until it is merged (plain C) */
#ifndef LP_PARTIAL_H
#define LP_PARTIAL_H

#include "lp_codec.h"
#include "lp_state.h"

/*
 * Deferred decoding, for a state that is only ever merged into another one
 * and dropped (the partial states of a parallel query).  It needs both the
 * state and the codec, so it sits above both instead of inside either.
 *
 * lp_state_defer checks `buf` like lp_decode_into and makes it part of the
 * empty state `st` without decoding it (the caller keeps `buf` alive as
 * long as `st`); lp_state_merge_any merges any state into `dst`, decoding a
 * deferred encoding straight into `dst` instead of into a state of its own
 * first; lp_state_materialize decodes a deferred encoding into its own
 * state.  Every other function wants a state without a deferred encoding.
 */
extern int	lp_state_defer(lp_state *st, const uint8_t *buf, size_t len);
extern int	lp_state_merge_any(lp_state *dst, const lp_state *src);
extern int	lp_state_materialize(lp_state *st);

#endif							/* LP_PARTIAL_H */
