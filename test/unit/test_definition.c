/* test/unit/test_definition.c -- unit tests of nginx and Apache definitions (lp_definition.c): compiling, parsing, hostile input, and the built-in combined parser as a reference */

#include "test_harness.h"
#include "ref_combined.h"

#include <time.h>

#include "lp_definition.h"
#include "lp_templates.h"
#include "ref_definition.h"
#include "ref_escape.h"

/* The program most tests compile into (5 kB: not on the stack of every helper). */
static lp_def_program g_prog;

/* nginx's combined format followed by $request_time, as docs/formats.md gives it. */
#define NGX_COMBINED "'$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent " \
	"\"$http_referer\" \"$http_user_agent\" $request_time'"
#define APACHE_COMBINED_US "%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\" %D"

/* A splitmix64 step. */
static uint64_t
df_rand(uint64_t *s)
{
	uint64_t	z = (*s += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* Compile a NUL-terminated definition into prog. */
static lp_def_status
compile_into(lp_def_program *prog, lp_def_dialect d, const char *def, unsigned need, lp_def_error *err)
{
	return lp_definition_compile(d, def, strlen(def), need, 3600, prog, err);
}

/* Failures of the reference comparison, printed up to a few. */
static long g_ref_bad;

/*
 * Parse line[0..len) by prog with flags, and by the reference
 * (ref_definition.h): a difference is counted and its first few printed.
 * The route buffer is LP_ROUTE_BUF_SIZE(len) bytes of the heap, as the
 * glue's (AddressSanitizer watches its end).
 */
static lp_status
parse_n(const lp_def_program *prog, const char *line, size_t len, unsigned flags, lp_result *r)
{
	char	   *buf = malloc(LP_ROUTE_BUF_SIZE(len));
	char	   *rbuf = malloc(LP_ROUTE_BUF_SIZE(len));
	lp_parse_ctx ctx = {flags, buf};
	lp_parse_ctx rctx = {flags, rbuf};
	lp_result	want;
	lp_status	st,
				wst;
	test_diff	d;
	static char keep[1 << 16];

	memset(r, 0xAB, sizeof(*r));
	memset(&want, 0xCD, sizeof(want));
	st = lp_definition_parse(prog, line, len, &ctx, r);
	wst = ref_def_parse(prog, line, len, &rctx, &want);
	diff_init(&d);
	if (!ref_def_same(&d, line, st, r, wst, &want) && g_ref_bad++ < 5)
		CHECK(0, "parse vs ref_def_parse: %s (line %s, flags %u)", diff_say(&d), diff_q(line, len), flags);
	/* the route outlives this call: copied where the caller can read it */
	if (st == LP_ST_OK || (r->has & LP_HAS_ROUTE))
	{
		if (r->route >= buf && r->route < buf + LP_ROUTE_BUF_SIZE(len))
		{
			size_t		n = r->route_len < sizeof(keep) ? r->route_len : sizeof(keep);

			memcpy(keep, r->route, n);
			r->route = keep;
		}
	}
	free(buf);
	free(rbuf);
	return st;
}

/* parse_n for a NUL-terminated line. */
static lp_status
parse_s(const lp_def_program *prog, const char *line, unsigned flags, lp_result *r)
{
	return parse_n(prog, line, strlen(line), flags, r);
}

/* Does slice (p, n) equal the C string want (NULL: not checked)? */
static int
slice_eq(const char *p, size_t n, const char *want)
{
	return !want || (p && n == strlen(want) && memcmp(p, want, n) == 0);
}

/* One line and what it must give. */
typedef struct df_case
{
	const char *def;			/* the definition */
	const char *line;			/* a line */
	unsigned	flags;			/* LP_PARSE_* */
	lp_status	st;				/* its status */
	const char *route;			/* NULL: none (not checked when st fails) */
	long long	latency;		/* -1: not checked */
	int			status;			/* -1: not checked */
	const char *method;			/* NULL: not checked */
	const char *time;			/* NULL: not checked */
	const char *bad;			/* NULL: not checked */
} df_case;

/* Run a table of cases of one dialect. */
static void
run_cases(lp_def_dialect dialect, const df_case *cases, size_t n)
{
	size_t		i;

	for (i = 0; i < n; i++)
	{
		const df_case *c = &cases[i];
		lp_def_error err;
		lp_result	r;
		lp_status	st;

		memset(&err, 0, sizeof(err));
		if (!CHECK(compile_into(&g_prog, dialect, c->def, 0, &err) == LP_DEF_OK,
				   "compile %s: %s at %zu", c->def, err.message, err.pos))
			continue;
		st = parse_s(&g_prog, c->line, c->flags, &r);
		if (!CHECK(st == c->st, "%s | %s: status %d, want %d", c->def, c->line, st, c->st))
			continue;
		if (c->route && (st == LP_ST_OK || (r.has & LP_HAS_ROUTE)))
			CHECK((r.has & LP_HAS_ROUTE) && slice_eq(r.route, r.route_len, c->route),
				  "%s | %s: route %s, want \"%s\"", c->def, c->line,
				  (r.has & LP_HAS_ROUTE) ? diff_q(r.route, r.route_len) : "none", c->route);
		if (c->latency >= 0)
			CHECK((r.has & LP_HAS_LATENCY) && r.latency == c->latency,
				  "%s | %s: latency %lld, want %lld", c->def, c->line,
				  (r.has & LP_HAS_LATENCY) ? (long long) r.latency : -1LL, c->latency);
		if (c->status >= 0)
			CHECK((r.has & LP_HAS_STATUS) && r.status == c->status,
				  "%s | %s: status %d, want %d", c->def, c->line,
				  (r.has & LP_HAS_STATUS) ? r.status : -1, c->status);
		if (c->method)
			CHECK((r.has & LP_HAS_METHOD) && slice_eq(r.method, r.method_len, c->method),
				  "%s | %s: method", c->def, c->line);
		if (c->time)
			CHECK((r.has & LP_HAS_TIME) && slice_eq(r.time, r.time_len, c->time),
				  "%s | %s: time %s, want \"%s\"", c->def, c->line,
				  (r.has & LP_HAS_TIME) ? diff_q(r.time, r.time_len) : "none", c->time);
		if (c->bad)
			CHECK(slice_eq(r.bad, r.bad_len, c->bad), "%s | %s: bad %s, want \"%s\"", c->def,
				  c->line, diff_q(r.bad, r.bad_len), c->bad);
	}
}

/* nginx: every variable logp95 reads, quoting, joining, escapes, lists. */
void
test_definition_nginx(void)
{
	static const df_case cases[] = {
		/* the documented combined + $request_time */
		{NGX_COMBINED, "10.0.0.1 - frank [07/Nov/2026:12:00:05 +0100] \"GET /api/users?id=7 HTTP/1.1\" 200 512 \"-\" \"curl/8\" 0.214",
		0, LP_ST_OK, "/api/users", 214, 200, "GET", "07/Nov/2026:12:00:05 +0100", NULL},
		{NGX_COMBINED, "10.0.0.1 - frank [07/Nov/2026:12:00:05 +0100] \"GET /api/users?id=7 HTTP/1.1\" 200 512 \"-\" \"curl/8\" 0.214\r",
		LP_PARSE_KEEP_QUERY, LP_ST_OK, "/api/users?id=7", 214, 200, NULL, NULL, NULL},
		{NGX_COMBINED, "10.0.0.1 - frank [07/Nov/2026:12:00:05 +0100] \"GET /api/users/123 HTTP/1.1\" 200 512 \"-\" \"curl/8\" 0.0005",
		LP_PARSE_TEMPLATES, LP_ST_OK, "/api/users/:id", 1, 200, NULL, NULL, NULL},
		/* the issue's cases: fields in another order, rt=, an upstream time beside */
		{"'$remote_addr [$time_local] \"$request\" $status rt=$request_time urt=$upstream_response_time'",
			"10.0.0.1 [07/Nov/2026:12:00:05 +0100] \"GET /o HTTP/1.1\" 200 rt=0.012 urt=0.011",
		0, LP_ST_OK, "/o", 12, 200, NULL, NULL, NULL},
		{"'$remote_addr [$time_local] \"$request\" $status rt=$request_time urt=$upstream_response_time'",
			"10.0.0.1 [07/Nov/2026:12:00:05 +0100] \"GET /o HTTP/1.1\" 200 rt=0.012 urt=-",
		0, LP_ST_OK, "/o", 12, 200, NULL, NULL, NULL},
		{"'$remote_addr \"$request\" $request_time $upstream_response_time'",
			"10.0.0.1 \"GET /o HTTP/1.1\" 0.012 0.010, 0.001",
		0, LP_ST_OK, "/o", 12, -1, NULL, NULL, NULL},
		/* the upstream time alone: a list summed, "-" none */
		{"'\"$request\" $status $upstream_response_time'", "\"GET /u HTTP/1.1\" 502 0.010, 0.020 : 0.005",
		0, LP_ST_OK, "/u", 35, 502, NULL, NULL, NULL},
		{"'\"$request\" $status $upstream_response_time'", "\"GET /u HTTP/1.1\" 502 -",
		0, LP_ST_NO_LATENCY, "/u", -1, 502, NULL, NULL, "-"},
		{"'$upstream_response_time \"$request\"'", "0.010, 0.020 : - \"GET /v HTTP/1.1\"",
		0, LP_ST_OK, "/v", 30, -1, NULL, NULL, NULL},
		{"'$upstream_addr $upstream_status \"$request\" $request_time'",
			"10.0.0.1:80, 10.0.0.2:80 : unix:/tmp/s 502, 200 : 200 \"GET /l HTTP/1.1\" 0.004",
		0, LP_ST_OK, "/l", 4, -1, NULL, NULL, NULL},
		/* the route from $request_uri, $uri, $uri$is_args$args */
		{"'$status $request_time $request_uri'", "200 0.5 /a/b?c=1", 0, LP_ST_OK, "/a/b", 500, 200, NULL, NULL, NULL},
		{"'$status $request_time $request_uri'", "200 0.5 /a/b?c=1", LP_PARSE_KEEP_QUERY, LP_ST_OK, "/a/b?c=1", 500, 200, NULL, NULL, NULL},
		{"'$status $request_time $request_uri'", "200 0.5 http://h/abs?x", 0, LP_ST_OK, "/abs", 500, 200, NULL, NULL, NULL},
		{"'$status $request_time $request_uri'", "200 0.5 -", 0, LP_ST_BAD_REQUEST, NULL, 500, 200, NULL, NULL, "-"},
		{"'$request_method $uri$is_args$args $request_time'", "GET /p?x=1 0.002", 0, LP_ST_OK, "/p", 2, -1, "GET", NULL, NULL},
		{"'$request_method $uri$is_args$args $request_time'", "POST /p?x=1 0.002", LP_PARSE_KEEP_QUERY, LP_ST_OK, "/p?x=1", 2, -1, "POST", NULL, NULL},
		{"'$request_method $uri$is_args$args $request_time'", "GET /p 0.002", LP_PARSE_KEEP_QUERY, LP_ST_OK, "/p", 2, -1, NULL, NULL, NULL},
		{"'$uri $request_time'", "/only/the/path 1.000", 0, LP_ST_OK, "/only/the/path", 1000, -1, NULL, NULL, NULL},
		{"'$document_uri$is_args$query_string $request_time'", "/d?q=1 1.000", LP_PARSE_KEEP_QUERY, LP_ST_OK, "/d?q=1", 1000, -1, NULL, NULL, NULL},
		{"'$args $request_uri $request_time'", "q=1 /r?q=1 1.000", 0, LP_ST_OK, "/r", 1000, -1, NULL, NULL, NULL},
		{"'\"$request\" $uri $request_time'", "\"GET /r HTTP/1.1\" /u 1.000", 0, LP_ST_OK, "/r", 1000, -1, NULL, NULL, NULL},
		/* times */
		{"'$time_iso8601 $msec \"$request\" $request_time'", "2026-11-07T12:00:05+01:00 1794049205.123 \"GET /i HTTP/1.1\" 0.1",
		0, LP_ST_OK, "/i", 100, -1, NULL, "2026-11-07T12:00:05+01:00", NULL},
		{"'$msec \"$request\" $request_time'", "1794049205.123 \"GET /m HTTP/1.1\" 0.1",
		0, LP_ST_OK, "/m", 100, -1, NULL, "1794049205.123", NULL},
		{"'$time_local $request_time \"$request\"'", "07/Nov/2026:12:00:05 +0100 0.020 \"GET /t HTTP/1.1\"",
		0, LP_ST_OK, "/t", 20, -1, NULL, "07/Nov/2026:12:00:05 +0100", NULL},
		/* the host */
		{"'$host \"$request\" $request_time'", "example.com \"GET /login HTTP/1.1\" 0.1", LP_PARSE_HOST,
		LP_ST_OK, "example.com/login", 100, -1, NULL, NULL, NULL},
		{"'$host \"$request\" $request_time'", "example.com \"GET /login HTTP/1.1\" 0.1", 0,
		LP_ST_OK, "/login", 100, -1, NULL, NULL, NULL},
		{"'$server_name $http_host \"$request\" $request_time'", "a.example b.example:8080 \"GET /h HTTP/1.1\" 0.1",
		LP_PARSE_HOST, LP_ST_OK, "b.example:8080/h", 100, -1, NULL, NULL, NULL},
		/* ${name}, adjacent skipped fields, literal text around */
		{"'${remote_addr}-${request_time} \"${request}\"'", "1.2.3.4-0.250 \"GET /b HTTP/1.1\"",
		0, LP_ST_OK, "/b", 250, -1, NULL, NULL, NULL},
		{"'[$remote_addr$remote_port] \"$request\" $request_time'", "[1.2.3.4:5] \"GET /c HTTP/1.1\" 0.001",
		0, LP_ST_OK, "/c", 1, -1, NULL, NULL, NULL},
		/* escape=json: \" in a quoted field, \u00e9 in the route */
		{"escape=json '{\"t\":\"$time_iso8601\",\"r\":\"$request\",\"s\":$status,\"rt\":$request_time}'",
			"{\"t\":\"2026-11-07T12:00:05+01:00\",\"r\":\"GET /caf\\u00e9?q HTTP/1.1\",\"s\":200,\"rt\":0.003}",
		0, LP_ST_OK, "/caf\xc3\xa9", 3, 200, NULL, "2026-11-07T12:00:05+01:00", NULL},
		{"escape=json '{\"ua\":\"$http_user_agent\",\"r\":\"$request\",\"rt\":$request_time}'",
			"{\"ua\":\"a \\\"b\\\", c\",\"r\":\"GET /x HTTP/1.1\",\"rt\":0.001}",
		0, LP_ST_OK, "/x", 1, -1, NULL, NULL, NULL},
		{"escape=json '{\"r\":\"$request\",\"rt\":$request_time}'",
			"{\"r\":\"GET /q\\\"uote\\\\ HTTP/1.1\",\"rt\":0.001}",
		0, LP_ST_OK, "/q\"uote\\", 1, -1, NULL, NULL, NULL},
		/* escape=none: a raw quote, the field ends where the literal follows */
		{"escape=none '\"$http_user_agent\" \"$request\" $request_time'", "\"a\"b\\\" \"GET /n HTTP/1.1\" 0.1",
		0, LP_ST_OK, "/n", 100, -1, NULL, NULL, NULL},
		{"escape=none '\"$request\" $request_time'", "\"GET /n\\x22 HTTP/1.1\" 0.1",
		0, LP_ST_OK, "/n\\x22", 100, -1, NULL, NULL, NULL},
		/* nginx's default escaping undone in the route */
		{"'\"$request\" $request_time'", "\"GET /a\\x22b\\x5C HTTP/1.1\" 0.1", 0, LP_ST_OK, "/a\"b\\", 100, -1, NULL, NULL, NULL},
		{"'\"$request\" $request_time'", "\"GET /a\\x22b\\x5C HTTP/1.1\" 0.1", LP_PARSE_LOGGED, LP_ST_OK, "/a\\x22b\\x5C", 100, -1, NULL, NULL, NULL},
		/* the text as it stands in nginx.conf: pieces joined, comments, escapes, ';' */
		{"'$remote_addr '\n    # the request\n    '\"$request\" $request_time';", "1.2.3.4 \"GET /j HTTP/1.1\" 0.1",
		0, LP_ST_OK, "/j", 100, -1, NULL, NULL, NULL},
		{"\"$remote_addr\\t\\\"$request\\\" $request_time\"", "1.2.3.4\t\"GET /e HTTP/1.1\" 0.1",
		0, LP_ST_OK, "/e", 100, -1, NULL, NULL, NULL},
		{"  escape=default\t'$remote_addr' ' \"$request\" $request_time'  ", "1.2.3.4 \"GET /d HTTP/1.1\" 0.1",
		0, LP_ST_OK, "/d", 100, -1, NULL, NULL, NULL},
		{"$remote_addr \"$request\" $request_time;", "1.2.3.4 \"GET /w HTTP/1.1\" 0.1",
		0, LP_ST_OK, "/w", 100, -1, NULL, NULL, NULL},
		/* malformed lines */
		{NGX_COMBINED, "10.0.0.1 - - [07/Nov/2026:12:00:05 +0100] \"- http://localhost HTTP/1.0\" 400 0 \"-\" \"-\" 0.000",
		0, LP_ST_NOT_HTTP, NULL, 0, 400, NULL, "07/Nov/2026:12:00:05 +0100", "- http://localhost HTTP/1.0"},
		{NGX_COMBINED, "10.0.0.1 - - [07/Nov/2026:12:00:05 +0100] \"  \" 400 0 \"-\" \"-\" 0.000",
		0, LP_ST_NOT_HTTP, NULL, 0, 400, NULL, NULL, "  "},
		{NGX_COMBINED, "10.0.0.1 - - [07/Nov/2026:12:00:05 +0100] \"-\" 400 0 \"-\" \"-\" 0.000",
		0, LP_ST_BAD_REQUEST, NULL, 0, 400, NULL, NULL, "-"},
		{NGX_COMBINED, "10.0.0.1 - - [07/Nov/2026:12:00:05 +0100] \"GET / HTTP/1.1\" 200 0 \"-\" \"-\" abc",
		0, LP_ST_BAD_SECONDS, "/", -1, 200, NULL, NULL, "abc"},
		{NGX_COMBINED, "10.0.0.1 - - [07/Nov/2026:12:00:05 +0100] \"GET / HTTP/1.1\" 2000 0 \"-\" \"-\" 0.1",
		0, LP_ST_BAD_STATUS, "/", 100, -1, NULL, NULL, "2000"},
		{NGX_COMBINED, "10.0.0.1 - - [07/Nov/2026:12:00:05 +0100] \"GET / HTTP/1.1\" 000 0 \"-\" \"-\" 0.1",
		0, LP_ST_BAD_STATUS, "/", 100, -1, NULL, NULL, "000"},
		{NGX_COMBINED, "10.0.0.1 - - [07/Nov/2026:12:00:05 +0100] \"GET / HTTP/1.1\" 200 0 \"-\" \"-\"",
		0, LP_ST_TOO_FEW_FIELDS, NULL, -1, -1, NULL, NULL, NULL},
		{NGX_COMBINED, "10.0.0.1 - - [07/Nov/2026:12:00:05 +0100] \"GET / HTTP/1.1 200 0 \"-\" \"-\" 0.1",
		0, LP_ST_TOO_FEW_FIELDS, NULL, -1, -1, NULL, NULL, NULL},
		{NGX_COMBINED, "10.0.0.1 - - [07/Nov/2026:12:00:05 +0100] \"GET / HTTP/1.1 200 0 - - 0.1",
		0, LP_ST_UNTERMINATED, NULL, -1, -1, NULL, NULL, NULL},
		{NGX_COMBINED, "", 0, LP_ST_TOO_FEW_FIELDS, NULL, -1, -1, NULL, NULL, NULL},
		{"'\"$request\" $request_time \"$http_user_agent\"'", "\"GET / HTTP/1.1\" 0.1 \"ua\" extra",
		0, LP_ST_TOO_FEW_FIELDS, NULL, -1, -1, NULL, NULL, NULL},
		{"'\"$request\" $request_time \"$http_user_agent\"'", "\"GET / HTTP/1.1\" 0.1 \"ua\\\"",
		0, LP_ST_UNTERMINATED, NULL, -1, -1, NULL, NULL, NULL},
		{"'{\"r\":\"$request\",\"rt\":$request_time}'", "[\"r\":\"GET / HTTP/1.1\",\"rt\":0.1}",
		0, LP_ST_TOO_FEW_FIELDS, NULL, -1, -1, NULL, NULL, NULL},
	};
	lp_def_error err;
	lp_result	r;

	run_cases(LP_DEF_NGINX, cases, sizeof(cases) / sizeof(cases[0]));

	/* what the programs say the lines carry */
	CHECK(compile_into(&g_prog, LP_DEF_NGINX, NGX_COMBINED, LP_HAS_ROUTE | LP_HAS_LATENCY | LP_HAS_TIME, &err) == LP_DEF_OK &&
		  g_prog.has == (LP_HAS_ROUTE | LP_HAS_LATENCY | LP_HAS_STATUS | LP_HAS_METHOD | LP_HAS_TIME) &&
		  g_prog.unit == LP_UNIT_S && g_prog.time_kind == LP_TIME_CLF && g_prog.escape == LP_ESC_NGINX &&
		  g_prog.nsteps == 9 && g_prog.offset_sec == 3600 && !g_prog.latency_list,
		  "nginx combined: the program's fields, unit, time, escaping");
	CHECK(compile_into(&g_prog, LP_DEF_NGINX, "escape=json '$request $upstream_response_time $time_iso8601 $host'", 0, &err) == LP_DEF_OK &&
		  g_prog.escape == LP_ESC_JSON && g_prog.latency_list && g_prog.time_kind == LP_TIME_ISO8601 &&
		  (g_prog.has & LP_HAS_HOST), "nginx: escape=json, an upstream list, ISO time, a host");
	CHECK(compile_into(&g_prog, LP_DEF_NGINX, "escape=none '$msec $request'", 0, &err) == LP_DEF_OK &&
		  g_prog.escape == LP_ESC_NONE && g_prog.time_kind == LP_TIME_EPOCH && g_prog.unit == LP_UNIT_NONE,
		  "nginx: escape=none, $msec, no latency");
	/* a line may be cut anywhere and carries its time while the request is junk */
	compile_into(&g_prog, LP_DEF_NGINX, NGX_COMBINED, 0, &err);
	parse_s(&g_prog, "1 - - [07/Nov/2026:12:00:05 +0100] \"\x16\x03\" 400 0 \"-\" \"-\" 0.001", 0, &r);
	CHECK((r.has & LP_HAS_TIME) && (r.has & LP_HAS_LATENCY) && !(r.has & LP_HAS_ROUTE),
		  "a junk request: time and latency read, no route");
}

/* Apache, lighttpd, varnishncsa: every directive logp95 reads, modifiers, escapes. */
void
test_definition_apache(void)
{
	static const df_case cases[] = {
		{APACHE_COMBINED_US, "10.0.0.1 - - [07/Nov/2026:12:00:05 +0100] \"GET /a?b HTTP/1.1\" 200 5 \"-\" \"ua \\\"q\\\"\" 214500",
		0, LP_ST_OK, "/a", 215, 200, "GET", "07/Nov/2026:12:00:05 +0100", NULL},
		/* the quoted argument of httpd.conf, \" undone */
		{"\"%h %l %u %t \\\"%r\\\" %>s %b %D\"", "1 - - [07/Nov/2026:12:00:05 +0100] \"GET /cq HTTP/1.1\" 404 0 1500",
		0, LP_ST_OK, "/cq", 2, 404, NULL, NULL, NULL},
		{"%h \\\"%r\\\" %D", "1 \"GET /bq HTTP/1.1\" 1500", 0, LP_ST_OK, "/bq", 2, -1, NULL, NULL, NULL},
		{"'%h \"%r\" %D'", "1 \"GET /sq HTTP/1.1\" 1500", 0, LP_ST_OK, "/sq", 2, -1, NULL, NULL, NULL},
		{"\"%r\" %D", "\"GET /notconf HTTP/1.1\" 1500", 0, LP_ST_OK, "/notconf", 2, -1, NULL, NULL, NULL},
		/* units */
		{"\"%r\" %{ms}T", "\"GET /ms HTTP/1.1\" 214", 0, LP_ST_OK, "/ms", 214, -1, NULL, NULL, NULL},
		{"\"%r\" %{us}T", "\"GET /us HTTP/1.1\" 214500", 0, LP_ST_OK, "/us", 215, -1, NULL, NULL, NULL},
		{"\"%r\" %{ns}T", "\"GET /ns HTTP/1.1\" 214500000", 0, LP_ST_OK, "/ns", 215, -1, NULL, NULL, NULL},
		{"\"%r\" %{s}T", "\"GET /s HTTP/1.1\" 2", 0, LP_ST_OK, "/s", 2000, -1, NULL, NULL, NULL},
		{"\"%r\" %T", "\"GET /T HTTP/1.1\" 3", 0, LP_ST_OK, "/T", 3000, -1, NULL, NULL, NULL},
		{"\"%r\" %T", "\"GET /T HTTP/1.1\" 0.214", 0, LP_ST_OK, "/T", 214, -1, NULL, NULL, NULL},
		{"\"%r\" %D", "\"GET /D HTTP/1.1\" 0.214", 0, LP_ST_BAD_MICROS, "/D", -1, -1, NULL, NULL, "0.214"},
		/* the finest latency, the final status */
		{"%T %D \"%r\"", "1 1499 \"GET /p HTTP/1.1\"", 0, LP_ST_OK, "/p", 1, -1, NULL, NULL, NULL},
		{"%s %>s %<s \"%r\" %D", "302 200 301 \"GET /p HTTP/1.1\" 1", 0, LP_ST_OK, "/p", 0, 200, NULL, NULL, NULL},
		{"%<s %s \"%r\" %D", "301 302 \"GET /p HTTP/1.1\" 1", 0, LP_ST_OK, "/p", 0, 302, NULL, NULL, NULL},
		/* the route from %U%q, %U; the method from %m */
		{"%m %U%q %D", "GET /p?x 1500", 0, LP_ST_OK, "/p", 2, -1, "GET", NULL, NULL},
		{"%m %U%q %D", "GET /p?x 1500", LP_PARSE_KEEP_QUERY, LP_ST_OK, "/p?x", 2, -1, "GET", NULL, NULL},
		{"%U %D", "/only 1500", 0, LP_ST_OK, "/only", 2, -1, NULL, NULL, NULL},
		/* times */
		{"%{sec}t \"%r\" %D", "1794049205 \"GET /e HTTP/1.1\" 1", 0, LP_ST_OK, "/e", 0, -1, NULL, "1794049205", NULL},
		{"%{begin:msec}t \"%r\" %D", "1794049205123 \"GET /e HTTP/1.1\" 1", 0, LP_ST_OK, "/e", 0, -1, NULL, "1794049205123", NULL},
		{"[%{%d/%b/%Y:%H:%M:%S %z}t] \"%r\" %D", "[07/Nov/2026:12:00:05 +0100] \"GET /f HTTP/1.1\" 1",
		0, LP_ST_OK, "/f", 0, -1, NULL, "07/Nov/2026:12:00:05 +0100", NULL},
		{"%{%Y-%m-%dT%H:%M:%S}t %D \"%r\"", "2026-11-07T12:00:05 7 \"GET /g HTTP/1.1\"",
		0, LP_ST_OK, "/g", 0, -1, NULL, "2026-11-07T12:00:05", NULL},
		{"%{%Y-%m-%d %H:%M:%S}t \"%r\" %D", "2026-11-07 12:00:05 \"GET /x HTTP/1.1\" 1",
		0, LP_ST_OK, "/x", 0, -1, NULL, NULL, NULL},
		{"%{end:msec_frac}t \"%r\" %D", "123 \"GET /x HTTP/1.1\" 1", 0, LP_ST_OK, "/x", 0, -1, NULL, NULL, NULL},
		/* the host */
		{"%V \"%r\" %D", "h.example \"GET /x HTTP/1.1\" 1", LP_PARSE_HOST, LP_ST_OK, "h.example/x", 0, -1, NULL, NULL, NULL},
		{"%v %V \"%r\" %D", "a b \"GET /x HTTP/1.1\" 1", LP_PARSE_HOST, LP_ST_OK, "b/x", 0, -1, NULL, NULL, NULL},
		{"\"%{Host}i\" \"%r\" %D", "\"h:8\" \"GET /x HTTP/1.1\" 1", LP_PARSE_HOST, LP_ST_OK, "h:8/x", 0, -1, NULL, NULL, NULL},
		{"\"%{host}i\" %v \"%r\" %D", "\"h:8\" v \"GET /x HTTP/1.1\" 1", LP_PARSE_HOST, LP_ST_OK, "v/x", 0, -1, NULL, NULL, NULL},
		/* %%, modifiers and conditions, other directives skipped */
		{"100%% \"%r\" %D", "100% \"GET /pc HTTP/1.1\" 5", 0, LP_ST_OK, "/pc", 0, -1, NULL, NULL, NULL},
		{"\"%!200,304r\" %D", "\"-\" 5", 0, LP_ST_BAD_REQUEST, NULL, 0, -1, NULL, NULL, "-"},
		{"\"%!200,304r\" %D", "\"GET /c HTTP/1.1\" 5", 0, LP_ST_OK, "/c", 0, -1, NULL, NULL, NULL},
		{"%a %A %B %b %{c}C %{X}e %f %H %k %l %L %{N}n %{X}o %p %{remote}p %P %{tid}P %R %u %X %I %O %S %^ti %^to %^FB %{x}x %400,501{User-agent}i \"%r\" %D",
			"a A B b C e f H k l L n o p p P P R u X I O S ti to FB x ua \"GET /all HTTP/1.1\" 7",
		0, LP_ST_OK, "/all", 0, -1, NULL, NULL, NULL},
		/* \t and \n stand for themselves */
		{"%h\\t\"%r\"\\t%D", "1.2.3.4\t\"GET /tab HTTP/1.1\"\t1", 0, LP_ST_OK, "/tab", 0, -1, NULL, NULL, NULL},
		/* Apache's escapes undone in the route */
		{"\"%r\" %D", "\"GET /a\\\"b\\\\c\\xc3\\xa9 HTTP/1.1\" 1", 0, LP_ST_OK, "/a\"b\\c\xc3\xa9", 0, -1, NULL, NULL, NULL},
		/* lighttpd's default accesslog.format, with %D */
		{"%h %V %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\" %D",
			"1.2.3.4 h.example - [07/Nov/2026:12:00:05 +0100] \"GET /lt HTTP/1.1\" 200 5 \"-\" \"curl\" 2500",
		LP_PARSE_HOST, LP_ST_OK, "h.example/lt", 3, 200, NULL, NULL, NULL},
		/* varnishncsa: %r with the host; its placeholder */
		{"%h %l %u %t \"%r\" %s %b \"%{Referer}i\" \"%{User-agent}i\" %D",
			"1.2.3.4 - - [07/Nov/2026:12:00:05 +0100] \"GET http://localhost/vp?x HTTP/1.1\" 200 5 \"-\" \"curl\" 2500",
		0, LP_ST_OK, "/vp", 3, 200, NULL, NULL, NULL},
		{"%h %l %u %t \"%r\" %s %b \"%{Referer}i\" \"%{User-agent}i\" %D",
			"1.2.3.4 - - [07/Nov/2026:12:00:05 +0100] \"- http://localhost HTTP/1.0\" 400 5 \"-\" \"-\" 2500",
		0, LP_ST_NOT_HTTP, NULL, 3, 400, NULL, NULL, "- http://localhost HTTP/1.0"},
		/* varnishncsa's piped request (and Apache's status <= 0): "-", no status, counts */
		{"%h %t \"%r\" %s %b %D \"%{User-agent}i\"",
			"127.0.0.3 [01/Dec/2026:16:47:30 +0000] \"PROPFIND http://localhost/dav/notes.txt HTTP/1.1\" - - 3307 \"-\"",
		0, LP_ST_OK, "/dav/notes.txt", 3, -1, NULL, NULL, NULL},
		{"%h %>s %D \"%r\"", "1.2.3.4 -- 5 \"GET /x HTTP/1.1\"",
		0, LP_ST_BAD_STATUS, NULL, 0, -1, NULL, NULL, "--"},
	};
	lp_def_error err;

	run_cases(LP_DEF_APACHE, cases, sizeof(cases) / sizeof(cases[0]));
	CHECK(compile_into(&g_prog, LP_DEF_APACHE, APACHE_COMBINED_US, LP_HAS_ROUTE | LP_HAS_LATENCY, &err) == LP_DEF_OK &&
		  g_prog.unit == LP_UNIT_US && g_prog.time_kind == LP_TIME_CLF && g_prog.escape == LP_ESC_APACHE &&
		  g_prog.nsteps == 10 && g_prog.lead_len == 0,
		  "Apache combined %D: the program's unit, time, escaping, fields");
	CHECK(compile_into(&g_prog, LP_DEF_APACHE, "%{msec}t %{usec}t \"%r\" %{ns}T", 0, &err) == LP_DEF_OK &&
		  g_prog.time_kind == LP_TIME_EPOCH_MS && g_prog.unit == LP_UNIT_NS, "Apache: %{msec}t first, %{ns}T");
	CHECK(compile_into(&g_prog, LP_DEF_APACHE, "%{usec}t \"%r\"", 0, &err) == LP_DEF_OK &&
		  g_prog.time_kind == LP_TIME_EPOCH_US, "Apache: %{usec}t");
}

/* One definition that must not compile. */
typedef struct df_bad
{
	lp_def_dialect dialect;
	const char *def;
	unsigned	need;
	lp_def_status st;
	size_t		pos;
	const char *message;		/* a part of the message */
	const char *hint;			/* a part of the hint, or NULL for none */
} df_bad;

/* Compile errors: each with its status, position, message and hint. */
void
test_definition_errors(void)
{
	static const df_bad cases[] = {
		{LP_DEF_NGINX, "'$status$request_time'", 0, LP_DEF_AMBIGUOUS, 8, "\"$request_time\" follows \"$status\"", NULL},
		{LP_DEF_NGINX, "'$remote_addr '\n'$status$request_time'", 0, LP_DEF_AMBIGUOUS, 24, "follows", NULL},
		{LP_DEF_NGINX, "'$request_time$uri'", 0, LP_DEF_AMBIGUOUS, 14, "\"$uri\" follows", NULL},
		{LP_DEF_NGINX, "'$remote_addr $status'", LP_HAS_ROUTE | LP_HAS_LATENCY, LP_DEF_NO_LATENCY, 0,
		"no latency", "Add $request_time to your log_format."},
		{LP_DEF_NGINX, "escape=json '$request_time'", LP_HAS_ROUTE | LP_HAS_LATENCY, LP_DEF_NO_ROUTE, 12,
		"no request", "$request"},
		{LP_DEF_NGINX, "'\"$request\" $request_time'", LP_HAS_TIME, LP_DEF_NO_TIME, 0, "no time", "$time_local"},
		{LP_DEF_NGINX, "'\"$request\" $request_time'", LP_HAS_HOST, LP_DEF_NO_HOST, 0, "no host", "$host"},
		{LP_DEF_NGINX, "escape=xml '$request'", 0, LP_DEF_UNKNOWN, 7, "\"xml\"", "default, json or none"},
		{LP_DEF_NGINX, "'$request", 0, LP_DEF_SYNTAX, 0, "no closing '", NULL},
		{LP_DEF_NGINX, "'$ x'", 0, LP_DEF_SYNTAX, 1, "no variable name", NULL},
		{LP_DEF_NGINX, "'$'", 0, LP_DEF_SYNTAX, 1, "no variable name", NULL},
		{LP_DEF_NGINX, "'${request'", 0, LP_DEF_SYNTAX, 1, "closing bracket", NULL},
		{LP_DEF_NGINX, "'${re-quest}'", 0, LP_DEF_SYNTAX, 1, "closing bracket", NULL},
		{LP_DEF_NGINX, "'${}'", 0, LP_DEF_SYNTAX, 1, "no variable name", NULL},
		{LP_DEF_NGINX, "'$request'; $x", 0, LP_DEF_SYNTAX, 12, "after the \";\"", NULL},
		{LP_DEF_NGINX, "", 0, LP_DEF_SYNTAX, 0, "empty", NULL},
		{LP_DEF_NGINX, "escape=json  ", 0, LP_DEF_SYNTAX, 13, "empty", NULL},
		{LP_DEF_NGINX, "'' ''", 0, LP_DEF_SYNTAX, 0, "empty", NULL},
		{LP_DEF_APACHE, "%h %Z", 0, LP_DEF_UNKNOWN, 3, "unknown directive \"%Z\"", NULL},
		{LP_DEF_APACHE, "%h %>{x}Q", 0, LP_DEF_UNKNOWN, 3, "\"%>{x}Q\"", NULL},
		{LP_DEF_APACHE, "%h %^xx", 0, LP_DEF_UNKNOWN, 3, "\"%^xx\"", NULL},
		{LP_DEF_APACHE, "%h %", 0, LP_DEF_SYNTAX, 3, "no directive", NULL},
		{LP_DEF_APACHE, "%h %>", 0, LP_DEF_SYNTAX, 3, "no directive", NULL},
		{LP_DEF_APACHE, "%h %{User-Agent", 0, LP_DEF_SYNTAX, 3, "no closing", NULL},
		{LP_DEF_APACHE, "%r %{xs}T", 0, LP_DEF_UNKNOWN, 3, "unknown unit \"xs\"", "s, ms, us and ns"},
		{LP_DEF_APACHE, "%r %{%c}t %D", 0, LP_DEF_UNKNOWN, 5, "\"%c\"", "%d/%b/%Y"},
		{LP_DEF_APACHE, "%r %{%H%M}t", 0, LP_DEF_OK, 0, "", NULL},
		{LP_DEF_APACHE, "\"%r\" %D%T", 0, LP_DEF_AMBIGUOUS, 7, "\"%T\" follows \"%D\"", NULL},
		{LP_DEF_APACHE, "\"%h \\\"%r\\\" %D%T\"", 0, LP_DEF_AMBIGUOUS, 13, "follows", NULL},
		{LP_DEF_APACHE, "%h \"%r\"", LP_HAS_ROUTE | LP_HAS_LATENCY, LP_DEF_NO_LATENCY, 0, "no latency", "%D"},
		{LP_DEF_APACHE, "  %D %h", LP_HAS_ROUTE | LP_HAS_LATENCY, LP_DEF_NO_ROUTE, 2, "no request", "%r"},
		{LP_DEF_APACHE, "%r %D", LP_HAS_TIME, LP_DEF_NO_TIME, 0, "no time", "%t"},
		{LP_DEF_APACHE, "%r %D", LP_HAS_HOST, LP_DEF_NO_HOST, 0, "no host", "%v"},
		{LP_DEF_APACHE, " \t ", 0, LP_DEF_SYNTAX, 3, "empty", NULL},
		{LP_DEF_APACHE, "\"\"", 0, LP_DEF_SYNTAX, 1, "empty", NULL},
	};
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		const df_bad *c = &cases[i];
		lp_def_error err;
		lp_def_status st = compile_into(&g_prog, c->dialect, c->def, c->need, &err);

		if (!CHECK(st == c->st, "compile %s: status %d (%s), want %d", diff_q(c->def, strlen(c->def)),
				   st, err.message, c->st) || st == LP_DEF_OK)
			continue;
		CHECK(err.status == st && err.pos == c->pos && strstr(err.message, c->message) != NULL &&
			  ((c->hint == NULL) == (err.hint == NULL)) && (!c->hint || strstr(err.hint, c->hint)),
			  "compile %s: at %zu \"%s\" (hint %s), want at %zu \"...%s...\"",
			  diff_q(c->def, strlen(c->def)), err.pos, err.message, err.hint ? err.hint : "none",
			  c->pos, c->message);
		CHECK(g_prog.nsteps == 0 && g_prog.has == 0, "a definition that failed gives an empty program");
	}

	/* the limits */
	{
		static char def[LP_DEF_MAX_LEN * 2];
		lp_def_error err;
		size_t		k,
					n;

		memset(def, 'x', LP_DEF_MAX_LEN + 1);
		CHECK(lp_definition_compile(LP_DEF_APACHE, def, LP_DEF_MAX_LEN + 1, 0, 0, &g_prog, &err) == LP_DEF_TOO_BIG &&
			  err.pos == LP_DEF_MAX_LEN, "a definition past %d bytes", LP_DEF_MAX_LEN);
		for (n = 0, k = 0; k <= LP_DEF_MAX_FIELDS; k++)
			n += (size_t) sprintf(def + n, "%%h ");
		CHECK(lp_definition_compile(LP_DEF_APACHE, def, n, 0, 0, &g_prog, &err) == LP_DEF_TOO_BIG &&
			  err.pos == 3 * LP_DEF_MAX_FIELDS && strstr(err.message, "fields"),
			  "more than %d fields (at %zu: %s)", LP_DEF_MAX_FIELDS, err.pos, err.message);
		CHECK(lp_definition_compile(LP_DEF_APACHE, def, n - 3, 0, 0, &g_prog, &err) == LP_DEF_OK &&
			  g_prog.nsteps == LP_DEF_MAX_FIELDS, "exactly %d fields", LP_DEF_MAX_FIELDS);
		/* 256 bytes of literal (255 "a" and a blank) before %r, then 257 */
		memset(def, 'a', LP_DEF_MAX_LITERAL);
		memcpy(def + LP_DEF_MAX_LITERAL, " %r", 3);
		CHECK(lp_definition_compile(LP_DEF_APACHE, def + 1, LP_DEF_MAX_LITERAL + 2, 0, 0, &g_prog, &err) == LP_DEF_OK &&
			  g_prog.lead_len == LP_DEF_MAX_LITERAL, "a literal of %d bytes", LP_DEF_MAX_LITERAL);
		CHECK(lp_definition_compile(LP_DEF_APACHE, def, LP_DEF_MAX_LITERAL + 3, 0, 0, &g_prog, &err) == LP_DEF_TOO_BIG &&
			  err.pos == LP_DEF_MAX_LITERAL, "a literal past %d bytes", LP_DEF_MAX_LITERAL);
	}
}

/* Mutate a line: each byte may become a quote, a backslash, a blank, or go. */
static size_t
mutate(const char *in, size_t n, char *out, uint64_t *seed)
{
	static const char repl[] = "\"\\ \t[]-?x\r";
	size_t		i,
				o = 0;

	for (i = 0; i < n; i++)
	{
		uint64_t	r = df_rand(seed);

		if (r % 23 == 0)
			continue;
		out[o++] = r % 19 == 0 ? repl[(r >> 8) % (sizeof(repl) - 1)] : in[i];
	}
	return o;
}

/*
 * Hostile lines: good lines cut at every byte and mutated, by several
 * programs, against the reference; long lines of quotes, blanks and
 * backslashes end in time linear in their length (printed, not asserted).
 */
void
test_definition_hostile_lines(void)
{
	static const struct
	{
		lp_def_dialect dialect;
		const char *def;
		const char *line;
	}			progs[] = {
		{LP_DEF_NGINX, NGX_COMBINED,
		"10.0.0.1 - frank [07/Nov/2026:12:00:05 +0100] \"GET /api/users?id=7 HTTP/1.1\" 200 512 \"https://r/\" \"curl/8 (x; y)\" 0.214"},
		{LP_DEF_APACHE, APACHE_COMBINED_US,
		"10.0.0.1 - - [07/Nov/2026:12:00:05 +0100] \"GET /a\\\"b?c HTTP/1.1\" 200 5 \"-\" \"ua \\\"q\\\"\" 214500"},
		{LP_DEF_NGINX, "escape=json '{\"t\":\"$time_iso8601\",\"r\":\"$request\",\"u\":\"$upstream_response_time\",\"rt\":$request_time}'",
		"{\"t\":\"2026-11-07T12:00:05+01:00\",\"r\":\"GET /j\\\"k HTTP/1.1\",\"u\":\"0.1, 0.2 : -\",\"rt\":0.3}"},
		{LP_DEF_NGINX, "'$time_local $upstream_addr $upstream_response_time \"$request\"'",
		"07/Nov/2026:12:00:05 +0100 1.2.3.4:80, 5.6.7.8:80 0.001, 0.002 \"GET /l HTTP/1.1\""},
		{LP_DEF_NGINX, "escape=none '\"$request\" \"$http_user_agent\" $request_time'",
		"\"GET /n HTTP/1.1\" \"raw \"quote\" 0.001"},
	};
	uint64_t	seed = 1;
	long		lines = 0;
	size_t		k;

	g_ref_bad = 0;
	for (k = 0; k < sizeof(progs) / sizeof(progs[0]); k++)
	{
		static lp_def_program prog;
		lp_def_error err;
		const char *line = progs[k].line;
		size_t		n = strlen(line),
					cut;
		int			round;
		lp_result	r;

		if (!CHECK(compile_into(&prog, progs[k].dialect, progs[k].def, 0, &err) == LP_DEF_OK,
				   "hostile: compile %s: %s", progs[k].def, err.message))
			continue;
		CHECK(parse_n(&prog, line, n, 0, &r) == LP_ST_OK, "hostile: the good line of %s parses", progs[k].def);
		for (cut = 0; cut <= n; cut++)
		{
			char	   *c = malloc(cut + (cut == 0));	/* exactly the line: ASan sees a read past it */

			memcpy(c, line, cut);
			parse_n(&prog, c, cut, LP_PARSE_KEEP_QUERY | LP_PARSE_TEMPLATES | LP_PARSE_HOST, &r);
			parse_n(&prog, c, cut, 0, &r);
			free(c);
			lines += 2;
		}
		for (round = 0; round < 3000; round++)
		{
			char		m[512];
			size_t		mn = mutate(line, n, m, &seed);
			char	   *c = malloc(mn + (mn == 0));

			memcpy(c, m, mn);
			parse_n(&prog, c, mn, (unsigned) (round & 0xE5), &r);
			free(c);
			lines++;
		}
	}
	CHECK(g_ref_bad == 0, "hostile: %ld cut and mutated lines agree with the reference (%ld differ)",
		  lines, g_ref_bad);

	/* long lines: linear time, the reference's answer */
	{
		static const char *const fills[] = {"\"", " ", "\\\"", "\" ", "a", "[", "\\", "0.1, "};
		size_t		big = (size_t) 1 << 20;
		char	   *l = malloc(big);
		size_t		f;

		for (k = 0; k < sizeof(progs) / sizeof(progs[0]); k++)
		{
			static lp_def_program prog;
			lp_def_error err;

			compile_into(&prog, progs[k].dialect, progs[k].def, 0, &err);
			for (f = 0; f < sizeof(fills) / sizeof(fills[0]); f++)
			{
				size_t		fl = strlen(fills[f]),
							i;
				lp_result	r;
				clock_t		t0;
				double		ms;

				for (i = 0; i < big; i++)
					l[i] = fills[f][i % fl];
				/* 64 kB against the reference, 1 MB timed */
				g_ref_bad = 0;
				parse_n(&prog, l, 65536, 0, &r);
				CHECK(g_ref_bad == 0, "hostile: 64 kB of %s by %s agree with the reference",
					  diff_q(fills[f], fl), progs[k].def);
				t0 = clock();
				{
					char	   *buf = malloc(LP_ROUTE_BUF_SIZE(big));
					lp_parse_ctx ctx = {LP_PARSE_TEMPLATES, buf};

					lp_definition_parse(&prog, l, big, &ctx, &r);
					free(buf);
				}
				ms = (double) (clock() - t0) * 1000.0 / CLOCKS_PER_SEC;
				if (k == 0 && (f == 0 || f == 2))
					printf("  1 MB of %s by the nginx combined program: %.1f ms\n", diff_q(fills[f], fl), ms);
			}
		}
		/* the longest literal, 256 bytes, on a line of its first 255 bytes repeated: O(n * 256) at most */
		{
			char		def[LP_DEF_MAX_LITERAL + 16];
			static lp_def_program prog;
			lp_def_error err;
			lp_result	r;
			clock_t		t0;
			size_t		i;

			def[0] = '%';
			def[1] = 'h';
			memset(def + 2, 'a', LP_DEF_MAX_LITERAL - 1);
			def[LP_DEF_MAX_LITERAL + 1] = 'b';
			memcpy(def + LP_DEF_MAX_LITERAL + 2, "%r", 3);
			CHECK(compile_into(&prog, LP_DEF_APACHE, def, 0, &err) == LP_DEF_OK, "hostile: a 256-byte literal");
			for (i = 0; i < big; i++)
				l[i] = 'a';
			t0 = clock();
			CHECK(lp_definition_parse(&prog, l, big, NULL, &r) == LP_ST_TOO_FEW_FIELDS,
				  "hostile: the literal is not in 1 MB of its first byte");
			printf("  1 MB of \"a\" against a literal of 255 \"a\" and a \"b\": %.1f ms\n",
				   (double) (clock() - t0) * 1000.0 / CLOCKS_PER_SEC);
		}
		free(l);
	}
}

/*
 * Hostile definitions: random text of the definitions' own bytes compiles
 * to a program or to an error inside the text, never a crash; the programs
 * parse random lines as the reference does.
 */
void
test_definition_hostile_definitions(void)
{
	static const char alpha[] = "$%{}'\" \\abc_-><!,019TtDrsmUqvVi;#\n[]xy";
	static const char *const vars[] = {
		"$request", "$request_time", "$status", "$time_local", "$uri", "$is_args", "$args",
		"$upstream_response_time", "$host", "%r", "%D", "%>s", "%t", "%U", "%q", "%{ms}T", "%{sec}t",
		"\"", " ", "'", "escape=json ", "[", "]", "\\\"", "%%", "${request}", "$msec"
	};
	uint64_t	seed = 42;
	long		ok = 0,
				errors = 0,
				parsed = 0;
	int			round;

	g_ref_bad = 0;
	for (round = 0; round < 20000; round++)
	{
		char		def[400];
		size_t		n = 0,
					k,
					len = df_rand(&seed) % 60;
		lp_def_error err;
		lp_def_status st;
		int			d;

		for (k = 0; k < len && n < sizeof(def) - 32; k++)
		{
			uint64_t	r = df_rand(&seed);

			if (r % 3 == 0)
			{
				const char *v = vars[(r >> 8) % (sizeof(vars) / sizeof(vars[0]))];

				memcpy(def + n, v, strlen(v));
				n += strlen(v);
			}
			else
				def[n++] = alpha[(r >> 8) % (sizeof(alpha) - 1)];
		}
		for (d = 0; d < 2; d++)
		{
			st = lp_definition_compile(d ? LP_DEF_APACHE : LP_DEF_NGINX, def, n, (unsigned) (round & 0x33), 0,
									   &g_prog, &err);
			if (st != LP_DEF_OK)
			{
				errors++;
				if (!CHECK(err.status == st && err.pos <= n && err.message[0] != '\0' &&
						   memchr(err.message, '\0', sizeof(err.message)) != NULL,
						   "hostile definition %s: error at %zu of %zu", diff_q(def, n), err.pos, n))
					break;
				continue;
			}
			ok++;
			CHECK(g_prog.nsteps <= LP_DEF_MAX_FIELDS && g_prog.lits_len <= LP_DEF_MAX_LEN,
				  "hostile definition: a program inside its limits");
			/* lines built from the program's own literals and field-like text */
			for (k = 0; k < 8; k++)
			{
				char		line[600];
				size_t		ln = 0;
				int			i;
				lp_result	r;

				memcpy(line, g_prog.lits, g_prog.lead_len);
				ln = g_prog.lead_len;
				for (i = 0; i < g_prog.nsteps && ln < 400; i++)
				{
					static const char *const fields[] = {
						"GET /a?b HTTP/1.1", "0.123", "200", "-", "07/Nov/2026:12:00:05 +0100",
						"a\\\"b", "0.1, 0.2", "", "x y", "\""
					};
					const char *fv = fields[df_rand(&seed) % (sizeof(fields) / sizeof(fields[0]))];

					memcpy(line + ln, fv, strlen(fv));
					ln += strlen(fv);
					if (df_rand(&seed) % 8)
					{
						memcpy(line + ln, g_prog.lits + g_prog.steps[i].lit_off, g_prog.steps[i].lit_len);
						ln += g_prog.steps[i].lit_len;
					}
				}
				parse_n(&g_prog, line, ln, (unsigned) df_rand(&seed) & 0xE5, &r);
				parsed++;
			}
		}
	}
	CHECK(g_ref_bad == 0, "hostile definitions: %ld lines by %ld programs agree with the reference (%ld differ)",
		  parsed, ok, g_ref_bad);
	CHECK(ok > 1000 && errors > 1000, "hostile definitions: both programs (%ld) and errors (%ld)", ok, errors);
}

/*
 * The differential test against the built-in parser: the generator's
 * combined lines, read by the program of the documented nginx combined +
 * $request_time definition and by lp_parse_combined, give the same route,
 * latency and time text, line for line; and its combined_us lines by the
 * Apache %D definition, the same as combined_us.  With the query kept and
 * with route templates too.
 */
void
test_definition_vs_combined(void)
{
	static const struct
	{
		const char *gen;
		lp_def_dialect dialect;
		const char *def;
		unsigned	cflags;
	}			pairs[] = {
		{"combined", LP_DEF_NGINX, NGX_COMBINED, 0},
		{"combined_us", LP_DEF_APACHE, APACHE_COMBINED_US, LP_C_MICROS},
	};
	size_t		k;

	for (k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++)
	{
		lp_def_error err;
		lp_gen		g;
		long		lines = 0,
					bad = 0;
		int			pass;

		if (!CHECK(compile_into(&g_prog, pairs[k].dialect, pairs[k].def, LP_HAS_ROUTE | LP_HAS_LATENCY | LP_HAS_TIME,
								&err) == LP_DEF_OK, "vs combined: compile %s", pairs[k].def))
			continue;
		for (pass = 0; pass < 3; pass++)
		{
			int64_t		i;
			unsigned	flags = pass == 0 ? 0 : pass == 1 ? LP_PARSE_KEEP_QUERY : LP_PARSE_TEMPLATES;

			lp_gen_init(&g, pass == 2 ? 5000 : 300, 42 + pass);
			lp_gen_set_format(&g, lp_gen_format_lookup(pairs[k].gen, strlen(pairs[k].gen)));
			for (i = 0; i < 20000; i++)
			{
				char		line[LP_GEN_MAXLINE];
				size_t		n = lp_gen_line(&g, i, line);
				lp_cline	cl;
				lp_status	cst;
				lp_result	r;
				lp_status	st;
				char		want[2 * LP_GEN_MAXLINE + 2];
				size_t		wn;
				test_diff	d;

				cst = lp_parse_combined(line, n, pairs[k].cflags | (pass == 1 ? LP_PARSE_KEEP_QUERY : 0), &cl);
				st = parse_n(&g_prog, line, n, flags, &r);
				lines++;
				/* the built-in's route, with the call's templates */
				wn = 0;
				if (cst == LP_ST_OK)
				{
					wn = lp_route_template(cl.route, cl.route_len, cl.route_slash, pass == 2, want);
					if (wn == 0)
					{
						memcpy(want, cl.route, cl.route_len);
						wn = cl.route_len;
					}
				}
				diff_init(&d);
				diff_i(&d, "status", st == LP_ST_OK, cst == LP_ST_OK);
				if (cst == LP_ST_OK && st == LP_ST_OK)
				{
					diff_text(&d, "route", r.route, r.route_len, want, wn);
					diff_i(&d, "latency", r.latency, cl.latency);
				}
				diff_slice(&d, "time", line, r.time, r.time_len, cl.time, cl.time_len);
				if (d.field && bad++ < 5)
					CHECK(0, "vs %s (pass %d): %s (line %s)", pairs[k].gen, pass, diff_say(&d), diff_q(line, n));
			}
		}
		CHECK(bad == 0, "vs %s: %ld generated lines give the built-in's route, latency and time (%ld differ)",
			  pairs[k].gen, lines, bad);
		printf("  %s definition vs %s: %ld lines, the same route, latency and time\n",
			   pairs[k].dialect == LP_DEF_NGINX ? "nginx" : "Apache", pairs[k].gen, lines);
	}
	CHECK(g_ref_bad == 0, "vs combined: and the reference agrees");
}

/*
 * One nginx writing the same requests to two logs, one with the default
 * escaping and one with escape=json: the two definitions count them under
 * the same routes, the bytes the client sent; their logged forms differ.
 */
void
test_definition_same_route(void)
{
	static lp_def_program def_default,
				def_json;
	lp_def_error err;
	uint64_t	seed = 11;
	long		bad = 0,
				differ_logged = 0;
	int			round;

	CHECK(compile_into(&def_default, LP_DEF_NGINX, "'$remote_addr \"$request\" $status $request_time'", 0, &err) == LP_DEF_OK &&
		  compile_into(&def_json, LP_DEF_NGINX,
					   "escape=json '{\"ip\":\"$remote_addr\",\"request\":\"$request\",\"status\":$status,\"rt\":$request_time}'",
					   0, &err) == LP_DEF_OK, "same route: compile both logs' formats");
	for (round = 0; round < 5000; round++)
	{
		char		path[64],
					request[128],
					esc[512],
					l1[700],
					l2[700];
		size_t		pn = 1 + df_rand(&seed) % 40,
					k,
					rn,
					en,
					n1,
					n2;
		lp_result	r1,
					r2;
		lp_status	s1,
					s2;

		/* a path of letters, '/', quotes, backslashes, controls, UTF-8, high bytes; no blank or '?' */
		path[0] = '/';
		for (k = 1; k < pn; k++)
		{
			uint64_t	x = df_rand(&seed);
			static const char some[] = "ab/\"\\\x01\x7f\xc3\xa9\x80\xff\t";

			path[k] = x % 3 == 0 ? some[(x >> 8) % (sizeof(some) - 1)] : (char) ('a' + (x >> 8) % 26);
			if (path[k] == '\t')
				path[k] = '\x1f';
		}
		rn = (size_t) snprintf(request, sizeof(request), "GET %.*s?x=1 HTTP/1.1", (int) pn, path);
		en = ref_esc_nginx(request, rn, esc);
		n1 = (size_t) snprintf(l1, sizeof(l1), "10.0.0.1 \"%.*s\" 200 0.012", (int) en, esc);
		en = ref_esc_json(request, rn, esc);
		n2 = (size_t) snprintf(l2, sizeof(l2), "{\"ip\":\"10.0.0.1\",\"request\":\"%.*s\",\"status\":200,\"rt\":0.012}",
							   (int) en, esc);
		s1 = parse_n(&def_default, l1, n1, 0, &r1);
		{
			char		keep[256];
			size_t		kn = r1.route_len < sizeof(keep) ? r1.route_len : sizeof(keep);

			memcpy(keep, r1.route, kn);
			s2 = parse_n(&def_json, l2, n2, 0, &r2);
			if (s1 != LP_ST_OK || s2 != LP_ST_OK || kn != pn || memcmp(keep, path, pn) != 0 ||
				r2.route_len != pn || memcmp(r2.route, path, pn) != 0 || r1.latency != 12 || r2.latency != 12)
			{
				if (bad++ < 5)
					CHECK(0, "same route: path %s: default log %s, json log %s", diff_q(path, pn),
						  diff_q(keep, kn), diff_q(r2.route, r2.route_len));
			}
		}
		/* the logged forms, kept with LP_PARSE_LOGGED, differ where something was escaped */
		{
			char		keep[512];
			size_t		kn;

			parse_n(&def_default, l1, n1, LP_PARSE_LOGGED, &r1);
			kn = r1.route_len < sizeof(keep) ? r1.route_len : sizeof(keep);
			memcpy(keep, r1.route, kn);
			parse_n(&def_json, l2, n2, LP_PARSE_LOGGED, &r2);
			if (kn != r2.route_len || memcmp(keep, r2.route, kn) != 0)
				differ_logged++;
		}
	}
	CHECK(bad == 0, "same route: 5000 requests in two nginx logs count under the bytes the client sent (%ld differ)", bad);
	CHECK(differ_logged > 1000, "same route: their logged forms differ (%ld of 5000)", differ_logged);
	CHECK(g_ref_bad == 0, "same route: and the reference agrees");
}
