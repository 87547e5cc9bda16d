/* test/unit/test_format_arg.c -- the format argument (lp_format_arg.c) and the time of a parse result (lp_time.c) */
#include <time.h>

#include "test_harness.h"
#include "lp_format_arg.h"
#include "lp_time.h"

/* Resolve a format argument for `need`: the status, the format in *f. */
static lp_farg_status
resolve(const char *arg, unsigned need, lp_custom_format *cf, const lp_format_def **f, lp_farg_error *err)
{
	return lp_format_resolve(arg, strlen(arg), need, cf, f, err);
}

#define AGG_NEED (LP_HAS_ROUTE | LP_HAS_LATENCY)

/* Names, offsets, the three definition forms and their errors. */
void
test_format_arg_resolve(void)
{
	static lp_custom_format cf;
	const lp_format_def *f;
	lp_farg_error err;
	static const struct
	{
		const char *arg;
		int			offset_sec;
	}			offsets[] = {
		{"haproxy@+05:30", 19800}, {"haproxy@-0800", -28800}, {"haproxy@+01", 3600},
		{"iis@-00:30", -1800}, {"cloudfront@+23:59", 86340}, {"haproxy@+00:00", 0}
	};
	static const char *const bad_offsets[] = {
		"haproxy@", "haproxy@+24:00", "haproxy@+05:60", "haproxy@05:30", "haproxy@+5:30",
		"haproxy@+05:30x", "haproxy@+05:3", "haproxy@Z", "haproxy@+0530:", "nginx@+1:'$request_time'",
		"nginx@:'$request_time'", "json@x:route=a,latency=b:s"
	};
	size_t		i;

	/* a plain name is the table's entry */
	CHECK(resolve("haproxy", AGG_NEED, &cf, &f, &err) == LP_FARG_OK &&
		  f == lp_format_lookup("haproxy", 7), "arg: a name is its entry");
	CHECK(resolve("combined", AGG_NEED | LP_HAS_TIME, &cf, &f, &err) == LP_FARG_OK &&
		  f == lp_format_lookup("combined", 8), "arg: combined");
	CHECK(resolve("Haproxy", AGG_NEED, &cf, &f, &err) == LP_FARG_UNKNOWN && f == NULL, "arg: names are case-sensitive");
	CHECK(resolve("iis", AGG_NEED, NULL, &f, &err) == LP_FARG_OK && f == lp_format_lookup("iis", 3) &&
		  resolve("nope", AGG_NEED, NULL, &f, &err) == LP_FARG_UNKNOWN, "arg: a plain name needs no room");
	CHECK(resolve("", AGG_NEED, &cf, &f, &err) == LP_FARG_UNKNOWN, "arg: the empty name");
	CHECK(resolve("nginx", AGG_NEED, &cf, &f, &err) == LP_FARG_UNKNOWN, "arg: nginx without a definition");
	CHECK(resolve("nope@+01:00", AGG_NEED, &cf, &f, &err) == LP_FARG_UNKNOWN, "arg: unknown name with an offset");

	/* offsets: a copy of the entry with its offset */
	for (i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++)
	{
		lp_farg_status st = resolve(offsets[i].arg, AGG_NEED, &cf, &f, &err);

		CHECK(st == LP_FARG_OK && f == &cf.def && f->offset_sec == offsets[i].offset_sec &&
			  f->parse == lp_format_lookup(f->name, strlen(f->name))->parse,
			  "arg: %s is offset %d (got %d, status %d)", offsets[i].arg, offsets[i].offset_sec,
			  f ? f->offset_sec : -1, (int) st);
	}
	for (i = 0; i < sizeof(bad_offsets) / sizeof(bad_offsets[0]); i++)
		CHECK(resolve(bad_offsets[i], AGG_NEED, &cf, &f, &err) == LP_FARG_BAD_OFFSET && f == NULL,
			  "arg: %s is a bad offset (got %d)", bad_offsets[i], (int) err.status);
	CHECK(resolve("alb@+01:00", AGG_NEED, &cf, &f, &err) == LP_FARG_OFFSET_UNUSED &&
		  strstr(err.message, "\"alb\"") != NULL && err.hint != NULL, "arg: alb's times carry their offset");
	CHECK(resolve("combined@+01:00", AGG_NEED, &cf, &f, &err) == LP_FARG_OFFSET_UNUSED, "arg: so do combined's");

	/* the host option */
	CHECK(resolve("alb", AGG_NEED | LP_HAS_HOST, &cf, &f, &err) == LP_FARG_OK, "arg: alb has a host");
	CHECK(resolve("haproxy", AGG_NEED | LP_HAS_HOST, &cf, &f, &err) == LP_FARG_LACKS &&
		  strstr(err.message, "haproxy") != NULL, "arg: haproxy has none");
	CHECK(resolve("default", AGG_NEED | LP_HAS_HOST, &cf, &f, &err) == LP_FARG_LACKS, "arg: nor default");

	/* definitions */
	CHECK(resolve("nginx:'\"$request\" $request_time'", AGG_NEED, &cf, &f, &err) == LP_FARG_OK &&
		  f == &cf.def && f->family == LP_FAMILY_DEFINITION && f->data == &cf.u.prog &&
		  f->unit == LP_UNIT_S && (f->has & AGG_NEED) == AGG_NEED && f->read_ts == NULL,
		  "arg: an nginx definition");
	CHECK(resolve("apache@+01:00:%t \"%r\" %D", AGG_NEED | LP_HAS_TIME, &cf, &f, &err) == LP_FARG_OK &&
		  f->offset_sec == 3600 && cf.u.prog.offset_sec == 3600 && f->unit == LP_UNIT_US &&
		  f->time_kind == LP_TIME_CLF, "arg: an Apache definition with an offset");
	CHECK(resolve("nginx@-0130:'\"$request\" $request_time'", AGG_NEED, &cf, &f, &err) == LP_FARG_OK &&
		  f->offset_sec == -5400, "arg: nginx@-0130:");
	CHECK(resolve("nginx@+02:'\"$request\" $request_time'", AGG_NEED, &cf, &f, &err) == LP_FARG_OK &&
		  f->offset_sec == 7200, "arg: nginx@+02:");
	CHECK(resolve("nginx:'$remote_addr $request_time'", AGG_NEED, &cf, &f, &err) == LP_FARG_DEFINITION &&
		  err.body_off == 6 && err.hint != NULL && strcmp(err.what, "nginx log format") == 0,
		  "arg: no route: an error in the body with a hint");
	CHECK(resolve("apache:\"%r\" %D %Z", AGG_NEED, &cf, &f, &err) == LP_FARG_DEFINITION &&
		  err.body_off == 7 && err.pos == 8 && strstr(err.message, "%Z") != NULL,
		  "arg: an unknown directive at its byte (pos %zu)", err.pos);
	CHECK(resolve("apache@+01:00:\"%r\" %D %Z", AGG_NEED, &cf, &f, &err) == LP_FARG_DEFINITION &&
		  err.body_off == 14 && err.pos == 8, "arg: the body after an offset");
	CHECK(resolve("nginx:'\"$request\" $request_time'", LP_HAS_TIME, &cf, &f, &err) == LP_FARG_DEFINITION,
		  "arg: no time for the time functions");
	CHECK(resolve("nginx:'\"$request\" $request_time'", 0, &cf, &f, &err) == LP_FARG_OK,
		  "arg: logp95_parse needs nothing");

	/* JSON specs */
	CHECK(resolve("json:route=u, latency=d:ms, status=s", AGG_NEED, &cf, &f, &err) == LP_FARG_OK &&
		  f->family == LP_FAMILY_JSON && f->data == &cf.u.spec && f->unit == LP_UNIT_MS &&
		  (f->has & LP_HAS_STATUS) && !(f->has & (LP_HAS_TIME | LP_HAS_HOST | LP_HAS_METHOD)),
		  "arg: a json spec and its fields");
	CHECK(resolve("json:request=r, latency=d:s", AGG_NEED, &cf, &f, &err) == LP_FARG_OK &&
		  (f->has & LP_HAS_METHOD), "arg: a request line has a method");
	CHECK(resolve("json:route=u, latency=d:ms", LP_HAS_TIME, &cf, &f, &err) == LP_FARG_DEFINITION &&
		  err.pos == strlen("route=u, latency=d:ms") && err.hint != NULL, "arg: a spec without time");
	CHECK(resolve("json:route=u, latency=d:ms", AGG_NEED | LP_HAS_HOST, &cf, &f, &err) == LP_FARG_DEFINITION,
		  "arg: a spec without host");
	CHECK(resolve("json:route=u, latency=d", AGG_NEED, &cf, &f, &err) == LP_FARG_DEFINITION &&
		  err.body_off == 5 && strcmp(err.what, "JSON lines spec") == 0, "arg: a spec without a unit");
	CHECK(resolve("json@+09:00:route=u, latency=d:ms, time=t:iso8601", LP_HAS_TIME, &cf, &f, &err) == LP_FARG_OK &&
		  f->offset_sec == 32400 && f->time_kind == LP_TIME_ISO8601, "arg: json@+09:00:");

	/* a definition is parsed by its entry, through data */
	{
		const char *line = "\"GET /a?b HTTP/1.1\" 0.0125";
		char		buf[LP_ROUTE_BUF_SIZE(64)];
		lp_parse_ctx ctx = {0, buf};
		lp_result	r;

		CHECK(resolve("nginx:'\"$request\" $request_time'", AGG_NEED, &cf, &f, &err) == LP_FARG_OK &&
			  f->parse(line, strlen(line), f, &ctx, &r) == LP_ST_OK && r.route_len == 2 &&
			  memcmp(r.route, "/a", 2) == 0 && r.latency == 13, "arg: the entry parses by its program");
		line = "{\"u\":\"/caf\\u00e9?x\",\"d\":7}";
		CHECK(resolve("json:route=u, latency=d:ms", AGG_NEED, &cf, &f, &err) == LP_FARG_OK &&
			  f->parse(line, strlen(line), f, &ctx, &r) == LP_ST_OK && r.route_len == 6 &&
			  memcmp(r.route, "/caf\xc3\xa9", 6) == 0 && r.latency == 7 && (r.has & LP_HAS_ROUTE_HIGH),
			  "arg: the entry parses by its spec");
	}
}

/* The instant of t (fields in UTC after its offset), by timegm: the reference. */
static long long
ts_epoch(const lp_ts *t)
{
	struct tm	tm;

	memset(&tm, 0, sizeof(tm));
	tm.tm_year = t->year - 1900;
	tm.tm_mon = t->month - 1;
	tm.tm_mday = t->day;
	tm.tm_hour = t->hour;
	tm.tm_min = t->minute;
	tm.tm_sec = t->second;
	return (long long) timegm(&tm) - t->offset_sec;
}

/* lp_result_ts of a time text of `kind` (time2 for DATE_TIME); the status. */
static lp_ts_status
time_of(lp_time_kind kind, const char *s, const char *s2, int offset_sec, lp_ts *t)
{
	lp_result	r;

	memset(&r, 0, sizeof(r));
	r.has = LP_HAS_TIME;
	r.time = s;
	r.time_len = strlen(s);
	r.time2 = s2;
	r.time2_len = s2 ? strlen(s2) : 0;
	return lp_result_ts(&r, kind, offset_sec, t);
}

/* Every time kind, against values written by hand and timegm. */
void
test_format_arg_time(void)
{
	static const struct
	{
		lp_time_kind kind;
		const char *s;
		const char *s2;
		int			offset_sec;
		long long	epoch;			/* the instant, whole seconds (-1: not a time) */
		int			usec;
	}			cases[] = {
		{LP_TIME_ISO8601, "2026-11-07T01:00:00Z", NULL, 3600, 1794013200LL, 0},
		{LP_TIME_ISO8601, "2026-11-07T01:00:00+01:00", NULL, 0, 1794009600LL, 0},
		{LP_TIME_ISO8601, "2026-11-07T01:00:00", NULL, 3600, 1794009600LL, 0},
		{LP_TIME_ISO8601, "2026-11-07T01:00:00.5-0100", NULL, 3600, 1794016800LL, 500000},
		{LP_TIME_ISO8601, "2026-11-07 01:00:00", NULL, 0, -1, 0},
		{LP_TIME_CLF, "07/Nov/2026:01:00:00 +0100", NULL, 0, 1794009600LL, 0},
		{LP_TIME_CLF, "[07/Nov/2026:01:00:00 +0100]", NULL, 0, 1794009600LL, 0},
		{LP_TIME_CLF, "07/Nov/2026:01:00:00", NULL, -3600, 1794016800LL, 0},
		{LP_TIME_CLF, "07/Nov/2026:01:00", NULL, 0, -1, 0},
		{LP_TIME_CLF_MS, "06/Feb/2009:12:14:14.655", NULL, 0, 1233922454LL, 655000},
		{LP_TIME_CLF_MS, "06/Feb/2009:12:14:14.655", NULL, 19800, 1233902654LL, 655000},
		{LP_TIME_CLF_MS, "06/Feb/2009:12:14:14.", NULL, 0, -1, 0},
		{LP_TIME_CLF_MS, "31/Feb/2009:12:14:14.655", NULL, 0, -1, 0},
		{LP_TIME_EPOCH, "1646861401.5241024", NULL, 3600, 1646861401LL, 524102},
		{LP_TIME_EPOCH, "1646861401.52410250", NULL, 0, 1646861401LL, 524103},
		{LP_TIME_EPOCH, "0", NULL, 0, 0LL, 0},
		{LP_TIME_EPOCH, "253402300799.9999994", NULL, 0, 253402300799LL, 999999},
		{LP_TIME_EPOCH, "253402300799.9999995", NULL, 0, -1, 0},
		{LP_TIME_EPOCH, "253402300800", NULL, 0, -1, 0},
		{LP_TIME_EPOCH, "-1", NULL, 0, -1, 0},
		{LP_TIME_EPOCH, "1.", NULL, 0, -1, 0},
		{LP_TIME_EPOCH, "1e9", NULL, 0, -1, 0},
		{LP_TIME_EPOCH, "99999999999999999999", NULL, 0, -1, 0},
		{LP_TIME_EPOCH_MS, "1762477200123", NULL, 0, 1762477200LL, 123000},
		{LP_TIME_EPOCH_MS, "1762477200123.5", NULL, 0, 1762477200LL, 123500},
		{LP_TIME_EPOCH_US, "1762477200123456", NULL, 0, 1762477200LL, 123456},
		{LP_TIME_EPOCH_US, "1762477200123456.5", NULL, 0, 1762477200LL, 123457},
		{LP_TIME_EPOCH_NS, "1762477200123456789", NULL, 0, 1762477200LL, 123457},
		{LP_TIME_EPOCH_NS, "1762477200123456499", NULL, 0, 1762477200LL, 123456},
		{LP_TIME_EPOCH_NS, "18446744073709551615", NULL, 0, -1, 0},
		{LP_TIME_DATE_TIME, "2019-12-13", "22:36:27", 0, 1576276587LL, 0},
		{LP_TIME_DATE_TIME, "2019-12-13", "22:36:27", -18000, 1576294587LL, 0},
		{LP_TIME_DATE_TIME, "2019-12-13", "22:36:27.25", 0, 1576276587LL, 250000},
		{LP_TIME_DATE_TIME, "2019-12-13", "22:36:27Z", 0, -1, 0},
		{LP_TIME_DATE_TIME, "2019-12-13", NULL, 0, -1, 0},
		{LP_TIME_DATE_TIME, "2019-13-13", "22:36:27", 0, -1, 0},
	};
	size_t		i;
	lp_ts		t;
	lp_result	r;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		lp_ts_status st = time_of(cases[i].kind, cases[i].s, cases[i].s2, cases[i].offset_sec, &t);

		if (cases[i].epoch < 0)
			CHECK(st != LP_TS_OK, "time: %s is not a time (kind %d)", cases[i].s, (int) cases[i].kind);
		else
			CHECK(st == LP_TS_OK && ts_epoch(&t) == cases[i].epoch && t.usec == cases[i].usec,
				  "time: %s (kind %d) is %lld.%06d, got %lld.%06d (status %d)", cases[i].s,
				  (int) cases[i].kind, cases[i].epoch, cases[i].usec,
				  st == LP_TS_OK ? ts_epoch(&t) : 0, t.usec, (int) st);
	}
	memset(&r, 0, sizeof(r));
	CHECK(lp_result_ts(&r, LP_TIME_ISO8601, 0, &t) == LP_TS_MISSING, "time: none found");
	/* every epoch second of a sample of days agrees with gmtime */
	for (i = 0; i < 4000; i++)
	{
		long long	e = (long long) i * 63113851LL + (long long) (i * 7919 % 86400);
		char		s[32];
		struct tm	g;
		time_t		tt = (time_t) e;

		snprintf(s, sizeof(s), "%lld", e);
		gmtime_r(&tt, &g);
		if (!CHECK(time_of(LP_TIME_EPOCH, s, NULL, 0, &t) == LP_TS_OK &&
				   t.year == g.tm_year + 1900 && t.month == g.tm_mon + 1 && t.day == g.tm_mday &&
				   t.hour == g.tm_hour && t.minute == g.tm_min && t.second == g.tm_sec,
				   "time: epoch %s as gmtime gives it", s))
			break;
	}
	/* lp_civil_from_days (also the generator's) on both sides of 1970, as gmtime gives it */
	{
		int64_t		z;
		int			bad = 0;

		for (z = -800000; z <= 800000; z += 997)
		{
			struct tm	g;
			time_t		tt = (time_t) (z * 86400);
			int			y,
						m,
						d;

			lp_civil_from_days(z, &y, &m, &d);
			gmtime_r(&tt, &g);
			bad += y != g.tm_year + 1900 || m != g.tm_mon + 1 || d != g.tm_mday;
		}
		CHECK_EQ_I(bad, 0, "lp_civil_from_days agrees with gmtime from about 220 BC to 4160");
	}
}

/* The JSON presets' specs compile, and their entries read the documented lines. */
void
test_format_arg_json_presets(void)
{
	static const struct
	{
		const char *name;
		const char *line;
		const char *route;
		int64_t		ms;
	}			cases[] = {
		{"caddy", "{\"ts\":1646861401.5241024,\"request\":{\"method\":\"GET\",\"host\":\"localhost\",\"uri\":\"/?x\"},\"duration\":0.000929675,\"status\":200}", "/", 1},
		{"traefik_json", "{\"DownstreamStatus\":200,\"Duration\":48321500,\"RequestHost\":\"shop.example.com\",\"RequestMethod\":\"GET\",\"RequestPath\":\"/cart/items?id=7\\u0026ref=home\",\"StartUTC\":\"2026-11-07T00:00:00.123456789Z\"}", "/cart/items", 48},
	};
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		const lp_format_def *f = lp_format_lookup(cases[i].name, strlen(cases[i].name));
		char		buf[LP_ROUTE_BUF_SIZE(512)];
		lp_parse_ctx ctx = {0, buf};
		lp_result	r;
		lp_ts		t;
		lp_status	st;

		CHECK(f != NULL && f->family == LP_FAMILY_JSON, "json preset %s: an entry", cases[i].name);
		if (!f)
			continue;
		st = f->parse(cases[i].line, strlen(cases[i].line), f, &ctx, &r);
		CHECK(st == LP_ST_OK && r.route_len == strlen(cases[i].route) &&
			  memcmp(r.route, cases[i].route, r.route_len) == 0 && r.latency == cases[i].ms &&
			  (r.has & (LP_HAS_HOST | LP_HAS_STATUS | LP_HAS_METHOD | LP_HAS_TIME)) ==
			  (LP_HAS_HOST | LP_HAS_STATUS | LP_HAS_METHOD | LP_HAS_TIME),
			  "json preset %s: the documented line (status %d)", cases[i].name, (int) st);
		CHECK(lp_result_ts(&r, f->time_kind, f->offset_sec, &t) == LP_TS_OK, "json preset %s: its time",
			  cases[i].name);
	}
}
