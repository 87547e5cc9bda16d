/* src/lp_templates.c -- route templates: ids in a route's path folded into :id, :uuid, :hex (plain C) */
#include "lp_templates.h"

/* Is c a hex digit (either case)? */
static inline int
lp_is_hex(unsigned char c)
{
	return (unsigned) (c - '0') <= 9 || (unsigned) ((c | 0x20) - 'a') <= 5;
}

/* The placeholder of one path segment s[0..n), or NULL when it stays. */
static const char *
lp_segment_placeholder(const char *s, size_t n, size_t *plen)
{
	size_t		i;
	size_t		digits = 0;

	if (n == 0)
		return NULL;
	for (i = 0; i < n; i++)
	{
		unsigned char c = (unsigned char) s[i];

		if ((unsigned) (c - '0') <= 9)
			digits++;
		else if (!lp_is_hex(c))
			break;
	}
	if (i == n)
	{
		if (digits == n)
		{
			*plen = 3;
			return ":id";
		}
		if (n >= 16 && digits > 0)
		{
			*plen = 4;
			return ":hex";
		}
		return NULL;
	}
	if (n == 36 && s[8] == '-' && s[13] == '-' && s[18] == '-' && s[23] == '-')
	{
		for (i = 0; i < n; i++)
		{
			if (i == 8 || i == 13 || i == 18 || i == 23)
				continue;
			if (!lp_is_hex((unsigned char) s[i]))
				return NULL;
		}
		*plen = 5;
		return ":uuid";
	}
	return NULL;
}

/* See lp_templates.h. */
size_t
lp_route_template(const char *r, size_t n, int slash, int templates, char *buf)
{
	const char *end = r + n;
	const char *qm = n > 0 ? memchr(r, '?', n) : NULL;
	const char *path_end = qm ? qm : end;
	const char *copied = r;		/* r[.. copied) is in buf already */
	const char *s = r;
	char	   *o = buf;
	int			built = slash;

	if (slash)
		*o++ = '/';
	while (templates && s < path_end)
	{
		const char *e = memchr(s, '/', (size_t) (path_end - s));
		const char *ph;
		size_t		plen;

		if (!e)
			e = path_end;
		if ((ph = lp_segment_placeholder(s, (size_t) (e - s), &plen)) != NULL)
		{
			memcpy(o, copied, (size_t) (s - copied));
			o += s - copied;
			memcpy(o, ph, plen);
			o += plen;
			copied = e;
			built = 1;
		}
		if (e == path_end)
			break;
		s = e + 1;
	}
	if (!built)
		return 0;
	memcpy(o, copied, (size_t) (end - copied));
	o += end - copied;
	LP_ASSERT((size_t) (o - buf) <= LP_ROUTE_BUF_SIZE(n));	/* the caller's buffer */
	return (size_t) (o - buf);
}

/* See lp_templates.h. */
void
lp_route_finish(const lp_parse_ctx *ctx, const char *r, size_t n, int slash,
				lp_result *out)
{
	int			templates = ctx && (ctx->flags & LP_PARSE_TEMPLATES);
	size_t		m;

	out->route = r;
	out->route_len = n;
	if (!templates && !slash)
		return;
	if (!ctx || !ctx->buf)
	{
		/* no scratch (the caller's promise broken): drop the query string */
		out->route = "/";
		out->route_len = 1;
		return;
	}
	m = lp_route_template(r, n, slash, templates, ctx->buf);
	if (m > 0)
	{
		out->route = ctx->buf;
		out->route_len = m;
	}
}
