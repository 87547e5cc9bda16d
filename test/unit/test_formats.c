/* test/unit/test_formats.c -- unit tests of the table of formats and the combined parser (lp_formats.c) */
#include "test_harness.h"

#include "lp_combined.h"
#include "lp_default.h"
#include "lp_formats.h"
#include "lp_options.h"
#include "lp_templates.h"
#include "lp_units.h"
#include "ref_combined.h"

/* A good combined line with a query string; its request time is the last field. */
#define GOOD_HEAD "10.0.0.1 - frank [07/Nov/2026:12:00:05 +0100] \"GET /api/users?id=7 HTTP/1.1\" 200 512 \"-\" \"curl/8\" "

/* Parse a NUL-terminated combined line with `flags`. */
static lp_status
comb(const char *s, unsigned flags, lp_cline *c)
{
	memset(c, 0xAB, sizeof(*c));
	return lp_parse_combined(s, strlen(s), flags, c);
}

/* Parse a NUL-terminated line with the table's entry `name`. */
static lp_status
by_name(const char *name, const char *s, lp_result *f)
{
	const lp_format_def *fmt = lp_format_lookup(name, strlen(name));

	memset(f, 0xAB, sizeof(*f));
	return fmt->parse(s, strlen(s), fmt, NULL, f);
}

/* The table: names, lookup, the name list, the default entry first. */
void
test_formats_table(void)
{
	static const char *const names[] = {"default", "combined", "combined_query",
		"combined_us", "combined_us_query", "haproxy", "alb", "cloudfront", "envoy", "traefik",
	"iis", "caddy", "traefik_json"};
	size_t		i,
				n = 0;

	for (i = 0; lp_formats[i].name; i++)
	{
		const lp_format_def *f = &lp_formats[i];

		n++;
		CHECK(lp_format_lookup(f->name, strlen(f->name)) == f, "table: %s found", f->name);
		/* the built-in formats read their times directly, the others from the parse */
		CHECK(f->parse != NULL && (f->read_ts != NULL) == (f->family <= LP_FAMILY_COMBINED),
			  "table: %s has a parser and a timestamp reader", f->name);
		CHECK((f->read_ts != NULL) || (f->time_kind != LP_TIME_NONE && (f->has & LP_HAS_TIME)),
			  "table: %s has a time kind", f->name);
		CHECK(strstr(lp_format_names(), f->name) != NULL, "table: %s in the name list", f->name);
	}
	CHECK_EQ_U(n, sizeof(names) / sizeof(names[0]), "table: thirteen formats");
	for (i = 0; i < n && i < sizeof(names) / sizeof(names[0]); i++)
		CHECK(strcmp(lp_formats[i].name, names[i]) == 0, "table: entry %zu is %s", i, names[i]);
	CHECK(LP_FORMAT_DEFAULT == &lp_formats[0], "table: default is the first entry");
	CHECK(strcmp(lp_format_names(),
				 "default, combined, combined_query, combined_us, combined_us_query, haproxy, alb, "
				 "cloudfront, envoy, traefik, iis, caddy, traefik_json") == 0,
		  "table: the name list of the unknown-format hint");
	CHECK(lp_format_lookup("Combined", 8) == NULL, "table: lookup is case-sensitive");
	CHECK(lp_format_lookup("combined", 7) == NULL, "table: a prefix is not a name");
	CHECK(lp_format_lookup("combinedx", 9) == NULL, "table: nor a longer name");
	CHECK(lp_format_lookup("", 0) == NULL, "table: nor the empty name");
	CHECK(lp_formats[1].pflags == 0 &&
		  lp_formats[2].pflags == LP_PARSE_KEEP_QUERY &&
		  lp_formats[3].pflags == LP_C_MICROS &&
		  lp_formats[4].pflags == (LP_C_MICROS | LP_PARSE_KEEP_QUERY),
		  "table: the flags the combined formats' parsers are given");
}

/*
 * What each entry carries besides its parsers: family, unit (and the
 * combined parser's flag agrees with it), fields, time, the formats the
 * generator writes and the hint names, a direct parser in every build, a
 * detection order that is a permutation.
 */
void
test_formats_entries(void)
{
	static const struct
	{
		const char *name;
		lp_family	family;
		lp_unit		unit;
		int			detect;
		unsigned	flags;
	}			want[] = {
		{"default", LP_FAMILY_DEFAULT, LP_UNIT_MS, 9, LP_FMT_GENERATE | LP_FMT_SHORT_PATH},
		{"combined", LP_FAMILY_COMBINED, LP_UNIT_S, 11, LP_FMT_GENERATE | LP_FMT_HINT},
		{"combined_query", LP_FAMILY_COMBINED, LP_UNIT_S, 13, LP_FMT_GENERATE},
		{"combined_us", LP_FAMILY_COMBINED, LP_UNIT_US, 10, LP_FMT_GENERATE | LP_FMT_HINT},
		{"combined_us_query", LP_FAMILY_COMBINED, LP_UNIT_US, 12, LP_FMT_GENERATE},
		{"haproxy", LP_FAMILY_PRESET, LP_UNIT_MS, 1, LP_FMT_LOCAL_TIME},
		{"alb", LP_FAMILY_PRESET, LP_UNIT_S, 2, 0},
		{"cloudfront", LP_FAMILY_PRESET, LP_UNIT_S, 3, LP_FMT_LOCAL_TIME},
		{"envoy", LP_FAMILY_PRESET, LP_UNIT_MS, 4, 0},
		{"traefik", LP_FAMILY_PRESET, LP_UNIT_MS, 5, 0},
		{"iis", LP_FAMILY_PRESET, LP_UNIT_MS, 6, LP_FMT_LOCAL_TIME},
		{"caddy", LP_FAMILY_JSON, LP_UNIT_S, 7, 0},
		{"traefik_json", LP_FAMILY_JSON, LP_UNIT_NS, 8, 0},
	};
	size_t		i;
	unsigned	seen = 0;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
	{
		const lp_format_def *f = lp_format_lookup(want[i].name, strlen(want[i].name));
		lp_isa		isa;

		CHECK(f != NULL, "entries: %s", want[i].name);
		if (!f)
			continue;
		CHECK(f->family == want[i].family && f->unit == want[i].unit && f->detect == want[i].detect &&
			  f->flags == want[i].flags, "entries: %s: family, unit, detection order, flags", f->name);
		if (f->family <= LP_FAMILY_COMBINED)
		{
			CHECK(f->has == (f->family == LP_FAMILY_DEFAULT ?
							 (LP_HAS_ROUTE | LP_HAS_LATENCY | LP_HAS_TIME | LP_HAS_METHOD) :
							 (LP_HAS_ROUTE | LP_HAS_LATENCY | LP_HAS_TIME | LP_HAS_METHOD | LP_HAS_STATUS)),
				  "entries: %s: its fields", f->name);
			CHECK(f->time_kind == (f->family == LP_FAMILY_DEFAULT ? LP_TIME_ISO8601 : LP_TIME_CLF),
				  "entries: %s: its time", f->name);
			CHECK(f->direct != NULL, "entries: %s: a direct parser", f->name);
		}
		else
		{
			/* the presets: every field but the host, which some log; routes always unescaped */
			unsigned	base = LP_HAS_ROUTE | LP_HAS_LATENCY | LP_HAS_TIME | LP_HAS_METHOD | LP_HAS_STATUS;

			CHECK((f->has & ~LP_HAS_HOST) == base && f->time_kind != LP_TIME_NONE &&
				  f->pflags == LP_PARSE_UNESCAPE && f->direct == NULL && f->read_ts == NULL,
				  "entries: %s: fields, time, flags of a preset", f->name);
		}
		if (f->family == LP_FAMILY_COMBINED)
			CHECK(((f->pflags & LP_C_MICROS) != 0) == (f->unit == LP_UNIT_US),
				  "entries: %s: the combined parser's unit flag agrees with the unit", f->name);
		for (isa = LP_ISA_BASE; f->direct && isa < LP_ISA_COUNT; isa++)
			CHECK(!lp_simd_has(isa) || f->direct[isa] != NULL,
				  "entries: %s: a direct parser in build %d", f->name, (int) isa);
		CHECK(f->detect >= 1 && f->detect <= 13 && !(seen & (1u << f->detect)),
			  "entries: %s: a place of its own in detection order", f->name);
		seen |= 1u << f->detect;
	}
	CHECK(lp_format_names() != NULL, "entries: the name list");
}

/* lp_parse_combined: the fields it finds, the query string, every error status. */
void
test_formats_combined(void)
{
	lp_cline	c;

	CHECK_EQ_I(comb(GOOD_HEAD "0.214", 0, &c), LP_ST_OK, "combined: good line");
	CHECK(slice_is(c.route, c.route_len, "/api/users"), "combined: the query string is dropped");
	CHECK_EQ_I(c.latency, 214, "combined: 0.214 s is 214 ms");
	CHECK(slice_is(c.time, c.time_len, "07/Nov/2026:12:00:05 +0100"), "combined: the time slice");
	CHECK(slice_is(c.request, c.request_len, "GET /api/users?id=7 HTTP/1.1"), "combined: the request slice");
	CHECK_EQ_I(c.tail_fields, 5, "combined: five fields after the request");
	CHECK_EQ_I(comb(GOOD_HEAD "0.214", LP_PARSE_KEEP_QUERY, &c), LP_ST_OK, "combined_query: good line");
	CHECK(slice_is(c.route, c.route_len, "/api/users?id=7"), "combined_query: the query string stays");
	CHECK_EQ_I(comb(GOOD_HEAD "214567", LP_C_MICROS, &c), LP_ST_OK, "combined_us: good line");
	CHECK_EQ_I(c.latency, 215, "combined_us: 214567 us is 215 ms");
	CHECK_EQ_I(comb(GOOD_HEAD "0.5\r", 0, &c), LP_ST_OK, "combined: a trailing CR is dropped");
	CHECK_EQ_I(c.latency, 500, "combined: 0.5 s");
	CHECK_EQ_I(comb(GOOD_HEAD "0.214 extra", 0, &c), LP_ST_BAD_SECONDS,
			   "combined: the last field is the request time");
	CHECK(slice_is(c.bad, c.bad_len, "extra"), "combined: the last field is the one reported");
	CHECK_EQ_I(comb("1.2.3.4 - - [t] \"GET /q\\\"x HTTP/1.1\" 200 1 \"a \\\" b\" \"-\" 1", 0, &c),
			   LP_ST_OK, "combined: escaped quotes inside quoted fields");
	CHECK(slice_is(c.route, c.route_len, "/q\\\"x"), "combined: the route keeps its escape");

	CHECK_EQ_I(comb("10.0.0.1 - - 07/Nov/2026 \"GET / HTTP/1.1\" 200 1 \"-\" \"-\" 0.1", 0, &c),
			   LP_ST_NO_TIME, "combined: no [time]");
	/* the request is the first quoted field: here the referer "-" */
	CHECK_EQ_I(comb("10.0.0.1 - - [t] GET / 200 1 \"-\" \"-\" 0.1", 0, &c),
			   LP_ST_BAD_REQUEST, "combined: unquoted request");
	CHECK_EQ_I(comb("10.0.0.1 - - [t] GET / 200 1 - - 0.1", 0, &c),
			   LP_ST_NO_REQUEST, "combined: no quoted field at all");
	CHECK_EQ_I(comb("10.0.0.1 - - [t] \"-\" 400 1 \"-\" \"-\" 0.1", 0, &c),
			   LP_ST_BAD_REQUEST, "combined: request \"-\"");
	CHECK(slice_is(c.request, c.request_len, "-"), "combined: the bad request is reported");
	CHECK_EQ_I(comb("10.0.0.1 - - [t] \"GET ?a=1 HTTP/1.1\" 200 1 \"-\" \"-\" 0.1", 0, &c),
			   LP_ST_BAD_REQUEST, "combined: a query string and no path");
	CHECK_EQ_I(comb("10.0.0.1 - - [t] \"GET / HTTP/1.1", 0, &c),
			   LP_ST_UNTERMINATED, "combined: unterminated request");
	CHECK_EQ_I(comb("10.0.0.1 - - [t] \"GET / HTTP/1.1\" 200 1 \"-\" \"curl 0.1", 0, &c),
			   LP_ST_UNTERMINATED, "combined: unterminated user agent");
	CHECK_EQ_I(comb("10.0.0.1 - - [t] \"GET / HTTP/1.1\" 200 1 \"-\" \"curl\\\"", 0, &c),
			   LP_ST_UNTERMINATED, "combined: an escaped last quote");
	CHECK_EQ_I(comb("10.0.0.1 - - [t] \"GET / HTTP/1.1\" 200 1 \"-\" 0.1", 0, &c),
			   LP_ST_TOO_FEW_TAIL_FIELDS, "combined: four fields after the request");
	CHECK_EQ_I(c.tail_fields, 4, "combined: the fields found are counted");
	CHECK_EQ_I(comb(GOOD_HEAD "\"0.1\"", 0, &c), LP_ST_BAD_SECONDS, "combined: a quoted request time");
	CHECK(slice_is(c.bad, c.bad_len, "\"0.1\""), "combined: the bad field, quotes included");
	CHECK_EQ_I(comb(GOOD_HEAD "0.2s", 0, &c), LP_ST_BAD_SECONDS, "combined: 0.2s");
	CHECK_EQ_I(comb(GOOD_HEAD "0.214", LP_C_MICROS, &c), LP_ST_BAD_MICROS, "combined_us: 0.214");
	CHECK_EQ_I(comb(GOOD_HEAD "9223372036854775808", LP_C_MICROS, &c), LP_ST_REQTIME_RANGE,
			   "combined_us: past int64");
	CHECK_EQ_I(comb(GOOD_HEAD "9223372036854775.808", 0, &c), LP_ST_REQTIME_RANGE,
			   "combined: past INT64_MAX ms");
}

/* The request-time converters: rounding half up, syntax, range. */
void
test_formats_request_time(void)
{
	int64_t		ms = -1;

	CHECK(lp_parse_seconds_ms("1", 1, &ms) == LP_ST_OK && ms == 1000, "seconds: 1");
	CHECK(lp_parse_seconds_ms("1.5", 3, &ms) == LP_ST_OK && ms == 1500, "seconds: 1.5");
	CHECK(lp_parse_seconds_ms("0.0005", 6, &ms) == LP_ST_OK && ms == 1, "seconds: 0.0005 rounds up");
	CHECK(lp_parse_seconds_ms("0.0004999", 9, &ms) == LP_ST_OK && ms == 0, "seconds: 0.0004999 rounds down");
	CHECK(lp_parse_seconds_ms("0.9995", 6, &ms) == LP_ST_OK && ms == 1000, "seconds: 0.9995 carries");
	CHECK(lp_parse_seconds_ms("9223372036854775.807", 20, &ms) == LP_ST_OK && ms == INT64_MAX,
		  "seconds: INT64_MAX ms");
	CHECK_EQ_I(lp_parse_seconds_ms("9223372036854775.8075", 21, &ms), LP_ST_REQTIME_RANGE,
			   "seconds: rounding past INT64_MAX");
	CHECK_EQ_I(lp_parse_seconds_ms("99999999999999999999", 20, &ms), LP_ST_REQTIME_RANGE,
			   "seconds: a huge integer part");
	CHECK_EQ_I(lp_parse_seconds_ms("", 0, &ms), LP_ST_BAD_SECONDS, "seconds: empty");
	CHECK_EQ_I(lp_parse_seconds_ms("1.", 2, &ms), LP_ST_BAD_SECONDS, "seconds: 1.");
	CHECK_EQ_I(lp_parse_seconds_ms(".5", 2, &ms), LP_ST_BAD_SECONDS, "seconds: .5");
	CHECK_EQ_I(lp_parse_seconds_ms("-0.2", 4, &ms), LP_ST_BAD_SECONDS, "seconds: negative");
	CHECK_EQ_I(lp_parse_seconds_ms("1e3", 3, &ms), LP_ST_BAD_SECONDS, "seconds: exponent");
	CHECK(lp_parse_micros_ms("1499", 4, &ms) == LP_ST_OK && ms == 1, "micros: 1499 rounds down");
	CHECK(lp_parse_micros_ms("1500", 4, &ms) == LP_ST_OK && ms == 2, "micros: 1500 rounds up");
	CHECK(lp_parse_micros_ms("0", 1, &ms) == LP_ST_OK && ms == 0, "micros: 0");
	CHECK_EQ_I(lp_parse_micros_ms("1.5", 3, &ms), LP_ST_BAD_MICROS, "micros: a fraction");
	CHECK_EQ_I(lp_parse_micros_ms("9223372036854775808", 19, &ms), LP_ST_REQTIME_RANGE,
			   "micros: past int64");
}

/* Each entry's parser and timestamp reader: the statuses the glue turns into messages. */
void
test_formats_parsers(void)
{
	lp_result	f;
	lp_line		pl;
	lp_ts		t;
	static const char dline[] = "2026-11-07T12:00:05Z GET /a 12";

	CHECK_EQ_I(by_name("default", dline, &f), LP_ST_OK, "default entry: good line");
	CHECK_EQ_I(lp_parse_line(dline, strlen(dline), &pl), LP_ST_OK, "default entry: lp_parse_line agrees");
	CHECK(f.route_len == pl.route_len && memcmp(f.route, pl.route, f.route_len) == 0 &&
		  f.latency == pl.latency, "default entry: the same route and latency");
	CHECK_EQ_I(by_name("default", "a b c", &f), LP_ST_TOO_FEW_FIELDS, "default entry: three fields");
	CHECK(f.nwant == 4 && f.nfields == 3 && f.bad == NULL, "default entry: fields wanted and found, nothing quoted");
	CHECK_EQ_I(by_name("default", "a b /c 12ms", &f), LP_ST_BAD_LATENCY, "default entry: 12ms");
	CHECK(slice_is(f.bad, f.bad_len, "12ms"), "default entry: the bad field");
	CHECK_EQ_I(by_name("default", "a b /c 9223372036854775808", &f), LP_ST_LATENCY_RANGE,
			   "default entry: past int64");

	CHECK_EQ_I(by_name("combined", GOOD_HEAD "0.214", &f), LP_ST_OK, "combined entry: good line");
	CHECK(slice_is(f.route, f.route_len, "/api/users") && f.latency == 214, "combined entry: route, latency");
	CHECK_EQ_I(by_name("combined_query", GOOD_HEAD "0.214", &f), LP_ST_OK, "combined_query entry");
	CHECK(slice_is(f.route, f.route_len, "/api/users?id=7"), "combined_query entry: the query stays");
	CHECK_EQ_I(by_name("combined_us_query", GOOD_HEAD "1500", &f), LP_ST_OK, "combined_us_query entry");
	CHECK(slice_is(f.route, f.route_len, "/api/users?id=7") && f.latency == 2,
		  "combined_us_query entry: query kept, microseconds");
	CHECK_EQ_I(by_name("combined", GOOD_HEAD "0.2s", &f), LP_ST_BAD_SECONDS, "combined entry: 0.2s");
	CHECK_EQ_I(by_name("combined_us", GOOD_HEAD "0.2", &f), LP_ST_BAD_MICROS, "combined_us entry: 0.2");
	CHECK_EQ_I(by_name("combined", GOOD_HEAD "9223372036854775.808", &f), LP_ST_REQTIME_RANGE,
			   "combined entry: range");
	CHECK_EQ_I(by_name("combined", "1 - - [t] \"GET / HTTP/1.1\" 200 1 \"-\" 0.1", &f),
			   LP_ST_TOO_FEW_TAIL_FIELDS, "combined entry: four fields after the request");
	CHECK(f.nwant == 5 && f.nfields == 4 && f.bad == NULL, "combined entry: fields wanted and found, nothing quoted");
	CHECK_EQ_I(by_name("combined", "1 - - \"GET / HTTP/1.1\" 200 1 \"-\" \"-\" 0.1", &f),
			   LP_ST_NO_TIME, "combined entry: no time");
	CHECK_EQ_I(by_name("combined", "1 - - [t] GET", &f), LP_ST_NO_REQUEST, "combined entry: no request");
	CHECK_EQ_I(by_name("combined", "1 - - [t] \"-\" 1 2 3 4 5", &f), LP_ST_BAD_REQUEST,
			   "combined entry: request -");
	CHECK(slice_is(f.bad, f.bad_len, "-"), "combined entry: the request is the field reported");
	CHECK_EQ_I(by_name("combined", "1 - - [t] \"GET /", &f), LP_ST_UNTERMINATED,
			   "combined entry: unterminated");

	CHECK_EQ_I(LP_FORMAT_DEFAULT->read_ts(dline, strlen(dline), &t), LP_TS_OK, "default entry: ISO time");
	CHECK(t.hour == 12 && t.second == 5, "default entry: its fields");
	CHECK_EQ_I(lp_formats[1].read_ts(GOOD_HEAD "0.1", strlen(GOOD_HEAD "0.1"), &t), LP_TS_OK,
			   "combined entry: CLF time");
	CHECK(t.day == 7 && t.offset_sec == 3600, "combined entry: its fields");
	CHECK_EQ_I(lp_combined_ts("1 - - GET", 9, &t), LP_TS_MISSING, "combined entry: no time");
	CHECK(t.text == NULL, "combined entry: nothing to quote");
	CHECK_EQ_I(lp_combined_ts("1 - - [07/Nov/2026:12:00:05]", 28, &t), LP_TS_SYNTAX,
			   "combined entry: a time without offset");
	CHECK(slice_is(t.text, t.text_len, "07/Nov/2026:12:00:05"), "combined entry: the text between brackets");
}

/* The line of a hostile request, nginx's way: user, request, request time. */
#define NGX(user, req) "127.0.0.1 - " user " [30/Nov/2026:23:52:47 +0545] \"" req "\" 200 24 \"-\" \"curl/7.88.1\" 0.012"

/* Parse with the table's entry `name` and options `flags` (a scratch buffer given). */
static lp_status
by_name_opts(const char *name, const char *s, unsigned flags, lp_result *f)
{
	static char buf[4096];
	const lp_format_def *fmt = lp_format_lookup(name, strlen(name));
	lp_parse_ctx ctx = {flags, buf};

	memset(f, 0xAB, sizeof(*f));
	return fmt->parse(s, strlen(s), fmt, &ctx, f);
}

/* Issue 12: hostile user names, requests that are not HTTP, absolute-form targets. */
void
test_formats_hostile(void)
{
	lp_cline	c;
	lp_ts		t;
	static const char *users[] = {
		"[admin]", "a b", "[01/Jan/2000:00:00:00 +0000]",
		"[01/Jan/2000:00:00:00 +0000] \\x22GET /fake HTTP/1.1\\x22", "]", "[", "q\\x22u\\x5Cote", "-"
	};
	static const char *not_http[] = {
		"\\x16\\x03\\x01\\x02\\x00\\x01\\x00\\x01\\xFC\\x03\\x03", "GARBAGE", "PRI * HTTP/2.0",
		"GET", "G{T /x HTTP/1.1", "GET  /x HTTP/1.1", " GET /x HTTP/1.1", "GET\t/x HTTP/1.1", "GET ",
		"\\x00\\x01junk"
	};
	char		line[512];
	size_t		i;

	for (i = 0; i < sizeof(users) / sizeof(users[0]); i++)
	{
		snprintf(line, sizeof(line), "127.0.0.1 - %s [30/Nov/2026:23:52:47 +0545] \"GET /api/users HTTP/1.1\" 200 24 \"-\" \"curl/7.88.1\" 0.012", users[i]);
		CHECK_EQ_I(comb(line, 0, &c), LP_ST_OK, "hostile user: the line parses");
		CHECK(slice_is(c.route, c.route_len, "/api/users") && c.latency == 12, "hostile user: route and latency");
		CHECK(slice_is(c.time, c.time_len, "30/Nov/2026:23:52:47 +0545"), "hostile user: the real time");
		CHECK_EQ_I(lp_combined_ts(line, strlen(line), &t), LP_TS_OK, "hostile user: the time reads");
		CHECK(t.year == 2026 && t.day == 30 && t.offset_sec == 5 * 3600 + 45 * 60, "hostile user: not a forged time");
	}
	for (i = 0; i < sizeof(not_http) / sizeof(not_http[0]); i++)
	{
		lp_result	f;

		snprintf(line, sizeof(line), NGX("-", "%s"), not_http[i]);
		CHECK_EQ_I(comb(line, 0, &c), LP_ST_NOT_HTTP, "not HTTP: malformed");
		CHECK_EQ_I(by_name("combined", line, &f), LP_ST_NOT_HTTP, "not HTTP: the entry's status");
		CHECK(f.bad == c.request && f.bad_len == c.request_len, "not HTTP: the request is reported");
		CHECK_EQ_I(lp_combined_ts(line, strlen(line), &t), LP_TS_OK, "not HTTP: the line still has its time");
	}
	CHECK_EQ_I(comb(NGX("-", "PRI * HTTP/1.1"), 0, &c), LP_ST_OK, "PRI * HTTP/1.1 is a request");
	CHECK_EQ_I(comb(NGX("-", "OPTIONS * HTTP/1.1"), 0, &c), LP_ST_OK, "OPTIONS *");
	CHECK(slice_is(c.route, c.route_len, "*"), "OPTIONS *: route *");
	CHECK_EQ_I(comb(NGX("-", "CONNECT example.com:443 HTTP/1.1"), 0, &c), LP_ST_OK, "CONNECT");
	CHECK(slice_is(c.route, c.route_len, "example.com:443"), "CONNECT: route host:port");
	CHECK_EQ_I(comb(NGX("-", "PROPFIND /dav/x HTTP/1.1"), 0, &c), LP_ST_OK, "PROPFIND: any token");
	CHECK_EQ_I(comb(NGX("-", "GET /x"), 0, &c), LP_ST_OK, "HTTP/0.9 style: no version");
	CHECK(slice_is(c.route, c.route_len, "/x"), "HTTP/0.9 style: route");

	/* absolute form */
	CHECK_EQ_I(comb(NGX("-", "GET http://example.com/abs/path?from=proxy HTTP/1.1"), 0, &c), LP_ST_OK, "absolute form");
	CHECK(slice_is(c.route, c.route_len, "/abs/path") && !c.route_slash, "absolute form: the path");
	CHECK_EQ_I(comb(NGX("-", "GET http://example.com/abs/path?from=proxy HTTP/1.1"), LP_PARSE_KEEP_QUERY, &c),
			   LP_ST_OK, "absolute form, query kept");
	CHECK(slice_is(c.route, c.route_len, "/abs/path?from=proxy"), "absolute form: path and query");
	CHECK_EQ_I(comb(NGX("-", "GET HTTPS://h:8080 HTTP/1.1"), 0, &c), LP_ST_OK, "absolute form, no path");
	CHECK(slice_is(c.route, c.route_len, "/"), "absolute form, no path: /");
	CHECK_EQ_I(comb(NGX("-", "GET http://h?x=1 HTTP/1.1"), 0, &c), LP_ST_OK, "absolute form, query only");
	CHECK(slice_is(c.route, c.route_len, "/"), "absolute form, query only: /");
	CHECK_EQ_I(comb(NGX("-", "GET http://h?x=1 HTTP/1.1"), LP_PARSE_KEEP_QUERY, &c), LP_ST_OK,
			   "absolute form, query only, kept");
	CHECK(slice_is(c.route, c.route_len, "?x=1") && c.route_slash, "absolute form, query only: a slash in front");
	{
		lp_result	f;

		CHECK_EQ_I(by_name_opts("combined_query", NGX("-", "GET http://h?x=1 HTTP/1.1"), 0, &f), LP_ST_OK,
				   "absolute form, query only: the entry");
		CHECK(slice_is(f.route, f.route_len, "/?x=1"), "absolute form, query only: route /?x=1");
	}
	CHECK_EQ_I(comb(NGX("-", "GET 1http://h/x HTTP/1.1"), 0, &c), LP_ST_OK, "not a scheme: 1http");
	CHECK(slice_is(c.route, c.route_len, "1http://h/x"), "not a scheme: the target as it is");

	/* escapes before the request; a '"' inside a field does not open it */
	CHECK_EQ_I(comb("1.2.3.4 - a\"b [30/Nov/2026:23:52:47 +0545] \"GET /r HTTP/1.1\" 200 1 \"-\" \"-\" 0.001", 0, &c),
			   LP_ST_OK, "a raw quote inside the user name");
	CHECK(slice_is(c.route, c.route_len, "/r"), "a raw quote inside the user name: route");
}

/* Route templates: the rules, zero copy when nothing changes. */
void
test_formats_templates(void)
{
	static const char *cases[][2] = {
		{"/users/42/avatar", "/users/:id/avatar"},
		{"/o/3f2504e0-4f89-11d3-9a0c-0305e82c3301", "/o/:uuid"},
		{"/o/3F2504E0-4F89-11D3-9A0C-0305E82C3301/x", "/o/:uuid/x"},
		{"/blob/0123456789abcdef0123", "/blob/:hex"},
		{"/1/2/3", "/:id/:id/:id"},
		{"/0", "/:id"},
		{"/a/42?x=7", "/a/:id?x=7"},
		{"42", ":id"},
		{"/v1/users", NULL},
		{"/a1b2c3d4e5f6a7b", NULL},		/* 15 hex digits */
		{"/deadbeefdeadbeefdead", NULL},	/* hex, but no digit */
		{"/3f2504e0-4f89-11d3-9a0c-0305e82c330", NULL},	/* 35 bytes */
		{"/3f2504e0_4f89-11d3-9a0c-0305e82c3301", NULL},
		{"/42.json", NULL},
		{"/-1", NULL},
		{"/x?id=42", NULL},
		{"//", NULL},
		{"", NULL},
	};
	char		buf[256];
	size_t		i;
	lp_result	f;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		size_t		n = lp_route_template(cases[i][0], strlen(cases[i][0]), 0, 1, buf);

		if (cases[i][1])
			CHECK(slice_is(buf, n, cases[i][1]), "templates: the placeholder");
		else
			CHECK_EQ_I((int) n, 0, "templates: nothing changes");
	}
	CHECK(lp_route_template("/a/42", 5, 1, 0, buf) == 6 && memcmp(buf, "//a/42", 6) == 0,
		  "templates off: only the slash");
	CHECK(lp_route_template("/1/1/1/1", 8, 1, 1, buf) <= LP_ROUTE_BUF_SIZE(8), "templates: within the bound");

	CHECK_EQ_I(by_name_opts("combined", NGX("-", "GET /users/42/avatar?s=1 HTTP/1.1"), LP_PARSE_TEMPLATES, &f),
			   LP_ST_OK, "templates: combined entry");
	CHECK(slice_is(f.route, f.route_len, "/users/:id/avatar"), "templates: combined, query dropped");
	CHECK_EQ_I(by_name_opts("combined", NGX("-", "GET /users/42/avatar?s=1 HTTP/1.1"),
							LP_PARSE_TEMPLATES | LP_PARSE_KEEP_QUERY, &f), LP_ST_OK, "templates + query");
	CHECK(slice_is(f.route, f.route_len, "/users/:id/avatar?s=1"), "templates + query: the query stays as it is");
	{
		static const char l[] = NGX("-", "GET /users/me HTTP/1.1");

		CHECK_EQ_I(by_name_opts("combined", l, LP_PARSE_TEMPLATES, &f), LP_ST_OK, "templates: nothing to fold");
		CHECK(f.route > l && f.route < l + sizeof(l), "templates: nothing to fold, zero copy");
	}
	CHECK_EQ_I(by_name_opts("default", "2026-11-07T12:00:05 GET /o/7 12", LP_PARSE_TEMPLATES, &f), LP_ST_OK,
			   "templates: default entry");
	CHECK(slice_is(f.route, f.route_len, "/o/:id") && f.latency == 12, "templates: default entry route");
}

/* Per-call options and the default format's hint. */
void
test_formats_options(void)
{
	unsigned	fl;
	const char *w;
	size_t		wn;
	const lp_format_def *g;
	const lp_option_def *o;

	CHECK(lp_parse_options("", 0, &fl, &w, &wn) == LP_OPTS_OK && fl == 0, "options: empty");
	CHECK(lp_parse_options("  ", 2, &fl, &w, &wn) == LP_OPTS_OK && fl == 0, "options: blanks");
	CHECK(lp_parse_options("skip", 4, &fl, &w, &wn) == LP_OPTS_OK && fl == LP_OPT_SKIP, "options: skip");
	CHECK(lp_parse_options("error", 5, &fl, &w, &wn) == LP_OPTS_OK && fl == LP_OPT_ERROR, "options: error");
	CHECK(lp_parse_options(" skip , templates,query ", 24, &fl, &w, &wn) == LP_OPTS_OK &&
		  fl == (LP_OPT_SKIP | LP_PARSE_TEMPLATES | LP_PARSE_KEEP_QUERY), "options: a list with blanks");
	CHECK(lp_parse_options("skip,skip", 9, &fl, &w, &wn) == LP_OPTS_OK && fl == LP_OPT_SKIP, "options: repeated");
	CHECK(lp_parse_options("skip,error", 10, &fl, &w, &wn) == LP_OPTS_CONFLICT && slice_is(w, wn, "error"),
		  "options: skip and error conflict");
	CHECK(lp_parse_options("skip,bogus", 10, &fl, &w, &wn) == LP_OPTS_UNKNOWN && slice_is(w, wn, "bogus"),
		  "options: unknown word");
	CHECK(lp_parse_options("Skip", 4, &fl, &w, &wn) == LP_OPTS_UNKNOWN, "options: case matters");
	CHECK(lp_parse_options("skip,", 5, &fl, &w, &wn) == LP_OPTS_UNKNOWN && wn == 0, "options: an empty word");
	CHECK(strcmp(lp_option_names(), "skip, error, templates, query, host, unescape, status, method, ok_latency") == 0,
		  "options: the names");
	for (o = lp_options; o->name && o->flag != LP_PARSE_KEEP_QUERY; o++)
		;
	CHECK(o->name != NULL && o->lines_only, "options: query is for lines only");

	g = lp_format_guess(GOOD_HEAD "0.214", strlen(GOOD_HEAD "0.214"), NULL);
	CHECK(g && strcmp(g->name, "combined") == 0, "guess: combined");
	g = lp_format_guess(GOOD_HEAD "214", strlen(GOOD_HEAD "214"), NULL);
	CHECK(g && strcmp(g->name, "combined_us") == 0, "guess: an integer request time is combined_us");
	g = lp_format_guess(GOOD_HEAD "-", strlen(GOOD_HEAD "-"), NULL);
	CHECK(g && strcmp(g->name, "combined") == 0, "guess: a combined line with a bad request time");
	CHECK(lp_format_guess("a b c", 5, NULL) == NULL, "guess: no guess");
	{
		const char *hl = "10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 \"GET /index.html HTTP/1.1\"";

		g = lp_format_guess(hl, strlen(hl), NULL);
		/* the presets are not named: a default line's errors stay 1.1's */
		CHECK(g && strcmp(g->name, "combined") == 0, "guess: a haproxy line is named as in 1.1 (got %s)",
			  g ? g->name : "none");
	}
	CHECK(lp_format_guess("2026-11-07T12:00:05 GET /a x", 28, NULL) == NULL, "guess: a default line stays");
}

/* The names of the combined parser's builds (lp_isa): base, avx2. */
static const char *const comb_build_names[] = {"base", "avx2"};

/* Does a slice start inside the line [s, s + len)? */
static int
comb_inside(const char *p, const char *s, size_t len)
{
	return p && p >= s && p < s + len;
}

/*
 * Does a build of the fast combined parser agree with the reference on one
 * line, every field?  The first field that differs goes to *d.
 */
static int
comb_same(lp_combined_fn parse, const char *s, size_t len, unsigned flags, test_diff *d)
{
	lp_cline	a,
				b;
	lp_status	sa,
				sb;
	lp_ts		ta,
				tb;

	diff_init(d);
	memset(&a, 0xAB, sizeof(a));
	memset(&b, 0xAB, sizeof(b));
	sa = parse(s, len, flags, &a);
	sb = ref_parse_combined(s, len, flags, &b);
	diff_i(d, "status", sa, sb);
	diff_slice(d, "time", s, a.time, a.time_len, b.time, b.time_len);
	diff_slice(d, "request", s, a.request, a.request_len, b.request, b.request_len);
	/* the route: the same slice of the line, or the same constant ("/") */
	if (comb_inside(a.route, s, len) || comb_inside(b.route, s, len) || !a.route || !b.route)
		diff_slice(d, "route", s, a.route, a.route_len, b.route, b.route_len);
	else
		diff_text(d, "route", a.route, a.route_len, b.route, b.route_len);
	diff_i(d, "route_slash", a.route_slash, b.route_slash);
	if (sa == LP_ST_OK)
		diff_i(d, "latency", a.latency, b.latency);
	diff_slice(d, "bad", s, a.bad, a.bad_len, b.bad, b.bad_len);
	diff_i(d, "tail_fields", a.tail_fields, b.tail_fields);
	/* the time reader finds the same field */
	memset(&ta, 0, sizeof(ta));
	memset(&tb, 0, sizeof(tb));
	diff_i(d, "lp_combined_ts status", lp_combined_ts(s, len, &ta), ref_combined_ts(s, len, &tb));
	diff_slice(d, "lp_combined_ts text", s, ta.text, ta.text_len, tb.text, tb.text_len);
	return d->field == NULL;
}

/* A mutation of buf[0..n) (n < cap) in place; returns the new length. */
static size_t
comb_mutate(char *buf, size_t n, size_t cap, uint64_t *rng)
{
	static const char special[] = "\"\\[] \t0123456789.-?/\r:xX";
	int			k,
				nmut;

	*rng = *rng * 6364136223846793005ULL + 1442695040888963407ULL;
	nmut = 1 + (int) ((*rng >> 60) & 3);
	for (k = 0; k < nmut; k++)
	{
		size_t		pos;
		unsigned	op;
		char		c;

		*rng = *rng * 6364136223846793005ULL + 1442695040888963407ULL;
		pos = n ? (size_t) ((*rng >> 33) % n) : 0;
		op = (unsigned) ((*rng >> 20) & 7);
		c = special[(*rng >> 8) % (sizeof(special) - 1)];
		if (op <= 2 && n > 0)
			buf[pos] = c;		/* replace */
		else if (op <= 4 && n + 1 < cap)
		{
			memmove(buf + pos + 1, buf + pos, n - pos);	/* insert */
			buf[pos] = c;
			n++;
		}
		else if (op == 5 && n > 0)
		{
			memmove(buf + pos, buf + pos + 1, n - pos - 1);	/* delete */
			n--;
		}
		else if (op == 6)
			n = pos;			/* truncate */
		else if (n > 0)
			buf[n - 1] = c;		/* the last byte */
	}
	return n;
}

/* A random number below n (n > 0). */
static size_t
comb_rand(uint64_t *rng, size_t n)
{
	*rng = *rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (size_t) ((*rng >> 33) % n);
}

/* Append `len` random bytes of `alphabet` to buf at *n (room is the caller's). */
static void
comb_noise(char *buf, size_t *n, size_t len, const char *alphabet, uint64_t *rng)
{
	size_t		k = strlen(alphabet);

	while (len-- > 0)
		buf[(*n)++] = alphabet[comb_rand(rng, k)];
}

/*
 * A random line for the parser's whole-block paths (the request and time
 * of a line's first 128 bytes, the tail's fields from masks, the method
 * read at once): a client part of 0..140 bytes, a time, a request whose
 * method, target and length vary, and a tail of 0..12 fields, quoted or
 * not, with blanks, tabs, quotes and backslashes where nginx never writes
 * them, of 0..700 bytes.  Most are good lines; the rest take every branch
 * where the masks give way to the scans.
 */
static size_t
comb_random_line(char *buf, size_t cap, uint64_t *rng)
{
	static const char *const methods[] = {"GET", "POST", "DELETE", "PROPFIND", "get", "M-SEARCH",
	"X", "", "GET\t", "ABCDEFGHIJKLMNOP", "ABCDEFGHIJKLMNO", "G\"T", "P", "-",
	"GE@T", "GE[T", "G\x80T", "Z", "AZ", "GET\x01"};
	size_t		n = 0;
	int			fields,
				i;

	(void) cap;					/* callers give 4096 bytes: at most about 1,700 are used */
	comb_noise(buf, &n, comb_rand(rng, 141), comb_rand(rng, 4) ? "a1.:-" : "ab1.: -[]\"\\\t", rng);
	if (comb_rand(rng, 8))
	{
		memcpy(buf + n, " [30/Nov/2026:12:00:00 +0000]", 29);
		n += 29;
	}
	else
		comb_noise(buf, &n, comb_rand(rng, 30), "[]0: ", rng);
	comb_noise(buf, &n, comb_rand(rng, 3), " \t", rng);
	if (comb_rand(rng, 10))
		buf[n++] = '"';
	i = (int) comb_rand(rng, sizeof(methods) / sizeof(methods[0]));
	memcpy(buf + n, methods[i], strlen(methods[i]));
	n += strlen(methods[i]);
	buf[n++] = comb_rand(rng, 12) ? ' ' : '\t';
	if (comb_rand(rng, 6))
		buf[n++] = '/';
	comb_noise(buf, &n, comb_rand(rng, 120), comb_rand(rng, 3) ? "/ab1?=&" : "/ab?= \t\"\\[]", rng);
	if (comb_rand(rng, 3))
	{
		memcpy(buf + n, " HTTP/1.1", 9);
		n += 9;
	}
	if (comb_rand(rng, 12))
		buf[n++] = '"';
	fields = (int) comb_rand(rng, 13);
	for (i = 0; i < fields; i++)
	{
		comb_noise(buf, &n, comb_rand(rng, 7) ? 1 : comb_rand(rng, 4), " \t", rng);
		if (comb_rand(rng, 3) == 0)
		{
			buf[n++] = '"';
			comb_noise(buf, &n, comb_rand(rng, 160), comb_rand(rng, 4) ? "ab ;/().-" : "ab \t\\\"x", rng);
			if (comb_rand(rng, 20))
				buf[n++] = '"';
		}
		else
			comb_noise(buf, &n, 1 + comb_rand(rng, 12), comb_rand(rng, 5) ? "0123456789.-" : "0123456789.ab\"\\", rng);
	}
	if (comb_rand(rng, 4))
	{
		comb_noise(buf, &n, 1 + comb_rand(rng, 2), " \t", rng);
		comb_noise(buf, &n, 1 + comb_rand(rng, 7), "0123456789.", rng);
	}
	if (comb_rand(rng, 10) == 0)
		comb_noise(buf, &n, comb_rand(rng, 4), " \t\r", rng);
	return n;
}

/*
 * lp_parse_seconds_ms (with its "D.DDD" fast path) against the general loop
 * of the reference: 400,000 strings of 0..12 bytes drawn mostly from digits
 * and '.', some with a blank, a sign or a letter; status and value equal.
 */
void
test_formats_seconds_vs_ref(void)
{
	static const char alphabet[] = "0123456789012345678901234567890123456789....x -+";
	uint64_t	rng = 99;
	long		bad = 0;
	long		fast = 0;
	int			i;
	test_diff	d;

	for (i = 0; i < 400000; i++)
	{
		char		s[16];
		size_t		n,
					k;
		int64_t		a = -1,
					b = -1;
		lp_status	sa,
					sb;

		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		n = (size_t) ((rng >> 59) % 13);
		for (k = 0; k < n; k++)
		{
			rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
			s[k] = alphabet[(rng >> 33) % (sizeof(alphabet) - 1)];
		}
		/* half of them in the fast path's shape: a '.' fourth from the end */
		if (i % 2 == 0 && n >= 5)
			s[n - 4] = '.';
		if (n >= 5 && n <= 9 && s[n - 4] == '.')
			fast++;
		sa = lp_parse_seconds_ms(s, n, &a);
		sb = ref_c_seconds_ms(s, n, &b);
		diff_init(&d);
		if (diff_i(&d, "status", sa, sb) && sa == LP_ST_OK)
			diff_i(&d, "milliseconds", a, b);
		if (d.field && bad++ < 5)
			CHECK(0, "lp_parse_seconds_ms: %s (input %s)", diff_say(&d), diff_q(s, n));
	}
	CHECK_EQ_I(bad, 0, "lp_parse_seconds_ms = the reference loop on 400,000 strings");
	CHECK(fast > 50000, "many strings in the fast path's shape (%ld)", fast);
}

/*
 * The fast combined parser against the byte-by-byte reference: 200,000
 * generated lines of every combined format and a mutation of each (quotes,
 * backslashes, brackets, blanks, digits, '\r', truncation), in the four
 * flag sets; every field equal.  Lines are parsed at the end of a heap
 * block so that AddressSanitizer sees any read past them.
 */
void
test_formats_fast_vs_ref(void)
{
	static const char *const fmts[] = {"combined", "combined_query", "combined_us", "combined_us_query"};
	const int	per_format = 50000;
	uint64_t	rng = 42;
	long		bad = 0;
	long		checked = 0;
	size_t		fi;
	lp_combined_fn builds[2];
	int			nbuilds = 0;
	int			bi;
	test_diff	d;

	/* every build this machine runs: the base one, and AVX2 where there is one */
	builds[nbuilds++] = lp_combined_parser(LP_ISA_BASE);
	CHECK(builds[0] != NULL, "the base build of the combined parser exists");
	if ((builds[nbuilds] = lp_combined_parser(LP_ISA_AVX2)) != NULL)
		nbuilds++;
	printf("  combined parser builds compared with the reference: base%s\n",
		   nbuilds > 1 ? ", avx2" : " (no AVX2 build on this compiler or CPU)");
	CHECK(lp_combined_parser(LP_ISA_BEST) == builds[nbuilds - 1] ||
		  getenv("LOGP95_ISA") != NULL, "the best build is the widest one");

	for (fi = 0; fi < 4; fi++)
	{
		const lp_format_def *f = lp_gen_format_lookup(fmts[fi], strlen(fmts[fi]));
		lp_gen		g;
		int			i;

		lp_gen_init(&g, 300, 7 + (int64_t) fi);
		lp_gen_set_format(&g, f);
		for (i = 0; i < per_format; i++)
		{
			char		buf[LP_GEN_MAXLINE + 8];
			size_t		n = lp_gen_line(&g, i, buf);
			int			v;

			for (v = 0; v < 2; v++)
			{
				char	   *exact;
				unsigned	flags;

				if (v == 1)
					n = comb_mutate(buf, n, sizeof(buf), &rng);
				exact = malloc(n ? n : 1);
				memcpy(exact, buf, n);
				for (bi = 0; bi < nbuilds; bi++)
					for (flags = 0; flags < 4; flags++)
					{
						checked++;
						if (!comb_same(builds[bi], exact, n, flags, &d) && bad++ < 5)
							CHECK(0, "build %s: %s (generated line %s, flags %u)",
								  comb_build_names[bi], diff_say(&d), diff_q(exact, n), flags);
					}
				free(exact);
			}
		}
	}
	CHECK_EQ_I(bad, 0, "fast combined parser = reference on generated and mutated lines");
	CHECK(checked == 4L * 50000 * 2 * 4 * nbuilds, "every line checked");

	/*
	 * Every field boundary at every offset of a 16- and a 32-byte block: a
	 * user name of 0..95 bytes shifts the rest of the line, with an escaped
	 * quote, a tab, a '?' and a fake bracket in some of them, and every
	 * prefix of each line (the short lines take the narrower paths).
	 */
	bad = 0;
	for (fi = 0; fi < 96; fi++)
	{
		char		buf[512];
		char		user[100];
		size_t		n,
					cut;

		memset(user, fi % 7 == 3 ? '[' : 'u', fi);
		user[fi] = '\0';
		n = (size_t) snprintf(buf, sizeof(buf),
							  "10.0.0.1 - %s [30/Nov/2026:12:00:00 +0000] \"GET /a/b%s HTTP/1.1\" 200 %s \"%s\" \"Mozilla/5.0 (X11; Linux x86_64)%s\"%s0.%03d",
							  user, fi % 3 == 0 ? "?x=1" : "", fi % 2 ? "1234" : "5",
							  fi % 4 == 1 ? "https://example.com/ref\\\"q" : "-",
							  fi % 5 == 2 ? " \\\" tail" : "", fi % 6 == 5 ? "\t" : " ", (int) fi);
		for (cut = 0; cut <= n; cut++)
		{
			char	   *exact = malloc(cut ? cut : 1);

			memcpy(exact, buf, cut);
			for (bi = 0; bi < nbuilds; bi++)
			{
				unsigned	flags;

				for (flags = 0; flags < 4; flags++)
					if (!comb_same(builds[bi], exact, cut, flags, &d) && bad++ < 5)
						CHECK(0, "build %s: %s (line %s cut at %zu, flags %u)",
							  comb_build_names[bi], diff_say(&d), diff_q(exact, cut), cut, flags);
			}
			free(exact);
		}
	}
	CHECK_EQ_I(bad, 0, "fast combined parser = reference with every field at every block offset, every prefix");

	/*
	 * 300,000 random lines (comb_random_line) for the paths that read whole
	 * blocks: the request and time from the first 128 bytes, the tail's
	 * fields from its masks (64 bytes a word, up to 512), the method read
	 * at once, and every way back to the scans; each line at the end of its
	 * own allocation.
	 */
	bad = 0;
	checked = 0;
	rng = 20261130;
	for (fi = 0; fi < 300000; fi++)
	{
		static char buf[4096];
		size_t		n = comb_random_line(buf, sizeof(buf), &rng);
		char	   *exact = malloc(n ? n : 1);

		memcpy(exact, buf, n);
		for (bi = 0; bi < nbuilds; bi++)
		{
			unsigned	flags = (unsigned) (fi & 3);

			checked++;
			if (!comb_same(builds[bi], exact, n, flags, &d) && bad++ < 5)
				CHECK(0, "build %s: %s (random line %s, flags %u)",
					  comb_build_names[bi], diff_say(&d), diff_q(exact, n), flags);
		}
		free(exact);
	}
	CHECK_EQ_I(bad, 0, "fast combined parser = reference on 300,000 random lines");
	CHECK(checked == 300000L * nbuilds, "every random line checked");
}

/*
 * The direct parsers against their entries' parsers: on generated and
 * mutated lines of every format, random combined lines and random default
 * lines, in every build, with and without the query option, a line the
 * direct parser counts parses with the same route and latency, and a line
 * it leaves to the entry is malformed or has a built route.
 */
void
test_formats_direct(void)
{
	uint64_t	rng = 777;
	long		bad = 0,
				checked = 0,
				counted = 0;
	size_t		fi;
	test_diff	d;

	for (fi = 0; lp_formats[fi].name; fi++)
	{
		const lp_format_def *f = &lp_formats[fi];
		lp_gen		g;
		int			i;

		/* the formats the generator writes: those with a direct parser */
		if (!(f->flags & LP_FMT_GENERATE))
		{
			CHECK(f->direct == NULL, "direct: %s has none", f->name);
			continue;
		}
		lp_gen_init(&g, 300, 11 + (int64_t) fi);
		lp_gen_set_format(&g, lp_gen_format_lookup(f->name, strlen(f->name)));
		for (i = 0; i < 30000; i++)
		{
			static char buf[4096];
			static char scratch[LP_ROUTE_BUF_SIZE(4096)];
			size_t		n;
			char	   *exact;
			unsigned	opts;
			lp_isa		isa;

			if (i % 3 == 2)
				n = comb_random_line(buf, sizeof(buf), &rng);
			else
			{
				n = lp_gen_line(&g, i, buf);
				if (i % 3 == 1)
					n = comb_mutate(buf, n, LP_GEN_MAXLINE, &rng);
			}
			exact = malloc(n ? n : 1);
			memcpy(exact, buf, n);
			for (opts = 0; opts <= LP_PARSE_KEEP_QUERY; opts += LP_PARSE_KEEP_QUERY)
				for (isa = LP_ISA_BASE; isa < LP_ISA_COUNT; isa++)
				{
					lp_parse_ctx ctx = {opts, scratch};
					lp_result	r;
					lp_row		row;
					lp_status	st;
					int			got;
					unsigned	dflags;

					if (!lp_simd_has(isa))
						continue;
					if (lp_format_direct(f, opts, &dflags) == NULL)
					{
						if (bad++ < 5)
							CHECK(0, "direct: %s has none with options %u", f->name, opts);
						continue;
					}
					got = f->direct[isa] (exact, n, dflags, &row);
					st = f->parse(exact, n, f, &ctx, &r);
					checked++;
					counted += got;
					diff_init(&d);
					if (got)
					{
						diff_i(&d, "status", st, LP_ST_OK);
						if (st == LP_ST_OK)
						{
							diff_slice(&d, "route", exact, row.route, row.route_len, r.route, r.route_len);
							diff_i(&d, "latency", row.latency, r.latency);
						}
					}
					else if (st == LP_ST_OK && r.route >= exact && r.route < exact + n)
						diff_i(&d, "counted directly", 0, 1);
					if (d.field && bad++ < 5)
						CHECK(0, "direct %s build %d: %s (line %s, options %u)", f->name, (int) isa,
							  diff_say(&d), diff_q(exact, n), opts);
				}
			free(exact);
		}
	}
	CHECK_EQ_I(bad, 0, "the direct parsers = their entries' parsers");
	CHECK(counted > checked / 3, "many lines counted directly (%ld of %ld)", counted, checked);
	CHECK(lp_format_direct(LP_FORMAT_DEFAULT, LP_PARSE_TEMPLATES, &(unsigned) {0}) == NULL,
		  "no direct parser with templates");
}

/* Parse s with the entry `name` and LP_PARSE_FIELDS (a scratch buffer given). */
static lp_status
with_fields(const char *name, const char *s, lp_result *r)
{
	static char buf[4096];
	const lp_format_def *fmt = lp_format_lookup(name, strlen(name));
	lp_parse_ctx ctx = {LP_PARSE_FIELDS, buf};

	memset(r, 0, sizeof(*r));
	return fmt->parse(s, strlen(s), fmt, &ctx, r);
}

/*
 * LP_PARSE_FIELDS (logp95_parse): the method, status and time each family
 * returns beside route and latency, on good lines and malformed ones; the
 * fields a format's entry names are the ones its parser can return.
 */
void
test_formats_fields(void)
{
	lp_result	r;

	CHECK_EQ_I(with_fields("default", "2026-11-07T12:00:05Z GET /a 12\r", &r), LP_ST_OK, "fields: default");
	CHECK(r.has == (LP_HAS_ROUTE | LP_HAS_LATENCY | LP_HAS_TIME | LP_HAS_METHOD), "fields: default has all four");
	CHECK(slice_is(r.time, r.time_len, "2026-11-07T12:00:05Z") && slice_is(r.method, r.method_len, "GET"),
		  "fields: default time and method");
	CHECK_EQ_I(with_fields("default", "  t\tPUT /a 12ms", &r), LP_ST_BAD_LATENCY, "fields: default, bad latency");
	CHECK(r.has == (LP_HAS_TIME | LP_HAS_METHOD) && slice_is(r.method, r.method_len, "PUT"),
		  "fields: a malformed default line keeps its time and method");
	CHECK_EQ_I(with_fields("default", "t", &r), LP_ST_TOO_FEW_FIELDS, "fields: one field");
	CHECK(r.has == LP_HAS_TIME && slice_is(r.time, r.time_len, "t"), "fields: one field is the time");

	CHECK_EQ_I(with_fields("combined", GOOD_HEAD "0.214", &r), LP_ST_OK, "fields: combined");
	CHECK(r.has == (LP_HAS_ROUTE | LP_HAS_LATENCY | LP_HAS_TIME | LP_HAS_METHOD | LP_HAS_STATUS),
		  "fields: combined has all five");
	CHECK(slice_is(r.method, r.method_len, "GET") && r.status == 200 &&
		  slice_is(r.time, r.time_len, "07/Nov/2026:12:00:05 +0100"), "fields: combined method, status, time");
	CHECK_EQ_I(with_fields("combined", GOOD_HEAD "0.2s", &r), LP_ST_BAD_SECONDS, "fields: combined, bad latency");
	CHECK(r.has == (LP_HAS_TIME | LP_HAS_METHOD | LP_HAS_STATUS) && r.status == 200,
		  "fields: a bad request time keeps method, status and time");
	CHECK_EQ_I(with_fields("combined", NGX("-", "GARBAGE"), &r), LP_ST_NOT_HTTP, "fields: not HTTP");
	CHECK(r.has == LP_HAS_TIME, "fields: not HTTP: no method, no status, the time");
	CHECK_EQ_I(with_fields("combined", "1.2.3.4 - - [t] \"GET / HTTP/1.1\" 2000 1 \"-\" \"-\" 0.1", &r),
			   LP_ST_OK, "fields: a four-digit status");
	CHECK(!(r.has & LP_HAS_STATUS) && (r.has & LP_HAS_METHOD), "fields: no status but three digits");
	CHECK_EQ_I(with_fields("combined", "1.2.3.4 - - [t] \"GET /x", &r), LP_ST_UNTERMINATED,
			   "fields: an unterminated request");
	CHECK(r.has == LP_HAS_TIME, "fields: an unterminated request has only its time");
}

/* Detection: the largest share, the order on a tie, under half none; seconds or microseconds. */
void
test_formats_detect(void)
{
	static const char *const us[] = {
		GOOD_HEAD "214567", GOOD_HEAD "1000", GOOD_HEAD "0", NULL, "junk"};
	static const char *const secs[] = {
		GOOD_HEAD "214", GOOD_HEAD "1000", GOOD_HEAD "0.214", "junk"};
	static const char *const dflt[] = {
		"2026-11-07T12:00:05Z GET /a 12", "2026-11-07T12:00:06Z GET /b 13", GOOD_HEAD "0.1"};
	static const char *const half[] = {"2026-11-07T12:00:05Z GET /a 12", "x", "y", "z"};
	/* an nginx log_format of its own (test/field/052): four fields, no time first */
	static const char *const notime[] = {
		"rt=0.000 [01/Dec/2026:16:49:59 +0000] 200 \"GET /health HTTP/1.1\" urt=- 127.0.0.1 \"wrk\" 3",
		"rt=0.012 [01/Dec/2026:16:49:59 +0000] 200 \"GET /a HTTP/1.1\" urt=0.012 127.0.0.1 \"wrk\" 3"};
	const char *const *samples[] = {us, secs, dflt, half, notime};
	size_t		sizes[] = {5, 4, 3, 4, 2};
	const char *want[] = {"combined_us", "combined", "default", NULL, NULL};
	size_t		want_n[] = {4, 4, 3, 4, 2},
				want_read[] = {3, 3, 2, 1, 0};
	size_t		k;

	for (k = 0; k < 5; k++)
	{
		size_t		lens[8],
					i,
					nlines,
					nread;
		const lp_format_def *f;

		for (i = 0; i < sizes[k]; i++)
			lens[i] = samples[k][i] ? strlen(samples[k][i]) : 0;
		f = lp_format_detect(samples[k], lens, sizes[k], NULL, &nlines, &nread);
		CHECK(want[k] ? (f && strcmp(f->name, want[k]) == 0) : f == NULL, "detect: sample %zu is %s, got %s",
			  k, want[k] ? want[k] : "none", f ? f->name : "none");
		CHECK(nlines == want_n[k] && nread == want_read[k], "detect: sample %zu: %zu of %zu lines read",
			  k, nread, nlines);
	}
	/* a whole number of microseconds is never taken for seconds: both read it, combined_us first */
	CHECK(lp_format_lookup("combined_us", 11)->detect < lp_format_lookup("combined", 8)->detect,
		  "detect: combined_us before combined");
	CHECK(lp_format_lookup("combined", 8)->detect < lp_format_lookup("combined_query", 14)->detect,
		  "detect: combined before combined_query");
	{
		size_t		nlines,
					nread;

		CHECK(lp_format_detect(NULL, NULL, 0, NULL, &nlines, &nread) == NULL && nlines == 0,
			  "detect: an empty sample");
	}
}
