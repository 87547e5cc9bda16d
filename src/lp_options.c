/* src/lp_options.c -- the per-call options of logp95_agg and the name lists of error hints (plain C) */
#include "lp_options.h"

/* Room for every name and its ", " (the tables are checked against it). */
#define LP_NAMES_MAX 256

/* See lp_options.h. */
const char *
lp_names_join(char *buf, size_t cap, const void *table, size_t stride,
			  int (*keep) (const void *entry))
{
	const char *entry = table;
	size_t		n = 0;

	if (buf[0])
		return buf;				/* built on an earlier call */
	for (; *(const char *const *) entry; entry += stride)
	{
		const char *name = *(const char *const *) entry;
		size_t		len = strlen(name);

		if (keep && !keep(entry))
			continue;
		if (n + len + 3 > cap)
			break;				/* cannot happen with the tables here */
		if (n > 0)
		{
			memcpy(buf + n, ", ", 2);
			n += 2;
		}
		memcpy(buf + n, name, len);
		n += len;
	}
	buf[n] = '\0';
	return buf;
}

/* See lp_options.h: built from lp_options[] on the first call. */
const char *
lp_option_names(void)
{
	static char names[LP_NAMES_MAX];

	return lp_names_join(names, sizeof(names), lp_options, sizeof(lp_options[0]), NULL);
}

/* See lp_options.h: every option of logp95_agg(..., options). */
const lp_option_def lp_options[] = {
	/* count malformed lines, whatever logp95.on_malformed says */
	{"skip", LP_OPT_SKIP, LP_OPT_ERROR, 0},
	/* raise an error on a malformed line, whatever logp95.on_malformed says */
	{"error", LP_OPT_ERROR, LP_OPT_SKIP, 0},
	/* fold ids in the route's path into :id, :uuid, :hex */
	{"templates", LP_PARSE_TEMPLATES, 0, 0},
	/* keep the query string in the route (as the _query formats do) */
	{"query", LP_PARSE_KEEP_QUERY, 0, 1},
	/* key routes by virtual host too: "example.com/login" (formats that log it) */
	{"host", LP_PARSE_HOST, 0, 1},
	/* undo the log's escaping in the routes of the built-in formats */
	{"unescape", LP_PARSE_UNESCAPE, 0, 1},
	{NULL, 0, 0, 0}
};

/* See lp_options.h. */
lp_opts_status
lp_parse_options(const char *s, size_t len, unsigned *flags,
				 const char **word, size_t *word_len)
{
	const char *end = s + len;
	const char *p = s;

	*flags = 0;
	while (p < end && LP_IS_BLANK(*p))
		p++;
	if (p == end)
		return LP_OPTS_OK;		/* "" or blanks: no options */
	for (;;)
	{
		const char *w = p;
		const char *we;
		const char *next;
		const lp_option_def *o;

		while (w < end && LP_IS_BLANK(*w))
			w++;
		next = w;
		while (next < end && *next != ',')
			next++;
		we = next;
		while (we > w && LP_IS_BLANK(we[-1]))
			we--;
		*word = w;
		*word_len = (size_t) (we - w);
		for (o = lp_options; o->name; o++)
		{
			if (strlen(o->name) == *word_len && memcmp(o->name, w, *word_len) == 0)
				break;
		}
		if (!o->name)
			return LP_OPTS_UNKNOWN;
		if (*flags & o->conflicts)
			return LP_OPTS_CONFLICT;
		*flags |= o->flag;
		if (next == end)
			return LP_OPTS_OK;
		p = next + 1;			/* past the comma */
	}
}
