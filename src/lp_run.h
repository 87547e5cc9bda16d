/* src/lp_run.h -- the rows of one time bucket, counted in arrival order and encoded by sorting (plain C) */
#ifndef LP_RUN_H
#define LP_RUN_H

#include "lp_common.h"

/*
 * The running state of a continuous rollup (logp95_rollup_rows): the
 * lines of a statement arrive in time order, and one run collects the
 * lines of one bucket until a line of another bucket comes; the run is
 * then encoded and the next one starts.  A statement of a few days into a
 * minute rollup makes thousands of runs of a few hundred rows each, so
 * what a run costs besides its rows matters as much as the rows: an
 * lp_state built per run paid for a route table, a histogram per route
 * and a sort of the routes by key every time.
 *
 * Here a run is a list of (route, value) rows.  Routes are kept across
 * runs, each with its rank in key order (computed again only when a new
 * route came); at the end of a run the rows are bucketed by rank (a
 * counting sort), each route's values sorted, and the encoding written
 * straight from them.  The bytes are those lp_encode writes for an
 * lp_state holding the same rows (the encoding is canonical).  A run that
 * grows past LP_RUN_ROWS_MAX rows moves its rows into an lp_state, which
 * holds a bucket of millions of lines in the memory of its distinct
 * values, and goes on there.  The routes kept are forgotten at the end of
 * a run when they pass LP_RUN_ROUTES_KEEP and outnumber the run's own
 * eight to one (lines with a route of their own each).
 */
typedef struct lp_run lp_run;

/* Rows a run holds as rows before it moves them into an lp_state. */
#define LP_RUN_ROWS_MAX		65536

/* Routes kept from run to run whatever a run holds. */
#define LP_RUN_ROUTES_KEEP	4096

/* A new, empty run drawing memory from `alloc`; NULL when memory runs out. */
extern lp_run *lp_run_create(const lp_allocator *alloc);

/* Give back every block of the run. */
extern void lp_run_free(lp_run *r);

/*
 * Count one row: route key[0 .. keylen), latency value (>= 0; LP_EINTERNAL
 * otherwise, as lp_hist_add).
 */
extern int	lp_run_add(lp_run *r, const char *key, size_t keylen, int64_t value);

/*
 * Make the run count statuses (issue 24) with options `sopts` recorded
 * (LP_SOPT_*, lp_state.h): from then on its rows go straight into an
 * lp_state (the one of a long run), made again for every run, so that the
 * encoding is lp_encode's of a state that counted the same lines.
 */
extern void lp_run_count_status(lp_run *r, unsigned sopts);

/*
 * Count one response of class `cls` in a run that counts statuses:
 * lp_state_add_status's arguments (value < 0: no latency).
 */
extern int	lp_run_add_status(lp_run *r, const char *key, size_t keylen,
							  int64_t value, int cls);

/* Count n malformed lines in the run. */
extern int	lp_run_add_malformed(lp_run *r, uint64_t n);

/*
 * Encode the run as lp_encode encodes a state (same arguments: the result
 * from `out_alloc` with `reserve` free bytes in front, *outlen the
 * encoding's length, LP_ETOOBIG past max_len) and empty it for the next
 * run, also on failure.
 */
extern int	lp_run_encode(lp_run *r, const lp_allocator *out_alloc, size_t reserve,
						  size_t max_len, uint8_t **out, size_t *outlen);

#endif							/* LP_RUN_H */
