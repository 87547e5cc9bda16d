/* src/logp95.h -- what the PostgreSQL glue files share (helpers in logp95.c) */
#ifndef LOGP95_H
#define LOGP95_H

#include "postgres.h"

#include "datatype/timestamp.h"
#include "fmgr.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"				/* VARDATA_ANY and friends moved here in 16 */
#endif

#include "lp_codec.h"
#include "lp_common.h"
#include "lp_format_arg.h"
#include "lp_formats.h"
#include "lp_state.h"

/*
 * A function that never returns: PostgreSQL 18 spells it with the prefix
 * pg_noreturn, older versions with the suffix pg_attribute_noreturn(), which
 * GCC and Clang accept in front of the declaration too.
 */
#ifndef pg_noreturn
#define pg_noreturn pg_attribute_noreturn()
#endif

/* Values of logp95.on_malformed. */
typedef enum
{
	LOGP95_MALFORMED_ERROR,		/* raise an ERROR (the default) */
	LOGP95_MALFORMED_SKIP		/* count the line and go on */
} Logp95OnMalformed;

/* logp95.on_malformed (registered in _PG_init; read by logp95_agg.c only). */
extern int	logp95_on_malformed;

/* logp95.prefetch_distance, bytes (0: off; read by logp95_agg.c only). */
extern int	logp95_prefetch_distance;

/*
 * An allocator for the plain C units that draws from memory context `cxt`
 * (with its few bytes of bookkeeping), for one state: it counts what the
 * state holds and raises 54000 past logp95.max_state_memory.
 */
extern lp_allocator logp95_allocator(MemoryContext cxt);

/*
 * Turn a result code of the plain C units (LP_*) into an ERROR: each its
 * own SQLSTATE, XX001 only for corrupt input; an unknown code is a bug.
 */
extern void logp95_check(int rc);

/* A copy of at most 200 bytes of s for an error message, cut on a character boundary. */
extern char *logp95_quote(const char *s, size_t len);

/* errdetail "The line was "...".", quoting the line; for use inside ereport. */
extern int	logp95_errdetail_line(const char *line, size_t len);

/* A logp95_state datum holding a copy of the encoded bytes buf[0 .. len). */
extern bytea *logp95_make_datum(const uint8 *buf, size_t len);

/*
 * A format argument as last read at one call site: its entry, the
 * argument it was given as, and what the call needed of it.  A name is
 * an entry of lp_formats[]; "name@offset" and a definition ("nginx:",
 * "apache:", "json:") are built once in `custom`, which then holds the
 * compiled program or spec the parser reads (lp_format_arg.h).  Zeroed:
 * nothing read yet.
 */
typedef struct Logp95FormatCache
{
	const lp_format_def *format;	/* the format: a table entry or &custom->def */
	unsigned	need;			/* the LP_HAS_* it was checked for */
	int			len;			/* length of name */
	int			cap;			/* bytes at name */
	char	   *name;			/* the argument as given (in the call site's context) */
	lp_custom_format *custom;	/* a built format, allocated on first need, or NULL */
} Logp95FormatCache;

/*
 * The format named by text t for a call that needs the LP_HAS_* fields
 * `need`, resolved (lp_format_resolve, a definition compiled) only when t
 * or need differ from what the cache holds, in memory context cxt (the
 * call site's); ERROR 22023 when t names no format, or one without what
 * the call needs.
 */
extern const lp_format_def *logp95_format_cached(Logp95FormatCache *cache, text *t,
												 unsigned need, MemoryContext cxt);

/*
 * The format named by text argument argno for a call that needs `need`,
 * with a Logp95FormatCache in the call site's fn_extra: resolved on the
 * first call (and again only if the argument changes); ERROR 22023 as
 * logp95_format_cached.
 */
extern const lp_format_def *logp95_format_arg(FunctionCallInfo fcinfo, int argno, unsigned need);

/* Open stored state `st` for reading into *r; ERROR XX001 when it is corrupt. */
extern void logp95_reader_open(bytea *st, lp_reader *r);

/*
 * The next route of a state opened by logp95_reader_open: true with *rv,
 * false at the end; ERROR XX001 when corrupt.  Runs CHECK_FOR_INTERRUPTS
 * on every call, so loops over the routes need none of their own.
 */
extern bool logp95_reader_next(lp_reader *r, lp_route_view *rv);

/*
 * Fill one result row (`values` and `nulls`, as many as the result has
 * columns; nulls come in all false) from route *rv; `arg` is the caller's.
 * It runs in a memory context reset once the row is stored: what it
 * allocates lasts for that row only.
 */
typedef void (*logp95_row_fn) (const lp_route_view *rv, Datum *values,
							   bool *nulls, void *arg);

/* Most columns a row of logp95_route_rows may have. */
#define LOGP95_ROW_MAX 8

/*
 * The body of a set-returning function with one row per route of `st`:
 * materialize the result (InitMaterializedSRF), and for every route in
 * order put the row that `fill` makes, holding one row's memory at a time.
 * Returns what the function returns.
 */
extern Datum logp95_route_rows(FunctionCallInfo fcinfo, bytea *st,
							   logp95_row_fn fill, void *arg);

/*
 * The instant of a line of format `fmt` (the time logp95_line_ts gives,
 * in UTC): read by the entry's reader, or for a format without one
 * (presets, definitions) from its parse (lp_result_ts), the format's
 * offset applied to a time written without one; false when the line has
 * none that is well formed (logp95_ts.c).  Never an error.
 */
extern bool logp95_line_instant(const lp_format_def *fmt, const char *line, size_t len,
								Timestamp *out);

/* The format called name[0 .. len) in lp_formats[]; ERROR 22023 when unknown. */
extern const lp_format_def *logp95_format_named(const char *name, int len);

#endif							/* LOGP95_H */
