/* src/lp_options.h -- the per-call options of logp95_agg and the name lists of error hints (plain C) */
#ifndef LP_OPTIONS_H
#define LP_OPTIONS_H

#include "lp_format.h"

/*
 * The words of logp95_agg(..., options), one table, lp_options[]: the glue
 * reads an options string with lp_parse_options and names the words in
 * its hint with lp_option_names.  A word sets a flag of the call: one of
 * the LP_PARSE_* flags of lp_format.h, which every parser honours
 * ("query": LP_PARSE_KEEP_QUERY, "templates": LP_PARSE_TEMPLATES), or one
 * of these, the caller's (the malformed policy).
 */
#define LP_OPT_SKIP			0x08	/* count malformed lines (overrides logp95.on_malformed) */
#define LP_OPT_ERROR		0x10	/* raise an error on a malformed line (the same) */
#define LP_OPT_STATUS		0x200	/* count status classes per route (issue 24) */
#define LP_OPT_METHOD		0x400	/* key routes "METHOD route" (implies status) */
#define LP_OPT_OK_LATENCY	0x800	/* leave 5xx out of the histograms (implies status) */

/* One option word of logp95_agg(..., options). */
typedef struct lp_option_def
{
	const char *name;			/* the word, e.g. "skip" */
	unsigned	flag;			/* LP_OPT_* or LP_PARSE_* */
	unsigned	conflicts;		/* flags it cannot be given with */
	int			lines_only;		/* 1: only for lines (not (route, latency) rows) */
} lp_option_def;

/* Every option, ended by an entry with a NULL name. */
extern const lp_option_def lp_options[];

/* Outcome of reading an options string. */
typedef enum lp_opts_status
{
	LP_OPTS_OK = 0,
	LP_OPTS_UNKNOWN,			/* *word is not an option */
	LP_OPTS_CONFLICT			/* *word conflicts with an earlier word */
} lp_opts_status;

/*
 * Read an options string: words separated by commas, blanks around them
 * ignored, "" for none; the flags of every word or-ed into *flags.  On an
 * error *word and *word_len name the word at fault.
 */
extern lp_opts_status lp_parse_options(const char *s, size_t len, unsigned *flags,
									   const char **word, size_t *word_len);

/* Every option name in table order, comma-separated, for error messages. */
extern const char *lp_option_names(void);

/*
 * The ", "-separated names of a table's entries, built into buf (cap bytes)
 * on the first call and returned as they are afterwards: the entries lie
 * `stride` bytes apart from `table`, each starts with its `const char *name`
 * (as lp_format_def and lp_option_def do), and the table ends with a NULL
 * name; `keep` (NULL: every entry) chooses the entries listed.  The one
 * builder of the name lists in error hints.
 */
extern const char *lp_names_join(char *buf, size_t cap, const void *table, size_t stride,
								 int (*keep) (const void *entry));

#endif							/* LP_OPTIONS_H */
