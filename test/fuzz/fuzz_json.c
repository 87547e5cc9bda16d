/*
 * test/fuzz/fuzz_json.c -- libFuzzer harness for JSON lines (lp_json): the
 * spec compiler and the reader of a line, against the reference of
 * test/unit/ref_json.h
 *
 * The first byte of an input chooses the options (query, templates, host,
 * logged) and the mode.  Mode "spec": the input up to its first newline is a spec,
 * compiled (any bytes give a status and a position inside the spec), and
 * when it compiles the rest is a line read with it.  Mode "preset": the
 * whole rest is a line, read with caddy, traefik_json or a spec with a
 * request line.  Every line read is compared field by field with the
 * reference (a full decode into a tree, then the paths looked up): status,
 * where a line that is not JSON stops, what an error quotes, and each
 * field; every slice lies inside the line, the scratch or the spec.  The line and the
 * scratch are malloc'd to their exact sizes, so AddressSanitizer sees any
 * byte read or written past them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/ref_json.h"
#include "../unit/test_diff.h"

/* Stop the run with a crash that libFuzzer reports and saves. */
#define FUZZ_ASSERT(c) do { if (!(c)) abort(); } while (0)

/* The specs of mode "preset". */
static const char *const fixed_specs[4] = {
	NULL,						/* caddy */
	NULL,						/* traefik_json */
	"request=r,method=m,latency=t.d:us,status=s,host=h,time=t.at:clf",
	"route=a.b.u,latency=a.d:ms,time=a.b.t:epoch_ns,status=st",
};

/* Is s[0..n) inside [lo, lo + len)? */
static int
inside(const char *s, size_t n, const char *lo, size_t len)
{
	return s >= lo && n <= len && (size_t) (s - lo) <= len - n;
}

/* Read line[0..n) with spec and flags; check it against the reference. */
static void
fuzz_line(const lp_json_spec *spec, const uint8_t *data, size_t n, unsigned flags)
{
	char	   *line = malloc(n ? n : 1);
	size_t		cap = LP_ROUTE_BUF_SIZE(n);
	char	   *buf = malloc(cap);
	lp_parse_ctx ctx = {flags, buf};
	lp_result	r;
	rj_expect	x;
	lp_status	st;
	test_diff	d;

	memcpy(line, data, n);
	st = lp_json_parse(spec, line, n, &ctx, &r);
	FUZZ_ASSERT(st >= 0 && st < LP_ST_COUNT);

	/* every slice inside the line or the scratch (or the spec, for a path) */
#define FUZZ_SLICE(s, len) \
	FUZZ_ASSERT(inside((s), (len), line, n) || inside((s), (len), buf, cap) || \
				inside((s), (len), spec->text, LP_JSON_SPEC_MAX))
	if ((r.has & LP_HAS_ROUTE) && !(r.route_len == 1 && r.route[0] == '/'))
		FUZZ_SLICE(r.route, r.route_len);	/* (an absolute target's "/" is a constant) */
	if (r.has & LP_HAS_METHOD)
		FUZZ_SLICE(r.method, r.method_len);
	if (r.has & LP_HAS_TIME)
		FUZZ_SLICE(r.time, r.time_len);
	if (r.has & LP_HAS_HOST)
		FUZZ_SLICE(r.host, r.host_len);
	if (st != LP_ST_OK && r.bad_len)
		FUZZ_SLICE(r.bad, r.bad_len);
	if (st == LP_ST_OK)
		FUZZ_ASSERT((r.has & LP_HAS_ROUTE) && (r.has & LP_HAS_LATENCY) && r.route_len > 0 &&
					r.latency >= 0 && memchr(r.route, 0, r.route_len) == NULL);
	if (r.has & LP_HAS_ROUTE_HIGH)
		FUZZ_ASSERT((r.has & LP_HAS_ROUTE) && !(flags & LP_PARSE_LOGGED));
	if (r.has & LP_HAS_STATUS)
		FUZZ_ASSERT(r.status >= 100 && r.status <= 999);
#undef FUZZ_SLICE

	/* the reference */
	rj_expect_line(spec, line, n, flags, &x);
	diff_init(&d);
	diff_i(&d, "status", st, x.st);
	if (st == LP_ST_NOT_JSON && x.st == LP_ST_NOT_JSON)
		diff_i(&d, "stop", (long long) (r.bad - line), (long long) x.stop);
	else if (!d.field)
	{
		if (st != LP_ST_OK)
			diff_text(&d, "bad", r.bad, r.bad_len, x.bad, x.bad_len);
		diff_u(&d, "has", r.has, x.has);
		if (x.has & LP_HAS_ROUTE)
			diff_text(&d, "route", r.route, r.route_len, x.route, x.route_len);
		if (x.has & LP_HAS_LATENCY)
			diff_i(&d, "latency", r.latency, x.latency);
		if (x.has & LP_HAS_STATUS)
			diff_i(&d, "http status", r.status, x.status);
		if (x.has & LP_HAS_METHOD)
			diff_text(&d, "method", r.method, r.method_len, x.method, x.method_len);
		if (x.has & LP_HAS_TIME)
			diff_text(&d, "time", r.time, r.time_len, x.time, x.time_len);
		if (x.has & LP_HAS_HOST)
			diff_text(&d, "host", r.host, r.host_len, x.host, x.host_len);
	}
	if (d.field)
		diff_abort(&d, "fuzz_json: lp_json_parse against the reference", "spec %s, flags %x, line %s",
				   diff_q(spec->text, strnlen(spec->text, LP_JSON_SPEC_MAX)), flags, diff_q(line, n));
	rj_expect_free(&x);
	free(line);
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static lp_json_spec *fixed[4];
	lp_json_spec *spec;
	unsigned	flags;
	size_t		pos;
	int			i;

	if (!fixed[0])
	{
		for (i = 0; i < 4; i++)
		{
			const char *text = fixed_specs[i] ? fixed_specs[i] :
				lp_json_preset_spec(i == 0 ? "caddy" : "traefik_json", i == 0 ? 5 : 12);

			fixed[i] = malloc(sizeof(lp_json_spec));
			FUZZ_ASSERT(lp_json_compile(text, strlen(text), fixed[i], &pos) == LP_JSPEC_OK);
		}
	}
	if (size == 0)
		return 0;
	flags = (data[0] & 1 ? LP_PARSE_KEEP_QUERY : 0) | (data[0] & 2 ? LP_PARSE_TEMPLATES : 0) |
		(data[0] & 4 ? LP_PARSE_HOST : 0) | (data[0] & 0x40 ? LP_PARSE_LOGGED : 0);
	if (data[0] & 0x80)
	{
		/* mode "preset": the rest is a line */
		fuzz_line(fixed[(data[0] >> 3) & 3], data + 1, size - 1, flags);
		return 0;
	}
	/* mode "spec": a spec, then a line */
	{
		const uint8_t *nl = memchr(data + 1, '\n', size - 1);
		size_t		slen = nl ? (size_t) (nl - (data + 1)) : size - 1;
		char	   *text = malloc(slen ? slen : 1);
		lp_json_spec_status st;

		memcpy(text, data + 1, slen);
		spec = malloc(sizeof(lp_json_spec));
		pos = SIZE_MAX;
		st = lp_json_compile(text, slen, spec, &pos);
		FUZZ_ASSERT(st >= 0 && st < LP_JSPEC_COUNT && pos <= slen);
		if (st == LP_JSPEC_OK)
		{
			FUZZ_ASSERT(spec->fields & (1u << LP_JF_ROUTE) && spec->fields & (1u << LP_JF_LATENCY) &&
						spec->nnodes >= 3 && spec->nnodes <= LP_JSON_NODES);
			if (nl)
				fuzz_line(spec, nl + 1, size - slen - 2, flags);
		}
		free(text);
		free(spec);
	}
	return 0;
}
