/* src/logp95_io.c -- PostgreSQL glue: text and binary I/O of the logp95_state type */
#include "postgres.h"

#include "catalog/namespace.h"
#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "logp95.h"
#include "lp_codec.h"
#include "lp_tag.h"

/*
 * How much of a rejected logp95_state text a syntax error quotes, in bytes:
 * the "\x", the version byte and the first routes' lengths show what went
 * wrong, and the text of a large state is megabytes of hex that an error
 * message should not repeat (a log line, by contrast, is quoted up to
 * LOGP95_QUOTE_MAX, 200 bytes, in logp95.c).
 */
#define LOGP95_INPUT_QUOTE_MAX 40

/*
 * The detail of a header that lp_reader_init refused: a version byte above
 * the one this library writes names itself and says where it came from (a
 * state written by a newer logp95 library, read back by an older one after
 * a downgrade, or copied to a server with an older library); anything else
 * is "The header is invalid.".
 */
static const char *
logp95_header_detail(const uint8 *buf, size_t len)
{
	if (len >= 1 && buf[0] > LP_CODEC_VERSION_RED)
		return psprintf("The state has encoding version %d, which a newer logp95 library wrote; this library reads versions %d to %d.",
						buf[0], LP_CODEC_VERSION, LP_CODEC_VERSION_RED);
	return "The header is invalid.";
}

/*
 * Check an encoded state completely, and that every route is valid text in
 * the database encoding.  Returns NULL when fine, or a reason.
 */
static const char *
logp95_check_encoded(const uint8 *buf, size_t len)
{
	lp_reader	r;
	lp_route_view rv;
	int			rc;

	if (lp_reader_init(&r, buf, len) != LP_OK)
		return logp95_header_detail(buf, len);
	r.all = 1;
	while ((rc = lp_reader_next(&r, &rv)) == 1)
	{
		CHECK_FOR_INTERRUPTS();
		if (!pg_verifymbstr(rv.key, (int) rv.keylen, true))
			return "A route is not valid in the database encoding.";
	}
	if (rc != 0)
		return "The route list is truncated, out of order or inconsistent.";
	return NULL;
}

/* Raise the text-input error for `str`, quoting at most LOGP95_INPUT_QUOTE_MAX bytes of it. */
pg_noreturn static void
logp95_syntax_error(const char *str, const char *detail)
{
	int			len = (int) strlen(str);
	int			cut = pg_mbcliplen(str, len, LOGP95_INPUT_QUOTE_MAX);

	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid input syntax for type %s: \"%s\"", "logp95_state",
					cut < len ? psprintf("%.*s...", cut, str) : str),
			 errdetail("%s", detail)));
}

/* Raise the binary-input error. */
pg_noreturn static void
logp95_binary_error(const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
			 errmsg("invalid binary representation for type %s", "logp95_state"),
			 errdetail("%s", detail)));
}

/* The input error of text input `str`, or of binary input when str is NULL. */
pg_noreturn static void
logp95_input_error(const char *str, const char *detail)
{
	if (str)
		logp95_syntax_error(str, detail);
	logp95_binary_error(detail);
}

/* ---------- encoding tags (see lp_tag.h) ---------- */

/*
 * The encoding a tag names (name[0 .. len), checked by lp_tag_name_ok), or
 * an input error naming it when PostgreSQL knows no such encoding.
 */
static int
logp95_tag_encoding(const char *name, size_t len, const char *str)
{
	char		buf[LP_TAG_NAME_MAX + 1];
	int			enc;

	memcpy(buf, name, len);
	buf[len] = '\0';
	enc = pg_char_to_encoding(buf);
	if (enc < 0 || !PG_VALID_ENCODING(enc))
		logp95_input_error(str, psprintf("The state's routes are tagged with encoding \"%s\", which is not a known encoding name.", buf));
	return enc;
}

/* "0xe2 0x82 0xac": the bytes of the character at p (at most `left` bytes) in encoding enc. */
static char *
logp95_char_bytes(int enc, const char *p, size_t left)
{
	StringInfoData s;
	int			n = pg_encoding_mblen_bounded(enc, p);
	int			i;

	if (n < 1)
		n = 1;
	if ((size_t) n > left)
		n = (int) left;
	initStringInfo(&s);
	for (i = 0; i < n; i++)
		appendStringInfo(&s, "%s0x%02x", i ? " " : "", (unsigned char) p[i]);
	return s.data;
}

/*
 * Convert route key[0 .. keylen) from encoding src to the database encoding
 * (conversion function `proc`); the result is palloc'd, NUL-terminated and
 * its length returned in *outlen.  A character the database encoding cannot
 * hold raises 22P05 naming the route and both encodings.  The route was
 * checked to be valid in src.  Works through the route in pieces, so that
 * no buffer needs four times a long route.
 */
static char *
logp95_convert_route(Oid proc, int src, const char *key, size_t keylen, size_t *outlen)
{
	const int	piece = 64 * 1024;
	int			dst = GetDatabaseEncoding();
	StringInfoData out;
	unsigned char *tmp = palloc((Size) piece * MAX_CONVERSION_GROWTH + 1);
	size_t		done = 0;

	initStringInfo(&out);
	while (done < keylen)
	{
		int			n = keylen - done < (size_t) piece ? (int) (keylen - done) : piece;
		int			used;

		CHECK_FOR_INTERRUPTS();
		used = pg_do_encoding_conversion_buf(proc, src, dst,
											 (unsigned char *) key + done, n,
											 tmp, piece * MAX_CONVERSION_GROWTH + 1,
											 true);
		if (used <= 0)
		{
			/* `done` ends on a character boundary: the converted prefix quotes the route */
			ereport(ERROR,
					(errcode(ERRCODE_UNTRANSLATABLE_CHARACTER),
					 errmsg("logp95_state route cannot be converted from encoding \"%s\" to encoding \"%s\"",
							pg_encoding_to_char(src), pg_encoding_to_char(dst)),
					 errdetail("The route that starts \"%s\" continues with the character with byte sequence %s in encoding \"%s\", which has no equivalent in encoding \"%s\".",
							   logp95_quote(out.data, out.len),
							   logp95_char_bytes(src, key + done, keylen - done),
							   pg_encoding_to_char(src), pg_encoding_to_char(dst)),
					 errhint("Load the state into a database whose encoding can hold every route, such as UTF8; nothing of it was loaded.")));
		}
		appendBinaryStringInfo(&out, (const char *) tmp, (int) strlen((const char *) tmp));
		done += (size_t) used;
	}
	pfree(tmp);
	*outlen = (size_t) out.len;
	return out.data;
}

/*
 * The datum of encoded state buf[0 .. len) whose routes are in encoding
 * `src` (named by a tag), for the database: checked completely; taken as
 * it is when its routes need no conversion (same encoding, all ASCII, or a
 * SQL_ASCII side); otherwise every non-ASCII route converted and the state
 * re-encoded canonically, since conversion can change the routes' byte
 * order and make two routes equal (their counts are then added).  `str` is
 * the text input, NULL for binary input (it decides the error).
 */
static bytea *
logp95_import(const uint8 *buf, size_t len, int src, const char *str)
{
	int			db = GetDatabaseEncoding();
	lp_reader	r;
	lp_route_view rv;
	int			rc;
	bool		convert = false;
	Oid			proc;
	lp_allocator alloc;
	lp_state   *st;
	uint8	   *out;
	size_t		outlen;
	bytea	   *res;

	/* the structure, and every route valid where it comes from */
	if (lp_reader_init(&r, buf, len) != LP_OK)
		logp95_input_error(str, logp95_header_detail(buf, len));
	r.all = 1;
	while ((rc = lp_reader_next(&r, &rv)) == 1)
	{
		CHECK_FOR_INTERRUPTS();
		if (lp_key_ascii(rv.key, rv.keylen))
			continue;
		if (src == PG_SQL_ASCII)
		{
			/* bytes of no known encoding: taken as they are, if the database can read them */
			if (!pg_verifymbstr(rv.key, (int) rv.keylen, true))
				logp95_input_error(str, "A route is not valid in the database encoding (the state's routes are tagged SQL_ASCII, bytes of no known encoding, which are taken as they are).");
			continue;
		}
		if (!pg_verify_mbstr(src, rv.key, (int) rv.keylen, true))
			logp95_input_error(str, psprintf("A route is not valid in encoding \"%s\", which the state's tag names.",
											 pg_encoding_to_char(src)));
		if (src != db && db != PG_SQL_ASCII)
			convert = true;
	}
	if (rc != 0)
		logp95_input_error(str, "The route list is truncated, out of order or inconsistent.");
	if (!convert)
		return logp95_make_datum(buf, len);

	proc = FindDefaultConversionProc(src, db);
	if (!OidIsValid(proc))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FUNCTION),
				 errmsg("default conversion function for encoding \"%s\" to \"%s\" does not exist",
						pg_encoding_to_char(src), pg_encoding_to_char(db)),
				 errdetail("A logp95_state whose routes are in encoding \"%s\" cannot be loaded into a database of encoding \"%s\".",
						   pg_encoding_to_char(src), pg_encoding_to_char(db))));

	alloc = logp95_allocator(CurrentMemoryContext);
	st = lp_state_create(&alloc);
	if (st == NULL)
		logp95_check(LP_ENOMEM);
	lp_reader_init(&r, buf, len);
	r.all = 1;					/* every route, and the options, of a version 2 state */
	logp95_check(lp_state_join_options(st, r.sopts, 0));
	logp95_check(lp_state_add_malformed(st, r.malformed));
	while (lp_reader_next(&r, &rv) == 1)
	{
		CHECK_FOR_INTERRUPTS();
		if (lp_key_ascii(rv.key, rv.keylen))
			logp95_check(lp_decode_route(st, &rv, rv.key, rv.keylen));
		else
		{
			size_t		klen;
			char	   *key = logp95_convert_route(proc, src, rv.key, rv.keylen, &klen);

			logp95_check(lp_decode_route(st, &rv, key, klen));
			pfree(key);
		}
	}
	logp95_check(lp_encode(st, &alloc, VARHDRSZ, MaxAllocSize, &out, &outlen));
	res = (bytea *) out;
	SET_VARSIZE(res, VARHDRSZ + outlen);
	return res;
}

/*
 * The encoding name a state's external forms carry: the database's when a
 * route is not ASCII, NULL when every route is (no tag: the form of a
 * state is then what it was before tags).
 */
static const char *
logp95_tag_for(const bytea *st)
{
	int			rc = lp_routes_ascii((const uint8 *) VARDATA_ANY(st), VARSIZE_ANY_EXHDR(st));

	if (rc < 0)
		logp95_check(rc);
	return rc == 1 ? NULL : GetDatabaseEncodingName();
}

PG_FUNCTION_INFO_V1(logp95_state_in);
/*
 * Text input: "\x" followed by the hex of the encoded state, routes in the
 * database encoding; or ENCODING ":\x" and hex, routes in that encoding,
 * converted to the database's (see lp_tag.h).
 */
Datum
logp95_state_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	size_t		len = strlen(str);
	size_t		namelen,
				rest;
	uint8	   *buf;
	size_t		blen;
	const char *why;
	int			enc = -1;

	if (lp_tag_split_text(str, len, &namelen, &rest) != LP_OK)
		logp95_syntax_error(str, "A logp95_state is written as \\x followed by an even number of hexadecimal digits, optionally preceded by an encoding name and a colon.");
	if (namelen)
		enc = logp95_tag_encoding(str, namelen, str);
	buf = palloc((len - rest) / 2 + 1);
	if (lp_hex_decode(str + rest, len - rest, buf, &blen) != LP_OK)
		logp95_syntax_error(str, "A logp95_state is written as \\x followed by an even number of hexadecimal digits.");
	if (namelen)
		PG_RETURN_BYTEA_P(logp95_import(buf, blen, enc, str));
	why = logp95_check_encoded(buf, blen);
	if (why)
		logp95_syntax_error(str, why);
	PG_RETURN_BYTEA_P(logp95_make_datum(buf, blen));
}

PG_FUNCTION_INFO_V1(logp95_state_out);
/*
 * Text output: "\x" followed by the hex of the encoded state, preceded by
 * the database encoding's name and a colon when a route is not ASCII.
 */
Datum
logp95_state_out(PG_FUNCTION_ARGS)
{
	bytea	   *st = PG_GETARG_BYTEA_PP(0);
	size_t		len = VARSIZE_ANY_EXHDR(st);
	const char *tag = logp95_tag_for(st);
	size_t		taglen = tag ? strlen(tag) + 1 : 0;
	char	   *out;

	if (len > (MaxAllocSize - 3 - taglen) / 2)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("logp95_state is too large for text output"),
				 errhint("Use binary COPY or logp95_report instead.")));
	out = palloc(taglen + lp_hex_len(len) + 1);
	if (tag)
	{
		memcpy(out, tag, taglen - 1);
		out[taglen - 1] = ':';
	}
	lp_hex_encode((const uint8 *) VARDATA_ANY(st), len, out + taglen);
	out[taglen + lp_hex_len(len)] = '\0';
	PG_RETURN_CSTRING(out);
}

PG_FUNCTION_INFO_V1(logp95_state_recv);
/*
 * Binary input: the encoded state itself, routes in the database encoding;
 * or the envelope naming the routes' encoding (see lp_tag.h), converted.
 */
Datum
logp95_state_recv(PG_FUNCTION_ARGS)
{
	StringInfo	msg = (StringInfo) PG_GETARG_POINTER(0);
	size_t		len = (size_t) (msg->len - msg->cursor);
	const uint8 *buf = (const uint8 *) pq_getmsgbytes(msg, (int) len);
	size_t		namelen,
				rest;
	const char *why;

	if (lp_tag_split_binary(buf, len, &namelen, &rest) != LP_OK)
		logp95_binary_error("The encoding envelope is truncated or its encoding name is malformed.");
	if (namelen)
		PG_RETURN_BYTEA_P(logp95_import(buf + rest, len - rest,
										logp95_tag_encoding((const char *) buf + 2, namelen, NULL),
										NULL));
	why = logp95_check_encoded(buf, len);
	if (why)
		logp95_binary_error(why);
	PG_RETURN_BYTEA_P(logp95_make_datum(buf, len));
}

PG_FUNCTION_INFO_V1(logp95_state_send);
/*
 * Binary output: the encoded state itself, in the envelope naming the
 * database encoding when a route is not ASCII.
 */
Datum
logp95_state_send(PG_FUNCTION_ARGS)
{
	bytea	   *st = PG_GETARG_BYTEA_PP(0);
	const char *tag = logp95_tag_for(st);
	StringInfoData buf;

	pq_begintypsend(&buf);
	if (tag)
	{
		size_t		n = strlen(tag);
		uint8		env[2 + LP_TAG_NAME_MAX];

		Assert(lp_tag_name_ok(tag, n));
		lp_tag_binary_put(env, tag, n);
		pq_sendbytes(&buf, (const char *) env, (int) lp_tag_binary_len(n));
	}
	pq_sendbytes(&buf, VARDATA_ANY(st), VARSIZE_ANY_EXHDR(st));
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}
