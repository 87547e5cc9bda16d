/* test/unit/test_json.c -- unit tests of JSON lines (lp_json.c): specs, fields, presets, a differential against ref_json.h */

#include "test_harness.h"
#include "lp_units.h"

#include "lp_json.h"
#include "lp_simd.h"
#include "ref_json.h"

/* ---------- helpers ---------- */

/*
 * The line and scratch of the last parse, each malloc'd to its exact size
 * (so that AddressSanitizer sees any read past the line or write past the
 * scratch); freed by the next parse.
 */
static char *j_line;
static char *j_buf;

/* Compile a spec that must compile. */
static void
spec_of(const char *text, lp_json_spec *sp)
{
	size_t		pos = 0;
	lp_json_spec_status st = lp_json_compile(text, strlen(text), sp, &pos);

	CHECK(st == LP_JSPEC_OK, "spec \"%s\" compiles (got %s at %zu)", text,
		  lp_json_spec_messages[st], pos);
}

/* Parse s[0..n) with sp and flags (a scratch always given). */
static lp_status
jparse_n(const lp_json_spec *sp, const char *s, size_t n, unsigned flags, lp_result *r)
{
	lp_parse_ctx ctx;

	free(j_line);
	free(j_buf);
	j_line = malloc(n ? n : 1);
	memcpy(j_line, s, n);
	j_buf = malloc(LP_ROUTE_BUF_SIZE(n));
	memset(j_buf, 0x5A, LP_ROUTE_BUF_SIZE(n));
	ctx.flags = flags;
	ctx.buf = j_buf;
	memset(r, 0xAB, sizeof(*r));
	return lp_json_parse(sp, j_line, n, &ctx, r);
}

/* Parse a NUL-terminated line. */
static lp_status
jparse(const lp_json_spec *sp, const char *s, unsigned flags, lp_result *r)
{
	return jparse_n(sp, s, strlen(s), flags, r);
}

/* Offset of r->bad in the last line parsed. */
static long
bad_at(const lp_result *r)
{
	return (long) (r->bad - j_line);
}

/*
 * Compare lp_json_parse with the reference on one line: status, where a
 * non-JSON line stops or what an error quotes, the fields found and each
 * field's value.  Returns 1 when they agree; d names the first difference.
 */
static int
json_vs_ref(const lp_json_spec *sp, const char *line, size_t n, unsigned flags, test_diff *d)
{
	lp_result	r;
	rj_expect	x;
	lp_status	st = jparse_n(sp, line, n, flags, &r);

	rj_expect_line(sp, j_line, n, flags, &x);
	diff_init(d);
	diff_i(d, "status", st, x.st);
	if (st == LP_ST_NOT_JSON && x.st == LP_ST_NOT_JSON)
	{
		diff_i(d, "stop", bad_at(&r), (long long) x.stop);
		diff_u(d, "bad_len", r.bad_len, n - x.stop);
	}
	else if (!d->field)
	{
		if (st != LP_ST_OK)
			diff_text(d, "bad", r.bad, r.bad_len, x.bad, x.bad_len);
		diff_u(d, "has", r.has, x.has);
		if (x.has & LP_HAS_ROUTE)
			diff_text(d, "route", r.route, r.route_len, x.route, x.route_len);
		if (x.has & LP_HAS_LATENCY)
			diff_i(d, "latency", r.latency, x.latency);
		if (x.has & LP_HAS_STATUS)
			diff_i(d, "http status", r.status, x.status);
		if (x.has & LP_HAS_METHOD)
			diff_text(d, "method", r.method, r.method_len, x.method, x.method_len);
		if (x.has & LP_HAS_TIME)
			diff_text(d, "time", r.time, r.time_len, x.time, x.time_len);
		if (x.has & LP_HAS_HOST)
			diff_text(d, "host", r.host, r.host_len, x.host, x.host_len);
	}
	rj_expect_free(&x);
	return d->field == NULL;
}

/* Check one line against the reference, naming the line on a difference. */
#define CHECK_REF(sp, line, flags) \
	do { \
		test_diff	d_; \
		const char *l_ = (line); \
		int			ok_ = json_vs_ref((sp), l_, strlen(l_), (flags), &d_); \
		CHECK(ok_, "%s (line %s)", diff_say(&d_), diff_q(l_, strlen(l_))); \
	} while (0)

/* Does the slice p[0..n) equal s? (NULL never does) */
static int
is(const char *p, size_t n, const char *s)
{
	return p && n == strlen(s) && memcmp(p, s, n) == 0;
}

/* ---------- specs ---------- */

/* Specs that compile, and what they hold. */
void
test_json_spec(void)
{
	lp_json_spec sp;
	size_t		pos;
	lp_json_spec_status st;
	int			i;

	spec_of("route=request.uri,latency=duration:s", &sp);
	CHECK_EQ_U(sp.fields, (1u << LP_JF_ROUTE) | (1u << LP_JF_LATENCY), "fields: route and latency");
	CHECK(sp.request == 0 && sp.unit == LP_UNIT_S && sp.time_kind == LP_TIME_NONE, "unit s, no time");
	CHECK_EQ_I(sp.nnodes, 4, "nodes: root, request, uri, duration");
	CHECK(is(sp.text + sp.path_off[LP_JF_ROUTE], sp.path_len[LP_JF_ROUTE], "request.uri"),
		  "route path kept as written");

	spec_of("  request = r , latency = d : ns , time = t:epoch_ms , status = s , method = m , host = h  ", &sp);
	CHECK(sp.request == 1 && sp.unit == LP_UNIT_NS && sp.time_kind == LP_TIME_EPOCH_MS,
		  "blanks around keys, values, colons and commas");
	CHECK_EQ_U(sp.fields, (1u << LP_JF_COUNT) - 1, "every field");
	CHECK(is(sp.text + sp.path_off[LP_JF_LATENCY], sp.path_len[LP_JF_LATENCY], "d"),
		  "latency path without its unit");

	{
		static const char *const units[] = {"s", "ms", "us", "ns"};
		static const lp_unit want[] = {LP_UNIT_S, LP_UNIT_MS, LP_UNIT_US, LP_UNIT_NS};
		static const char *const kinds[] = {"iso8601", "clf", "epoch", "epoch_ms", "epoch_us", "epoch_ns"};
		static const lp_time_kind kwant[] = {LP_TIME_ISO8601, LP_TIME_CLF, LP_TIME_EPOCH,
		LP_TIME_EPOCH_MS, LP_TIME_EPOCH_US, LP_TIME_EPOCH_NS};
		char		text[128];

		for (i = 0; i < 4; i++)
		{
			snprintf(text, sizeof(text), "route=r,latency=l:%s", units[i]);
			spec_of(text, &sp);
			CHECK(sp.unit == want[i], "unit %s", units[i]);
		}
		for (i = 0; i < 6; i++)
		{
			snprintf(text, sizeof(text), "route=r,latency=l:s,time=t:%s", kinds[i]);
			spec_of(text, &sp);
			CHECK(sp.time_kind == kwant[i], "time kind %s", kinds[i]);
		}
	}

	/* escapes in paths: a dot, a colon, a comma, a backslash inside keys */
	spec_of("route=url\\.path,latency=a\\:b.c\\,d:ms", &sp);
	{
		lp_result	r;

		CHECK(jparse(&sp, "{\"url.path\":\"/x\",\"a:b\":{\"c,d\":12}}", 0, &r) == LP_ST_OK &&
			  is(r.route, r.route_len, "/x") && r.latency == 12, "escaped dot, colon and comma in keys");
		CHECK(jparse(&sp, "{\"url\":{\"path\":\"/x\"},\"a:b\":{\"c,d\":12}}", 0, &r) == LP_ST_NO_FIELD &&
			  is(r.bad, r.bad_len, "url\\.path"), "url\\.path is one key, not two");
	}
	/* shared prefixes: one tree */
	spec_of("route=a.b.c,method=a.b.d,host=a.e,latency=a.f:ms,status=g", &sp);
	CHECK_EQ_I(sp.nnodes, 8, "shared prefixes share nodes: root a b c d e f g");
	CHECK_EQ_U(sp.nodes[0].under, sp.fields, "the root is above every field");

	/*
	 * Keys that share a slot (the same length, first and last bytes): each
	 * still found, a line's key of that slot that is none of them not
	 * taken, a key that differs only in a middle byte not taken.
	 */
	spec_of("route=axb,latency=ayb:ms,status=a.b,host=a.c", &sp);
	CHECK(sp.nodes[0].slot[lp_json_key_hash("axb", 3)] == LP_JSON_SLOT_MANY,
		  "two keys of one slot: the slot says so");
	CHECK(lp_json_key_hash("axb", 3) == lp_json_key_hash("azb", 3), "azb shares their slot");
	{
		lp_result	r;

		CHECK(jparse(&sp, "{\"azb\":1,\"ayb\":7,\"axb\":\"/x\",\"a\":{\"b\":200,\"c\":\"h\"}}",
					 LP_PARSE_HOST, &r) == LP_ST_OK &&
			  is(r.route, r.route_len, "h/x") && r.latency == 7 && r.status == 200,
			  "keys of a shared slot found, the third not taken");
		CHECK(jparse(&sp, "{\"azb\":\"/z\",\"ayb\":7}", 0, &r) == LP_ST_NO_FIELD &&
			  is(r.bad, r.bad_len, "axb"), "a key of the slot that is not wanted: no route");
		CHECK(jparse(&sp, "{\"a\":{\"x\":1},\"ayb\":7,\"axb\":\"/x\"}", 0, &r) == LP_ST_OK,
			  "one-byte keys (first = last byte) under an inner node");
	}
	/* a spec key's slot holds that key alone: found by the slot, refused when a middle byte differs */
	spec_of("route=request_path,latency=d:ms", &sp);
	{
		lp_result	r;

		CHECK(sp.nodes[0].slot[lp_json_key_hash("request_path", 12)] != 0 &&
			  sp.nodes[0].slot[lp_json_key_hash("request_path", 12)] != LP_JSON_SLOT_MANY,
			  "one key in its slot");
		CHECK(jparse(&sp, "{\"requestXpath\":\"/a\",\"d\":1}", 0, &r) == LP_ST_NO_FIELD,
			  "a key of the same slot and length, a middle byte different: not taken");
		CHECK(jparse(&sp, "{\"requestXpath\":\"/a\",\"request_path\":\"/b\",\"d\":1}", 0, &r) ==
			  LP_ST_OK && is(r.route, r.route_len, "/b"), "the key itself taken");
	}

	/* a path of 16 keys is fine, 17 is not */
	spec_of("route=a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p,latency=l:s", &sp);
	st = lp_json_compile("route=a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q,latency=l:s", 50, &sp, &pos);
	CHECK(st == LP_JSPEC_PATH_TOO_DEEP && pos == 38, "17 keys: too deep at the 17th (got %d at %zu)",
		  st, pos);

	/* the presets */
	for (i = 0; lp_json_presets[i].name; i++)
	{
		const char *name = lp_json_presets[i].name;

		CHECK(lp_json_preset_spec(name, strlen(name)) == lp_json_presets[i].spec,
			  "preset %s found", name);
		spec_of(lp_json_presets[i].spec, &sp);
	}
	CHECK_EQ_I(i, 2, "two presets");
	CHECK(lp_json_preset_spec("caddyx", 6) == NULL && lp_json_preset_spec("cadd", 4) == NULL &&
		  lp_json_preset_spec("Caddy", 5) == NULL, "preset names are exact");
}

/* Specs that do not compile: the status and the position of what is wrong. */
void
test_json_spec_errors(void)
{
	static const struct
	{
		const char *spec;
		lp_json_spec_status st;
		size_t		pos;
	}			cases[] = {
		{"", LP_JSPEC_NO_ROUTE, 0},
		{"   ", LP_JSPEC_NO_ROUTE, 3},
		{"latency=d:s", LP_JSPEC_NO_ROUTE, 11},
		{"route=r", LP_JSPEC_NO_LATENCY, 7},
		{"route=r,", LP_JSPEC_SYNTAX, 8},
		{"route=r,,latency=d:s", LP_JSPEC_SYNTAX, 8},
		{",route=r,latency=d:s", LP_JSPEC_SYNTAX, 0},
		{"route", LP_JSPEC_SYNTAX, 0},
		{"route=r,latency", LP_JSPEC_SYNTAX, 8},
		{"rout=r,latency=d:s", LP_JSPEC_UNKNOWN_KEY, 0},
		{"route=r,latency=d:s,Status=s", LP_JSPEC_UNKNOWN_KEY, 20},
		{"route=r,latency=d:s,=s", LP_JSPEC_UNKNOWN_KEY, 20},
		{"route=r,request=q,latency=d:s", LP_JSPEC_DUPLICATE, 8},
		{"route=r,latency=d:s,latency=e:s", LP_JSPEC_DUPLICATE, 20},
		{"route=,latency=d:s", LP_JSPEC_EMPTY_PATH, 6},
		{"route=a..b,latency=d:s", LP_JSPEC_EMPTY_PATH, 8},
		{"route=.a,latency=d:s", LP_JSPEC_EMPTY_PATH, 6},
		{"route=a.,latency=d:s", LP_JSPEC_EMPTY_PATH, 8},
		{"route=r,latency=:s", LP_JSPEC_EMPTY_PATH, 16},
		{"route=r,latency=d", LP_JSPEC_NO_UNIT, 17},
		{"route=r,latency=d:", LP_JSPEC_BAD_UNIT, 18},
		{"route=r,latency=d:sec", LP_JSPEC_BAD_UNIT, 18},
		{"route=r,latency=d:S", LP_JSPEC_BAD_UNIT, 18},
		{"route=r,latency=d:s,time=t", LP_JSPEC_NO_KIND, 26},
		{"route=r,latency=d:s,time=t:iso", LP_JSPEC_BAD_KIND, 27},
		{"route=r:x,latency=d:s", LP_JSPEC_SUFFIX, 7},
		{"route=r,latency=d:s,status=s:int", LP_JSPEC_SUFFIX, 28},
		{"route=r\\,latency=d:s", LP_JSPEC_SUFFIX, 18},
		{"route=r\\,x", LP_JSPEC_NO_LATENCY, 10},
		{"route=r\\", LP_JSPEC_BAD_ESCAPE, 7},
		{"route=a.b,method=a.b.c,latency=d:s", LP_JSPEC_PATH_CONFLICT, 19},
		{"route=a.b.c,method=a.b,latency=d:s", LP_JSPEC_PATH_CONFLICT, 21},
		{"route=a,method=a,latency=d:s", LP_JSPEC_PATH_CONFLICT, 15},
		{"route=a,latency=a:s", LP_JSPEC_PATH_CONFLICT, 16},
		{"route=a.b,latency=a:s", LP_JSPEC_PATH_CONFLICT, 18},
	};
	size_t		i;
	lp_json_spec sp;
	char		big[LP_JSON_SPEC_MAX + 2];

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		size_t		pos = 9999;
		lp_json_spec_status st = lp_json_compile(cases[i].spec, strlen(cases[i].spec), &sp, &pos);

		CHECK(st == cases[i].st && pos == cases[i].pos,
			  "spec \"%s\": want \"%s\" at %zu, got \"%s\" at %zu", cases[i].spec,
			  lp_json_spec_messages[cases[i].st], cases[i].pos, lp_json_spec_messages[st], pos);
	}
	for (i = 1; i < LP_JSPEC_COUNT; i++)
		CHECK(lp_json_spec_messages[i] && lp_json_spec_messages[i][0] &&
			  lp_json_spec_messages[i][strlen(lp_json_spec_messages[i]) - 1] != '.',
			  "spec message %zu: present, no trailing period", i);

	/* the length bound: 1024 bytes is fine, 1025 is not */
	memset(big, ' ', sizeof(big));
	memcpy(big, "route=r,latency=d:s", 19);
	{
		size_t		pos;

		CHECK(lp_json_compile(big, LP_JSON_SPEC_MAX, &sp, &pos) == LP_JSPEC_OK, "1024 bytes compile");
		CHECK(lp_json_compile(big, LP_JSON_SPEC_MAX + 1, &sp, &pos) == LP_JSPEC_TOO_LONG &&
			  pos == LP_JSON_SPEC_MAX, "1025 bytes are too long");
	}

	/* the most nodes a spec can make: six fields of 16 distinct keys */
	{
		char		text[LP_JSON_SPEC_MAX];
		size_t		n = 0,
					pos;
		int			f,
					k;
		static const char *const keys[] = {"route", "latency", "time", "status", "method", "host"};

		for (f = 0; f < 6; f++)
		{
			n += (size_t) snprintf(text + n, sizeof(text) - n, "%s%s=", f ? "," : "", keys[f]);
			for (k = 0; k < 16; k++)
				n += (size_t) snprintf(text + n, sizeof(text) - n, "%s%c%d", k ? "." : "", 'a' + f, k);
			if (f == 1)
				n += (size_t) snprintf(text + n, sizeof(text) - n, ":ms");
			if (f == 2)
				n += (size_t) snprintf(text + n, sizeof(text) - n, ":epoch");
		}
		CHECK(lp_json_compile(text, n, &sp, &pos) == LP_JSPEC_OK && sp.nnodes == LP_JSON_NODES,
			  "the largest tree: %d nodes", LP_JSON_NODES);
	}

	/* random bytes: every spec gives an answer and a position inside it */
	{
		uint64_t	rng = 12345;
		static const char alphabet[] = "routelatencyrequesthostmethodstatustime=,.:\\ sm\"\x01\xff";
		int			iter;

		for (iter = 0; iter < 20000; iter++)
		{
			char		text[96];
			size_t		n,
						k,
						pos = 0;
			lp_json_spec_status st;

			rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
			n = (size_t) (rng >> 58);
			for (k = 0; k < n; k++)
			{
				rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
				text[k] = alphabet[(rng >> 33) % (sizeof(alphabet) - 1)];
			}
			st = lp_json_compile(text, n, &sp, &pos);
			if (st < 0 || st >= LP_JSPEC_COUNT || pos > n)
			{
				CHECK(0, "random spec %s: status %d at %zu", diff_q(text, n), st, pos);
				break;
			}
		}
		CHECK(iter == 20000, "20,000 random specs: a status and a position inside each");
	}
}

/* ---------- lines ---------- */

/* Caddy's documented access-log line (https://caddyserver.com/docs/logging), on one line. */
#define CADDY_DOC_LINE \
	"{\"level\":\"info\",\"ts\":1646861401.5241024,\"logger\":\"http.log.access\"," \
	"\"msg\":\"handled request\",\"request\":{\"remote_ip\":\"127.0.0.1\",\"remote_port\":\"41342\"," \
	"\"client_ip\":\"127.0.0.1\",\"proto\":\"HTTP/2.0\",\"method\":\"GET\",\"host\":\"localhost\"," \
	"\"uri\":\"/\",\"headers\":{\"User-Agent\":[\"curl/7.82.0\"],\"Accept\":[\"*/*\"]," \
	"\"Accept-Encoding\":[\"gzip, deflate, br\"]},\"tls\":{\"resumed\":false,\"version\":772," \
	"\"cipher_suite\":4865,\"proto\":\"h2\",\"server_name\":\"example.com\"}},\"bytes_read\":0," \
	"\"user_id\":\"\",\"duration\":0.000929675,\"size\":10900,\"status\":200,\"resp_headers\":" \
	"{\"Server\":[\"Caddy\"],\"Content-Encoding\":[\"gzip\"],\"Content-Type\":" \
	"[\"text/html; charset=utf-8\"],\"Vary\":[\"Accept-Encoding\"]}}"

/*
 * A Traefik access-log line in JSON with the fields of its documentation
 * (https://doc.traefik.io/traefik/observability/access-logs/), as
 * logrus's JSON formatter writes them (sorted keys, & as \u0026).
 */
#define TRAEFIK_DOC_LINE \
	"{\"ClientAddr\":\"192.0.2.10:51234\",\"ClientHost\":\"192.0.2.10\",\"ClientPort\":\"51234\"," \
	"\"ClientUsername\":\"-\",\"DownstreamContentSize\":7197,\"DownstreamStatus\":200," \
	"\"Duration\":48321500,\"OriginContentSize\":7197,\"OriginDuration\":48200000," \
	"\"OriginStatus\":200,\"Overhead\":121500,\"RequestAddr\":\"shop.example.com\"," \
	"\"RequestContentSize\":0,\"RequestCount\":42,\"RequestHost\":\"shop.example.com\"," \
	"\"RequestMethod\":\"GET\",\"RequestPath\":\"/cart/items?id=7\\u0026ref=home\"," \
	"\"RequestPort\":\"-\",\"RequestProtocol\":\"HTTP/1.1\",\"RequestScheme\":\"https\"," \
	"\"RetryAttempts\":0,\"RouterName\":\"shop@docker\",\"ServiceAddr\":\"10.0.0.5:8080\"," \
	"\"ServiceName\":\"shop@docker\",\"ServiceURL\":\"http://10.0.0.5:8080\"," \
	"\"StartLocal\":\"2026-11-07T01:00:00.123456789+01:00\",\"StartUTC\":\"2026-11-07T00:00:00.123456789Z\"," \
	"\"TLSCipher\":\"TLS_AES_128_GCM_SHA256\",\"TLSVersion\":\"1.3\",\"entryPointName\":\"websecure\"," \
	"\"level\":\"info\",\"msg\":\"\",\"time\":\"2026-11-07T00:00:00Z\"}"

/* The presets on lines built from their documentation. */
void
test_json_presets(void)
{
	lp_json_spec caddy,
				traefik;
	lp_result	r;

	spec_of(lp_json_preset_spec("caddy", 5), &caddy);
	spec_of(lp_json_preset_spec("traefik_json", 12), &traefik);

	CHECK_EQ_I(jparse(&caddy, CADDY_DOC_LINE, 0, &r), LP_ST_OK, "caddy: the documented line");
	CHECK(is(r.route, r.route_len, "/") && r.latency == 1 && r.status == 200 &&
		  is(r.method, r.method_len, "GET") && is(r.host, r.host_len, "localhost") &&
		  is(r.time, r.time_len, "1646861401.5241024"),
		  "caddy: / GET localhost 200, 0.000929675 s -> 1 ms, ts as logged");
	CHECK_EQ_U(r.has, LP_HAS_ROUTE | LP_HAS_LATENCY | LP_HAS_STATUS | LP_HAS_METHOD |
			   LP_HAS_TIME | LP_HAS_HOST, "caddy: every field");
	CHECK_REF(&caddy, CADDY_DOC_LINE, 0);
	CHECK_EQ_I(jparse(&caddy, CADDY_DOC_LINE, LP_PARSE_HOST, &r), LP_ST_OK, "caddy: host option");
	CHECK(is(r.route, r.route_len, "localhost/"), "caddy: host option gives localhost/");

	/* Caddy lines as a proxy writes them: query strings, escapes, status 0 */
	{
		const char *l = "{\"level\":\"info\",\"ts\":1790381608.0767596,\"logger\":\"http.log.access\","
			"\"msg\":\"handled request\",\"request\":{\"remote_ip\":\"45.148.10.171\",\"proto\":\"HTTP/1.1\","
			"\"method\":\"POST\",\"host\":\"api.example.com:8443\",\"uri\":\"/v1/users/42?expand=all\","
			"\"headers\":{\"User-Agent\":[\"Mozilla/5.0 (\\\"quoted\\\") [x]\"]}},\"bytes_read\":12,"
			"\"user_id\":\"\",\"duration\":1.2345,\"size\":0,\"status\":0}";

		CHECK_EQ_I(jparse(&caddy, l, 0, &r), LP_ST_OK, "caddy: status 0 counts");
		CHECK(is(r.route, r.route_len, "/v1/users/42") && r.latency == 1235 && !(r.has & LP_HAS_STATUS),
			  "caddy: query cut, 1.2345 s -> 1235 ms, status 0 is none");
		CHECK_EQ_I(jparse(&caddy, l, LP_PARSE_KEEP_QUERY | LP_PARSE_TEMPLATES | LP_PARSE_HOST, &r),
				   LP_ST_OK, "caddy: every option");
		CHECK(is(r.route, r.route_len, "api.example.com:8443/v1/users/:id?expand=all"),
			  "caddy: host, template, query (got %s)", diff_q(r.route, r.route_len));
		CHECK_REF(&caddy, l, LP_PARSE_KEEP_QUERY | LP_PARSE_TEMPLATES | LP_PARSE_HOST);
	}

	CHECK_EQ_I(jparse(&traefik, TRAEFIK_DOC_LINE, 0, &r), LP_ST_OK, "traefik_json: the documented fields");
	CHECK(is(r.route, r.route_len, "/cart/items") && r.latency == 48 && r.status == 200 &&
		  is(r.method, r.method_len, "GET") && is(r.host, r.host_len, "shop.example.com") &&
		  is(r.time, r.time_len, "2026-11-07T00:00:00.123456789Z"),
		  "traefik_json: /cart/items GET 200, 48321500 ns -> 48 ms, StartUTC");
	CHECK_EQ_I(jparse(&traefik, TRAEFIK_DOC_LINE, LP_PARSE_KEEP_QUERY, &r), LP_ST_OK, "traefik: query");
	CHECK(is(r.route, r.route_len, "/cart/items?id=7&ref=home"), "traefik_json: \\u0026 decoded in the query");
	CHECK_REF(&traefik, TRAEFIK_DOC_LINE, LP_PARSE_KEEP_QUERY);
	CHECK_EQ_I(traefik.time_kind, LP_TIME_ISO8601, "traefik_json: StartUTC is ISO 8601");

	/* the sample at the top of docs/formats.md, "JSON lines (1.2)" */
	{
		lp_json_spec doc;

		spec_of("route=request.uri, latency=duration:s, method=request.method, host=request.host, "
				"status=status, time=ts:epoch", &doc);
		CHECK(jparse(&doc, "{\"ts\":1646861401.5241024,\"request\":{\"method\":\"GET\",\"host\":"
					 "\"localhost\",\"uri\":\"/api/users/42?x=1\"},\"duration\":0.000929675,\"status\":200}",
					 0, &r) == LP_ST_OK && is(r.route, r.route_len, "/api/users/42") && r.latency == 1 &&
			  is(r.method, r.method_len, "GET") && r.status == 200 && is(r.host, r.host_len, "localhost") &&
			  is(r.time, r.time_len, "1646861401.5241024"), "the docs' sample line");
		CHECK(jparse(&caddy, "{\"level\":\"info\",\"ts\":1646861400.1,\"logger\":\"http\","
					 "\"msg\":\"serving initial configuration\"}", 0, &r) == LP_ST_NO_FIELD &&
			  is(r.bad, r.bad_len, "request.uri"), "caddy: a line of another logger has no request.uri");
	}
	CHECK_EQ_I(caddy.time_kind, LP_TIME_EPOCH, "caddy: ts is epoch seconds");
	CHECK(caddy.unit == LP_UNIT_S && traefik.unit == LP_UNIT_NS, "caddy in s, traefik in ns");
}

/* Fields in any order, nesting, duplicates, types. */
void
test_json_fields(void)
{
	lp_json_spec sp;
	lp_result	r;

	spec_of("route=req.uri,latency=dur:ms,status=st,method=req.m,host=req.h,time=t:iso8601", &sp);

	/* every order of the members gives the same */
	{
		const char *members[] = {"\"req\":{\"uri\":\"/a\",\"m\":\"GET\",\"h\":\"x\"}", "\"dur\":12",
		"\"st\":201", "\"t\":\"2026-11-07T00:00:00Z\"", "\"junk\":[1,{\"uri\":\"/no\"}]"};
		int			perm[5] = {0, 1, 2, 3, 4};
		int			count = 0,
					good = 0;

		/* Heap's algorithm over the 120 orders */
		int			c[5] = {0};
		int			i = 0;

		for (;;)
		{
			char		line[512];
			size_t		n = 0;
			int			k;

			n += (size_t) snprintf(line + n, sizeof(line) - n, "{");
			for (k = 0; k < 5; k++)
				n += (size_t) snprintf(line + n, sizeof(line) - n, "%s%s", k ? "," : "", members[perm[k]]);
			snprintf(line + n, sizeof(line) - n, "}");
			count++;
			if (jparse(&sp, line, 0, &r) == LP_ST_OK && is(r.route, r.route_len, "/a") &&
				r.latency == 12 && r.status == 201 && is(r.method, r.method_len, "GET") &&
				is(r.host, r.host_len, "x") && is(r.time, r.time_len, "2026-11-07T00:00:00Z"))
				good++;
			while (i < 5 && c[i] >= i)
				c[i++] = 0;
			if (i == 5)
				break;
			{
				int			j = i % 2 ? c[i] : 0,
							t = perm[j];

				perm[j] = perm[i];
				perm[i] = t;
			}
			c[i]++;
			i = 0;
		}
		CHECK(count == 120 && good == 120, "every order of five members: %d of %d", good, count);
	}

	/* whitespace around every token, CRLF at the end */
	CHECK_EQ_I(jparse(&sp, " \t{ \"req\" : { \"uri\" : \"/a\" } , \"dur\" :\n12 }\r", 0, &r), LP_ST_OK,
			   "JSON whitespace anywhere between tokens");
	CHECK(is(r.route, r.route_len, "/a") && r.latency == 12 &&
		  r.has == (LP_HAS_ROUTE | LP_HAS_LATENCY), "optional fields absent: not in has");

	/* duplicates: the last wins, as in jsonb; an object given twice replaces the first */
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\",\"uri\":\"/b\"},\"dur\":1,\"dur\":2}", 0, &r), LP_ST_OK,
			   "duplicate keys");
	CHECK(is(r.route, r.route_len, "/b") && r.latency == 2, "the last of equal keys counts");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\",\"m\":\"GET\"},\"dur\":1,\"req\":{\"uri\":\"/b\"}}", 0, &r),
			   LP_ST_OK, "an object given twice");
	CHECK(is(r.route, r.route_len, "/b") && !(r.has & LP_HAS_METHOD),
		  "the second object replaces the first: its method is gone");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\"},\"dur\":1,\"req\":5}", 0, &r), LP_ST_NO_FIELD,
			   "an object replaced by a number");
	CHECK(is(r.bad, r.bad_len, "req.uri"), "no req.uri field");
	CHECK_EQ_I(jparse(&sp, "{\"req\":7,\"dur\":1,\"req\":{\"uri\":\"/c\"}}", 0, &r), LP_ST_OK,
			   "a number replaced by an object");
	CHECK(is(r.route, r.route_len, "/c"), "the later object counts");
	CHECK_EQ_I(jparse(&sp, "{\"r\\u0065q\":{\"u\\u0072i\":\"/e\"},\"d\\u0075r\":3}", 0, &r), LP_ST_OK,
			   "escaped keys");
	CHECK(is(r.route, r.route_len, "/e") && r.latency == 3, "keys are compared decoded");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\"},\"req\\u0000\":{\"uri\":\"/b\"},\"dur\":1}", 0, &r),
			   LP_ST_OK, "a key with a NUL is another key");
	CHECK(is(r.route, r.route_len, "/a"), "req\\u0000 is not req");

	/* nesting: wanted keys inside unwanted values do not count */
	CHECK_EQ_I(jparse(&sp, "{\"x\":{\"req\":{\"uri\":\"/no\"},\"dur\":9},\"a\":[{\"dur\":8}],"
					  "\"s\":\"{\\\"dur\\\":7}\",\"req\":{\"uri\":\"/yes\"},\"dur\":1}", 0, &r),
			   LP_ST_OK, "the same keys deeper");
	CHECK(is(r.route, r.route_len, "/yes") && r.latency == 1, "only the spec's paths count");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"in\":{\"uri\":\"/no\"},\"uri\":\"/yes\",\"z\":[[],{}]},\"dur\":1}",
					  0, &r), LP_ST_OK, "siblings with objects and arrays");
	CHECK(is(r.route, r.route_len, "/yes"), "skipped values leave the path alone");

	/* types: null is absent; other wrong types are bad fields */
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":null},\"dur\":1}", 0, &r), LP_ST_NO_FIELD, "route null");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":5},\"dur\":1}", 0, &r), LP_ST_BAD_FIELD, "route number");
	CHECK(is(r.bad, r.bad_len, "req.uri"), "a bad field quotes its path");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":{\"p\":1}},\"dur\":1}", 0, &r), LP_ST_BAD_FIELD, "route object");
	CHECK_EQ_I(jparse(&sp, "{\"req\":[\"/a\"],\"dur\":1}", 0, &r), LP_ST_NO_FIELD, "path through an array");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\"}}", 0, &r), LP_ST_NO_FIELD, "no latency");
	CHECK(is(r.bad, r.bad_len, "dur") && (r.has & LP_HAS_ROUTE), "no dur field; the route is read");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\"},\"dur\":null}", 0, &r), LP_ST_NO_LATENCY, "latency null");
	CHECK(is(r.bad, r.bad_len, "null"), "quotes null");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\"},\"dur\":\"-\"}", 0, &r), LP_ST_NO_LATENCY, "latency -");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\"},\"dur\":\"\"}", 0, &r), LP_ST_NO_LATENCY, "latency \"\"");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\"},\"dur\":true}", 0, &r), LP_ST_BAD_FIELD, "latency true");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\"},\"dur\":\"12ms\"}", 0, &r), LP_ST_BAD_FIELD,
			   "latency 12ms (Caddy's duration_format string)");
	CHECK(is(r.bad, r.bad_len, "dur"), "quotes the path");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\"},\"dur\":-1}", 0, &r), LP_ST_BAD_FIELD, "latency -1");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\"},\"dur\":-0}", 0, &r), LP_ST_BAD_FIELD, "latency -0");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\"},\"dur\":\"0012\"}", 0, &r), LP_ST_OK,
			   "a numeric string may have leading zeros");
	CHECK_EQ_I(r.latency, 12, "\"0012\" ms");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\"},\"dur\":\" 12\"}", 0, &r), LP_ST_BAD_FIELD,
			   "no blanks in a numeric string");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\"},\"dur\":\"1\\u0032\"}", 0, &r), LP_ST_OK,
			   "a numeric string with an escape");
	CHECK_EQ_I(r.latency, 12, "\"1\\u0032\" is 12");

	/* status */
	{
		static const struct
		{
			const char *v;
			lp_status	st;
			int			status;		/* -1: none */
		}			cs[] = {
			{"200", LP_ST_OK, 200}, {"\"404\"", LP_ST_OK, 404}, {"100", LP_ST_OK, 100},
			{"999", LP_ST_OK, 999}, {"0", LP_ST_OK, -1}, {"\"0\"", LP_ST_OK, -1},
			{"null", LP_ST_OK, -1}, {"\"\"", LP_ST_OK, -1}, {"\"-\"", LP_ST_OK, -1},
			{"99", LP_ST_BAD_STATUS, 0}, {"1000", LP_ST_BAD_STATUS, 0}, {"-200", LP_ST_BAD_STATUS, 0},
			{"200.0", LP_ST_BAD_STATUS, 0}, {"2e2", LP_ST_BAD_STATUS, 0}, {"\"2OO\"", LP_ST_BAD_STATUS, 0},
			{"true", LP_ST_BAD_STATUS, 0}, {"[200]", LP_ST_BAD_STATUS, 0}, {"\" 200\"", LP_ST_BAD_STATUS, 0},
		};
		size_t		i;

		for (i = 0; i < sizeof(cs) / sizeof(cs[0]); i++)
		{
			char		line[128];
			lp_status	st;

			snprintf(line, sizeof(line), "{\"req\":{\"uri\":\"/a\"},\"dur\":1,\"st\":%s}", cs[i].v);
			st = jparse(&sp, line, 0, &r);
			CHECK(st == cs[i].st && (st != LP_ST_OK || (cs[i].status < 0 ? !(r.has & LP_HAS_STATUS) :
														((r.has & LP_HAS_STATUS) && r.status == cs[i].status))),
				  "status %s: got status %d, has %x, http %d", cs[i].v, st, r.has, r.status);
			CHECK_REF(&sp, line, 0);
		}
		CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\"},\"dur\":1,\"st\":99}", 0, &r), LP_ST_BAD_STATUS, "99");
		CHECK(is(r.bad, r.bad_len, "99") && (r.has & LP_HAS_ROUTE) && (r.has & LP_HAS_LATENCY),
			  "a bad status quotes it; route and latency still read");
	}

	/* method, host, time */
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\",\"m\":\"G T\"},\"dur\":1}", 0, &r), LP_ST_BAD_FIELD, "method G T");
	CHECK(is(r.bad, r.bad_len, "req.m"), "method quotes its path");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\",\"m\":\"\"},\"dur\":1}", 0, &r), LP_ST_BAD_FIELD, "method empty");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\",\"m\":\"M-SEARCH\"},\"dur\":1}", 0, &r), LP_ST_OK, "M-SEARCH");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\",\"h\":\"\"},\"dur\":1}", LP_PARSE_HOST, &r), LP_ST_OK, "host empty");
	CHECK(!(r.has & LP_HAS_HOST) && is(r.route, r.route_len, "/a"), "an empty host is none: no prefix");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\",\"h\":1},\"dur\":1}", 0, &r), LP_ST_BAD_FIELD, "host number");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\"},\"dur\":1,\"t\":1}", 0, &r), LP_ST_BAD_FIELD,
			   "an ISO time as a number");
	CHECK(is(r.bad, r.bad_len, "t") && r.has == (LP_HAS_ROUTE | LP_HAS_LATENCY), "time quotes its path");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/a\"},\"dur\":\"x\",\"t\":\"2026-11-07T00:00:00Z\"}", 0, &r),
			   LP_ST_BAD_FIELD, "a bad latency");
	CHECK((r.has & LP_HAS_TIME) && is(r.time, r.time_len, "2026-11-07T00:00:00Z"),
		  "the time is read though the latency is bad (logp95_line_ts)");
	{
		lp_json_spec ep;

		spec_of("route=u,latency=d:s,time=t:epoch_ns", &ep);
		CHECK(jparse(&ep, "{\"u\":\"/a\",\"d\":1,\"t\":1646861401524102400}", 0, &r) == LP_ST_OK &&
			  is(r.time, r.time_len, "1646861401524102400"), "an epoch time as a number");
		CHECK(jparse(&ep, "{\"u\":\"/a\",\"d\":1,\"t\":\"1646861401\"}", 0, &r) == LP_ST_OK &&
			  is(r.time, r.time_len, "1646861401"), "an epoch time as a string");
		CHECK(jparse(&ep, "{\"u\":\"/a\",\"d\":1,\"t\":false}", 0, &r) == LP_ST_BAD_FIELD, "epoch false");
	}

	/* the order of errors: route, latency, status, method, host, time */
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"m\":5,\"h\":5},\"dur\":\"x\",\"st\":5,\"t\":5}", 0, &r),
			   LP_ST_NO_FIELD, "every field bad: the route's error first");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/\",\"m\":5,\"h\":5},\"dur\":\"x\",\"st\":5,\"t\":5}", 0, &r),
			   LP_ST_BAD_FIELD, "then the latency's");
	CHECK(is(r.bad, r.bad_len, "dur"), "the latency's path");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/\",\"m\":5,\"h\":5},\"dur\":1,\"st\":5,\"t\":5}", 0, &r),
			   LP_ST_BAD_STATUS, "then the status's");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/\",\"m\":5,\"h\":5},\"dur\":1,\"t\":5}", 0, &r),
			   LP_ST_BAD_FIELD, "then the method's");
	CHECK(is(r.bad, r.bad_len, "req.m"), "the method's path");
	CHECK_EQ_I(jparse(&sp, "{\"req\":{\"uri\":\"/\",\"h\":5},\"dur\":1,\"t\":5}", 0, &r),
			   LP_ST_BAD_FIELD, "then the host's");
	CHECK(is(r.bad, r.bad_len, "req.h"), "the host's path");
}

/* Routes: the query, absolute targets, request lines, templates, the host prefix. */
void
test_json_routes(void)
{
	lp_json_spec sp,
				rq;
	lp_result	r;
	static const struct
	{
		const char *uri;		/* the JSON string's bytes */
		unsigned	flags;
		lp_status	st;
		const char *route;
	}			cases[] = {
		{"/a/b?x=1", 0, LP_ST_OK, "/a/b"},
		{"/a/b?x=1", LP_PARSE_KEEP_QUERY, LP_ST_OK, "/a/b?x=1"},
		{"/a/b?", 0, LP_ST_OK, "/a/b"},
		{"?x=1", 0, LP_ST_BAD_REQUEST, NULL},
		{"?x=1", LP_PARSE_KEEP_QUERY, LP_ST_OK, "?x=1"},
		{"", 0, LP_ST_BAD_REQUEST, NULL},
		{"*", 0, LP_ST_OK, "*"},
		{"http://example.com/abs/path?from=proxy", 0, LP_ST_OK, "/abs/path"},
		{"https://example.com", 0, LP_ST_OK, "/"},
		{"http://example.com?x=1", 0, LP_ST_OK, "/"},
		{"http://example.com?x=1", LP_PARSE_KEEP_QUERY, LP_ST_OK, "/?x=1"},
		{"http:\\/\\/example.com\\/p", 0, LP_ST_OK, "/p"},
		{"http:\\/\\/example.com?x=1", LP_PARSE_KEEP_QUERY, LP_ST_OK, "/?x=1"},
		{"http:\\/\\/example.com?x=1", LP_PARSE_KEEP_QUERY | LP_PARSE_TEMPLATES, LP_ST_OK, "/?x=1"},
		{"example.com:443", 0, LP_ST_OK, "example.com:443"},
		{"/caf\\u00e9/\\ud83d\\ude00", 0, LP_ST_OK, "/caf\xc3\xa9/\xf0\x9f\x98\x80"},
		{"/caf\\u00E9", 0, LP_ST_OK, "/caf\xc3\xa9"},
		{"/\\u20ac", 0, LP_ST_OK, "/\xe2\x82\xac"},
		{"/\\u07ff\\u0080", 0, LP_ST_OK, "/\xdf\xbf\xc2\x80"},
		{"/\\udbff\\udfff", 0, LP_ST_OK, "/\xf4\x8f\xbf\xbf"},
		{"/q\\\"uote\\\\back\\/slash", 0, LP_ST_OK, "/q\"uote\\back/slash"},
		{"/t\\b\\f\\n\\r\\tx", 0, LP_ST_OK, "/t\b\f\n\r\tx"},
		{"/a\\u003fb", 0, LP_ST_OK, "/a"},
		{"/lone\\ud83d", 0, LP_ST_OK, "/lone\\ud83d"},
		{"/lone\\ude00x", 0, LP_ST_OK, "/lone\\ude00x"},
		{"/lone\\ud83d\\u0041", 0, LP_ST_OK, "/lone\\ud83dA"},
		{"/lone\\ud83d\\ud83d\\ude00", 0, LP_ST_OK, "/lone\\ud83d\xf0\x9f\x98\x80"},
		{"/nul\\u0000", 0, LP_ST_OK, "/nul\\u0000"},
		{"-", 0, LP_ST_BAD_REQUEST, NULL},
		{"\\u002d", 0, LP_ST_BAD_REQUEST, NULL},
		{"/-", 0, LP_ST_OK, "/-"},
		{"/raw\xff\xfe", 0, LP_ST_OK, "/raw\xff\xfe"},
		{"/users/42/x", LP_PARSE_TEMPLATES, LP_ST_OK, "/users/:id/x"},
		{"/users/4\\u0032/x?id=7", LP_PARSE_TEMPLATES, LP_ST_OK, "/users/:id/x"},
		{"\\/1\\/2\\/3?4", LP_PARSE_TEMPLATES | LP_PARSE_KEEP_QUERY, LP_ST_OK, "/:id/:id/:id?4"},
		{"\\/3f2504e0-4f89-11d3-9a0c-0305e82c3301\\/7", LP_PARSE_TEMPLATES, LP_ST_OK, "/:uuid/:id"},
		{"\\/0123456789abcdef0123\\/12\\/123\\/1234", LP_PARSE_TEMPLATES, LP_ST_OK, "/:hex/:id/:id/:id"},
	};
	size_t		i;

	spec_of("route=u,latency=d:ms,host=h", &sp);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		char		line[256];
		lp_status	st;

		snprintf(line, sizeof(line), "{\"u\":\"%s\",\"d\":5}", cases[i].uri);
		st = jparse(&sp, line, cases[i].flags, &r);
		CHECK(st == cases[i].st && (st != LP_ST_OK || is(r.route, r.route_len, cases[i].route)),
			  "route of %s (flags %x): want %d %s, got %d %s", cases[i].uri, cases[i].flags,
			  cases[i].st, cases[i].route ? cases[i].route : "", st,
			  st == LP_ST_OK ? diff_q(r.route, r.route_len) : "");
		CHECK_REF(&sp, line, cases[i].flags);
	}
	CHECK_EQ_I(jparse(&sp, "{\"u\":\"?x\",\"d\":5}", 0, &r), LP_ST_BAD_REQUEST, "?x has no path");
	CHECK(is(r.bad, r.bad_len, "?x"), "BAD_REQUEST quotes the route");
	CHECK_EQ_I(jparse(&sp, "{\"u\":\"/a\",\"d\":5}", 0, &r), LP_ST_OK, "a slice");
	CHECK(r.route > j_line && r.route < j_line + 12, "an unescaped route is a slice of the line");

	/* the host prefix, the host decoded */
	CHECK_EQ_I(jparse(&sp, "{\"h\":\"ex\\u00e4mple.com\",\"u\":\"/b\\/c?q\",\"d\":5}", LP_PARSE_HOST, &r),
			   LP_ST_OK, "decoded host and route");
	CHECK(is(r.route, r.route_len, "ex\xc3\xa4mple.com/b/c") && is(r.host, r.host_len, "ex\xc3\xa4mple.com"),
		  "host prefix on a decoded route: %s", diff_q(r.route, r.route_len));
	CHECK_EQ_I(jparse(&sp, "{\"h\":\"h\",\"u\":\"/1/2\",\"d\":5}", LP_PARSE_HOST | LP_PARSE_TEMPLATES, &r),
			   LP_ST_OK, "host and templates");
	CHECK(is(r.route, r.route_len, "h/:id/:id"), "the host is not templated: %s", diff_q(r.route, r.route_len));
	CHECK_EQ_I(jparse(&sp, "{\"h\":\"123\",\"u\":\"/a\",\"d\":5}", LP_PARSE_HOST | LP_PARSE_TEMPLATES, &r),
			   LP_ST_OK, "an all-digit host");
	CHECK(is(r.route, r.route_len, "123/a"), "an all-digit host stays");
	CHECK_EQ_I(jparse(&sp, "{\"h\":\"\\ud800\",\"u\":\"/a\",\"d\":5}", LP_PARSE_HOST, &r), LP_ST_OK,
			   "a lone surrogate in the host");
	CHECK(is(r.route, r.route_len, "\\ud800/a"), "kept as logged, as lp_token.c keeps it");

	/* LP_HAS_ROUTE_HIGH: a \u escape of U+0080 or above decoded into the route */
	CHECK(jparse(&sp, "{\"u\":\"/caf\\u00e9\",\"d\":5}", 0, &r) == LP_ST_OK &&
		  (r.has & LP_HAS_ROUTE_HIGH), "\\u00e9: high");
	CHECK(jparse(&sp, "{\"u\":\"/caf\xc3\xa9\",\"d\":5}", 0, &r) == LP_ST_OK &&
		  !(r.has & LP_HAS_ROUTE_HIGH), "raw UTF-8 is as logged: not high");
	CHECK(jparse(&sp, "{\"u\":\"\\/a\\u0041\",\"d\":5}", 0, &r) == LP_ST_OK &&
		  !(r.has & LP_HAS_ROUTE_HIGH), "escapes below U+0080: not high");
	CHECK(jparse(&sp, "{\"u\":\"/a\",\"h\":\"\\u00e4.de\",\"d\":5}", LP_PARSE_HOST, &r) == LP_ST_OK &&
		  (r.has & LP_HAS_ROUTE_HIGH), "a decoded host prefix: high");
	CHECK(jparse(&sp, "{\"u\":\"/a\",\"h\":\"\\u00e4.de\",\"d\":5}", 0, &r) == LP_ST_OK &&
		  !(r.has & LP_HAS_ROUTE_HIGH), "a decoded host without the host option: not high");
	/* LP_PARSE_LOGGED: the route and host as logged */
	CHECK(jparse(&sp, "{\"u\":\"\\/caf\\u00e9?q\",\"h\":\"\\u00e4\",\"d\":5}", LP_PARSE_LOGGED | LP_PARSE_HOST,
				 &r) == LP_ST_OK && is(r.route, r.route_len, "\\u00e4\\/caf\\u00e9") &&
		  is(r.host, r.host_len, "\\u00e4") && !(r.has & LP_HAS_ROUTE_HIGH),
		  "logged: %s", diff_q(r.route, r.route_len));
	CHECK_REF(&sp, "{\"u\":\"\\/caf\\u00e9?q\",\"h\":\"\\u00e4\",\"d\":5}", LP_PARSE_LOGGED | LP_PARSE_HOST);

	/* request lines */
	spec_of("request=r,latency=d:ms,host=h", &rq);
	{
		static const struct
		{
			const char *req;
			lp_status	st;
			const char *method;
			const char *route;
		}			rc[] = {
			{"GET /x?y HTTP/1.1", LP_ST_OK, "GET", "/x"},
			{"POST /api/v1 HTTP/2.0", LP_ST_OK, "POST", "/api/v1"},
			{"GET /x", LP_ST_OK, "GET", "/x"},
			{"OPTIONS * HTTP/1.1", LP_ST_OK, "OPTIONS", "*"},
			{"CONNECT example.com:443 HTTP/1.1", LP_ST_OK, "CONNECT", "example.com:443"},
			{"GET http://example.com/abs?x HTTP/1.1", LP_ST_OK, "GET", "/abs"},
			{"G\\u0045T \\/e\\u0301 HTTP/1.1", LP_ST_OK, "GET", "/e\xcc\x81"},
			{"GET /x\\tHTTP/1.1", LP_ST_OK, "GET", "/x"},
			{"-", LP_ST_BAD_REQUEST, NULL, NULL},
			{"GET ?x HTTP/1.1", LP_ST_BAD_REQUEST, NULL, NULL},
			{"", LP_ST_NOT_HTTP, NULL, NULL},
			{"GET", LP_ST_NOT_HTTP, NULL, NULL},
			{"GET ", LP_ST_NOT_HTTP, NULL, NULL},
			{"GET  /x HTTP/1.1", LP_ST_NOT_HTTP, NULL, NULL},
			{"G{T /x HTTP/1.1", LP_ST_NOT_HTTP, NULL, NULL},
			{"GARBAGE", LP_ST_NOT_HTTP, NULL, NULL},
			{"PRI * HTTP/2.0", LP_ST_NOT_HTTP, NULL, NULL},
			{"- http://localhost HTTP/1.0", LP_ST_NOT_HTTP, NULL, NULL},
			{"\\u0016\\u0003\\u0001", LP_ST_NOT_HTTP, NULL, NULL},
		};

		for (i = 0; i < sizeof(rc) / sizeof(rc[0]); i++)
		{
			char		line[256];
			lp_status	st;

			snprintf(line, sizeof(line), "{\"r\":\"%s\",\"d\":5,\"h\":\"ex.com\"}", rc[i].req);
			st = jparse(&rq, line, 0, &r);
			CHECK(st == rc[i].st && (st != LP_ST_OK || (is(r.route, r.route_len, rc[i].route) &&
														 is(r.method, r.method_len, rc[i].method))),
				  "request %s: want %d %s %s, got %d %s %s", rc[i].req, rc[i].st,
				  rc[i].method ? rc[i].method : "", rc[i].route ? rc[i].route : "", st,
				  st == LP_ST_OK ? diff_q(r.method, r.method_len) : "",
				  st == LP_ST_OK ? diff_q(r.route, r.route_len) : "");
			CHECK_REF(&rq, line, 0);
			CHECK_REF(&rq, line, LP_PARSE_HOST | LP_PARSE_TEMPLATES | LP_PARSE_KEEP_QUERY);
		}
		CHECK_EQ_I(jparse(&rq, "{\"r\":\"G\\u0045T \\/1\\/2?3 HTTP\\/1.1\",\"d\":5,\"h\":\"\\u0065x\"}",
						  LP_PARSE_HOST | LP_PARSE_TEMPLATES | LP_PARSE_KEEP_QUERY, &r), LP_ST_OK,
				   "decoded request, decoded host, every option");
		CHECK(is(r.method, r.method_len, "GET") && is(r.host, r.host_len, "ex") &&
			  is(r.route, r.route_len, "ex/:id/:id?3"), "method %s host %s route %s",
			  diff_q(r.method, r.method_len), diff_q(r.host, r.host_len), diff_q(r.route, r.route_len));
		CHECK_EQ_I(jparse(&rq, "{\"r\":\"PRI * HTTP/2.0\",\"d\":5}", 0, &r), LP_ST_NOT_HTTP, "preface");
		CHECK(is(r.bad, r.bad_len, "PRI * HTTP/2.0"), "NOT_HTTP quotes the request");
	}
	{
		lp_json_spec rqm;

		spec_of("request=r,method=m,latency=d:ms", &rqm);
		CHECK(jparse(&rqm, "{\"r\":\"GET /x HTTP/1.1\",\"m\":\"HEAD\",\"d\":1}", 0, &r) == LP_ST_OK &&
			  is(r.method, r.method_len, "HEAD"), "method= beats the request line's method");
		CHECK(jparse(&rqm, "{\"r\":\"GET /x HTTP/1.1\",\"m\":null,\"d\":1}", 0, &r) == LP_ST_OK &&
			  is(r.method, r.method_len, "GET"), "method= null: the request line's method");
		CHECK(jparse(&rqm, "{\"r\":\"G\\u0045T \\/x HTTP/1.1\",\"m\":\"HEAD\",\"d\":1}", LP_PARSE_TEMPLATES, &r) ==
			  LP_ST_OK && is(r.method, r.method_len, "HEAD") && is(r.route, r.route_len, "/x"),
			  "method= with a decoded request line");
	}
}

/* The next number of a linear congruential sequence. */
static uint64_t
lcg_next(uint64_t *rng)
{
	*rng = *rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return *rng >> 33;
}

/* Latencies in every unit, with the rounding at .5 of a millisecond. */
void
test_json_latency(void)
{
	static const struct
	{
		const char *v;
		const char *unit;
		lp_status	st;
		int64_t		ms;
	}			cs[] = {
		{"0.214", "s", LP_ST_OK, 214}, {"0.0005", "s", LP_ST_OK, 1}, {"0.0004999", "s", LP_ST_OK, 0},
		{"0.9995", "s", LP_ST_OK, 1000}, {"12", "s", LP_ST_OK, 12000}, {"1.2345", "s", LP_ST_OK, 1235},
		{"5e-4", "s", LP_ST_OK, 1}, {"4.999e-4", "s", LP_ST_OK, 0}, {"1E3", "s", LP_ST_OK, 1000000},
		{"0.5e1", "s", LP_ST_OK, 5000}, {"2.5E+0", "s", LP_ST_OK, 2500}, {"1e-400", "s", LP_ST_OK, 0},
		{"0", "s", LP_ST_OK, 0}, {"0.0", "s", LP_ST_OK, 0}, {"0e99999999999", "s", LP_ST_OK, 0},
		{"9223372036854775.807", "s", LP_ST_OK, INT64_MAX},
		{"9223372036854775.8075", "s", LP_ST_REQTIME_RANGE, 0},
		{"9223372036854775.8074", "s", LP_ST_OK, INT64_MAX},
		{"9.223372036854775807e15", "s", LP_ST_OK, INT64_MAX},
		{"9.2233720368547758075e15", "s", LP_ST_REQTIME_RANGE, 0},
		{"1e16", "s", LP_ST_REQTIME_RANGE, 0}, {"1e400", "s", LP_ST_REQTIME_RANGE, 0},
		{"99999999999999999999999", "s", LP_ST_REQTIME_RANGE, 0},
		{"12", "ms", LP_ST_OK, 12}, {"12.5", "ms", LP_ST_OK, 13}, {"12.4999", "ms", LP_ST_OK, 12},
		{"0.5", "ms", LP_ST_OK, 1}, {"1.5e1", "ms", LP_ST_OK, 15}, {"9223372036854775807", "ms", LP_ST_OK, INT64_MAX},
		{"9223372036854775807.5", "ms", LP_ST_REQTIME_RANGE, 0},
		{"9223372036854775807.4999", "ms", LP_ST_OK, INT64_MAX},
		{"9223372036854775808", "ms", LP_ST_REQTIME_RANGE, 0},
		{"214500", "us", LP_ST_OK, 215}, {"214499", "us", LP_ST_OK, 214}, {"499.999", "us", LP_ST_OK, 0},
		{"500", "us", LP_ST_OK, 1}, {"1", "us", LP_ST_OK, 0},
		{"48321500", "ns", LP_ST_OK, 48}, {"1500000", "ns", LP_ST_OK, 2}, {"1499999", "ns", LP_ST_OK, 1},
		{"499999", "ns", LP_ST_OK, 0}, {"500000", "ns", LP_ST_OK, 1}, {"500000.0", "ns", LP_ST_OK, 1},
		{"4.99999999e5", "ns", LP_ST_OK, 0}, {"9223372036854775807499999", "ns", LP_ST_OK, INT64_MAX},
		{"9223372036854775807500000", "ns", LP_ST_REQTIME_RANGE, 0},
		{"00000000000000000000000000012", "ms", LP_ST_OK, 12},
		{"0.00000000000000000000000000012e30", "ms", LP_ST_OK, 120},
		{"-1", "ms", LP_ST_BAD_FIELD, 0}, {"-0", "s", LP_ST_BAD_FIELD, 0}, {"1.", "s", LP_ST_BAD_FIELD, 0},
		{".5", "s", LP_ST_BAD_FIELD, 0}, {"1e", "s", LP_ST_BAD_FIELD, 0}, {"1e+", "s", LP_ST_BAD_FIELD, 0},
		{"0x10", "ms", LP_ST_BAD_FIELD, 0}, {"+1", "ms", LP_ST_BAD_FIELD, 0}, {"1,5", "s", LP_ST_BAD_FIELD, 0},
		{"NaN", "s", LP_ST_BAD_FIELD, 0}, {"Infinity", "s", LP_ST_BAD_FIELD, 0}, {"1 ", "s", LP_ST_BAD_FIELD, 0},
	};
	size_t		i;
	lp_result	r;

	for (i = 0; i < sizeof(cs) / sizeof(cs[0]); i++)
	{
		char		spec[64],
					line[128];
		lp_json_spec sp;
		int			k;

		snprintf(spec, sizeof(spec), "route=u,latency=d:%s", cs[i].unit);
		spec_of(spec, &sp);
		/* as a string always, as a number where JSON has one */
		for (k = 0; k < 2; k++)
		{
			lp_status	st;
			int			json_number = !strchr("-+.NI", cs[i].v[0]) && !strstr(cs[i].v, "0x") &&
				!strchr(cs[i].v, ',') && !strchr(cs[i].v, ' ') && cs[i].v[strlen(cs[i].v) - 1] != 'e' &&
				cs[i].v[strlen(cs[i].v) - 1] != '+' && cs[i].v[strlen(cs[i].v) - 1] != '.' &&
				!(cs[i].v[0] == '0' && cs[i].v[1] >= '0' && cs[i].v[1] <= '9');

			if (k == 1 && !json_number)
				continue;
			snprintf(line, sizeof(line), k ? "{\"u\":\"/\",\"d\":%s}" : "{\"u\":\"/\",\"d\":\"%s\"}", cs[i].v);
			st = jparse(&sp, line, 0, &r);
			CHECK(st == cs[i].st && (st != LP_ST_OK || r.latency == cs[i].ms),
				  "latency %s %s%s: want %d %lld, got %d %lld", cs[i].v, cs[i].unit,
				  k ? "" : " (string)", cs[i].st, (long long) cs[i].ms, st, (long long) r.latency);
			CHECK_REF(&sp, line, 0);
		}
	}
	CHECK_EQ_I(jparse(&(lp_json_spec) {0}, "{}", 0, &r), LP_ST_NO_FIELD, "an empty spec struct: no field");

	/* against lp_parse_seconds_ms on plain seconds, and the reference on every form */
	{
		uint64_t	rng = 99;
		int			iter,
					bad = 0;
		lp_json_spec sp[4];

		spec_of("route=u,latency=d:s", &sp[0]);
		spec_of("route=u,latency=d:ms", &sp[1]);
		spec_of("route=u,latency=d:us", &sp[2]);
		spec_of("route=u,latency=d:ns", &sp[3]);
		for (iter = 0; iter < 100000 && bad < 5; iter++)
		{
			char		num[64],
						line[128];
			size_t		n = 0;
			int			k,
						digits;
			lp_status	st;
			int64_t		want;

#define RNG() lcg_next(&rng)
			digits = 1 + (int) (RNG() % 22);
			num[n++] = (char) ('1' + RNG() % 9);
			for (k = 1; k < digits; k++)
				num[n++] = (char) ('0' + (RNG() % 4 == 0 ? (RNG() % 2) * 5 + (RNG() % 2) * 4 : RNG() % 10));
			if (RNG() % 2)
			{
				num[n++] = '.';
				digits = 1 + (int) (RNG() % 12);
				for (k = 0; k < digits; k++)
					num[n++] = (char) ('0' + (RNG() % 3 == 0 ? 5 : RNG() % 10));
			}
			if (RNG() % 3 == 0)
				n += (size_t) snprintf(num + n, sizeof(num) - n, "e%s%d", RNG() % 2 ? "-" : "",
									   (int) (RNG() % 25));
			num[n] = 0;
			snprintf(line, sizeof(line), "{\"u\":\"/\",\"d\":%s}", num);
			k = (int) (RNG() % 4);
			st = jparse(&sp[k], line, 0, &r);
			if (k == 0 && !strchr(num, 'e'))
			{
				lp_status	cst = lp_parse_seconds_ms(num, n, &want);

				if ((cst == LP_ST_OK) != (st == LP_ST_OK) || (cst == LP_ST_OK && want != r.latency))
				{
					CHECK(0, "seconds %s: lp_parse_seconds_ms %d %lld, lp_json %d %lld", num, cst,
						  (long long) want, st, (long long) r.latency);
					bad++;
				}
			}
			{
				test_diff	d;

				if (!json_vs_ref(&sp[k], line, strlen(line), 0, &d))
				{
					CHECK(0, "latency %s (unit %d): %s", num, k, diff_say(&d));
					bad++;
				}
			}
#undef RNG
		}
		CHECK_EQ_I(bad, 0, "100,000 latencies in four units = lp_parse_seconds_ms and the reference");
	}
}

/*
 * The walk of compact lines (lp_json.c, lp_json_walk) against the
 * reference: a line of every value type with a pad that moves every byte
 * across the 64-byte blocks of the quote map, every prefix, every byte
 * replaced by each byte the grammar gives a meaning to, nesting around
 * the limit; lines the walk must decline, still read right.  In these
 * builds (LP_ASSERTS) each line the walk takes is also checked against
 * the scan inside lp_json_parse.
 */
void
test_json_walk(void)
{
	static const char specials[] = "{}[]\":,\\ \t0-.etfnux";
	lp_json_spec sp;
	lp_result	r;
	char		line[1024];
	size_t		n,
				i,
				k;
	int			pad;
	unsigned long before;
	lp_isa		chosen = lp_simd_isa;

	spec_of("route=request.uri,method=request.method,host=request.host,status=status,"
			"latency=duration:s,time=ts:epoch", &sp);
	/* pads 0..200 with the chosen build's quote map, then 201..400 with the base build's */
	for (pad = 0; pad <= 400; pad++)
	{
		lp_simd_isa = pad <= 200 ? chosen : LP_ISA_BASE;
		before = lp_json_walk_lines;
		n = (size_t) snprintf(line, sizeof(line),
							  "{\"level\":\"info\",\"ts\":1794009600.25,\"pad\":\"%.*s\",\"request\":"
							  "{\"uri\":\"/a/b?c=1\",\"method\":\"GET\",\"host\":\"h.example\",\"h\":"
							  "{\"UA\":[\"x\",\"y\"]}},\"empty\":{},\"list\":[],\"n\":[1,-2.5e3,true,false,null,"
							  "{\"k\":[[]]}],\"duration\":0.012,\"status\":200,\"ok\":true}",
							  pad % 201, "................................................................"
							  "................................................................"
							  "................................................................"
							  "................................................................");
		CHECK_REF(&sp, line, LP_PARSE_HOST);
		CHECK(jparse(&sp, line, LP_PARSE_HOST, &r) == LP_ST_OK && is(r.route, r.route_len, "h.example/a/b") &&
			  r.latency == 12 && r.status == 200, "pad %d: the fields", pad);
#ifdef __SSE2__
		CHECK(lp_json_walk_lines == before + 2, "pad %d: the walk took the line", pad);
#endif
		if (pad % 50 != 7 && pad != 263)
			continue;
		/* every prefix; every byte replaced by each special byte */
		for (k = 0; k < n; k++)
		{
			char		save = line[k];

			line[k] = '\0';
			CHECK_REF(&sp, line, 0);
			line[k] = save;
		}
		for (k = 0; k < n; k++)
		{
			char		save = line[k];

			for (i = 0; specials[i]; i++)
			{
				test_diff	d;

				line[k] = specials[i];
				if (!json_vs_ref(&sp, line, n, 0, &d))
					CHECK(0, "byte %zu set to 0x%02x: %s (line %s)", k, (unsigned char) specials[i],
						  diff_say(&d), diff_q(line, n));
			}
			line[k] = save;
		}
	}

	lp_simd_isa = chosen;

	/* lines the walk declines, read by the scan: the same fields */
	{
		static const char *const declined[] = {
			"{\"request\":{\"uri\": \"/a\"},\"duration\":0.012,\"status\":200,\"pad\":\"......\"}",
			"{\"request\":{\"uri\":\"\\/a\"},\"duration\":0.012,\"status\":200,\"pad\":\"......\"}",
			"{\"request\":{\"uri\":\"/a\"},\"duration\":0.012,\"status\":200,\"pad\":\"......\"}\n",
			" {\"request\":{\"uri\":\"/a\"},\"duration\":0.012,\"status\":200,\"pad\":\"......\"}",
			"{\"request\":{\"uri\":\"/a\"},\"duration\":0.012,\"status\":200,\"pad\":\"..\t...\"}",
		};

		for (k = 0; k < sizeof(declined) / sizeof(declined[0]); k++)
		{
			before = lp_json_walk_lines;
			CHECK_REF(&sp, declined[k], 0);
			CHECK(lp_json_walk_lines == before, "declined line %zu: not walked", k);
			CHECK((jparse(&sp, declined[k], 0, &r) == LP_ST_OK) == (k < 4) &&
				  (k == 4 || is(r.route, r.route_len, "/a")), "declined line %zu: read by the scan", k);
		}
	}

	/* nesting around the limit, compact */
	for (k = LP_JSON_MAX_DEPTH - 2; k <= LP_JSON_MAX_DEPTH + 1; k++)
	{
		n = (size_t) snprintf(line, sizeof(line), "{\"duration\":1,\"status\":200,\"request\":{\"uri\":\"/\"},\"x\":");
		for (i = 1; i < k; i++)
			line[n++] = '[';
		for (i = 1; i < k; i++)
			line[n++] = ']';
		line[n++] = '}';
		line[n] = '\0';
		CHECK_REF(&sp, line, 0);
		CHECK((jparse(&sp, line, 0, &r) == LP_ST_OK) == (k <= LP_JSON_MAX_DEPTH), "nesting %zu deep", k);
	}
}

/* Lines that are not one JSON object: the status and where each stops. */
void
test_json_hostile(void)
{
	lp_json_spec sp;
	lp_result	r;
	static const struct
	{
		const char *line;
		size_t		len;		/* 0: strlen (the lines with a NUL give theirs) */
		long		stop;		/* offset of bad, -1: the end of the line */
	}			cs[] = {
		{"", 0, -1}, {"   ", 0, -1}, {"[]", 0, 0}, {"\"x\"", 0, 0}, {"5", 0, 0}, {"null", 0, 0},
		{"{", 0, -1}, {"{\"u\"", 0, -1}, {"{\"u\":", 0, -1}, {"{\"u\":\"/", 0, -1},
		{"{\"u\":\"/\"", 0, -1}, {"{\"u\":\"/\",", 0, -1}, {"{\"u\":\"/\"}}", 0, 9},
		{"{\"u\":\"/\"} x", 0, 10}, {"{}{}", 0, 2}, {"{\"u\":\"/\",}", 0, 9}, {"{,}", 0, 1},
		{"{\"u\" \"/\"}", 0, 5}, {"{\"u\":\"/\" \"d\":1}", 0, 9}, {"{u:1}", 0, 1}, {"{'u':1}", 0, 1},
		{"{\"u\":'/'}", 0, 5}, {"{\"u\":[1,]}", 0, 8}, {"{\"u\":[1 2]}", 0, 8}, {"{\"u\":]}", 0, 5},
		{"{\"u\":[}", 0, 6}, {"{\"u\":{]}", 0, 6}, {"{\"u\":[1}", 0, 7}, {"{\"d\":01}", 0, 6},
		{"{\"d\":-}", 0, 6}, {"{\"d\":1.}", 0, 7}, {"{\"d\":.5}", 0, 5}, {"{\"d\":1e}", 0, 7},
		{"{\"d\":1e+}", 0, 8}, {"{\"d\":+1}", 0, 5}, {"{\"d\":0x1}", 0, 6}, {"{\"d\":NaN}", 0, 5},
		{"{\"d\":tru}", 0, 8}, {"{\"d\":truex}", 0, 9}, {"{\"d\":nul", 0, -1}, {"{\"d\":True}", 0, 5},
		{"{\"d\":-a}", 0, 6}, {"{\"u\":\"a\tb\"}", 0, 7}, {"{\"u\":\"a\nb\"}", 0, 7},
		{"{\"u\":\"\\x\"}", 0, 7}, {"{\"u\":\"\\u12g4\"}", 0, 10}, {"{\"u\":\"\\u12\"}", 0, 10},
		{"{\"u\":\"\\", 0, -1}, {"{\"u\":\"\\u00", 0, -1}, {"{\"a\\qb\":1}", 0, 4},
		{"\xef\xbb\xbf{}", 0, 0}, {"{}\r\r\n \t", 0, -2}, {"{\"u\":\x7f}", 0, 5},
		{"{}\0", 3, 2}, {"{\"u\":\"a\0\"}", 10, 7}, {"\0{}", 3, 0}, {"{\"u\":\"/\"\0}", 10, 8},
		{"{\"u\":\x01}", 0, 5}, {"{\"u\"\0:1}", 8, 4},
	};
	size_t		i;

	spec_of("route=u,latency=d:ms", &sp);
	for (i = 0; i < sizeof(cs) / sizeof(cs[0]); i++)
	{
		size_t		n = cs[i].len ? cs[i].len : strlen(cs[i].line);
		long		stop = cs[i].stop == -1 ? (long) n : cs[i].stop;
		lp_status	st = jparse_n(&sp, cs[i].line, n, 0, &r);
		test_diff	d;

		if (cs[i].stop == -2)
		{
			/* whitespace after the object is fine: not JSON only for the missing fields' sake */
			CHECK(st == LP_ST_NO_FIELD, "trailing whitespace %s: got %d", diff_q(cs[i].line, n), st);
			continue;
		}
		CHECK(st == LP_ST_NOT_JSON && bad_at(&r) == stop && r.bad_len == n - (size_t) stop && r.has == 0,
			  "not JSON %s: want stop at %ld, got status %d stop %ld", diff_q(cs[i].line, n), stop, st,
			  st == LP_ST_NOT_JSON ? bad_at(&r) : -1L);
		{
			int			ok = json_vs_ref(&sp, cs[i].line, n, 0, &d);

			CHECK(ok, "reference on %s: %s", diff_q(cs[i].line, n), diff_say(&d));
		}
	}

	/* nesting: 64 levels are read, 65 are not */
	{
		char		open[512],
					full[1024];
		size_t		n,
					m;
		int			k;
		test_diff	d;

		/* the root, then 63 containers: 64 levels */
		n = (size_t) snprintf(open, sizeof(open), "{\"u\":\"/\",\"d\":1,\"x\":");
		for (k = 0; k < 63; k++)
			n += (size_t) snprintf(open + n, sizeof(open) - n, "%s", k % 2 ? "[" : "{\"k\":");
		m = (size_t) snprintf(full, sizeof(full), "%s1", open);
		for (k = 62; k >= 0; k--)
			full[m++] = k % 2 ? ']' : '}';
		full[m++] = '}';
		CHECK_EQ_I(jparse_n(&sp, full, m, 0, &r), LP_ST_OK, "64 levels of nesting");
		k = json_vs_ref(&sp, full, m, 0, &d);
		CHECK(k, "64 levels: %s", diff_say(&d));

		/* one more: the 65th bracket is where it stops */
		m = (size_t) snprintf(full, sizeof(full), "%s[1]", open);
		for (k = 62; k >= 0; k--)
			full[m++] = k % 2 ? ']' : '}';
		full[m++] = '}';
		CHECK(jparse_n(&sp, full, m, 0, &r) == LP_ST_NOT_JSON && bad_at(&r) == (long) n,
			  "65 levels: not JSON at the 65th bracket (%ld, want %zu)", bad_at(&r), n);
		k = json_vs_ref(&sp, full, m, 0, &d);
		CHECK(k, "65 levels: %s", diff_say(&d));
	}
	/* a million open brackets: refused at the 65th, at once */
	{
		size_t		n = 1000000;
		char	   *big = malloc(n);

		big[0] = '{';
		memcpy(big + 1, "\"a\":", 4);
		memset(big + 5, '[', n - 5);
		CHECK(jparse_n(&sp, big, n, 0, &r) == LP_ST_NOT_JSON && bad_at(&r) == 5 + 63,
			  "1,000,000 brackets: not JSON at the 65th level");
		/* a long string and a long number */
		memcpy(big, "{\"u\":\"/", 7);
		memset(big + 7, 'a', n - 7 - 8);
		memcpy(big + n - 8, "\",\"d\":1}", 8);
		CHECK(jparse_n(&sp, big, n, 0, &r) == LP_ST_OK && r.route_len == n - 14, "a route of 999,986 bytes");
		memcpy(big, "{\"u\":\"/\",\"d\":", 13);
		memset(big + 13, '7', n - 14);
		big[n - 1] = '}';
		CHECK(jparse_n(&sp, big, n, 0, &r) == LP_ST_REQTIME_RANGE, "a number of 999,986 digits: out of range");
		free(big);
	}
	/* every prefix of a good line is not JSON and stops at its end */
	{
		const char *good = "{\"u\":\"/a\\u00e9\\\"\",\"d\":1.5e0,\"x\":[true,false,null,{\"y\":-0.1E-2}]} ";
		size_t		n = strlen(good),
					k;
		int			ok = 1;

		for (k = 0; k < n - 1; k++)
		{
			lp_status	st = jparse_n(&sp, good, k, 0, &r);

			if (st != LP_ST_NOT_JSON || bad_at(&r) != (long) k)
				ok = 0;
		}
		CHECK(ok, "every prefix of a good line stops at its end");
		CHECK(jparse(&sp, good, 0, &r) == LP_ST_OK && r.latency == 2, "the whole line: 1.5 ms -> 2");
	}
}

/* ---------- the differential against the reference ---------- */

/* A growing byte buffer for generated lines. */
typedef struct gbuf
{
	char	   *b;
	size_t		n;
	size_t		cap;
} gbuf;

static void
g_put(gbuf *g, const char *s, size_t n)
{
	if (g->n + n + 1 > g->cap)
	{
		g->cap = (g->n + n + 1) * 2;
		g->b = realloc(g->b, g->cap);
	}
	memcpy(g->b + g->n, s, n);
	g->n += n;
}

static void
g_puts(gbuf *g, const char *s)
{
	g_put(g, s, strlen(s));
}

static uint64_t g_rng;

/* A random number below n. */
static unsigned
g_rand(unsigned n)
{
	g_rng = g_rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned) ((g_rng >> 33) % n);
}

/* JSON whitespace, now and then. */
/* Lines as one encoder writes them: no whitespace, no escape that is not needed. */
static int	g_compact;

static void
g_ws(gbuf *g)
{
	static const char ws[] = " \t\n\r";

	if (g_compact)
		return;

	while (g_rand(8) == 0)
		g_put(g, &ws[g_rand(4)], 1);
}

/*
 * A JSON string of the UTF-8 text s[0..n), with escapes chosen at random:
 * quote and backslash always escaped, control bytes as \n or \u00XX,
 * any other character now and then as \uXXXX (a surrogate pair above
 * U+FFFF), '/' now and then as \/; bytes that are not UTF-8 stay raw.
 */
static void
g_string(gbuf *g, const char *s, size_t n)
{
	size_t		i = 0;
	int			esc = g_compact ? 0 : (int) g_rand(3);	/* 0: few escapes, 2: many */

	g_puts(g, "\"");
	while (i < n)
	{
		unsigned char c = (unsigned char) s[i];
		uint32_t	cp = c;
		size_t		len = 1;
		char		tmp[16];

		if (c >= 0xC2 && c <= 0xF4)
		{
			/* a UTF-8 sequence: its code point */
			size_t		want = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
			size_t		k;

			cp = c & (want == 4 ? 0x07 : want == 3 ? 0x0F : 0x1F);
			for (k = 1; k < want && i + k < n && (s[i + k] & 0xC0) == 0x80; k++)
				cp = cp << 6 | (s[i + k] & 0x3F);
			if (k == want)
				len = want;
			else
				cp = c;
		}
		if (len == 1 && c >= 0x80)
		{
			g_put(g, s + i, 1);	/* a byte that is not UTF-8: raw */
			i++;
			continue;
		}
		if (c == '"' || c == '\\')
		{
			if (g_rand(4))
				snprintf(tmp, sizeof(tmp), "\\%c", c);
			else
				snprintf(tmp, sizeof(tmp), "\\u%04X", c);
			g_puts(g, tmp);
		}
		else if (cp < 0x20)
		{
			static const char short_esc[] = {'b', 'f', 'n', 'r', 't'};
			static const unsigned char ctl[] = {'\b', '\f', '\n', '\r', '\t'};
			int			k;

			for (k = 0; k < 5 && ctl[k] != cp; k++)
				;
			if (k < 5 && g_rand(2))
				snprintf(tmp, sizeof(tmp), "\\%c", short_esc[k]);
			else
				snprintf(tmp, sizeof(tmp), "\\u%04x", cp);
			g_puts(g, tmp);
		}
		else if (cp == '/' && g_rand(4) < (unsigned) esc)
			g_puts(g, "\\/");
		else if ((int) g_rand(8) < esc)
		{
			if (cp >= 0x10000)
			{
				uint32_t	v = cp - 0x10000;

				snprintf(tmp, sizeof(tmp), g_rand(2) ? "\\u%04x\\u%04x" : "\\u%04X\\u%04X",
						 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF));
			}
			else
				snprintf(tmp, sizeof(tmp), g_rand(2) ? "\\u%04x" : "\\u%04X", cp);
			g_puts(g, tmp);
		}
		else
			g_put(g, s + i, len);
		i += len;
	}
	g_puts(g, "\"");
}

/* A random JSON number. */
static void
g_number(gbuf *g)
{
	char		tmp[64];
	size_t		n = 0;
	int			k,
				d;

	if (g_rand(4) == 0)
		tmp[n++] = '-';
	if (g_rand(4) == 0)
		tmp[n++] = '0';
	else
	{
		d = 1 + (int) g_rand(g_rand(8) ? 6 : 24);
		tmp[n++] = (char) ('1' + g_rand(9));
		for (k = 1; k < d; k++)
			tmp[n++] = (char) ('0' + g_rand(10));
	}
	if (g_rand(2))
	{
		tmp[n++] = '.';
		d = 1 + (int) g_rand(10);
		for (k = 0; k < d; k++)
			tmp[n++] = (char) ('0' + (g_rand(3) ? g_rand(10) : 5));
	}
	if (g_rand(5) == 0)
	{
		tmp[n++] = g_rand(2) ? 'e' : 'E';
		if (g_rand(2))
			tmp[n++] = g_rand(2) ? '+' : '-';
		d = 1 + (int) g_rand(3);
		for (k = 0; k < d; k++)
			tmp[n++] = (char) ('0' + g_rand(10));
	}
	g_put(g, tmp, n);
}

/* Texts strings are made of: keys of the specs, escapes, UTF-8, junk. */
static const char *const g_words[] = {
	"u", "d", "r", "h", "m", "t", "st", "req", "uri", "dur", "request", "duration", "status",
	"api", "v1", "users", "42", "7", "0", "x", "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
	"0123456789abcdef0123", "caf\xc3\xa9", "\xf0\x9f\x98\x80", "\xe2\x82\xac", "a b", "q\"x",
	"back\\slash", "tab\there", "nl\n", "\x01", "\xff\xfe", "?", "?q=1&b=2", "/", "//", "-", ""
};

/* A random string built from g_words. */
static void
g_random_string(gbuf *g)
{
	gbuf		t = {0};
	int			k,
				n = (int) g_rand(5);

	for (k = 0; k < n; k++)
		g_puts(&t, g_words[g_rand(sizeof(g_words) / sizeof(g_words[0]))]);
	if (g_rand(40) == 0)
		g_puts(g, "\"lone\\ud800\"");
	else if (g_rand(60) == 0)
		g_puts(g, "\"nul\\u0000\"");
	else
		g_string(g, t.b ? t.b : "", t.n);
	free(t.b);
}

static void g_value(gbuf *g, int depth);

/* A random object or array, depth levels deep at most. */
static void
g_container(gbuf *g, int depth, int obj)
{
	int			k,
				n = (int) g_rand(4);

	g_puts(g, obj ? "{" : "[");
	g_ws(g);
	for (k = 0; k < n; k++)
	{
		if (k)
		{
			g_puts(g, ",");
			g_ws(g);
		}
		if (obj)
		{
			g_random_string(g);
			g_ws(g);
			g_puts(g, ":");
			g_ws(g);
		}
		g_value(g, depth - 1);
		g_ws(g);
	}
	g_puts(g, obj ? "}" : "]");
}

/* Any random value. */
static void
g_value(gbuf *g, int depth)
{
	switch (g_rand(depth > 0 ? 8 : 6))
	{
		case 0:
		case 1:
			g_random_string(g);
			break;
		case 2:
		case 3:
			g_number(g);
			break;
		case 4:
			g_puts(g, g_rand(3) == 0 ? "true" : g_rand(2) ? "false" : "null");
			break;
		case 5:
			g_puts(g, g_rand(2) ? "{}" : "[]");
			break;
		default:
			g_container(g, depth, g_rand(2));
			break;
	}
}

/* A value for field f of a spec (a request line, a time of kind): mostly good, now and then not. */
static void
g_field(gbuf *g, int f, int request, lp_time_kind kind)
{
	static const char *const segs[] = {"api", "v1", "users", "42", "7", "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
	"0123456789abcdef0123", "caf\xc3\xa9", "\xf0\x9f\x98\x80", "a b", "q\"x", "b\\s", "1", "12", "x.json", ""};
	static const char *const methods[] = {"GET", "POST", "DELETE", "M-SEARCH", "G{T", "-", "", "G T"};
	gbuf		t = {0};
	int			k,
				n;

	if (g_rand(25) == 0)
	{
		g_value(g, 2);			/* any type at all */
		return;
	}
	switch (f)
	{
		case LP_JF_ROUTE:
			if (request)
			{
				g_puts(&t, g_rand(20) ? methods[g_rand(4)] : methods[g_rand(8)]);
				g_puts(&t, g_rand(40) ? " " : g_rand(2) ? "  " : "\t");
			}
			if (g_rand(10) == 0)
				g_puts(&t, g_rand(2) ? "http://example.com" : "https://ex.org:8443");
			n = (int) g_rand(5);
			for (k = 0; k < n || (k == 0 && g_rand(10)); k++)
			{
				g_puts(&t, "/");
				g_puts(&t, segs[g_rand(sizeof(segs) / sizeof(segs[0]))]);
			}
			if (g_rand(3) == 0)
				g_puts(&t, g_rand(2) ? "?q=1&b=/2/3" : "?");
			if (g_rand(30) == 0)
			{
				t.n = 0;
				g_puts(&t, g_rand(2) ? "*" : g_rand(2) ? "-" : "PRI * HTTP/2.0");
			}
			if (request && g_rand(4))
				g_puts(&t, g_rand(2) ? " HTTP/1.1" : " HTTP/2.0 extra");
			g_string(g, t.b ? t.b : "", t.n);
			break;
		case LP_JF_LATENCY:
			if (g_rand(6) == 0)
			{
				gbuf		num = {0};

				if (g_rand(8))
					g_number(&num);
				else
					g_puts(&num, g_rand(2) ? "-" : "12ms");
				g_string(g, num.b, num.n);
				free(num.b);
			}
			else if (g_rand(30) == 0)
				g_puts(g, "null");
			else
			{
				gbuf		num = {0};

				g_number(&num);
				/* mostly not negative: a latency */
				if (num.b[0] == '-' && g_rand(8))
					g_put(g, num.b + 1, num.n - 1);
				else
					g_put(g, num.b, num.n);
				free(num.b);
			}
			break;
		case LP_JF_STATUS:
			{
				/* the good ones first */
				static const char *const st[] = {"200", "404", "0", "\"200\"", "\"\"", "\"-\"", "null",
					"\"0\"", "503", "99", "1000", "20.5", "\"abc\"", "true", "-200"};

				g_puts(g, st[g_rand(g_rand(5) ? 9 : sizeof(st) / sizeof(st[0]))]);
			}
			break;
		case LP_JF_METHOD:
			g_puts(&t, methods[g_rand(g_rand(5) ? 4 : 8)]);
			g_string(g, t.b, t.n);
			break;
		case LP_JF_TIME:
			if (kind != LP_TIME_ISO8601 && kind != LP_TIME_CLF ? g_rand(8) != 0 : g_rand(8) == 0)
				g_number(g);
			else
			{
				g_puts(&t, g_rand(2) ? "2026-11-07T00:00:00.123Z" : "07/Nov/2026:01:00:00 +0100");
				g_string(g, t.b, t.n);
			}
			break;
		case LP_JF_HOST:
			g_puts(&t, g_rand(3) ? "example.com" : g_rand(2) ? "ex\xc3\xa4mple.org:8443" : g_rand(2) ? "" : "42");
			g_string(g, t.b, t.n);
			break;
	}
	free(t.b);
}

/* The keys of a path, split and unescaped; its number of keys. */
static int
g_split(const char *path, size_t n, char keys[][64], size_t *lens)
{
	int			k = 0;
	size_t		i = 0;

	for (;;)
	{
		lens[k] = 0;
		while (i < n && path[i] != '.')
		{
			if (path[i] == '\\')
				i++;
			keys[k][lens[k]++] = path[i++];
		}
		k++;
		if (i >= n)
			return k;
		i++;
	}
}

/*
 * An object holding the fields of spec whose paths go through prefix
 * (depth keys of path[] given), with random other members, all in a
 * random order; now and then a field left out, or given twice.
 */
static void
g_object(gbuf *g, const lp_json_spec *sp, char pk[][64], size_t *pl, int depth)
{
	struct
	{
		int			f;
		int			leaf;
		char		key[64];
		size_t		klen;
	}			m[24];
	char		near[LP_JF_COUNT][64];	/* this object's keys of the spec, for near misses */
	size_t		nearlen[LP_JF_COUNT];
	int			nnear = 0,
				nm = 0,
				f,
				k;

	for (f = 0; f < LP_JF_COUNT; f++)
	{
		char		keys[LP_JSON_PATH_KEYS][64];
		size_t		lens[LP_JSON_PATH_KEYS];
		int			nk,
					j,
					dup = 0;

		if (!(sp->fields & (1u << f)))
			continue;
		nk = g_split(sp->text + sp->path_off[f], sp->path_len[f], keys, lens);
		if (nk <= depth)
			continue;
		for (j = 0; j < depth; j++)
			if (lens[j] != pl[j] || memcmp(keys[j], pk[j], pl[j]) != 0)
				break;
		if (j < depth)
			continue;
		memcpy(near[nnear], keys[depth], lens[depth]);
		nearlen[nnear++] = lens[depth];
		/* one member for each next key (an inner key shared by fields once) */
		for (j = 0; j < nm; j++)
			if (m[j].klen == lens[depth] && memcmp(m[j].key, keys[depth], lens[depth]) == 0 && !m[j].leaf)
				dup = 1;
		if (dup)
			continue;
		if (g_rand(30) == 0)
			continue;			/* left out */
		for (k = 0; k < (g_rand(20) == 0 ? 2 : 1); k++)
		{
			m[nm].f = f;
			m[nm].leaf = nk == depth + 1;
			memcpy(m[nm].key, keys[depth], lens[depth]);
			m[nm].klen = lens[depth];
			nm++;
		}
	}
	for (k = (int) g_rand(5); k > 0 && nm < 24; k--)
	{
		m[nm].f = -1;
		m[nm].leaf = 1;
		m[nm].klen = 0;
		nm++;
	}
	/* shuffle */
	for (k = nm - 1; k > 0; k--)
	{
		int			j = (int) g_rand((unsigned) k + 1);
		__typeof__(m[0]) t = m[k];

		m[k] = m[j];
		m[j] = t;
	}
	g_puts(g, "{");
	g_ws(g);
	for (k = 0; k < nm; k++)
	{
		if (k)
		{
			g_puts(g, ",");
			g_ws(g);
		}
		if (m[k].f < 0 && nnear > 0 && g_rand(3) == 0)
		{
			/*
			 * a near miss of a wanted key: one byte changed (a middle one
			 * keeps its slot of the key tree) or one added before the last
			 */
			int			w = (int) g_rand((unsigned) nnear);
			char		nk[65];
			size_t		nl = nearlen[w];

			memcpy(nk, near[w], nl);
			if (g_rand(2) || nl == 64)
				nk[g_rand((unsigned) nl)] ^= 1 + (char) g_rand(3);
			else
			{
				nk[nl] = nk[nl - 1];
				nk[nl - 1] = 'q';
				nl++;
			}
			g_string(g, nk, nl);
		}
		else if (m[k].f < 0)
			g_random_string(g);
		else
			g_string(g, m[k].key, m[k].klen);
		g_ws(g);
		g_puts(g, ":");
		g_ws(g);
		if (m[k].f < 0)
			g_value(g, 3);
		else if (m[k].leaf)
			g_field(g, m[k].f, sp->request && m[k].f == LP_JF_ROUTE, sp->time_kind);
		else if (g_rand(40) == 0)
			g_value(g, 1);		/* not an object where the path goes on */
		else
		{
			memcpy(pk[depth], m[k].key, m[k].klen);
			pl[depth] = m[k].klen;
			g_object(g, sp, pk, pl, depth + 1);
		}
		g_ws(g);
	}
	g_puts(g, "}");
}

/* Mutate a line now and then: cut it, change, insert or delete a byte. */
static void
g_mutate(gbuf *g)
{
	static const char special[] = "{}[]\":,\\/ \t0e.-nu\x00\x1f\xff";
	size_t		at;

	if (g->n == 0 || g_rand(6))
		return;
	at = g_rand((unsigned) g->n);
	switch (g_rand(4))
	{
		case 0:
			g->n = at;
			break;
		case 1:
			g->b[at] = special[g_rand(sizeof(special) - 1)];
			break;
		case 2:
			memmove(g->b + at, g->b + at + 1, g->n - at - 1);
			g->n--;
			break;
		default:
			g_put(g, "x", 1);
			memmove(g->b + at + 1, g->b + at, g->n - at - 1);
			g->b[at] = special[g_rand(sizeof(special) - 1)];
			break;
	}
}

/*
 * Generated lines, compared field by field with the reference: random key
 * order, other members with nested objects and arrays, escapes everywhere,
 * keys given twice, wrong types, mutated bytes, under several specs and
 * every combination of options.
 */
void
test_json_differential(void)
{
	static const char *const specs[] = {
		"route=request.uri,method=request.method,host=request.host,status=status,latency=duration:s,time=ts:epoch",
		"route=RequestPath,method=RequestMethod,host=RequestHost,status=DownstreamStatus,latency=Duration:ns,time=StartUTC:iso8601",
		"request=r,latency=d:us,status=st,host=h",
		"request=req.line,method=req.m,latency=t.d:ms,time=t.at:clf,host=req.h",
		"route=u,latency=d:ms",
		"route=a.b.c.u,latency=a.b.d:s,status=a.st,host=h\\.x",
		/* keys sharing a slot of the key tree (lp_json_key_hash) */
		"route=uxi,latency=uyi:ms,status=uzi,method=u.i,host=u.ui",
	};
	int			s,
				iter,
				lines = 0,
				bad = 0,
				ok = 0,
				notjson = 0;
	int			by_status[LP_ST_COUNT] = {0};
	unsigned long walked = lp_json_walk_lines;

	g_rng = 20261107;
	for (s = 0; s < (int) (sizeof(specs) / sizeof(specs[0])); s++)
	{
		lp_json_spec sp;

		spec_of(specs[s], &sp);
		for (iter = 0; iter < 6000 && bad < 10; iter++)
		{
			gbuf		g = {0};
			char		pk[LP_JSON_PATH_KEYS][64];
			size_t		pl[LP_JSON_PATH_KEYS];
			unsigned	flags = (unsigned) g_rand(8);
			test_diff	d;

			flags = (flags & 1 ? LP_PARSE_KEEP_QUERY : 0) | (flags & 2 ? LP_PARSE_TEMPLATES : 0) |
				(flags & 4 ? LP_PARSE_HOST : 0) | (g_rand(8) == 0 ? LP_PARSE_LOGGED : 0);
			g_compact = g_rand(2);	/* half the lines for the walk of compact lines */
			g_ws(&g);
			g_object(&g, &sp, pk, pl, 0);
			g_ws(&g);
			g_mutate(&g);
			lines++;
			if (!json_vs_ref(&sp, g.b, g.n, flags, &d))
			{
				CHECK(0, "spec %d, flags %x: %s (line %s)", s, flags, diff_say(&d), diff_q(g.b, g.n));
				bad++;
			}
			else
			{
				lp_result	r;
				lp_status	st = jparse_n(&sp, g.b, g.n, flags, &r);

				ok += st == LP_ST_OK;
				notjson += st == LP_ST_NOT_JSON;
				by_status[st]++;
			}
			free(g.b);
		}
	}
	g_compact = 0;
	CHECK_EQ_I(bad, 0, "generated lines = the reference");
#ifdef __SSE2__
	/* the walk of compact lines took a good share (LP_ASSERTS checks each against the scan) */
	CHECK(lp_json_walk_lines - walked > (unsigned long) lines / 8, "the walk took %lu of %d lines",
		  lp_json_walk_lines - walked, lines);
#else
	CHECK(lp_json_walk_lines == walked, "no walk of compact lines without SSE2");
#endif
	/* the mix exercised every outcome */
	CHECK(ok > lines / 3 && notjson > lines / 20 && lines - ok - notjson > lines / 10,
		  "the mix: %d lines, %d good, %d not JSON, %d other errors", lines, ok, notjson,
		  lines - ok - notjson);
	printf("test_json_differential: %d lines (%lu by the walk of compact lines), %d good, %d not JSON, %d with another error:",
		   lines, lp_json_walk_lines - walked, ok, notjson, lines - ok - notjson);
	for (s = 0; s < LP_ST_COUNT; s++)
		if (by_status[s] && s != LP_ST_OK && s != LP_ST_NOT_JSON)
			printf(" %d of status %d", by_status[s], s);
	printf("\n");
	free(j_line);
	free(j_buf);
	j_line = j_buf = NULL;
}
