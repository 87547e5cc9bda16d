/* test/fuzz/fuzz_format_arg.c -- libFuzzer harness: the format argument (lp_format_resolve) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp_format_arg.h"
#include "lp_time.h"

/* Stop the run with a crash that libFuzzer reports and saves. */
#define FUZZ_ASSERT(c) do { if (!(c)) abort(); } while (0)

/* Is p[0..n) inside [lo, lo + cap)? */
static int
inside(const void *p, size_t n, const void *lo, size_t cap)
{
	const char *c = p;
	const char *l = lo;

	return c >= l && c + n <= l + cap;
}

/*
 * The input is a format argument, resolved for what each kind of call
 * needs: a result that is a usable format, or an error that names a byte
 * of the argument.  The first line of the input (up to a '\n') is the
 * argument, the rest a log line the resolved format then parses.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned needs[] = {
		0, LP_HAS_ROUTE | LP_HAS_LATENCY, LP_HAS_TIME,
		LP_HAS_ROUTE | LP_HAS_LATENCY | LP_HAS_HOST
	};
	const char *in = (const char *) data;
	const char *nl = memchr(in, '\n', size);
	size_t		alen = nl ? (size_t) (nl - in) : size;
	const char *line = nl ? nl + 1 : "";
	size_t		llen = nl ? size - alen - 1 : 0;
	lp_custom_format *cf = malloc(sizeof(lp_custom_format));
	char	   *arg = malloc(alen ? alen : 1);
	char	   *buf = malloc(LP_ROUTE_BUF_SIZE(llen));
	size_t		i;

	/* an exact copy: nothing past the argument may be read */
	memcpy(arg, in, alen);
	for (i = 0; i < sizeof(needs) / sizeof(needs[0]); i++)
	{
		const lp_format_def *f = (const lp_format_def *) 1;
		lp_farg_error err;
		lp_farg_status st = lp_format_resolve(arg, alen, needs[i], cf, &f, &err);

		FUZZ_ASSERT(st == err.status || (st == LP_FARG_OK && err.status == LP_FARG_OK));
		if (st != LP_FARG_OK)
		{
			FUZZ_ASSERT(f == NULL);
			FUZZ_ASSERT(memchr(err.message, '\0', sizeof(err.message)) != NULL);
			if (st == LP_FARG_DEFINITION)
				FUZZ_ASSERT(err.what != NULL && err.body_off <= alen && err.pos <= alen - err.body_off);
			continue;
		}
		/* a usable entry: a table entry, or built in cf, with what the call needs */
		FUZZ_ASSERT(f != NULL && f->parse != NULL && f->name != NULL);
		FUZZ_ASSERT(f == lp_format_lookup(f->name, strlen(f->name)) || f == &cf->def);
		FUZZ_ASSERT((f->has & needs[i]) == needs[i]);
		if (f->family == LP_FAMILY_DEFINITION)
			FUZZ_ASSERT(f->data == &cf->u.prog && f->offset_sec == cf->u.prog.offset_sec);
		FUZZ_ASSERT(f->offset_sec > -86400 && f->offset_sec < 86400);
		{
			lp_parse_ctx ctx = {LP_PARSE_FIELDS, buf};
			lp_result	r;
			lp_ts		t;
			lp_status	ps;

			memset(&r, 0, sizeof(r));
			ps = f->parse(line, llen, f, &ctx, &r);
			FUZZ_ASSERT(ps >= LP_ST_OK && ps < LP_ST_COUNT);
			/* a good line has what the call needed (logp95_parse needs nothing) */
			if (ps == LP_ST_OK)
				FUZZ_ASSERT((r.has & needs[i] & (LP_HAS_ROUTE | LP_HAS_LATENCY)) ==
							(needs[i] & (LP_HAS_ROUTE | LP_HAS_LATENCY)));
			/* the route: in the line, in the scratch, or the constant "/" of a target without a path */
			if (ps == LP_ST_OK && (r.has & LP_HAS_ROUTE))
				FUZZ_ASSERT(inside(r.route, r.route_len, line, llen) ||
							inside(r.route, r.route_len, buf, LP_ROUTE_BUF_SIZE(llen)) ||
							(r.route_len == 1 && r.route[0] == '/'));
			if (ps == LP_ST_OK && (r.has & LP_HAS_LATENCY))
				FUZZ_ASSERT(r.latency >= 0);
			if (f->read_ts == NULL)
			{
				lp_ts_status ts = lp_result_ts(&r, f->time_kind, f->offset_sec, &t);

				FUZZ_ASSERT(ts == LP_TS_OK || ts == LP_TS_MISSING || ts == LP_TS_SYNTAX || ts == LP_TS_RANGE);
				if (ts == LP_TS_OK)
					FUZZ_ASSERT(t.year >= 1 && t.year <= 9999 && t.month >= 1 && t.month <= 12 &&
								t.usec >= 0 && t.usec <= 1000000);
			}
		}
	}
	free(cf);
	free(arg);
	free(buf);
	return 0;
}
