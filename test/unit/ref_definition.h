/* test/unit/ref_definition.h -- lp_definition_parse written byte by byte: the reference its unit tests and fuzzer compare it with */
#ifndef REF_DEFINITION_H
#define REF_DEFINITION_H

#include <string.h>

#include "lp_definition.h"
#include "test_diff.h"

/*
 * The rules of docs/formats.md ("nginx and Apache definitions") read the
 * plainest way, over a compiled program: every field ends at the first
 * place the literal after it matches, found by trying each byte in turn
 * (a time's blanks skipped first when that literal starts with a blank; a
 * quoted field at the first '"' not escaped by an odd run of backslashes
 * that starts the literal; an upstream list by its grammar; the last field
 * at the literal the line ends with).  The route, latency and status of
 * the fields found go through lp_token's functions, which have tests of
 * their own; what this checks is the walk, lp_find_byte's inline scans
 * included.
 */

/* Does s[0..n) start at p, inside [p, end)? */
static inline int
ref_def_at(const char *p, const char *end, const char *s, size_t n)
{
	size_t		k;

	if ((size_t) (end - p) < n)
		return 0;
	for (k = 0; k < n; k++)
		if (p[k] != s[k])
			return 0;
	return 1;
}

/* An odd run of backslashes before q, after fs? */
static inline int
ref_def_escaped(const char *fs, const char *q)
{
	int			odd = 0;

	while (q > fs && q[-1] == '\\')
	{
		odd = !odd;
		q--;
	}
	return odd;
}

/* The end of an upstream list at p (items joined by ", " or " : "). */
static inline const char *
ref_def_list_end(const char *p, const char *end)
{
#define REF_ITEM(c) ((c) != ' ' && (c) != '\t' && (c) != ',')
	for (;;)
	{
		while (p < end && REF_ITEM(*p))
			p++;
		if (end - p >= 3 && p[0] == ',' && p[1] == ' ' && REF_ITEM(p[2]))
			p += 2;
		else if (end - p >= 4 && p[0] == ' ' && p[1] == ':' && p[2] == ' ' && REF_ITEM(p[3]))
			p += 3;
		else
			return p;
	}
#undef REF_ITEM
}

/* lp_definition_parse, the reference (see above). */
static inline lp_status
ref_def_parse(const lp_def_program *prog, const char *line, size_t len, const lp_parse_ctx *ctx,
			  lp_result *out)
{
	const char *end = line + len;
	const char *p = line;
	const char *fs[LP_ROLE_COUNT];
	size_t		fl[LP_ROLE_COUNT];
	unsigned	got = 0;
	unsigned	flags = ctx ? ctx->flags : 0;
	int			backslash = prog->escape != LP_ESC_NONE;
	lp_status	st = LP_ST_OK;
	int			i;

	out->has = 0;
	out->bad = NULL;
	out->bad_len = 0;
	out->nwant = prog->nsteps;
	out->nfields = 0;
	if (len > 0 && end[-1] == '\r')
		end--;
	if (!ref_def_at(p, end, prog->lits, prog->lead_len))
		return LP_ST_TOO_FEW_FIELDS;
	p += prog->lead_len;
	if (prog->nsteps == 0)
		return p == end ? LP_ST_OK : LP_ST_TOO_FEW_FIELDS;
	for (i = 0; i < prog->nsteps; i++)
	{
		const lp_def_step *s = &prog->steps[i];
		const char *lit = prog->lits + s->lit_off;
		size_t		n = s->lit_len;
		const char *q = NULL;
		const char *x;
		int			seen = 0;
		int			k;

		out->nfields = i;
		switch (s->scan)
		{
			case LP_SCAN_LITERAL:
				x = p;
				for (k = 0; k < s->blanks; k++)
				{
					while (x < end && *x != ' ')
						x++;
					if (x == end)
						return LP_ST_TOO_FEW_FIELDS;
					x++;
				}
				for (; x < end && !q; x++)
					if (ref_def_at(x, end, lit, n))
						q = x;
				if (!q)
					return LP_ST_TOO_FEW_FIELDS;
				break;
			case LP_SCAN_QUOTED:
				for (x = p; x < end && !q; x++)
				{
					if (*x != '"' || (backslash && ref_def_escaped(p, x)))
						continue;
					seen = 1;
					if (ref_def_at(x, end, lit, n))
						q = x;
				}
				if (!q)
					return seen ? LP_ST_TOO_FEW_FIELDS : LP_ST_UNTERMINATED;
				break;
			case LP_SCAN_LIST:
				q = ref_def_list_end(p, end);
				if (!ref_def_at(q, end, lit, n))
					return LP_ST_TOO_FEW_FIELDS;
				break;
			default:
				if ((size_t) (end - p) < n || !ref_def_at(end - n, end, lit, n))
					return LP_ST_TOO_FEW_FIELDS;
				q = end - n;
				if (s->quoted && backslash && ref_def_escaped(p, q))
					return LP_ST_UNTERMINATED;
				break;
		}
		if (s->role)
		{
			fs[s->role] = p;
			fl[s->role] = (size_t) (q - p);
			got |= 1u << s->role;
		}
		p = q + n;
	}
	out->nfields = prog->nsteps;
	if (got & (1u << LP_ROLE_TIME))
	{
		out->time = fs[LP_ROLE_TIME];
		out->time_len = fl[LP_ROLE_TIME];
		out->has |= LP_HAS_TIME;
	}
	if (got & (1u << LP_ROLE_HOST))
	{
		out->host = fs[LP_ROLE_HOST];
		out->host_len = fl[LP_ROLE_HOST];
		out->has |= LP_HAS_HOST;
	}
	if (got & (1u << LP_ROLE_METHOD))
	{
		out->method = fs[LP_ROLE_METHOD];
		out->method_len = fl[LP_ROLE_METHOD];
		out->has |= LP_HAS_METHOD;
	}
	if (got & ((1u << LP_ROLE_REQUEST) | (1u << LP_ROLE_TARGET)))
	{
		int			role = (got & (1u << LP_ROLE_REQUEST)) ? LP_ROLE_REQUEST : LP_ROLE_TARGET;
		lp_request	rq;

		st = role == LP_ROLE_REQUEST ? lp_request_parse(fs[role], fl[role], flags, &rq) :
			lp_target_route(fs[role], fl[role], flags, &rq);
		if (st == LP_ST_OK)
		{
			if (rq.method && !(out->has & LP_HAS_METHOD))
			{
				out->method = rq.method;
				out->method_len = rq.method_len;
				out->has |= LP_HAS_METHOD;
			}
			/* escaped = 1: the route is looked at whatever the scan said */
			lp_route_build(rq.route, rq.route_len, rq.route_slash, 1, out->host,
						   (out->has & LP_HAS_HOST) ? out->host_len : 0,
						   (lp_escape) prog->escape, ctx, out);
		}
		else
		{
			out->bad = fs[role];
			out->bad_len = fl[role];
		}
	}
	if (got & (1u << LP_ROLE_LATENCY))
	{
		lp_status	ls = prog->latency_list ?
			lp_latency_list_ms(fs[LP_ROLE_LATENCY], fl[LP_ROLE_LATENCY], (lp_unit) prog->unit, &out->latency) :
			lp_latency_ms(fs[LP_ROLE_LATENCY], fl[LP_ROLE_LATENCY], (lp_unit) prog->unit, &out->latency);

		if (ls == LP_ST_OK)
			out->has |= LP_HAS_LATENCY;
		else if (st == LP_ST_OK)
		{
			st = ls;
			out->bad = fs[LP_ROLE_LATENCY];
			out->bad_len = fl[LP_ROLE_LATENCY];
		}
	}
	if ((got & (1u << LP_ROLE_STATUS)) && !(fl[LP_ROLE_STATUS] == 1 && fs[LP_ROLE_STATUS][0] == '-'))
	{
		const char *s = fs[LP_ROLE_STATUS];

		if (fl[LP_ROLE_STATUS] == 3 && s[0] >= '1' && s[0] <= '9' && s[1] >= '0' && s[1] <= '9' &&
			s[2] >= '0' && s[2] <= '9')
		{
			out->status = (s[0] - '0') * 100 + (s[1] - '0') * 10 + (s[2] - '0');
			out->has |= LP_HAS_STATUS;
		}
		else if (st == LP_ST_OK)
		{
			st = LP_ST_BAD_STATUS;
			out->bad = s;
			out->bad_len = fl[LP_ROLE_STATUS];
		}
	}
	return st;
}

/*
 * Compare two results of the same line (got: lp_definition_parse, want:
 * the reference) field by field into d; routes by content (each may be
 * built in its own buffer), everything else as slices of the line.
 */
static inline int
ref_def_same(test_diff *d, const char *line, lp_status got_st, const lp_result *got,
			 lp_status want_st, const lp_result *want)
{
	diff_i(d, "status", got_st, want_st);
	diff_u(d, "has", got->has, want->has);
	diff_i(d, "nfields", got->nfields, want->nfields);
	diff_i(d, "nwant", got->nwant, want->nwant);
	diff_slice(d, "bad", line, got->bad, got->bad_len, want->bad, want->bad_len);
	if (want->has & LP_HAS_ROUTE)
		diff_text(d, "route", got->route, got->route_len, want->route, want->route_len);
	if (want->has & LP_HAS_LATENCY)
		diff_i(d, "latency", got->latency, want->latency);
	if (want->has & LP_HAS_STATUS)
		diff_i(d, "http status", got->status, want->status);
	if (want->has & LP_HAS_METHOD)
		diff_slice(d, "method", line, got->method, got->method_len, want->method, want->method_len);
	if (want->has & LP_HAS_TIME)
		diff_slice(d, "time", line, got->time, got->time_len, want->time, want->time_len);
	if (want->has & LP_HAS_HOST)
		diff_slice(d, "host", line, got->host, got->host_len, want->host, want->host_len);
	return d->field == NULL;
}

#endif							/* REF_DEFINITION_H */
