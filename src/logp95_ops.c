/* src/logp95_ops.c -- PostgreSQL glue: equality, order and hashing of logp95_state */
#include "postgres.h"

#include "access/detoast.h"
#include "common/hashfn.h"
#include "fmgr.h"

#include "logp95.h"

/*
 * A stored logp95_state is its canonical encoding (lp_codec.h): every
 * integer a shortest varint, routes in strictly ascending byte order, no
 * route without a value.  Two states hold the same routes and counts
 * exactly when their encodings are the same bytes, so equality, order and
 * hashing compare the bytes.  Routes are held in the database encoding
 * (an encoding tag exists only in the text and binary forms, and is
 * resolved on input), so two equal states of one database are equal bytes
 * whatever tags they were read with.  A later encoding version must keep
 * this true: a state that a newer encoding can express in the older one is
 * written in the older one (the encoding of a state is a function of its
 * counts), so the bytes stay canonical across versions.
 *
 * The order is bytewise (memcmp, then the shorter first): it exists so
 * that btree-based plans (GROUP BY with sort, merge joins, UNION with
 * sort, DISTINCT) work, and means nothing beyond that.
 */

/* -1, 0 or 1 as state a sorts before, equal to or after state b. */
static int
logp95_state_cmp_internal(bytea *a, bytea *b)
{
	size_t		la = VARSIZE_ANY_EXHDR(a);
	size_t		lb = VARSIZE_ANY_EXHDR(b);
	int			c;

	c = memcmp(VARDATA_ANY(a), VARDATA_ANY(b), Min(la, lb));
	if (c != 0)
		return c < 0 ? -1 : 1;
	return la < lb ? -1 : (la > lb ? 1 : 0);
}

/* Compare arguments 0 and 1, freeing detoasted copies. */
static int
logp95_state_cmp_args(FunctionCallInfo fcinfo)
{
	bytea	   *a = PG_GETARG_BYTEA_PP(0);
	bytea	   *b = PG_GETARG_BYTEA_PP(1);
	int			c = logp95_state_cmp_internal(a, b);

	PG_FREE_IF_COPY(a, 0);
	PG_FREE_IF_COPY(b, 1);
	return c;
}

PG_FUNCTION_INFO_V1(logp95_state_eq);
/* a = b: the same routes with the same counts and malformed count. */
Datum
logp95_state_eq(PG_FUNCTION_ARGS)
{
	/* sizes differ: not equal, without detoasting either value */
	if (toast_raw_datum_size(PG_GETARG_DATUM(0)) != toast_raw_datum_size(PG_GETARG_DATUM(1)))
		PG_RETURN_BOOL(false);
	PG_RETURN_BOOL(logp95_state_cmp_args(fcinfo) == 0);
}

PG_FUNCTION_INFO_V1(logp95_state_ne);
/* a <> b */
Datum
logp95_state_ne(PG_FUNCTION_ARGS)
{
	if (toast_raw_datum_size(PG_GETARG_DATUM(0)) != toast_raw_datum_size(PG_GETARG_DATUM(1)))
		PG_RETURN_BOOL(true);
	PG_RETURN_BOOL(logp95_state_cmp_args(fcinfo) != 0);
}

PG_FUNCTION_INFO_V1(logp95_state_lt);
/* a < b in bytewise order */
Datum
logp95_state_lt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(logp95_state_cmp_args(fcinfo) < 0);
}

PG_FUNCTION_INFO_V1(logp95_state_le);
/* a <= b in bytewise order */
Datum
logp95_state_le(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(logp95_state_cmp_args(fcinfo) <= 0);
}

PG_FUNCTION_INFO_V1(logp95_state_gt);
/* a > b in bytewise order */
Datum
logp95_state_gt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(logp95_state_cmp_args(fcinfo) > 0);
}

PG_FUNCTION_INFO_V1(logp95_state_ge);
/* a >= b in bytewise order */
Datum
logp95_state_ge(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(logp95_state_cmp_args(fcinfo) >= 0);
}

PG_FUNCTION_INFO_V1(logp95_state_cmp);
/* The btree support function: -1, 0 or 1. */
Datum
logp95_state_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(logp95_state_cmp_args(fcinfo));
}

PG_FUNCTION_INFO_V1(logp95_state_hash);
/* The hash support function: a hash of the canonical bytes. */
Datum
logp95_state_hash(PG_FUNCTION_ARGS)
{
	bytea	   *a = PG_GETARG_BYTEA_PP(0);
	Datum		h = hash_any((const unsigned char *) VARDATA_ANY(a),
							 (int) VARSIZE_ANY_EXHDR(a));

	PG_FREE_IF_COPY(a, 0);
	return h;
}

PG_FUNCTION_INFO_V1(logp95_state_hash_extended);
/* The extended hash support function (hash partitioning): seeded. */
Datum
logp95_state_hash_extended(PG_FUNCTION_ARGS)
{
	bytea	   *a = PG_GETARG_BYTEA_PP(0);
	Datum		h = hash_any_extended((const unsigned char *) VARDATA_ANY(a),
									  (int) VARSIZE_ANY_EXHDR(a),
									  PG_GETARG_INT64(1));

	PG_FREE_IF_COPY(a, 0);
	return h;
}
