/* test/unit/test_red.c -- unit tests of status counts per route and encoding version 2 (issue 24) */
#include "test_harness.h"

#include "lp_arith.h"
#include "lp_formats.h"
#include "lp_gen.h"
#include "lp_partial.h"
#include "lp_run.h"

/*
 * The reference is a plain table of counts kept beside the state (per
 * route: requests per class, lines without a latency, the histogram's
 * count), and for encodings the hash-table merge and lp_encode: every
 * other path (decode, lp_arith, lp_run, deferred merges) must give the
 * same bytes.
 */

#define RED_ROUTES 8

/* What a test state counted, kept apart from it. */
typedef struct red_ref
{
	uint64_t	cls[RED_ROUTES][LP_CLASSES];
	uint64_t	nolat[RED_ROUTES];
	uint64_t	hist[RED_ROUTES];
} red_ref;

static const char *const red_keys[RED_ROUTES] = {
	"/a", "/b", "/c", "/orders/:uuid", "GET /x", "PUT /x", "/z", "/zz"
};

/* The status of a made-up line: mostly 2xx, some of every class, some unknown (0, 999). */
static int
red_status(uint64_t x)
{
	static const int st[] = {200, 200, 200, 201, 204, 301, 304, 404, 400, 500, 503, 101, 0, 999};

	return st[x % (sizeof(st) / sizeof(st[0]))];
}

/*
 * A state that counts statuses (options sopts), `lines` lines over routes
 * first .. first + nroutes - 1, a line in `nolat_every` without latency
 * (0: none), counted into ref too (NULL: not).
 */
static lp_state *
red_state(unsigned sopts, int first, int nroutes, int lines, int nolat_every,
		  uint64_t seed, red_ref *ref)
{
	lp_state   *st = lp_state_create(&g_alloc);
	uint64_t	x = seed;
	int			i;

	if (!CHECK(st != NULL && lp_state_use_options(st, sopts) == LP_OK, "red: make a state"))
		return st;
	for (i = 0; i < lines; i++)
	{
		uint64_t	r = test_rnd(&x);
		int			k = first + (int) (r % (uint64_t) nroutes);
		int			cls = lp_status_class(red_status(r >> 8));
		int64_t		v = (int64_t) ((r >> 20) % 3000);
		int			rc;

		if (nolat_every && i % nolat_every == 0)
			v = -1;
		rc = lp_state_add_status(st, red_keys[k], strlen(red_keys[k]), v, cls);
		if (!CHECK(rc == LP_OK, "red: add_status returned %d", rc))
			break;
		if (i % 1000 == 999)
			CHECK(lp_state_flush(st) == LP_OK, "red: flush");	/* now and then, mid-way */
		if (ref)
		{
			ref->cls[k][cls]++;
			if (cls == LP_CLASS_5XX && (sopts & LP_SOPT_OK_LATENCY))
				;
			else if (v < 0)
				ref->nolat[k]++;
			else
				ref->hist[k]++;
		}
	}
	CHECK(lp_state_flush(st) == LP_OK, "red: flush");
	return st;
}

/* Compare every route of an encoding with the reference (also the routes without a latency). */
static void
red_check_ref(const uint8_t *enc, size_t len, const red_ref *ref, const char *what)
{
	lp_reader	r;
	lp_route_view rv;
	int			k,
				i,
				rc,
				seen = 0;

	if (!CHECK(lp_reader_init(&r, enc, len) == LP_OK, "%s: header", what))
		return;
	r.all = 1;
	while ((rc = lp_reader_next(&r, &rv)) == 1)
	{
		for (k = 0; k < RED_ROUTES; k++)
			if (slice_is(rv.key, rv.keylen, red_keys[k]))
				break;
		if (!CHECK(k < RED_ROUTES, "%s: an unknown route", what))
			return;
		seen++;
		for (i = 0; i < LP_CLASSES; i++)
			CHECK(rv.red.cls[i] == ref->cls[k][i], "%s: %s class %d: %llu, want %llu", what,
				  red_keys[k], i, (unsigned long long) rv.red.cls[i],
				  (unsigned long long) ref->cls[k][i]);
		CHECK(rv.red.nolat == ref->nolat[k], "%s: %s no latency %llu, want %llu", what,
			  red_keys[k], (unsigned long long) rv.red.nolat, (unsigned long long) ref->nolat[k]);
		CHECK(rv.total == ref->hist[k], "%s: %s histogram %llu, want %llu", what,
			  red_keys[k], (unsigned long long) rv.total, (unsigned long long) ref->hist[k]);
	}
	CHECK(rc == 0, "%s: clean end", what);
	for (k = 0, i = 0; k < RED_ROUTES; k++)
		i += ref->cls[k][0] + ref->cls[k][1] + ref->cls[k][2] + ref->cls[k][3] +
			ref->cls[k][4] + ref->cls[k][5] > 0;
	CHECK_EQ_I(seen, i, "routes in the encoding");
}

/* Decode into a fresh state and encode again: the same bytes. */
static void
red_roundtrip(const uint8_t *enc, size_t len, const char *what)
{
	lp_state   *d = lp_state_create(&g_alloc);
	uint8_t    *again;
	size_t		alen;

	CHECK(lp_decode_into(d, enc, len) == LP_OK, "%s: decode", what);
	again = encode(d, &alen);
	CHECK_SAME_ENC(again, alen, enc, len, "%s: decode, encode", what);
	g_alloc.free(g_alloc.ctx, again);
	lp_state_free(d);
}

/*
 * Encoding version 2: round trips, the reference counts, a route with no
 * latency at all (no pair), histogram readers that pass over it, and the
 * canonical choice of version 1 for a state that counted statuses but has
 * nothing version 1 cannot say.
 */
void
test_red_codec(void)
{
	red_ref		ref;
	lp_state   *st,
			   *plain;
	uint8_t    *enc,
			   *penc;
	size_t		len,
				plen;
	unsigned	sopts;
	lp_reader	r;
	lp_route_view rv;
	int			n;

	for (sopts = 0; sopts <= LP_SOPT_ALL; sopts++)
	{
		char		what[64];

		snprintf(what, sizeof(what), "red codec, options %u", sopts);
		memset(&ref, 0, sizeof(ref));
		st = red_state(sopts, 0, 6, 5000, 7, 42 + sopts, &ref);
		/* a route whose every line has no latency */
		CHECK(lp_state_add_status(st, "/zz", 3, -1, 4) == LP_OK &&
			  lp_state_add_status(st, "/zz", 3, -1, 1) == LP_OK, "%s: no-latency route", what);
		ref.cls[7][4]++;
		ref.cls[7][1]++;
		if (sopts & LP_SOPT_OK_LATENCY)
			ref.nolat[7] += 1;
		else
			ref.nolat[7] += 2;
		CHECK(lp_state_flush(st) == LP_OK, "red: flush");
		CHECK(lp_state_check(st) == NULL, "%s: state check: %s", what, lp_state_check(st));
		enc = encode(st, &len);
		CHECK(enc[0] == LP_CODEC_VERSION_RED, "%s: version 2", what);
		CHECK(lp_validate(enc, len) == LP_OK, "%s: valid", what);
		red_check_ref(enc, len, &ref, what);
		red_roundtrip(enc, len, what);
		/* histogram readers do not see the route without a pair */
		lp_reader_init(&r, enc, len);
		CHECK_EQ_U(r.sopts, sopts, "options read back");
		n = 0;
		while (lp_reader_next(&r, &rv) == 1)
		{
			CHECK(rv.npairs > 0, "%s: a histogram reader got an empty route", what);
			n++;
		}
		CHECK_EQ_I(n, 6, "routes with a latency");
		g_alloc.free(g_alloc.ctx, enc);
		lp_state_free(st);
	}

	/* statuses counted, but only unknown and every line with a latency: version 1, as without */
	st = lp_state_create(&g_alloc);
	plain = lp_state_create(&g_alloc);
	CHECK(lp_state_use_options(st, 0) == LP_OK, "red: status on");
	for (n = 0; n < 3000; n++)
	{
		CHECK(lp_state_add_status(st, red_keys[n % 5], strlen(red_keys[n % 5]), n * 7 % 901,
								  LP_CLASS_UNKNOWN) == LP_OK, "red: add unknown");
		CHECK(lp_state_add_slow(plain, red_keys[n % 5], strlen(red_keys[n % 5]), n * 7 % 901) == LP_OK,
			  "red: add plain");
	}
	CHECK(lp_state_flush(st) == LP_OK && lp_state_flush(plain) == LP_OK, "red: flush");
	enc = encode(st, &len);
	penc = encode(plain, &plen);
	CHECK(enc[0] == LP_CODEC_VERSION, "red: only unknown is version 1");
	CHECK_SAME_ENC(enc, len, penc, plen, "red: only unknown, the bytes of a plain state");
	/* one line without a latency makes it version 2 */
	CHECK(lp_state_add_status(st, "/a", 2, -1, LP_CLASS_UNKNOWN) == LP_OK &&
		  lp_state_flush(st) == LP_OK, "red: add no latency");
	g_alloc.free(g_alloc.ctx, enc);
	enc = encode(st, &len);
	CHECK(enc[0] == LP_CODEC_VERSION_RED, "red: a line without latency is version 2");
	red_roundtrip(enc, len, "red: unknown and no latency");
	g_alloc.free(g_alloc.ctx, enc);
	g_alloc.free(g_alloc.ctx, penc);
	lp_state_free(st);
	lp_state_free(plain);

	/* options and no route: version 2 with the options */
	st = lp_state_create(&g_alloc);
	CHECK(lp_state_use_options(st, LP_SOPT_METHOD) == LP_OK, "red: method on an empty state");
	enc = encode(st, &len);
	CHECK(len == 4 && enc[0] == 2 && enc[1] == LP_SOPT_METHOD && enc[2] == 0 && enc[3] == 0,
		  "red: empty state with options is 02 01 00 00");
	red_roundtrip(enc, len, "red: empty with options");
	g_alloc.free(g_alloc.ctx, enc);
	lp_state_free(st);
}

/* a + b by lp_state_merge (both ways), decode, lp_encoded_add; (a + b) - b by lp_encoded_subtract. */
static void
red_merge_case(lp_state *a, lp_state *b, const char *what)
{
	uint8_t    *ea,
			   *eb,
			   *ref,
			   *got,
			   *diff;
	size_t		la,
				lb,
				lr,
				lg,
				ld;
	lp_state   *m = lp_state_create(&g_alloc);
	lp_state   *m2 = lp_state_create(&g_alloc);
	lp_state   *d = lp_state_create(&g_alloc);
	const char *misfit;
	size_t		mlen;
	int			rc;

	ea = encode(a, &la);
	eb = encode(b, &lb);
	CHECK(lp_state_merge(m, a) == LP_OK && lp_state_merge(m, b) == LP_OK, "%s: merge a, b", what);
	CHECK(lp_state_merge(m2, b) == LP_OK && lp_state_merge(m2, a) == LP_OK, "%s: merge b, a", what);
	ref = encode(m, &lr);
	got = encode(m2, &lg);
	CHECK_SAME_ENC(got, lg, ref, lr, "%s: merge order", what);
	g_alloc.free(g_alloc.ctx, got);
	CHECK(lp_decode_into(d, ea, la) == LP_OK && lp_decode_into(d, eb, lb) == LP_OK,
		  "%s: decode both", what);
	got = encode(d, &lg);
	CHECK_SAME_ENC(got, lg, ref, lr, "%s: decode a, b", what);
	g_alloc.free(g_alloc.ctx, got);
	rc = lp_encoded_add(ea, la, eb, lb, &g_alloc, 0, SIZE_MAX / 4, &got, &lg);
	if (CHECK(rc == LP_OK, "%s: lp_encoded_add returned %d", what, rc))
	{
		CHECK_SAME_ENC(got, lg, ref, lr, "%s: lp_encoded_add", what);
		rc = lp_encoded_subtract(got, lg, eb, lb, &g_alloc, 0, SIZE_MAX / 4, &diff, &ld,
								 &misfit, &mlen);
		if (CHECK(rc == LP_OK, "%s: lp_encoded_subtract returned %d", what, rc))
		{
			CHECK_SAME_ENC(diff, ld, ea, la, "%s: (a + b) - b", what);
			g_alloc.free(g_alloc.ctx, diff);
		}
		rc = lp_encoded_subtract(got, lg, ea, la, &g_alloc, 0, SIZE_MAX / 4, &diff, &ld,
								 &misfit, &mlen);
		if (CHECK(rc == LP_OK, "%s: lp_encoded_subtract returned %d", what, rc))
		{
			CHECK_SAME_ENC(diff, ld, eb, lb, "%s: (a + b) - a", what);
			g_alloc.free(g_alloc.ctx, diff);
		}
		g_alloc.free(g_alloc.ctx, got);
	}
	g_alloc.free(g_alloc.ctx, ea);
	g_alloc.free(g_alloc.ctx, eb);
	g_alloc.free(g_alloc.ctx, ref);
	lp_state_free(m);
	lp_state_free(m2);
	lp_state_free(d);
}

/*
 * Merges between version 1 and version 2 are exact: a version 1 state's
 * requests count as unknown, in every merge path; subtraction gives back
 * either side, in its own version.
 */
void
test_red_merge(void)
{
	red_ref		ref;
	lp_state   *v1 = gen_state(&g_alloc, 0, 4000, 5, 7);
	lp_state   *v2 = red_state(0, 0, 8, 3000, 5, 99, NULL);
	lp_state   *v2b = red_state(0, 2, 3, 800, 0, 5, NULL);
	lp_state   *m;
	lp_route   *r;

	CHECK(lp_state_add_malformed(v1, 3) == LP_OK && lp_state_add_malformed(v2, 2) == LP_OK,
		  "red: malformed lines");
	red_merge_case(v1, v2, "red merge v1 + v2");
	red_merge_case(v2, v2b, "red merge v2 + v2");
	red_merge_case(v2, v2, "red merge v2 + itself");

	/* the unknown count of a merged route is the version 1 state's requests */
	memset(&ref, 0, sizeof(ref));
	m = red_state(0, 0, 1, 10, 0, 3, &ref);	/* route "/a" only */
	CHECK(lp_state_add_slow(v1, "/a", 2, 5) == LP_OK && lp_state_add_slow(v1, "/a", 2, 6) == LP_OK,
		  "red: v1 gets /a");
	CHECK(lp_state_merge(m, v1) == LP_OK, "red: merge v1 into v2");
	r = find_route(m, "/a", 2);
	if (CHECK(r != NULL && m->status, "red: /a merged"))
	{
		CHECK_EQ_U(m->red[r->red].cls[LP_CLASS_UNKNOWN], ref.cls[0][LP_CLASS_UNKNOWN] + 2,
				   "unknown of /a: v2's plus v1's two");
		CHECK_EQ_U(m->red[r->red].cls[1], ref.cls[0][1], "2xx of /a unchanged");
	}
	CHECK(lp_state_check(m) == NULL, "red: merged state check: %s", lp_state_check(m));
	lp_state_free(m);
	lp_state_free(v1);
	lp_state_free(v2);
	lp_state_free(v2b);
}

/* Options recorded differ: every merge path refuses; an empty side does not count. */
void
test_red_options(void)
{
	lp_state   *meth = red_state(LP_SOPT_METHOD, 0, 3, 500, 0, 1, NULL);
	lp_state   *okl = red_state(LP_SOPT_OK_LATENCY, 0, 3, 500, 0, 2, NULL);
	lp_state   *v1 = gen_state(&g_alloc, 0, 100, 3, 1);
	lp_state   *empty = lp_state_create(&g_alloc);
	lp_state   *m;
	uint8_t    *em,
			   *eo,
			   *e1,
			   *ee,
			   *out;
	size_t		lm,
				lo,
				l1,
				le,
				lout;
	const char *misfit;
	size_t		mlen;

	em = encode(meth, &lm);
	eo = encode(okl, &lo);
	e1 = encode(v1, &l1);
	ee = encode(empty, &le);

	m = lp_state_create(&g_alloc);
	CHECK(lp_state_merge(m, meth) == LP_OK, "options: method into empty");
	CHECK(lp_state_merge(m, okl) == LP_EOPTIONS, "options: method + ok_latency refused");
	CHECK(lp_state_merge(m, v1) == LP_EOPTIONS, "options: method + v1 refused");
	CHECK(lp_state_merge(m, empty) == LP_OK, "options: method + empty");
	CHECK(lp_decode_into(m, eo, lo) == LP_EOPTIONS, "options: decode ok_latency into method");
	CHECK(lp_decode_into(m, ee, le) == LP_OK, "options: decode empty into method");
	lp_state_free(m);

	CHECK(lp_encoded_add(em, lm, eo, lo, &g_alloc, 0, SIZE_MAX / 4, &out, &lout) == LP_EOPTIONS,
		  "options: lp_encoded_add refuses");
	CHECK(lp_encoded_add(e1, l1, em, lm, &g_alloc, 0, SIZE_MAX / 4, &out, &lout) == LP_EOPTIONS,
		  "options: lp_encoded_add v1 + method refuses");
	CHECK(lp_encoded_subtract(em, lm, e1, l1, &g_alloc, 0, SIZE_MAX / 4, &out, &lout,
							  &misfit, &mlen) == LP_EOPTIONS, "options: subtract refuses");
	if (CHECK(lp_encoded_add(ee, le, em, lm, &g_alloc, 0, SIZE_MAX / 4, &out, &lout) == LP_OK,
			  "options: empty + method"))
	{
		CHECK_SAME_ENC(out, lout, em, lm, "options: empty + method is method");
		g_alloc.free(g_alloc.ctx, out);
	}
	/* a deferred (parallel worker's) state: refused when merged */
	m = lp_state_create(&g_alloc);
	{
		lp_state   *w = lp_state_create(&g_alloc);

		CHECK(lp_state_merge(m, okl) == LP_OK, "options: leader ok_latency");
		CHECK(lp_state_defer(w, em, lm) == LP_OK, "options: worker defers method");
		CHECK(lp_state_merge_any(m, w) == LP_EOPTIONS, "options: deferred merge refused");
		lp_state_free(w);
	}
	lp_state_free(m);
	g_alloc.free(g_alloc.ctx, em);
	g_alloc.free(g_alloc.ctx, eo);
	g_alloc.free(g_alloc.ctx, e1);
	g_alloc.free(g_alloc.ctx, ee);
	lp_state_free(meth);
	lp_state_free(okl);
	lp_state_free(v1);
	lp_state_free(empty);
}

/* A version 2 route head: key, pairs (value, count) given as a list, then the seven counts. */
static void
b_red_route(bytes *b, const char *key, int npairs, const uint64_t *pairs, const uint64_t *c7)
{
	bytes		p;
	int			i;

	p.n = 0;
	for (i = 0; i < 2 * npairs; i++)
		b_var(&p, pairs[i]);
	b_route(b, key, (uint64_t) npairs, p.n);
	b_raw(b, p.b, p.n);
	for (i = 0; i < 7; i++)
		b_var(b, c7[i]);
}

static void
b_head2(bytes *b, uint64_t sopts, uint64_t malformed, uint64_t nroutes)
{
	b->n = 0;
	b_byte(b, LP_CODEC_VERSION_RED);
	b_var(b, sopts);
	b_var(b, malformed);
	b_var(b, nroutes);
}

/* Hostile version 2 bytes: every inconsistency refused, nothing read past the end. */
void
test_red_hostile(void)
{
	static const uint64_t p2[] = {10, 3, 5, 2};		/* values 10 x3, 15 x2: 5 requests */
	struct
	{
		const char *what;
		uint64_t	sopts;
		int			npairs;
		uint64_t	c7[7];
		int			ok;
	}			cases[] = {
		{"consistent: 5 in the histogram, 1 without latency", 0, 2, {0, 4, 0, 0, 2, 0, 1}, 1},
		{"consistent with ok_latency: 5xx outside", LP_SOPT_OK_LATENCY, 2, {0, 5, 0, 0, 3, 0, 0}, 1},
		{"consistent with method", LP_SOPT_METHOD, 2, {0, 0, 0, 0, 0, 5, 0}, 1},
		{"only unknown without options: must be version 1", 0, 2, {0, 0, 0, 0, 0, 5, 0}, 0},
		{"requests do not add up", 0, 2, {0, 4, 0, 0, 0, 0, 0}, 0},
		{"too many requests", 0, 2, {0, 6, 0, 0, 0, 0, 0}, 0},
		{"no latency past the requests", 0, 2, {0, 5, 0, 0, 0, 0, 9}, 0},
		{"ok_latency: 5xx past the rest", LP_SOPT_OK_LATENCY, 2, {0, 0, 0, 0, 5, 0, 1}, 0},
		{"no request at all", 0, 0, {0, 0, 0, 0, 0, 0, 0}, 0},
		{"a route without latency", 0, 0, {0, 0, 0, 1, 0, 0, 1}, 1},
		{"without latency, but counts in no histogram", 0, 0, {0, 0, 0, 1, 0, 0, 0}, 0},
		{"unknown option bit", 4, 2, {0, 5, 0, 0, 0, 0, 0}, 0},
		{"classes past INT64_MAX", 0, 2, {(uint64_t) INT64_MAX, 5, 0, 0, 0, 0, (uint64_t) INT64_MAX}, 0},
	};
	bytes		b;
	size_t		i,
				cut;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		lp_state   *st = lp_state_create(&g_alloc);
		int			rc;

		b_head2(&b, cases[i].sopts, 0, 1);
		b_red_route(&b, "/r", cases[i].npairs, p2, cases[i].c7);
		rc = lp_validate(b.b, b.n);
		CHECK((rc == LP_OK) == cases[i].ok, "hostile v2: %s: validate %d", cases[i].what, rc);
		rc = lp_decode_into(st, b.b, b.n);
		CHECK((rc == LP_OK) == cases[i].ok, "hostile v2: %s: decode %d", cases[i].what, rc);
		if (cases[i].ok)
		{
			/* and what is accepted encodes back to the same bytes */
			uint8_t    *e;
			size_t		el;

			e = encode(st, &el);
			CHECK_SAME_ENC(e, el, b.b, b.n, "hostile v2: %s: canonical", cases[i].what);
			g_alloc.free(g_alloc.ctx, e);
			/* every truncation is refused */
			for (cut = 0; cut < b.n; cut++)
				CHECK(lp_validate(b.b, cut) == LP_ECORRUPT, "hostile v2: %s cut at %zu",
					  cases[i].what, cut);
		}
		else
			CHECK(st->nroutes == 0 && st->malformed == 0, "hostile v2: %s: nothing decoded",
				  cases[i].what);
		lp_state_free(st);
	}
	/* a pair length given to a route without pairs */
	b_head2(&b, 0, 0, 1);
	b_route(&b, "/r", 0, 2);
	b_var(&b, 1);
	b_var(&b, 1);
	{
		static const uint64_t c7[] = {0, 0, 1, 0, 0, 0, 1};
		int			j;

		for (j = 0; j < 7; j++)
			b_var(&b, c7[j]);
	}
	CHECK(lp_validate(b.b, b.n) == LP_ECORRUPT, "hostile v2: pair bytes without pairs");
	/* version 3 */
	b.n = 0;
	b_byte(&b, 3);
	b_var(&b, 0);
	b_var(&b, 0);
	CHECK(lp_validate(b.b, b.n) == LP_ECORRUPT, "hostile: version 3");
}

/*
 * A run that counts statuses (lp_run, the rollups) encodes as lp_state
 * with lp_state_add_status does: runs with statuses, a run of malformed
 * lines only, and the options recorded.
 */
void
test_red_run(void)
{
	unsigned	sopts;

	for (sopts = 0; sopts <= LP_SOPT_ALL; sopts++)
	{
		lp_run	   *r = lp_run_create(&g_alloc);
		uint64_t	x = 77 + sopts;
		int			run;

		lp_run_count_status(r, sopts);
		for (run = 0; run < 4; run++)
		{
			lp_state   *st = lp_state_create(&g_alloc);
			uint8_t    *got,
					   *want;
			size_t		lg,
						lw;
			int			i,
						lines = run == 2 ? 0 : 300 * (run + 1);

			CHECK(lp_state_use_options(st, sopts) == LP_OK, "red run: reference");
			for (i = 0; i < lines; i++)
			{
				uint64_t	v = test_rnd(&x);
				int			k = (int) (v % 6);
				int			cls = lp_status_class(red_status(v >> 8));
				int64_t		lat = (v >> 30) % 7 == 0 ? -1 : (int64_t) ((v >> 12) % 500);

				CHECK(lp_run_add_status(r, red_keys[k], strlen(red_keys[k]), lat, cls) == LP_OK &&
					  lp_state_add_status(st, red_keys[k], strlen(red_keys[k]), lat, cls) == LP_OK,
					  "red run: add");
			}
			CHECK(lp_run_add_malformed(r, run) == LP_OK &&
				  lp_state_add_malformed(st, run) == LP_OK &&
				  lp_state_flush(st) == LP_OK, "red run: malformed");
			want = encode(st, &lw);
			if (CHECK(lp_run_encode(r, &g_alloc, 0, SIZE_MAX / 4, &got, &lg) == LP_OK,
					  "red run: encode"))
			{
				CHECK_SAME_ENC(got, lg, want, lw, "red run: options %u, run %d", sopts, run);
				g_alloc.free(g_alloc.ctx, got);
			}
			g_alloc.free(g_alloc.ctx, want);
			lp_state_free(st);
		}
		lp_run_free(r);
	}
}

/*
 * The direct parser that counting statuses takes (lp_format_direct_fields)
 * finds the status and method the entry's parser finds with
 * LP_PARSE_FIELDS, on generated lines of every combined format and on
 * edge lines; formats of other families have none.
 */
void
test_red_direct_fields(void)
{
	static const char *const names[] = {"combined", "combined_query", "combined_us", "combined_us_query"};
	static const char *const edges[] = {
		"1.2.3.4 - - [07/Nov/2026:00:50:00 +0000] \"GET /a HTTP/1.1\" 999 5 \"-\" \"x\" 0.010",
		"1.2.3.4 - - [07/Nov/2026:00:50:00 +0000] \"GET /a HTTP/1.1\" 000 5 \"-\" \"x\" 0.010",
		"1.2.3.4 - - [07/Nov/2026:00:50:00 +0000] \"GET /a HTTP/1.1\" 20 5 \"-\" \"x\" 0.010",
		"1.2.3.4 - - [07/Nov/2026:00:50:00 +0000] \"GET /a HTTP/1.1\" 2000 5 \"-\" \"x\" 0.010",
		"1.2.3.4 - - [07/Nov/2026:00:50:00 +0000] \"PATCH /a?q=\\\"x\\\" HTTP/1.1\"\t503 5 \"-\" \"x\" 60.000",
		"1.2.3.4 - - [07/Nov/2026:00:50:00 +0000] \"GET /a HTTP/1.1\" 101 5 \"-\" \"x\" 1\r",
		"1.2.3.4 - - [07/Nov/2026:00:50:00 +0000] \"M /a HTTP/1.1\" 1x1 5 \"-\" \"x\" 1",
	};
	size_t		f,
				i;
	lp_gen		g;
	char		buf[LP_GEN_MAXLINE];
	int			compared = 0;

	for (f = 0; f < sizeof(names) / sizeof(names[0]); f++)
	{
		const lp_format_def *fmt = lp_format_lookup(names[f], strlen(names[f]));
		unsigned	dflags = 0;
		lp_direct_fn fn;
		lp_parse_ctx ctx = {LP_PARSE_FIELDS, NULL};

		if (!CHECK(fmt != NULL, "direct fields: format %s", names[f]))
			continue;
		fn = lp_format_direct_fields(fmt, 0, &dflags);
		if (!CHECK(fn != NULL, "direct fields: %s has one", names[f]))
			continue;
		dflags |= LP_PARSE_FIELDS;	/* the method too */
		lp_gen_init(&g, 50, 11 + (int64_t) f);
		lp_gen_set_format(&g, lp_gen_format_lookup(names[f], strlen(names[f])));
		for (i = 0; i < 3000 + sizeof(edges) / sizeof(edges[0]); i++)
		{
			const char *line;
			size_t		n;
			lp_row		row;
			lp_result	r;
			char		scratch[2 * LP_GEN_MAXLINE + 2];

			if (i < 3000)
			{
				n = lp_gen_line(&g, (int64_t) i, buf);
				line = buf;
			}
			else
			{
				line = edges[i - 3000];
				n = strlen(line);
			}
			ctx.buf = scratch;
			memset(&r, 0, sizeof(r));
			if (!fn(line, n, dflags, &row))
				continue;		/* the entry's parser decides those */
			CHECK(fmt->parse(line, n, fmt, &ctx, &r) == LP_ST_OK, "direct fields: %s line %zu parses",
				  names[f], i);
			CHECK(row.status == ((r.has & LP_HAS_STATUS) ? r.status : 0),
				  "direct fields: %s line %zu: status %d, entry %d", names[f], i, row.status,
				  (r.has & LP_HAS_STATUS) ? r.status : 0);
			CHECK((row.method == NULL) == !(r.has & LP_HAS_METHOD) &&
				  (!row.method || (row.method_len == r.method_len &&
								   memcmp(row.method, r.method, r.method_len) == 0)),
				  "direct fields: %s line %zu: method", names[f], i);
			CHECK(row.latency == r.latency && row.route_len == r.route_len &&
				  memcmp(row.route, r.route, r.route_len) == 0,
				  "direct fields: %s line %zu: route and latency", names[f], i);
			compared++;
		}
	}
	CHECK(compared > 4 * 2900, "direct fields: %d lines compared", compared);
	{
		unsigned	dflags = 0;

		CHECK(lp_format_direct_fields(LP_FORMAT_DEFAULT, 0, &dflags) == NULL,
			  "direct fields: the default format has none");
	}
}
