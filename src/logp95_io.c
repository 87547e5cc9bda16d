/* src/logp95_io.c -- PostgreSQL glue: text and binary I/O of the logp95_state type */
#include "postgres.h"

#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "logp95.h"
#include "lp_codec.h"

/*
 * How much of a rejected logp95_state text a syntax error quotes, in bytes:
 * the "\x", the version byte and the first routes' lengths show what went
 * wrong, and the text of a large state is megabytes of hex that an error
 * message should not repeat (a log line, by contrast, is quoted up to
 * LOGP95_QUOTE_MAX, 200 bytes, in logp95.c).
 */
#define LOGP95_INPUT_QUOTE_MAX 40

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
		return "The header is invalid.";
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

PG_FUNCTION_INFO_V1(logp95_state_in);
/* Text input: "\x" followed by the hex of the encoded state. */
Datum
logp95_state_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	size_t		len = strlen(str);
	uint8	   *buf = palloc(len / 2 + 1);
	size_t		blen;
	const char *why;

	if (lp_hex_decode(str, len, buf, &blen) != LP_OK)
		logp95_syntax_error(str, "A logp95_state is written as \\x followed by an even number of hexadecimal digits.");
	why = logp95_check_encoded(buf, blen);
	if (why)
		logp95_syntax_error(str, why);
	PG_RETURN_BYTEA_P(logp95_make_datum(buf, blen));
}

PG_FUNCTION_INFO_V1(logp95_state_out);
/* Text output: "\x" followed by the hex of the encoded state. */
Datum
logp95_state_out(PG_FUNCTION_ARGS)
{
	bytea	   *st = PG_GETARG_BYTEA_PP(0);
	size_t		len = VARSIZE_ANY_EXHDR(st);
	char	   *out;

	if (len > (MaxAllocSize - 3) / 2)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("logp95_state is too large for text output"),
				 errhint("Use binary COPY or logp95_report instead.")));
	out = palloc(lp_hex_len(len) + 1);
	lp_hex_encode((const uint8 *) VARDATA_ANY(st), len, out);
	out[lp_hex_len(len)] = '\0';
	PG_RETURN_CSTRING(out);
}

PG_FUNCTION_INFO_V1(logp95_state_recv);
/* Binary input: the encoded state itself, checked. */
Datum
logp95_state_recv(PG_FUNCTION_ARGS)
{
	StringInfo	msg = (StringInfo) PG_GETARG_POINTER(0);
	size_t		len = (size_t) (msg->len - msg->cursor);
	const uint8 *buf = (const uint8 *) pq_getmsgbytes(msg, (int) len);
	const char *why = logp95_check_encoded(buf, len);

	if (why)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid binary representation for type %s", "logp95_state"),
				 errdetail("%s", why)));
	PG_RETURN_BYTEA_P(logp95_make_datum(buf, len));
}

PG_FUNCTION_INFO_V1(logp95_state_send);
/* Binary output: the encoded state itself. */
Datum
logp95_state_send(PG_FUNCTION_ARGS)
{
	bytea	   *st = PG_GETARG_BYTEA_PP(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbytes(&buf, VARDATA_ANY(st), VARSIZE_ANY_EXHDR(st));
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}
