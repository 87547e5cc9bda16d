/* src/logp95.h -- helpers of the PostgreSQL glue shared between its C files */
#ifndef LOGP95_H
#define LOGP95_H

#include "postgres.h"

#include "fmgr.h"

#include "lp_state.h"

/* An allocator for the plain C units that draws from memory context `cxt`. */
extern lp_allocator logp95_allocator(MemoryContext cxt);

/* Turn a failure code of the plain C units (LP_*) into an ERROR. */
extern void logp95_check(int rc);

/* The running aggregate state (argument 0), created on the first call. */
extern lp_state *logp95_state_get(FunctionCallInfo fcinfo, const char *fname);

/* A copy of at most 200 bytes of s for an error message, cut on a character boundary. */
extern char *logp95_quote(const char *s, size_t len);

/* Raise 22P02 "malformed log line: <problem>" quoting the line. */
extern void logp95_malformed_error(const char *problem, const char *line, size_t len) pg_attribute_noreturn();

/* logp95.on_malformed = skip: count one malformed line and return true. */
extern bool logp95_skip_malformed(lp_state *st);

/* Transition function of logp95_agg(text); the 'default' format reuses it. */
extern Datum logp95_agg_line_trans(PG_FUNCTION_ARGS);

#endif							/* LOGP95_H */
