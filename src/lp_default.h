/* src/lp_default.h -- the default format's entry: "<timestamp> <method> <route> <latency_ms>" (plain C) */
#ifndef LP_DEFAULT_H
#define LP_DEFAULT_H

#include "lp_format.h"
#include "lp_simd.h"

/*
 * The parser of the default format's entry: lp_parse_line (lp_parse.h)
 * finds the route and the latency, the call's templates apply to the
 * route.  On LP_ST_TOO_FEW_FIELDS, nwant is 4 and nfields what the line
 * has; on a latency error, bad is the latency field.  With
 * LP_PARSE_FIELDS also the time (the first field, ISO 8601) and the method
 * (the second), whatever the rest of the line holds.
 */
extern lp_status lp_default_parse(const char *line, size_t len, const lp_format_def *fmt,
								  const lp_parse_ctx *ctx, lp_result *out);

/* The direct parser of the default entry, one per lp_isa: lp_parse_line. */
extern const lp_direct_fn lp_default_direct[LP_ISA_COUNT];

#endif							/* LP_DEFAULT_H */
