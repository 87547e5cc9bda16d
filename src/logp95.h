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

/* Longest format name a Logp95FormatCache holds (every known name is shorter). */
#define LOGP95_FORMAT_NAME_MAX 32

/*
 * A format argument as last read at one call site: its entry in
 * lp_formats[] and the name it was given as.  Zeroed: nothing read yet.
 */
typedef struct Logp95FormatCache
{
	const lp_format_def *format;	/* the format's entry in lp_formats[] */
	int			len;			/* length of name */
	char		name[LOGP95_FORMAT_NAME_MAX];	/* the format's name as given */
} Logp95FormatCache;

/*
 * The format named by text t, looked up in lp_formats[] only when t differs
 * from the name the cache holds; ERROR 22023 when unknown.
 */
extern const lp_format_def *logp95_format_cached(Logp95FormatCache *cache, text *t);

/*
 * The format named by text argument argno, with a Logp95FormatCache in the
 * call site's fn_extra: looked up on the first call (and again only if the
 * name changes); ERROR 22023 when unknown.
 */
extern const lp_format_def *logp95_format_arg(FunctionCallInfo fcinfo, int argno);

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
 * The instant of a line of format `fmt` read by its entry's reader (the
 * time logp95_line_ts gives, in UTC), or false when the line has none that
 * is well formed (logp95_ts.c).  Never an error, so that no line a server
 * writes can make an INSERT or COPY into a table indexed on
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
