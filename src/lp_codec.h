/* src/lp_codec.h -- the canonical encoding of a logp95 state: encode, validate, decode, walk, hex (plain C) */
#ifndef LP_CODEC_H
#define LP_CODEC_H

#include "lp_state.h"

/*
 * Version 1 layout; every integer is an unsigned LEB128 varint in its
 * shortest form, so the encoding of a state is unique (canonical):
 *
 *   byte    version (1)
 *   varint  malformed-line count (<= INT64_MAX)
 *   varint  number of routes
 *   per route, in strictly ascending byte order of the key:
 *     varint  key length, then the key bytes (no NUL byte)
 *     varint  number of distinct values (>= 1)
 *     varint  length in bytes of the pairs that follow
 *     pairs:  varint value delta (the first is the value itself, later
 *             ones the difference to the previous value, >= 1), varint count (>= 1)
 *   nothing after the last route.
 *
 * A route's counts add up to at most INT64_MAX.
 *
 * Version 2 (issue 24) is written for a state that counts statuses with
 * something to say (a route with a count other than unknown, or a line
 * outside the histogram) or that records options; any other state is
 * written as version 1, byte for byte, so that equal states have equal
 * bytes:
 *
 *   byte    version (2)
 *   varint  options (LP_SOPT_*, no other bit)
 *   varint  malformed-line count, varint number of routes
 *   per route, in strictly ascending byte order of the key:
 *     the key, pair count (>= 0), length of the pairs and pairs, as in
 *     version 1, except that a route may have no pair (length 0)
 *     varint  1xx, 2xx, 3xx, 4xx, 5xx, unknown responses, then the lines
 *             without a latency (lp_red): requests = the sum of the six,
 *             1 .. INT64_MAX; the pairs' counts add up to requests -
 *             lines without a latency - (ok_latency ? 5xx : 0)
 *   nothing after the last route; a version 2 encoding without options
 *   has a route with a count other than unknown or a line without latency.
 *
 * Decoding version 1 counts every request of a route as unknown.
 */
#define LP_CODEC_VERSION 1
#define LP_CODEC_VERSION_RED 2

/* Walks an encoded state, checking everything before it is used. */
typedef struct lp_reader
{
	const uint8_t *p;			/* next unread byte */
	const uint8_t *end;			/* one past the last byte */
	uint64_t	malformed;		/* malformed-line count from the header */
	uint64_t	nroutes;		/* route count from the header */
	uint64_t	left;			/* routes not yet read */
	const char *prev;			/* previous key, for the order check */
	size_t		prevlen;		/* its length */
	int			version;		/* LP_CODEC_VERSION or LP_CODEC_VERSION_RED */
	unsigned	sopts;			/* options recorded (version 2), else 0 */
	int			all;			/* set by the caller: lp_reader_next returns
								 * routes without a pair too (version 2);
								 * otherwise it passes over them, so that
								 * what reads histograms sees none empty */
	int			seen_red;		/* a route had a count other than unknown or
								 * a line without latency */
} lp_reader;

/* One route of an encoded state, checked by lp_reader_next. */
typedef struct lp_route_view
{
	const char *key;			/* route bytes inside the buffer */
	size_t		keylen;			/* their length */
	uint64_t	npairs;			/* distinct values */
	uint64_t	total;			/* requests: sum of counts */
	const uint8_t *pairs;		/* encoded pairs */
	size_t		pairs_len;		/* their length in bytes */
	int			has_red;		/* red was read from the encoding (version 2) */
	lp_red		red;			/* status counts: version 2's, or for version
								 * 1 every request (total) unknown; set when
								 * the route was checked */
} lp_route_view;

/* Walks the pairs of a checked route view. */
typedef struct lp_pair_iter
{
	const uint8_t *p;			/* next pair */
	const uint8_t *end;			/* end of the route's pairs */
	uint64_t	left;			/* pairs not yet read */
	int64_t		value;			/* last value read */
} lp_pair_iter;

/* Read the header; LP_OK or LP_ECORRUPT. */
extern int	lp_reader_init(lp_reader *r, const uint8_t *buf, size_t len);

/*
 * Next route: 1 when *rv is filled, 0 at a clean end, LP_ECORRUPT otherwise.
 * Routes without a pair only when r->all is set.
 */
extern int	lp_reader_next(lp_reader *r, lp_route_view *rv);

/*
 * lp_reader_next for an encoding lp_validate accepted: no check but the
 * lengths (a walk never leaves the buffer), every route (r->all is not
 * read), and for version 1 rv->total and rv->red are not set (0).
 */
extern int	lp_reader_next_trusted(lp_reader *r, lp_route_view *rv);

/* Start walking the pairs of a route view returned by lp_reader_next. */
extern void lp_pairs_begin(const lp_route_view *rv, lp_pair_iter *it);


/* Check a whole encoded state; LP_OK or LP_ECORRUPT. */
extern int	lp_validate(const uint8_t *buf, size_t len);

/* Add every route and count of an encoded state into `st` (checks it too). */
extern int	lp_decode_into(lp_state *st, const uint8_t *buf, size_t len);

/*
 * lp_decode_into for an encoding lp_validate accepted (lp_partial.c decodes
 * a deferred encoding with it, checked when it was deferred).
 */
extern int	lp_decode_trusted(lp_state *st, const uint8_t *buf, size_t len);

/*
 * Add the values of route view `rv` (from lp_reader_next, or from
 * lp_reader_next on input lp_validate accepted) to `st` under route `key`,
 * which may differ from rv->key (a route converted to another encoding);
 * a route `st` already holds gets the counts added.
 */
extern int	lp_decode_route(lp_state *st, const lp_route_view *rv,
							const char *key, size_t keylen);

/* 1 when every byte of the key is 7-bit ASCII, else 0. */
extern int	lp_key_ascii(const char *key, size_t keylen);

/*
 * 1 when every route of an encoded state is 7-bit ASCII, 0 when one is
 * not, LP_ECORRUPT when the walk over the routes fails.  Checks the
 * structure of the routes but not their pairs: for a stored state.
 */
extern int	lp_routes_ascii(const uint8_t *buf, size_t len);

/*
 * Encode `st`.  The result is allocated with `out_alloc` and has `reserve`
 * free bytes before the encoding (room for a varlena header); *outlen counts
 * the encoding only.  LP_ETOOBIG when reserve + encoding would pass max_len.
 * Temporary memory also comes from `out_alloc` and is given back.
 */
extern int	lp_encode(const lp_state *st, const lp_allocator *out_alloc,
					  size_t reserve, size_t max_len,
					  uint8_t **out, size_t *outlen);

/*
 * The encoding written piece by piece, by lp_encode and lp_run_encode
 * (the one place its layout is written): the header (version, malformed
 * count, route count); each route's head (key length, key, pair count,
 * length of its pairs); each pair (the value's difference to the previous
 * value of the route, the value itself for the first; its count).  Each
 * _len gives the bytes its put writes; puts return them too.
 */
extern size_t lp_head_len(uint64_t malformed, uint64_t nroutes);
extern size_t lp_put_head(uint8_t *p, uint64_t malformed, uint64_t nroutes);
extern size_t lp_route_head_len(size_t keylen, uint64_t npairs, uint64_t pairs_len);
extern size_t lp_put_route_head(uint8_t *p, const char *key, size_t keylen,
								uint64_t npairs, uint64_t pairs_len);
/* lp_pair_len and lp_put_pair are inline, below the varints they use. */

/*
 * Version 2's pieces: the header (version 2, options, malformed count,
 * route count) and the status counts after a route's pairs.
 */
extern size_t lp_head_red_len(unsigned sopts, uint64_t malformed, uint64_t nroutes);
extern size_t lp_put_head_red(uint8_t *p, unsigned sopts, uint64_t malformed, uint64_t nroutes);
extern size_t lp_red_len(const lp_red *rd);
extern size_t lp_put_red(uint8_t *p, const lp_red *rd);

/*
 * Does a route with status counts `rd` need version 2 (a count other than
 * unknown, or a line without latency)?
 */
static inline int
lp_red_says(const lp_red *rd)
{
	return (rd->cls[0] | rd->cls[1] | rd->cls[2] | rd->cls[3] | rd->cls[4] | rd->nolat) != 0;
}

/*
 * Check status counts read from an encoding against the route's histogram
 * count `total` under options `sopts`: LP_OK or LP_ECORRUPT.
 */
extern int	lp_red_check(const lp_red *rd, uint64_t total, unsigned sopts);

/*
 * Rewrite, in place, a valid version 2 encoding without options whose
 * routes have only unknown responses and every line in the histogram as
 * the version 1 encoding of the same state; returns its length (shorter).
 */
extern size_t lp_strip_red(uint8_t *buf, size_t len);

/* Text form: "\x" followed by lower-case hex of the encoding. */
extern size_t lp_hex_len(size_t len);
extern void lp_hex_encode(const uint8_t *buf, size_t len, char *out);

/* Decode "\x..." hex (either case); LP_ECORRUPT on bad syntax. out has room for (len-2)/2. */
extern int	lp_hex_decode(const char *text, size_t len, uint8_t *out, size_t *outlen);

/* Bytes lp_varint_put would write for v (1..10): one a started 7 bits. */
static LP_ALWAYS_INLINE size_t
lp_varint_len(uint64_t v)
{
#if defined(__GNUC__)
	return (size_t) (63 - __builtin_clzll(v | 1)) / 7 + 1;
#else
	size_t		n = 1;

	while (v >= 0x80)
	{
		v >>= 7;
		n++;
	}
	return n;
#endif
}

/* Append an unsigned LEB128 varint at p; returns bytes written (1..10). */
extern size_t lp_varint_put(uint8_t *p, uint64_t v);

/* lp_varint_put, inline for the encoder's loop over pairs (most take a byte or two). */
static LP_ALWAYS_INLINE size_t
lp_varint_put_inline(uint8_t *p, uint64_t v)
{
	size_t		n = 0;

	while (v >= 0x80)
	{
		p[n++] = (uint8_t) (v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t) v;
	return n;
}

/* A pair's bytes and its writer (see lp_head_len above): inline, for the encoders' loops. */
static LP_ALWAYS_INLINE size_t
lp_pair_len(uint64_t delta, uint64_t count)
{
	return lp_varint_len(delta) + lp_varint_len(count);
}

static LP_ALWAYS_INLINE size_t
lp_put_pair(uint8_t *p, uint64_t delta, uint64_t count)
{
	size_t		n = lp_varint_put_inline(p, delta);

	n += lp_varint_put_inline(p + n, count);
	/* the encoders reserve lp_pair_len bytes for what this writes */
	LP_ASSERT(n == lp_pair_len(delta, count));
	return n;
}

/* Read a canonical varint; bytes consumed, or 0 when truncated, overlong or > 64 bits. */
extern size_t lp_varint_get(const uint8_t *p, const uint8_t *end, uint64_t *v);

/*
 * lp_varint_get with the one- and two-byte cases inline: most deltas and
 * counts take one byte, most latencies in milliseconds (a route's first
 * value) two.  A two-byte varint whose second byte is 0 is overlong:
 * lp_varint_get refuses it.
 */
static LP_ALWAYS_INLINE size_t
lp_varint_get_fast(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
	if (p < end && *p < 0x80)
	{
		*v = *p;
		return 1;
	}
	if (p + 1 < end && p[1] < 0x80 && p[1] != 0)
	{
		*v = (uint64_t) (p[0] & 0x7f) | (uint64_t) p[1] << 7;
		return 2;
	}
	return lp_varint_get(p, end, v);
}

/*
 * Next pair of a checked view: 1 with value and count, 0 at the end.
 * Inline: the report, the statistics, the sums and the decoder call it for
 * every pair they read.
 */
static LP_ALWAYS_INLINE int
lp_pairs_next(lp_pair_iter *it, int64_t *value, uint64_t *count)
{
	uint64_t	d,
				c;
	size_t		nd,
				nc;

	if (it->left == 0)
		return 0;
	/* the view was checked by lp_reader_next, so these reads succeed */
	nd = lp_varint_get_fast(it->p, it->end, &d);
	it->p += nd;
	nc = lp_varint_get_fast(it->p, it->end, &c);
	it->p += nc;
	LP_ASSERT(nd > 0 && nc > 0 && c > 0 && it->p <= it->end);
	LP_ASSERT(it->left == 1 || it->p < it->end);	/* room for the pairs left */
	it->value += (int64_t) d;	/* the first delta is the value itself */
	it->left--;
	*value = it->value;
	*count = c;
	return 1;
}

#endif							/* LP_CODEC_H */
