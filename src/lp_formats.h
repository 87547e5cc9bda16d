/* src/lp_formats.h -- the table of access-log formats (plain C) */
#ifndef LP_FORMATS_H
#define LP_FORMATS_H

#include "lp_format.h"

/*
 * One table, lp_formats[], names every log format logp95 reads and gives
 * its line parser, its timestamp reader and its flags, the way PostgreSQL's
 * encode.c keeps enclist[]: the aggregate, logp95_line_ts, the error hints
 * and the list of names in the unknown-format message all come from it.
 * Adding a format is one entry and its parser.  The table sits above the
 * parsers it names (lp_default.h, lp_combined.h); the entry's type, which
 * the parsers read, sits below them in lp_format.h.
 */

/* Every format, "default" first, ended by an entry with a NULL name. */
extern const lp_format_def lp_formats[];

/* The format called `name` (exact, case-sensitive); NULL when unknown. */
extern const lp_format_def *lp_format_lookup(const char *name, size_t len);

/* The format of logp95_agg(text) and logp95_line_ts(text): lp_formats[0]. */
#define LP_FORMAT_DEFAULT (&lp_formats[0])

/* Every name in table order, comma-separated, for error messages. */
extern const char *lp_format_names(void);

/*
 * Does fmt's entry parse with lp_parse_combined (with fmt->flags or-ed
 * with the call's LP_FMT_KEEP_QUERY)?  Lets a caller with no route
 * templates call lp_parse_combined directly, one row at a time.
 */
extern int	lp_format_is_combined(const lp_format_def *fmt);

/*
 * The format a line that failed in the default format looks like: the
 * last combined format (query string dropped) that reads it, else
 * "combined" when it has a [time] and a quoted request; NULL otherwise.
 * (The table lists seconds before microseconds, so an integer request time
 * suggests the microseconds format.)
 */
extern const lp_format_def *lp_format_guess(const char *line, size_t len);

#endif							/* LP_FORMATS_H */
