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
#include "lp_ts.h"

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

/* logp95.prefetch_distance, bytes (0: off; -1: two rows by the row's size, at least 512 bytes; read by logp95_count.h only). */
extern int	logp95_prefetch_distance;

/*
 * An allocator for the plain C units that draws from memory context `cxt`
 * (with its few bytes of bookkeeping), for one state: it counts what the
 * state holds and raises 54000 past logp95.max_state_memory.
 */
extern lp_allocator logp95_allocator(MemoryContext cxt);

/*
 * logp95_allocator for a running state: its blocks of a power of two from
 * 256 bytes are the backend's retained blocks (logp95.retained_memory, see
 * logp95.c), taken from and given back to free lists that outlive the
 * query, so that the next state does not fault their pages in again.  Not
 * for memory handed to PostgreSQL (a datum), nor for a state whose memory
 * PostgreSQL must see (logp95_may_retain).
 */
extern lp_allocator logp95_allocator_retaining(MemoryContext cxt);

/*
 * May a state made in this call retain its blocks: not in a hashed
 * aggregate, which counts its groups' memory in the aggregate's context to
 * decide when to spill.
 */
extern bool logp95_may_retain(FunctionCallInfo fcinfo);

/*
 * Turn a result code of the plain C units (LP_*) into an ERROR: each its
 * own SQLSTATE, XX001 only for corrupt input; an unknown code is a bug.
 */
extern void logp95_check(int rc);

/* A copy of at most 200 bytes of s for an error message, cut on a character boundary. */
extern char *logp95_quote(const char *s, size_t len);

/* errdetail "The line was "...".", quoting the line; for use inside ereport. */
extern int	logp95_errdetail_line(const char *line, size_t len);

/*
 * Lines given as bytea (logp95_agg(bytea, ...), logp95_line_time(bytea,
 * ...), logp95_parse(bytea, ...)) may hold bytes that are not text in the
 * database encoding: a route, method or quoted line made of such bytes
 * keeps its valid characters and writes every other byte as \xHH (two
 * lower-case hex digits), the form nginx's default log escaping writes.
 * A NUL byte is never valid text.
 */
#define LOGP95_ESCAPE_RATIO 4	/* bytes \xHH takes per byte escaped */

/* Are s[0 .. len) valid text in the database encoding (no NUL byte)? */
extern bool logp95_bytes_valid(const char *s, size_t len);

/*
 * Write s[0 .. len) to out with every byte that is not part of a valid
 * character written as \xHH; out holds LOGP95_ESCAPE_RATIO * len bytes.
 * Returns the bytes written.
 */
extern size_t logp95_bytes_escape(const char *s, size_t len, char *out);

/*
 * s itself when s[0 .. len) is valid text, else a palloc'd, NUL-terminated
 * escaped copy (logp95_bytes_escape); *outlen is its length.
 */
extern const char *logp95_bytes_text(const char *s, size_t len, size_t *outlen);

/* A logp95_state datum holding a copy of the encoded bytes buf[0 .. len). */
extern bytea *logp95_make_datum(const uint8 *buf, size_t len);

/*
 * One format argument a call site has read: its entry, the argument it
 * was given as, and what the call needed of it.  A name is an entry of
 * lp_formats[]; "name@offset" and a definition ("nginx:", "apache:",
 * "json:") are built in `custom`, which then holds the compiled program
 * or spec the parser reads (lp_format_arg.h).  Zeroed: empty.
 */
typedef struct Logp95FormatSlot
{
	const lp_format_def *format;	/* the format: a table entry or &custom->def */
	unsigned	need;			/* the LP_HAS_* it was checked for */
	int			len;			/* length of name */
	int			cap;			/* bytes at name */
	char	   *name;			/* the argument as given (in the call site's context) */
	lp_custom_format *custom;	/* room for a built format, allocated on first need */
} Logp95FormatSlot;

/* How many distinct format arguments a call site keeps resolved. */
#define LOGP95_FORMAT_SLOTS 4

/*
 * The format arguments of one call site: the last one read first, then
 * up to LOGP95_FORMAT_SLOTS distinct ones, so that a column of formats
 * that alternate compiles each definition once (a fifth replaces the
 * oldest).  Zeroed: nothing read yet.
 */
typedef struct Logp95FormatCache
{
	const lp_format_def *format;	/* the format of the last argument read */
	int			last;			/* its slot */
	int			next;			/* the slot the next new argument takes */
	Logp95FormatSlot slots[LOGP95_FORMAT_SLOTS];
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
 * none that is well formed (logp95_ts.c).  Never an error, so that no
 * line a server writes can make an INSERT or COPY into a table indexed on
 * logp95_line_ts, or one with a rollup, fail.
 */
extern bool logp95_line_instant(const lp_format_def *fmt, const char *line, size_t len,
								Timestamp *out);

/* The format called name[0 .. len) in lp_formats[]; ERROR 22023 when unknown. */
extern const lp_format_def *logp95_format_named(const char *name, int len);

/*
 * A parsed timestamp as a PostgreSQL timestamp: the offset is subtracted
 * (UTC).  False when the instant falls outside years 0001 to 9999 in UTC.
 */
extern bool logp95_ts_value(const lp_ts *t, Timestamp *out);

#endif							/* LOGP95_H */
