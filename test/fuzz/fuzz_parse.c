/* test/fuzz/fuzz_parse.c -- libFuzzer harness for the line parser lp_parse_line */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lp_parse.h"

/* Stop the run with a crash that libFuzzer reports and saves. */
#define FUZZ_ASSERT(c) do { if (!(c)) abort(); } while (0)

#include "../unit/ref_parse.h"
#include "../unit/test_diff.h"

/* The default-format parser's build (see test/unit/test_parse.c). */
#ifdef __SSE2__
#define PARSE_BUILD "sse2"
#else
#define PARSE_BUILD "generic"
#endif

/* Check the parser's invariants on one input. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *line = (const char *) data;
	const char *end = line + size;
	lp_line		l;
	lp_status	st;
	size_t		i;
	lp_line		ref;
	lp_status	rst;
	test_diff	d;

	memset(&l, 0, sizeof(l));
	memset(&ref, 0, sizeof(ref));
	st = lp_parse_line(line, size, &l);
	/* same answer as the reference, field for field */
	rst = ref_parse(line, size, &ref);
	diff_init(&d);
	diff_i(&d, "status", st, rst);
	diff_i(&d, "nfields", l.nfields, ref.nfields);
	if (rst != LP_ST_TOO_FEW_FIELDS)
		diff_slice(&d, "route", line, l.route, l.route_len, ref.route, ref.route_len);
	if (rst == LP_ST_OK)
		diff_i(&d, "latency", l.latency, ref.latency);
	diff_slice(&d, "bad", line, l.bad, l.bad_len, ref.bad, ref.bad_len);
	if (d.field)
		diff_abort(&d, "fuzz_parse: build " PARSE_BUILD, "line %s, %zu bytes",
				   diff_q(line, size), size);

	FUZZ_ASSERT(st == LP_ST_OK || st == LP_ST_TOO_FEW_FIELDS ||
				st == LP_ST_BAD_LATENCY || st == LP_ST_LATENCY_RANGE);
	FUZZ_ASSERT(l.nfields >= 0 && l.nfields <= 4);
	if (st == LP_ST_TOO_FEW_FIELDS)
	{
		FUZZ_ASSERT(l.nfields < 4);
		FUZZ_ASSERT(l.bad == NULL);
		return 0;
	}
	FUZZ_ASSERT(l.nfields == 4);

	/* the route is a non-empty slice of the input with no blank in it */
	FUZZ_ASSERT(l.route >= line && l.route_len > 0 && l.route_len <= (size_t) (end - l.route));
	for (i = 0; i < l.route_len; i++)
		FUZZ_ASSERT(!is_blank(l.route[i]));
	/* and it is a whole field: blanks or the start of the line around it */
	FUZZ_ASSERT(l.route == line || is_blank(l.route[-1]));
	FUZZ_ASSERT(l.route + l.route_len == end || is_blank(l.route[l.route_len]) ||
				(l.route + l.route_len == end - 1 && end[-1] == '\r'));

	if (st == LP_ST_OK)
	{
		const char *p = l.route + l.route_len;
		const char *q;
		int64_t		again = -1;
		uint64_t	ref = 0;

		FUZZ_ASSERT(l.latency >= 0);
		FUZZ_ASSERT(l.bad == NULL);
		/* find the digits of the fourth field and parse them again */
		while (p < end && is_blank(*p))
			p++;
		q = p;
		while (q < end && *q >= '0' && *q <= '9')
			q++;
		FUZZ_ASSERT(q > p);
		FUZZ_ASSERT(q == end || is_blank(*q) || (q == end - 1 && *q == '\r'));
		FUZZ_ASSERT(lp_parse_uint63(p, (size_t) (q - p), &again) == LP_ST_OK);
		FUZZ_ASSERT(again == l.latency);
		/* an independent reference: digits in 64 bits, with no overflow */
		for (; p < q; p++)
		{
			FUZZ_ASSERT(ref <= (uint64_t) INT64_MAX);
			ref = ref * 10 + (uint64_t) (*p - '0');
		}
		FUZZ_ASSERT(ref == (uint64_t) l.latency);
	}
	else
	{
		int64_t		v;

		/* the bad field is a non-empty slice of the input after the route */
		FUZZ_ASSERT(l.bad != NULL && l.bad_len > 0);
		FUZZ_ASSERT(l.bad > l.route && l.bad_len <= (size_t) (end - l.bad));
		for (i = 0; i < l.bad_len; i++)
			FUZZ_ASSERT(!is_blank(l.bad[i]));
		FUZZ_ASSERT(lp_parse_uint63(l.bad, l.bad_len, &v) == st);
		if (st == LP_ST_LATENCY_RANGE)
		{
			size_t		nz = 0;

			/* only digits, and more than 19 of them once leading zeros go */
			for (i = 0; i < l.bad_len; i++)
				FUZZ_ASSERT(l.bad[i] >= '0' && l.bad[i] <= '9');
			while (nz < l.bad_len && l.bad[nz] == '0')
				nz++;
			FUZZ_ASSERT(l.bad_len - nz >= 19);
		}
		else
		{
			int			nondigit = 0;

			for (i = 0; i < l.bad_len; i++)
				if (l.bad[i] < '0' || l.bad[i] > '9')
					nondigit = 1;
			FUZZ_ASSERT(nondigit);
		}
	}
	return 0;
}
