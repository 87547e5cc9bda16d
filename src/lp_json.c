/* src/lp_json.c -- JSON lines: the spec compiler, the one-pass reader of a line, the presets (plain C) */
#include "lp_json.h"

#include "lp_simd.h"
#include "lp_templates.h"
#include "lp_token.h"
#include "lp_units.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* ---------- the spec ---------- */

/* See lp_json.h. */
const char *const lp_json_spec_messages[LP_JSPEC_COUNT] = {
	[LP_JSPEC_OK] = "",
	[LP_JSPEC_TOO_LONG] = "the spec is longer than 1024 bytes",
	[LP_JSPEC_SYNTAX] = "expected key=value",
	[LP_JSPEC_UNKNOWN_KEY] = "unknown key: expected route, request, latency, time, status, method or host",
	[LP_JSPEC_DUPLICATE] = "field given twice (route and request count as one)",
	[LP_JSPEC_EMPTY_PATH] = "empty path or empty key in a path",
	[LP_JSPEC_PATH_TOO_DEEP] = "path of more than 16 keys",
	[LP_JSPEC_PATH_CONFLICT] = "path is another field's path, or runs through its value",
	[LP_JSPEC_BAD_ESCAPE] = "backslash at the end of a path",
	[LP_JSPEC_NO_UNIT] = "latency needs a unit: latency=<path>:s, :ms, :us or :ns",
	[LP_JSPEC_BAD_UNIT] = "unknown latency unit: expected s, ms, us or ns",
	[LP_JSPEC_NO_KIND] = "time needs a kind: time=<path>:iso8601, :clf, :epoch, :epoch_ms, :epoch_us or :epoch_ns",
	[LP_JSPEC_BAD_KIND] = "unknown time kind: expected iso8601, clf, epoch, epoch_ms, epoch_us or epoch_ns",
	[LP_JSPEC_SUFFIX] = "only latency and time take a :suffix (write \\: for a colon in a key)",
	[LP_JSPEC_NO_ROUTE] = "no route: give route=<path> or request=<path>",
	[LP_JSPEC_NO_LATENCY] = "no latency: give latency=<path>:<unit>",
};

/* The keys of a spec, in lp_json_field order (request is the route's other form). */
static const char *const lp_json_keys[LP_JF_COUNT] = {
	"route", "latency", "time", "status", "method", "host"
};

/* A word of the spec: text[off .. off + len). */
typedef struct lp_jword
{
	size_t		off;
	size_t		len;
} lp_jword;

/* Is text[0..len) the C string w? */
static int
lp_jword_is(const char *text, size_t len, const char *w)
{
	return strlen(w) == len && memcmp(text, w, len) == 0;
}

/* Trim blanks from both ends of a word of s. */
static lp_jword
lp_jtrim(const char *s, size_t from, size_t to)
{
	lp_jword	w;

	while (from < to && LP_IS_BLANK(s[from]))
		from++;
	while (to > from && LP_IS_BLANK(s[to - 1]))
		to--;
	w.off = from;
	w.len = to - from;
	return w;
}

/*
 * The first byte c at or after from and before to that no backslash
 * escapes, or to when there is none.
 */
static size_t
lp_jfind(const char *s, size_t from, size_t to, char c)
{
	size_t		i;

	for (i = from; i < to; i++)
	{
		if (s[i] == '\\')
			i++;
		else if (s[i] == c)
			return i;
	}
	return to;
}

/* The last byte c in [from, to) that no backslash escapes, or to when none. */
static size_t
lp_jfind_last(const char *s, size_t from, size_t to, char c)
{
	size_t		i;
	size_t		last = to;

	for (i = from; i < to; i++)
	{
		if (s[i] == '\\')
			i++;
		else if (s[i] == c)
			last = i;
	}
	return last;
}

/*
 * Add the path text[w] of field f to the key tree of sp (keys unescaped
 * into sp->keys from *kn on); parent[] records each node's parent.
 */
static lp_json_spec_status
lp_json_add_path(lp_json_spec *sp, lp_jword w, int f, size_t *kn, uint8_t *parent,
				 size_t *err_pos)
{
	const char *s = sp->text;
	size_t		end = w.off + w.len;
	size_t		i = w.off;
	int			node = 0;
	int			nkeys = 0;

	if (w.len == 0)
	{
		*err_pos = w.off;
		return LP_JSPEC_EMPTY_PATH;
	}
	for (;;)
	{
		size_t		kstart = *kn;
		size_t		from = i;
		size_t		klen;
		int			child;
		int			last;

		/* one key: up to an unescaped '.', escapes undone */
		while (i < end && s[i] != '.')
		{
			if (s[i] == '\\')
			{
				if (++i == end)
				{
					*err_pos = i - 1;
					return LP_JSPEC_BAD_ESCAPE;
				}
			}
			LP_ASSERT(*kn < LP_JSON_SPEC_MAX);
			sp->keys[(*kn)++] = s[i++];
		}
		klen = *kn - kstart;
		last = i == end;
		if (klen == 0)
		{
			*err_pos = from;
			return LP_JSPEC_EMPTY_PATH;
		}
		if (++nkeys > LP_JSON_PATH_KEYS)
		{
			*err_pos = from;
			return LP_JSPEC_PATH_TOO_DEEP;
		}
		/* the child of node with this key, made if need be */
		for (child = sp->nodes[node].first_child; child; child = sp->nodes[child].next)
		{
			const lp_json_node *c = &sp->nodes[child];

			if (c->key_len == klen && memcmp(sp->keys + c->key_off, sp->keys + kstart, klen) == 0)
				break;
		}
		if (child)
			*kn = kstart;		/* the key is there already */
		else
		{
			lp_json_node *c;

			LP_ASSERT(sp->nnodes < LP_JSON_NODES);
			child = sp->nnodes++;
			c = &sp->nodes[child];
			memset(c, 0, sizeof(*c));
			c->key_off = (uint16_t) kstart;
			c->key_len = (uint16_t) klen;
			c->next = sp->nodes[node].first_child;
			sp->nodes[node].first_child = (uint8_t) child;
			{
				uint8_t    *sl = &sp->nodes[node].slot[lp_json_key_hash(sp->keys + kstart, klen)];

				*sl = *sl ? LP_JSON_SLOT_MANY : (uint8_t) child;
			}
			parent[child] = (uint8_t) node;
		}
		/* a leaf has no children, an inner node no field */
		if (sp->nodes[child].fields != 0 && !last)
		{
			*err_pos = from;
			return LP_JSPEC_PATH_CONFLICT;
		}
		if (last)
		{
			/* no two fields share a value: each field's text is its own */
			if (sp->nodes[child].first_child || sp->nodes[child].fields != 0)
			{
				*err_pos = from;
				return LP_JSPEC_PATH_CONFLICT;
			}
			sp->nodes[child].fields = (uint8_t) (1u << f);
			sp->nodes[child].field = (uint8_t) f;
			return LP_JSPEC_OK;
		}
		node = child;
		i++;					/* past the '.' */
	}
}

/* The unit called text[w], LP_UNIT_NONE when unknown. */
static lp_unit
lp_json_unit_of(const char *text, lp_jword w)
{
	static const char *const names[] = {"s", "ms", "us", "ns"};
	static const lp_unit units[] = {LP_UNIT_S, LP_UNIT_MS, LP_UNIT_US, LP_UNIT_NS};
	int			i;

	for (i = 0; i < 4; i++)
		if (lp_jword_is(text + w.off, w.len, names[i]))
			return units[i];
	return LP_UNIT_NONE;
}

/* The time kind called text[w], LP_TIME_NONE when unknown. */
static lp_time_kind
lp_json_kind_of(const char *text, lp_jword w)
{
	static const char *const names[] = {"iso8601", "clf", "epoch", "epoch_ms", "epoch_us", "epoch_ns"};
	static const lp_time_kind kinds[] = {LP_TIME_ISO8601, LP_TIME_CLF, LP_TIME_EPOCH,
	LP_TIME_EPOCH_MS, LP_TIME_EPOCH_US, LP_TIME_EPOCH_NS};
	int			i;

	for (i = 0; i < 6; i++)
		if (lp_jword_is(text + w.off, w.len, names[i]))
			return kinds[i];
	return LP_TIME_NONE;
}

/* See lp_json.h. */
lp_json_spec_status
lp_json_compile(const char *spec, size_t len, lp_json_spec *out, size_t *err_pos)
{
	const char *s;
	size_t		p = 0;
	size_t		kn = 0;
	uint8_t		parent[LP_JSON_NODES];
	lp_json_spec_status st;
	int			n;

	*err_pos = 0;
	if (len > LP_JSON_SPEC_MAX)
	{
		*err_pos = LP_JSON_SPEC_MAX;
		return LP_JSPEC_TOO_LONG;
	}
	memset(out, 0, offsetof(lp_json_spec, text));
	memcpy(out->text, spec, len);
	s = out->text;
	out->nnodes = 1;			/* the root: the line's object */
	parent[0] = 0;

	while (lp_jtrim(s, p, len).len > 0)
	{
		size_t		ie = lp_jfind(s, p, len, ',');
		size_t		eq = lp_jfind(s, p, ie, '=');
		lp_jword	key = lp_jtrim(s, p, eq);
		lp_jword	val;
		lp_jword	path;
		int			f;
		int			request = 0;

		if (eq == ie)
		{
			*err_pos = lp_jtrim(s, p, ie).off;
			return LP_JSPEC_SYNTAX;
		}
		val = lp_jtrim(s, eq + 1, ie);
		if (lp_jword_is(s + key.off, key.len, "request"))
		{
			f = LP_JF_ROUTE;
			request = 1;
		}
		else
		{
			for (f = 0; f < LP_JF_COUNT; f++)
				if (lp_jword_is(s + key.off, key.len, lp_json_keys[f]))
					break;
			if (f == LP_JF_COUNT)
			{
				*err_pos = key.off;
				return LP_JSPEC_UNKNOWN_KEY;
			}
		}
		if (out->fields & (1u << f))
		{
			*err_pos = key.off;
			return LP_JSPEC_DUPLICATE;
		}
		out->fields |= 1u << f;
		if (f == LP_JF_ROUTE)
			out->request = request;

		/* latency and time end in :unit or :kind; the others take no suffix */
		{
			size_t		colon = lp_jfind_last(s, val.off, val.off + val.len, ':');
			lp_jword	suffix;

			path = val;
			if (f == LP_JF_LATENCY || f == LP_JF_TIME)
			{
				if (colon == val.off + val.len)
				{
					*err_pos = val.off + val.len;
					return f == LP_JF_LATENCY ? LP_JSPEC_NO_UNIT : LP_JSPEC_NO_KIND;
				}
				path = lp_jtrim(s, val.off, colon);
				suffix = lp_jtrim(s, colon + 1, val.off + val.len);
				if (f == LP_JF_LATENCY &&
					(out->unit = lp_json_unit_of(s, suffix)) == LP_UNIT_NONE)
				{
					*err_pos = suffix.off;
					return LP_JSPEC_BAD_UNIT;
				}
				if (f == LP_JF_TIME &&
					(out->time_kind = lp_json_kind_of(s, suffix)) == LP_TIME_NONE)
				{
					*err_pos = suffix.off;
					return LP_JSPEC_BAD_KIND;
				}
			}
			else if (colon < val.off + val.len)
			{
				*err_pos = colon;
				return LP_JSPEC_SUFFIX;
			}
		}
		out->path_off[f] = (uint16_t) path.off;
		out->path_len[f] = (uint16_t) path.len;
		st = lp_json_add_path(out, path, f, &kn, parent, err_pos);
		if (st != LP_JSPEC_OK)
			return st;
		if (ie == len)
			break;
		p = ie + 1;				/* past the comma */
		if (lp_jtrim(s, p, len).len == 0)
		{
			*err_pos = p;		/* a comma with nothing after it */
			return LP_JSPEC_SYNTAX;
		}
	}
	if (!(out->fields & (1u << LP_JF_ROUTE)))
	{
		*err_pos = len;
		return LP_JSPEC_NO_ROUTE;
	}
	if (!(out->fields & (1u << LP_JF_LATENCY)))
	{
		*err_pos = len;
		return LP_JSPEC_NO_LATENCY;
	}
	/* each node's fields below it: children come after their parent */
	for (n = out->nnodes - 1; n >= 0; n--)
	{
		out->nodes[n].under |= out->nodes[n].fields;
		if (n > 0)
			out->nodes[parent[n]].under |= out->nodes[n].under;
	}
	LP_ASSERT(out->nodes[0].under == out->fields);
	return LP_JSPEC_OK;
}

/* ---------- presets ---------- */

/*
 * See lp_json.h.  Each spec is written from its server's documented field
 * list (docs/formats.md, "JSON lines (1.2)", cites them):
 *
 * caddy: Caddy 2's access log (the log directive) with its JSON encoder,
 *   the default when the output is not a terminal.  Documented fields
 *   (https://caddyserver.com/docs/logging and
 *   https://caddyserver.com/docs/caddyfile/directives/log): "ts", seconds
 *   since 1970 as a float (time_format's default, unix_seconds_float);
 *   "request" with "method", "host", "uri" (path and query as sent);
 *   "duration", seconds as a float (duration_format's default, "seconds");
 *   "status", a number (0 when the client went away before a response).
 *
 * traefik_json: Traefik's access log with format json
 *   (https://doc.traefik.io/traefik/observability/access-logs/, "Available
 *   Fields"): "RequestPath" (the request URI without scheme, host and
 *   port), "RequestMethod", "RequestHost" (without the port),
 *   "DownstreamStatus" (the status returned to the client), "Duration" (in
 *   nanoseconds), "StartUTC" (RFC 3339, UTC).
 */
const lp_json_preset_def lp_json_presets[] = {
	{"caddy", "route=request.uri, method=request.method, host=request.host, status=status, "
	"latency=duration:s, time=ts:epoch"},
	{"traefik_json", "route=RequestPath, method=RequestMethod, host=RequestHost, "
	"status=DownstreamStatus, latency=Duration:ns, time=StartUTC:iso8601"},
	{NULL, NULL}
};

/* See lp_json.h. */
const char *
lp_json_preset_spec(const char *name, size_t len)
{
	const lp_json_preset_def *p;

	for (p = lp_json_presets; p->name; p++)
		if (lp_jword_is(name, len, p->name))
			return p->spec;
	return NULL;
}

/* ---------- reading a line: the scan ---------- */

/* What a captured value is. */
enum
{
	LP_JV_NONE = 0,				/* not in the line */
	LP_JV_STRING,
	LP_JV_NUMBER,
	LP_JV_TRUE,
	LP_JV_FALSE,
	LP_JV_NULL,
	LP_JV_OBJECT,
	LP_JV_ARRAY
};

/*
 * A field's value as found: for a string, the bytes between its quotes
 * (esc: it has a backslash); for a number or a literal, its text; for an
 * object or array, its first byte only.
 */
typedef struct lp_jval
{
	const char *s;
	size_t		len;
	uint8_t		type;			/* LP_JV_* */
	uint8_t		esc;
} lp_jval;

/*
 * The literal a value starting with c ('t', 'f' or 'n') must be: its text,
 * returned, its length in *n and its type in v (the scan and the walk both
 * read true, false and null through it; each checks the bytes its own way).
 */
static LP_ALWAYS_INLINE const char *
lp_json_literal(char c, size_t *n, lp_jval *v)
{
	*n = c == 'f' ? 5 : 4;
	v->len = *n;
	v->type = c == 't' ? LP_JV_TRUE : c == 'f' ? LP_JV_FALSE : LP_JV_NULL;
	return c == 't' ? "true" : c == 'f' ? "false" : "null";
}

/* JSON whitespace (RFC 8259): blank, tab, line feed, carriage return. */
static LP_ALWAYS_INLINE const char *
lp_json_ws(const char *p, const char *end)
{
	while (p < end && (unsigned char) *p <= ' ' &&
		   (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* The value of an ASCII hex digit, or -1. */
static inline int
lp_json_hex(unsigned char c)
{
	if ((unsigned) (c - '0') <= 9)
		return c - '0';
	c |= 0x20;
	if ((unsigned) (c - 'a') <= 5)
		return c - 'a' + 10;
	return -1;
}

/*
 * The closing quote of the string whose bytes start at p (just after its
 * opening quote), checking it: no byte below 0x20, every escape one of
 * \" \\ \/ \b \f \n \r \t \uXXXX.  *esc is set when there is a backslash.
 * NULL when it is not a JSON string, with *err the first byte that cannot
 * continue it (end when the line ends first).
 */
static LP_ALWAYS_INLINE const char *
lp_json_string_end(const char *p, const char *end, uint8_t *esc, const char **err)
{
	for (;;)
	{
		unsigned char c;

#ifdef __SSE2__
		/* 16 bytes a step: the first quote, backslash or control byte */
		const __m128i quote = _mm_set1_epi8('"');
		const __m128i bslash = _mm_set1_epi8('\\');
		const __m128i ctl = _mm_set1_epi8(0x1f);

		while (end - p >= 16)
		{
			__m128i		v = _mm_loadu_si128((const __m128i *) p);
			unsigned	q = (unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(v, quote));
			unsigned	m = q | (unsigned) _mm_movemask_epi8(
															 _mm_or_si128(_mm_cmpeq_epi8(v, bslash),
																		  _mm_cmpeq_epi8(_mm_max_epu8(v, ctl), ctl)));

			if (m)
			{
				/* the closing quote, known from its mask without reading it again */
				if (q & m & -m)
					return p + __builtin_ctz(m);
				p += __builtin_ctz(m);
				goto special;
			}
			p += 16;
		}
#endif
		for (;;)
		{
			if (p == end)
			{
				*err = end;
				return NULL;
			}
			c = (unsigned char) *p;
			if (c == '"' || c == '\\' || c < 0x20)
				break;
			p++;
		}
#ifdef __SSE2__
special:
#endif
		c = (unsigned char) *p;
		if (c == '"')
			return p;
		if (c < 0x20)
		{
			*err = p;
			return NULL;
		}
		/* a backslash */
		*esc = 1;
		if (++p == end)
		{
			*err = end;
			return NULL;
		}
		switch (*p)
		{
			case '"':
			case '\\':
			case '/':
			case 'b':
			case 'f':
			case 'n':
			case 'r':
			case 't':
				p++;
				break;
			case 'u':
				{
					int			k;

					p++;
					for (k = 0; k < 4; k++, p++)
					{
						if (p == end || lp_json_hex((unsigned char) *p) < 0)
						{
							*err = p;
							return NULL;
						}
					}
				}
				break;
			default:
				*err = p;
				return NULL;
		}
	}
}

/*
 * The end of the run of ASCII digits at p.  On little-endian machines 8
 * bytes a step: a byte is a digit when its high nibble is 3 and adding 6
 * to its low one carries nothing; a carry only reaches the bytes after a
 * byte that fails, so the first one that fails is exact.
 */
static LP_ALWAYS_INLINE const char *
lp_json_digits(const char *p, const char *end)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t hi = UINT64_C(0xF0F0F0F0F0F0F0F0);
	const uint64_t threes = UINT64_C(0x3030303030303030);

	while (end - p >= 8)
	{
		uint64_t	w,
					bad;

		memcpy(&w, p, 8);
		bad = ((w & hi) ^ threes) | (((w + UINT64_C(0x0606060606060606)) & hi) ^ threes);
		if (bad)
			return p + (__builtin_ctzll(bad) >> 3);
		p += 8;
	}
#endif
	while (p < end && (unsigned) (*p - '0') <= 9)
		p++;
	return p;
}

/*
 * The end of the number at p: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
 * NULL when it is not one, with *err the first byte that cannot continue it.
 */
static LP_ALWAYS_INLINE const char *
lp_json_number_end(const char *p, const char *end, const char **err)
{
	if (*p == '-')
		p++;
	if (p == end || (unsigned) (*p - '0') > 9)
		goto bad;
	if (*p++ != '0')
		p = lp_json_digits(p, end);
	if (p < end && *p == '.')
	{
		if (++p == end || (unsigned) (*p - '0') > 9)
			goto bad;
		p = lp_json_digits(p, end);
	}
	if (p < end && (*p == 'e' || *p == 'E'))
	{
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (p == end || (unsigned) (*p - '0') > 9)
			goto bad;
		while (p < end && (unsigned) (*p - '0') <= 9)
			p++;
	}
	return p;
bad:
	*err = p;
	return NULL;
}

/* Does the decoded key k[0..n) (escaped: a backslash in it) equal want[0..wn)? */
static int	lp_json_key_eq_escaped(const char *k, size_t n, const char *want, size_t wn);

/* Are a[0..n) and b[0..n) the same bytes (n > 0)?  A word or two at a time: keys are short. */
static LP_ALWAYS_INLINE int
lp_json_bytes_eq(const char *a, const char *b, size_t n)
{
	uint64_t	x,
				y;
	uint32_t	u,
				w;
	size_t		i;

	if (n >= 8)
	{
		if (n > 16)
			return memcmp(a, b, n) == 0;
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		if (x != y)
			return 0;
		memcpy(&x, a + n - 8, 8);
		memcpy(&y, b + n - 8, 8);
		return x == y;
	}
	if (n >= 4)
	{
		memcpy(&u, a, 4);
		memcpy(&w, b, 4);
		if (u != w)
			return 0;
		memcpy(&u, a + n - 4, 4);
		memcpy(&w, b + n - 4, 4);
		return u == w;
	}
	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/*
 * The child of node with key k[0..n), 0 when none: most keys of a line are
 * turned away by their slot alone (lp_json_key_hash), the others compared
 * byte by byte, inline (keys are short).
 */
static LP_ALWAYS_INLINE int
lp_json_child(const lp_json_spec *spec, int node, const char *k, size_t n, int esc)
{
	const lp_json_node *nd = &spec->nodes[node];
	const lp_json_node *cn;
	int			c;

	if (esc)
	{
		/* an escape in the key: compare it decoded (the hash does not tell) */
		for (c = nd->first_child; c; c = spec->nodes[c].next)
			if (lp_json_key_eq_escaped(k, n, spec->keys + spec->nodes[c].key_off,
									   spec->nodes[c].key_len))
				return c;
		return 0;
	}
	if (n == 0)
		return 0;				/* a spec's keys are never empty */
	c = nd->slot[lp_json_key_hash(k, n)];
	if (c == 0)
		return 0;
	if (c != LP_JSON_SLOT_MANY)
	{
		cn = &spec->nodes[c];
		return cn->key_len == n && lp_json_bytes_eq(spec->keys + cn->key_off, k, n) ? c : 0;
	}
	for (c = nd->first_child; c; c = spec->nodes[c].next)
	{
		cn = &spec->nodes[c];
		if (cn->key_len == n && lp_json_bytes_eq(spec->keys + cn->key_off, k, n))
			return c;
	}
	return 0;
}

/*
 * The value v read for spec node nd: a leaf's value, or an inner node's,
 * which replaces what an earlier one with the same key gave (a key given
 * twice: the last counts), so the fields below it are not found, yet.
 */
static LP_ALWAYS_INLINE void
lp_json_capture(const lp_json_node *nd, const lp_jval *v, lp_jval *cap)
{
	unsigned	m = nd->under;

	if (nd->fields)
	{
		cap[nd->field] = *v;
		return;
	}
	while (m)
	{
		cap[__builtin_ctz(m)].type = LP_JV_NONE;
		m &= m - 1;
	}
}

/* What each open container of the scan is, and the spec node of an object's keys. */
typedef struct lp_jframe
{
	uint8_t		array;			/* 1: an array, 0: an object */
	int16_t		node;			/* an object's spec node, -1: none wanted */
} lp_jframe;

/*
 * Open the container at p (an array when array) as the value of spec node
 * want (0: no path's): its value captured for want, its frame filled.
 * Returns the node of its keys: want when a path goes on inside the
 * object, -1 when none does (an array, or a value no path goes into).
 */
static LP_ALWAYS_INLINE int
lp_json_open(const lp_json_spec *spec, int want, int array, const char *p, lp_jval *cap,
			 lp_jframe *frame)
{
	int			node = -1;

	if (want)
	{
		/* no field takes an object or array: a leaf's is bad */
		lp_jval		v;

		v.s = p;
		v.len = 1;
		v.esc = 0;
		v.type = array ? LP_JV_ARRAY : LP_JV_OBJECT;
		lp_json_capture(&spec->nodes[want], &v, cap);
		if (spec->nodes[want].fields == 0 && !array)
			node = want;
	}
	frame->array = (uint8_t) array;
	frame->node = (int16_t) node;
	return node;
}

/* Skip JSON whitespace before p unless *p is already the byte c (the usual case). */
#define LP_JSON_AT(c) \
	do { \
		if (p < end && *p != (c)) \
			p = lp_json_ws(p, end); \
	} while (0)

/*
 * One pass over the line: check that it is one JSON object and capture
 * the value of every path of spec (the last one when a key comes twice).
 * Returns NULL, or the first byte that cannot continue the JSON text (end
 * when the text ends too early).  The bytes a line usually has next are
 * tried first; whitespace is skipped only when they are not there.
 */
static const char *
lp_json_scan(const lp_json_spec *spec, const char *line, const char *end, lp_jval *cap)
{
	lp_jframe	stack[LP_JSON_MAX_DEPTH];
	int			depth;			/* open containers, the root object included */
	const char *p = lp_json_ws(line, end);
	const char *err = NULL;
	uint32_t	steps = 0;
	int			node;			/* the spec node of the current object, -1: none */
	int			want;			/* the node of the value being read, 0: none */
	int			array;			/* the current container is an array */

	if (p == end || *p != '{')
		return p;
	p++;
	stack[0].array = 0;
	stack[0].node = 0;
	depth = 1;
	node = 0;
	array = 0;

	/* just after '{' */
	LP_JSON_AT('"');
	if (p < end && *p == '}')
	{
		p++;
		goto close;
	}
	for (;;)
	{
		lp_jval		v;

		LP_CHECK_INTERRUPTS(steps);
		want = 0;
		if (!array)
		{
			/* a key, its colon */
			const char *ke;
			uint8_t		kesc = 0;

			LP_JSON_AT('"');
			if (p == end || *p != '"')
				return p;
			ke = lp_json_string_end(p + 1, end, &kesc, &err);
			if (!ke)
				return err;
			if (node >= 0)
				want = lp_json_child(spec, node, p + 1, (size_t) (ke - p - 1), kesc);
			p = ke + 1;
			LP_JSON_AT(':');
			if (p == end || *p != ':')
				return p;
			p++;
		}

		/* a value */
		LP_JSON_AT('"');
		if (p == end)
			return p;
		v.s = p;
		v.esc = 0;
		if (*p == '"')
		{
			const char *e = lp_json_string_end(p + 1, end, &v.esc, &err);

			if (!e)
				return err;
			v.s = p + 1;
			v.len = (size_t) (e - v.s);
			v.type = LP_JV_STRING;
			p = e + 1;
		}
		else if (*p == '{' || *p == '[')
		{
			if (depth == LP_JSON_MAX_DEPTH)
				return p;		/* nested too deep */
			array = *p == '[';
			node = lp_json_open(spec, want, array, p, cap, &stack[depth]);
			depth++;
			p++;
			/* just after '{' or '[' */
			LP_JSON_AT(array ? ']' : '"');
			if (p < end && *p == (array ? ']' : '}'))
			{
				p++;
				goto close;
			}
			continue;
		}
		else if (*p == 't' || *p == 'f' || *p == 'n')
		{
			size_t		n;
			const char *lit = lp_json_literal(*p, &n, &v);
			size_t		i;

			for (i = 1; i < n; i++)
				if (p + i == end || p[i] != lit[i])
					return p + i;
			p += n;
		}
		else
		{
			const char *e = lp_json_number_end(p, end, &err);

			if (!e)
				return err;
			v.len = (size_t) (e - p);
			v.type = LP_JV_NUMBER;
			p = e;
		}
		/* a scalar: a leaf's value, or the end of an inner node's path */
		if (want)
			lp_json_capture(&spec->nodes[want], &v, cap);

		/* after a value: a comma, or the end of its container(s) */
		for (;;)
		{
			LP_JSON_AT(',');
			if (p == end)
				return p;
			if (*p == ',')
			{
				p++;
				break;
			}
			if (*p != (array ? ']' : '}'))
				return p;
			p++;
	close:
			/* the container that just ended is stack[depth - 1] */
			if (--depth == 0)
			{
				p = lp_json_ws(p, end);
				return p == end ? NULL : p;
			}
			array = stack[depth - 1].array;
			node = stack[depth - 1].node;
		}
	}
}

/* ---------- reading a line: the walk of a compact line ---------- */

/*
 * JSON access logs are written by one encoder a server (Caddy's zap,
 * Traefik's logrus, Go's encoding/json...): one object a line, no
 * whitespace between tokens, few escapes.  Such a line is read by a second
 * walk, lp_json_walk, which finds every string's end in a map of the
 * line's quotes made once (16 bytes a step, 32 in the AVX2 build) instead
 * of scanning the string, expects each token's next byte exactly, and
 * reads no byte past the line's closing brace.  It takes the same values
 * as lp_json_scan, or declines: on any byte it does not expect
 * (whitespace, a backslash or a byte below 0x20 anywhere, any error), on
 * a line longer than LP_JSON_WALK_MAX and at the nesting limit it returns
 * 0 and the caller runs lp_json_scan, the reference, which also finds the
 * position of an error.  LP_ASSERTS builds check every line the walk
 * takes against the scan (lp_json_parse).  The work is bounded by
 * LP_JSON_WALK_MAX bytes, so it calls no interrupt hook.
 */
#define LP_JSON_WALK_MAX	8192
#define LP_JSON_WALK_WORDS	(LP_JSON_WALK_MAX / 64 + 1)

#ifdef LP_ASSERTS
unsigned long lp_json_walk_lines = 0;
#endif

#ifdef LP_SIMD_SSE2
/*
 * The quote map's last word: line[i..len), fewer than 64 bytes, in whole
 * 16-byte steps, then one step that ends at the line's end; the sentinel.
 */
static LP_ALWAYS_INLINE void
lp_json_quote_tail(const char *line, size_t len, size_t i, uint64_t *qm, __m128i *bad)
{
	uint64_t	w = UINT64_C(1) << (len - i);	/* the sentinel */
	size_t		off;

	for (off = i; off + 16 <= len; off += 16)
		w |= (uint64_t) lp_quotes_16(line + off, bad) << (off - i);
	if (off < len)
	{
		/* the 16 bytes ending at the line's end; the first off + 16 - len were read above */
		w |= (uint64_t) (lp_quotes_16(line + len - 16, bad) >> (off + 16 - len)) << (off - i);
	}
	qm[i >> 6] = w;
}
#endif

#ifdef LP_SIMD_AVX2
/* lp_json_quote_map of the AVX2 build: 32 bytes a step (lp_quotes_32). */
static LP_AVX2_ATTR int
lp_json_quote_map_avx2(const char *line, size_t len, uint64_t *qm)
{
	__m256i		bad32 = _mm256_setzero_si256();
	__m128i		bad = _mm_setzero_si128();
	size_t		i;

	for (i = 0; i + 64 <= len; i += 64)
	{
		uint64_t	lo = lp_quotes_32(line + i, &bad32);
		uint64_t	hi = lp_quotes_32(line + i + 32, &bad32);

		qm[i >> 6] = lo | hi << 32;
	}
	lp_json_quote_tail(line, len, i, qm, &bad);
	return _mm256_movemask_epi8(bad32) == 0 && _mm_movemask_epi8(bad) == 0;
}
#endif

/*
 * The quote map of line[0..len), 16 <= len <= LP_JSON_WALK_MAX: bit i of
 * qm[i / 64] set when line[i] is '"', and bit len set (a sentinel: every
 * search for a quote ends).  0 when the line has a backslash or a byte
 * below 0x20 (the walk declines it), or when there is no SSE2 (lp_quotes_16).
 */
static LP_ALWAYS_INLINE int
lp_json_quote_map(const char *line, size_t len, uint64_t *qm)
{
#ifdef LP_SIMD_SSE2
	__m128i		bad = _mm_setzero_si128();
	size_t		i;

#ifdef LP_SIMD_AVX2
	if (lp_simd_isa == LP_ISA_AVX2)
		return lp_json_quote_map_avx2(line, len, qm);
#endif
	for (i = 0; i + 64 <= len; i += 64)
	{
		uint64_t	q0 = lp_quotes_16(line + i, &bad);
		uint64_t	q1 = lp_quotes_16(line + i + 16, &bad);
		uint64_t	q2 = lp_quotes_16(line + i + 32, &bad);
		uint64_t	q3 = lp_quotes_16(line + i + 48, &bad);

		qm[i >> 6] = q0 | q1 << 16 | q2 << 32 | q3 << 48;
	}
	lp_json_quote_tail(line, len, i, qm, &bad);
	return _mm_movemask_epi8(bad) == 0;
#else
	return 0;
#endif
}

/* The first quote at or after byte i of a line whose quote map is qm (the sentinel: the line's length). */
static LP_ALWAYS_INLINE size_t
lp_json_next_quote(const uint64_t *qm, size_t i)
{
	const uint64_t *w = qm + (i >> 6);
	uint64_t	m = *w >> (i & 63);

	if (m)
		return i + lp_ctz64(m);
	do
		m = *++w;
	while (!m);
	return (size_t) (w - qm) * 64 + lp_ctz64(m);
}

/*
 * Walk a compact line: 1 when it is one JSON object (cap then holds what
 * lp_json_scan would capture), 0 when the walk declines (cap is then
 * undefined).
 */
static int
lp_json_walk(const lp_json_spec *spec, const char *line, size_t len, lp_jval *cap)
{
	uint64_t	qm[LP_JSON_WALK_WORDS];
	lp_jframe	stack[LP_JSON_MAX_DEPTH];
	const char *end = line + len;
	size_t		p;
	int			depth,
				node,
				want,
				array;
	char		c;

	/*
	 * The first byte '{' and the last '}': every token read below is
	 * followed by a byte of the line, which the walk may read unchecked
	 * (a string's closing quote, a number's last digit, a colon or a comma
	 * are never the last byte); only a literal and a closing bracket check.
	 */
	if (len < 16 || len > LP_JSON_WALK_MAX || line[0] != '{' || line[len - 1] != '}' ||
		!lp_json_quote_map(line, len, qm))
		return 0;
	stack[0].array = 0;
	stack[0].node = 0;
	depth = 1;
	node = 0;
	array = 0;
	p = 1;
	if (line[p] == '}')
	{
		p++;
		goto close;
	}
	for (;;)
	{
		lp_jval		v;

		want = 0;
		if (!array)
		{
			/* a key, its colon */
			size_t		ke;

			if (line[p] != '"')
				return 0;
			ke = lp_json_next_quote(qm, p + 1);
			if (ke >= len)
				return 0;
			if (node >= 0)
				want = lp_json_child(spec, node, line + p + 1, ke - p - 1, 0);
			if (line[ke + 1] != ':')
				return 0;
			p = ke + 2;
		}

		/* a value */
		c = line[p];
		v.s = line + p;
		v.esc = 0;
		if (c == '"')
		{
			size_t		e = lp_json_next_quote(qm, p + 1);

			if (e >= len)
				return 0;
			v.s = line + p + 1;
			v.len = e - p - 1;
			v.type = LP_JV_STRING;
			p = e + 1;
		}
		else if (c == '{' || c == '[')
		{
			if (depth == LP_JSON_MAX_DEPTH)
				return 0;
			array = c == '[';
			node = lp_json_open(spec, want, array, line + p, cap, &stack[depth]);
			depth++;
			p++;
			if (line[p] == (array ? ']' : '}'))
			{
				p++;
				goto close;
			}
			continue;
		}
		else if (c == 't' || c == 'f' || c == 'n')
		{
			size_t		n;
			const char *lit = lp_json_literal(c, &n, &v);

			/* the literal and one byte after it in the line */
			if (len - p <= n || memcmp(line + p, lit, n) != 0)
				return 0;
			p += n;
		}
		else
		{
			const char *err;
			const char *e = lp_json_number_end(line + p, end, &err);

			if (!e)
				return 0;
			v.len = (size_t) (e - v.s);
			v.type = LP_JV_NUMBER;
			p = (size_t) (e - line);
		}
		if (want)
			lp_json_capture(&spec->nodes[want], &v, cap);

		/* after a value: a comma, or the end of its container(s) */
		for (;;)
		{
			c = line[p];
			if (c == ',')
			{
				p++;
				break;
			}
			if (c != (array ? ']' : '}'))
				return 0;
			p++;
	close:
			if (--depth == 0)
				return p == len;
			if (p == len)
				return 0;
			array = stack[depth - 1].array;
			node = stack[depth - 1].node;
		}
	}
}

/* ---------- reading a line: decoding strings ---------- */

/*
 * Decode the checked string s[0..n) into o: JSON's escapes undone as
 * lp_token.c's lp_unescape undoes them (LP_ESC_JSON: a lone surrogate and
 * \u0000, which no text may hold, are copied as logged), at most n bytes;
 * its length.  *high is set when an escape gave a byte of 0x80 or more.
 */
static size_t
lp_json_decode(const char *s, size_t n, char *o, int *high)
{
	return lp_unescape(s, n, LP_ESC_JSON, o, high);
}

/* See its declaration above. */
static int
lp_json_key_eq_escaped(const char *k, size_t n, const char *want, size_t wn)
{
	const char *p = k;
	const char *end = k + n;
	size_t		i = 0;
	int			high = 0;

	while (p < end)
	{
		char		c[4];
		size_t		m = 0;
		size_t		used = 1;

		/* one byte or one escape, decoded as lp_json_decode decodes it */
		if (*p == '\\')
			m = lp_unescape_one(p, end, LP_ESC_JSON, c, &used, &high);
		if (m == 0)
		{
			c[0] = *p;
			m = 1;
			used = 1;
		}
		if (i + m > wn || memcmp(want + i, c, m) != 0)
			return 0;
		i += m;
		p += used;
	}
	return i == wn;
}

/* ---------- reading a line: routes ---------- */

/*
 * Route templates in place: each '/'-separated segment of the path of
 * r[0..n) (up to the first '?') folded exactly as lp_route_template folds
 * it, which is asked one segment at a time (a segment becomes a
 * placeholder of at most 5 bytes or stays, so 16 bytes hold what it
 * writes).  For a route decoded into the scratch, where no second copy of
 * it fits: placeholders not longer than their segment are written left to
 * right, then the longer ones (":id" for one or two digits) right to left,
 * so that no byte is overwritten before it is read.  r[0..cap) may be
 * written; returns the new length.
 */
static size_t
lp_json_template_in_place(char *r, size_t n, size_t cap)
{
	const char *qm = n > 0 ? memchr(r, '?', n) : NULL;
	size_t		path = qm ? (size_t) (qm - r) : n;
	size_t		i = 0,
				o = 0;
	size_t		grow = 0;
	char		ph[16];

	/* left to right: the segments whose placeholder is not longer */
	for (;;)
	{
		const char *e = memchr(r + i, '/', path - i);
		size_t		segn = (e ? (size_t) (e - r) : path) - i;
		size_t		m = lp_route_template(r + i, segn, 0, 1, ph);

		LP_ASSERT(m <= sizeof(ph));
		if (m > 0 && m <= segn)
		{
			memcpy(r + o, ph, m);
			o += m;
		}
		else
		{
			grow += m > segn ? m - segn : 0;
			memmove(r + o, r + i, segn);
			o += segn;
		}
		i += segn;
		if (i == path)
			break;
		r[o++] = '/';
		i++;
	}
	memmove(r + o, r + path, n - path);
	n = o + (n - path);
	path = o;
	if (grow == 0)
		return n;

	/* right to left: the segments that grow */
	LP_ASSERT(n + grow <= cap);
	memmove(r + path + grow, r + path, n - path);
	i = path;
	o = path + grow;
	for (;;)
	{
		size_t		s = i;
		size_t		m;

		while (s > 0 && r[s - 1] != '/')
			s--;
		m = lp_route_template(r + s, i - s, 0, 1, ph);
		LP_ASSERT(m <= sizeof(ph));
		if (m > i - s)
		{
			o -= m;
			memcpy(r + o, ph, m);
		}
		else
		{
			o -= i - s;
			memmove(r + o, r + s, i - s);
		}
		if (s == 0)
			break;
		r[--o] = '/';
		i = s - 1;
	}
	LP_ASSERT(o == 0);
	return n + grow;
}

/* Swap the adjacent blocks a[0..n) and a[n..n + m) in place. */
static void
lp_json_rotate(char *a, size_t n, size_t m)
{
	size_t		i,
				j;

	for (i = 0, j = n + m; i < j;)
	{
		char		c = a[i];

		/* reverse the whole, then each block: the blocks swap */
		a[i++] = a[--j];
		a[j] = c;
	}
	for (i = 0, j = m; i < j;)
	{
		char		c = a[i];

		a[i++] = a[--j];
		a[j] = c;
	}
	for (i = m, j = m + n; i < j;)
	{
		char		c = a[i];

		a[i++] = a[--j];
		a[j] = c;
	}
}

/* ---------- reading a line: the fields ---------- */

/* The scratch buffer as it fills: buf[0..used) holds decoded strings. */
typedef struct lp_jbuf
{
	char	   *buf;			/* NULL: the caller gave none */
	size_t		cap;			/* LP_ROUTE_BUF_SIZE(len) */
	size_t		used;
} lp_jbuf;

/*
 * The text of a captured string: a slice of the line when it has no
 * escape (or the call keeps it as logged), else decoded into the scratch;
 * *high as by lp_json_decode (may be NULL).  0, or -1 when it needs the
 * scratch and there is none.
 */
static int
lp_json_text(const lp_jval *v, lp_jbuf *b, int logged, const char **s, size_t *n, int *high)
{
	int			h = 0;

	if (!v->esc || logged)
	{
		*s = v->s;
		*n = v->len;
		return 0;
	}
	if (!b->buf)
		return -1;
	LP_ASSERT(b->used + v->len <= b->cap);
	*s = b->buf + b->used;
	*n = lp_json_decode(v->s, v->len, b->buf + b->used, &h);
	b->used += *n;
	if (high)
		*high |= h;
	return 0;
}

/*
 * A decimal s[0..n), D+(.D+)?([eE][+-]?D+)? (JSON's number without a sign,
 * leading zeros allowed), in unit, to milliseconds rounded half up exactly
 * as lp_parse_seconds_ms rounds seconds: its digits shifted to seconds are
 * read by that function.  LP_ST_OK, LP_ST_BAD_FIELD (not such a number; a
 * sign, "-0" included) or LP_ST_REQTIME_RANGE.
 */
static lp_status
lp_json_latency_ms(const char *s, size_t n, lp_unit unit, int64_t *ms)
{
	const char *p = s;
	const char *end = s + n;
	const char *frac = NULL;	/* the fraction's digits, frac[0..nf) */
	size_t		nw,
				nf = 0;			/* whole digits s[0..nw), fraction digits */
	int64_t		exp10 = 0;
	int			has_exp = 0;
	int64_t		point;			/* digits before the point, in seconds */
	int64_t		z;				/* the first digit that is not zero */
	int64_t		k;
	char		text[32];
	size_t		tn = 0;
	lp_status	cst;

	while (p < end && (unsigned) (*p - '0') <= 9)
		p++;
	nw = (size_t) (p - s);
	if (nw == 0)
		return LP_ST_BAD_FIELD;
	if (p < end && *p == '.')
	{
		frac = ++p;
		while (p < end && (unsigned) (*p - '0') <= 9)
			p++;
		nf = (size_t) (p - frac);
		if (nf == 0)
			return LP_ST_BAD_FIELD;
	}
	if (p < end && (*p == 'e' || *p == 'E'))
	{
		int			neg = 0;
		const char *ds;

		has_exp = 1;
		if (++p < end && (*p == '+' || *p == '-'))
			neg = *p++ == '-';
		ds = p;
		for (; p < end && (unsigned) (*p - '0') <= 9; p++)
			if (exp10 < 100000)
				exp10 = exp10 * 10 + (*p - '0');	/* saturated: out of range, or 0 */
		if (p == ds)
			return LP_ST_BAD_FIELD;
		if (neg)
			exp10 = -exp10;
	}
	if (p != end)
		return LP_ST_BAD_FIELD;

	/* seconds written "D+" or "D+.D+": read as they are */
	if (unit == LP_UNIT_S && !has_exp)
		goto read;

	/*
	 * Otherwise: digit k of the whole and fraction digits side by side, the
	 * point after `point` of them once shifted to seconds; from the first
	 * digit that is not zero, the whole part (more than 20 digits is out of
	 * range) and four fraction digits (the fourth decides the rounding) are
	 * written out for lp_parse_seconds_ms.
	 */
#define LP_JDIGIT(k) ((k) < 0 || (k) >= (int64_t) (nw + nf) ? '0' : \
					  (k) < (int64_t) nw ? s[(k)] : frac[(k) - (int64_t) nw])
	for (z = 0; z < (int64_t) (nw + nf) && LP_JDIGIT(z) == '0'; z++)
		;
	if (z == (int64_t) (nw + nf))
	{
		*ms = 0;
		return LP_ST_OK;
	}
	point = (int64_t) nw + exp10 - (unit == LP_UNIT_MS ? 3 : unit == LP_UNIT_US ? 6 :
									unit == LP_UNIT_NS ? 9 : 0);
	if (point - z > 20)
		return LP_ST_REQTIME_RANGE;
	if (point <= z)
		text[tn++] = '0';
	for (k = z; k < point; k++)
		text[tn++] = LP_JDIGIT(k);
	text[tn++] = '.';
	for (k = point; k < point + 4; k++)
		text[tn++] = LP_JDIGIT(k);
#undef LP_JDIGIT
	LP_ASSERT(tn <= sizeof(text));
	s = text;
	n = tn;
read:
	cst = lp_parse_seconds_ms(s, n, ms);
	if (cst == LP_ST_REQTIME_RANGE)
		return LP_ST_REQTIME_RANGE;
	LP_ASSERT(cst == LP_ST_OK);
	return cst == LP_ST_OK ? LP_ST_OK : LP_ST_BAD_FIELD;
}

/* What went wrong with one field: a status and what its message quotes. */
typedef struct lp_jerr
{
	lp_status	st;				/* LP_ST_OK: nothing */
	const char *bad;
	size_t		bad_len;
} lp_jerr;

/* Field f's error st, quoting its path as the spec writes it. */
static void
lp_json_fail_path(const lp_json_spec *spec, int f, lp_status st, lp_jerr *e)
{
	e->st = st;
	e->bad = spec->text + spec->path_off[f];
	e->bad_len = spec->path_len[f];
}

/* Field f's error st, quoting s[0..n). */
static void
lp_json_fail(lp_status st, const char *s, size_t n, lp_jerr *e)
{
	e->st = st;
	e->bad = s;
	e->bad_len = n;
}

/* The latency: a number or a numeric string; null, "" and "-" are none. */
static void
lp_json_get_latency(const lp_json_spec *spec, const lp_jval *v, lp_jbuf *b,
					lp_result *out, lp_jerr *e)
{
	const char *s = v->s;
	size_t		n = v->len;
	size_t		mark = b->used;
	lp_status	st;

	if (v->type == LP_JV_NONE)
	{
		lp_json_fail_path(spec, LP_JF_LATENCY, LP_ST_NO_FIELD, e);
		return;
	}
	if (v->type == LP_JV_NULL)
	{
		lp_json_fail(LP_ST_NO_LATENCY, s, n, e);
		return;
	}
	if (v->type == LP_JV_STRING)
	{
		if (lp_json_text(v, b, 0, &s, &n, NULL) < 0)
		{
			lp_json_fail_path(spec, LP_JF_LATENCY, LP_ST_BAD_FIELD, e);
			return;
		}
		if (n == 0 || (n == 1 && *s == '-'))
		{
			lp_json_fail(LP_ST_NO_LATENCY, s, n, e);
			return;
		}
	}
	else if (v->type != LP_JV_NUMBER)
	{
		lp_json_fail_path(spec, LP_JF_LATENCY, LP_ST_BAD_FIELD, e);
		return;
	}
	st = lp_json_latency_ms(s, n, spec->unit, &out->latency);
	if (st == LP_ST_OK)
	{
		out->has |= LP_HAS_LATENCY;
		b->used = mark;			/* a decoded text is not needed any more */
	}
	else if (st == LP_ST_REQTIME_RANGE)
		lp_json_fail(st, s, n, e);
	else
	{
		lp_json_fail_path(spec, LP_JF_LATENCY, st, e);
		b->used = mark;
	}
}

/*
 * The status: one to three digits, a number or a string, 100 to 999; 0
 * (Caddy's when the client left before a response), null, "" and "-" are
 * none.
 */
static void
lp_json_get_status(const lp_json_spec *spec, const lp_jval *v, lp_jbuf *b,
				   lp_result *out, lp_jerr *e)
{
	const char *s = v->s;
	size_t		n = v->len;
	size_t		mark = b->used;
	int			code = 0;
	size_t		i;

	if (v->type == LP_JV_NONE || v->type == LP_JV_NULL)
		return;
	if (v->type == LP_JV_OBJECT || v->type == LP_JV_ARRAY ||
		(v->type == LP_JV_STRING && lp_json_text(v, b, 0, &s, &n, NULL) < 0))
	{
		lp_json_fail_path(spec, LP_JF_STATUS, LP_ST_BAD_STATUS, e);
		return;
	}
	if (v->type == LP_JV_STRING && (n == 0 || (n == 1 && *s == '-')))
	{
		b->used = mark;
		return;
	}
	for (i = 0; i < n && i < 4 && (unsigned) (s[i] - '0') <= 9; i++)
		code = code * 10 + (s[i] - '0');
	if ((v->type != LP_JV_STRING && v->type != LP_JV_NUMBER) ||
		n == 0 || n > 3 || i < n || (code > 0 && code < 100))
	{
		lp_json_fail(LP_ST_BAD_STATUS, s, n, e);
		return;
	}
	b->used = mark;
	if (code > 0)
	{
		out->status = code;
		out->has |= LP_HAS_STATUS;
	}
}

/* The method: a string of tchars; null is none. */
static void
lp_json_get_method(const lp_json_spec *spec, const lp_jval *v, lp_jbuf *b,
				   lp_result *out, lp_jerr *e)
{
	const char *s;
	size_t		n = 0;
	size_t		i = 0;

	if (v->type == LP_JV_NONE || v->type == LP_JV_NULL)
		return;
	if (v->type == LP_JV_STRING && lp_json_text(v, b, 0, &s, &n, NULL) == 0)
		while (i < n && lp_tchar[(unsigned char) s[i]])
			i++;
	if (n == 0 || i < n)
	{
		lp_json_fail_path(spec, LP_JF_METHOD, LP_ST_BAD_FIELD, e);
		return;
	}
	out->method = s;
	out->method_len = n;
	out->has |= LP_HAS_METHOD;
}

/* The time: a string, or for an epoch kind a number too; null and "" are none. */
static void
lp_json_get_time(const lp_json_spec *spec, const lp_jval *v, lp_jbuf *b,
				 lp_result *out, lp_jerr *e)
{
	const char *s = v->s;
	size_t		n = v->len;
	int			epoch = spec->time_kind != LP_TIME_ISO8601 && spec->time_kind != LP_TIME_CLF;

	if (v->type == LP_JV_NONE || v->type == LP_JV_NULL)
		return;
	if (!(v->type == LP_JV_NUMBER && epoch) &&
		(v->type != LP_JV_STRING || lp_json_text(v, b, 0, &s, &n, NULL) < 0))
	{
		lp_json_fail_path(spec, LP_JF_TIME, LP_ST_BAD_FIELD, e);
		return;
	}
	if (n > 0)
	{
		out->time = s;
		out->time_len = n;
		out->has |= LP_HAS_TIME;
	}
}

/*
 * The route, with the host.  The scratch from b->used on takes, in this
 * order: the host (when decoded, or when it prefixes the route), the route
 * text when decoded, and the route built from it, so that the host prefix
 * and the route end up side by side; each fits, since no decoded string is
 * longer than its bytes in the line and a templated route is at most twice
 * its path (lp_route_template), see the asserts.
 */
static void
lp_json_get_route(const lp_json_spec *spec, const lp_jval *v, const lp_jval *hv,
				  const lp_jval *mv, unsigned flags, lp_jbuf *b, lp_result *out,
				  lp_jerr *e, lp_jerr *he)
{
	const char *host = NULL;
	size_t		h = 0;			/* the host's length */
	size_t		hb = 0;			/* its bytes in the scratch, at hs */
	size_t		hs = b->used;
	int			prefix;
	int			templates = (flags & LP_PARSE_TEMPLATES) != 0;
	int			keep = (flags & LP_PARSE_KEEP_QUERY) != 0;
	const char *text;			/* the route's text (or request line's) */
	size_t		tn;
	size_t		ml = 0;			/* a request line's method length */
	const char *r;
	size_t		rn;
	int			slash;
	size_t		q;				/* where the route is built */
	lp_status	st;
	int			logged = (flags & LP_PARSE_LOGGED) != 0;
	int			resc = v->esc && !logged;	/* the route's text is decoded */
	int			high = 0;		/* that gave a byte >= 0x80 */

	/* the host: a string, "" is none */
	if (hv->type != LP_JV_NONE && hv->type != LP_JV_NULL)
	{
		if (hv->type != LP_JV_STRING || (hv->esc && !logged && !b->buf))
			lp_json_fail_path(spec, LP_JF_HOST, LP_ST_BAD_FIELD, he);
		else if (hv->len > 0)
		{
			host = hv->s;
			h = hv->len;
		}
	}
	prefix = (flags & LP_PARSE_HOST) && host;
	if (host && b->buf && ((hv->esc && !logged) || prefix))
	{
		int			hh = 0;

		/* the host where a prefix goes: decoded, or copied to be one */
		if (hv->esc && !logged)
			h = lp_json_decode(hv->s, hv->len, b->buf + hs, &hh);
		else
			memcpy(b->buf + hs, host, h);
		hb = h;
		host = b->buf + hs;
		b->used += hb;
		if (prefix)
			high |= hh;
	}
	if (host)
	{
		out->host = host;
		out->host_len = h;
		out->has |= LP_HAS_HOST;
	}

	/* the route's text */
	if (v->type == LP_JV_NONE || v->type == LP_JV_NULL)
	{
		lp_json_fail_path(spec, LP_JF_ROUTE, LP_ST_NO_FIELD, e);
		return;
	}
	if (v->type != LP_JV_STRING || lp_json_text(v, b, logged, &text, &tn, &high) < 0 ||
		(prefix && !b->buf))
	{
		lp_json_fail_path(spec, LP_JF_ROUTE, LP_ST_BAD_FIELD, e);
		return;
	}
	{
		/* lp_token.c's readers: a request line, or a target alone ("-" is none) */
		lp_request rq;
		unsigned	rflags = keep ? LP_PARSE_KEEP_QUERY : 0;

		st = spec->request ? lp_request_parse(text, tn, rflags, &rq) :
			lp_target_route(text, tn, rflags, &rq);
		if (st != LP_ST_OK)
		{
			lp_json_fail(st, text, tn, e);
			return;
		}
		ml = rq.method_len;
		r = rq.route;
		rn = rq.route_len;
		slash = rq.route_slash;
	}
	if ((slash || templates) && !b->buf)
	{
		lp_json_fail_path(spec, LP_JF_ROUTE, LP_ST_BAD_FIELD, e);
		return;
	}
	if (high)
		out->has |= LP_HAS_ROUTE_HIGH;

	/*
	 * A decoded request line lies after the host: the host and the method
	 * swap places, so that the host is right before where the route goes.
	 */
	if (spec->request && resc)
	{
		lp_json_rotate(b->buf + hs, hb, ml);
		text = b->buf + hs;
		if (hb)
			out->host = host = b->buf + hs + ml;
	}
	/* a request line's method, unless the spec's method= field is in the line */
	if (spec->request && (mv->type == LP_JV_NONE || mv->type == LP_JV_NULL))
	{
		out->method = text;
		out->method_len = ml;
		out->has |= LP_HAS_METHOD;
	}

	/* the route: a slice of its text, or built in the scratch at q */
	if (!resc)
	{
		if (!prefix && !templates && !slash)
		{
			out->route = r;
			out->route_len = rn;
			out->has |= LP_HAS_ROUTE;
			return;
		}
		q = b->used;
		LP_ASSERT(q + LP_ROUTE_BUF_SIZE(rn) <= b->cap);
		if (templates)
		{
			size_t		m = lp_route_template(r, rn, slash, 1, b->buf + q);

			if (m == 0 && !prefix)
			{
				out->route = r;
				out->route_len = rn;
				out->has |= LP_HAS_ROUTE;
				return;
			}
			if (m == 0)
			{
				memcpy(b->buf + q, r, rn);
				m = rn;
			}
			rn = m;
		}
		else
		{
			b->buf[q] = '/';
			memcpy(b->buf + q + slash, r, rn);
			rn += (size_t) slash;
		}
	}
	else
	{
		/* decoded: built in place, from where the text (after its method) was */
		q = hs + hb + (spec->request ? ml : 0);
		LP_ASSERT(q + (size_t) slash <= (size_t) (r - b->buf));
		memmove(b->buf + q + slash, r, rn);
		if (slash)
			b->buf[q] = '/';
		rn += (size_t) slash;
		if (templates)
			rn = lp_json_template_in_place(b->buf + q, rn, b->cap - q);
	}
	LP_ASSERT(q + rn <= b->cap);
	b->used = q + rn;
	out->route = prefix ? host : b->buf + q;
	out->route_len = prefix ? h + rn : rn;
	LP_ASSERT(!prefix || host + h == b->buf + q);
	out->has |= LP_HAS_ROUTE;
}

/* See lp_json.h. */
lp_status
lp_json_parse(const lp_json_spec *spec, const char *line, size_t len,
			  const lp_parse_ctx *ctx, lp_result *out)
{
	lp_jval		cap[LP_JF_COUNT];
	lp_jerr		err[LP_JF_COUNT];
	const char *stop;
	unsigned	flags = ctx ? ctx->flags : 0;
	lp_jbuf		b;
	int			f;

	/* only what every path reads is cleared (a memset of it all costs more) */
	out->has = 0;
	out->bad = NULL;
	out->bad_len = 0;
	out->nwant = out->nfields = 0;
	out->status = 0;
	for (f = 0; f < LP_JF_COUNT; f++)
		cap[f].type = LP_JV_NONE;
	if (lp_json_walk(spec, line, len, cap))
	{
#ifdef LP_ASSERTS
		/* the walk takes what the scan takes */
		lp_jval		ref[LP_JF_COUNT];

		for (f = 0; f < LP_JF_COUNT; f++)
			ref[f].type = LP_JV_NONE;
		LP_ASSERT(lp_json_scan(spec, line, line + len, ref) == NULL);
		for (f = 0; f < LP_JF_COUNT; f++)
			LP_ASSERT(ref[f].type == cap[f].type &&
					  (ref[f].type == LP_JV_NONE ||
					   (ref[f].s == cap[f].s && ref[f].len == cap[f].len && ref[f].esc == cap[f].esc)));
		lp_json_walk_lines++;
#endif
		stop = NULL;
	}
	else
	{
		for (f = 0; f < LP_JF_COUNT; f++)
			cap[f].type = LP_JV_NONE;
		stop = lp_json_scan(spec, line, line + len, cap);
	}
	if (stop)
	{
		out->bad = stop;
		out->bad_len = (size_t) (line + len - stop);
		return LP_ST_NOT_JSON;
	}

	/*
	 * Each field on its own, so that has names every field read well even
	 * when another is bad; the first error in the order route, latency,
	 * status, method, host, time is the line's.  Decoded strings go to the
	 * scratch, the route's last: it is built at the end.
	 */
	for (f = 0; f < LP_JF_COUNT; f++)
		err[f].st = LP_ST_OK;
	b.buf = ctx ? ctx->buf : NULL;
	b.cap = LP_ROUTE_BUF_SIZE(len);
	b.used = 0;
	lp_json_get_latency(spec, &cap[LP_JF_LATENCY], &b, out, &err[LP_JF_LATENCY]);
	lp_json_get_status(spec, &cap[LP_JF_STATUS], &b, out, &err[LP_JF_STATUS]);
	lp_json_get_method(spec, &cap[LP_JF_METHOD], &b, out, &err[LP_JF_METHOD]);
	lp_json_get_time(spec, &cap[LP_JF_TIME], &b, out, &err[LP_JF_TIME]);
	lp_json_get_route(spec, &cap[LP_JF_ROUTE], &cap[LP_JF_HOST], &cap[LP_JF_METHOD], flags,
					  &b, out, &err[LP_JF_ROUTE], &err[LP_JF_HOST]);
	for (f = 0; f < LP_JF_COUNT; f++)
	{
		static const uint8_t order[LP_JF_COUNT] = {
			LP_JF_ROUTE, LP_JF_LATENCY, LP_JF_STATUS, LP_JF_METHOD, LP_JF_HOST, LP_JF_TIME
		};
		const lp_jerr *e = &err[order[f]];

		if (e->st != LP_ST_OK)
		{
			out->bad = e->bad;
			out->bad_len = e->bad_len;
			return e->st;
		}
	}
	LP_ASSERT(out->has & LP_HAS_ROUTE && out->has & LP_HAS_LATENCY && out->route_len > 0);
	return LP_ST_OK;
}
