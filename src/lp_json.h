/* src/lp_json.h -- JSON lines: a compiled field spec and the reader of one line (plain C) */
#ifndef LP_JSON_H
#define LP_JSON_H

#include "lp_format.h"

/*
 * A JSON-lines format is a spec, the text after "json:" in a format
 * argument, compiled once (lp_json_compile) into an lp_json_spec, then
 * used for every line (lp_json_parse).  The spec is comma-separated
 * key=value:
 *
 *	 route=<path> | request=<path>	(one of them: the route, or a request line
 *									 "GET /x HTTP/1.1" giving method and route)
 *	 latency=<path>:<unit>			(s, ms, us or ns)
 *	 time=<path>:<kind>				(optional: iso8601, clf, epoch, epoch_ms,
 *									 epoch_us or epoch_ns)
 *	 status=<path>, method=<path>, host=<path>	(optional)
 *
 * <path> is dotted keys, "request.uri"; a backslash takes the next byte as
 * it is ("url\.path" is the one key "url.path").  Blanks around keys,
 * values and commas are ignored.  docs/formats.md, "JSON lines (1.2)",
 * says what a line gives and what is malformed.
 */

/* Bounds of a spec: it is user input, so everything in it is bounded. */
#define LP_JSON_SPEC_MAX	1024	/* bytes of a spec */
#define LP_JSON_PATH_KEYS	16		/* keys of one path */
#define LP_JSON_MAX_DEPTH	64		/* nesting of a line, its object included */

/* The fields a spec names (bit 1 << f of lp_json_spec.fields). */
typedef enum lp_json_field
{
	LP_JF_ROUTE = 0,			/* route= or request= */
	LP_JF_LATENCY,
	LP_JF_TIME,
	LP_JF_STATUS,
	LP_JF_METHOD,
	LP_JF_HOST,
	LP_JF_COUNT
} lp_json_field;

/* Nodes of a spec's key tree: the root, then at most one a key of each path. */
#define LP_JSON_NODES (1 + LP_JF_COUNT * LP_JSON_PATH_KEYS)

/*
 * Each node finds the child a key of the line names by a hash of the key's
 * length, first and last bytes (n >= 1) into LP_JSON_SLOTS slots: most keys
 * of a line are turned away by one load, the others compared once.
 */
#define LP_JSON_SLOTS	64
#define LP_JSON_SLOT_MANY 0xFF	/* a slot of two children or more: try each */

static inline unsigned
lp_json_key_hash(const char *k, size_t n)
{
	return (((unsigned) (unsigned char) k[n - 1] ^ ((unsigned) n << 3)) +
			(unsigned) (unsigned char) k[0]) & (LP_JSON_SLOTS - 1);
}

/*
 * One node of the tree of wanted keys.  The root (node 0) stands for the
 * line's object; a node is either a leaf (fields != 0: the paths that end
 * there) or an inner node (its children: the keys wanted inside the object
 * its key holds).
 */
typedef struct lp_json_node
{
	uint16_t	key_off;		/* its key: keys[key_off .. key_off + key_len) */
	uint16_t	key_len;
	uint8_t		first_child;	/* its first child, 0 for none (the root is no child) */
	uint8_t		next;			/* its next sibling, 0 for none */
	uint8_t		fields;			/* leaf: 1 << lp_json_field of the path ending here */
	uint8_t		under;			/* the fields of every leaf at or below it */
	uint8_t		field;			/* leaf: that lp_json_field */
	uint8_t		slot[LP_JSON_SLOTS];	/* by lp_json_key_hash of a key: the
										 * child with that hash, 0 for none,
										 * LP_JSON_SLOT_MANY for several */
} lp_json_node;

/*
 * A compiled spec.  Fixed size and self-contained (no pointer into the
 * spec text given), so the caller may copy it or keep it in any memory.
 */
typedef struct lp_json_spec
{
	unsigned	fields;			/* 1 << lp_json_field of every field named */
	int			request;		/* 1: the route field holds a request line */
	lp_unit		unit;			/* the latency's unit */
	lp_time_kind time_kind;		/* the time's kind, LP_TIME_NONE without time= */
	int			nnodes;			/* nodes in use, the root included */
	lp_json_node nodes[LP_JSON_NODES];
	uint16_t	path_off[LP_JF_COUNT];	/* each field's path as written: text[off .. off + len) */
	uint16_t	path_len[LP_JF_COUNT];
	char		text[LP_JSON_SPEC_MAX]; /* the spec as given (messages quote its paths) */
	char		keys[LP_JSON_SPEC_MAX]; /* every key, its escapes undone */
} lp_json_spec;

/* Why a spec does not compile (the message of each: lp_json_spec_messages). */
typedef enum lp_json_spec_status
{
	LP_JSPEC_OK = 0,
	LP_JSPEC_TOO_LONG,			/* longer than LP_JSON_SPEC_MAX */
	LP_JSPEC_SYNTAX,			/* an item is not key=value */
	LP_JSPEC_UNKNOWN_KEY,		/* a key that is not a field */
	LP_JSPEC_DUPLICATE,			/* a field given twice (route and request count as one) */
	LP_JSPEC_EMPTY_PATH,		/* an empty path, or an empty key in a path */
	LP_JSPEC_PATH_TOO_DEEP,		/* more than LP_JSON_PATH_KEYS keys */
	LP_JSPEC_PATH_CONFLICT,		/* a path runs through another field's value */
	LP_JSPEC_BAD_ESCAPE,		/* a backslash at the end of a path */
	LP_JSPEC_NO_UNIT,			/* latency= without :unit */
	LP_JSPEC_BAD_UNIT,			/* a unit that is not s, ms, us or ns */
	LP_JSPEC_NO_KIND,			/* time= without :kind */
	LP_JSPEC_BAD_KIND,			/* an unknown time kind */
	LP_JSPEC_SUFFIX,			/* a :suffix on a field that takes none */
	LP_JSPEC_NO_ROUTE,			/* neither route= nor request= */
	LP_JSPEC_NO_LATENCY,		/* no latency= */
	LP_JSPEC_COUNT
} lp_json_spec_status;

/* The message of each lp_json_spec_status (lower case, no trailing period). */
extern const char *const lp_json_spec_messages[LP_JSPEC_COUNT];

/*
 * Compile spec[0..len) into *out.  On an error, *err_pos is the byte
 * offset in spec of what is wrong (the key, the path, the unit...; len for
 * something missing) and *out is unusable.  Any bytes give an answer; the
 * work is bounded by LP_JSON_SPEC_MAX.
 */
extern lp_json_spec_status lp_json_compile(const char *spec, size_t len, lp_json_spec *out,
										   size_t *err_pos);

/*
 * Read one line: it must be exactly one JSON object (RFC 8259, nested at
 * most LP_JSON_MAX_DEPTH deep), JSON whitespace (blank, tab, CR, LF)
 * around it allowed; otherwise LP_ST_NOT_JSON with bad = the rest of the
 * line from the first byte that cannot continue it (bad_len 0 when the line
 * ends too early).  Only the spec's paths are looked at; every other value
 * is checked and skipped without being decoded.  A key given twice in one
 * object: the last one counts, as in PostgreSQL's jsonb.
 *
 * On LP_ST_OK, out->has holds LP_HAS_ROUTE and LP_HAS_LATENCY and each
 * optional field found.  On another status, out->has still names the
 * fields that were read well (the time of a line whose latency is
 * malformed, for logp95_line_ts), and bad says what the message quotes: a
 * field's path (text of the spec, so valid as long as the spec) for
 * LP_ST_NO_FIELD and LP_ST_BAD_FIELD, else the value.
 *
 * ctx (NULL: no options) gives LP_PARSE_KEEP_QUERY, LP_PARSE_TEMPLATES and
 * LP_PARSE_HOST, and the scratch buffer of LP_ROUTE_BUF_SIZE(len) bytes
 * where decoded strings and built routes go; without it a line that needs
 * one is LP_ST_BAD_FIELD.  JSON escapes are undone in every string as
 * lp_token.c undoes them (a lone surrogate and \u0000 stay as logged);
 * LP_HAS_ROUTE_HIGH says that the route's text or its host prefix had a
 * \u escape of U+0080 or above; with LP_PARSE_LOGGED the route and the
 * host stay as logged (the glue's retry when the decoded route is not
 * valid in the database encoding).  LP_PARSE_UNESCAPE changes nothing.
 */
extern lp_status lp_json_parse(const lp_json_spec *spec, const char *line, size_t len,
							   const lp_parse_ctx *ctx, lp_result *out);

#ifdef LP_ASSERTS
/* Lines read by the walk of compact lines (lp_json.c), for the unit tests. */
extern unsigned long lp_json_walk_lines;
#endif

/* ---------- presets ---------- */

/* A JSON-lines preset: a name and the spec it stands for. */
typedef struct lp_json_preset_def
{
	const char *name;			/* "caddy", "traefik_json" */
	const char *spec;			/* its spec, as a user would write it after "json:" */
} lp_json_preset_def;

/* Every preset, ended by an entry with a NULL name. */
extern const lp_json_preset_def lp_json_presets[];

/* The spec text of the preset called name[0..len), NULL when there is none. */
extern const char *lp_json_preset_spec(const char *name, size_t len);

#endif							/* LP_JSON_H */
