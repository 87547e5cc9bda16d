/* src/lp_presets.c -- the preset formats' parsers: haproxy, alb, cloudfront, envoy, traefik, iis (plain C) */
#include "lp_presets.h"
#include "lp_http.h"
#include "lp_parse.h"
#include "lp_simd.h"
#include "lp_token.h"

/*
 * SSE2 (every x86-64) or SWAR (plain 64-bit arithmetic, little-endian);
 * -DLP_PRESETS_SCALAR=1 turns SSE2 off, =2 SWAR too, to test the other
 * paths: all give the same answers.
 */
#if defined(__SSE2__) && !defined(LP_PRESETS_SCALAR)
#define LP_SSE2 1
#include <emmintrin.h>
#endif

/*
 * The route templates of every format (lp_formats.c).  lp_formats.h, which
 * declares it, defines an lp_parse_ctx of its own and cannot be included
 * beside lp_format.h until the format table is redesigned; the declaration
 * moves to the shared tokenizers' header (lp_token.h) with the helpers
 * below.
 */
extern size_t lp_route_template(const char *r, size_t n, int slash, int templates, char *buf);

/*
 * ---------- pieces every preset shares ----------
 *
 * The request line, route building, unescaping and the seconds converter
 * below are private until the shared tokenizers exist (lp_token.c: the
 * HTTP request line with the combined family's rules, route building,
 * unescaping); they move there then, and the presets call those.
 */

/* Is c an ASCII digit? */
static inline int
lp_digit(char c)
{
	return (unsigned) ((unsigned char) c - '0') <= 9;
}

/* The value of hex digit c, or -1. */
static inline int
lp_hexval(char c)
{
	unsigned char u = (unsigned char) c;

	if ((unsigned) (u - '0') <= 9)
		return u - '0';
	u |= 0x20;
	if ((unsigned) (u - 'a') <= 5)
		return u - 'a' + 10;
	return -1;
}

/* A field of a line: [p, p + n). */
typedef struct lp_span
{
	const char *p;
	size_t		n;
} lp_span;

/*
 * ---------- finding bytes sixteen at a time ----------
 *
 * A field of most presets ends at a blank (space or tab), of CloudFront's
 * at a tab.  Byte loops over a line spend most of a parse in mispredicted
 * branches, one at every field and every search; instead, the bytes of a
 * class are found sixteen at a time as a bit mask (SSE2, which every
 * x86-64 has; elsewhere eight at a time in plain 64-bit arithmetic, SWAR),
 * and a field's end is a count of trailing zeros.  No load reads past the
 * line: the last, short chunk of a search is read as the sixteen bytes
 * that end where the search ends, when the line (`floor`, its first byte)
 * holds them, and byte by byte only in lines of fewer than sixteen bytes.
 * Plain C, chosen at compile time; these move to lp_simd.h with the
 * shared tokenizers.
 */

#define LP_BYTES(c) (UINT64_C(0x0101010101010101) * (uint64_t) (unsigned char) (c))
#define LP_LOW7 UINT64_C(0x7f7f7f7f7f7f7f7f)

#if defined(LP_SIMD_SWAR) && !(defined(LP_PRESETS_SCALAR) && LP_PRESETS_SCALAR > 1)
#define LP_SWAR 1
#endif

#if !defined(LP_SSE2) && defined(LP_SWAR)
/* 0x80 in every byte of x that is zero, exactly (no borrow from a lower byte). */
static inline uint64_t
lp_zero_bytes(uint64_t x)
{
	return ~(((x & LP_LOW7) + LP_LOW7) | x | LP_LOW7);
}

/* The high bits of the eight bytes of z (0x80 or 0) as bits 0..7, byte j as bit j. */
static inline unsigned
lp_gather8(uint64_t z)
{
	return (unsigned) (((z >> 7) * UINT64_C(0x0102040810204080)) >> 56);
}
#endif

/* The lowest set bit of m, which is not 0. */
static inline int
lp_lowest(uint64_t m)
{
#if defined(__GNUC__)
	return __builtin_ctzll(m);
#else
	int			k = 0;

	while (!(m & 1))
	{
		m >>= 1;
		k++;
	}
	return k;
#endif
}

/* The highest set bit of m, which is not 0. */
static inline int
lp_highest(uint64_t m)
{
#if defined(__GNUC__)
	return 63 - __builtin_clzll(m);
#else
	int			k = 63;

	while (!(m >> k))
		k--;
	return k;
#endif
}

/*
 * Bit i set when p[i] is c or c2 (c2 = c for one byte), for the bytes of
 * [p, end) up to sixteen.  Read with one load at p when sixteen bytes
 * remain, else with one that ends at end when the line holds sixteen
 * bytes from floor, else byte by byte.
 */
static inline unsigned
lp_chunk_bits(const char *p, const char *end, const char *floor, char c, char c2)
{
	size_t		k = (size_t) (end - p);
	unsigned	m = 0;
	size_t		i;

#if defined(LP_SSE2)
	if (k >= 16 || end - floor >= 16)
	{
		__m128i		v = _mm_loadu_si128((const __m128i *) (k >= 16 ? p : end - 16));

		m = (unsigned) _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(c)),
													  _mm_cmpeq_epi8(v, _mm_set1_epi8(c2))));
		return k >= 16 ? m : m >> (16 - k);
	}
#elif defined(LP_SWAR)
	if (k > 16)
		k = 16;
	i = 0;
	for (; i + 8 <= k; i += 8)
	{
		uint64_t	x;

		memcpy(&x, p + i, 8);
		m |= lp_gather8(lp_zero_bytes(x ^ LP_BYTES(c)) | lp_zero_bytes(x ^ LP_BYTES(c2))) << i;
	}
	if (i < k && p + k - floor >= 8)
	{
		uint64_t	x;

		memcpy(&x, p + k - 8, 8);
		m |= (lp_gather8(lp_zero_bytes(x ^ LP_BYTES(c)) | lp_zero_bytes(x ^ LP_BYTES(c2))) >>
			  (8 - (k - i))) << i;
		return m;
	}
#endif
	if (k > 16)
		k = 16;
	for (i = 0; i < k; i++)
		m |= (unsigned) (p[i] == c || p[i] == c2) << i;
	return m;
}

/* The first c or c2 in [p, end), or NULL. */
static inline const char *
lp_find2(const char *p, const char *end, char c, char c2, const char *floor)
{
	while (p < end)
	{
		unsigned	m = lp_chunk_bits(p, end, floor, c, c2);

		if (m)
			return p + lp_lowest(m);
		p += 16;
	}
	return NULL;
}

/* The first c in [p, end), or NULL (memchr, without its call for a search of a few bytes). */
static inline const char *
lp_find(const char *p, const char *end, char c, const char *floor)
{
	return lp_find2(p, end, c, c, floor);
}

/*
 * lp_find for a longer search (a request line): 32 bytes a step while they
 * last.  lp_token.h's lp_find_byte probes 16 bytes first, for short
 * fields; on the presets' requests that cost 18 more instructions a line
 * (alb; envoy 19), measured.
 */
static inline const char *
lp_find_long(const char *p, const char *end, char c, const char *floor)
{
#if defined(LP_SSE2)
	const __m128i cv = _mm_set1_epi8(c);

	while (end - p >= 32)
	{
		unsigned	m = (unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *) p), cv)) |
			(unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *) (p + 16)), cv)) << 16;

		if (m)
			return p + lp_lowest(m);
		p += 32;
	}
#endif
	return lp_find(p, end, c, floor);
}

/* The last c in [p, end), or NULL. */
static inline const char *
lp_find_last(const char *p, const char *end, char c, const char *floor)
{
	while (end > p)
	{
		const char *from = end - p >= 16 ? end - 16 : p;
		unsigned	m = lp_chunk_bits(from, end, floor, c, c);

		if (m)
			return from + lp_highest(m);
		end = from;
	}
	return NULL;
}

/* The first blank of [p, end), or end. */
static inline const char *
lp_to_blank(const char *p, const char *end, const char *floor)
{
	while (p < end)
	{
		unsigned	m = lp_chunk_bits(p, end, floor, ' ', '\t');

		if (m)
			return p + lp_lowest(m);
		p += 16;
	}
	return end;
}

/* The first byte of [p, end) that is not a blank, or end (after a field, mostly one space). */
static inline const char *
lp_past_blanks(const char *p, const char *end)
{
	while (p < end && LP_IS_BLANK(*p))
		p++;
	return p;
}

/*
 * Bit i set when p[i] is a separator (a tab, or a blank when !tabs), for
 * i < n <= 64; the bits from n up are set too, so that a search stops at
 * the end of the line.
 */
static inline uint64_t
lp_sep_bits(const char *p, size_t n, int tabs, const char *floor)
{
	uint64_t	bits = 0;
	size_t		i;

	LP_ASSERT(n <= 64);
#if defined(LP_SSE2)
	/* a whole window: one block of lp_simd.h, no end to mind */
	if (n == 64)
		return lp_blk64_eq2(lp_blk64_load(p), '\t', tabs ? '\t' : ' ');
#endif
	for (i = 0; i < n; i += 16)
		bits |= (uint64_t) lp_chunk_bits(p + i, p + n, floor, '\t', tabs ? '\t' : ' ') << i;
	if (n < 64)
		bits |= ~UINT64_C(0) << n;
	return bits;
}

/* A scan of a line's separators, 64 bytes at a time. */
typedef struct lp_scan
{
	const char *base;			/* the window: [base, base + 64) */
	const char *end;			/* the end of the line */
	const char *floor;			/* its first byte */
	uint64_t	bits;			/* lp_sep_bits of the window */
	int			tabs;			/* separators are tabs only (else blanks) */
	int			cr;				/* drop a '\r' before end once a window reaches it */
} lp_scan;

/*
 * Move the window of s to start at p.  A window that reaches the end of the
 * line drops its trailing '\r' first when s->cr (a parser then reads the
 * line's last bytes only when a scan gets there).
 */
static LP_ALWAYS_INLINE void
lp_scan_load(lp_scan *s, const char *p)
{
	size_t		n = (size_t) (s->end - p);

	if (n <= 64 && s->cr)
	{
		if (n > 0 && p[n - 1] == '\r')
		{
			s->end--;
			n--;
		}
		s->cr = 0;
	}
	s->base = p;
	s->bits = lp_sep_bits(p, n < 64 ? n : 64, s->tabs, s->floor);
}

/* Start a scan of [p, end) in the line that starts at floor; cr: its '\r' not yet dropped. */
static inline void
lp_scan_init(lp_scan *s, const char *p, const char *end, const char *floor, int tabs, int cr)
{
	s->end = end;
	s->floor = floor;
	s->tabs = tabs;
	s->cr = cr;
	lp_scan_load(s, p);
}

/* The first byte that is not a separator at or after p, or the end. */
static inline const char *
lp_scan_field(lp_scan *s, const char *p)
{
	LP_ASSERT(p >= s->base && p <= s->end);
	for (;;)
	{
		size_t		off = (size_t) (p - s->base);

		if (off < 64)
		{
			uint64_t	m = ~s->bits >> off;	/* no bit past the end */

			if (m)
				return p + lp_lowest(m);
			p = s->base + 64;
		}
		if (p >= s->end)
			return s->end;
		lp_scan_load(s, p);
	}
}

/*
 * Up to max fields of s, which starts at p, separated by runs of
 * separators: their spans into f.  Returns how many there were (fewer than
 * max: the line ended); *after is the end of the last one.  A field starts
 * where a separator is followed by another byte and ends where a byte is
 * followed by a separator: both are bit masks of a window, taken lowest
 * first, so a field costs a few instructions and no unpredictable branch.
 */
static LP_ALWAYS_INLINE int
lp_scan_fields(lp_scan *s, const char *p, lp_span *f, int max, const char **after)
{
	uint64_t	prev = 1;		/* the byte before the window is a separator */
	int			n = 0;
	int			open = 0;		/* f[n] started, not ended */

	LP_ASSERT(p == s->base && max > 0);
	*after = p;
	for (;;)
	{
		uint64_t	b = s->bits;
		uint64_t	shifted = (b << 1) | prev;	/* bit i: byte i - 1 is a separator */
		uint64_t	starts = ~b & shifted;
		uint64_t	ends = b & ~shifted;

		if ((b & shifted) == 0 && s->base + 64 <= s->end)
		{
			/*
			 * No two separators side by side in a whole window (the usual
			 * line: one blank or tab between fields): each separator ends a
			 * field and the next starts after it, one bit a field.
			 */
			const char *base = s->base;
			const char *q = open ? f[n].p : base;
			lp_span    *o = f + n;
			lp_span    *last = f + max;

			while (b)
			{
				const char *e = base + lp_lowest(b);

				b &= b - 1;
				o->p = q;
				o->n = (size_t) (e - q);
				q = e + 1;
				if (++o == last)
				{
					*after = e;
					return max;
				}
			}
			if (o != f + n)
				*after = q - 1;	/* the end of the last field */
			n = (int) (o - f);
			open = q < base + 64;
			if (open)
				o->p = q;
			prev = s->bits >> 63;
			lp_scan_load(s, s->base + 64);
			continue;
		}
		for (;;)
		{
			if (!open)
			{
				if (!starts)
					break;
				f[n].p = s->base + lp_lowest(starts);
				starts &= starts - 1;
				open = 1;
			}
			if (!ends)
				break;
			{
				const char *e = s->base + lp_lowest(ends);

				ends &= ends - 1;
				if (e > s->end)
					e = s->end;
				f[n].n = (size_t) (e - f[n].p);
				*after = e;
				open = 0;
				if (++n == max)
					return n;
			}
		}
		if (s->base + 64 > s->end)
			return n;			/* the window held the end, and its bits past it */
		prev = b >> 63;
		lp_scan_load(s, s->base + 64);
	}
}

/*
 * The end of a line whose trailing '\r' is dropped now if cr (the parsers
 * read a line's last bytes only when they get there).
 */
static inline const char *
lp_end_cr(const char *line, const char *end, int cr)
{
	return (cr && end > line && end[-1] == '\r') ? end - 1 : end;
}


/* The end of a line: one trailing '\r' dropped. */
static inline const char *
lp_line_end(const char *line, size_t len)
{
	const char *end = line + len;

	if (len > 0 && end[-1] == '\r')
		end--;
	return end;
}

/* Is s exactly the C string lit? */
static inline int
lp_span_is(const char *s, size_t n, const char *lit, size_t litlen)
{
	return n == litlen && memcmp(s, lit, n) == 0;
}

/*
 * The HTTP status field s[0..n): *status set and 1 for three digits, the
 * first 1 to 9; 0 for the text the server logs for "no response"
 * (`none`, e.g. "-1", may be NULL); -1 for anything else.
 */
static inline int
lp_status_field(const char *s, size_t n, const char *none, size_t nonelen, int *status)
{
	if (n == 3 && (unsigned) ((unsigned char) s[0] - '1') <= 8 && lp_digit(s[1]) && lp_digit(s[2]))
	{
		*status = (s[0] - '0') * 100 + (s[1] - '0') * 10 + (s[2] - '0');
		return 1;
	}
	if (none && lp_span_is(s, n, none, nonelen))
		return 0;
	return -1;
}

/*
 * A latency in integer milliseconds, "D+": LP_ST_OK, LP_ST_BAD_LATENCY
 * (empty, or a byte that is not a digit), LP_ST_LATENCY_RANGE (digits past
 * bigint).
 */
static lp_status
lp_ms_field(const char *s, size_t n, int64_t *ms, const char *floor)
{
	uint64_t	v = 0;
	int			big = 0;
	size_t		i;

	if (n == 0)
		return LP_ST_BAD_LATENCY;
#ifdef LP_SWAR
	if (n <= 8 && s + n - floor >= 8)
		return lp_digits8(s + n, n, ms) ? LP_ST_OK : LP_ST_BAD_LATENCY;
#endif
	if (n <= 18)
	{
		/* at most 18 digits always fit */
		for (i = 0; i < n; i++)
		{
			unsigned	d = (unsigned) ((unsigned char) s[i] - '0');

			if (d > 9)
				return LP_ST_BAD_LATENCY;
			v = v * 10 + d;
		}
		*ms = (int64_t) v;
		return LP_ST_OK;
	}
	for (i = 0; i < n; i++)
	{
		unsigned	d = (unsigned) ((unsigned char) s[i] - '0');

		if (d > 9)
			return LP_ST_BAD_LATENCY;
		if (v > ((uint64_t) INT64_MAX - d) / 10)
			big = 1;
		else
			v = v * 10 + d;
	}
	if (big)
		return LP_ST_LATENCY_RANGE;
	*ms = (int64_t) v;
	return LP_ST_OK;
}

/* Whole seconds past which a value can no longer be a bigint of ms. */
#define LP_SECONDS_MAX ((uint64_t) INT64_MAX / 1000)

/*
 * The exact sum of n (1 to 3) values in seconds, each "D+" or "D+.D+" (no
 * sign, no exponent, any number of digits), in milliseconds rounded half up
 * once, on the sum (0.0005 + 0.0005 = 0.001 -> 1; each alone would round to
 * 1).  LP_ST_OK; LP_ST_BAD_SECONDS with *which the first value that is not
 * such a number; LP_ST_REQTIME_RANGE when the sum does not fit in bigint
 * ms.
 */
static lp_status
lp_seconds_sum_ms(const lp_span *v, int n, int64_t *ms, int *which, const char *floor)
{
	const char *frac[3];
	size_t		flen[3];
	size_t		maxf = 0;
	uint64_t	whole = 0;
	int			big = 0;
	unsigned	dig[4] = {0, 0, 0, 0};
	unsigned	carry = 0;
	size_t		pos;
	int			i;

	LP_ASSERT(n >= 1 && n <= 3);

#ifdef LP_SWAR
	{
		/*
		 * Every value "D.ddd" (ALB's and CloudFront's usual one): one word
		 * each, checked at once (the '.', four bytes of high nibble 3 and
		 * low nibble <= 9), their digits added byte by byte (at most 27 a
		 * byte, no carry), then weighted once.
		 */
		uint64_t	t = 0;

		for (i = 0; i < n; i++)
		{
			uint64_t	w = 0;

			if (v[i].n != 5)
				break;
			memcpy(&w, v[i].p, 5);
			if ((w & UINT64_C(0xF0F0F0FFF0)) != UINT64_C(0x3030302E30) ||
				((w + UINT64_C(0x0606060006)) & UINT64_C(0xF0F0F000F0)) != UINT64_C(0x3030300030))
				break;
			t += w & UINT64_C(0x0F0F0F000F);
		}
		if (i == n)
		{
			*ms = (int64_t) ((t & 0xFF) * 1000 + ((t >> 16) & 0xFF) * 100 +
							 ((t >> 24) & 0xFF) * 10 + ((t >> 32) & 0xFF));
			return LP_ST_OK;
		}
	}
#endif

	/*
	 * The usual value, "D.ddd" with at most 12 whole digits and at most
	 * three decimals, is a whole number of milliseconds: add those.
	 */
	{
		static const uint64_t scale[4] = {1000, 100, 10, 1};
		uint64_t	sum = 0;

		for (i = 0; i < n; i++)
		{
			const char *p = v[i].p;
			const char *e = p + v[i].n;
			const char *d;
			uint64_t	x = 0;

			if (v[i].n >= 5 && v[i].n <= 16 && e[-4] == '.' &&
				lp_digit(e[-3]) && lp_digit(e[-2]) && lp_digit(e[-1]))
			{
				/* "D+.ddd", the shape ALB and CloudFront write */
				d = e - 4;
				if (d - p == 1)
				{
					if (!lp_digit(*p))
						break;
					x = (uint64_t) (*p - '0');
				}
#ifdef LP_SWAR
				else if (d - p <= 8 && d - floor >= 8)
				{
					int64_t		sx;

					if (!lp_digits8(d, (size_t) (d - p), &sx))	/* lp_parse.h */
						break;
					x = (uint64_t) sx;
				}
#endif
				else
				{
					for (; p < d && lp_digit(*p); p++)
						x = x * 10 + (uint64_t) (*p - '0');
					if (p != d)
						break;
				}
				sum += x * 1000 + (uint64_t) ((e[-3] - '0') * 100 + (e[-2] - '0') * 10 + (e[-1] - '0'));
				continue;
			}
			while (p < e && lp_digit(*p))
				x = x * 10 + (uint64_t) (*p++ - '0');
			if (p == v[i].p || p - v[i].p > 12)
				break;
			d = p;
			if (p < e)
			{
				if (*p != '.')
					break;
				d = ++p;
				while (p < e && p - d < 3 && lp_digit(*p))
					x = x * 10 + (uint64_t) (*p++ - '0');
				if (p == d || p != e)
					break;
			}
			sum += x * scale[p - d];
		}
		if (i == n)
		{
			*ms = (int64_t) sum;	/* at most 3 * 10^15 */
			return LP_ST_OK;
		}
	}

	for (i = 0; i < n; i++)
	{
		const char *p = v[i].p;
		const char *e = p + v[i].n;
		uint64_t	x = 0;

		if (p == e || !lp_digit(*p))
		{
			*which = i;
			return LP_ST_BAD_SECONDS;
		}
		while (p < e && lp_digit(*p))
		{
			if (x > LP_SECONDS_MAX)
				big = 1;		/* keep reading: a later byte may make it malformed */
			else
				x = x * 10 + (uint64_t) (*p - '0');
			p++;
		}
		frac[i] = p;
		flen[i] = 0;
		if (p < e)
		{
			if (*p != '.' || p + 1 == e)
			{
				*which = i;
				return LP_ST_BAD_SECONDS;
			}
			frac[i] = ++p;
			while (p < e && lp_digit(*p))
				p++;
			if (p < e)
			{
				*which = i;
				return LP_ST_BAD_SECONDS;
			}
			flen[i] = (size_t) (e - frac[i]);
		}
		if (x > LP_SECONDS_MAX)
			big = 1;
		whole += x;				/* at most 3 * (LP_SECONDS_MAX + 1): no wrap */
		if (flen[i] > maxf)
			maxf = flen[i];
	}
	if (big)
		return LP_ST_REQTIME_RANGE;
	/* the fractions added digit by digit from the right: exact */
	for (pos = maxf; pos-- > 0;)
	{
		unsigned	s = carry;

		for (i = 0; i < n; i++)
			if (pos < flen[i])
				s += (unsigned) (frac[i][pos] - '0');
		if (pos < 4)
			dig[pos] = s % 10;
		carry = s / 10;
	}
	whole += carry;
	{
		uint64_t	part = dig[0] * 100 + dig[1] * 10 + dig[2] + (dig[3] >= 5);

		if (whole > ((uint64_t) INT64_MAX - part) / 1000)
			return LP_ST_REQTIME_RANGE;
		*ms = (int64_t) (whole * 1000 + part);
	}
	return LP_ST_OK;
}

/* A request target's end and the first '?' and escape mark before it. */
typedef struct lp_target
{
	const char *end;			/* the first blank, or the request's end */
	const char *qm;				/* the first '?', or NULL */
	const char *mark;			/* the first escape mark ('#', '%'), or NULL */
} lp_target;

/*
 * Scan a target from t to its end (the first blank before end) in one
 * pass, noting the first '?' and the first `mark` (0: none) before it.
 */
static LP_ALWAYS_INLINE void
lp_target_scan(const char *t, const char *end, char mark, lp_target *x, const char *floor)
{
	const char *p = t;

	x->qm = NULL;
	x->mark = NULL;
#if defined(LP_SSE2)
	while (p < end)
	{
		size_t		k = (size_t) (end - p);
		__m128i		v;
		unsigned	shift;
		unsigned	b,
					before,
					q,
					m;

		if (k >= 16)
		{
			v = _mm_loadu_si128((const __m128i *) p);
			shift = 0;
		}
		else if (end - floor >= 16)
		{
			v = _mm_loadu_si128((const __m128i *) (end - 16));
			shift = 16 - (unsigned) k;
		}
		else
			break;
		b = (unsigned) _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
													  _mm_cmpeq_epi8(v, _mm_set1_epi8('\t')))) >> shift;
		if (k < 16)
			b |= 1u << k;		/* the end stops the target */
		before = (b & (0u - b)) - 1;
		q = ((unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('?'))) >> shift) & before;
		m = ((unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(mark))) >> shift) & before;
		if (q && !x->qm)
			x->qm = p + lp_lowest(q);
		if (m && mark && !x->mark)
			x->mark = p + lp_lowest(m);
		if (b)
		{
			x->end = p + lp_lowest(b);
			return;
		}
		p += 16;
	}
#endif
	for (; p < end && !LP_IS_BLANK(*p); p++)
	{
		if (*p == '?' && !x->qm)
			x->qm = p;
		if (mark && *p == mark && !x->mark)
			x->mark = p;
	}
	x->end = p;
}

/* What the request line gives. */
typedef struct lp_preset_request
{
	const char *method;			/* the method */
	size_t		method_len;
	const char *path;			/* the route: the target's path (with its query when kept) */
	size_t		path_len;
	int			slash;			/* 1: the route is "/" then path (an absolute-form target
								 * with a query string kept and no path) */
	const char *host;			/* an absolute-form target's host (no userinfo, no
								 * port), or NULL */
	size_t		host_len;
	int			marked;			/* an escape mark is in the target */
} lp_preset_request;

/*
 * The host of an authority [a, e): without "userinfo@" and without a port
 * (":" and digits after the host; "[::1]:443" -> "[::1]").  NULL when
 * nothing is left.
 */
static inline const char *
lp_authority_host(const char *a, const char *e, int userinfo, size_t *len, const char *floor)
{
	const char *d = e;
	const char *at;

	/* userinfo 0: the caller knows that no '@' is in [a, e) */
	while (userinfo && (at = lp_find(a, e, '@', floor)) != NULL)
		a = at + 1;
	while (d > a && lp_digit(d[-1]))
		d--;
	if (d > a && d[-1] == ':')
		e = d - 1;
	*len = (size_t) (e - a);
	return e > a ? a : NULL;
}

/*
 * The request line rq[0..rq_end) (between its quotes), by the combined
 * family's rules (test/unit/ref_combined.h): METHOD SP TARGET [...],
 * METHOD one or more tchars, TARGET a run of non-blank bytes; "-" alone is
 * no request (LP_ST_BAD_REQUEST); no method, no single space after it, no
 * target, or the HTTP/2 preface "PRI * HTTP/2.0" is not HTTP
 * (LP_ST_NOT_HTTP), nor is a placeholder method ("-": varnishncsa writes
 * "- http://localhost HTTP/1.0" for what it could not parse, ALB "- - -");
 * a target "-" (Envoy's %REQ(:PATH)% of a request without one) has no path
 * (LP_ST_BAD_REQUEST).  These are lp_token.c's lp_request_parse rules, but
 * for the target "-", which the presets add.  An absolute-form target (scheme://authority[/path])
 * counts under its path, "/" without one; the query string is cut unless
 * LP_PARSE_KEEP_QUERY; an empty route is LP_ST_BAD_REQUEST.
 */
static lp_status
lp_request_line(const char *rq, const char *rq_end, unsigned flags, char mark, lp_preset_request *r,
				const char *floor)
{
	const char *m = rq;
	const char *t;
	const char *te;
	lp_target	x;

	r->slash = 0;
	r->host = NULL;
	r->host_len = 0;
#if defined(LP_SSE2)
	if (rq_end - rq >= 16)
	{
		/* the usual method, capital letters then a space, at once */
		__m128i		v = _mm_loadu_si128((const __m128i *) rq);
		unsigned	sp = (unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')));
		__m128i		z = _mm_sub_epi8(v, _mm_set1_epi8('A'));
		unsigned	up = (unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(z, _mm_set1_epi8(25)), z));

		if (sp && (~up & ((sp & (0u - sp)) - 1)) == 0)
			m = rq + lp_lowest(sp);
	}
#endif
	while (m < rq_end && lp_tchar[(unsigned char) *m])
		m++;
	if (m == rq_end && rq_end - rq == 1 && *rq == '-')
		return LP_ST_BAD_REQUEST;	/* "-": no request line */
	if (m == rq || m == rq_end || *m != ' ')
		return LP_ST_NOT_HTTP;
	r->method = rq;
	r->method_len = (size_t) (m - rq);
	t = m + 1;
	if (mark)
		lp_target_scan(t, rq_end, mark, &x, floor);
	else
		lp_target_scan(t, rq_end, 0, &x, floor);	/* no mark to look for */
	te = x.end;
	r->marked = x.mark != NULL;
	if (te == t)
		return LP_ST_NOT_HTTP;
	if (m - rq == 3 && memcmp(rq, "PRI", 3) == 0 && te - t == 1 && *t == '*' &&
		rq_end - te == 9 && memcmp(te, " HTTP/2.0", 9) == 0)
		return LP_ST_NOT_HTTP;	/* the HTTP/2 connection preface */
	if (m - rq == 1 && *rq == '-')
		return LP_ST_NOT_HTTP;	/* varnishncsa's placeholder "- http://localhost HTTP/1.0" */
	if (te - t == 1 && *t == '-')
		return LP_ST_BAD_REQUEST;	/* no path: Envoy's "-" for a request without one */

	/* absolute form, scheme://authority[/path][?query]: the path counts */
	if ((unsigned) ((*t | 0x20) - 'a') <= 25)
	{
		const char *s = t + 1;

		if (te - t >= 8 && memcmp(t, "https://", 8) == 0)
			s = t + 5;			/* the usual schemes at once */
		else if (te - t >= 7 && memcmp(t, "http://", 7) == 0)
			s = t + 4;
		else
			while (s < te && lp_is_scheme((unsigned char) *s))
				s++;
		if (te - s >= 3 && s[0] == ':' && s[1] == '/' && s[2] == '/')
		{
			const char *a = s + 3;
			int			userinfo = 0;

			/* the first '/' after "scheme://", and whether an '@' comes before it */
			s = lp_find2(a, te, '/', '@', floor);
			if (s && *s == '@')
			{
				userinfo = 1;
				s = lp_find(s, te, '/', floor);
			}
			if (!s)
				s = te;
			if (x.qm && x.qm < s)
				s = x.qm;		/* the first '?' is after "scheme://" */
			r->host = lp_authority_host(a, s, userinfo, &r->host_len, floor);
			if (s == te || (*s == '?' && !(flags & LP_PARSE_KEEP_QUERY)))
			{
				r->path = "/";
				r->path_len = 1;
				return LP_ST_OK;
			}
			r->slash = *s == '?';
			t = s;
		}
	}
	r->path = t;
	r->path_len = (size_t) (te - t);
	if (!(flags & LP_PARSE_KEEP_QUERY) && x.qm && x.qm >= t)
		r->path_len = (size_t) (x.qm - t);
	if (r->path_len == 0)
		return LP_ST_BAD_REQUEST;
	return LP_ST_OK;
}

/*
 * The '"' that ends a request whose text starts at rq: the first '"'
 * followed by a blank or the end of the line (ALB, Envoy and Traefik log
 * the target as the client sent it, '"' included; HAProxy writes '"' as
 * "#22").  NULL when there is none.  cr: end is the line's, a '\r' before
 * it not dropped yet (it ends the line too).
 */
static inline const char *
lp_request_close(const char *rq, const char *end, int cr, const char *floor)
{
	const char *q = rq;

	while ((q = lp_find_long(q, end, '"', floor)) != NULL)
	{
		if (q + 1 == end || LP_IS_BLANK(q[1]) || (cr && q + 2 == end && q[1] == '\r'))
			return q;
		q++;
	}
	return NULL;
}

/*
 * Set out's route from path[0..n) (already cut of its query string unless
 * it is kept), with "/" in front when slash, then "?" and query[0..qlen)
 * when query is not NULL (the W3C formats log the query apart).  With the
 * call's flags: templates (lp_route_template, on the logged form), then
 * unescaping (`esc`, lp_token.c's lp_unescape, unless LP_PARSE_LOGGED, as
 * lp_token.h's lp_route_build: in the route and the host, LP_HAS_ROUTE_HIGH when a
 * byte >= 0x80 came out; marked: 1 when a mark may be in path or query,
 * 0 when none is, -1 to look), and the host in front.  The route is a slice
 * of the line when nothing changes, else built in ctx->buf (the caller's
 * LP_ROUTE_BUF_SIZE(len) bytes: the host, the templated path of at most
 * 2 n + 2 bytes and the query fit, since host, path and query are disjoint
 * parts of the line).
 */
static void
lp_preset_route(const lp_parse_ctx *ctx, lp_escape esc, int marked, const char *host, size_t hlen,
				int slash, const char *path, size_t n, const char *query, size_t qlen,
				lp_result *out, const char *floor)
{
	unsigned	flags = ctx ? ctx->flags : 0;
	int			templates = (flags & LP_PARSE_TEMPLATES) != 0;
	int			with_host = (flags & LP_PARSE_HOST) && host != NULL;
	int			unescape = 0;
	int			high = 0;
	char	   *o;
	size_t		m;

	if (esc != LP_ESC_NONE && !(flags & LP_PARSE_LOGGED))
	{
		char		mark = lp_escape_mark(esc);

		unescape = marked > 0 ||
			(marked < 0 && (lp_find(path, path + n, mark, floor) != NULL ||
							(query && lp_find(query, query + qlen, mark, floor) != NULL))) ||
			(with_host && lp_find(host, host + hlen, mark, floor) != NULL);
	}
	out->has |= LP_HAS_ROUTE;
	if (!templates && !with_host && !unescape && !slash && !query)
	{
		out->route = path;
		out->route_len = n;
		return;
	}
	if (!ctx || !ctx->buf)
	{
		/* no scratch (as lp_token.h's lp_route_build): the route as logged */
		out->route = slash ? "/" : path;
		out->route_len = slash ? 1 : n;
		return;
	}
	o = ctx->buf;
	if (with_host)
	{
		memcpy(o, host, hlen);
		o += unescape ? lp_unescape(o, hlen, esc, o, &high) : hlen;
	}
	m = lp_route_template(path, n, slash, templates, o);
	if (m == 0)
	{
		memcpy(o, path, n);
		m = n;
	}
	if (query)
	{
		o[m++] = '?';
		memcpy(o + m, query, qlen);
		m += qlen;
	}
	if (unescape)
		m = lp_unescape(o, m, esc, o, &high);
	if (high)
		out->has |= LP_HAS_ROUTE_HIGH;
	out->route = ctx->buf;
	out->route_len = (size_t) (o - ctx->buf) + m;
}

/* Set a host (its port dropped) when there is one and it is not "-". */
static inline void
lp_set_host(const char *h, size_t n, lp_result *out, const char *floor)
{
	const char *hp;
	size_t		hn;

	if (n == 0 || (n == 1 && *h == '-'))
		return;
	hp = lp_authority_host(h, h + n, 1, &hn, floor);
	if (!hp)
		return;
	out->host = hp;
	out->host_len = hn;
	out->has |= LP_HAS_HOST;
}

/* Start a result: nothing found. */
static inline void
lp_result_clear(lp_result *out)
{
	out->has = 0;
	out->time2 = NULL;
	out->time2_len = 0;
	out->bad = NULL;
	out->bad_len = 0;
	out->nwant = 0;
	out->nfields = 0;
}

/* Set the error fields of out to the field s[0..n) and return st. */
static inline lp_status
lp_fail(lp_result *out, lp_status st, const char *s, size_t n)
{
	out->bad = s;
	out->bad_len = n;
	return st;
}

/* Set the counts of a "too few fields" status and return st. */
static inline lp_status
lp_fail_count(lp_result *out, lp_status st, int nwant, int nfields)
{
	out->nwant = nwant;
	out->nfields = nfields;
	return st;
}

/*
 * A parsed request line rq[0..rq_end) into out (method, route with host):
 * the request's problem, with the request text as the bad field.
 */
static inline lp_status
lp_take_request(const char *rq, const char *rq_end, const lp_parse_ctx *ctx, lp_escape esc,
				int host_from_target, lp_result *out, const char *floor)
{
	lp_preset_request r;
	lp_status	st = lp_request_line(rq, rq_end, ctx ? ctx->flags : 0,
									 esc == LP_ESC_NONE ? 0 : lp_escape_mark(esc), &r,
									 floor);

	if (st != LP_ST_OK)
		return lp_fail(out, st, rq, (size_t) (rq_end - rq));
	out->method = r.method;
	out->method_len = r.method_len;
	out->has |= LP_HAS_METHOD;
	if (host_from_target && r.host)
	{
		out->host = r.host;
		out->host_len = r.host_len;
		out->has |= LP_HAS_HOST;
	}
	lp_preset_route(ctx, esc, r.marked, (out->has & LP_HAS_HOST) ? out->host : NULL,
					out->host_len, r.slash, r.path, r.path_len, NULL, 0, out, floor);
	return LP_ST_OK;
}

/* ---------- haproxy ---------- */

/*
 * The message of a HAProxy line: after an RFC 5424 header
 * ("[<PRI>]VERSION TIMESTAMP HOSTNAME APP-NAME PROCID MSGID SD "), after an
 * RFC 3164 header ("[<PRI>]Nov  7 01:00:00 host haproxy[123]: ", its tag
 * ended by the first ": "), or the line itself (format raw, or "short": a
 * message starts with the client field followed by " [").
 */
static const char *
lp_haproxy_message(const char *line, const char *end, int cr)
{
	const char *s = line;
	const char *q;
	const char *b;
	int			k;

	if (s < end && *s == '<')
	{
		q = s + 1;
		while (q < end && q - s <= 3 && lp_digit(*q))
			q++;
		if (q > s + 1 && q < end && *q == '>')
			s = q + 1;
	}

	/* RFC 5424: a version of 1 to 3 digits, then six fields and the structured data */
	q = s;
	while (q < end && q - s < 3 && lp_digit(*q))
		q++;
	if (q > s && *s != '0' && q + 1 < end && *q == ' ' && (lp_digit(q[1]) || q[1] == '-'))
	{
		q++;
		for (k = 0; k < 5; k++)	/* TIMESTAMP HOSTNAME APP-NAME PROCID MSGID */
		{
			b = q;
			while (q < end && *q != ' ')
				q++;
			if (q == b || q == end)
				break;
			q++;
		}
		if (k == 5 && q < end)
		{
			if (*q == '-')
				q++;
			else
			{
				while (q < end && *q == '[')
				{
					q++;
					while (q < end && *q != ']')
						q += (*q == '\\' && q + 1 < end) ? 2 : 1;
					if (q == end)
						break;
					q++;
				}
			}
			if (q == end || (cr && q + 1 == end && *q == '\r'))
				return end;
			if (*q == ' ' && q > s)
			{
				q++;
				if (end - q >= 3 && (unsigned char) q[0] == 0xEF &&
					(unsigned char) q[1] == 0xBB && (unsigned char) q[2] == 0xBF)
					q += 3;		/* the UTF-8 BOM a MSG may start with */
				return q;
			}
		}
	}

	/* format raw: "client [time]" */
	b = lp_to_blank(s, end, line);
	if (b > s && b + 1 < end && b[1] == '[')
		return s;
	/* RFC 3164: the tag ends with the first ": " */
	q = s;
#if defined(LP_SSE2)
	while (end - q >= 17)
	{
		/* a ':' whose next byte is a space, sixteen places at once */
		unsigned	m = (unsigned) _mm_movemask_epi8(
			_mm_and_si128(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *) q), _mm_set1_epi8(':')),
						  _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *) (q + 1)),
										 _mm_set1_epi8(' '))));

		if (m)
			return q + lp_lowest(m) + 2;
		q += 16;
	}
#endif
	while ((q = lp_find(q, end, ':', line)) != NULL)
	{
		if (q + 1 < end && q[1] == ' ')
			return q + 2;
		q++;
	}
	return s;
}

/*
 * The timers field q[0..te) of a HAProxy line: four '/'-separated timers,
 * each "-?D+", then the fifth, the latency's field, which holds no '/'.
 * Returns where the fifth starts, or NULL when the field is not so.  A
 * field of at most 16 bytes is checked at once on bit masks: exactly four
 * '/', every other byte of the first four timers a digit or a '-' that
 * starts one, a digit before each '/'.
 */
static inline const char *
lp_haproxy_timers(const char *q, const char *te, const char *floor)
{
	const char *p = q;
	int			k;

#if defined(LP_SSE2) && defined(__GNUC__)
	if (te - q <= 16 && te - floor >= 16)
	{
		__m128i		v = _mm_loadu_si128((const __m128i *) (te - 16));
		__m128i		z = _mm_sub_epi8(v, _mm_set1_epi8('0'));
		unsigned	sh = 16 - (unsigned) (te - q);
		unsigned	sl = (unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('/'))) >> sh;
		unsigned	mi = (unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('-'))) >> sh;
		unsigned	dg = (unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(z, _mm_set1_epi8(9)), z)) >> sh;
		unsigned	s4,
					head,
					starts;

		if (__builtin_popcount(sl) != 4 || (sl & 1))
			return NULL;
		s4 = (unsigned) lp_highest(sl);
		head = (1u << s4) - 1;	/* the first four timers and their '/' */
		starts = (1u | (sl << 1)) & head;
		if ((head & ~(dg | sl | (mi & starts))) || ((sl >> 1) & ~dg))
			return NULL;
		return q + s4 + 1;
	}
#endif
	for (k = 0; k < 4; k++)
	{
		const char *d = p;
		const char *f;

		if (d < te && *d == '-')
			d++;
		f = d;
		while (d < te && lp_digit(*d))
			d++;
		if (d == f || d == te || *d != '/')
			return NULL;
		p = d + 1;
	}
	if (lp_find(p, te, '/', floor) != NULL)
		return NULL;
	return p;
}

/*
 * HAProxy's HTTP log format, from its configuration manual (doc/
 * configuration.txt, section 8.2.3 "HTTP log format", 8.4 "Timing
 * events", 8.6 "Non-printable characters"; src/log.c
 * default_http_log_format = "%ci:%cp [%tr] %ft %b/%s
 * %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC %CS %tsc %ac/%fc/%bc/%sc/%rc %sq/%bq %hr
 * %hs %{+Q}r").  The doc's example:
 *
 *   haproxy[14389]: 10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in
 *   static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu}
 *   {} "GET /index.html HTTP/1.1"
 *
 * Checked in order: "client [time]" (LP_ST_NO_TIME), frontend,
 * backend/server, timers and status (LP_ST_TOO_FEW_FIELDS, 6 fields), five
 * '/'-separated timers, the first four "-1" or digits (LP_ST_BAD_FIELD),
 * the status: three digits, or -1 for none (LP_ST_BAD_STATUS), then the
 * request: the first '"' after a blank past the status (LP_ST_NO_REQUEST),
 * to its closing '"' or the end of the line; then the fifth timer: digits
 * (LP_ST_BAD_LATENCY, LP_ST_LATENCY_RANGE), a sign is LP_ST_NO_LATENCY.
 * The fields between the status and the request (bytes, cookies, flags,
 * counters, queues, captured headers) are not read.
 */
lp_status
lp_parse_haproxy(const char *line, size_t len, const lp_parse_ctx *ctx, lp_result *out)
{
	const char *end = line + len;	/* its '\r' dropped when a scan gets there */
	const char *p = lp_haproxy_message(line, end, 1);
	const char *f;
	const char *rb;
	lp_span		tok[4];
	lp_scan		sc;
	const char *ta;
	const char *te;
	const char *q;
	const char *close;
	lp_status	lat;
	int			k;
	int			r;
	int			status;

	lp_result_clear(out);

	/* client [time] */
	f = p;
	p = lp_to_blank(p, end, line);
	if (p == f)
		return LP_ST_NO_TIME;
	p = lp_past_blanks(p, end);
	if (p == end || *p != '[' || (rb = lp_find(p + 1, end, ']', line)) == NULL)
		return LP_ST_NO_TIME;
	out->time = p + 1;
	out->time_len = (size_t) (rb - p - 1);
	out->has |= LP_HAS_TIME;
	p = rb + 1;

	/* frontend, backend/server, timers, status */
	lp_scan_init(&sc, p, end, line, 0, 1);
	k = lp_scan_fields(&sc, p, tok, 4, &p);
	if (k < 4)
		return lp_fail_count(out, LP_ST_TOO_FEW_FIELDS, 6, 2 + k);
	end = sc.end;

	/* TR/Tw/Tc/Tr/Ta (Tq/Tw/Tc/Tr/Tt before 1.7): the first four "-1" or digits */
	te = tok[2].p + tok[2].n;
	ta = lp_haproxy_timers(tok[2].p, te, line);
	if (!ta)
		return lp_fail(out, LP_ST_BAD_FIELD, tok[2].p, tok[2].n);
	if (ta < te && (*ta == '+' || *ta == '-'))
	{
		/* "+N": "option logasap", a lower bound; a negative Ta is never logged */
		lat = LP_ST_NO_LATENCY;
		for (f = ta + 1; f < te && lp_digit(*f); f++)
			;
		if (f == ta + 1 || f < te)
			lat = LP_ST_BAD_LATENCY;
	}
	else
		lat = lp_ms_field(ta, (size_t) (te - ta), &out->latency, line);

	/* the status: three digits, -1 when no response was sent */
	r = lp_status_field(tok[3].p, tok[3].n, "-1", 2, &status);
	if (r < 0)
		return lp_fail(out, LP_ST_BAD_STATUS, tok[3].p, tok[3].n);
	if (r > 0)
	{
		out->status = status;
		out->has |= LP_HAS_STATUS;
	}

	/* the request: the first '"' after a blank, past the status */
	q = p;
	while ((q = lp_find(q, end, '"', line)) != NULL && !LP_IS_BLANK(q[-1]))
		q++;
	if (!q)
		return LP_ST_NO_REQUEST;
	close = lp_request_close(q + 1, end, sc.cr, line);
	if (!close)
		close = lp_end_cr(q + 1, end, sc.cr);	/* cut at HAProxy's 1024 bytes */
	{
		lp_status	st = lp_take_request(q + 1, close, ctx, LP_ESC_HASH, 0, out, line);

		if (st != LP_ST_OK)
			return st;
	}

	if (lat != LP_ST_OK)
		return lp_fail(out, lat, ta, (size_t) (te - ta));
	out->has |= LP_HAS_LATENCY;
	return LP_ST_OK;
}

/* ---------- alb ---------- */

/*
 * AWS Application Load Balancer access log entries, from "Access logs for
 * your Application Load Balancer", "Access log entries" (the syntax table;
 * fields space-separated, new fields added at the end).  The doc's HTTP
 * example:
 *
 *   http 2018-07-02T22:23:00.186641Z app/my-loadbalancer/50dc6c495c0c9188
 *   192.168.131.39:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 366
 *   "GET http://www.example.com:80/ HTTP/1.1" "curl/7.46.0" - - arn:...
 *
 * Checked in order: twelve fields and a thirteenth (LP_ST_TOO_FEW_FIELDS,
 * 13), elb_status_code: three digits or "-" (LP_ST_BAD_STATUS), the
 * thirteenth field opens a '"' (LP_ST_NO_REQUEST) closed by a '"' before a
 * blank or the end (LP_ST_UNTERMINATED), the request line; then the
 * latency: a "-1" in any processing time (the request was not
 * dispatched) is LP_ST_NO_LATENCY, else their exact sum
 * (LP_ST_BAD_SECONDS, LP_ST_REQTIME_RANGE).  The fields after the request
 * are not read.
 */
lp_status
lp_parse_alb(const char *line, size_t len, const lp_parse_ctx *ctx, lp_result *out)
{
	const char *end = line + len;	/* its '\r' dropped when a scan gets there */
	const char *p = line;
	const char *close;
	lp_span		tok[12];
	lp_scan		sc;
	lp_status	lat = LP_ST_OK;
	const char *bad = NULL;
	size_t		bad_len = 0;
	int			k;
	int			r;
	int			status;

	lp_result_clear(out);
	lp_scan_init(&sc, p, end, line, 0, 1);
	k = lp_scan_fields(&sc, p, tok, 12, &p);
	if (k < 12)
		return lp_fail_count(out, LP_ST_TOO_FEW_FIELDS, 13, k);
	p = lp_scan_field(&sc, p);
	end = sc.end;
	if (p == end)
		return lp_fail_count(out, LP_ST_TOO_FEW_FIELDS, 13, 12);
	out->time = tok[1].p;
	out->time_len = tok[1].n;
	out->has |= LP_HAS_TIME;

	/*
	 * request_processing_time target_processing_time response_processing_time:
	 * their sum, unless one is "-1" (which is no number of seconds, so a
	 * sum that succeeds has none)
	 */
	{
		int			which = 0;

		lat = lp_seconds_sum_ms(&tok[5], 3, &out->latency, &which, line);
		for (k = 5; lat != LP_ST_OK && k < 8; k++)
			if (lp_span_is(tok[k].p, tok[k].n, "-1", 2))
			{
				lat = LP_ST_NO_LATENCY;
				bad = tok[k].p;
				bad_len = tok[k].n;
				break;
			}
		if (lat == LP_ST_BAD_SECONDS)
		{
			bad = tok[5 + which].p;
			bad_len = tok[5 + which].n;
		}
		else if (lat == LP_ST_REQTIME_RANGE)
		{
			bad = tok[5].p;
			bad_len = (size_t) (tok[7].p + tok[7].n - tok[5].p);
		}
	}

	r = lp_status_field(tok[8].p, tok[8].n, "-", 1, &status);
	if (r < 0)
		return lp_fail(out, LP_ST_BAD_STATUS, tok[8].p, tok[8].n);
	if (r > 0)
	{
		out->status = status;
		out->has |= LP_HAS_STATUS;
	}

	if (*p != '"')
		return LP_ST_NO_REQUEST;
	close = lp_request_close(p + 1, end, sc.cr, line);
	if (!close)
		return LP_ST_UNTERMINATED;
	{
		lp_status	st = lp_take_request(p + 1, close, ctx, LP_ESC_NONE, 1, out, line);

		if (st != LP_ST_OK)
			return st;
	}

	if (lat != LP_ST_OK)
		return lp_fail(out, lat, bad, bad_len);
	out->has |= LP_HAS_LATENCY;
	return LP_ST_OK;
}

/* ---------- W3C: cloudfront, iis ---------- */

/* A W3C header line ("#Version: 1.0", "#Fields: ..."): LP_ST_DIRECTIVE. */
static inline lp_status
lp_directive(const char *line, const char *end, lp_result *out)
{
	return lp_fail(out, LP_ST_DIRECTIVE, line, (size_t) (end - line));
}

/*
 * The method, route and status of a W3C line: cs-method (one or more
 * tchars, not "-": LP_ST_BAD_FIELD), cs-uri-stem (not empty, not "-":
 * LP_ST_BAD_REQUEST), sc-status (three digits, or `none`:
 * LP_ST_BAD_STATUS), checked in that order; the route is the stem, then
 * "?" and cs-uri-query when the query is kept and is not "-".
 */
static lp_status
lp_w3c_fields(const lp_span *method, const lp_span *stem, const lp_span *query,
			  const lp_span *status, const char *none, size_t nonelen,
			  const lp_parse_ctx *ctx, lp_escape esc, lp_result *out, const char *floor)
{
	size_t		i;
	int			r;
	int			st;
	const char *q = NULL;
	size_t		qn = 0;

	for (i = 0; i < method->n; i++)
		if (!lp_tchar[(unsigned char) method->p[i]])
			break;
	if (method->n == 0 || i < method->n || (method->n == 1 && method->p[0] == '-'))
		return lp_fail(out, LP_ST_BAD_FIELD, method->p, method->n);
	out->method = method->p;
	out->method_len = method->n;
	out->has |= LP_HAS_METHOD;
	if (stem->n == 0 || (stem->n == 1 && stem->p[0] == '-'))
		return lp_fail(out, LP_ST_BAD_REQUEST, stem->p, stem->n);
	r = lp_status_field(status->p, status->n, none, nonelen, &st);
	if (r < 0)
		return lp_fail(out, LP_ST_BAD_STATUS, status->p, status->n);
	if (r > 0)
	{
		out->status = st;
		out->has |= LP_HAS_STATUS;
	}
	if (ctx && (ctx->flags & LP_PARSE_KEEP_QUERY) &&
		!(query->n == 1 && query->p[0] == '-'))
	{
		q = query->p;
		qn = query->n;
	}
	lp_preset_route(ctx, esc, -1, (out->has & LP_HAS_HOST) ? out->host : NULL, out->host_len, 0,
					stem->p, stem->n, q, qn, out, floor);
	return LP_ST_OK;
}

/* Fields of a CloudFront line that its parser reads: up to time-taken. */
#define LP_CF_FIELDS 19

/*
 * Amazon CloudFront standard log file format, from the CloudFront
 * Developer Guide, "Standard log file format" (W3C extended format, tab-
 * separated, two header lines, URL-encoded field values, 33 fields in
 * order, new ones added at the end).  The doc's example:
 *
 *   2019-12-13	22:36:27	SEA19-C1	900	192.0.2.200	GET
 *   d111111abcdef8.cloudfront.net	/favicon.ico	502	http://www.example.com/
 *   Mozilla/5.0%20(Windows%20NT%2010.0;...)	-	-	Error
 *   1pkpNfBQ39sYMnjjUQjmH2w1wdJnbHYTbag21o_3OfcQgPzdL2RSSQ==
 *   www.example.com	http	675	0.102	-	...
 *
 * A line starting with '#' is LP_ST_DIRECTIVE.  Checked in order: 19
 * tab-separated fields (LP_ST_TOO_FEW_FIELDS), cs-method, cs-uri-stem,
 * sc-status ("000": no response), then time-taken in seconds ("-":
 * LP_ST_NO_LATENCY; LP_ST_BAD_SECONDS, LP_ST_REQTIME_RANGE).  The host is
 * x-host-header (the Host the viewer sent; cs(Host) is the distribution's
 * own name).  Unescaping decodes "%HH" once: CloudFront encodes '%' too,
 * so a client's "%20" is logged "%2520" and comes back as "%20".
 */
lp_status
lp_parse_cloudfront(const char *line, size_t len, const lp_parse_ctx *ctx, lp_result *out)
{
	const char *end = line + len;	/* its '\r' dropped when a scan gets there */
	const char *p = line;
	lp_span		f[LP_CF_FIELDS];
	const char *fend[LP_CF_FIELDS];	/* where each field ends: its tab, or the line's end */
	lp_scan		sc;
	lp_status	lat;
	int			k;
	int			which;

	lp_result_clear(out);
	if (p < end && *p == '#')
		return lp_directive(line, lp_line_end(line, len), out);
	/* every tab ends a field: the tabs of each window, lowest first */
	lp_scan_init(&sc, p, end, line, 1, 1);
	{
		uint64_t	tabs = sc.bits;

		for (k = 0; k < LP_CF_FIELDS; k++)
		{
			const char *t;

			while (!tabs)
			{
				lp_scan_load(&sc, sc.base + 64);	/* a window without a tab left */
				tabs = sc.bits;
			}
			t = sc.base + lp_lowest(tabs);
			tabs &= tabs - 1;
			if (t >= sc.end)
			{
				if (k + 1 < LP_CF_FIELDS)
					return lp_fail_count(out, LP_ST_TOO_FEW_FIELDS, LP_CF_FIELDS, k + 1);
				fend[k] = sc.end;
				break;
			}
			fend[k] = t;
		}
	}
	/* the fields read, from where their tabs are */
#define LP_CF_FIELD(k) \
	do { \
		f[k].p = (k) == 0 ? line : fend[(k) - 1] + 1; \
		f[k].n = (size_t) (fend[k] - f[k].p); \
	} while (0)
	LP_CF_FIELD(0);
	LP_CF_FIELD(1);
	LP_CF_FIELD(5);
	LP_CF_FIELD(7);
	LP_CF_FIELD(8);
	LP_CF_FIELD(11);
	LP_CF_FIELD(15);
	LP_CF_FIELD(18);
#undef LP_CF_FIELD
	out->time = f[0].p;
	out->time_len = f[0].n;
	out->time2 = f[1].p;
	out->time2_len = f[1].n;
	out->has |= LP_HAS_TIME;
	lp_set_host(f[15].p, f[15].n, out, line);

	if (lp_span_is(f[18].p, f[18].n, "-", 1))
		lat = LP_ST_NO_LATENCY;
	else
		lat = lp_seconds_sum_ms(&f[18], 1, &out->latency, &which, line);
	{
		lp_status	st = lp_w3c_fields(&f[5], &f[7], &f[11], &f[8], "000", 3, ctx,
									   LP_ESC_PERCENT, out, line);

		if (st != LP_ST_OK)
			return st;
	}
	if (lat != LP_ST_OK)
		return lp_fail(out, lat, f[18].p, f[18].n);
	out->has |= LP_HAS_LATENCY;
	return LP_ST_OK;
}

/*
 * IIS's W3C default field set, from Microsoft's IIS Settings Schema
 * (<logFile> of siteDefaults: logExtFileFlags, and "the time stamp for
 * each W3C Extended Logging log record is UTC-based") and the field
 * names of "W3C Logging" and HTTP_LOG_FIELD_TIME_TAKEN ("the time, in
 * milliseconds, of the action") in the HTTP Server API documentation.
 * The header IIS 8.5 and later write by default:
 *
 *   #Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port
 *   cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus
 *   sc-win32-status time-taken
 *
 * (IIS 7 and 7.5 lacked cs(Referer)), and a line:
 *
 *   2026-11-07 01:00:00 10.0.0.5 GET /index.html - 443 - 203.0.113.8
 *   Mozilla/5.0+(Windows+NT+10.0) - 200 0 0 8
 *
 * Fields are separated by blanks (W3C writes a space in a value as '+');
 * date and time are UTC; time-taken is in milliseconds.  A line starting
 * with '#' is LP_ST_DIRECTIVE.  Checked in order: 14 or 15 fields
 * (LP_ST_TOO_FEW_FIELDS; a sixteenth is LP_ST_BAD_FIELD: another field
 * set), cs-method, cs-uri-stem, sc-status, then time-taken ("-":
 * LP_ST_NO_LATENCY; LP_ST_BAD_LATENCY, LP_ST_LATENCY_RANGE).  Routes stay
 * as logged: IIS writes a space as '+', which no decoding can tell from a
 * '+' the client sent.
 */
lp_status
lp_parse_iis(const char *line, size_t len, const lp_parse_ctx *ctx, lp_result *out)
{
	const char *end = line + len;	/* its '\r' dropped when a scan gets there */
	const char *p = line;
	lp_span		f[16];
	lp_scan		sc;
	lp_status	lat;
	int			n;

	lp_result_clear(out);
	if (p < end && *p == '#')
		return lp_directive(line, lp_line_end(line, len), out);
	lp_scan_init(&sc, p, end, line, 0, 1);
	n = lp_scan_fields(&sc, p, f, 16, &p);
	if (n < 14)
		return lp_fail_count(out, LP_ST_TOO_FEW_FIELDS, 14, n);
	if (n > 15)
		return lp_fail(out, LP_ST_BAD_FIELD, f[15].p, f[15].n);
	out->time = f[0].p;
	out->time_len = f[0].n;
	out->time2 = f[1].p;
	out->time2_len = f[1].n;
	out->has |= LP_HAS_TIME;

	if (lp_span_is(f[n - 1].p, f[n - 1].n, "-", 1))
		lat = LP_ST_NO_LATENCY;
	else
		lat = lp_ms_field(f[n - 1].p, f[n - 1].n, &out->latency, line);
	{
		lp_status	st = lp_w3c_fields(&f[3], &f[4], &f[5], &f[n - 4], NULL, 0, ctx,
									   LP_ESC_NONE, out, line);

		if (st != LP_ST_OK)
			return st;
	}
	if (lat != LP_ST_OK)
		return lp_fail(out, lat, f[n - 1].p, f[n - 1].n);
	out->has |= LP_HAS_LATENCY;
	return LP_ST_OK;
}

/* ---------- envoy ---------- */

/*
 * The second-to-last quoted field of a line ending in `"a" "b"` (Envoy's
 * "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%"), found from the end, since the
 * quoted user agent before it may hold a '"'; NULL when the line does not
 * end so, or when the field would start before `from`.
 */
static const char *
lp_envoy_authority(const char *from, const char *end, size_t *len, const char *floor)
{
	const char *q3;
	const char *q1;

	if (end - from < 6 || end[-1] != '"')
		return NULL;
	q3 = lp_find_last(from, end - 1, '"', floor);	/* opens the last field */
	if (!q3 || q3 - from < 3 || q3[-1] != ' ' || q3[-2] != '"')
		return NULL;
	q1 = lp_find_last(from, q3 - 2, '"', floor);	/* opens the one before */
	if (!q1)
		return NULL;
	*len = (size_t) (q3 - 2 - (q1 + 1));
	return q1 + 1;
}

/*
 * Envoy's default access-log format, from Envoy's documentation
 * ("Access logging", "Default format string"):
 *
 *   [%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%"
 *   %RESPONSE_CODE% %RESPONSE_FLAGS% %BYTES_RECEIVED% %BYTES_SENT% %DURATION%
 *   %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% "%REQ(X-FORWARDED-FOR)%" "%REQ(USER-AGENT)%"
 *   "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%"
 *
 * for example
 *
 *   [2016-04-15T20:17:00.310Z] "POST /api/v1/locations HTTP/2" 204 - 154 0 226 100
 *   "10.0.35.28" "nsq2http" "cc21d9b0-cf5c-432b-8c7e-98aeb7988cd2" "locations"
 *   "tcp://10.0.2.1:80"
 *
 * ('-' for a value that is not set).  Checked in order: "[time]" at the
 * start (LP_ST_NO_TIME), a '"' after it (LP_ST_NO_REQUEST) and its close
 * (LP_ST_UNTERMINATED), the request line, five fields after it
 * (LP_ST_TOO_FEW_TAIL_FIELDS), %RESPONSE_CODE%: three digits or 0 (the
 * server never answered) (LP_ST_BAD_STATUS), then %DURATION% in ms ("-":
 * LP_ST_NO_LATENCY; LP_ST_BAD_LATENCY, LP_ST_LATENCY_RANGE).  The host is
 * %REQ(:AUTHORITY)%, read from the end of the line when it ends with two
 * quoted fields.
 */
lp_status
lp_parse_envoy(const char *line, size_t len, const lp_parse_ctx *ctx, lp_result *out)
{
	const char *end = line + len;	/* its '\r' dropped when a scan gets there */
	const char *p = line;
	const char *rb;
	const char *close;
	const char *auth;
	size_t		auth_len = 0;
	lp_span		tok[5];
	lp_scan		sc;
	lp_status	lat;
	int			k;
	int			r;
	int			status;

	lp_result_clear(out);
	if (p == end || *p != '[' || (rb = lp_find(p + 1, end, ']', line)) == NULL)
		return LP_ST_NO_TIME;
	out->time = p + 1;
	out->time_len = (size_t) (rb - p - 1);
	out->has |= LP_HAS_TIME;
	p = lp_past_blanks(rb + 1, end);
	if (p == end || *p != '"')
		return LP_ST_NO_REQUEST;
	close = lp_request_close(p + 1, end, 1, line);
	if (!close)
		return LP_ST_UNTERMINATED;
	auth = lp_envoy_authority(close + 1, lp_end_cr(line, end, 1), &auth_len, line);
	if (auth)
		lp_set_host(auth, auth_len, out, line);
	{
		lp_status	st = lp_take_request(p + 1, close, ctx, LP_ESC_NONE, 0, out, line);

		if (st != LP_ST_OK)
			return st;
	}

	/* %RESPONSE_CODE% %RESPONSE_FLAGS% %BYTES_RECEIVED% %BYTES_SENT% %DURATION% */
	lp_scan_init(&sc, close + 1, end, line, 0, 1);
	k = lp_scan_fields(&sc, close + 1, tok, 5, &p);
	if (k < 5)
		return lp_fail_count(out, LP_ST_TOO_FEW_TAIL_FIELDS, 5, k);

	if (lp_span_is(tok[4].p, tok[4].n, "-", 1))
		lat = LP_ST_NO_LATENCY;
	else
		lat = lp_ms_field(tok[4].p, tok[4].n, &out->latency, line);
	r = lp_status_field(tok[0].p, tok[0].n, "0", 1, &status);
	if (r < 0)
		return lp_fail(out, LP_ST_BAD_STATUS, tok[0].p, tok[0].n);
	if (r > 0)
	{
		out->status = status;
		out->has |= LP_HAS_STATUS;
	}
	if (lat != LP_ST_OK)
		return lp_fail(out, lat, tok[4].p, tok[4].n);
	out->has |= LP_HAS_LATENCY;
	return LP_ST_OK;
}

/* ---------- traefik ---------- */

/* Fields after the request of a Traefik line, the latency last. */
#define LP_TRAEFIK_TAIL 8

/*
 * Traefik's common log format, from Traefik's documentation
 * ("Observability / Access Logs", "Common Log Format"):
 *
 *   <remote_IP_address> - <client_user_name_if_available> [<timestamp>]
 *   "<request_method> <request_path> <request_protocol>" <HTTP_status>
 *   <content-length> "<request_referrer>" "<request_user_agent>"
 *   <number_of_requests_received_since_Traefik_started>
 *   "<Traefik_router_name>" "<Traefik_server_URL>" <request_duration_in_ms>ms
 *
 * as pkg/middlewares/accesslog/logger_formatters.go writes it (time
 * "02/Jan/2006:15:04:05 -0700", "-" for a missing value, the duration an
 * integer of ms).  The request and time are found as in the combined
 * formats (the request: the first '"' at the start or after a blank; the
 * time: the last '[' before it, to the first ']'), since the user name is
 * logged unescaped.  Checked in order: the time (LP_ST_NO_TIME), the
 * request (LP_ST_NO_REQUEST, LP_ST_UNTERMINATED), the request line, eight
 * blank-separated fields after it (LP_ST_TOO_FEW_TAIL_FIELDS), the status:
 * three digits or "-" (LP_ST_BAD_STATUS), then the last field, "<N>ms"
 * (LP_ST_BAD_LATENCY, LP_ST_LATENCY_RANGE).  The fields between the size
 * and the latency are not read.
 */
lp_status
lp_parse_traefik(const char *line, size_t len, const lp_parse_ctx *ctx, lp_result *out)
{
	const char *end = line + len;	/* its '\r' dropped when a scan gets there */
	const char *p = line;
	const char *rq = NULL;
	const char *lb = NULL;
	const char *rb;
	const char *close;
	const char *x;
	const char *last;
	const char *last_end;
	const char *f8;
	lp_span		tok[LP_TRAEFIK_TAIL];
	lp_scan		sc;
	lp_status	lat;
	int			k;
	int			r;
	int			status;

	lp_result_clear(out);
	/* the request: the first '"' at the start or after a blank */
	while ((x = lp_find(p, end, '"', line)) != NULL)
	{
		if (x == line || LP_IS_BLANK(x[-1]))
		{
			rq = x;
			break;
		}
		p = x + 1;
	}
	/* the time: the last '[' before it, to the first ']' after that */
	p = line;
	while ((x = lp_find(p, rq ? rq : end, '[', line)) != NULL)
	{
		lb = x + 1;
		p = lb;
	}
	if (!lb || (rb = lp_find(lb, rq ? rq : end, ']', line)) == NULL)
		return LP_ST_NO_TIME;
	out->time = lb;
	out->time_len = (size_t) (rb - lb);
	out->has |= LP_HAS_TIME;
	if (!rq)
		return LP_ST_NO_REQUEST;
	close = lp_request_close(rq + 1, end, 1, line);
	if (!close)
		return LP_ST_UNTERMINATED;
	{
		lp_status	st = lp_take_request(rq + 1, close, ctx, LP_ESC_NONE, 0, out, line);

		if (st != LP_ST_OK)
			return st;
	}

	/* status size "referer" "agent" count "router" "url" Nms: the last field counts */
	lp_scan_init(&sc, close + 1, end, line, 0, 1);
	k = lp_scan_fields(&sc, close + 1, tok, LP_TRAEFIK_TAIL, &p);
	if (k < LP_TRAEFIK_TAIL)
		return lp_fail_count(out, LP_ST_TOO_FEW_TAIL_FIELDS, LP_TRAEFIK_TAIL, k);
	f8 = tok[LP_TRAEFIK_TAIL - 1].p;
	last_end = lp_end_cr(line, sc.end, sc.cr);
	while (last_end > p && LP_IS_BLANK(last_end[-1]))
		last_end--;
	last = last_end;
	while (last > f8)
	{
		/* the last blank before last_end, sixteen bytes a step */
		const char *from = last - f8 >= 16 ? last - 16 : f8;
		unsigned	m = lp_chunk_bits(from, last, line, ' ', '\t');

		if (m)
		{
			last = from + lp_highest(m) + 1;
			break;
		}
		last = from;
	}
	if (last_end - last >= 3 && last_end[-2] == 'm' && last_end[-1] == 's')
		lat = lp_ms_field(last, (size_t) (last_end - last - 2), &out->latency, line);
	else
		lat = LP_ST_BAD_LATENCY;
	r = lp_status_field(tok[0].p, tok[0].n, "-", 1, &status);
	if (r < 0)
		return lp_fail(out, LP_ST_BAD_STATUS, tok[0].p, tok[0].n);
	if (r > 0)
	{
		out->status = status;
		out->has |= LP_HAS_STATUS;
	}
	if (lat != LP_ST_OK)
		return lp_fail(out, lat, last, (size_t) (last_end - last));
	out->has |= LP_HAS_LATENCY;
	return LP_ST_OK;
}

/* ---------- the list ---------- */

/* See lp_presets.h (the format table names these parsers; this list is for tests). */
const lp_preset lp_presets[] = {
	{"haproxy", lp_parse_haproxy, LP_TIME_CLF_MS, LP_UNIT_MS},
	{"alb", lp_parse_alb, LP_TIME_ISO8601, LP_UNIT_S},
	{"cloudfront", lp_parse_cloudfront, LP_TIME_DATE_TIME, LP_UNIT_S},
	{"envoy", lp_parse_envoy, LP_TIME_ISO8601, LP_UNIT_MS},
	{"traefik", lp_parse_traefik, LP_TIME_CLF, LP_UNIT_MS},
	{"iis", lp_parse_iis, LP_TIME_DATE_TIME, LP_UNIT_MS},
	{NULL, NULL, LP_TIME_NONE, LP_UNIT_NONE}
};
