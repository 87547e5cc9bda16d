/* src/logp95.h -- helpers of the PostgreSQL glue shared between its C files */
#ifndef LOGP95_H
#define LOGP95_H

#include "postgres.h"

#include "fmgr.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"				/* VARDATA_ANY and friends moved here in 16 */
#endif

#include "lp_state.h"

/* An allocator for the plain C units that draws from memory context `cxt`. */
extern lp_allocator logp95_allocator(MemoryContext cxt);

/* Turn a failure code of the plain C units (LP_*) into an ERROR. */
extern void logp95_check(int rc);

/* The running aggregate state (argument 0), created on the first call. */
extern lp_state *logp95_state_get(FunctionCallInfo fcinfo, const char *fname);

/* A copy of at most 200 bytes of s for an error message, cut on a character boundary. */
extern char *logp95_quote(const char *s, size_t len);

/*
 * A function that never returns: PostgreSQL 18 spells it with the prefix
 * pg_noreturn, older versions with the suffix pg_attribute_noreturn(), which
 * GCC and Clang accept in front of the declaration too.
 */
#ifndef pg_noreturn
#define pg_noreturn pg_attribute_noreturn()
#endif

/* Raise 22P02 "malformed log line: <problem>" quoting the line. */
pg_noreturn extern void logp95_malformed_error(const char *problem, const char *line, size_t len);

/* logp95.on_malformed = skip: count one malformed line and return true. */
extern bool logp95_skip_malformed(lp_state *st);

/* Transition function of logp95_agg(text); the 'default' format reuses it. */
extern Datum logp95_agg_line_trans(PG_FUNCTION_ARGS);

#endif							/* LOGP95_H */
