/* src/lp_gen.h -- deterministic access-log generator (plain C) */
#ifndef LP_GEN_H
#define LP_GEN_H

#include <stddef.h>
#include <stdint.h>

/* Longest line lp_gen_line writes, terminating NUL included. */
#define LP_GEN_MAXLINE 128

/* Generator state: a seeded splitmix64 sequence. */
typedef struct lp_gen
{
	uint64_t	rng;			/* current splitmix64 state */
	uint64_t	seed;			/* the seed, for per-route constants */
	int32_t		routes;			/* number of routes, >= 1 */
} lp_gen;

/* Start a sequence; routes must be >= 1. */
extern void lp_gen_init(lp_gen *g, int32_t routes, int64_t seed);

/*
 * Write line number i (0-based; lines must be asked for in order) into buf
 * (LP_GEN_MAXLINE bytes): "<timestamp> <method> <route> <latency>".
 * Returns the length without the NUL.  Timestamps start at
 * 2026-11-07T00:00:00 and advance one second every ten lines.
 */
extern size_t lp_gen_line(lp_gen *g, int64_t i, char *buf);

#endif							/* LP_GEN_H */
