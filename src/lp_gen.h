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

/*
 * The latency distributions the generator draws from (lp_gen_set_latency).
 *   LP_GEN_NARROW:    a per-route typical latency of 3..122 ms, the body
 *                     up to twice it, 9% slower by 2..5x, 1% by 5..40x (at
 *                     most 9,760 ms; a few hundred distinct values a route);
 *                     what logp95_generate has always written.
 *   LP_GEN_LONG_TAIL: a log-normal body with a Pareto tail, as real services
 *                     show (lp_gen.c, lp_gen_draw_long_tail, has the
 *                     parameters): thousands of distinct values on a busy
 *                     route, out to a 60,000 ms timeout.
 */
typedef enum lp_gen_latency
{
	LP_GEN_NARROW = 0,
	LP_GEN_LONG_TAIL = 1
} lp_gen_latency;

/* Generator state: a seeded splitmix64 sequence and the format written. */
typedef struct lp_gen
{
	uint64_t	rng;			/* current splitmix64 state */
	uint64_t	seed;			/* the seed, for per-route and per-line constants */
	int32_t		routes;			/* number of routes, >= 1 */
	lp_gen_latency latency;		/* the latency distribution drawn from */
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
 * The latency distribution called `name` ("narrow", "long_tail") in *out:
 * 1 if there is one, else 0.
 */
extern int	lp_gen_latency_lookup(const char *name, size_t len, lp_gen_latency *out);

/* The names lp_gen_latency_lookup accepts, comma-separated, for error messages. */
#define LP_GEN_LATENCY_NAMES "narrow, long_tail"

/*
 * Draw latencies from distribution `lat` from now on; call it right after
 * lp_gen_init (lp_gen_init draws from LP_GEN_NARROW).  Line i has the same
 * route and timestamp in both distributions.
 */
extern void lp_gen_set_latency(lp_gen *g, lp_gen_latency lat);

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
