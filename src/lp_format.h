/* src/lp_format.h -- what every log-format parser shares: its result, its status and message, units and time kinds (plain C) */
#ifndef LP_FORMAT_H
#define LP_FORMAT_H

#include "lp_common.h"
#include "lp_ts.h"

/*
 * The contract between the parsers of every log format (the default and
 * combined formats, compiled nginx and Apache definitions, JSON lines, the
 * presets) and everything that calls them (the aggregate, logp95_parse,
 * logp95_line_time, format detection).  It sits below the parsers: the
 * table of formats (lp_formats.h) sits above them and names each one.
 */

/* ---------- what a line carries ---------- */

/* Fields of a parse result (lp_result.has) and of a format (what its lines carry). */
#define LP_HAS_ROUTE	0x01		/* route, route_len */
#define LP_HAS_LATENCY	0x02		/* latency (milliseconds) */
#define LP_HAS_STATUS	0x04		/* status (the HTTP status as logged) */
#define LP_HAS_METHOD	0x08		/* method, method_len */
#define LP_HAS_TIME		0x10		/* time, time_len (and time2 for LP_TIME_DATE_TIME) */
#define LP_HAS_HOST		0x20		/* host, host_len (the virtual host) */

/* The unit a format logs a latency in; parsers return milliseconds. */
typedef enum lp_unit
{
	LP_UNIT_NONE = 0,			/* no latency */
	LP_UNIT_S,					/* seconds, a decimal fraction allowed (nginx $request_time) */
	LP_UNIT_MS,					/* milliseconds */
	LP_UNIT_US,					/* microseconds (Apache %D) */
	LP_UNIT_NS					/* nanoseconds */
} lp_unit;

/* How a format writes its time (what reads lp_result.time). */
typedef enum lp_time_kind
{
	LP_TIME_NONE = 0,			/* no time */
	LP_TIME_ISO8601,			/* 2026-11-07T01:00:00[.fff][Z|+HH:MM|+HHMM] */
	LP_TIME_CLF,				/* 07/Nov/2026:01:00:00 +0100 (between [ and ]) */
	LP_TIME_CLF_MS,				/* 07/Nov/2026:01:00:00.123, no offset (HAProxy) */
	LP_TIME_EPOCH,				/* seconds since 1970, a fraction allowed (nginx $msec) */
	LP_TIME_EPOCH_MS,			/* milliseconds since 1970 */
	LP_TIME_EPOCH_US,			/* microseconds since 1970 */
	LP_TIME_EPOCH_NS,			/* nanoseconds since 1970 */
	LP_TIME_DATE_TIME			/* 2026-11-07 and 01:00:00 in two fields (W3C: IIS, CloudFront) */
} lp_time_kind;

/* ---------- one status for every parser ---------- */

/*
 * Why a line is malformed; LP_ST_OK when it is not.  The message of each
 * is in lp_status_defs[] (lp_format.c), beside its definition here, and
 * says which of lp_result's error fields it quotes.
 */
typedef enum lp_status
{
	LP_ST_OK = 0,				/* route and latency were found */
	LP_ST_TOO_FEW_FIELDS,		/* fewer fields than the format has (nwant, nfields) */
	LP_ST_BAD_LATENCY,			/* the latency is not a plain integer (bad) */
	LP_ST_LATENCY_RANGE,		/* the latency does not fit in bigint (bad) */
	LP_ST_NO_TIME,				/* no "[...]" time field after the client address */
	LP_ST_NO_REQUEST,			/* no quoted request after the time */
	LP_ST_BAD_REQUEST,			/* the request is "-" or has no path (bad) */
	LP_ST_UNTERMINATED,			/* a quoted field has no closing quote */
	LP_ST_TOO_FEW_TAIL_FIELDS,	/* too few fields after the request (nwant, nfields) */
	LP_ST_BAD_SECONDS,			/* the latency is not a number of seconds (bad) */
	LP_ST_BAD_MICROS,			/* the latency is not an integer of microseconds (bad) */
	LP_ST_REQTIME_RANGE,		/* the latency does not fit in bigint ms (bad) */
	LP_ST_NOT_HTTP,				/* the request is not an HTTP request (bad) */
	LP_ST_NO_LATENCY,			/* a response without a latency: "-", ALB's -1 (bad) */
	LP_ST_BAD_STATUS,			/* the status is not three digits (bad) */
	LP_ST_NOT_JSON,				/* the line is not one JSON object (bad: where it stops) */
	LP_ST_NO_FIELD,				/* a field the format needs is missing (bad: its name) */
	LP_ST_BAD_FIELD,			/* a field is not as the format says (bad: the field) */
	LP_ST_DIRECTIVE,			/* a W3C header line ("#Fields: ..."), not an entry:
								 * callers skip it like a NULL line (bad: the line) */
	LP_ST_COUNT					/* number of statuses */
} lp_status;

/* What a status's message quotes. */
typedef enum lp_status_arg
{
	LP_SARG_NONE = 0,			/* nothing */
	LP_SARG_BAD,				/* "%s": the bad field (the caller quotes and cuts it) */
	LP_SARG_COUNTS				/* "%d ... %d": nwant, then nfields */
} lp_status_arg;

/* A status's message, a printf format, and what it takes. */
typedef struct lp_status_def
{
	const char *message;		/* e.g. "malformed log line: request \"%s\" has no path" */
	lp_status_arg arg;			/* what %s or %d take */
} lp_status_def;

/* The message of every status, indexed by lp_status (lp_format.c). */
extern const lp_status_def lp_status_defs[LP_ST_COUNT];

/* ---------- the result of parsing one line ---------- */

/*
 * Slices point into the line, or into the caller's scratch buffer for a
 * route that had to be built (unescaped, templated, prefixed with the
 * host).  Only the fields named in `has` are set; on a status other than
 * LP_ST_OK, bad/nwant/nfields say what the message quotes.
 */
typedef struct lp_result
{
	unsigned	has;			/* LP_HAS_* of the fields found */
	const char *route;			/* the route: path without query unless kept */
	size_t		route_len;
	int64_t		latency;		/* milliseconds, >= 0, rounded half up */
	int			status;			/* the HTTP status as logged (100..999) */
	const char *method;			/* the request method */
	size_t		method_len;
	const char *time;			/* the time text (fmt's lp_time_kind) */
	size_t		time_len;
	const char *time2;			/* LP_TIME_DATE_TIME: the time-of-day field */
	size_t		time2_len;
	const char *host;			/* the virtual host */
	size_t		host_len;
	const char *bad;			/* on an error: the field it is about, or NULL */
	size_t		bad_len;
	int			nwant;			/* LP_ST_TOO_FEW_*: fields wanted */
	int			nfields;		/* LP_ST_TOO_FEW_*: fields found */
} lp_result;

/*
 * Per-call options every parser honours (LP_OPT_* in lp_options.h, the
 * malformed policy, are the caller's business).
 */
#define LP_PARSE_KEEP_QUERY	0x01	/* the query string stays in the route */
#define LP_PARSE_TEMPLATES	0x04	/* fold ids in the route's path into :id, :uuid, :hex */
#define LP_PARSE_HOST		0x20	/* key routes by host too: "example.com/login" */
#define LP_PARSE_UNESCAPE	0x40	/* undo the log's escaping in the route (built-in formats; always on for definitions and presets) */

/* What a parser gets besides the line. */
typedef struct lp_parse_ctx
{
	unsigned	flags;			/* LP_PARSE_* */
	char	   *buf;			/* scratch for a built route: LP_ROUTE_BUF_SIZE(len) bytes, or NULL */
} lp_parse_ctx;

/* ---------- a format: the entry that carries its behaviour ---------- */

/*
 * A format is one entry, lp_format_def, the way PostgreSQL's copyapi.h
 * gives each COPY format one struct of callbacks: what its lines carry
 * (fields, latency unit, time), how to parse them (a parser for any line,
 * and for the usual line a direct one), what callers may do with it
 * (generate it, name it in a hint, detect it).  The table of the formats
 * logp95 knows, lp_formats[], sits above the parsers (lp_formats.h); the
 * entry's type sits here, below them, so that a parser reads its entry
 * without including the table.
 */
typedef struct lp_format_def lp_format_def;

/* The parser families (lp_format_def.family): which unit parses the lines. */
typedef enum lp_family
{
	LP_FAMILY_DEFAULT = 0,		/* "<timestamp> <method> <route> <latency_ms>" (lp_default.c) */
	LP_FAMILY_COMBINED,			/* nginx's combined + a request time (lp_combined.c) */
	LP_FAMILY_PRESET,			/* a vendor's fixed layout: haproxy, alb... (lp_presets.c) */
	LP_FAMILY_DEFINITION,		/* an nginx or Apache definition (lp_definition.c; data: its program) */
	LP_FAMILY_JSON				/* JSON lines (lp_json.c; data: the compiled spec) */
} lp_family;

/*
 * Parse one line of format `fmt` with the options of `ctx` (NULL: none):
 * LP_ST_OK with the route and latency in *out, or why the line is
 * malformed with what the status's message quotes.  The route points into
 * the line, or into ctx->buf when it was built.
 */
typedef lp_status (*lp_line_parser) (const char *line, size_t len,
									 const lp_format_def *fmt,
									 const lp_parse_ctx *ctx, lp_result *out);

/* What a direct parser gives: the route, a slice of the line, and the latency. */
typedef struct lp_row
{
	const char *route;			/* the route, inside the line */
	size_t		route_len;
	int64_t		latency;		/* milliseconds, >= 0 */
	const char *time;			/* the time field the entry's read_ts reads
								 * (its lp_time_kind), inside the line, or
								 * NULL when the direct parser does not say */
	size_t		time_len;
	/* only from the parsers of lp_format_direct_fields (lp_formats.h): */
	int			status;			/* the HTTP status as logged, 0 when none */
	const char *method;			/* the request method, NULL when none */
	size_t		method_len;
} lp_row;

/*
 * A direct per-row parser, for the usual line at the aggregate's speed:
 * 1 with *out when the line counts as it stands (its route a slice of the
 * line), 0 otherwise (a malformed line, or one whose route must be built):
 * the entry's parser then decides.  For every line it counts it finds the
 * route and latency the entry's parser finds.  flags: the entry's pflags
 * with the call's LP_PARSE_KEEP_QUERY (lp_format_direct, lp_formats.h).
 */
typedef int (*lp_direct_fn) (const char *line, size_t len, unsigned flags, lp_row *out);

/* Read the timestamp of one line (out->text set whenever a field was found). */
typedef lp_ts_status (*lp_ts_reader) (const char *line, size_t len, lp_ts *out);

/* What callers may do with a format (lp_format_def.flags). */
#define LP_FMT_GENERATE		0x01	/* logp95_generate writes it (lp_gen.h) */
#define LP_FMT_HINT			0x02	/* a malformed default line that reads as it is told to pass it */
#define LP_FMT_LOCAL_TIME	0x04	/* its lines write times without a UTC offset:
									 * "name@+05:30" names one (UTC without) */
#define LP_FMT_SHORT_PATH	0x08	/* its direct parser counts every line that
									 * lp_parse_line_short (lp_parse.h) reads the
									 * same: a caller may count those inline */

/*
 * The options that may make a parser build a route in ctx->buf, besides
 * LP_PARSE_KEEP_QUERY: a direct parser takes none of them.
 */
#define LP_PARSE_BUILD		(LP_PARSE_TEMPLATES | LP_PARSE_HOST | LP_PARSE_UNESCAPE)

/*
 * Return every field the format has (method, status, time: logp95_parse),
 * not only the route and the latency the aggregate needs, also for a line
 * that is malformed.
 */
#define LP_PARSE_FIELDS		0x100

/* One log format. */
struct lp_format_def
{
	const char *name;			/* the name SQL callers give, e.g. "combined" */
	lp_family	family;			/* the unit that parses its lines */
	lp_unit		unit;			/* the unit its lines log the latency in */
	unsigned	has;			/* LP_HAS_* of the fields its parser returns
								 * (with LP_PARSE_FIELDS: route and latency always) */
	lp_time_kind time_kind;		/* how its lines write their time */
	lp_ts_reader read_ts;		/* reads that time from a line (logp95_line_ts);
								 * NULL: the parser's lp_result.time, read by
								 * lp_result_ts (lp_time.h) */
	lp_line_parser parse;		/* parses any line: the route, or why it is malformed */
	const lp_direct_fn *direct; /* one direct parser per lp_isa (lp_simd.h), or NULL */
	unsigned	pflags;			/* flags its parsers are given: LP_PARSE_KEEP_QUERY (a
								 * _query format), its family's own (LP_C_MICROS) */
	unsigned	flags;			/* LP_FMT_*: what callers may do with it */
	int			detect;			/* its place in detection order, 1 first; 0: never */
	const void *data;			/* what its parser reads besides the line: a compiled
								 * definition or JSON spec (lp_format_arg.h), or NULL */
	int			offset_sec;		/* UTC offset (seconds east) of a time written
								 * without one: "name@+01:00" (0: UTC) */
};

/* Scratch a route built from a line of len bytes may need. */
#define LP_ROUTE_BUF_SIZE(len) (2 * (size_t) (len) + 2)

/*
 * Undoing a log's escaping (lp_token.h, lp_unescape) can give bytes that
 * are not valid in the database encoding, which only the glue can check:
 * a parser that decoded a byte >= 0x80 into the route says so in
 * lp_result.has, and the glue, when the route is not valid, parses the
 * line again with LP_PARSE_LOGGED to count it under its logged form.
 */
#define LP_HAS_ROUTE_HIGH	0x40	/* lp_result.has: unescaping put a byte >= 0x80 in the route */
#define LP_PARSE_LOGGED		0x80	/* keep the route as logged: no unescaping (the retry above) */

#endif							/* LP_FORMAT_H */
