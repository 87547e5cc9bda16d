/*
 * test/fuzz/fuzz_definition.c -- libFuzzer harness for nginx and Apache
 * definitions (lp_definition.c) and the tokenizers under them (lp_token.c)
 *
 * An input is: a byte of options (bit 0: the dialect, Apache when set;
 * bits 1-4: the fields the call needs; bits 5-7 the parse flags:
 * LP_PARSE_KEEP_QUERY, LP_PARSE_TEMPLATES, LP_PARSE_HOST), two bytes of
 * definition length (little-endian, modulo 4200, so that definitions past
 * LP_DEF_MAX_LEN come too), the definition, then lines separated by '\n'.
 * A definition that does not compile must say where (inside it) and why;
 * one that does is walked by every line, each parsed into a buffer of
 * exactly its length (AddressSanitizer sees a byte read past it), and
 * checked: the same answer as the byte-by-byte reference
 * (test/unit/ref_definition.h), every slice inside the line (the route
 * inside the line or the scratch buffer, within LP_ROUTE_BUF_SIZE), the
 * fields said to be found among those the program has, all of them on a
 * good line, a latency >= 0 and a status of 100..999; the route with the
 * query cut a prefix of the route with the query kept; LP_PARSE_LOGGED
 * the same status.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lp_definition.h"

#include "../unit/ref_definition.h"
#include "../unit/test_diff.h"

/* Stop the run with a crash that libFuzzer reports and saves. */
#define FUZZ_ASSERT(c) do { if (!(c)) abort(); } while (0)

/* Does the slice [s, s + n) lie inside [base, base + len)? */
static int
inside(const char *s, size_t n, const char *base, size_t len)
{
	return s >= base && s <= base + len && n <= (size_t) (base + len - s);
}

/* Parse one line (a copy of exactly len bytes) by prog with flags; checks as above. */
static void
fuzz_line(const lp_def_program *prog, const char *src, size_t len, unsigned flags)
{
	char	   *line = malloc(len ? len : 1);
	size_t		cap = LP_ROUTE_BUF_SIZE(len);
	char	   *buf = malloc(cap);
	char	   *rbuf = malloc(cap);
	char	   *kbuf = malloc(cap);
	lp_parse_ctx ctx = {flags, buf};
	lp_parse_ctx rctx = {flags, rbuf};
	lp_result	r,
				want,
				k;
	lp_status	st,
				wst,
				kst;
	test_diff	d;
	unsigned	fields = LP_HAS_ROUTE | LP_HAS_LATENCY | LP_HAS_STATUS | LP_HAS_METHOD |
		LP_HAS_TIME | LP_HAS_HOST;

	FUZZ_ASSERT(line && buf && rbuf && kbuf);
	memcpy(line, src, len);
	memset(&r, 0xAB, sizeof(r));
	memset(&want, 0xCD, sizeof(want));
	st = lp_definition_parse(prog, line, len, &ctx, &r);
	wst = ref_def_parse(prog, line, len, &rctx, &want);
	diff_init(&d);
	if (!ref_def_same(&d, line, st, &r, wst, &want))
		diff_abort(&d, "fuzz_definition: lp_definition_parse against ref_def_parse",
				   "line %s, flags %u", diff_q(line, len), flags);

	/* what was found lies inside the line (the route: or the buffer) */
	FUZZ_ASSERT((r.has & ~(fields | LP_HAS_ROUTE_HIGH)) == 0);
	FUZZ_ASSERT((r.has & fields & ~prog->has) == 0);
	/* a good line has every field of its format, but a status logged "-" (none) */
	if (st == LP_ST_OK)
		FUZZ_ASSERT((r.has & fields) == prog->has ||
					(r.has & fields) == (prog->has & ~LP_HAS_STATUS));
	if (r.has & LP_HAS_ROUTE)
	{
		FUZZ_ASSERT(r.route_len <= cap);
		FUZZ_ASSERT(inside(r.route, r.route_len, line, len) || inside(r.route, r.route_len, buf, cap) ||
					(r.route_len == 1 && r.route[0] == '/'));
		FUZZ_ASSERT(r.route_len > 0);
	}
	else
		FUZZ_ASSERT(!(r.has & LP_HAS_ROUTE_HIGH));
	if (r.has & LP_HAS_LATENCY)
		FUZZ_ASSERT(r.latency >= 0);
	if (r.has & LP_HAS_STATUS)
		FUZZ_ASSERT(r.status >= 100 && r.status <= 999);
	if (r.has & LP_HAS_METHOD)
		FUZZ_ASSERT(inside(r.method, r.method_len, line, len));
	if (r.has & LP_HAS_TIME)
		FUZZ_ASSERT(inside(r.time, r.time_len, line, len));
	if (r.has & LP_HAS_HOST)
		FUZZ_ASSERT(inside(r.host, r.host_len, line, len));
	if (r.bad)
		FUZZ_ASSERT(inside(r.bad, r.bad_len, line, len));
	FUZZ_ASSERT(r.nfields >= 0 && r.nfields <= r.nwant && r.nwant == prog->nsteps);
	FUZZ_ASSERT(st >= LP_ST_OK && st < LP_ST_COUNT);

	/* the route with the query cut is a prefix of the route with it kept */
	if (st == LP_ST_OK && (r.has & LP_HAS_ROUTE) &&
		!(flags & (LP_PARSE_TEMPLATES | LP_PARSE_HOST | LP_PARSE_KEEP_QUERY)))
	{
		lp_parse_ctx kctx = {flags | LP_PARSE_KEEP_QUERY, kbuf};

		kst = lp_definition_parse(prog, line, len, &kctx, &k);
		FUZZ_ASSERT(kst == LP_ST_OK);
		FUZZ_ASSERT(k.route_len >= r.route_len && memcmp(k.route, r.route, r.route_len) == 0);
	}
	/* the logged form: the same answer but for the route's bytes */
	{
		lp_parse_ctx lctx = {flags | LP_PARSE_LOGGED, kbuf};

		kst = lp_definition_parse(prog, line, len, &lctx, &k);
		FUZZ_ASSERT(kst == st && (k.has & ~LP_HAS_ROUTE_HIGH) == (r.has & ~LP_HAS_ROUTE_HIGH));
		FUZZ_ASSERT(!(k.has & LP_HAS_ROUTE_HIGH));
		if ((r.has & LP_HAS_ROUTE) && !(r.has & LP_HAS_ROUTE_HIGH) && prog->escape == LP_ESC_NONE)
			FUZZ_ASSERT(k.route_len == r.route_len && memcmp(k.route, r.route, r.route_len) == 0);
	}
	free(line);
	free(buf);
	free(rbuf);
	free(kbuf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static lp_def_program prog;
	lp_def_error err;
	lp_def_status st;
	unsigned	opts,
				need = 0,
				flags = 0;
	size_t		dlen;
	const char *def;
	const char *p;
	const char *end;

	if (size < 3)
		return 0;
	opts = data[0];
	dlen = ((size_t) data[1] | (size_t) data[2] << 8) % 4200;
	data += 3;
	size -= 3;
	if (dlen > size)
		dlen = size;
	if (opts & 0x02)
		need |= LP_HAS_ROUTE;
	if (opts & 0x04)
		need |= LP_HAS_LATENCY;
	if (opts & 0x08)
		need |= LP_HAS_TIME;
	if (opts & 0x10)
		need |= LP_HAS_HOST;
	if (opts & 0x20)
		flags |= LP_PARSE_KEEP_QUERY;
	if (opts & 0x40)
		flags |= LP_PARSE_TEMPLATES;
	if (opts & 0x80)
		flags |= LP_PARSE_HOST;

	/* the definition, in a copy of exactly its bytes */
	{
		char	   *copy = malloc(dlen ? dlen : 1);

		FUZZ_ASSERT(copy);
		memcpy(copy, data, dlen);
		st = lp_definition_compile((opts & 1) ? LP_DEF_APACHE : LP_DEF_NGINX, copy, dlen, need,
								   -3600, &prog, &err);
		free(copy);
	}
	def = (const char *) data;
	(void) def;
	if (st != LP_DEF_OK)
	{
		FUZZ_ASSERT(err.status == st && err.pos <= dlen);
		FUZZ_ASSERT(memchr(err.message, '\0', sizeof(err.message)) != NULL && err.message[0] != '\0');
		FUZZ_ASSERT(prog.nsteps == 0 && prog.has == 0);
		FUZZ_ASSERT(st != LP_DEF_TOO_BIG || dlen > 0);
		return 0;
	}
	FUZZ_ASSERT(dlen <= LP_DEF_MAX_LEN && prog.nsteps <= LP_DEF_MAX_FIELDS);
	FUZZ_ASSERT((need & ~prog.has) == 0);
	FUZZ_ASSERT(prog.lits_len <= LP_DEF_MAX_LEN && prog.lead_len <= prog.lits_len);
	{
		int			i;

		for (i = 0; i < prog.nsteps; i++)
		{
			FUZZ_ASSERT((size_t) prog.steps[i].lit_off + prog.steps[i].lit_len <= prog.lits_len);
			FUZZ_ASSERT(prog.steps[i].lit_len <= LP_DEF_MAX_LITERAL);
			FUZZ_ASSERT(prog.steps[i].lit_len > 0 || i == prog.nsteps - 1);
			FUZZ_ASSERT(prog.steps[i].role < LP_ROLE_COUNT);
		}
	}

	/* the lines */
	p = (const char *) data + dlen;
	end = (const char *) data + size;
	for (;;)
	{
		const char *nl = memchr(p, '\n', (size_t) (end - p));
		const char *le = nl ? nl : end;

		fuzz_line(&prog, p, (size_t) (le - p), flags);
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}
