/* src/lp_format_arg.c -- the format argument: a name, name@offset, or a definition (plain C) */
#include "lp_format_arg.h"

#include <stdio.h>

/*
 * A UTC offset s[0..n): +HH:MM, +HHMM or +HH (or '-'), HH <= 23 and
 * MM <= 59, into *sec (seconds east).  0 when it is none.
 */
static int
lp_offset_read(const char *s, size_t n, int *sec)
{
	int			h,
				m = 0;

#define LP_D(i) ((unsigned) ((unsigned char) s[i] - '0'))
	if (n < 3 || (s[0] != '+' && s[0] != '-') || LP_D(1) > 9 || LP_D(2) > 9)
		return 0;
	h = (int) (LP_D(1) * 10 + LP_D(2));
	if (n == 6 && s[3] == ':' && LP_D(4) <= 9 && LP_D(5) <= 9)
		m = (int) (LP_D(4) * 10 + LP_D(5));
	else if (n == 5 && LP_D(3) <= 9 && LP_D(4) <= 9)
		m = (int) (LP_D(3) * 10 + LP_D(4));
	else if (n != 3)
		return 0;
#undef LP_D
	if (h > 23 || m > 59)
		return 0;
	*sec = (s[0] == '-' ? -1 : 1) * (h * 3600 + m * 60);
	return 1;
}

/* The dialects of a definition: the argument's prefix before ':' or '@'. */
typedef enum
{
	LP_BODY_NONE = 0,
	LP_BODY_NGINX,
	LP_BODY_APACHE,
	LP_BODY_JSON
} lp_body_kind;

/* The dialect arg[0..len) starts with ("nginx" then ':' or '@'), its prefix's length in *plen. */
static lp_body_kind
lp_body_of(const char *arg, size_t len, size_t *plen)
{
	static const struct
	{
		const char *prefix;
		lp_body_kind kind;
	}			kinds[] = {
		{"nginx", LP_BODY_NGINX}, {"apache", LP_BODY_APACHE}, {"json", LP_BODY_JSON}
	};
	size_t		i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
	{
		size_t		n = strlen(kinds[i].prefix);

		if (len > n && memcmp(arg, kinds[i].prefix, n) == 0 && (arg[n] == ':' || arg[n] == '@'))
		{
			*plen = n;
			return kinds[i].kind;
		}
	}
	return LP_BODY_NONE;
}

/* Set a definition error: the body's byte pos, message, hint. */
static lp_farg_status
lp_farg_def_error(lp_farg_error *err, const char *what, size_t body_off, size_t pos,
				  const char *message, const char *hint)
{
	err->status = LP_FARG_DEFINITION;
	err->what = what;
	err->body_off = body_off;
	err->pos = pos;
	snprintf(err->message, sizeof(err->message), "%s", message);
	err->hint = hint;
	return LP_FARG_DEFINITION;
}

/* Compile the body of a "json:" argument into cf (need: as lp_format_resolve). */
static lp_farg_status
lp_farg_json(const char *body, size_t n, size_t body_off, unsigned need, int offset_sec,
			 lp_custom_format *cf, lp_farg_error *err)
{
	static const char *const what = "JSON lines spec";
	lp_json_spec *spec = &cf->u.spec;
	lp_json_spec_status st;
	size_t		pos = 0;
	lp_format_def *d = &cf->def;

	st = lp_json_compile(body, n, spec, &pos);
	if (st != LP_JSPEC_OK)
		return lp_farg_def_error(err, what, body_off, pos, lp_json_spec_messages[st],
								 st == LP_JSPEC_NO_LATENCY ?
								 "Add latency=<path>:<unit> to the spec, the unit s, ms, us or ns." :
								 st == LP_JSPEC_NO_ROUTE ?
								 "Add route=<path> or request=<path> to the spec." : NULL);
	if ((need & LP_HAS_TIME) && spec->time_kind == LP_TIME_NONE)
		return lp_farg_def_error(err, what, body_off, n, "the spec has no time",
								 "Add time=<path>:<kind> to the spec, the kind iso8601, clf, epoch, epoch_ms, epoch_us or epoch_ns.");
	if ((need & LP_HAS_HOST) && !(spec->fields & (1u << LP_JF_HOST)))
		return lp_farg_def_error(err, what, body_off, n, "the spec has no host",
								 "Add host=<path> to the spec for the host option.");
	memset(d, 0, sizeof(*d));
	d->name = "json";
	d->family = LP_FAMILY_JSON;
	d->unit = spec->unit;
	d->has = LP_HAS_ROUTE | LP_HAS_LATENCY |
		((spec->fields & (1u << LP_JF_TIME)) ? LP_HAS_TIME : 0) |
		((spec->fields & (1u << LP_JF_STATUS)) ? LP_HAS_STATUS : 0) |
		((spec->fields & (1u << LP_JF_METHOD)) || spec->request ? LP_HAS_METHOD : 0) |
		((spec->fields & (1u << LP_JF_HOST)) ? LP_HAS_HOST : 0);
	d->time_kind = spec->time_kind;
	d->parse = lp_format_json_parse;
	d->pflags = LP_PARSE_UNESCAPE;
	d->data = spec;
	d->offset_sec = offset_sec;
	return LP_FARG_OK;
}

/* Compile the body of an "nginx:" or "apache:" argument into cf. */
static lp_farg_status
lp_farg_definition(lp_def_dialect dialect, const char *body, size_t n, size_t body_off,
				   unsigned need, int offset_sec, lp_custom_format *cf, lp_farg_error *err)
{
	const char *what = dialect == LP_DEF_NGINX ? "nginx log format" : "Apache log format";
	lp_def_program *prog = &cf->u.prog;
	lp_def_error de;
	lp_format_def *d = &cf->def;

	memset(&de, 0, sizeof(de));
	if (lp_definition_compile(dialect, body, n, need, offset_sec, prog, &de) != LP_DEF_OK)
		return lp_farg_def_error(err, what, body_off, de.pos, de.message, de.hint);
	memset(d, 0, sizeof(*d));
	d->name = dialect == LP_DEF_NGINX ? "nginx" : "apache";
	d->family = LP_FAMILY_DEFINITION;
	d->unit = (lp_unit) prog->unit;
	d->has = prog->has;
	d->time_kind = (lp_time_kind) prog->time_kind;
	d->parse = lp_format_definition_parse;
	d->pflags = LP_PARSE_UNESCAPE;
	d->data = prog;
	d->offset_sec = offset_sec;
	return LP_FARG_OK;
}

/* See lp_format_arg.h. */
lp_farg_status
lp_format_resolve(const char *arg, size_t len, unsigned need, lp_custom_format *cf,
				  const lp_format_def **out, lp_farg_error *err)
{
	size_t		plen = 0;
	lp_body_kind kind = lp_body_of(arg, len, &plen);
	const char *at;
	const lp_format_def *f;
	int			offset_sec = 0;

	memset(err, 0, sizeof(*err));
	*out = NULL;
	if (kind != LP_BODY_NONE)
	{
		size_t		b = plen;	/* at ':' or '@' */
		const char *body;

		if (arg[b] == '@')
		{
			/* the offset: +HH:MM, +HHMM or +HH, then the ':' before the body */
			static const size_t olens[] = {6, 5, 3};
			size_t		i;
			size_t		olen = 0;

			for (i = 0; i < 3 && olen == 0; i++)
			{
				if (b + 1 + olens[i] < len && arg[b + 1 + olens[i]] == ':' &&
					lp_offset_read(arg + b + 1, olens[i], &offset_sec))
					olen = olens[i];
			}
			if (olen == 0)
			{
				const char *colon = memchr(arg + b + 1, ':', len - b - 1);

				err->status = LP_FARG_BAD_OFFSET;
				snprintf(err->message, sizeof(err->message), "%.*s",
						 (int) ((colon ? (size_t) (colon - arg) : len) - b - 1), arg + b + 1);
				return err->status;
			}
			b += 1 + olen;
		}
		body = arg + b + 1;
		if (kind == LP_BODY_JSON)
		{
			if (lp_farg_json(body, len - b - 1, b + 1, need, offset_sec, cf, err) != LP_FARG_OK)
				return LP_FARG_DEFINITION;
		}
		else if (lp_farg_definition(kind == LP_BODY_NGINX ? LP_DEF_NGINX : LP_DEF_APACHE,
									body, len - b - 1, b + 1, need, offset_sec, cf, err) != LP_FARG_OK)
			return LP_FARG_DEFINITION;
		*out = &cf->def;
		return LP_FARG_OK;
	}

	/* a name, and maybe "@offset" */
	at = memchr(arg, '@', len);
	f = lp_format_lookup(arg, at ? (size_t) (at - arg) : len);
	if (f == NULL)
	{
		err->status = LP_FARG_UNKNOWN;
		return err->status;
	}
	if ((need & LP_HAS_HOST) && !(f->has & LP_HAS_HOST))
	{
		err->status = LP_FARG_LACKS;
		snprintf(err->message, sizeof(err->message), "log format \"%s\" has no host field", f->name);
		err->hint = "The option \"host\" needs a format that logs the virtual host: alb, cloudfront, envoy, caddy, traefik_json, or a definition with $host, %v or host=<path>.";
		return err->status;
	}
	if (at == NULL)
	{
		*out = f;
		return LP_FARG_OK;
	}
	if (!lp_offset_read(at + 1, len - (size_t) (at - arg) - 1, &offset_sec))
	{
		err->status = LP_FARG_BAD_OFFSET;
		snprintf(err->message, sizeof(err->message), "%.*s", (int) (len - (size_t) (at - arg) - 1), at + 1);
		return err->status;
	}
	if (!(f->flags & LP_FMT_LOCAL_TIME))
	{
		err->status = LP_FARG_OFFSET_UNUSED;
		snprintf(err->message, sizeof(err->message),
				 "log format \"%s\" writes its times with their UTC offset", f->name);
		err->hint = "Only haproxy, cloudfront, iis and the nginx:, apache: and json: forms take an offset, as in haproxy@+05:30.";
		return err->status;
	}
	cf->def = *f;
	cf->def.offset_sec = offset_sec;
	*out = &cf->def;
	return LP_FARG_OK;
}
