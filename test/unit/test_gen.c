/* test/unit/test_gen.c -- unit tests of the sample-line generator (lp_gen.c) */
#include "test_harness.h"

#include "lp_combined.h"

/* Deterministic lines in the documented format, timestamps ascending. */
void
test_gen(void)
{
	lp_gen		g1,
				g2,
				g3;
	char		a[LP_GEN_MAXLINE],
				b[LP_GEN_MAXLINE],
				c[LP_GEN_MAXLINE],
				prev_ts[32] = "";
	int64_t		i;
	int			same_seed_differs = 0,
				other_seed_same = 0,
				bad_parse = 0,
				bad_ts = 0,
				bad_len = 0;
	lp_state   *st = lp_state_create(&g_alloc);

	lp_gen_init(&g1, 300, 42);
	lp_gen_init(&g2, 300, 42);
	lp_gen_init(&g3, 300, 43);
	for (i = 0; i < 20000; i++)
	{
		size_t		n1 = lp_gen_line(&g1, i, a);
		size_t		n2 = lp_gen_line(&g2, i, b);
		lp_line		l;
		char		ts[32];

		lp_gen_line(&g3, i, c);
		if (n1 != n2 || strcmp(a, b) != 0)
			same_seed_differs++;
		if (strcmp(a, c) == 0)
			other_seed_same++;
		if (n1 == 0 || n1 >= LP_GEN_MAXLINE || strlen(a) != n1)
			bad_len++;
		if (lp_parse_line(a, n1, &l) != LP_ST_OK || l.route[0] != '/' || l.latency < 3)
			bad_parse++;
		else
			lp_state_add(st, l.route, l.route_len, l.latency);
		memcpy(ts, a, 19);
		ts[19] = '\0';
		if (a[19] != ' ' || strcmp(ts, prev_ts) < 0)
			bad_ts++;
		strcpy(prev_ts, ts);
		if (i == 0)
			CHECK(strncmp(a, "2026-11-07T00:00:00 ", 20) == 0, "first timestamp: %s", a);
		if (i == 9)
			CHECK(strncmp(a, "2026-11-07T00:00:00 ", 20) == 0, "ten lines a second: %s", a);
		if (i == 10)
			CHECK(strncmp(a, "2026-11-07T00:00:01 ", 20) == 0, "one second later: %s", a);
		if (i == 19999)
			CHECK(strncmp(a, "2026-11-07T00:33:19 ", 20) == 0, "line 19999: %s", a);
	}
	CHECK_EQ_I(same_seed_differs, 0, "same seed, same lines");
	CHECK(other_seed_same < 100, "another seed, other lines (%d equal)", other_seed_same);
	CHECK_EQ_I(bad_len, 0, "line lengths");
	CHECK_EQ_I(bad_parse, 0, "every line parses");
	CHECK_EQ_I(bad_ts, 0, "timestamps ascending");
	CHECK(st->nroutes > 250 && st->nroutes <= 300, "about 300 routes (%u)", st->nroutes);
	lp_state_free(st);

	/* days, months and years roll over */
	lp_gen_init(&g1, 5, 1);
	lp_gen_line(&g1, 864000, a);
	CHECK(strncmp(a, "2026-11-08T00:00:00 ", 20) == 0, "next day: %s", a);
	lp_gen_line(&g1, 864000LL * 55 - 1, a);
	CHECK(strncmp(a, "2026-12-31T23:59:59 ", 20) == 0, "last second of 2026: %s", a);
	lp_gen_line(&g1, 864000LL * 55, a);
	CHECK(strncmp(a, "2027-01-01T00:00:00 ", 20) == 0, "new year: %s", a);

	/* one route; routes < 1 means one */
	lp_gen_init(&g1, 1, 9);
	lp_gen_init(&g2, 0, 9);
	for (i = 0; i < 100; i++)
	{
		lp_line		l;
		size_t		n = lp_gen_line(&g1, i, a);

		lp_parse_line(a, n, &l);
		if (!slice_is(l.route, l.route_len, "/api/v1/resource0/items"))
			bad_parse++;
		n = lp_gen_line(&g2, i, b);
		if (strcmp(a, b) != 0)
			bad_parse++;
	}
	CHECK_EQ_I(bad_parse, 0, "one route");
	/* a negative seed works like any other */
	lp_gen_init(&g1, 10, -1);
	lp_gen_init(&g2, 10, -1);
	CHECK(lp_gen_line(&g1, 0, a) == lp_gen_line(&g2, 0, b) && strcmp(a, b) == 0,
		  "negative seed deterministic");
}


/*
 * The combined formats: every line parses with lp_parse_combined to the
 * route and latency of the default line of the same index and (routes,
 * seed), and its [time] is the default line's timestamp.
 */
void
test_gen_formats(void)
{
	static const char *const names[] = {"combined", "combined_query", "combined_us", "combined_us_query"};
	const lp_format_def *dflt = lp_gen_format_lookup("default", 7);
	int			k;

	CHECK(dflt == LP_FORMAT_DEFAULT, "the generator writes the default format");
	CHECK(lp_gen_format_lookup("nope", 4) == NULL, "an unknown name");
	CHECK(lp_gen_format_lookup("combine", 7) == NULL, "a prefix of a name");
	CHECK(strcmp(lp_gen_format_names(),
				 "default, combined, combined_query, combined_us, combined_us_query") == 0,
		  "the names it writes: %s", lp_gen_format_names());

	for (k = 0; k < 4; k++)
	{
		const lp_format_def *f = lp_gen_format_lookup(names[k], strlen(names[k]));
		lp_gen		gd,
					gc,
					gc2;
		char		a[LP_GEN_MAXLINE],
					b[LP_GEN_MAXLINE],
					c[LP_GEN_MAXLINE];
		int64_t		i;
		test_diff	d;
		int			bad_parse = 0,
					bad_route = 0,
					bad_latency = 0,
					bad_ts = 0,
					bad_len = 0,
					differs = 0,
					ipv6 = 0,
					users = 0,
					queries = 0,
					referers = 0;
		size_t		maxlen = 0,
					total = 0;

		if (!CHECK(f != NULL && f == lp_format_lookup(names[k], strlen(names[k])),
				   "%s: a format of the table", names[k]))
			continue;
		lp_gen_init(&gd, 300, 42);
		lp_gen_init(&gc, 300, 42);
		lp_gen_set_format(&gc, f);
		lp_gen_init(&gc2, 300, 42);
		lp_gen_set_format(&gc2, f);
		for (i = 0; i < 20000; i++)
		{
			size_t		nd = lp_gen_line(&gd, i, a);
			size_t		nc = lp_gen_line(&gc, i, b);
			lp_line		l;
			lp_cline	cl;
			lp_ts		tsd,
						tsc;

			if ((lp_gen_line(&gc2, i, c) != nc || strcmp(b, c) != 0) && differs++ < 3)
				CHECK(0, "%s line %lld: expected %s got %s (same seed)", names[k], (long long) i,
					  diff_q(b, nc), diff_q(c, strlen(c)));
			if (nc == 0 || nc >= LP_GEN_MAXLINE - 1 || strlen(b) != nc)
				bad_len++;
			if (nc > maxlen)
				maxlen = nc;
			total += nc;
			if (lp_parse_line(a, nd, &l) != LP_ST_OK ||
				lp_parse_combined(b, nc, f->pflags, &cl) != LP_ST_OK)
			{
				if (bad_parse++ < 3)
					CHECK(0, "%s line %lld: a line does not parse: default %s, %s %s", names[k],
						  (long long) i, diff_q(a, nd), names[k], diff_q(b, nc));
				continue;
			}
			/* with the query string kept, the route is the default's plus "?..." */
			diff_init(&d);
			if (f->pflags & LP_PARSE_KEEP_QUERY)
				diff_text(&d, "route without its query string", cl.route,
						  cl.route_len > l.route_len && cl.route[l.route_len] == '?' ?
						  l.route_len : cl.route_len, l.route, l.route_len);
			else
				diff_text(&d, "route", cl.route, cl.route_len, l.route, l.route_len);
			if (d.field && bad_route++ < 3)
				CHECK(0, "%s line %lld: %s (the default line %s)", names[k], (long long) i,
					  diff_say(&d), diff_q(a, nd));
			diff_init(&d);
			if (!diff_i(&d, "latency", cl.latency, l.latency) && bad_latency++ < 3)
				CHECK(0, "%s line %lld: %s (the default line %s)", names[k], (long long) i,
					  diff_say(&d), diff_q(a, nd));
			memset(&tsd, 0, sizeof(tsd));
			memset(&tsc, 0, sizeof(tsc));
			diff_init(&d);
			diff_i(&d, "ISO time status", lp_ts_parse_iso_field(a, nd, &tsd), LP_TS_OK);
			diff_i(&d, "CLF time status", lp_combined_ts(b, nc, &tsc), LP_TS_OK);
			diff_i(&d, "year", tsc.year, tsd.year);
			diff_i(&d, "month", tsc.month, tsd.month);
			diff_i(&d, "day", tsc.day, tsd.day);
			diff_i(&d, "hour", tsc.hour, tsd.hour);
			diff_i(&d, "minute", tsc.minute, tsd.minute);
			diff_i(&d, "second", tsc.second, tsd.second);
			diff_i(&d, "UTC offset", tsc.offset_sec, 0);
			if (d.field && bad_ts++ < 3)
				CHECK(0, "%s line %lld: time %s (the default line %s)", names[k], (long long) i,
					  diff_say(&d), diff_q(a, nd));
			if (b[0] != '1' && b[0] != '2')
				bad_parse++;
			if (strncmp(b, "2001:db8:", 9) == 0)
				ipv6++;
			if (!strstr(b, " - - ["))
				users++;
			if (memchr(cl.request, '?', cl.request_len))
				queries++;
			if (!strstr(b, " \"-\" \""))
				referers++;
			if (i == 0)
				CHECK(strstr(b, " [07/Nov/2026:00:00:00 +0000] \"") != NULL,
					  "%s: first time: %s", names[k], b);
			if (i == 19999)
				CHECK(strstr(b, " [07/Nov/2026:00:33:19 +0000] \"") != NULL,
					  "%s: line 19999: %s", names[k], b);
		}
		CHECK_EQ_I(differs, 0, "deterministic");
		CHECK_EQ_I(bad_len, 0, "line lengths");
		CHECK_EQ_I(bad_parse, 0, "every line parses");
		CHECK_EQ_I(bad_route, 0, "the default line's route");
		CHECK_EQ_I(bad_latency, 0, "the default line's latency");
		CHECK_EQ_I(bad_ts, 0, "the default line's timestamp");
		CHECK(ipv6 > 2000 && ipv6 < 4000, "%s: some IPv6 clients (%d)", names[k], ipv6);
		CHECK(users > 500 && users < 1500, "%s: a few remote users (%d)", names[k], users);
		CHECK(queries > 3000 && queries < 5000, "%s: query strings on some requests (%d)", names[k], queries);
		CHECK(referers > 10000 && referers < 14000, "%s: referers (%d)", names[k], referers);
		CHECK(total / 20000 > 150 && total / 20000 < 260 && maxlen < 420,
			  "%s: combined-sized lines (mean %zu, longest %zu)", names[k], total / 20000, maxlen);
	}
}
