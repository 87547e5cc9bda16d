/*
 * test/unit/ref_json.h -- a plain reference for JSON lines (lp_json): a
 * recursive-descent JSON decoder into a tree, path lookup, and the field
 * rules of docs/formats.md written out directly
 *
 * Nothing here shares code with src/lp_json.c: the decoder builds the
 * whole tree (every string decoded, every key kept), looks paths up in it
 * (the last of equal keys, as PostgreSQL's jsonb keeps), converts
 * latencies with its own decimal arithmetic, and builds routes in
 * malloc'd memory.  Route templates are lp_route_template's rule, called
 * on the whole route as the combined formats call it.  Header-only, for the
 * unit tests (test_json.c) and the fuzzer (test/fuzz/fuzz_json.c).
 */
#ifndef REF_JSON_H
#define REF_JSON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lp_json.h"
#include "lp_templates.h"

/* A JSON value of the tree. */
typedef struct rj_val
{
	int			type;			/* 1 string, 2 number, 3 true, 4 false, 5 null, 6 object, 7 array */
	const char *raw;			/* its text in the line (a string's between its quotes) */
	size_t		rawlen;
	char	   *str;			/* a string decoded (a lone surrogate, \u0000 as logged) */
	size_t		len;
	int			high;			/* a string: a \u escape gave a character >= U+0080 */
	int			esc;			/* a string: it has a backslash */
	int			n;				/* members or elements */
	char	  **keys;			/* an object's keys, decoded */
	size_t	   *keylens;
	struct rj_val **kids;
} rj_val;

enum
{
	RJ_STR = 1, RJ_NUM, RJ_TRUE, RJ_FALSE, RJ_NULL, RJ_OBJ, RJ_ARR
};

/* The parser's position and its first error. */
typedef struct rj_parser
{
	const char *p;
	const char *end;
	const char *err;			/* NULL, or where the text stops being JSON */
} rj_parser;

static void
rj_free(rj_val *v)
{
	int			i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++)
	{
		rj_free(v->kids[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->kids);
	free(v->keys);
	free(v->keylens);
	free(v->str);
	free(v);
}

static int
rj_fail(rj_parser *ps, const char *at)
{
	if (!ps->err)
		ps->err = at;
	return 0;
}

static void
rj_ws(rj_parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static int
rj_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Append code point cp as UTF-8. */
static void
rj_put_cp(char *o, size_t *n, unsigned long cp)
{
	if (cp < 0x80)
		o[(*n)++] = (char) cp;
	else if (cp < 0x800)
	{
		o[(*n)++] = (char) (0xC0 | (cp >> 6));
		o[(*n)++] = (char) (0x80 | (cp & 0x3F));
	}
	else if (cp < 0x10000)
	{
		o[(*n)++] = (char) (0xE0 | (cp >> 12));
		o[(*n)++] = (char) (0x80 | ((cp >> 6) & 0x3F));
		o[(*n)++] = (char) (0x80 | (cp & 0x3F));
	}
	else
	{
		o[(*n)++] = (char) (0xF0 | (cp >> 18));
		o[(*n)++] = (char) (0x80 | ((cp >> 12) & 0x3F));
		o[(*n)++] = (char) (0x80 | ((cp >> 6) & 0x3F));
		o[(*n)++] = (char) (0x80 | (cp & 0x3F));
	}
}

/* A string at ps->p (its opening quote): decoded into a new value. */
static rj_val *
rj_string(rj_parser *ps)
{
	const char *start = ++ps->p;
	rj_val	   *v = calloc(1, sizeof(rj_val));
	size_t		cap = 16;
	char	   *o = malloc(cap);
	size_t		n = 0;

	v->type = RJ_STR;
	v->raw = start;
	for (;;)
	{
		unsigned char c;

		if (n + 8 > cap)
			o = realloc(o, cap *= 2);
		if (ps->p >= ps->end)
		{
			rj_fail(ps, ps->end);
			break;
		}
		c = (unsigned char) *ps->p;
		if (c == '"')
		{
			v->rawlen = (size_t) (ps->p - start);
			ps->p++;
			v->str = o;
			v->len = n;
			return v;
		}
		if (c < 0x20)
		{
			rj_fail(ps, ps->p);
			break;
		}
		if (c != '\\')
		{
			o[n++] = (char) c;
			ps->p++;
			continue;
		}
		v->esc = 1;
		ps->p++;
		if (ps->p >= ps->end)
		{
			rj_fail(ps, ps->end);
			break;
		}
		c = (unsigned char) *ps->p++;
		if (c == '"' || c == '\\' || c == '/')
			o[n++] = (char) c;
		else if (c == 'b')
			o[n++] = '\b';
		else if (c == 'f')
			o[n++] = '\f';
		else if (c == 'n')
			o[n++] = '\n';
		else if (c == 'r')
			o[n++] = '\r';
		else if (c == 't')
			o[n++] = '\t';
		else if (c == 'u')
		{
			unsigned long u = 0;
			int			k;
			const char *esc_at = ps->p - 2;		/* the backslash */

			for (k = 0; k < 4; k++)
			{
				int			h = ps->p < ps->end ? rj_hexval(*ps->p) : -1;

				if (h < 0)
				{
					rj_fail(ps, ps->p < ps->end ? ps->p : ps->end);
					goto bad;
				}
				u = u * 16 + (unsigned long) h;
				ps->p++;
			}
			if (u >= 0xD800 && u <= 0xDBFF && ps->end - ps->p >= 6 &&
				ps->p[0] == '\\' && ps->p[1] == 'u' &&
				rj_hexval(ps->p[2]) >= 0 && rj_hexval(ps->p[3]) >= 0 &&
				rj_hexval(ps->p[4]) >= 0 && rj_hexval(ps->p[5]) >= 0)
			{
				unsigned long lo = (unsigned long) (rj_hexval(ps->p[2]) << 12 |
													rj_hexval(ps->p[3]) << 8 |
													rj_hexval(ps->p[4]) << 4 |
													rj_hexval(ps->p[5]));

				if (lo >= 0xDC00 && lo <= 0xDFFF)
				{
					ps->p += 6;
					v->high = 1;
					rj_put_cp(o, &n, 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00));
					continue;
				}
			}
			if ((u >= 0xD800 && u <= 0xDFFF) || u == 0)
			{
				/* a lone surrogate or a NUL: kept as logged */
				memcpy(o + n, esc_at, 6);
				n += 6;
				continue;
			}
			if (u >= 0x80)
				v->high = 1;
			rj_put_cp(o, &n, u);
		}
		else
		{
			rj_fail(ps, ps->p - 1);
			break;
		}
	}
bad:
	free(o);
	free(v);
	return NULL;
}

static rj_val *rj_value(rj_parser *ps, int depth);

/* A number at ps->p: RFC 8259's grammar, checked byte by byte. */
static rj_val *
rj_number(rj_parser *ps)
{
	const char *s = ps->p;
	const char *p = s;
	const char *e = ps->end;
	rj_val	   *v;

#define RJ_DIGIT(q) ((q) < e && *(q) >= '0' && *(q) <= '9')
	if (p < e && *p == '-')
		p++;
	if (!RJ_DIGIT(p))
		return rj_fail(ps, p < e ? p : e), NULL;
	if (*p == '0')
		p++;
	else
		while (RJ_DIGIT(p))
			p++;
	if (p < e && *p == '.')
	{
		p++;
		if (!RJ_DIGIT(p))
			return rj_fail(ps, p < e ? p : e), NULL;
		while (RJ_DIGIT(p))
			p++;
	}
	if (p < e && (*p == 'e' || *p == 'E'))
	{
		p++;
		if (p < e && (*p == '+' || *p == '-'))
			p++;
		if (!RJ_DIGIT(p))
			return rj_fail(ps, p < e ? p : e), NULL;
		while (RJ_DIGIT(p))
			p++;
	}
#undef RJ_DIGIT
	v = calloc(1, sizeof(rj_val));
	v->type = RJ_NUM;
	v->raw = s;
	v->rawlen = (size_t) (p - s);
	ps->p = p;
	return v;
}

/* An object or array at ps->p, at nesting depth (its own level). */
static rj_val *
rj_container(rj_parser *ps, int depth)
{
	int			obj = *ps->p == '{';
	char		close = obj ? '}' : ']';
	rj_val	   *v;
	int			cap = 0;

	if (depth > LP_JSON_MAX_DEPTH)
		return rj_fail(ps, ps->p), NULL;
	v = calloc(1, sizeof(rj_val));
	v->type = obj ? RJ_OBJ : RJ_ARR;
	v->raw = ps->p;
	v->rawlen = 1;
	ps->p++;
	rj_ws(ps);
	if (ps->p < ps->end && *ps->p == close)
	{
		ps->p++;
		return v;
	}
	for (;;)
	{
		rj_val	   *key = NULL;
		rj_val	   *kid;

		if (obj)
		{
			if (ps->p >= ps->end || *ps->p != '"')
			{
				rj_fail(ps, ps->p < ps->end ? ps->p : ps->end);
				break;
			}
			if (!(key = rj_string(ps)))
				break;
			rj_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':')
			{
				rj_fail(ps, ps->p < ps->end ? ps->p : ps->end);
				rj_free(key);
				break;
			}
			ps->p++;
			rj_ws(ps);
		}
		if (!(kid = rj_value(ps, depth + 1)))
		{
			rj_free(key);
			break;
		}
		if (v->n == cap)
		{
			cap = cap ? cap * 2 : 4;
			v->kids = realloc(v->kids, sizeof(rj_val *) * cap);
			if (obj)
			{
				v->keys = realloc(v->keys, sizeof(char *) * cap);
				v->keylens = realloc(v->keylens, sizeof(size_t) * cap);
			}
		}
		if (obj)
		{
			v->keys[v->n] = key->str;
			v->keylens[v->n] = key->len;
			key->str = NULL;
			rj_free(key);
		}
		v->kids[v->n++] = kid;
		rj_ws(ps);
		if (ps->p >= ps->end)
		{
			rj_fail(ps, ps->end);
			break;
		}
		if (*ps->p == ',')
		{
			ps->p++;
			rj_ws(ps);
			continue;
		}
		if (*ps->p == close)
		{
			ps->p++;
			return v;
		}
		rj_fail(ps, ps->p);
		break;
	}
	rj_free(v);
	return NULL;
}

/* Any value at ps->p, at nesting depth. */
static rj_val *
rj_value(rj_parser *ps, int depth)
{
	const char *lits[3] = {"true", "false", "null"};
	int			types[3] = {RJ_TRUE, RJ_FALSE, RJ_NULL};
	int			i;

	if (ps->p >= ps->end)
		return rj_fail(ps, ps->end), NULL;
	if (*ps->p == '"')
		return rj_string(ps);
	if (*ps->p == '{' || *ps->p == '[')
		return rj_container(ps, depth);
	for (i = 0; i < 3; i++)
	{
		if (*ps->p == lits[i][0])
		{
			size_t		k;
			size_t		n = strlen(lits[i]);
			rj_val	   *v;

			for (k = 0; k < n; k++)
				if (ps->p + k >= ps->end || ps->p[k] != lits[i][k])
					return rj_fail(ps, ps->p + k < ps->end ? ps->p + k : ps->end), NULL;
			v = calloc(1, sizeof(rj_val));
			v->type = types[i];
			v->raw = ps->p;
			v->rawlen = n;
			ps->p += n;
			return v;
		}
	}
	return rj_number(ps);
}

/*
 * The line as one JSON object: its tree, or NULL with *err where it stops
 * being one.
 */
static rj_val *
rj_parse_line(const char *line, size_t len, const char **err)
{
	rj_parser	ps = {line, line + len, NULL};
	rj_val	   *v;

	rj_ws(&ps);
	if (ps.p >= ps.end || *ps.p != '{')
	{
		*err = ps.p;
		return NULL;
	}
	v = rj_container(&ps, 1);
	if (!v)
	{
		*err = ps.err ? ps.err : ps.end;
		return NULL;
	}
	rj_ws(&ps);
	if (ps.p != ps.end)
	{
		*err = ps.p;
		rj_free(v);
		return NULL;
	}
	*err = NULL;
	return v;
}

/*
 * The value at path (dotted keys, a backslash taking the next byte) in
 * root: at each step the last member with that key; NULL when the path
 * runs out of objects or keys.
 */
static const rj_val *
rj_lookup(const rj_val *root, const char *path, size_t plen)
{
	const rj_val *v = root;
	size_t		i = 0;

	for (;;)
	{
		char		key[LP_JSON_SPEC_MAX];
		size_t		kn = 0;
		int			k,
					found = -1;

		while (i < plen && path[i] != '.')
		{
			if (path[i] == '\\')
				i++;
			key[kn++] = path[i++];
		}
		if (!v || v->type != RJ_OBJ)
			return NULL;
		for (k = 0; k < v->n; k++)
			if (v->keylens[k] == kn && memcmp(v->keys[k], key, kn) == 0)
				found = k;
		if (found < 0)
			return NULL;
		v = v->kids[found];
		if (i >= plen)
			return v;
		i++;
	}
}

/* What the reference makes of one line. */
typedef struct rj_expect
{
	lp_status	st;
	unsigned	has;
	size_t		stop;			/* LP_ST_NOT_JSON: the offset of bad */
	char	   *bad;			/* other errors: what the message quotes (malloc'd) */
	size_t		bad_len;
	char	   *route;
	size_t		route_len;
	int64_t		latency;
	int			status;
	char	   *method;
	size_t		method_len;
	char	   *time;
	size_t		time_len;
	char	   *host;
	size_t		host_len;
} rj_expect;

static void
rj_expect_free(rj_expect *x)
{
	free(x->bad);
	free(x->route);
	free(x->method);
	free(x->time);
	free(x->host);
	memset(x, 0, sizeof(*x));
}

static char *
rj_dup(const char *s, size_t n)
{
	char	   *d = malloc(n + 1);

	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

/* A field's error (the first one in the order of the fields is the line's). */
typedef struct rj_ferr
{
	lp_status	st;
	char	   *bad;
	size_t		bad_len;
} rj_ferr;

static void
rj_ferr_set(rj_ferr *e, lp_status st, const char *bad, size_t n)
{
	e->st = st;
	e->bad = rj_dup(bad, n);
	e->bad_len = n;
}

/* The text of a string value: decoded, or as logged. */
static const char *
rj_text(const rj_val *v, size_t *n, int logged)
{
	if (logged)
	{
		*n = v->rawlen;
		return v->raw;
	}
	*n = v->len;
	return v->str;
}

/*
 * A latency text in unit to ms: 0 ok, 1 not a number, 2 out of range.
 * Written as exact decimal arithmetic on the digits: ms = D * 10^k rounded
 * half up, with D the digits and k from the point, exponent and unit.
 */
static int
rj_latency(const char *s, size_t n, lp_unit unit, int64_t *ms)
{
	char	   *d = malloc(n + 1);
	size_t		nd = 0,
				i = 0;
	long long	k = 0;
	long long	ex = 0;
	int			exneg = 0,
				sawdig = 0;
	long long	j;
	unsigned __int128 acc = 0;
	int			rc = 0;

	/* D+ */
	while (i < n && s[i] >= '0' && s[i] <= '9')
		d[nd++] = s[i++], sawdig = 1;
	if (!sawdig)
		goto bad;
	if (i < n && s[i] == '.')
	{
		size_t		f0 = ++i;

		while (i < n && s[i] >= '0' && s[i] <= '9')
			d[nd++] = s[i++];
		if (i == f0)
			goto bad;
		k -= (long long) (i - f0);
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E'))
	{
		size_t		e0;

		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			exneg = s[i++] == '-';
		e0 = i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
		{
			if (ex < 1000000000LL)
				ex = ex * 10 + (s[i] - '0');
			i++;
		}
		if (i == e0)
			goto bad;
	}
	if (i != n)
		goto bad;
	k += exneg ? -ex : ex;
	k += unit == LP_UNIT_S ? 3 : unit == LP_UNIT_MS ? 0 : unit == LP_UNIT_US ? -3 : -6;
	/* strip leading zeros */
	{
		size_t		z = 0;

		while (z < nd && d[z] == '0')
			z++;
		memmove(d, d + z, nd - z);
		nd -= z;
	}
	if (nd == 0)
	{
		*ms = 0;
		goto out;
	}
	j = (long long) nd + k;		/* digits of the integer part */
	if (j > 19)
	{
		rc = 2;
		goto out;
	}
	for (i = 0; (long long) i < j; i++)
		acc = acc * 10 + (unsigned) ((long long) i < (long long) nd ? d[i] - '0' : 0);
	if (j >= 0 && j < (long long) nd && d[j] >= '5')
		acc++;
	else if (j < 0 && 0)
		acc++;
	if (acc > (unsigned __int128) INT64_MAX)
	{
		rc = 2;
		goto out;
	}
	*ms = (int64_t) acc;
	goto out;
bad:
	rc = 1;
out:
	free(d);
	return rc;
}

static int
rj_tchar(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		(c && strchr("!#$%&'*+-.^_`|~", c));
}

/*
 * The route of target t[0..n): 0 and *r (malloc'd), or LP_ST_BAD_REQUEST.
 * Absolute form to its path, the query cut unless keep.
 */
static lp_status
rj_target(const char *t, size_t n, int keep, char **r, size_t *rn)
{
	size_t		i = 0;
	int			slash = 0;

	if (n > 0 && ((t[0] >= 'a' && t[0] <= 'z') || (t[0] >= 'A' && t[0] <= 'Z')))
	{
		size_t		s = 1;

		while (s < n && (((t[s] | 0x20) >= 'a' && (t[s] | 0x20) <= 'z') ||
						 (t[s] >= '0' && t[s] <= '9') || t[s] == '+' || t[s] == '-' || t[s] == '.'))
			s++;
		if (s + 3 <= n && memcmp(t + s, "://", 3) == 0)
		{
			size_t		a = s + 3;

			while (a < n && t[a] != '/' && t[a] != '?')
				a++;
			if (a == n || (t[a] == '?' && !keep))
			{
				*r = rj_dup("/", 1);
				*rn = 1;
				return LP_ST_OK;
			}
			slash = t[a] == '?';
			i = a;
		}
	}
	{
		size_t		e = n;

		if (!keep)
		{
			size_t		q;

			for (q = i; q < n; q++)
				if (t[q] == '?')
				{
					e = q;
					break;
				}
		}
		if (e == i)
			return LP_ST_BAD_REQUEST;
		*r = malloc(e - i + 2);
		if (slash)
			(*r)[0] = '/';
		memcpy(*r + slash, t + i, e - i);
		*rn = e - i + (size_t) slash;
	}
	return LP_ST_OK;
}

/* Field f's path in spec, as written. */
static void
rj_path(const lp_json_spec *spec, int f, const char **p, size_t *n)
{
	*p = spec->text + spec->path_off[f];
	*n = spec->path_len[f];
}

/*
 * What lp_json_parse should give for line with spec and flags
 * (LP_PARSE_KEEP_QUERY, LP_PARSE_TEMPLATES, LP_PARSE_HOST,
 * LP_PARSE_LOGGED; always with a scratch buffer).
 */
static void
rj_expect_line(const lp_json_spec *spec, const char *line, size_t len, unsigned flags,
			   rj_expect *x)
{
	const char *stop;
	rj_val	   *root = rj_parse_line(line, len, &stop);
	const rj_val *fv[LP_JF_COUNT];
	rj_ferr		fe[LP_JF_COUNT];
	const char *path;
	size_t		pn;
	int			f;
	static const int order[LP_JF_COUNT] = {
		LP_JF_ROUTE, LP_JF_LATENCY, LP_JF_STATUS, LP_JF_METHOD, LP_JF_HOST, LP_JF_TIME
	};

	memset(x, 0, sizeof(*x));
	if (!root)
	{
		x->st = LP_ST_NOT_JSON;
		x->stop = (size_t) (stop - line);
		return;
	}
	memset(fe, 0, sizeof(fe));
	for (f = 0; f < LP_JF_COUNT; f++)
	{
		fv[f] = NULL;
		if (spec->fields & (1u << f))
		{
			rj_path(spec, f, &path, &pn);
			fv[f] = rj_lookup(root, path, pn);
			if (fv[f] && fv[f]->type == RJ_NULL)
				fv[f] = NULL;	/* null is as absent, but for the latency */
		}
	}

	/* latency */
	{
		const rj_val *v = rj_lookup(root, spec->text + spec->path_off[LP_JF_LATENCY],
									spec->path_len[LP_JF_LATENCY]);
		const char *s = NULL;
		size_t		n = 0;

		rj_path(spec, LP_JF_LATENCY, &path, &pn);
		if (!v)
			rj_ferr_set(&fe[LP_JF_LATENCY], LP_ST_NO_FIELD, path, pn);
		else if (v->type == RJ_NULL)
			rj_ferr_set(&fe[LP_JF_LATENCY], LP_ST_NO_LATENCY, "null", 4);
		else if (v->type == RJ_STR && !(s = rj_text(v, &n, 0)))
			rj_ferr_set(&fe[LP_JF_LATENCY], LP_ST_BAD_FIELD, path, pn);
		else if (v->type == RJ_STR && (n == 0 || (n == 1 && s[0] == '-')))
			rj_ferr_set(&fe[LP_JF_LATENCY], LP_ST_NO_LATENCY, s, n);
		else if (v->type != RJ_STR && v->type != RJ_NUM)
			rj_ferr_set(&fe[LP_JF_LATENCY], LP_ST_BAD_FIELD, path, pn);
		else
		{
			int			rc;

			if (v->type == RJ_NUM)
			{
				s = v->raw;
				n = v->rawlen;
			}
			rc = rj_latency(s, n, spec->unit, &x->latency);
			if (rc == 1)
				rj_ferr_set(&fe[LP_JF_LATENCY], LP_ST_BAD_FIELD, path, pn);
			else if (rc == 2)
				rj_ferr_set(&fe[LP_JF_LATENCY], LP_ST_REQTIME_RANGE, s, n);
			else
				x->has |= LP_HAS_LATENCY;
		}
	}

	/* status */
	if (fv[LP_JF_STATUS])
	{
		const rj_val *v = fv[LP_JF_STATUS];
		const char *s = v->raw;
		size_t		n = v->rawlen;

		rj_path(spec, LP_JF_STATUS, &path, &pn);
		if (v->type == RJ_OBJ || v->type == RJ_ARR)
			rj_ferr_set(&fe[LP_JF_STATUS], LP_ST_BAD_STATUS, path, pn);
		else if (v->type == RJ_STR && !(s = rj_text(v, &n, 0)))
			rj_ferr_set(&fe[LP_JF_STATUS], LP_ST_BAD_STATUS, path, pn);
		else if (v->type == RJ_STR && (n == 0 || (n == 1 && s[0] == '-')))
			;
		else
		{
			int			ok = (v->type == RJ_STR || v->type == RJ_NUM) && n >= 1 && n <= 3;
			int			code = 0;
			size_t		i;

			for (i = 0; ok && i < n; i++)
			{
				if (s[i] < '0' || s[i] > '9')
					ok = 0;
				else
					code = code * 10 + (s[i] - '0');
			}
			if (ok && code != 0 && code < 100)
				ok = 0;
			if (!ok)
				rj_ferr_set(&fe[LP_JF_STATUS], LP_ST_BAD_STATUS, s, n);
			else if (code)
			{
				x->status = code;
				x->has |= LP_HAS_STATUS;
			}
		}
	}

	/* method */
	if (fv[LP_JF_METHOD])
	{
		const rj_val *v = fv[LP_JF_METHOD];
		const char *s = NULL;
		size_t		n = 0,
					i = 0;

		if (v->type == RJ_STR && (s = rj_text(v, &n, 0)))
			while (i < n && rj_tchar((unsigned char) s[i]))
				i++;
		if (!s || n == 0 || i < n)
		{
			rj_path(spec, LP_JF_METHOD, &path, &pn);
			rj_ferr_set(&fe[LP_JF_METHOD], LP_ST_BAD_FIELD, path, pn);
		}
		else
		{
			x->method = rj_dup(s, n);
			x->method_len = n;
			x->has |= LP_HAS_METHOD;
		}
	}

	/* time */
	if (fv[LP_JF_TIME])
	{
		const rj_val *v = fv[LP_JF_TIME];
		int			epoch = spec->time_kind != LP_TIME_ISO8601 && spec->time_kind != LP_TIME_CLF;
		const char *s = NULL;
		size_t		n = 0;

		if (v->type == RJ_NUM && epoch)
		{
			s = v->raw;
			n = v->rawlen;
		}
		else if (v->type == RJ_STR)
			s = rj_text(v, &n, 0);
		if (!s)
		{
			rj_path(spec, LP_JF_TIME, &path, &pn);
			rj_ferr_set(&fe[LP_JF_TIME], LP_ST_BAD_FIELD, path, pn);
		}
		else if (n > 0)
		{
			x->time = rj_dup(s, n);
			x->time_len = n;
			x->has |= LP_HAS_TIME;
		}
	}

	/* host */
	if (fv[LP_JF_HOST])
	{
		const rj_val *v = fv[LP_JF_HOST];
		const char *s = NULL;
		size_t		n = 0;

		if (v->type == RJ_STR)
			s = rj_text(v, &n, (flags & LP_PARSE_LOGGED) != 0);
		if (!s)
		{
			rj_path(spec, LP_JF_HOST, &path, &pn);
			rj_ferr_set(&fe[LP_JF_HOST], LP_ST_BAD_FIELD, path, pn);
		}
		else if (n > 0)
		{
			x->host = rj_dup(s, n);
			x->host_len = n;
			x->has |= LP_HAS_HOST;
		}
	}

	/* route */
	{
		const rj_val *v = fv[LP_JF_ROUTE];
		const char *s = NULL;
		size_t		n = 0;

		rj_path(spec, LP_JF_ROUTE, &path, &pn);
		if (!v)
			rj_ferr_set(&fe[LP_JF_ROUTE], LP_ST_NO_FIELD, path, pn);
		else if (v->type != RJ_STR)
			rj_ferr_set(&fe[LP_JF_ROUTE], LP_ST_BAD_FIELD, path, pn);
		else if ((s = rj_text(v, &n, (flags & LP_PARSE_LOGGED) != 0)), !spec->request && n == 1 && s[0] == '-')
			rj_ferr_set(&fe[LP_JF_ROUTE], LP_ST_BAD_REQUEST, s, n);
		else
		{
			const char *t = s;
			size_t		tn = n;
			size_t		ml = 0;
			lp_status	st = LP_ST_OK;
			char	   *r = NULL;
			size_t		rn = 0;

			if (spec->request)
			{
				/* METHOD SP TARGET [...] */
				size_t		te;

				while (ml < n && rj_tchar((unsigned char) s[ml]))
					ml++;
				if (n == 1 && s[0] == '-')
					st = LP_ST_BAD_REQUEST;
				else if (ml == 0 || ml == n || s[ml] != ' ' || (ml == 1 && s[0] == '-'))
					st = LP_ST_NOT_HTTP;
				else
				{
					t = s + ml + 1;
					for (te = 0; t + te < s + n && t[te] != ' ' && t[te] != '\t'; te++)
						;
					tn = te;
					if (tn == 0)
						st = LP_ST_NOT_HTTP;
					else if (ml == 3 && !memcmp(s, "PRI", 3) && tn == 1 && t[0] == '*' &&
							 (size_t) (s + n - (t + tn)) == 9 && !memcmp(t + tn, " HTTP/2.0", 9))
						st = LP_ST_NOT_HTTP;
				}
			}
			if (st == LP_ST_OK)
				st = rj_target(t, tn, (flags & LP_PARSE_KEEP_QUERY) != 0, &r, &rn);
			if (st != LP_ST_OK)
				rj_ferr_set(&fe[LP_JF_ROUTE], st, s, n);
			else
			{
				if (flags & LP_PARSE_TEMPLATES)
				{
					char	   *tb = malloc(LP_ROUTE_BUF_SIZE(rn));
					size_t		m = lp_route_template(r, rn, 0, 1, tb);

					if (m)
					{
						free(r);
						r = tb;
						rn = m;
					}
					else
						free(tb);
				}
				if ((flags & LP_PARSE_HOST) && x->host)
				{
					char	   *hr = malloc(x->host_len + rn + 1);

					memcpy(hr, x->host, x->host_len);
					memcpy(hr + x->host_len, r, rn);
					free(r);
					r = hr;
					rn += x->host_len;
				}
				x->route = r;
				x->route_len = rn;
				x->has |= LP_HAS_ROUTE;
				/* a \u escape of U+0080 or above decoded in the route's text or its host prefix */
				if (!(flags & LP_PARSE_LOGGED) &&
					(v->high || ((flags & LP_PARSE_HOST) && x->host && fv[LP_JF_HOST]->high)))
					x->has |= LP_HAS_ROUTE_HIGH;
				if (spec->request && !fv[LP_JF_METHOD])
				{
					x->method = rj_dup(s, ml);
					x->method_len = ml;
					x->has |= LP_HAS_METHOD;
				}
			}
		}
	}
	x->st = LP_ST_OK;
	for (f = 0; f < LP_JF_COUNT; f++)
	{
		rj_ferr    *e = &fe[order[f]];

		if (e->st != LP_ST_OK && x->st == LP_ST_OK)
		{
			x->st = e->st;
			x->bad = e->bad;
			x->bad_len = e->bad_len;
			e->bad = NULL;
		}
		free(e->bad);
	}
	rj_free(root);
}

#endif							/* REF_JSON_H */
