/* test/unit/test_token.c -- unit tests of the shared tokenizers (lp_token.c): byte scans, the request line, escapes, routes, latencies */

#include "test_harness.h"
#include "ref_combined.h"

#include "lp_token.h"
#include "ref_escape.h"

/* A splitmix64 step: the tests' random numbers. */
static uint64_t
tk_rand(uint64_t *s)
{
	uint64_t	z = (*s += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* The byte scans against byte loops, at every start, end and length of a buffer. */
void
test_token_find(void)
{
	static const char alphabet[] = "ab \t?\\\"x";
	char		buf[100];
	uint64_t	seed = 7;
	long		bad = 0,
				n = 0;
	int			round;

	for (round = 0; round < 40; round++)
	{
		size_t		len = 1 + tk_rand(&seed) % sizeof(buf);
		size_t		i,
					s,
					e;

		for (i = 0; i < len; i++)
			buf[i] = round % 5 == 0 ? 'a' : alphabet[tk_rand(&seed) % (sizeof(alphabet) - 1)];
		for (s = 0; s <= len; s++)
			for (e = s; e <= len; e++)
			{
				const char *want1 = NULL;
				const char *want4 = NULL;
				const char *p;

				for (p = buf + s; p < buf + e && !want1; p++)
					if (*p == '?')
						want1 = p;
				for (p = buf + s; p < buf + e && !want4; p++)
					if (*p == ' ' || *p == '\t' || *p == '\\' || *p == '"')
						want4 = p;
				if (lp_find_byte(buf, buf + s, buf + e, '?') != want1)
					bad++;
				if (lp_find_byte4(buf, buf + s, buf + e, ' ', '\t', '\\', '"') != want4)
					bad++;
				/* lo = s: nothing before the start may be read */
				if (lp_find_byte(buf + s, buf + s, buf + e, '?') != want1 ||
					lp_find_byte4(buf + s, buf + s, buf + e, ' ', '\t', '\\', '"') != want4)
					bad++;
				n++;
			}
	}
	CHECK(bad == 0, "lp_find_byte and lp_find_byte4 agree with byte loops on %ld ranges (%ld differ)",
		  n, bad);
}

/* Parse a NUL-terminated request line. */
static lp_status
req(const char *s, unsigned flags, lp_request *r)
{
	memset(r, 0xAB, sizeof(*r));
	return lp_request_parse(s, strlen(s), flags, r);
}

/* Does a request's route equal want (with its slash)? */
static int
route_is(const lp_request *r, const char *want)
{
	char		got[256];

	snprintf(got, sizeof(got), "%s%.*s", r->route_slash ? "/" : "", (int) r->route_len, r->route);
	return strcmp(got, want) == 0;
}

/* The request line: the combined family's rules, by hand. */
void
test_token_request(void)
{
	static const struct
	{
		const char *rq;
		unsigned	flags;
		lp_status	st;
		const char *route;		/* with its slash; NULL: not checked */
		const char *method;
	}			cases[] = {
		{"GET /api/users?id=7 HTTP/1.1", 0, LP_ST_OK, "/api/users", "GET"},
		{"GET /api/users?id=7 HTTP/1.1", LP_PARSE_KEEP_QUERY, LP_ST_OK, "/api/users?id=7", "GET"},
		{"GET /a", 0, LP_ST_OK, "/a", "GET"},
		{"M-SEARCH * HTTP/1.1", 0, LP_ST_OK, "*", "M-SEARCH"},
		{"OPTIONS * HTTP/1.1", 0, LP_ST_OK, "*", "OPTIONS"},
		{"get /lower-case-method HTTP/1.0", 0, LP_ST_OK, "/lower-case-method", "get"},
		{"GET http://example.com/p/q?x=1 HTTP/1.1", 0, LP_ST_OK, "/p/q", "GET"},
		{"GET http://example.com/p/q?x=1 HTTP/1.1", LP_PARSE_KEEP_QUERY, LP_ST_OK, "/p/q?x=1", "GET"},
		{"GET http://example.com HTTP/1.1", 0, LP_ST_OK, "/", "GET"},
		{"GET http://example.com?x=1 HTTP/1.1", 0, LP_ST_OK, "/", "GET"},
		{"GET http://example.com?x=1 HTTP/1.1", LP_PARSE_KEEP_QUERY, LP_ST_OK, "/?x=1", "GET"},
		{"CONNECT example.com:443 HTTP/1.1", 0, LP_ST_OK, "example.com:443", "CONNECT"},
		{"GET /a\tHTTP/1.1", 0, LP_ST_OK, "/a", "GET"},
		{"GET /a/very/long/path/that/passes/sixteen/bytes?q=1 HTTP/1.1", 0, LP_ST_OK,
		"/a/very/long/path/that/passes/sixteen/bytes", "GET"},
		{"GET /x\\x22y HTTP/1.1", 0, LP_ST_OK, "/x\\x22y", "GET"},
		{"-", 0, LP_ST_BAD_REQUEST, NULL, NULL},
		{"GET ? HTTP/1.1", 0, LP_ST_BAD_REQUEST, NULL, NULL},
		{"GET ?a HTTP/1.1", LP_PARSE_KEEP_QUERY, LP_ST_OK, "?a", "GET"},
		/* placeholders of a request the server could not read */
		{"- http://localhost HTTP/1.0", 0, LP_ST_NOT_HTTP, NULL, NULL},
		{"- /x HTTP/1.0", 0, LP_ST_NOT_HTTP, NULL, NULL},
		{"  ", 0, LP_ST_NOT_HTTP, NULL, NULL},
		{"", 0, LP_ST_NOT_HTTP, NULL, NULL},
		/* not HTTP */
		{"PRI * HTTP/2.0", 0, LP_ST_NOT_HTTP, NULL, NULL},
		{"GET", 0, LP_ST_NOT_HTTP, NULL, NULL},
		{"GET ", 0, LP_ST_NOT_HTTP, NULL, NULL},
		{"GET  /x HTTP/1.1", 0, LP_ST_NOT_HTTP, NULL, NULL},
		{"GET\t/x HTTP/1.1", 0, LP_ST_NOT_HTTP, NULL, NULL},
		{"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 0, LP_ST_NOT_HTTP, NULL, NULL},
		{"G\"T /x HTTP/1.1", 0, LP_ST_NOT_HTTP, NULL, NULL},
		{"GET\\x20/x HTTP/1.1", 0, LP_ST_NOT_HTTP, NULL, NULL},
	};
	size_t		i;
	lp_request	r;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		lp_status	st = req(cases[i].rq, cases[i].flags, &r);

		if (!CHECK_EQ_I(st, cases[i].st, cases[i].rq) || st != LP_ST_OK)
			continue;
		CHECK(route_is(&r, cases[i].route), "request \"%s\": route \"%s%.*s\", want \"%s\"",
			  cases[i].rq, r.route_slash ? "/" : "", (int) r.route_len, r.route, cases[i].route);
		CHECK(r.method_len == strlen(cases[i].method) &&
			  memcmp(r.method, cases[i].method, r.method_len) == 0,
			  "request \"%s\": method", cases[i].rq);
	}
	/* route_escaped: 0 only when the route is known to have no backslash */
	req("GET /plain/path?x HTTP/1.1", 0, &r);
	CHECK_EQ_I(r.route_escaped, 0, "a plain route is not escaped");
	req("GET /with\\x22quote?x HTTP/1.1", 0, &r);
	CHECK(r.route_escaped == 1 && route_is(&r, "/with\\x22quote"), "a route with a backslash may be");
	req("GET /a?x\\x22 HTTP/1.1", 0, &r);
	CHECK(route_is(&r, "/a"), "a backslash in the query does not change the route");

	/* a target alone */
	{
		static const struct
		{
			const char *t;
			unsigned	flags;
			lp_status	st;
			const char *route;
		}			tcases[] = {
			{"/a/b?c", 0, LP_ST_OK, "/a/b"},
			{"/a/b?c", LP_PARSE_KEEP_QUERY, LP_ST_OK, "/a/b?c"},
			{"https://h:8443/x?y", 0, LP_ST_OK, "/x"},
			{"*", 0, LP_ST_OK, "*"},
			{"-", 0, LP_ST_BAD_REQUEST, NULL},
			{"", 0, LP_ST_BAD_REQUEST, NULL},
			{"?q", 0, LP_ST_BAD_REQUEST, NULL},
		};

		for (i = 0; i < sizeof(tcases) / sizeof(tcases[0]); i++)
		{
			lp_status	st = lp_target_route(tcases[i].t, strlen(tcases[i].t), tcases[i].flags, &r);

			if (CHECK_EQ_I(st, tcases[i].st, tcases[i].t) && st == LP_ST_OK)
				CHECK(route_is(&r, tcases[i].route), "target \"%s\"", tcases[i].t);
		}
	}
}

/* The combined parser's request statuses (another status: none of them). */
static lp_status
tk_from_c(lp_status st)
{
	return st == LP_ST_OK || st == LP_ST_BAD_REQUEST || st == LP_ST_NOT_HTTP ? st : LP_ST_COUNT;
}

/* Append one of n strings (chosen by r) to b at *len. */
static void
tk_pick(char *b, size_t *len, const char *const *set, size_t n, uint64_t r)
{
	const char *s = set[r % n];
	size_t		k = strlen(s);

	memcpy(b + *len, s, k);
	*len += k;
}

/*
 * The differential test the brief asks for: requests made of methods,
 * blanks, targets and versions (and random bytes) read by lp_request_parse
 * and by the combined parser's byte-by-byte reference
 * (ref_c_request_route): the same status and the same route for each,
 * but for the placeholder method "-", which lp_request_parse refuses
 * (LP_ST_NOT_HTTP) whatever follows it.
 */
void
test_token_request_vs_ref(void)
{
	static const char *const methods[] = {
		"GET", "POST", "DELETE", "M-SEARCH", "get", "-", "", "G\"T", "GE:T", "PRI", "A",
		"\xc3\xa9", "PROPFIND", "VERY-LONG-METHOD-NAME-X", "~!#$%&'*+-.^_`|", "--"
	};
	static const char *const blanks[] = {" ", " ", " ", "\t", "  ", "", " \t"};
	static const char *const targets[] = {
		"/", "/a/b", "/a?x=1", "/a?", "?", "", "*", "-", "http://h", "http://h/", "http://h?q",
		"https://h:8/p?q", "HtTp://h/p/q", "h://", "1http://h/p", "/a\\x22b", "/a b",
		"/a\tb", "a+b.c://x/y", "http:/x", "http:///x", "http://?", "/%E2%82%AC/x?y=%20",
		"/api/v2/users/12345/orders?page=3&sort=desc", "//double", "/x\\", "x://h?/",
		"http://[::1]:80/p", "/\xc3\xa9t\xc3\xa9"
	};
	static const char *const versions[] = {
		" HTTP/1.1", " HTTP/2.0", "", " ", " HTTP/1.0 extra", "\tHTTP/1.1", " x y z"
	};
	uint64_t	seed = 2026;
	long		total = 0,
				accepted = 0,
				placeholders = 0,
				bad = 0;
	int			i;

	for (i = 0; i < 60000; i++)
	{
		char		rq[256];
		size_t		len = 0;
		uint64_t	r = tk_rand(&seed);
		int			f;

		if (i % 10 == 9)
		{
			/* random bytes from a small, hostile alphabet */
			static const char alpha[] = "GET /?:* \t-\"\\hp";
			size_t		n = r % 40;

			for (len = 0; len < n; len++)
				rq[len] = alpha[tk_rand(&seed) % (sizeof(alpha) - 1)];
		}
		else if (i == 0)
		{
			memcpy(rq, "PRI * HTTP/2.0", 14);
			len = 14;
		}
		else
		{
			tk_pick(rq, &len, methods, sizeof(methods) / sizeof(methods[0]), r);
			tk_pick(rq, &len, blanks, sizeof(blanks) / sizeof(blanks[0]), r >> 8);
			tk_pick(rq, &len, targets, sizeof(targets) / sizeof(targets[0]), r >> 16);
			tk_pick(rq, &len, versions, sizeof(versions) / sizeof(versions[0]), r >> 24);
		}
		for (f = 0; f < 2; f++)
		{
			unsigned	flags = f ? LP_PARSE_KEEP_QUERY : 0;
			lp_cline	cl;
			lp_request	got;
			lp_status	want,
						st;

			memset(&cl, 0, sizeof(cl));
			want = tk_from_c(ref_c_request_route(rq, rq + len, f ? LP_PARSE_KEEP_QUERY : 0, &cl));
			st = lp_request_parse(rq, len, flags, &got);
			total++;
			if (st == LP_ST_NOT_HTTP && len >= 2 && rq[0] == '-' && rq[1] == ' ')
			{
				placeholders++;
				continue;
			}
			if (st != want)
			{
				if (bad++ < 5)
					CHECK(0, "request %s (flags %u): status %d, the reference's %d",
						  diff_q(rq, len), flags, st, want);
				continue;
			}
			if (st != LP_ST_OK)
				continue;
			accepted++;
			if (got.route_len != cl.route_len || got.route_slash != cl.route_slash ||
				memcmp(got.route, cl.route, got.route_len) != 0 ||
				(cl.route != got.route && !(cl.route_len == 1 && *cl.route == '/')))
			{
				if (bad++ < 5)
					CHECK(0, "request %s (flags %u): route %s, the reference's %s",
						  diff_q(rq, len), flags, diff_q(got.route, got.route_len),
						  diff_q(cl.route, cl.route_len));
			}
		}
	}
	CHECK(bad == 0, "request line: %ld of %ld requests differ from the reference", bad, total);
	CHECK(accepted > total / 4 && placeholders > 100,
		  "request line: the requests cover both answers (%ld accepted, %ld placeholders)",
		  accepted, placeholders);
	printf("  request line vs ref_combined.h: %ld requests, %ld accepted with the same route, "
		   "%ld placeholders refused\n", total, accepted, placeholders);
}

/* Unescape a NUL-terminated string into a buffer; *high set. */
static size_t
unesc(const char *s, lp_escape esc, char *out, int *high)
{
	*high = 0;
	return lp_unescape(s, strlen(s), esc, out, high);
}

/* Each escape of each server, by hand, and every escaper's output undone. */
void
test_token_unescape(void)
{
	static const struct
	{
		lp_escape	esc;
		const char *in;
		const char *out;
		int			high;
	}			cases[] = {
		{LP_ESC_NGINX, "/a\\x22b\\x5Cc", "/a\"b\\c", 0},
		{LP_ESC_NGINX, "/caf\\xC3\\xA9", "/caf\xc3\xa9", 1},
		{LP_ESC_NGINX, "/x\\x09y\\x7F", "/x\ty\x7f", 0},
		{LP_ESC_NGINX, "/lower\\xc3\\xa9", "/lower\xc3\xa9", 1},
		{LP_ESC_NGINX, "/nul\\x00", "/nul\\x00", 0},
		{LP_ESC_NGINX, "/bad\\xZZ\\x4", "/bad\\xZZ\\x4", 0},
		{LP_ESC_NGINX, "/q\\\"", "/q\\\"", 0},
		{LP_ESC_NGINX, "\\", "\\", 0},
		{LP_ESC_JSON, "/a\\\"b\\\\c\\/d", "/a\"b\\c/d", 0},
		{LP_ESC_JSON, "\\b\\f\\n\\r\\t", "\b\f\n\r\t", 0},
		{LP_ESC_JSON, "/caf\\u00e9", "/caf\xc3\xa9", 1},
		{LP_ESC_JSON, "/\\u20AC", "/\xe2\x82\xac", 1},
		{LP_ESC_JSON, "/\\u001F", "/\x1f", 0},
		{LP_ESC_JSON, "/\\ud83d\\ude00", "/\xf0\x9f\x98\x80", 1},
		{LP_ESC_JSON, "/\\ud83d", "/\\ud83d", 0},
		{LP_ESC_JSON, "/\\ude00x", "/\\ude00x", 0},
		{LP_ESC_JSON, "/\\ud83d\\u0041", "/\\ud83dA", 0},
		{LP_ESC_JSON, "/\\u0000", "/\\u0000", 0},
		{LP_ESC_JSON, "/\\u12", "/\\u12", 0},
		{LP_ESC_JSON, "/\\x41", "/\\x41", 0},
		{LP_ESC_JSON, "/\\v", "/\\v", 0},
		{LP_ESC_APACHE, "/a\\\"b\\\\c", "/a\"b\\c", 0},
		{LP_ESC_APACHE, "\\b\\n\\r\\t\\v", "\b\n\r\t\v", 0},
		{LP_ESC_APACHE, "/caf\\xc3\\xa9", "/caf\xc3\xa9", 1},
		{LP_ESC_APACHE, "/\\f\\/", "/\\f\\/", 0},
		{LP_ESC_NONE, "/a\\x22\\\"", "/a\\x22\\\"", 0},
		/* HAProxy's '#' and CloudFront's '%': the mark and two hex digits, not 00 */
		{LP_ESC_HASH, "/a#22b#5cc", "/a\"b\\c", 0},
		{LP_ESC_HASH, "/caf#C3#A9", "/caf\xc3\xa9", 1},
		{LP_ESC_HASH, "/nul#00/#zz/#4/#", "/nul#00/#zz/#4/#", 0},
		{LP_ESC_HASH, "/%20\\x41", "/%20\\x41", 0},
		{LP_ESC_PERCENT, "/a%20b%2Fc", "/a b/c", 0},
		{LP_ESC_PERCENT, "/caf%c3%a9", "/caf\xc3\xa9", 1},
		{LP_ESC_PERCENT, "/nul%00%%41%4", "/nul%00%A%4", 0},
		{LP_ESC_PERCENT, "/#20\\x41", "/#20\\x41", 0},
	};
	char		out[256];
	size_t		i;
	int			high;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		size_t		n = unesc(cases[i].in, cases[i].esc, out, &high);

		CHECK(n == strlen(cases[i].out) && memcmp(out, cases[i].out, n) == 0 && high == cases[i].high,
			  "unescape %d %s: got %s (high %d), want %s (high %d)", cases[i].esc,
			  diff_q(cases[i].in, strlen(cases[i].in)), diff_q(out, n), high,
			  diff_q(cases[i].out, strlen(cases[i].out)), cases[i].high);
	}
	/* in place */
	strcpy(out, "/x\\x22y\\x22");
	high = 0;
	CHECK(lp_unescape(out, strlen(out), LP_ESC_NGINX, out, &high) == 5 && memcmp(out, "/x\"y\"", 5) == 0,
		  "unescape in place");

	/*
	 * Every server's escaping of random bytes (no NUL, which stays escaped)
	 * undone gives the bytes back, in a copy and in place
	 */
	{
		uint64_t	seed = 99;
		long		bad = 0;
		int			round;

		for (round = 0; round < 3000; round++)
		{
			char		raw[64],
						esc[256],
						back[256];
			size_t		n = tk_rand(&seed) % sizeof(raw);
			size_t		k,
						m,
						b;
			int			wanthigh = 0;
			int			e;

			for (k = 0; k < n; k++)
			{
				uint64_t	x = tk_rand(&seed);

				/* mostly ASCII, some escapes, some UTF-8 and high bytes */
				raw[k] = (char) (x % 4 == 0 ? 1 + (x >> 8) % 255 : "abc/\"\\ \t?%x9"[(x >> 8) % 12]);
			}
			for (k = 0; k < n; k++)
				if ((unsigned char) raw[k] >= 0x80)
					wanthigh = 1;
			for (e = 0; e < 3; e++)
			{
				lp_escape	le = e == 0 ? LP_ESC_NGINX : e == 1 ? LP_ESC_JSON : LP_ESC_APACHE;

				m = e == 0 ? ref_esc_nginx(raw, n, esc) : e == 1 ? ref_esc_json(raw, n, esc) :
					ref_esc_apache(raw, n, esc);
				high = 0;
				b = lp_unescape(esc, m, le, back, &high);
				/* JSON leaves bytes >= 0x80 as they are: nothing decoded is high */
				if (b != n || memcmp(back, raw, n) != 0 || high != (e == 1 ? 0 : wanthigh))
					bad++;
				high = 0;
				b = lp_unescape(esc, m, le, esc, &high);
				if (b != n || memcmp(esc, raw, n) != 0)
					bad++;
			}
		}
		CHECK(bad == 0, "unescape undoes the escaping of nginx, nginx json and Apache (%ld differ)", bad);
	}
}

/* Latencies in every unit; the seconds reader against the combined parser's reference. */
void
test_token_latency(void)
{
	static const struct
	{
		const char *s;
		lp_unit		unit;
		lp_status	st;
		int64_t		ms;
	}			cases[] = {
		{"0.214", LP_UNIT_S, LP_ST_OK, 214},
		{"0.0005", LP_UNIT_S, LP_ST_OK, 1},
		{"0.0004999", LP_UNIT_S, LP_ST_OK, 0},
		{"12", LP_UNIT_S, LP_ST_OK, 12000},
		{"12.5", LP_UNIT_S, LP_ST_OK, 12500},
		{"1.", LP_UNIT_S, LP_ST_BAD_SECONDS, 0},
		{".5", LP_UNIT_S, LP_ST_BAD_SECONDS, 0},
		{"1e3", LP_UNIT_S, LP_ST_BAD_SECONDS, 0},
		{"99999999999999999999", LP_UNIT_S, LP_ST_REQTIME_RANGE, 0},
		{"-", LP_UNIT_S, LP_ST_NO_LATENCY, 0},
		{"", LP_UNIT_S, LP_ST_NO_LATENCY, 0},
		{"12", LP_UNIT_MS, LP_ST_OK, 12},
		{"012", LP_UNIT_MS, LP_ST_OK, 12},
		{"1.5", LP_UNIT_MS, LP_ST_BAD_LATENCY, 0},
		{"99999999999999999999", LP_UNIT_MS, LP_ST_LATENCY_RANGE, 0},
		{"-", LP_UNIT_MS, LP_ST_NO_LATENCY, 0},
		{"214500", LP_UNIT_US, LP_ST_OK, 215},
		{"214499", LP_UNIT_US, LP_ST_OK, 214},
		{"499", LP_UNIT_US, LP_ST_OK, 0},
		{"500", LP_UNIT_US, LP_ST_OK, 1},
		{"0.5", LP_UNIT_US, LP_ST_BAD_MICROS, 0},
		{"99999999999999999999", LP_UNIT_US, LP_ST_REQTIME_RANGE, 0},
		{"1500000", LP_UNIT_NS, LP_ST_OK, 2},
		{"1499999", LP_UNIT_NS, LP_ST_OK, 1},
		{"499999", LP_UNIT_NS, LP_ST_OK, 0},
		{"9223372036854775807", LP_UNIT_NS, LP_ST_OK, 9223372036855},
		{"x", LP_UNIT_NS, LP_ST_BAD_LATENCY, 0},
		{"1", LP_UNIT_NONE, LP_ST_BAD_LATENCY, 0},
	};
	static const struct
	{
		const char *s;
		lp_status	st;
		int64_t		ms;
	}			lists[] = {
		{"0.010", LP_ST_OK, 10},
		{"0.010, 0.020", LP_ST_OK, 30},
		{"0.010 : 0.020", LP_ST_OK, 30},
		{"0.010, 0.002 : 0.005", LP_ST_OK, 17},
		{"0.010, - : 0.005", LP_ST_OK, 15},
		{"-", LP_ST_NO_LATENCY, 0},
		{"-, -", LP_ST_NO_LATENCY, 0},
		{"", LP_ST_NO_LATENCY, 0},
		{"0.010,", LP_ST_BAD_SECONDS, 0},
		{"0.010,0.020", LP_ST_BAD_SECONDS, 0},
		{"0.010  0.020", LP_ST_BAD_SECONDS, 0},
		{", 0.010", LP_ST_BAD_SECONDS, 0},
		{"0.010, x", LP_ST_BAD_SECONDS, 0},
		{"9223372036854775.807, 0.001", LP_ST_REQTIME_RANGE, 0},
	};
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		int64_t		ms = -1;
		lp_status	st = lp_latency_ms(cases[i].s, strlen(cases[i].s), cases[i].unit, &ms);

		CHECK(st == cases[i].st && (st != LP_ST_OK || ms == cases[i].ms),
			  "latency \"%s\" unit %d: status %d ms %lld, want %d %lld", cases[i].s, cases[i].unit,
			  st, (long long) ms, cases[i].st, (long long) cases[i].ms);
	}
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
	{
		int64_t		ms = -1;
		lp_status	st = lp_latency_list_ms(lists[i].s, strlen(lists[i].s), LP_UNIT_S, &ms);

		CHECK(st == lists[i].st && (st != LP_ST_OK || ms == lists[i].ms),
			  "upstream list \"%s\": status %d ms %lld, want %d %lld", lists[i].s, st,
			  (long long) ms, lists[i].st, (long long) lists[i].ms);
	}
	/* where a list ends */
	{
		const char *s = "0.1, 0.2 : - 200 x";
		const char *e = lp_list_end(s, s + strlen(s));

		CHECK(e - s == 12, "an upstream list ends before \" 200\" (at %d)", (int) (e - s));
		s = "10.0.0.1:80, unix:/tmp/s : 10.0.0.2:80 \"GET";
		e = lp_list_end(s, s + strlen(s));
		CHECK(e - s == 38, "an address list ends before its field (at %d)", (int) (e - s));
		s = "0.1, ";
		e = lp_list_end(s, s + strlen(s));
		CHECK(e - s == 3, "a dangling \", \" is not part of the list");
	}
	/* the seconds reader is the combined parser's: every digit string of a small alphabet */
	{
		uint64_t	seed = 5;
		long		bad = 0;
		int			round;

		for (round = 0; round < 20000; round++)
		{
			char		s[24];
			size_t		n = 1 + tk_rand(&seed) % 22,
						k;
			int64_t		a = 0,
						b = 0;
			lp_status	want;
			lp_status	got;

			for (k = 0; k < n; k++)
				s[k] = "0123456789.9x"[tk_rand(&seed) % (round % 3 ? 11 : 13)];
			want = ref_c_seconds_ms(s, n, &b);
			got = lp_latency_ms(s, n, LP_UNIT_S, &a);
			if ((want == LP_ST_OK) != (got == LP_ST_OK) || (got == LP_ST_OK && a != b) ||
				(want == LP_ST_REQTIME_RANGE) != (got == LP_ST_REQTIME_RANGE))
				bad++;
		}
		CHECK(bad == 0, "seconds: lp_latency_ms agrees with ref_c_seconds_ms (%ld differ)", bad);
	}
}

/* Build a route from slices of a line in a buffer of exactly LP_ROUTE_BUF_SIZE(len). */
static void
build(const char *line, size_t r_off, size_t r_len, int slash, size_t h_off, size_t h_len,
	  lp_escape esc, unsigned flags, lp_result *out, char **bufp)
{
	size_t		len = strlen(line);
	lp_parse_ctx ctx;

	*bufp = malloc(LP_ROUTE_BUF_SIZE(len));
	ctx.flags = flags;
	ctx.buf = *bufp;
	memset(out, 0, sizeof(*out));
	lp_route_build(line + r_off, r_len, slash, 1, h_len ? line + h_off : NULL, h_len, esc, &ctx, out);
}

/* Is out's route the C string want? */
static int
built_is(const lp_result *out, const char *want)
{
	return (out->has & LP_HAS_ROUTE) && out->route_len == strlen(want) &&
		memcmp(out->route, want, out->route_len) == 0;
}

/* Routes: templates, host, escapes undone, the logged form, and the buffer's bound. */
void
test_token_route(void)
{
	/* a line with a host field and a route field */
	const char *line = "example.com /users/123/caf\\xC3\\xA9/0123456789abcdef0123?x=1";
	size_t		h_len = 11,
				r_off = 12;
	size_t		r_len = strlen(line) - r_off - 4;	/* without "?x=1" */
	lp_result	out;
	char	   *buf;

	build(line, r_off, r_len, 0, 0, h_len, LP_ESC_NGINX, 0, &out, &buf);
	CHECK(built_is(&out, "/users/123/caf\xc3\xa9/0123456789abcdef0123") && (out.has & LP_HAS_ROUTE_HIGH),
		  "route: escapes undone, high bytes said");
	free(buf);
	build(line, r_off, r_len, 0, 0, h_len, LP_ESC_NGINX, LP_PARSE_LOGGED, &out, &buf);
	CHECK(built_is(&out, "/users/123/caf\\xC3\\xA9/0123456789abcdef0123") && out.route == line + r_off &&
		  !(out.has & LP_HAS_ROUTE_HIGH), "route: LP_PARSE_LOGGED keeps the logged slice");
	free(buf);
	build(line, r_off, r_len, 0, 0, h_len, LP_ESC_NGINX, LP_PARSE_TEMPLATES, &out, &buf);
	CHECK(built_is(&out, "/users/:id/caf\xc3\xa9/:hex"), "route: templates, then escapes undone");
	free(buf);
	build(line, r_off, r_len, 0, 0, h_len, LP_ESC_NGINX, LP_PARSE_HOST, &out, &buf);
	CHECK(built_is(&out, "example.com/users/123/caf\xc3\xa9/0123456789abcdef0123"), "route: host in front");
	free(buf);
	build(line, r_off, r_len + 4, 0, 0, h_len, LP_ESC_NGINX,
		  LP_PARSE_HOST | LP_PARSE_TEMPLATES | LP_PARSE_LOGGED, &out, &buf);
	CHECK(built_is(&out, "example.com/users/:id/caf\\xC3\\xA9/:hex?x=1"),
		  "route: host, templates, logged form, the query kept as it is");
	free(buf);
	build(line, r_off, r_len, 0, 0, 0, LP_ESC_NGINX, LP_PARSE_HOST, &out, &buf);
	CHECK(built_is(&out, "/users/123/caf\xc3\xa9/0123456789abcdef0123"), "route: no host, no prefix");
	free(buf);
	build("h ?q=1", 2, 4, 1, 0, 1, LP_ESC_NGINX, LP_PARSE_KEEP_QUERY, &out, &buf);
	CHECK(built_is(&out, "/?q=1"), "route: the slash of an absolute form with no path");
	free(buf);
	{
		const char *plain = "h /plain";

		build(plain, 2, 6, 0, 0, 1, LP_ESC_NGINX, 0, &out, &buf);
		CHECK(built_is(&out, "/plain") && out.route == plain + 2, "route: a plain route is a slice of the line");
		free(buf);
	}
	/* no buffer: the logged route */
	memset(&out, 0, sizeof(out));
	lp_route_build("/a\\x22", 6, 0, 1, NULL, 0, LP_ESC_NGINX, NULL, &out);
	CHECK(built_is(&out, "/a\\x22"), "route: with no buffer the route stays as logged");

	/*
	 * The bound: the worst routes for templates (one-digit segments) with
	 * the longest host, every split of a line between host and route, in a
	 * buffer of exactly LP_ROUTE_BUF_SIZE(len) (AddressSanitizer watches it)
	 */
	{
		char		l[200];
		size_t		len,
					split;
		long		bad = 0;

		for (len = 2; len < sizeof(l); len += 7)
		{
			size_t		k;

			for (k = 0; k < len; k++)
				l[k] = k % 2 ? '/' : (k % 6 == 0 ? '\\' : '7');
			l[len] = '\0';
			for (split = 0; split <= len; split++)
			{
				int			s;

				for (s = 0; s < 2; s++)
				{
					build(l, split, len - split, s, 0, split, LP_ESC_APACHE,
						  LP_PARSE_HOST | LP_PARSE_TEMPLATES, &out, &buf);
					if (out.route_len > LP_ROUTE_BUF_SIZE(len))
						bad++;
					free(buf);
				}
			}
		}
		CHECK(bad == 0, "route: every built route fits LP_ROUTE_BUF_SIZE (%ld did not)", bad);
	}
}
