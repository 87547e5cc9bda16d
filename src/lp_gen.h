/* src/lp_gen.h -- deterministic access-log generator (plain C) */
#ifndef LP_GEN_H
#define LP_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "lp_formats.h"

/*
 * Longest line lp_gen_line writes, terminating NUL included: room for the
 * combined formats' long user agents, IPv6 clients, referers and query
 * strings (the longest combined line is under 400 bytes; a default line
 * under 80).
 */
#define LP_GEN_MAXLINE 512

/* Generator state: a seeded splitmix64 sequence and the format written. */
typedef struct lp_gen
{
	uint64_t	rng;			/* current splitmix64 state */
	uint64_t	seed;			/* the seed, for per-route and per-line constants */
	int32_t		routes;			/* number of routes, >= 1 */
	const lp_format_def *fmt;	/* the format written: an entry of lp_formats[] */
} lp_gen;

/* Start a sequence in the default format; routes must be >= 1. */
extern void lp_gen_init(lp_gen *g, int32_t routes, int64_t seed);

/*
 * The format called `name` if the generator can write it, else NULL: the
 * entries of lp_formats[] flagged LP_FMT_GENERATE, the default format and
 * the combined family ("default", "combined", "combined_query",
 * "combined_us", "combined_us_query").
 */
extern const lp_format_def *lp_gen_format_lookup(const char *name, size_t len);

/* The names lp_gen_format_lookup accepts, comma-separated, for error messages. */
extern const char *lp_gen_format_names(void);

/*
 * Write lines in format `fmt` (from lp_gen_format_lookup) from now on; call
 * it right after lp_gen_init.  Every format draws the same route, method
 * and latency for line i from the same (routes, seed), so the reports of
 * the default and of a combined format are equal, route for route (a
 * combined_query report differs by the query strings some requests carry).
 */
extern void lp_gen_set_format(lp_gen *g, const lp_format_def *fmt);

/*
 * Write line number i (0-based; lines must be asked for in order) into buf
 * (LP_GEN_MAXLINE bytes).  Returns the length without the NUL.  Timestamps
 * start at 2026-11-07T00:00:00 UTC and advance one second every ten lines.
 *   default:   "<timestamp> <method> <route> <latency_ms>"
 *   combined:  nginx combined + " $request_time":
 *              client - user [07/Nov/2026:00:00:00 +0000] "GET /route?q HTTP/1.1"
 *              status bytes "referer" "user agent" seconds.mmm
 *   *_us:      the same with Apache's %D (integer microseconds) last
 */
extern size_t lp_gen_line(lp_gen *g, int64_t i, char *buf);

#endif							/* LP_GEN_H */
