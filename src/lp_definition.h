/* src/lp_definition.h -- nginx log_format and Apache LogFormat definitions: compiled once, then lines parsed by them (plain C) */
#ifndef LP_DEFINITION_H
#define LP_DEFINITION_H

#include "lp_format.h"
#include "lp_token.h"

/*
 * A definition is the text a server's configuration gives its log format
 * (nginx: what follows the format's name in log_format; Apache, lighttpd
 * accesslog.format, varnishncsa -F: the format string).  It is compiled
 * once into a program: the literal text the lines carry between their
 * fields, and one step per field saying how its end is found and what it
 * holds.  A line is then parsed by walking the steps; see
 * docs/formats.md, "nginx and Apache definitions", for the rules as users
 * read them.
 *
 * A definition is user input: compiling one takes time linear in its
 * length, bounded by the limits below, and an error names the byte of the
 * definition it is about.  Parsing a line takes time linear in the line
 * (times the longest literal, LP_DEF_MAX_LITERAL at most) and never reads
 * outside it.
 */

/* Limits of a definition. */
#define LP_DEF_MAX_LEN		4096	/* bytes of definition text */
#define LP_DEF_MAX_FIELDS	128		/* fields ($variables, %directives) */
#define LP_DEF_MAX_LITERAL	256		/* bytes of literal text between two fields */

/* The configuration language a definition is written in. */
typedef enum lp_def_dialect
{
	LP_DEF_NGINX = 0,			/* nginx log_format (after the format's name) */
	LP_DEF_APACHE				/* Apache LogFormat, lighttpd accesslog.format, varnishncsa -F */
} lp_def_dialect;

/* Outcome of compiling a definition. */
typedef enum lp_def_status
{
	LP_DEF_OK = 0,
	LP_DEF_SYNTAX,				/* not well formed: an unterminated quote or %{, a $ or % with no name */
	LP_DEF_UNKNOWN,				/* an unknown directive, escape= value or %{...} argument */
	LP_DEF_AMBIGUOUS,			/* two fields with nothing between them: where the first ends is unknown */
	LP_DEF_TOO_BIG,				/* past LP_DEF_MAX_LEN, LP_DEF_MAX_FIELDS or LP_DEF_MAX_LITERAL */
	LP_DEF_NO_LATENCY,			/* the call needs a latency and the format has none */
	LP_DEF_NO_ROUTE,			/* the call needs a route and the format has none */
	LP_DEF_NO_TIME,				/* the call needs a time and the format has none */
	LP_DEF_NO_HOST				/* the call keys routes by host and the format has none */
} lp_def_status;

/*
 * A compile error: the byte of the definition it is about (0-based, in
 * the text given to lp_definition_compile) and what is wrong with it, for
 * the glue's 22023 ("invalid ... at position N: message", hint).
 */
typedef struct lp_def_error
{
	lp_def_status status;		/* LP_DEF_OK when there is no error */
	size_t		pos;			/* byte offset in the definition */
	char		message[192];	/* lower case, no period: "unknown directive \"%Z\"" */
	const char *hint;			/* a full sentence, or NULL */
} lp_def_error;

/* How a step finds where its field ends (lp_def_step.scan). */
typedef enum lp_def_scan
{
	LP_SCAN_LITERAL = 0,		/* at the first occurrence of the literal after it */
	LP_SCAN_QUOTED,				/* between quotes: at the first unescaped '"' the literal follows */
	LP_SCAN_LIST,				/* an nginx upstream list ("a, b : c"), then the literal */
	LP_SCAN_TAIL				/* the last field: up to the literal the line ends with */
} lp_def_scan;

/* What a line's field is to the parser (lp_def_step.role); LP_ROLE_NONE: skipped. */
typedef enum lp_def_role
{
	LP_ROLE_NONE = 0,
	LP_ROLE_REQUEST,			/* the request line: route and method */
	LP_ROLE_TARGET,				/* a request target alone ($request_uri, %U%q): route */
	LP_ROLE_METHOD,				/* the method */
	LP_ROLE_STATUS,				/* the status */
	LP_ROLE_LATENCY,			/* the latency (prog->unit; a list when prog->latency_list) */
	LP_ROLE_TIME,				/* the time (prog->time_kind) */
	LP_ROLE_HOST,				/* the virtual host */
	LP_ROLE_COUNT
} lp_def_role;

/* One field of a compiled definition. */
typedef struct lp_def_step
{
	uint16_t	lit_off;		/* the literal after the field: prog->lits[lit_off ..] */
	uint16_t	lit_len;		/* its length (0 only for the last field) */
	uint16_t	def_pos;		/* the field's byte offset in the definition */
	uint8_t		scan;			/* lp_def_scan */
	uint8_t		role;			/* lp_def_role */
	uint8_t		blanks;			/* blanks inside the field, skipped before the literal is looked for */
	uint8_t		quoted;			/* 1: between '"' (the literals around it end and start so) */
	uint8_t		unused[2];
} lp_def_step;

/*
 * A compiled definition.  Fixed size (about 5 kB), so that the caller
 * allocates it where it keeps things (the glue: fn_extra); compiled once,
 * read-only afterwards, so one program may parse lines in any number of
 * threads at once.  The fields after `steps` say what the lines carry.
 */
typedef struct lp_def_program
{
	uint16_t	nsteps;			/* fields */
	uint16_t	lead_len;		/* the literal before the first field: lits[0 .. lead_len) */
	uint16_t	lits_len;		/* bytes of lits in use */
	uint8_t		dialect;		/* lp_def_dialect */
	uint8_t		escape;			/* lp_escape: how the server escapes its fields */
	uint8_t		latency_list;	/* 1: the latency is an nginx upstream list */
	uint8_t		unit;			/* lp_unit of the latency (LP_UNIT_NONE: no latency) */
	uint8_t		time_kind;		/* lp_time_kind of the time (LP_TIME_NONE: no time) */
	uint8_t		method_explicit;	/* 1: a method field ($request_method, %m), else from the request */
	unsigned	has;			/* LP_HAS_* of the fields the lines carry */
	unsigned	roles;			/* bit r set: a step has role r (lp_def_role) */
	int			offset_sec;		/* the UTC offset of a time written without one (seconds east) */
	lp_def_step steps[LP_DEF_MAX_FIELDS];
	char		lits[LP_DEF_MAX_LEN];	/* every literal, one after the other */
} lp_def_program;

/*
 * Compile the definition def[0..len) of `dialect` into *prog.  need: the
 * LP_HAS_* fields the call needs (LP_HAS_ROUTE | LP_HAS_LATENCY for the
 * aggregate, LP_HAS_TIME for logp95_line_ts, LP_HAS_HOST with the host
 * option, 0 for logp95_parse); a format without one of them is an error
 * (with a hint naming the variable or directive to add).  offset_sec: the
 * UTC offset of a time the lines write without one (the format string's
 * "@+01:00", read by the caller).  Returns LP_DEF_OK, or the error also
 * described in *err.
 */
extern lp_def_status lp_definition_compile(lp_def_dialect dialect, const char *def, size_t len,
										   unsigned need, int offset_sec,
										   lp_def_program *prog, lp_def_error *err);

/*
 * Parse one line by a program, with the call's options in ctx (NULL:
 * none; ctx->buf as lp_format.h says).  One trailing '\r' is dropped.
 * The fields are matched between the definition's literals from left to
 * right, each ending at the first place its following literal matches
 * (a quoted field at its first unescaped '"' the literal follows, a
 * time's blanks and an upstream list's separators skipped first); there
 * is no backtracking.  Returns LP_ST_OK, or why the line is malformed:
 *   LP_ST_TOO_FEW_FIELDS    a literal was not found: nwant = the
 *                           program's fields, nfields = those matched
 *   LP_ST_UNTERMINATED      a quoted field has no closing quote
 *   LP_ST_NOT_HTTP, LP_ST_BAD_REQUEST   the request (bad = it)
 *   LP_ST_BAD_SECONDS, LP_ST_BAD_MICROS, LP_ST_BAD_LATENCY,
 *   LP_ST_REQTIME_RANGE, LP_ST_LATENCY_RANGE, LP_ST_NO_LATENCY   the latency (bad = it)
 *   LP_ST_BAD_STATUS        the status is not 100..999 (bad = it)
 * out->has names the fields read, also on an error (a line whose request
 * is junk still has its time); the route is built by lp_route_build.
 */
extern lp_status lp_definition_parse(const lp_def_program *prog, const char *line, size_t len,
									 const lp_parse_ctx *ctx, lp_result *out);

#endif							/* LP_DEFINITION_H */
