/*
 * src/lp_combined_impl.h -- the combined-format parser, instantiated once per
 * instruction set (plain C, included by lp_combined.c only)
 *
 * lp_combined.c includes this file twice: with LP_CI_AVX2 0 for the base
 * build (SSE2 on x86-64, SWAR or bytes elsewhere) and, on x86-64 with GCC or
 * clang, with LP_CI_AVX2 1 and LP_CI_ATTR = target("avx2"), whose scans step
 * 32 bytes at a time.  lp_combined_parser() picks one at run time from what
 * the CPU has.  Every instantiation returns the same for every line (the
 * unit tests compare each with the byte-by-byte reference,
 * test/unit/ref_combined.h).
 *
 * Where SSE2 is there (x86-64 always), the usual line also takes three
 * paths that read whole blocks instead of stopping at a block that depends
 * on the line (lp_front: the request and the time from masks of the first
 * 128 bytes; the method read at once; lp_tail_fields: the fields after the
 * request from masks of the tail): the scans' loops exit where a field
 * happens to end, and on real logs those exits are mispredicted branches,
 * more costly than the instructions.  Each path checks that it finds what
 * the scans would and otherwise leaves the line to them.
 *
 * The grammar is written here; how a CPU finds a byte class is written in
 * lp_simd.h (lp_eq3_16, lp_eq3_32, lp_blk64_eq, lp_prefix_xor64,
 * lp_ctz128, ...), whose primitives each have a scalar twin in the unit
 * tests.
 *
 * Parameters: LP_CI(name) names a function of this instantiation;
 * LP_CI_ATTR is its function attribute; LP_CI_AVX2 says whether the AVX2
 * primitives (32 bytes a step) may be used.
 */
#if !defined(LP_CI) || !defined(LP_CI_ATTR) || !defined(LP_CI_AVX2)
#error "lp_combined_impl.h is included by lp_combined.c with LP_CI, LP_CI_ATTR and LP_CI_AVX2 defined"
#endif

/* The 64-byte block of this build's whole-block paths (lp_simd.h). */
#if LP_CI_AVX2
#define LP_CI_BLK lp_blk64x2
#define LP_CI_BLK_LOAD lp_blk64x2_load
#define LP_CI_BLK_EQ lp_blk64x2_eq
#define LP_CI_BLK_EQ2 lp_blk64x2_eq2
#elif defined(LP_SIMD_SSE2)
#define LP_CI_BLK lp_blk64
#define LP_CI_BLK_LOAD lp_blk64_load
#define LP_CI_BLK_EQ lp_blk64_eq
#define LP_CI_BLK_EQ2 lp_blk64_eq2
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
#ifdef LP_SIMD_SSE2
	const __m128i va = lp_splat16(a);
	const __m128i vb = lp_splat16(b);
	const __m128i vc = lp_splat16(c);
	unsigned	m;

#if LP_CI_AVX2
	/* 32 bytes a step; the last 32 of a line of 32 bytes or more at once */
	{
		const __m256i wa = lp_splat32(a);
		const __m256i wb = lp_splat32(b);
		const __m256i wc = lp_splat32(c);

		while (end - p >= 32)
		{
			m = lp_eq3_32(p, wa, wb, wc);
			if (m)
				return p + lp_ctz32(m);
			p += 32;
		}
		if (p < end && end - lo >= 32)
		{
			m = lp_eq3_32(end - 32, wa, wb, wc) >> (32 - (end - p));
			return m ? p + lp_ctz32(m) : NULL;
		}
	}
#endif
	while (end - p >= 16)
	{
		m = lp_eq3_16(p, va, vb, vc);
		if (m)
			return p + lp_ctz32(m);
		p += 16;
	}
	if (p < end && end - lo >= 16)
	{
		m = lp_eq3_16(end - 16, va, vb, vc) >> (16 - (end - p));
		return m ? p + lp_ctz32(m) : NULL;
	}
#elif defined(LP_SIMD_SWAR)
	const uint64_t wa = lp_swar_splat(a);
	const uint64_t wb = lp_swar_splat(b);
	const uint64_t wc = lp_swar_splat(c);

	(void) lo;
	while (end - p >= 8)
	{
		uint64_t	m = lp_swar_eq3(p, wa, wb, wc);

		if (m)
			return p + (lp_ctz64(m) >> 3);
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
 * the line, end its end.  stop: NULL, or (from lp_front, when the request
 * ends within the line's first 128 bytes) the bits of its blanks and '?'.
 */
static LP_ALWAYS_INLINE LP_CI_ATTR lp_status
LP_CI(lp_request_route)(const char *lo, const char *rq, const char *rq_end, const char *end,
						const uint64_t *stop, unsigned flags, lp_cline *out)
{
	const char *m = rq;
	const char *t;
	const char *te;

#ifdef LP_SIMD_SSE2
	/*
	 * The usual method, capital letters and a blank, read at once: the
	 * first of the 16 bytes at rq that is not a capital letter.  Capitals
	 * are tchars, so the loop below would stop at that same blank; any
	 * other method goes through the loop (the branch follows the log, not
	 * the line).
	 */
	if (end - rq >= 16)
	{
		unsigned	caps = lp_upper_16(rq);
		unsigned	j = lp_ctz32(~caps);

		if (j > 0 && j < 16 && rq + j < rq_end && rq[j] == ' ')
			m = rq + j;
	}
	if (m == rq)
#endif
		while (m < rq_end && lp_tchar[(unsigned char) *m])
			m++;
	if (m == rq_end && rq_end - rq == 1 && *rq == '-')
		return LP_ST_BAD_REQUEST;	/* nginx's "-": no request line */
	if (m == rq || m == rq_end || *m != ' ')
		return LP_ST_NOT_HTTP;
	t = m + 1;
	/*
	 * The usual origin-form target with its query string dropped: the route
	 * ends at the first blank or '?', found in one scan (the path below
	 * gives the same: no "*", no scheme, never empty)
	 */
	if (!(flags & LP_PARSE_KEEP_QUERY) && t < rq_end && *t == '/')
	{
		const char *h;

#if defined(LP_SIMD_SSE2) && defined(LP_SIMD_U128)
		if (stop)
		{
			/* the first blank or '?' at or after t, from lp_front's masks */
			lp_u128		c = ((lp_u128) stop[1] << 64 | stop[0]) &
				~(((lp_u128) 1 << (t - lo)) - 1);
			size_t		at = c ? lp_ctz128(c) : 128;

			h = at < (size_t) (rq_end - lo) ? lo + at : NULL;
		}
		else
#endif
			h = LP_CI(lp_scan3)(lo, t, rq_end, ' ', '\t', '?');

		out->route = t;
		out->route_len = (size_t) ((h ? h : rq_end) - t);
		return LP_ST_OK;
	}
	te = LP_CI(lp_scan2)(lo, t, rq_end, ' ', '\t');
	if (!te)
		te = rq_end;
	if (te == t)
		return LP_ST_NOT_HTTP;
	/* the HTTP/2 connection preface, sent to an HTTP/1 port */
	if (m - rq == 3 && memcmp(rq, "PRI", 3) == 0 && te - t == 1 && *t == '*' &&
		rq_end - te == 9 && memcmp(te, " HTTP/2.0", 9) == 0)
		return LP_ST_NOT_HTTP;

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
			if (s == te || (*s == '?' && !(flags & LP_PARSE_KEEP_QUERY)))
			{
				out->route = "/";
				out->route_len = 1;
				return LP_ST_OK;
			}
			out->route_slash = *s == '?';
			t = s;
		}
	}
	out->route = t;
	out->route_len = (size_t) (te - t);
	if (!(flags & LP_PARSE_KEEP_QUERY))
	{
		const char *qm = LP_CI(lp_scan2)(lo, t, te, '?', '?');

		if (qm)
			out->route_len = (size_t) (qm - t);
	}
	if (out->route_len == 0)
		return LP_ST_BAD_REQUEST;
	return LP_ST_OK;
}

#ifdef LP_SIMD_SSE2
/*
 * The masks of the whole-block paths for the 64 bytes at s, a bit a byte:
 * m[k] for each class k (LP_WM_*, lp_combined.c) below n, a constant at each
 * call site (LP_WM_TAIL for the tail's three, LP_WM_CLASSES for the front).
 */
static LP_ALWAYS_INLINE LP_CI_ATTR void
LP_CI(lp_word_masks)(const char *s, uint64_t m[LP_WM_CLASSES], int n)
{
	LP_CI_BLK	b = LP_CI_BLK_LOAD(s);

	m[LP_WM_Q] = LP_CI_BLK_EQ(b, '"');
	m[LP_WM_BS] = LP_CI_BLK_EQ(b, '\\');
	m[LP_WM_BL] = LP_CI_BLK_EQ2(b, ' ', '\t');
	if (n > LP_WM_TAIL)
	{
		m[LP_WM_LB] = LP_CI_BLK_EQ(b, '[');
		m[LP_WM_RB] = LP_CI_BLK_EQ(b, ']');
		m[LP_WM_QM] = LP_CI_BLK_EQ(b, '?');
	}
}

/*
 * The tail of a line (the bytes after the request) read whole, without a
 * loop per field: masks of its quotes, backslashes and blanks, 64 bytes a
 * word, and the fields from bit arithmetic.  The loop in lp_parse_combined
 * below walks the fields one at a time; where that walk is the same as
 * splitting at the blanks outside quoted fields, this finds the same
 * fields at once.  That holds when
 *   - the tail has no backslash (no escaped byte),
 *   - its quotes pair up (an even number), each pair's opening quote first
 *     in its field (after a blank, or first in the tail), and each closing
 *     quote last in its field (before a blank, or last in the line),
 * which is how nginx writes its quoted fields (it escapes a '"' inside
 * them as \x22).  Otherwise, or for a tail longer than LP_TAIL_MAX bytes or
 * a line shorter than 64 bytes, it returns 0 and the loop decides;
 * otherwise 1 with what the loop would have found: the number of fields,
 * the last one and whether it is quoted.  The unit tests compare both on
 * tails of quotes, backslashes, blanks and letters at every length.
 */
#define LP_TAIL_WORDS 8
#define LP_TAIL_MAX (LP_TAIL_WORDS * 64)

/*
 * The fields of the tail [p, end) at once (see above); line is the start
 * of the line.  Returns 0 when the loop must decide.
 */
static LP_ALWAYS_INLINE LP_CI_ATTR int
LP_CI(lp_tail_fields)(const char *line, const char *p, const char *end, int *nfields,
					  const char **last, size_t *last_len, int *last_quoted)
{
	size_t		n = (size_t) (end - p);
	size_t		nw = (n + 63) >> 6;
	size_t		k;
	uint64_t	sep[LP_TAIL_WORDS];
	uint64_t	inq = 0;		/* all ones while a quoted field runs on from the word before */
	uint64_t	prev_sep = 1;	/* the byte before p counts as a separator */
	uint64_t	close_top = 0;	/* a closing quote ended the word before */
	uint64_t	bad = 0;
	int			count = 0;
	size_t		ls = 0;			/* the last field's start, offset from p */
	int			found = 0;

	if (n == 0 || n > LP_TAIL_MAX || end - line < 64)
		return 0;
	for (k = 0; k < nw; k++)
	{
		uint64_t	q,
					bs,
					bl,
					x,
					open,
					close,
					s,
					f,
					st;
		uint64_t	m[LP_WM_CLASSES];
		size_t		rest = n - (k << 6);

		if (rest >= 64)
		{
			LP_CI(lp_word_masks)(p + (k << 6), m, LP_WM_TAIL);
			q = m[LP_WM_Q];
			bs = m[LP_WM_BS];
			bl = m[LP_WM_BL];
		}
		else
		{
			/* the 64 bytes that end at the end, shifted down to the word */
			unsigned	sh = (unsigned) (64 - rest);

			LP_CI(lp_word_masks)(end - 64, m, LP_WM_TAIL);
			q = m[LP_WM_Q] >> sh;
			bs = m[LP_WM_BS] >> sh;
			bl = m[LP_WM_BL] >> sh;
		}
		/* x: bytes at or after an opening quote and before its closing one */
		x = lp_prefix_xor64(q) ^ inq;
		open = q & x;
		close = q & ~x;
		/* separators: blanks outside quoted fields, and every byte past the end */
		s = bl & ~(x | q);
		if (rest < 64)
			s |= ~UINT64_C(0) << rest;
		bad |= bs;
		/* an opening quote after a separator; a closing quote before one */
		bad |= open & ~(s << 1 | prev_sep);
		bad |= close & ~(s >> 1 | UINT64_C(1) << 63);
		bad |= close_top & ~s & 1;
		close_top = close >> 63;
		inq = (uint64_t) 0 - (x >> 63);
		/* field starts: a byte that is no separator after one that is */
		f = ~s;
		st = f & (s << 1 | prev_sep);
		count += (int) lp_popcount64(st);
		if (st)
		{
			ls = (k << 6) + lp_top64(st);
			found = 1;
		}
		prev_sep = s >> 63;
		sep[k] = s;
	}
	if (bad || inq)
		return 0;
	*nfields = count;
	if (found)
	{
		size_t		w = ls >> 6;
		uint64_t	s = sep[w] & (~UINT64_C(0) << (ls & 63));
		size_t		e;

		while (!s && ++w < nw)
			s = sep[w];
		e = s ? (w << 6) + lp_ctz64(s) : n;
		if (e > n)
			e = n;
		*last = p + ls;
		*last_len = e - ls;
		*last_quoted = p[ls] == '"';
	}
	return 1;
}
#endif

#if defined(LP_SIMD_SSE2) && defined(LP_SIMD_U128)
/*
 * The request and the time of a line of 128 bytes or more whose request
 * closes within its first 128 bytes (most lines): found from masks of those
 * bytes, with no loop that stops at a line-dependent block.  What the scans
 * of lp_find_request, lp_find_time and lp_close_quote find: the request's
 * '"' is the first at the line's start or after a blank, the time is the
 * last '[' before it up to the first ']' after that, the request closes at
 * the next '"'.  Returns 1 with *rq, *lb, *rb and *q (the request's
 * closing quote) when all of them are found this way with no backslash in
 * the request, and stop[0..1]: the blanks and '?' of the 128 bytes (where
 * the route ends, for lp_request_route); 0 otherwise, and the scans decide
 * (the same answers, and the errors).
 */
static LP_ALWAYS_INLINE LP_CI_ATTR int
LP_CI(lp_front)(const char *line, const char *end, const char **rq, const char **lb,
				const char **rb, const char **q, uint64_t stop[2])
{
	typedef lp_u128 u128;
	uint64_t	w0[LP_WM_CLASSES],
				w1[LP_WM_CLASSES];
	u128		quote,
				lbr,
				rbr,
				bsl,
				blank,
				c,
				one = 1;
	unsigned	r,
				l,
				t,
				e;

	if (end - line < 128)
		return 0;
	LP_CI(lp_word_masks)(line, w0, LP_WM_CLASSES);
	LP_CI(lp_word_masks)(line + 64, w1, LP_WM_CLASSES);
	quote = (u128) w1[LP_WM_Q] << 64 | w0[LP_WM_Q];
	lbr = (u128) w1[LP_WM_LB] << 64 | w0[LP_WM_LB];
	rbr = (u128) w1[LP_WM_RB] << 64 | w0[LP_WM_RB];
	bsl = (u128) w1[LP_WM_BS] << 64 | w0[LP_WM_BS];
	blank = (u128) w1[LP_WM_BL] << 64 | w0[LP_WM_BL];

	/* the request's '"': the first at the start or after a blank */
	c = quote & (blank << 1 | 1);
	if (!c)
		return 0;
	r = lp_ctz128(c);
	/* the time: the last '[' before it, the first ']' after that '[' */
	c = lbr & ((one << r) - 1);
	if (!c)
		return 0;
	l = lp_top128(c);
	c = rbr & ~((one << l << 1) - 1) & ((one << r) - 1);
	if (!c)
		return 0;
	t = lp_ctz128(c);
	/* the request's closing '"': the next '"' or '\', which must be a '"' */
	c = (quote | bsl) & ~((one << r << 1) - 1);
	if (!c)
		return 0;
	e = lp_ctz128(c);
	if (line[e] != '"')
		return 0;
	*rq = line + r;
	*lb = line + l;
	*rb = line + t;
	*q = line + e;
	stop[0] = w0[LP_WM_BL] | w0[LP_WM_QM];
	stop[1] = w1[LP_WM_BL] | w1[LP_WM_QM];
	return 1;
}
#endif

/*
 * lp_parse_combined (lp_combined.h), inline in both functions of this
 * build below: the parser, and the direct parser of the entries.
 */
static LP_ALWAYS_INLINE LP_CI_ATTR lp_status
LP_CI(lp_combined_core)(const char *line, size_t len, unsigned flags, lp_cline *out)
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
	lp_status	st;
#if defined(LP_SIMD_SSE2) && defined(LP_SIMD_U128)
	uint64_t	stop[2];
#endif
	const uint64_t *stopp = NULL;

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
#if defined(LP_SIMD_SSE2) && defined(LP_SIMD_U128)
	if (LP_CI(lp_front)(line, end, &rq, &lb, &p, &q, stop))
	{
		stopp = stop;
		out->time = lb + 1;
		out->time_len = (size_t) (p - lb - 1);
	}
	else
#endif
	{
		rq = LP_CI(lp_find_request)(line, end, &lb);
		if (!LP_CI(lp_find_time)(line, lb, rq ? rq : end, &out->time, &out->time_len))
			return LP_ST_NO_TIME;
		if (!rq)
			return LP_ST_NO_REQUEST;
		q = LP_CI(lp_close_quote)(line, rq, end);
		if (!q)
			return LP_ST_UNTERMINATED;
	}
	out->request = rq + 1;
	out->request_len = (size_t) (q - rq - 1);
	st = LP_CI(lp_request_route)(line, out->request, q, end, stopp, flags, out);
	if (st != LP_ST_OK)
		return st;

	/*
	 * status size "referer" "agent" ... request-time: the last field counts
	 * (counted in a local: out may alias the line for the compiler)
	 */
	p = q + 1;
#ifdef LP_SIMD_SSE2
	if (LP_CI(lp_tail_fields)(line, p, end, &nfields, &last, &last_len, &last_quoted))
		p = end;
#endif
	while (p < end)
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
				return LP_ST_UNTERMINATED;
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
		return LP_ST_TOO_FEW_TAIL_FIELDS;
	if (last_quoted)
		st = (flags & LP_C_MICROS) ? LP_ST_BAD_MICROS : LP_ST_BAD_SECONDS;
	else if (flags & LP_C_MICROS)
		st = lp_parse_micros_ms(last, last_len, &out->latency);
	else
		st = lp_seconds_ms(last, last_len, &out->latency);
	if (st != LP_ST_OK)
	{
		out->bad = last;
		out->bad_len = last_len;
	}
	return st;
}

/* See lp_combined.h: lp_parse_combined, this build. */
static LP_CI_ATTR lp_status
LP_CI(lp_parse_combined)(const char *line, size_t len, unsigned flags, lp_cline *out)
{
	return LP_CI(lp_combined_core)(line, len, flags, out);
}

/*
 * See lp_combined.h: lp_combined_direct, this build.  A line whose route
 * has to be built (route_slash) goes to the entry's parser, which finds
 * the same and builds it.
 */
static LP_CI_ATTR int
LP_CI(lp_combined_direct)(const char *line, size_t len, unsigned flags, lp_row *out)
{
	lp_cline	cl;

	if (LP_CI(lp_combined_core)(line, len, flags, &cl) != LP_ST_OK || cl.route_slash)
		return 0;
	out->route = cl.route;
	out->route_len = cl.route_len;
	out->latency = cl.latency;
	out->time = cl.time;
	out->time_len = cl.time_len;
	return 1;
}

/*
 * See lp_combined.h: lp_combined_direct_fields, this build: the direct
 * parser with the status and the method (a call that counts statuses),
 * apart so that lp_combined_direct stays as it was.
 */
static LP_CI_ATTR int
LP_CI(lp_combined_direct_fields)(const char *line, size_t len, unsigned flags, lp_row *out)
{
	lp_cline	cl;

	if (LP_CI(lp_combined_core)(line, len, flags, &cl) != LP_ST_OK || cl.route_slash)
		return 0;
	out->route = cl.route;
	out->route_len = cl.route_len;
	out->latency = cl.latency;
	out->time = cl.time;
	out->time_len = cl.time_len;
	lp_combined_row_fields(line, len, &cl, flags, out);
	return 1;
}

#undef LP_CI
#undef LP_CI_ATTR
#undef LP_CI_AVX2
#undef LP_CI_BLK
#undef LP_CI_BLK_LOAD
#undef LP_CI_BLK_EQ
#undef LP_CI_BLK_EQ2
