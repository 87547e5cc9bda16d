/* src/lp_templates.h -- route templates: ids in a route's path folded into :id, :uuid, :hex (plain C) */
#ifndef LP_TEMPLATES_H
#define LP_TEMPLATES_H

#include "lp_format.h"

/*
 * Route templates (LP_PARSE_TEMPLATES): the path of r[0..n) (up to the first
 * '?'; the query string is copied as it is) with each '/'-separated segment
 * that is
 *   1 or more ASCII digits                              -> ":id"
 *   a UUID, 8-4-4-4-12 hex digits (either case)         -> ":uuid"
 *   16 or more hex digits (either case), one a digit    -> ":hex"
 * replaced.  slash: a '/' goes in front of r.  When something changes (or
 * slash), the route is written to buf (LP_ROUTE_BUF_SIZE(n) bytes) and its
 * length returned; otherwise 0 and buf is untouched.  templates = 0 only
 * adds the slash.
 */
extern size_t lp_route_template(const char *r, size_t n, int slash, int templates, char *buf);

/*
 * Set out->route to the route r[0..n) of a parsed line (slash: "/" goes in
 * front, an absolute-form target with no path) with the call's templates
 * applied: a slice of the line when nothing changes, else built in
 * ctx->buf.  Without a buffer a route that has to be built is "/" (the
 * caller broke its promise to give one).
 */
extern void lp_route_finish(const lp_parse_ctx *ctx, const char *r, size_t n, int slash,
							lp_result *out);

#endif							/* LP_TEMPLATES_H */
