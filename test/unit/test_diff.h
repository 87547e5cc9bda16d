/* test/unit/test_diff.h -- the first field where two answers differ: for differential unit tests and fuzzers */
#ifndef TEST_DIFF_H
#define TEST_DIFF_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A field-by-field comparison of an answer with the reference's.  The
 * caller compares every field in order with the diff_* functions; the
 * first that differs is kept with both of its values printed, and later
 * calls change nothing, so the report names exactly one field:
 *
 *		build avx2: field route: expected "/a" got "/b" (line "...")
 *
 * (diff_say gives the part from "field" on).  Header-only, so that the
 * fuzzers, which link no test harness, share it.
 */
typedef struct test_diff
{
	const char *field;			/* the first field that differs (in fieldbuf);
								 * NULL while every field agrees */
	char		fieldbuf[256];	/* its name */
	char		want[192];		/* its expected value (the reference's), printed */
	char		got[192];		/* and the value got, printed */
} test_diff;

/* Start a comparison. */
static inline void
diff_init(test_diff *d)
{
	d->field = NULL;
	d->want[0] = d->got[0] = '\0';
}

/*
 * Print bytes s[0..n) into out[0..cap) as a C string literal: quotes, with
 * \t, \r, \n, \", \\ and \xNN for other bytes outside printable ASCII;
 * cut where `out` is full ("..." and the length).  NULL prints as NULL.
 */
static inline void
diff_quote(char *out, size_t cap, const char *s, size_t n)
{
	size_t		i,
				o = 0;

	if (!s)
	{
		snprintf(out, cap, "NULL");
		return;
	}
	out[o++] = '"';
	for (i = 0; i < n && o + 32 < cap; i++)
	{
		unsigned char c = (unsigned char) s[i];

		if (c == '\t' || c == '\r' || c == '\n' || c == '"' || c == '\\')
		{
			out[o++] = '\\';
			out[o++] = c == '\t' ? 't' : c == '\r' ? 'r' : c == '\n' ? 'n' : (char) c;
		}
		else if (c < 0x20 || c >= 0x7f)
			o += (size_t) snprintf(out + o, cap - o, "\\x%02x", c);
		else
			out[o++] = (char) c;
	}
	out[o++] = '"';
	out[o] = '\0';
	if (i < n)
		snprintf(out + o, cap - o, "... (%zu bytes)", n);
}

/* diff_quote into one of four rotating static buffers: for a report's context. */
static inline const char *
diff_q(const char *s, size_t n)
{
	static char buf[4][2048];
	static int	k;

	k = (k + 1) & 3;
	diff_quote(buf[k], sizeof(buf[k]), s, n);
	return buf[k];
}

/* Record `field` as the first difference, with its values printed by the caller. */
static inline int
diff_note(test_diff *d, const char *field)
{
	if (d->field)
		return 0;				/* an earlier field differs already */
	snprintf(d->fieldbuf, sizeof(d->fieldbuf), "%s", field);
	d->field = d->fieldbuf;
	return 1;
}

/* Compare a signed field. */
static inline int
diff_i(test_diff *d, const char *field, long long got, long long want)
{
	if (got == want)
		return 1;
	if (diff_note(d, field))
	{
		snprintf(d->got, sizeof(d->got), "%lld", got);
		snprintf(d->want, sizeof(d->want), "%lld", want);
	}
	return 0;
}

/* Compare an unsigned field. */
static inline int
diff_u(test_diff *d, const char *field, unsigned long long got, unsigned long long want)
{
	if (got == want)
		return 1;
	if (diff_note(d, field))
	{
		snprintf(d->got, sizeof(d->got), "%llu", got);
		snprintf(d->want, sizeof(d->want), "%llu", want);
	}
	return 0;
}

/* Compare two byte strings by content (NULL equals only NULL). */
static inline int
diff_text(test_diff *d, const char *field, const char *got, size_t glen,
		  const char *want, size_t wlen)
{
	if ((got == NULL) == (want == NULL) &&
		(!got || (glen == wlen && (glen == 0 || memcmp(got, want, glen) == 0))))
		return 1;
	if (diff_note(d, field))
	{
		diff_quote(d->got, sizeof(d->got), got, glen);
		diff_quote(d->want, sizeof(d->want), want, wlen);
	}
	return 0;
}

/* A slice of `base` printed with its offset: "text" at N, or NULL. */
static inline void
diff_slice_print(char *out, size_t cap, const char *base, const char *s, size_t n)
{
	size_t		k;

	diff_quote(out, cap, s, n);
	k = strlen(out);
	if (s)
		snprintf(out + k, cap - k, " at %lld", (long long) (s - base));
}

/*
 * Compare two slices of the same input `base`: the same bytes at the same
 * place (the same pointer and length), printed with their offsets.
 */
static inline int
diff_slice(test_diff *d, const char *field, const char *base, const char *got, size_t glen,
		   const char *want, size_t wlen)
{
	if (got == want && glen == wlen)
		return 1;
	if (diff_note(d, field))
	{
		diff_slice_print(d->got, sizeof(d->got), base, got, glen);
		diff_slice_print(d->want, sizeof(d->want), base, want, wlen);
	}
	return 0;
}

/* The difference found: "field F: expected W got G" (a static buffer). */
static inline const char *
diff_say(const test_diff *d)
{
	static char buf[768];

	if (!d->field)
		return "no field differs";
	snprintf(buf, sizeof(buf), "field %s: expected %s got %s", d->field, d->want, d->got);
	return buf;
}

/*
 * For the fuzzers, once a field differs: print "WHO: field F: expected W
 * got G (CONTEXT)" (CONTEXT from fmt) on stderr and abort, which libFuzzer
 * reports as a crash and saves the input of.  Called as
 * "if (d.field) diff_abort(...)", so that the context is printed only on a
 * failure.
 */
static inline void
diff_abort(const test_diff *d, const char *who, const char *fmt,...)
{
	va_list		ap;

	fprintf(stderr, "%s: %s (", who, diff_say(d));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ")\n");
	abort();
}

#endif							/* TEST_DIFF_H */
