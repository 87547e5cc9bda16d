/*
 * src/lp_combined_impl.h -- the combined-format parser, instantiated once per
 * instruction set (plain C, included by lp_formats.c only)
 *
 * lp_formats.c includes this file twice: with LP_CI_AVX2 0 for the base
 * build (SSE2 on x86-64, SWAR or bytes elsewhere) and, on x86-64 with GCC or
 * clang, with LP_CI_AVX2 1 and LP_CI_ATTR = target("avx2"), whose scans step
 * 32 bytes at a time.  lp_combined_parser() picks one at run time from what
 * the CPU has.  Every instantiation returns the same for every line (the
 * unit tests compare each with the byte-by-byte reference,
 * test/unit/ref_combined.h).
 *
 * Parameters: LP_CI(name) names a function of this instantiation;
 * LP_CI_ATTR is its function attribute; LP_CI_AVX2 says whether lp_mask32
 * may be used.
 */
#if !defined(LP_CI) || !defined(LP_CI_ATTR) || !defined(LP_CI_AVX2)
#error "lp_combined_impl.h is included by lp_formats.c with LP_CI, LP_CI_ATTR and LP_CI_AVX2 defined"
#endif

/*
 * The first byte a, b or c in [p, end), or NULL.  lo <= p is the start of the
 * line: the last block of a line of 16 (32) bytes or more is read as the 16
 * (32) bytes that end at end (from lo on, so inside the line), its bits
 * below p shifted out.
 */
static LP_ALWAYS_INLINE LP_CI_ATTR const char *
LP_CI(lp_scan3)(const char *lo, const char *p, const char *end, char a, char b, char c)
{
#ifdef __SSE2__
	const __m128i va = _mm_set1_epi8(a);
	const __m128i vb = _mm_set1_epi8(b);
	const __m128i vc = _mm_set1_epi8(c);
	unsigned	m;

#if LP_CI_AVX2
	/* 32 bytes a step; the last 32 of a line of 32 bytes or more at once */
	{
		const __m256i wa = _mm256_set1_epi8(a);
		const __m256i wb = _mm256_set1_epi8(b);
		const __m256i wc = _mm256_set1_epi8(c);

		while (end - p >= 32)
		{
			m = lp_mask32(p, wa, wb, wc);
			if (m)
				return p + __builtin_ctz(m);
			p += 32;
		}
		if (p < end && end - lo >= 32)
		{
			m = lp_mask32(end - 32, wa, wb, wc) >> (32 - (end - p));
			return m ? p + __builtin_ctz(m) : NULL;
		}
	}
#endif
	while (end - p >= 16)
	{
		m = lp_mask16(p, va, vb, vc);
		if (m)
			return p + __builtin_ctz(m);
		p += 16;
	}
	if (p < end && end - lo >= 16)
	{
		m = lp_mask16(end - 16, va, vb, vc) >> (16 - (end - p));
		return m ? p + __builtin_ctz(m) : NULL;
	}
#elif defined(LP_SWAR_SCAN)
	const uint64_t wa = UINT64_C(0x0101010101010101) * (unsigned char) a;
	const uint64_t wb = UINT64_C(0x0101010101010101) * (unsigned char) b;
	const uint64_t wc = UINT64_C(0x0101010101010101) * (unsigned char) c;

	(void) lo;
	while (end - p >= 8)
	{
		uint64_t	m = lp_mask8(p, wa, wb, wc);

		if (m)
			return p + (__builtin_ctzll(m) >> 3);
		p += 8;
	}
#else
	(void) lo;
#endif
	for (; p < end; p++)
	{
		if (*p == a || *p == b || *p == c)
			return p;
	}
	return NULL;
}

/* The first byte a or b in [p, end), or NULL (lp_scan3 with c = b). */
static LP_ALWAYS_INLINE LP_CI_ATTR const char *
LP_CI(lp_scan2)(const char *lo, const char *p, const char *end, char a, char b)
{
	return LP_CI(lp_scan3)(lo, p, end, a, b, b);
}

/*
 * The '"' that opens the request: the first '"' at the start of the line or
 * after a blank, or NULL.  Such a '"' is never escaped (the byte before it
 * is not a backslash), and nginx escapes the '"' of a user name.  *lb is
 * set to the last '[' before it (before end when there is none), or NULL:
 * the time's opening bracket, found in the same pass.
 */
static LP_ALWAYS_INLINE LP_CI_ATTR const char *
LP_CI(lp_find_request)(const char *line, const char *end, const char **lb)
{
	const char *p = line;
	const char *q;

	*lb = NULL;
	while ((q = LP_CI(lp_scan2)(line, p, end, '"', '[')) != NULL)
	{
		if (*q == '[')
			*lb = q;
		else if (q == line || LP_IS_BLANK(q[-1]))
			return q;
		p = q + 1;
	}
	return NULL;
}

/*
 * The "[...]" field before limit (the request's quote, or the end of the
 * line): lb, the last '[' before limit (from lp_find_request), and the
 * first ']' after it; lo is the start of the line.  Returns the byte after ']' or NULL.
 */
static LP_ALWAYS_INLINE LP_CI_ATTR const char *
LP_CI(lp_find_time)(const char *lo, const char *lb, const char *limit, const char **time, size_t *time_len)
{
	const char *rb;

	if (!lb)
		return NULL;
	rb = LP_CI(lp_scan2)(lo, lb + 1, limit, ']', ']');
	if (!rb)
		return NULL;
	*time = lb + 1;
	*time_len = (size_t) (rb - lb - 1);
	return rb + 1;
}

/*
 * p points at an opening '"': return the closing '"' (a backslash escapes
 * the byte after it), or NULL when the line ends first.  The bytes up to
 * the next '"' or '\' are skipped a block at a time; lo is the start of
 * the line.
 */
static LP_ALWAYS_INLINE LP_CI_ATTR const char *
LP_CI(lp_close_quote)(const char *lo, const char *p, const char *end)
{
	p++;
	while ((p = LP_CI(lp_scan2)(lo, p, end, '"', '\\')) != NULL)
	{
		if (*p == '"')
			return p;
		if (end - p < 2)
			return NULL;
		p += 2;
	}
	return NULL;
}

/*
 * The route of the request text rq[0..rq_end): METHOD SP TARGET [...].
 * Sets out->route, out->route_len and out->route_slash; lo is the start of
 * the line.
 */
static LP_ALWAYS_INLINE LP_CI_ATTR lp_cparse_status
LP_CI(lp_request_route)(const char *lo, const char *rq, const char *rq_end, unsigned flags, lp_cline *out)
{
	const char *m = rq;
	const char *t;
	const char *te;

	/* the usual method read at once ("GET " stops the loop below at the blank) */
	if (rq_end - rq >= 4 && memcmp(rq, "GET ", 4) == 0)
		m = rq + 3;
	else
		while (m < rq_end && lp_tchar[(unsigned char) *m])
			m++;
	if (m == rq_end && rq_end - rq == 1 && *rq == '-')
		return LP_C_BAD_REQUEST;	/* nginx's "-": no request line */
	if (m == rq || m == rq_end || *m != ' ')
		return LP_C_NOT_HTTP;
	t = m + 1;
	/*
	 * The usual origin-form target with its query string dropped: the route
	 * ends at the first blank or '?', found in one scan (the path below
	 * gives the same: no "*", no scheme, never empty)
	 */
	if (!(flags & LP_FMT_KEEP_QUERY) && t < rq_end && *t == '/')
	{
		const char *h = LP_CI(lp_scan3)(lo, t, rq_end, ' ', '\t', '?');

		out->route = t;
		out->route_len = (size_t) ((h ? h : rq_end) - t);
		return LP_C_OK;
	}
	te = LP_CI(lp_scan2)(lo, t, rq_end, ' ', '\t');
	if (!te)
		te = rq_end;
	if (te == t)
		return LP_C_NOT_HTTP;
	/* the HTTP/2 connection preface, sent to an HTTP/1 port */
	if (m - rq == 3 && memcmp(rq, "PRI", 3) == 0 && te - t == 1 && *t == '*' &&
		rq_end - te == 9 && memcmp(te, " HTTP/2.0", 9) == 0)
		return LP_C_NOT_HTTP;

	/* absolute form, scheme://authority[/path][?query]: the path counts */
	if ((unsigned) ((*t | 0x20) - 'a') <= 25)
	{
		const char *s = t + 1;

		while (s < te && lp_is_scheme((unsigned char) *s))
			s++;
		if (te - s >= 3 && s[0] == ':' && s[1] == '/' && s[2] == '/')
		{
			s += 3;
			while (s < te && *s != '/' && *s != '?')
				s++;
			if (s == te || (*s == '?' && !(flags & LP_FMT_KEEP_QUERY)))
			{
				out->route = "/";
				out->route_len = 1;
				return LP_C_OK;
			}
			out->route_slash = *s == '?';
			t = s;
		}
	}
	out->route = t;
	out->route_len = (size_t) (te - t);
	if (!(flags & LP_FMT_KEEP_QUERY))
	{
		const char *qm = LP_CI(lp_scan2)(lo, t, te, '?', '?');

		if (qm)
			out->route_len = (size_t) (qm - t);
	}
	if (out->route_len == 0)
		return LP_C_BAD_REQUEST;
	return LP_C_OK;
}

/* See lp_formats.h: lp_parse_combined. */
static LP_CI_ATTR lp_cparse_status
LP_CI(lp_parse_combined)(const char *line, size_t len, unsigned flags, lp_cline *out)
{
	const char *end = line + len;
	const char *p;
	const char *q;
	const char *rq;
	const char *lb;
	const char *last = NULL;
	size_t		last_len = 0;
	int			last_quoted = 0;
	int			nfields = 0;
	lp_cparse_status st;

	out->route = NULL;
	out->route_len = 0;
	out->time = NULL;
	out->time_len = 0;
	out->request = NULL;
	out->request_len = 0;
	out->bad = NULL;
	out->bad_len = 0;
	out->tail_fields = 0;
	out->route_slash = 0;
	if (len > 0 && end[-1] == '\r')
		end--;

	/* "request": the first field opened by a '"'; [time]: the last '[' before it */
	rq = LP_CI(lp_find_request)(line, end, &lb);
	if (!LP_CI(lp_find_time)(line, lb, rq ? rq : end, &out->time, &out->time_len))
		return LP_C_NO_TIME;
	if (!rq)
		return LP_C_NO_REQUEST;
	q = LP_CI(lp_close_quote)(line, rq, end);
	if (!q)
		return LP_C_UNTERMINATED;
	out->request = rq + 1;
	out->request_len = (size_t) (q - rq - 1);
	st = LP_CI(lp_request_route)(line, out->request, q, flags, out);
	if (st != LP_C_OK)
		return st;

	/*
	 * status size "referer" "agent" ... request-time: the last field counts
	 * (counted in a local: out may alias the line for the compiler)
	 */
	p = q + 1;
	for (;;)
	{
		while (p < end && LP_IS_BLANK(*p))
			p++;
		if (p == end)
			break;
		last = p;
		if (*p == '"')
		{
			q = LP_CI(lp_close_quote)(line, p, end);
			if (!q)
			{
				out->tail_fields = nfields;
				return LP_C_UNTERMINATED;
			}
			p = q + 1;
			last_quoted = 1;
		}
		else
		{
			p = LP_CI(lp_scan2)(line, p, end, ' ', '\t');
			if (!p)
				p = end;
			last_quoted = 0;
		}
		last_len = (size_t) (p - last);
		nfields++;
	}
	out->tail_fields = nfields;
	if (out->tail_fields < LP_C_MIN_TAIL_FIELDS)
		return LP_C_TOO_FEW_FIELDS;
	if (last_quoted)
		st = LP_C_BAD_LATENCY;
	else if (flags & LP_FMT_MICROS)
		st = lp_parse_micros_ms(last, last_len, &out->latency);
	else
		st = lp_seconds_ms(last, last_len, &out->latency);
	if (st != LP_C_OK)
	{
		out->bad = last;
		out->bad_len = last_len;
	}
	return st;
}

#undef LP_CI
#undef LP_CI_ATTR
#undef LP_CI_AVX2
