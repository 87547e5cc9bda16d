/* src/lp_definition.c -- nginx log_format and Apache LogFormat definitions: compiled once, then lines parsed by them (plain C) */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <strings.h>

#include "lp_definition.h"

/* Out of line even where the compiler would inline: the walk's rare paths. */
#if defined(__GNUC__)
#define LP_DEF_NOINLINE __attribute__((noinline))
#define LP_DEF_COLD __attribute__((cold))
#define LP_DEF_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define LP_DEF_NOINLINE
#define LP_DEF_COLD
#define LP_DEF_PRINTF(f, a)
#endif

/*
 * Compiling.  Each dialect's front end reads the configuration text the
 * way its server does, into the format string with the byte offset in the
 * definition of each of its bytes (for error positions), then walks the
 * format string, giving the builder literal bytes and fields.  The builder
 * merges fields the server writes back to back ($uri$is_args$args, %U%q),
 * refuses other fields with nothing between them, keeps one field per
 * role (the route, the latency...: the highest priority, the first on a
 * tie) and writes the steps.
 */

/* What a field of a definition is, before roles are chosen. */
typedef enum lp_def_kind
{
	LP_K_OPAQUE = 0,			/* skipped */
	LP_K_LIST,					/* skipped, but an nginx upstream list ("a, b : c") */
	LP_K_REQUEST,				/* the request line */
	LP_K_TARGET,				/* a request target with its query ($request_uri, %U%q) */
	LP_K_PATH,					/* a path alone ($uri, %U) */
	LP_K_PATH_ISARGS,			/* $uri$is_args, waiting for $args */
	LP_K_QUERY,					/* a query string ($args, %q) */
	LP_K_IS_ARGS,				/* nginx $is_args: "?" or nothing */
	LP_K_METHOD,
	LP_K_STATUS,
	LP_K_LATENCY,
	LP_K_TIME,
	LP_K_HOST
} lp_def_kind;

/* One field while a definition is compiled. */
typedef struct lp_def_field
{
	uint8_t		kind;			/* lp_def_kind */
	uint8_t		prio;			/* among the fields of its role the highest wins, the first on a tie */
	uint8_t		unit;			/* LP_K_LATENCY: lp_unit */
	uint8_t		list;			/* LP_K_LATENCY: an upstream list */
	uint8_t		time_kind;		/* LP_K_TIME: lp_time_kind */
	uint8_t		blanks;			/* blanks inside the field */
	uint16_t	pos;			/* its offset in the definition */
	uint16_t	src;			/* its text in the format string (for messages) */
	uint16_t	src_len;
	uint16_t	lit_off;		/* the literal after it, in prog->lits */
	uint16_t	lit_len;
} lp_def_field;

/* The compiler's state. */
typedef struct lp_def_build
{
	lp_def_program *prog;
	lp_def_error *err;
	const char *fmt;			/* the format string being read */
	const uint16_t *fpos;		/* the definition offset of each of its bytes */
	size_t		lit_start;		/* where the literal being read starts in prog->lits */
	int			nf;				/* fields so far */
	lp_def_field f[LP_DEF_MAX_FIELDS];
} lp_def_build;

/* Record error `st` at definition offset pos; the message from fmt. */
static lp_def_status
lp_def_fail(lp_def_error *err, lp_def_status st, size_t pos, const char *hint, const char *fmt,...)
			LP_DEF_PRINTF(5, 6);

static lp_def_status
lp_def_fail(lp_def_error *err, lp_def_status st, size_t pos, const char *hint, const char *fmt,...)
{
	va_list		ap;

	err->status = st;
	err->pos = pos;
	err->hint = hint;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return st;
}

/* Append literal byte c (from definition offset pos). */
static lp_def_status
lp_def_lit(lp_def_build *b, char c, size_t pos)
{
	lp_def_program *prog = b->prog;

	if (prog->lits_len >= LP_DEF_MAX_LEN)
		return lp_def_fail(b->err, LP_DEF_TOO_BIG, pos, NULL,
						   "the literal text passes %d bytes", LP_DEF_MAX_LEN);
	if (prog->lits_len - b->lit_start >= LP_DEF_MAX_LITERAL)
		return lp_def_fail(b->err, LP_DEF_TOO_BIG, pos, NULL,
						   "more than %d bytes of literal text between two fields",
						   LP_DEF_MAX_LITERAL);
	prog->lits[prog->lits_len++] = c;
	return LP_DEF_OK;
}

/* Close the literal being read: it follows the last field, or leads the line. */
static void
lp_def_close_literal(lp_def_build *b)
{
	size_t		n = b->prog->lits_len - b->lit_start;

	if (b->nf == 0)
		b->prog->lead_len = (uint16_t) n;
	else
	{
		b->f[b->nf - 1].lit_off = (uint16_t) b->lit_start;
		b->f[b->nf - 1].lit_len = (uint16_t) n;
	}
	b->lit_start = b->prog->lits_len;
}

/* Is a field of kind k skipped whatever it holds (merged with a neighbour)? */
static inline int
lp_def_skipped(int k)
{
	return k == LP_K_OPAQUE || k == LP_K_QUERY || k == LP_K_IS_ARGS;
}

/*
 * Add field f (text fmt[src .. src + src_len)).  With no literal since
 * the field before, the two are one field to the line: a path and its
 * query make a target, skipped fields make one; anything else is
 * ambiguous.
 */
static lp_def_status
lp_def_field_add(lp_def_build *b, lp_def_field f)
{
	if (b->nf > 0 && b->prog->lits_len == b->lit_start)
	{
		lp_def_field *prev = &b->f[b->nf - 1];

		if (prev->kind == LP_K_PATH && f.kind == LP_K_IS_ARGS)
			prev->kind = LP_K_PATH_ISARGS;
		else if ((prev->kind == LP_K_PATH && f.kind == LP_K_QUERY) ||
				 (prev->kind == LP_K_PATH_ISARGS && f.kind == LP_K_QUERY))
		{
			prev->kind = LP_K_TARGET;
			prev->prio = 1;
		}
		else if (lp_def_skipped(prev->kind) && lp_def_skipped(f.kind))
			prev->kind = LP_K_OPAQUE;
		else
			return lp_def_fail(b->err, LP_DEF_AMBIGUOUS, f.pos, NULL,
							   "\"%.*s\" follows \"%.*s\" with nothing between them",
							   (int) f.src_len, b->fmt + f.src, (int) prev->src_len,
							   b->fmt + prev->src);
		prev->src_len = (uint16_t) (f.src + f.src_len - prev->src);
		prev->blanks = (uint8_t) (prev->blanks + f.blanks);
		return LP_DEF_OK;
	}
	if (b->nf >= LP_DEF_MAX_FIELDS)
		return lp_def_fail(b->err, LP_DEF_TOO_BIG, f.pos, NULL,
						   "more than %d fields", LP_DEF_MAX_FIELDS);
	lp_def_close_literal(b);
	b->f[b->nf++] = f;
	return LP_DEF_OK;
}

/* A field of kind k at format offset src (src_len bytes). */
static inline lp_def_field
lp_def_mk(const lp_def_build *b, int kind, int prio, size_t src, size_t src_len)
{
	lp_def_field f;

	memset(&f, 0, sizeof(f));
	f.kind = (uint8_t) kind;
	f.prio = (uint8_t) prio;
	f.pos = b->fpos[src];
	f.src = (uint16_t) src;
	f.src_len = (uint16_t) src_len;
	return f;
}

/* The role a field of kind k plays when chosen. */
static int
lp_def_role_of(int k)
{
	switch (k)
	{
		case LP_K_REQUEST:
			return LP_ROLE_REQUEST;
		case LP_K_TARGET:
		case LP_K_PATH:
		case LP_K_PATH_ISARGS:
			return LP_ROLE_TARGET;
		case LP_K_METHOD:
			return LP_ROLE_METHOD;
		case LP_K_STATUS:
			return LP_ROLE_STATUS;
		case LP_K_LATENCY:
			return LP_ROLE_LATENCY;
		case LP_K_TIME:
			return LP_ROLE_TIME;
		case LP_K_HOST:
			return LP_ROLE_HOST;
	}
	return LP_ROLE_NONE;
}

/* The hints of a missing field, by dialect. */
typedef struct lp_def_hints
{
	const char *latency;
	const char *route;
	const char *time;
	const char *host;
} lp_def_hints;

static const lp_def_hints lp_def_hint[2] = {
	[LP_DEF_NGINX] = {
		"Add $request_time to your log_format.",
		"Add $request (or $request_uri) to your log_format.",
		"Add $time_local, $time_iso8601 or $msec to your log_format.",
		"Add $host to your log_format."
	},
	[LP_DEF_APACHE] = {
		"Add %D (microseconds) or %{ms}T to your LogFormat.",
		"Add %r (or %U) to your LogFormat.",
		"Add %t to your LogFormat.",
		"Add %v to your LogFormat."
	}
};

/*
 * Finish: close the last literal, choose one field per role, write the
 * steps, and check that the call's needs are met (the error at `start`,
 * where the format begins).
 */
static lp_def_status
lp_def_finish(lp_def_build *b, unsigned need, size_t start)
{
	lp_def_program *prog = b->prog;
	int			best[LP_ROLE_COUNT];
	int			i;
	const lp_def_hints *h = &lp_def_hint[prog->dialect];

	lp_def_close_literal(b);
	for (i = 0; i < LP_ROLE_COUNT; i++)
		best[i] = -1;
	for (i = 0; i < b->nf; i++)
	{
		lp_def_field *f = &b->f[i];
		int			role;

		if (f->kind == LP_K_PATH_ISARGS)
			f->kind = LP_K_TARGET;	/* "$uri$is_args" then a literal: a target */
		role = lp_def_role_of(f->kind);
		if (role == LP_ROLE_TARGET)
			role = LP_ROLE_REQUEST; /* one route: the request line or a target */
		if (role != LP_ROLE_NONE && (best[role] < 0 || f->prio > b->f[best[role]].prio))
			best[role] = i;
	}
	prog->nsteps = (uint16_t) b->nf;
	for (i = 0; i < b->nf; i++)
	{
		const lp_def_field *f = &b->f[i];
		lp_def_step *st = &prog->steps[i];
		int			role = lp_def_role_of(f->kind);
		const char *before = i == 0 ? prog->lits : prog->lits + b->f[i - 1].lit_off;
		size_t		before_len = i == 0 ? prog->lead_len : b->f[i - 1].lit_len;
		int			quoted = before_len > 0 && before[before_len - 1] == '"' &&
			f->lit_len > 0 && prog->lits[f->lit_off] == '"';

		memset(st, 0, sizeof(*st));
		st->lit_off = f->lit_off;
		st->lit_len = f->lit_len;
		st->def_pos = f->pos;
		/* a field's blanks matter where the literal after it starts with one */
		st->blanks = f->lit_len > 0 && prog->lits[f->lit_off] == ' ' ? f->blanks : 0;
		if (best[role == LP_ROLE_TARGET ? LP_ROLE_REQUEST : role] != i)
			role = LP_ROLE_NONE;
		st->role = (uint8_t) role;
		if (role != LP_ROLE_NONE)
			prog->roles |= 1u << role;
		if (i == b->nf - 1)
			st->scan = LP_SCAN_TAIL;
		else if (quoted)
			st->scan = LP_SCAN_QUOTED;
		else if (f->kind == LP_K_LIST || (f->kind == LP_K_LATENCY && f->list))
			st->scan = LP_SCAN_LIST;
		else
			st->scan = LP_SCAN_LITERAL;
		st->quoted = (uint8_t) quoted;
		switch (role)
		{
			case LP_ROLE_REQUEST:
				prog->has |= LP_HAS_ROUTE | LP_HAS_METHOD;
				break;
			case LP_ROLE_TARGET:
				prog->has |= LP_HAS_ROUTE;
				break;
			case LP_ROLE_METHOD:
				prog->has |= LP_HAS_METHOD;
				prog->method_explicit = 1;
				break;
			case LP_ROLE_STATUS:
				prog->has |= LP_HAS_STATUS;
				break;
			case LP_ROLE_LATENCY:
				prog->has |= LP_HAS_LATENCY;
				prog->unit = f->unit;
				prog->latency_list = f->list;
				break;
			case LP_ROLE_TIME:
				prog->has |= LP_HAS_TIME;
				prog->time_kind = f->time_kind;
				break;
			case LP_ROLE_HOST:
				prog->has |= LP_HAS_HOST;
				break;
		}
	}
	if ((need & LP_HAS_LATENCY) && !(prog->has & LP_HAS_LATENCY))
		return lp_def_fail(b->err, LP_DEF_NO_LATENCY, start, h->latency,
						   "the format has no latency field");
	if ((need & LP_HAS_ROUTE) && !(prog->has & LP_HAS_ROUTE))
		return lp_def_fail(b->err, LP_DEF_NO_ROUTE, start, h->route,
						   "the format has no request or path field");
	if ((need & LP_HAS_TIME) && !(prog->has & LP_HAS_TIME))
		return lp_def_fail(b->err, LP_DEF_NO_TIME, start, h->time,
						   "the format has no time field");
	if ((need & LP_HAS_HOST) && !(prog->has & LP_HAS_HOST))
		return lp_def_fail(b->err, LP_DEF_NO_HOST, start, h->host,
						   "the format has no host field");
	return LP_DEF_OK;
}

/* ---------- nginx ---------- */

/*
 * nginx (src/http/modules/ngx_http_log_module.c, and
 * https://nginx.org/en/docs/http/ngx_http_log_module.html#log_format):
 *   log_format name [escape=default|json|none] string ...;
 * ngx_http_log_compile_format reads an optional first argument
 * "escape=...", then joins the remaining arguments with nothing between
 * them (each of the quoted pieces of a multi-line log_format is one
 * argument); ngx_conf_read_token has already taken the quotes off and
 * undone \" \' \\ \t \r \n.  In the joined string "$name" or "${name}"
 * (name: letters, digits, '_') is a variable; everything else is copied.
 * A variable other than nginx's own log variables ($time_local,
 * $time_iso8601, $msec, $request_time, $status...) is escaped when
 * written: by default '"', '\' and bytes below 32 or above 126 become
 * \xXX (ngx_http_log_escape, upper-case hex) and a missing value is "-";
 * with escape=json '"' and '\' get a backslash, bytes below 32 become
 * \n \r \t \b \f or \u00XX (ngx_escape_json) and a missing value is
 * empty; with escape=none nothing is escaped.
 */

/* An nginx variable logp95 reads (every other is a skipped field). */
typedef struct lp_ngx_var
{
	const char *name;
	uint8_t		kind;			/* lp_def_kind */
	uint8_t		prio;
	uint8_t		unit;			/* latency */
	uint8_t		list;			/* an upstream list */
	uint8_t		time_kind;		/* time */
	uint8_t		blanks;			/* blanks in its value */
} lp_ngx_var;

static const lp_ngx_var lp_ngx_vars[] = {
	{"request", LP_K_REQUEST, 3, 0, 0, 0, 0},
	{"request_uri", LP_K_TARGET, 2, 0, 0, 0, 0},
	{"uri", LP_K_PATH, 1, 0, 0, 0, 0},
	{"document_uri", LP_K_PATH, 1, 0, 0, 0, 0},
	{"args", LP_K_QUERY, 0, 0, 0, 0, 0},
	{"query_string", LP_K_QUERY, 0, 0, 0, 0, 0},
	{"is_args", LP_K_IS_ARGS, 0, 0, 0, 0, 0},
	{"request_method", LP_K_METHOD, 1, 0, 0, 0, 0},
	{"status", LP_K_STATUS, 1, 0, 0, 0, 0},
	{"request_time", LP_K_LATENCY, 2, LP_UNIT_S, 0, 0, 0},
	{"upstream_response_time", LP_K_LATENCY, 1, LP_UNIT_S, 1, 0, 0},
	/* the other upstream lists ($upstream_addr: "a:80, b:80 : c:80") */
	{"upstream_addr", LP_K_LIST, 0, 0, 0, 0, 0},
	{"upstream_bytes_received", LP_K_LIST, 0, 0, 0, 0, 0},
	{"upstream_bytes_sent", LP_K_LIST, 0, 0, 0, 0, 0},
	{"upstream_connect_time", LP_K_LIST, 0, 0, 0, 0, 0},
	{"upstream_header_time", LP_K_LIST, 0, 0, 0, 0, 0},
	{"upstream_queue_time", LP_K_LIST, 0, 0, 0, 0, 0},
	{"upstream_response_length", LP_K_LIST, 0, 0, 0, 0, 0},
	{"upstream_status", LP_K_LIST, 0, 0, 0, 0, 0},
	{"time_local", LP_K_TIME, 1, 0, 0, LP_TIME_CLF, 1},
	{"time_iso8601", LP_K_TIME, 1, 0, 0, LP_TIME_ISO8601, 0},
	{"msec", LP_K_TIME, 1, 0, 0, LP_TIME_EPOCH, 0},
	{"host", LP_K_HOST, 3, 0, 0, 0, 0},
	{"http_host", LP_K_HOST, 2, 0, 0, 0, 0},
	{"server_name", LP_K_HOST, 1, 0, 0, 0, 0},
	{NULL, 0, 0, 0, 0, 0, 0}
};

/* Is c a byte of an nginx variable name? */
static inline int
lp_ngx_name_byte(unsigned char c)
{
	return (unsigned) ((c | 0x20) - 'a') <= 25 || (unsigned) (c - '0') <= 9 || c == '_';
}

/* Is c blank to nginx's configuration reader? */
static inline int
lp_ngx_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Skip blanks and "#..." comments from *i. */
static void
lp_ngx_skip(const char *def, size_t len, size_t *i)
{
	while (*i < len)
	{
		if (lp_ngx_space(def[*i]))
			(*i)++;
		else if (def[*i] == '#')
		{
			while (*i < len && def[*i] != '\n')
				(*i)++;
		}
		else
			break;
	}
}

/*
 * Read one argument at def[*i] as ngx_conf_read_token does (a quoted
 * string, or a run up to a blank or ';'), backslash escapes undone, into
 * out[*n ..] with the offset of each byte in pos.
 */
static lp_def_status
lp_ngx_token(const char *def, size_t len, size_t *i, char *out, uint16_t *pos, size_t *n,
			 lp_def_error *err)
{
	size_t		k = *i;
	char		q = 0;

	if (def[k] == '"' || def[k] == '\'')
		q = def[k++];
	for (;;)
	{
		size_t		at = k;
		char		c;

		if (k == len)
		{
			if (q)
				return lp_def_fail(err, LP_DEF_SYNTAX, *i, NULL,
								   "the quoted string has no closing %c", q);
			break;
		}
		c = def[k];
		if (q ? c == q : (lp_ngx_space(c) || c == ';'))
		{
			if (q)
				k++;
			break;
		}
		if (c == '\\' && k + 1 < len)
		{
			char		d = def[k + 1];

			if (d == '"' || d == '\'' || d == '\\')
				c = d, k++;
			else if (d == 't' || d == 'r' || d == 'n')
				c = d == 't' ? '\t' : d == 'r' ? '\r' : '\n', k++;
		}
		k++;
		out[*n] = c;
		pos[*n] = (uint16_t) at;
		(*n)++;
	}
	*i = k;
	return LP_DEF_OK;
}

/*
 * nginx's front end: escape=, the arguments joined into the format
 * string, then its variables.  *start is set to where the format begins.
 */
static lp_def_status
lp_def_nginx(lp_def_build *b, const char *def, size_t len, char *fmt, uint16_t *fpos,
			 size_t *start)
{
	size_t		i = 0;
	size_t		n = 0;
	size_t		k;
	lp_def_status st;

	b->prog->escape = LP_ESC_NGINX;
	lp_ngx_skip(def, len, &i);
	/* escape=default|json|none, the first argument when it is one */
	{
		size_t		j = i;
		size_t		m = 0;

		if (j < len && (st = lp_ngx_token(def, len, &j, fmt, fpos, &m, b->err)) != LP_DEF_OK)
			return st;
		if (m >= 7 && memcmp(fmt, "escape=", 7) == 0)
		{
			if (m == 14 && memcmp(fmt + 7, "default", 7) == 0)
				b->prog->escape = LP_ESC_NGINX;
			else if (m == 11 && memcmp(fmt + 7, "json", 4) == 0)
				b->prog->escape = LP_ESC_JSON;
			else if (m == 11 && memcmp(fmt + 7, "none", 4) == 0)
				b->prog->escape = LP_ESC_NONE;
			else
				return lp_def_fail(b->err, LP_DEF_UNKNOWN, i + 7,
								   "The escaping is default, json or none.",
								   "unknown log format escaping \"%.*s\"",
								   (int) (m - 7), fmt + 7);
			i = j;
			lp_ngx_skip(def, len, &i);
		}
	}
	*start = i;
	if (i == len)
		return lp_def_fail(b->err, LP_DEF_SYNTAX, i, NULL, "the format is empty");
	if (def[i] == '"' || def[i] == '\'')
	{
		/* the arguments as nginx.conf has them: joined */
		while (i < len)
		{
			if (def[i] == ';')
			{
				i++;
				lp_ngx_skip(def, len, &i);
				if (i < len)
					return lp_def_fail(b->err, LP_DEF_SYNTAX, i, NULL,
									   "text after the \";\" that ends log_format");
				break;
			}
			if ((st = lp_ngx_token(def, len, &i, fmt, fpos, &n, b->err)) != LP_DEF_OK)
				return st;
			lp_ngx_skip(def, len, &i);
		}
	}
	else
	{
		/* one unquoted string: the whole format, less trailing blanks and ';' */
		size_t		e = len;

		while (e > i && lp_ngx_space(def[e - 1]))
			e--;
		if (e > i && def[e - 1] == ';')
			e--;
		while (e > i && lp_ngx_space(def[e - 1]))
			e--;
		for (k = i; k < e; k++)
		{
			fmt[n] = def[k];
			fpos[n++] = (uint16_t) k;
		}
	}
	if (n == 0)
		return lp_def_fail(b->err, LP_DEF_SYNTAX, *start, NULL, "the format is empty");
	fpos[n] = (uint16_t) len;

	/* the variables (ngx_http_log_compile_format) */
	for (k = 0; k < n;)
	{
		size_t		s = k,
					name,
					name_len;
		int			brace;
		const lp_ngx_var *v;
		lp_def_field f;

		if (fmt[k] != '$')
		{
			if ((st = lp_def_lit(b, fmt[k], fpos[k])) != LP_DEF_OK)
				return st;
			k++;
			continue;
		}
		k++;
		brace = k < n && fmt[k] == '{';
		if (brace)
			k++;
		name = k;
		while (k < n && lp_ngx_name_byte((unsigned char) fmt[k]))
			k++;
		name_len = k - name;
		if (brace)
		{
			if (k == n || fmt[k] != '}')
				return lp_def_fail(b->err, LP_DEF_SYNTAX, fpos[s], NULL,
								   "the closing bracket in \"%.*s\" variable is missing",
								   (int) name_len, fmt + name);
			k++;
		}
		if (name_len == 0)
			return lp_def_fail(b->err, LP_DEF_SYNTAX, fpos[s], NULL,
							   "a \"$\" with no variable name");
		for (v = lp_ngx_vars; v->name; v++)
			if (strlen(v->name) == name_len && memcmp(v->name, fmt + name, name_len) == 0)
				break;
		f = lp_def_mk(b, v->name ? v->kind : LP_K_OPAQUE, v->name ? v->prio : 0, s, k - s);
		if (v->name)
		{
			f.unit = v->unit;
			f.list = v->list;
			f.time_kind = v->time_kind;
			f.blanks = v->blanks;
		}
		if ((st = lp_def_field_add(b, f)) != LP_DEF_OK)
			return st;
	}
	return LP_DEF_OK;
}

/* ---------- Apache ---------- */

/*
 * Apache (modules/loggers/mod_log_config.c, and
 * https://httpd.apache.org/docs/2.4/mod/mod_log_config.html#formats):
 * the format string holds literal text, where \n \t \r \\ stand for
 * themselves (parse_log_misc_string; "literal quotes and backslashes
 * should be escaped with backslashes"), and directives: '%', then
 * modifiers in any order ('<' original or '>' final request, '!' and
 * comma-separated statuses: a condition, "{arg}"), then the directive's
 * letter (or "^ti", "^to"); "%%" is a percent sign.  An unknown letter is
 * an error ("Unrecognized LogFormat directive").  %r, %i, %o and the
 * other strings are escaped as ap_escape_logitem does: \" and \\, \b \n
 * \r \t \v, \xhh for other bytes below 32 or above 126.  %t is
 * "[07/Nov/2026:01:00:00 +0100]"; %{format}t takes strftime(3) formats and
 * sec, msec, usec, msec_frac, usec_frac, each maybe after "begin:" or
 * "end:"; %T is whole seconds, %{s|ms|us}T (lighttpd also ns) the time in
 * that unit, %D microseconds.  lighttpd's accesslog.format and
 * varnishncsa -F take the same language (varnishncsa adds %{...}x).
 * A definition may be the quoted argument as httpd.conf has it
 * ("%h \"%r\"", ap_getword_conf taking off the quotes and undoing \" and
 * \\) or the bare string.
 */

/* Letters of the directives that are skipped fields (with or without {arg}). */
static const char lp_apache_opaque[] = "aABbCefhHiIklLnoOpPRSuXxc";

/* Apply one strftime conversion of a %{format}t: a skipped field, or literal text. */
static lp_def_status
lp_apache_strftime(lp_def_build *b, const char *fmt, size_t a, size_t ae)
{
	size_t		k;
	lp_def_status st;

	for (k = a; k < ae;)
	{
		if (fmt[k] != '%' || k + 1 == ae)
		{
			if ((st = lp_def_lit(b, fmt[k], b->fpos[k])) != LP_DEF_OK)
				return st;
			k++;
			continue;
		}
		switch (fmt[k + 1])
		{
			case '%':
			case 'n':
			case 't':
				if ((st = lp_def_lit(b, fmt[k + 1] == '%' ? '%' : fmt[k + 1] == 'n' ? '\n' : '\t',
									 b->fpos[k])) != LP_DEF_OK)
					return st;
				break;
			case 'c':
			case 'e':
			case 'k':
			case 'l':
			case 'r':
			case '+':
				return lp_def_fail(b->err, LP_DEF_UNKNOWN, b->fpos[k],
								   "Write the time with conversions that give no blanks, such as %d/%b/%Y:%H:%M:%S %z.",
								   "strftime conversion \"%%%c\" writes blanks of its own",
								   fmt[k + 1]);
			default:
				if ((st = lp_def_field_add(b, lp_def_mk(b, LP_K_OPAQUE, 0, k, 2))) != LP_DEF_OK)
					return st;
		}
		k += 2;
	}
	return LP_DEF_OK;
}

/* %{arg}t and %t: the time at format offset s, arg fmt[a .. ae) (a == ae: none). */
static lp_def_status
lp_apache_time(lp_def_build *b, const char *fmt, size_t s, size_t e, size_t a, size_t ae, int has_arg)
{
	static const struct
	{
		const char *arg;
		uint8_t		kind;
		uint8_t		blanks;
	}			known[] = {
		{"sec", LP_TIME_EPOCH, 0},
		{"msec", LP_TIME_EPOCH_MS, 0},
		{"usec", LP_TIME_EPOCH_US, 0},
		{"%s", LP_TIME_EPOCH, 0},
		{"%d/%b/%Y:%H:%M:%S %z", LP_TIME_CLF, 1},
		{"%Y-%m-%dT%H:%M:%S%z", LP_TIME_ISO8601, 0},
		{"%Y-%m-%dT%H:%M:%S", LP_TIME_ISO8601, 0},
		{NULL, 0, 0}
	};
	lp_def_field f = lp_def_mk(b, LP_K_TIME, 1, s, e - s);
	lp_def_status st;
	int			i;

	if (!has_arg)
	{
		/* [07/Nov/2026:01:00:00 +0100]: the brackets are literal text */
		f.time_kind = LP_TIME_CLF;
		f.blanks = 1;
		if ((st = lp_def_lit(b, '[', b->fpos[s])) != LP_DEF_OK ||
			(st = lp_def_field_add(b, f)) != LP_DEF_OK)
			return st;
		return lp_def_lit(b, ']', b->fpos[s]);
	}
	if (ae - a >= 6 && memcmp(fmt + a, "begin:", 6) == 0)
		a += 6;
	else if (ae - a >= 4 && memcmp(fmt + a, "end:", 4) == 0)
		a += 4;
	for (i = 0; known[i].arg; i++)
	{
		if (strlen(known[i].arg) == ae - a && memcmp(known[i].arg, fmt + a, ae - a) == 0)
		{
			f.time_kind = known[i].kind;
			f.blanks = known[i].blanks;
			return lp_def_field_add(b, f);
		}
	}
	if ((ae - a == 9 && memcmp(fmt + a, "msec_frac", 9) == 0) ||
		(ae - a == 9 && memcmp(fmt + a, "usec_frac", 9) == 0))
		return lp_def_field_add(b, lp_def_mk(b, LP_K_OPAQUE, 0, s, e - s));
	/* any other strftime format: its conversions are skipped fields */
	return lp_apache_strftime(b, fmt, a, ae);
}

/*
 * One directive at fmt[s] == '%' (n bytes of format): its field or
 * literal given to the builder, *k set past it.
 */
static lp_def_status
lp_apache_directive(lp_def_build *b, const char *fmt, size_t n, size_t s, size_t *k)
{
	size_t		i = s + 1;
	size_t		a = 0,
				ae = 0;
	int			has_arg = 0;
	int			want = 0;		/* '<' -1, '>' +1 */
	char		c;
	lp_def_field f;

	if (i < n && fmt[i] == '%')
	{
		*k = i + 1;
		return lp_def_lit(b, '%', b->fpos[s]);
	}
	/* modifiers, in any order */
	for (;;)
	{
		if (i == n)
			return lp_def_fail(b->err, LP_DEF_SYNTAX, b->fpos[s], NULL,
							   "a \"%%\" with no directive");
		c = fmt[i];
		if (c == '<' || c == '>')
			want = c == '<' ? -1 : 1;
		else if (c == '!' || c == ',' || (unsigned) (c - '0') <= 9)
			;
		else if (c == '{')
		{
			a = ++i;
			while (i < n && fmt[i] != '}')
				i++;
			if (i == n)
				return lp_def_fail(b->err, LP_DEF_SYNTAX, b->fpos[s], NULL,
								   "the \"%%{\" has no closing \"}\"");
			ae = i;
			has_arg = 1;
		}
		else
			break;
		i++;
	}
	if (c == '^')
	{
		if (n - i >= 3 && (memcmp(fmt + i, "^ti", 3) == 0 || memcmp(fmt + i, "^to", 3) == 0 ||
						   memcmp(fmt + i, "^FB", 3) == 0))
		{
			*k = i + 3;
			return lp_def_field_add(b, lp_def_mk(b, LP_K_OPAQUE, 0, s, *k - s));
		}
		return lp_def_fail(b->err, LP_DEF_UNKNOWN, b->fpos[s], NULL,
						   "unknown directive \"%.*s\"", (int) (n - i >= 3 ? i + 3 - s : n - s),
						   fmt + s);
	}
	*k = i + 1;
	f = lp_def_mk(b, LP_K_OPAQUE, 0, s, *k - s);
	switch (c)
	{
		case 'r':
			f.kind = LP_K_REQUEST;
			f.prio = 3;
			break;
		case 'U':
			f.kind = LP_K_PATH;
			f.prio = 1;
			break;
		case 'q':
			f.kind = LP_K_QUERY;
			break;
		case 'm':
			f.kind = LP_K_METHOD;
			f.prio = 1;
			break;
		case 's':
			f.kind = LP_K_STATUS;
			f.prio = (uint8_t) (2 + want);	/* %>s before %s before %<s */
			break;
		case 'D':
			f.kind = LP_K_LATENCY;
			f.unit = LP_UNIT_US;
			f.prio = 3;
			break;
		case 'T':
			f.kind = LP_K_LATENCY;
			f.unit = LP_UNIT_S;
			f.prio = 1;
			if (has_arg)
			{
				if (ae - a == 2 && memcmp(fmt + a, "ms", 2) == 0)
					f.unit = LP_UNIT_MS, f.prio = 2;
				else if (ae - a == 2 && memcmp(fmt + a, "us", 2) == 0)
					f.unit = LP_UNIT_US, f.prio = 3;
				else if (ae - a == 2 && memcmp(fmt + a, "ns", 2) == 0)
					f.unit = LP_UNIT_NS, f.prio = 4;
				else if (!(ae - a == 1 && fmt[a] == 's'))
					return lp_def_fail(b->err, LP_DEF_UNKNOWN, b->fpos[s],
									   "The units of %{UNIT}T are s, ms, us and ns.",
									   "unknown unit \"%.*s\" in \"%.*s\"", (int) (ae - a),
									   fmt + a, (int) (*k - s), fmt + s);
			}
			break;
		case 't':
			return lp_apache_time(b, fmt, s, *k, a, ae, has_arg);
		case 'v':
			f.kind = LP_K_HOST;
			f.prio = 2;
			break;
		case 'V':
			f.kind = LP_K_HOST;
			f.prio = 3;
			break;
		case 'i':
			if (has_arg && ae - a == 4 && strncasecmp(fmt + a, "host", 4) == 0)
			{
				f.kind = LP_K_HOST;
				f.prio = 1;
			}
			break;
		default:
			if (c == '\0' || !strchr(lp_apache_opaque, c))
				return lp_def_fail(b->err, LP_DEF_UNKNOWN, b->fpos[s], NULL,
								   "unknown directive \"%.*s\"", (int) (*k - s), fmt + s);
	}
	return lp_def_field_add(b, f);
}

/* Apache's front end.  *start is set to where the format begins. */
static lp_def_status
lp_def_apache(lp_def_build *b, const char *def, size_t len, char *fmt, uint16_t *fpos,
			  size_t *start)
{
	size_t		i = 0,
				e = len,
				n = 0,
				k;
	lp_def_status st;

	b->prog->escape = LP_ESC_APACHE;
	while (i < e && lp_ngx_space(def[i]))
		i++;
	while (e > i && lp_ngx_space(def[e - 1]))
		e--;
	*start = i;
	if (i == e)
		return lp_def_fail(b->err, LP_DEF_SYNTAX, i, NULL, "the format is empty");
	/* the quoted argument of httpd.conf, when the quote that closes it ends the text */
	if (def[i] == '"' || def[i] == '\'')
	{
		char		q = def[i];

		for (k = i + 1; k < e && def[k] != q; k++)
			if (def[k] == '\\' && k + 1 < e)
				k++;
		if (k == e - 1)
		{
			for (k = i + 1; k < e - 1; k++)
			{
				fpos[n] = (uint16_t) k;
				if (def[k] == '\\' && k + 1 < e - 1 && (def[k + 1] == q || def[k + 1] == '\\'))
					k++;
				fmt[n++] = def[k];
			}
			*start = i + 1;
			i = e;
		}
	}
	for (k = i; k < e; k++)
	{
		fmt[n] = def[k];
		fpos[n++] = (uint16_t) k;
	}
	fpos[n] = (uint16_t) e;
	if (n == 0)
		return lp_def_fail(b->err, LP_DEF_SYNTAX, *start, NULL, "the format is empty");

	for (k = 0; k < n;)
	{
		if (fmt[k] == '%')
		{
			if ((st = lp_apache_directive(b, fmt, n, k, &k)) != LP_DEF_OK)
				return st;
			continue;
		}
		if (fmt[k] == '\\' && k + 1 < n)
		{
			char		d = fmt[k + 1];
			char		c = d == 'n' ? '\n' : d == 't' ? '\t' : d == 'r' ? '\r' :
				d == '\\' || d == '"' ? d : 0;

			if (c)
			{
				if ((st = lp_def_lit(b, c, fpos[k])) != LP_DEF_OK)
					return st;
				k += 2;
				continue;
			}
		}
		if ((st = lp_def_lit(b, fmt[k], fpos[k])) != LP_DEF_OK)
			return st;
		k++;
	}
	return LP_DEF_OK;
}

/* See lp_definition.h. */
lp_def_status
lp_definition_compile(lp_def_dialect dialect, const char *def, size_t len, unsigned need,
					  int offset_sec, lp_def_program *prog, lp_def_error *err)
{
	lp_def_build b;
	char		fmt[LP_DEF_MAX_LEN];
	uint16_t	fpos[LP_DEF_MAX_LEN + 1];
	size_t		start = 0;
	lp_def_status st;

	memset(prog, 0, offsetof(lp_def_program, steps));
	memset(err, 0, sizeof(*err));
	prog->dialect = (uint8_t) dialect;
	prog->offset_sec = offset_sec;
	if (len > LP_DEF_MAX_LEN)
		return lp_def_fail(err, LP_DEF_TOO_BIG, LP_DEF_MAX_LEN, NULL,
						   "the definition is longer than %d bytes", LP_DEF_MAX_LEN);
	memset(&b, 0, offsetof(lp_def_build, f));
	b.prog = prog;
	b.err = err;
	b.fmt = fmt;
	b.fpos = fpos;
	st = dialect == LP_DEF_APACHE ?
		lp_def_apache(&b, def, len, fmt, fpos, &start) :
		lp_def_nginx(&b, def, len, fmt, fpos, &start);
	if (st == LP_DEF_OK)
		st = lp_def_finish(&b, need, start);
	if (st != LP_DEF_OK)
	{
		/* a failed program parses nothing */
		prog->nsteps = 0;
		prog->lead_len = 0;
		prog->has = 0;
		prog->roles = 0;
	}
	return st;
}

/* ---------- parsing a line ---------- */

/* Is the '"' at q escaped: an odd run of backslashes before it, after fs? */
static inline int
lp_def_escaped(const char *fs, const char *q)
{
	const char *r = q;

	while (r > fs && r[-1] == '\\')
		r--;
	return ((q - r) & 1) != 0;
}

/*
 * Do q[1..n) equal lit[1..n) (q[0] == lit[0] is known, and q[0..n) is
 * inside the line)?  Up to four bytes one by one, up to 17 in two
 * overlapping words, longer ones by memcmp.
 */
static inline int
lp_def_rest_is(const char *q, const char *lit, size_t n)
{
	uint64_t	a,
				b,
				c,
				d;

	if (n <= 3)
		return (n < 2 || q[1] == lit[1]) && (n < 3 || q[2] == lit[2]);
	if (n <= 4)
		return q[1] == lit[1] && q[2] == lit[2] && q[3] == lit[3];
	if (n <= 8)
	{
		uint32_t	e,
					f,
					g,
					h;

		memcpy(&e, q + 1, 4);
		memcpy(&f, lit + 1, 4);
		memcpy(&g, q + n - 4, 4);
		memcpy(&h, lit + n - 4, 4);
		return e == f && g == h;
	}
	if (n > 17)
		return memcmp(q + 1, lit + 1, n - 1) == 0;
	memcpy(&a, q + 1, 8);
	memcpy(&b, lit + 1, 8);
	memcpy(&c, q + n - 8, 8);
	memcpy(&d, lit + n - 8, 8);
	return a == b && c == d;
}

/*
 * The first lit (n > 3 bytes) at or after q, or NULL: the walk's literal
 * scan for long literals (" rt=", JSON keys), out of line so that the
 * short literals' loop stays small.
 */
static LP_DEF_NOINLINE const char *
lp_def_find_long(const char *line, const char *q, const char *end, const char *lit, size_t n)
{
	for (;; q++)
	{
		if (!(q = lp_find_byte(line, q, end, lit[0])) || (size_t) (end - q) < n)
			return NULL;
		if (lp_def_rest_is(q, lit, n))
			return q;
	}
}

/*
 * The closing quote that lit (n > 3 bytes, starting with '"') follows,
 * from p; NULL when there is none, *seen set when an unescaped '"' was
 * there.  The walk's quoted scan for long literals, out of line (its
 * usual case is tried inline first: lp_def_quote_long).
 */
static LP_DEF_NOINLINE LP_DEF_COLD const char *
lp_def_quote_long_slow(const char *line, const char *p, const char *end, const char *lit, size_t n,
					   int backslash, int *seen)
{
	const char *q = p;

	for (;; q++)
	{
		if (!(q = lp_find_byte(line, q, end, '"')))
			return NULL;
		if (backslash && q > p && q[-1] == '\\' && lp_def_escaped(p, q))
			continue;
		*seen = 1;
		if ((size_t) (end - q) < n)
			return NULL;
		if (lp_def_rest_is(q, lit, n))
			return q;
	}
}

/*
 * The same, its usual case inline in the walk (the first '"' is the
 * closing one: an nginx escape=json string field before its next key),
 * without the call, which cost more than the search; every other case
 * goes on to lp_def_quote_long_slow, out of line.
 */
static LP_ALWAYS_INLINE const char *
lp_def_quote_long(const char *line, const char *p, const char *end, const char *lit, size_t n,
				  int backslash, int *seen)
{
	const char *q = lp_find_byte(line, p, end, '"');

	if (q && !(backslash && q > p && q[-1] == '\\') && (size_t) (end - q) >= n &&
		lp_def_rest_is(q, lit, n))
	{
		*seen = 1;
		return q;
	}
	return lp_def_quote_long_slow(line, p, end, lit, n, backslash, seen);
}

/* A status of exactly three digits, 100..999; -1 otherwise. */
static inline int
lp_def_status3(const char *s, size_t n)
{
	unsigned	a,
				b,
				c;

	if (n != 3)
		return -1;
	a = (unsigned char) s[0] - '0';
	b = (unsigned char) s[1] - '0';
	c = (unsigned char) s[2] - '0';
	if (a - 1 > 8 || b > 9 || c > 9)
		return -1;
	return (int) (a * 100 + b * 10 + c);
}

/*
 * Walk the steps from p, the byte after the leading literal: each field's
 * end found with lp_find_byte (SSE2 for its first 16 bytes, then memchr),
 * its slice put in fs and fl (indexed by role, [0] for the skipped
 * fields).  Returns LP_ST_OK, or the status of a line that does not match
 * with *at = the step where it stopped.
 */
static lp_status
lp_def_walk(const lp_def_program *prog, const char *line, const char *p, const char *end,
			const char **fs, size_t *fl, int *at)
{
	const lp_def_step *s = prog->steps;
	const lp_def_step *last = s + prog->nsteps;
	const char *lits = prog->lits;
	int			backslash = prog->escape != LP_ESC_NONE;
	lp_status	st = LP_ST_TOO_FEW_FIELDS;

	for (; s < last; s++)
	{
		const char *lit = lits + s->lit_off;
		size_t		n = s->lit_len;
		const char *q = p;
		size_t		k;

		if (s->scan == LP_SCAN_LITERAL)
		{
			/* the first lit after the field's blanks */
			LP_ASSERT(n > 0);
			for (k = s->blanks; k > 0; k--)
			{
				if (!(q = lp_find_byte(line, q, end, ' ')))
					goto fail;
				q++;
			}
			if (n > 3)
			{
				if (!(q = lp_def_find_long(line, q, end, lit, n)))
					goto fail;
			}
			else
				for (;; q++)
				{
					if (!(q = lp_find_byte(line, q, end, lit[0])) || (size_t) (end - q) < n)
						goto fail;
					if (lp_def_rest_is(q, lit, n))
						break;
				}
		}
		else if (s->scan == LP_SCAN_QUOTED)
		{
			/* the first unescaped '"' lit (which starts with it) is at */
			st = LP_ST_UNTERMINATED;
			if (n > 3)
			{
				int			seen = 0;

				q = lp_def_quote_long(line, p, end, lit, n, backslash, &seen);
				if (seen)
					st = LP_ST_TOO_FEW_FIELDS;
				if (!q)
					goto fail;
			}
			else
				for (;; q++)
				{
					if (!(q = lp_find_byte(line, q, end, '"')))
						goto fail;
					if (backslash && q > p && q[-1] == '\\' && lp_def_escaped(p, q))
						continue;
					st = LP_ST_TOO_FEW_FIELDS;
					if ((size_t) (end - q) < n)
						goto fail;
					if (lp_def_rest_is(q, lit, n))
						break;
				}
		}
		else if (s->scan == LP_SCAN_TAIL)
		{
			/* the last field, up to the literal the line ends with */
			q = end - n;
			if (q < p || (n > 0 && memcmp(q, lit, n) != 0))
				goto fail;
			if (s->quoted && backslash && lp_def_escaped(p, q))
			{
				st = LP_ST_UNTERMINATED;
				goto fail;
			}
		}
		else
		{
			/* LP_SCAN_LIST: an upstream list, then the literal */
			q = lp_list_end(p, end);
			if ((size_t) (end - q) < n || memcmp(q, lit, n) != 0)
				goto fail;
		}
		fs[s->role] = p;
		fl[s->role] = (size_t) (q - p);
		p = q + n;
	}
	*at = prog->nsteps;
	return LP_ST_OK;

fail:
	*at = (int) (s - prog->steps);
	return st;
}

/* See lp_definition.h. */
lp_status
lp_definition_parse(const lp_def_program *prog, const char *line, size_t len,
					const lp_parse_ctx *ctx, lp_result *out)
{
	const char *end = line + len;
	const char *p = line;
	const char *fs[LP_ROLE_COUNT];	/* each role's field; [0]: the skipped ones */
	size_t		fl[LP_ROLE_COUNT];
	unsigned	roles = prog->roles;
	unsigned	flags = ctx ? ctx->flags : 0;
	lp_status	st;
	int			at = 0;

	out->has = 0;
	out->bad = NULL;
	out->bad_len = 0;
	out->nwant = prog->nsteps;
	out->nfields = 0;
	if (len > 0 && end[-1] == '\r')
		end--;
	if (prog->lead_len > 0)
	{
		if ((size_t) (end - p) < prog->lead_len || memcmp(p, prog->lits, prog->lead_len) != 0)
			return LP_ST_TOO_FEW_FIELDS;
		p += prog->lead_len;
	}
	if (prog->nsteps == 0)
		return p == end ? LP_ST_OK : LP_ST_TOO_FEW_FIELDS;	/* literal text only */

	/* the fields, left to right: each ends where the literal after it is */
	st = lp_def_walk(prog, line, p, end, fs, fl, &at);
	out->nfields = at;
	if (st != LP_ST_OK)
		return st;

	/* the fields that are slices */
	if (roles & (1u << LP_ROLE_TIME))
	{
		out->time = fs[LP_ROLE_TIME];
		out->time_len = fl[LP_ROLE_TIME];
		out->has |= LP_HAS_TIME;
	}
	if (roles & (1u << LP_ROLE_HOST))
	{
		out->host = fs[LP_ROLE_HOST];
		out->host_len = fl[LP_ROLE_HOST];
		out->has |= LP_HAS_HOST;
	}
	if (roles & (1u << LP_ROLE_METHOD))
	{
		out->method = fs[LP_ROLE_METHOD];
		out->method_len = fl[LP_ROLE_METHOD];
		out->has |= LP_HAS_METHOD;
	}

	/* the route: the request line, or a target */
	if (roles & ((1u << LP_ROLE_REQUEST) | (1u << LP_ROLE_TARGET)))
	{
		int			role = (roles & (1u << LP_ROLE_REQUEST)) ? LP_ROLE_REQUEST : LP_ROLE_TARGET;
		lp_request	rq;

		st = role == LP_ROLE_REQUEST ?
			lp_request_parse(fs[role], fl[role], flags, &rq) :
			lp_target_route(fs[role], fl[role], flags, &rq);
		if (st == LP_ST_OK)
		{
			if (rq.method && !(out->has & LP_HAS_METHOD))
			{
				out->method = rq.method;
				out->method_len = rq.method_len;
				out->has |= LP_HAS_METHOD;
			}
			lp_route_build(rq.route, rq.route_len, rq.route_slash, rq.route_escaped,
						   out->host, (out->has & LP_HAS_HOST) ? out->host_len : 0,
						   (lp_escape) prog->escape, ctx, out);
		}
		else
		{
			out->bad = fs[role];
			out->bad_len = fl[role];
		}
	}

	/* the latency */
	if (roles & (1u << LP_ROLE_LATENCY))
	{
		const char *l = fs[LP_ROLE_LATENCY];
		size_t		ln = fl[LP_ROLE_LATENCY];
		lp_status	ls = prog->latency_list ?
			lp_latency_list_ms(l, ln, (lp_unit) prog->unit, &out->latency) :
			lp_latency_ms_inline(l, ln, (lp_unit) prog->unit, &out->latency);

		if (ls == LP_ST_OK)
			out->has |= LP_HAS_LATENCY;
		else if (st == LP_ST_OK)
		{
			st = ls;
			out->bad = l;
			out->bad_len = ln;
		}
	}

	/*
	 * the status; "-" is the one Apache (a status <= 0) and varnishncsa (a
	 * piped request) write when they have none: the status stays unset and
	 * the line counts, as the presets do with their "no response" status
	 */
	if ((roles & (1u << LP_ROLE_STATUS)) &&
		!(fl[LP_ROLE_STATUS] == 1 && fs[LP_ROLE_STATUS][0] == '-'))
	{
		int			v = lp_def_status3(fs[LP_ROLE_STATUS], fl[LP_ROLE_STATUS]);

		if (v >= 0)
		{
			out->status = v;
			out->has |= LP_HAS_STATUS;
		}
		else if (st == LP_ST_OK)
		{
			st = LP_ST_BAD_STATUS;
			out->bad = fs[LP_ROLE_STATUS];
			out->bad_len = fl[LP_ROLE_STATUS];
		}
	}
	return st;
}
