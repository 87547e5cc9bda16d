/* test/unit/test_parse.c -- unit tests of the default-format line parser (lp_parse.c), against ref_parse.h */
#include "test_harness.h"
#include "ref_parse.h"
#include "lp_formats.h"

/*
 * The default-format parser's build: lines of 16 to 63 bytes take the SSE2
 * path where the compiler has SSE2, every other line the general one.
 */
#ifdef __SSE2__
#define PARSE_BUILD "sse2"
#else
#define PARSE_BUILD "generic"
#endif

/* Four fields with the documented separators. */
void
test_parse_fields(void)
{
	lp_line		l;
	const char *s;

	s = "2026-11-07T12:00:05 GET /api/v1/resource17/items 214";
	CHECK_EQ_I(parse(s, &l), LP_ST_OK, "plain line");
	CHECK(slice_is(l.route, l.route_len, "/api/v1/resource17/items"), "plain route");
	CHECK_EQ_I(l.latency, 214, "plain latency");
	CHECK_EQ_I(l.nfields, 4, "plain nfields");
	CHECK(l.bad == NULL && l.bad_len == 0, "no bad slice on success");
	CHECK(l.route == s + 24, "route points into the input");

	CHECK_EQ_I(parse("ts\tGET\t/tab\t15", &l), LP_ST_OK, "tabs");
	CHECK(slice_is(l.route, l.route_len, "/tab") && l.latency == 15, "tab fields");

	CHECK_EQ_I(parse("ts  \t GET   /multi \t\t  16", &l), LP_ST_OK, "runs of blanks");
	CHECK(slice_is(l.route, l.route_len, "/multi") && l.latency == 16, "runs of blanks fields");

	CHECK_EQ_I(parse(" \t  ts GET /lead 17", &l), LP_ST_OK, "leading blanks");
	CHECK(slice_is(l.route, l.route_len, "/lead") && l.latency == 17, "leading blanks fields");

	CHECK_EQ_I(parse("ts GET /trail 18 \t ", &l), LP_ST_OK, "trailing blanks");
	CHECK_EQ_I(l.latency, 18, "trailing blanks latency");

	CHECK_EQ_I(parse("ts GET /crlf 19\r", &l), LP_ST_OK, "one trailing CR dropped");
	CHECK_EQ_I(l.latency, 19, "CR latency");
	CHECK_EQ_I(parse("ts GET /crlf 19\r\r", &l), LP_ST_BAD_LATENCY, "only one CR dropped");
	CHECK(slice_is(l.bad, l.bad_len, "19\r"), "second CR stays in the latency field");
	CHECK_EQ_I(parse("ts GET /cr\r", &l), LP_ST_TOO_FEW_FIELDS, "CR alone is no field");
	CHECK_EQ_I(l.nfields, 3, "CR line nfields");
	CHECK_EQ_I(parse("ts GET /crmid\r 20", &l), LP_ST_OK, "CR inside a line is a route byte");
	CHECK(slice_is(l.route, l.route_len, "/crmid\r"), "CR kept in the route");

	CHECK_EQ_I(parse("ts GET /extra 21 more fields\there 12ms -5", &l), LP_ST_OK,
			   "fields after the fourth ignored");
	CHECK(slice_is(l.route, l.route_len, "/extra") && l.latency == 21, "extra fields values");
	CHECK_EQ_I(l.nfields, 4, "nfields counts up to four");

	/* the length bounds the line: bytes after it are not read */
	s = "ts GET /len 22XYZ";
	CHECK_EQ_I(lp_parse_line(s, strlen(s) - 3, &l), LP_ST_OK, "length bounds the line");
	CHECK_EQ_I(l.latency, 22, "length-bounded latency");
	CHECK_EQ_I(lp_parse_line(s, 11, &l), LP_ST_TOO_FEW_FIELDS, "length cut before the latency");
	CHECK_EQ_I(lp_parse_line("", 0, &l), LP_ST_TOO_FEW_FIELDS, "empty input");
	CHECK_EQ_I(l.nfields, 0, "empty input nfields");
}

/* Fewer than four fields, with the count of those found. */
void
test_parse_few(void)
{
	static const struct
	{
		const char *line;
		int			n;
	}			cases[] = {
		{"", 0}, {"   \t ", 0}, {"\r", 0}, {"ts", 1}, {"ts GET", 2},
		{"ts GET /a", 3}, {"ts GET /a \t", 3}, {"  ts\tGET  ", 2}, {"ts GET /a\r", 3},
	};
	size_t		i;
	lp_line		l;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		CHECK_EQ_I(parse(cases[i].line, &l), LP_ST_TOO_FEW_FIELDS, cases[i].line);
		CHECK_EQ_I(l.nfields, cases[i].n, cases[i].line);
		CHECK(l.bad == NULL, "no bad slice for too few fields");
	}
}

/* Latencies: plain non-negative decimal integers that fit in int64. */
void
test_parse_latency(void)
{
	static const struct
	{
		const char *lat;
		lp_status	st;
		int64_t		value;
	}			cases[] = {
		{"12ms", LP_ST_BAD_LATENCY, 0},
		{"-5", LP_ST_BAD_LATENCY, 0},
		{"1e3", LP_ST_BAD_LATENCY, 0},
		{"+", LP_ST_BAD_LATENCY, 0},
		{"+5", LP_ST_BAD_LATENCY, 0},
		{"0x10", LP_ST_BAD_LATENCY, 0},
		{"\"\"", LP_ST_BAD_LATENCY, 0},
		{"1.5", LP_ST_BAD_LATENCY, 0},
		{"5,0", LP_ST_BAD_LATENCY, 0},
		{"\xd9\xa3", LP_ST_BAD_LATENCY, 0},	/* ARABIC-INDIC DIGIT THREE */
		{"0", LP_ST_OK, 0},
		{"007", LP_ST_OK, 7},
		{"00000000000000000000000000000001", LP_ST_OK, 1},
		{"9223372036854775807", LP_ST_OK, INT64_MAX},
		{"09223372036854775807", LP_ST_OK, INT64_MAX},
		{"9223372036854775808", LP_ST_LATENCY_RANGE, 0},
		{"9223372036854775810", LP_ST_LATENCY_RANGE, 0},
		{"18446744073709551615", LP_ST_LATENCY_RANGE, 0},
		{"18446744073709551616", LP_ST_LATENCY_RANGE, 0},
		{"99999999999999999999", LP_ST_LATENCY_RANGE, 0},
		{"99999999999999999999x", LP_ST_BAD_LATENCY, 0},
	};
	size_t		i;
	char		line[200];
	lp_line		l;
	int64_t		v;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		lp_status	st;

		snprintf(line, sizeof(line), "ts GET /lat %s tail", cases[i].lat);
		st = parse(line, &l);
		CHECK_EQ_I(st, cases[i].st, cases[i].lat);
		if (st == LP_ST_OK)
			CHECK_EQ_I(l.latency, cases[i].value, cases[i].lat);
		else
			CHECK(slice_is(l.bad, l.bad_len, cases[i].lat) && l.bad == line + 12,
				  "bad slice of %s", cases[i].lat);
		CHECK(slice_is(l.route, l.route_len, "/lat"), "route beside latency %s", cases[i].lat);
		/* lp_parse_uint63 alone agrees */
		CHECK_EQ_I(lp_parse_uint63(cases[i].lat, strlen(cases[i].lat), &v), cases[i].st,
				   cases[i].lat);
	}
	CHECK_EQ_I(lp_parse_uint63("", 0, &v), LP_ST_BAD_LATENCY, "empty number");
	CHECK_EQ_I(lp_parse_uint63("12", 1, &v), LP_ST_OK, "length-bounded number");
	CHECK_EQ_I(v, 1, "length-bounded number value");

	/* every value around the int64 limit */
	for (i = 0; i < 10; i++)
	{
		snprintf(line, sizeof(line), "922337203685477580%d", (int) i);
		CHECK_EQ_I(lp_parse_uint63(line, strlen(line), &v),
				   i <= 7 ? LP_ST_OK : LP_ST_LATENCY_RANGE, line);
		if (i <= 7)
			CHECK_EQ_I(v, INT64_MAX - 7 + (int64_t) i, line);
	}

	/*
	 * the short-line path reads latencies of up to 8 digits without a loop:
	 * every length 1..9 at the end of lines of 16..63 bytes, and every byte
	 * value in every position of the field, against the plain digit loop
	 */
	{
		static const char digits[] = "90817263549";
		long		wrong = 0,
					tried = 0;
		test_diff	d;
		size_t		n,
					pad,
					pos;
		int			b;

		for (n = 1; n <= 9; n++)
			for (pad = 0; pad < 48; pad += 5)
			{
				char		lat[16];
				int			len;

				memcpy(lat, digits, n);
				lat[n] = '\0';
				len = snprintf(line, sizeof(line), "t GET /r%.*s %s", (int) pad,
							   "/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", lat);
				for (pos = 0; pos <= n; pos++)
					for (b = 0; b < 256; b++)
					{
						char		l2[200];
						lp_status	want,
									got;
						int64_t		wv = -1;

						if (pos == n && b != 0)
							break;	/* pos == n: the field unchanged, once */
						memcpy(l2, line, (size_t) len + 1);
						if (pos < n)
							l2[len - (int) n + (int) pos] = (char) b;
						if (pos < n && (b == ' ' || b == '\t' || (b == '\r' && pos == n - 1)))
							continue;	/* would change the fields, not the latency */
						want = lp_parse_uint63(l2 + len - n, n, &wv);
						got = lp_parse_line(l2, (size_t) len, &l);
						tried++;
						diff_init(&d);
						if (diff_i(&d, "status", got, want) && got == LP_ST_OK)
							diff_i(&d, "latency", l.latency, wv);
						if (d.field && wrong++ < 5)
							CHECK(0, "build %s: %s (line %s, the latency read by lp_parse_uint63)",
								  PARSE_BUILD, diff_say(&d), diff_q(l2, (size_t) len));
					}
			}
		CHECK_EQ_I(wrong, 0, "short-line latency digits agree with the digit loop");
		CHECK(tried > 20000, "short-line latency digits: %ld lines tried", tried);
	}
}

/* Routes are any run of non-blank bytes, UTF-8 included. */
void
test_parse_utf8(void)
{
	lp_line		l;
	char		big[70000];

	CHECK_EQ_I(parse("ts GET /caf\xc3\xa9/\xe6\x97\xa5\xe6\x9c\xac/\xf0\x9f\x98\x80 5", &l),
			   LP_ST_OK, "UTF-8 route");
	CHECK(slice_is(l.route, l.route_len, "/caf\xc3\xa9/\xe6\x97\xa5\xe6\x9c\xac/\xf0\x9f\x98\x80"),
		  "UTF-8 bytes kept");
	/* a no-break space (U+00A0) is not a separator */
	CHECK_EQ_I(parse("ts GET /a\xc2\xa0" "b 6", &l), LP_ST_OK, "NBSP in route");
	CHECK(slice_is(l.route, l.route_len, "/a\xc2\xa0" "b"), "NBSP kept");
	/* invalid UTF-8 and high bytes are bytes like any other */
	CHECK_EQ_I(parse("ts GET \xff\xfe\x80 7", &l), LP_ST_OK, "high bytes");
	CHECK(slice_is(l.route, l.route_len, "\xff\xfe\x80"), "high bytes kept");
	/* other control bytes are not blanks either */
	CHECK_EQ_I(parse("ts GET /v\x0b\x0c" "x 8", &l), LP_ST_OK, "VT FF in route");
	CHECK_EQ_I(l.route_len, 5, "VT FF kept");
	/* a long route */
	memset(big, 'r', sizeof(big));
	memcpy(big, "ts GET /", 8);
	memcpy(big + sizeof(big) - 3, " 9", 2);
	big[sizeof(big) - 1] = '\0';
	CHECK_EQ_I(parse(big, &l), LP_ST_OK, "long route");
	CHECK_EQ_I(l.route_len, sizeof(big) - 10, "long route length");
	CHECK_EQ_I(l.latency, 9, "long route latency");
}

/*
 * Does lp_parse_line's answer (sa, a) equal the reference's (sb, b) on
 * line[0..len), every field it sets?  The first field that differs goes to *d.
 */
static int
parse_same(const char *line, size_t len, lp_status sa, const lp_line *a,
		   lp_status sb, const lp_line *b, test_diff *d)
{
	diff_init(d);
	diff_i(d, "status", sa, sb);
	diff_i(d, "nfields", a->nfields, b->nfields);
	if (sb != LP_ST_TOO_FEW_FIELDS)
		diff_slice(d, "route", line, a->route, a->route_len, b->route, b->route_len);
	if (sb == LP_ST_OK)
		diff_i(d, "latency", a->latency, b->latency);
	diff_slice(d, "bad", line, a->bad, a->bad_len, b->bad, b->bad_len);
	return d->field == NULL;
}

/* Random lines of 0..90 bytes (every fast-path length) agree with the reference. */
void
test_parse_differential(void)
{
	static const char alphabet[] = "  \t\t\raa/09919";
	uint64_t	x = 0x2545F4914F6CDD1DULL;
	char		buf[96];
	int			i,
				bad = 0;
	long		nshort = 0;
	test_diff	d;

	for (i = 0; i < 200000; i++)
	{
		size_t		len,
					j;
		lp_line		a,
					b;
		lp_status	sa,
					sb;
		char	   *line;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		len = (size_t) (x % 91);
		for (j = 0; j < len; j++)
		{
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			/* mostly field bytes, so that four fields are common */
			buf[j] = alphabet[(x >> 20) % (sizeof(alphabet) - 1)];
		}
		/* a heap copy of exactly len bytes, so that ASan sees any overread */
		line = malloc(len ? len : 1);
		memcpy(line, buf, len);
		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		sa = lp_parse_line(line, len, &a);
		sb = ref_parse(line, len, &b);
		if (!parse_same(line, len, sa, &a, sb, &b, &d) && bad++ < 5)
			CHECK(0, "build %s: %s (line %s, %zu bytes)", PARSE_BUILD, diff_say(&d),
				  diff_q(line, len), len);

		/*
		 * the inline fast path (lp_parse_line_short): where it reads a line,
		 * the reference finds that route and latency; and so does the
		 * direct parser of every format whose entry lets callers count
		 * such lines inline (LP_FMT_SHORT_PATH)
		 */
		{
			const char *r;
			size_t		rn,
						k;
			int64_t		lat;

			if (lp_parse_line_short(line, len, &r, &rn, &lat))
			{
				nshort++;
				if ((sb != LP_ST_OK || r != b.route || rn != b.route_len || lat != b.latency) &&
					bad++ < 5)
					CHECK(0, "lp_parse_line_short reads %s differently from the reference",
						  diff_q(line, len));
				for (k = 0; lp_formats[k].name; k++)
				{
					const lp_format_def *f = &lp_formats[k];
					lp_row		row;

					if (!(f->flags & LP_FMT_SHORT_PATH))
						continue;
					unsigned	fl;
					lp_direct_fn dfn = lp_format_direct(f, 0, &fl);

					if ((!dfn || !dfn(line, len, fl, &row) ||
						 row.route != r || row.route_len != rn || row.latency != lat) &&
						bad++ < 5)
						CHECK(0, "format %s: its direct parser does not count %s as the short path does",
							  f->name, diff_q(line, len));
				}
			}
		}
		free(line);
	}
	CHECK_EQ_I(bad, 0, "parser agrees with the byte-by-byte reference on 200000 random lines");
#ifdef LP_SIMD_SSE2
	CHECK(nshort > 20000, "the short path read %ld of them, as the reference and the formats' direct parsers do",
		  nshort);
#else
	CHECK(nshort == 0, "no short path in this build: it read %ld lines", nshort);
#endif
}

