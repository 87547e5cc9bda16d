/* src/logp95.c -- PostgreSQL glue: module load, settings, and the helpers every glue file shares */
#include "postgres.h"

#include <limits.h>

#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"

#include "logp95.h"
#include "lp_simd.h"

/*
 * PostgreSQL 18 records the library's name and version, shown by
 * pg_get_loaded_modules(); LOGP95_VERSION comes from the Makefile, which
 * reads it from logp95.control.
 */
#ifdef PG_MODULE_MAGIC_EXT
PG_MODULE_MAGIC_EXT(.name = "logp95",.version = LOGP95_VERSION);
#else
PG_MODULE_MAGIC;
#endif

/* The values logp95.on_malformed accepts. */
static const struct config_enum_entry on_malformed_options[] = {
	{"error", LOGP95_MALFORMED_ERROR, false},
	{"skip", LOGP95_MALFORMED_SKIP, false},
	{NULL, 0, false}
};

/* See logp95.h. */
int			logp95_on_malformed = LOGP95_MALFORMED_ERROR;

/* logp95.max_state_memory, in kB: what one state's allocator may hold. */
static int	logp95_max_state_memory = 1024 * 1024;

/* See logp95.h. */
int			logp95_prefetch_distance = -1;

pg_noreturn static void logp95_format_unknown(const char *name, int len);

/* How much of a bad line an error message quotes, in bytes. */
#define LOGP95_QUOTE_MAX 200

void		_PG_init(void);

/*
 * lp_interrupt_hook of the plain C units: lets statement_timeout and cancel
 * requests stop their long loops (merge, sort, encode, decode).
 */
static void
logp95_interrupt_hook(void)
{
	CHECK_FOR_INTERRUPTS();
}

/*
 * Module load: draw the hash key, register settings and the interrupt hook,
 * choose the CPU build of the parsers.
 * The key is drawn before any state exists in this process, and never
 * again (see lp_hash.h); a library preloaded by the postmaster gives every
 * backend forked from it the same secret key.
 */
void
_PG_init(void)
{
	uint64		key[4];

	if (!pg_strong_random(key, sizeof(key)))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not generate a random hash key for logp95")));
	lp_hash_set_key((const uint64_t *) key);
	lp_interrupt_hook = logp95_interrupt_hook;
	/* the CPU build of the parsers (lp_simd.h), once for the process */
	lp_simd_choose();
	DefineCustomEnumVariable("logp95.on_malformed",
							 "What logp95_agg does with a malformed log line.",
							 "\"error\" raises an error; \"skip\" counts the line (see logp95_malformed) and goes on.",
							 &logp95_on_malformed,
							 LOGP95_MALFORMED_ERROR,
							 on_malformed_options,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	DefineCustomIntVariable("logp95.max_state_memory",
							"Largest amount of memory one logp95 state may take in a backend.",
							"Counted per state (aggregate group, merge, decoded input, encoding) before each allocation; past it the statement fails with SQLSTATE 54000.  Only superusers may change it, so that it bounds every user.",
							&logp95_max_state_memory,
							1024 * 1024,
							64,
							MAX_KILOBYTES,
							PGC_SUSET,
							GUC_UNIT_KB,
							NULL, NULL, NULL);
	DefineCustomIntVariable("logp95.prefetch_distance",
							"How far ahead of the row it reads logp95_agg asks the CPU for the lines of the rows to come.",
							"A sequential scan meets the rows of a heap page from the top of the page down, so the next lines lie below the current one; each row asks for about its own size this many bytes below it.  -1 (the default): two rows of the row's own size, at least 512 bytes.  0 turns it off.",
							&logp95_prefetch_distance,
							-1,
							-1,
							65536,
							PGC_USERSET,
							GUC_UNIT_BYTE,
							NULL, NULL, NULL);
	MarkGUCPrefixReserved("logp95");
}

/* ---------- memory: the plain C units allocate through these ---------- */

/*
 * The bookkeeping behind one lp_allocator: the memory context it draws
 * from and how much of it the state holds (chunk sizes, as the context
 * counts them).  One per allocator, that is per state: a GROUP BY of many
 * small groups is not limited by the sum of its groups.
 */
typedef struct Logp95Alloc
{
	MemoryContext cxt;			/* where blocks come from */
	Size		used;			/* bytes held now (GetMemoryChunkSpace) */
} Logp95Alloc;

/*
 * lp_allocator.alloc: huge allocations allowed, NULL instead of an ERROR
 * when the system runs out; but past logp95.max_state_memory it raises
 * 54000 itself, before taking the memory.  Raising from inside a plain C
 * unit is as safe as the interrupt hook: everything it allocated lives in
 * a memory context that PostgreSQL drops with the failed query, and no
 * state outlives an error in its query.
 */
static void *
logp95_mcxt_alloc(void *ctx, size_t size)
{
	Logp95Alloc *la = (Logp95Alloc *) ctx;
	Size		limit = (Size) logp95_max_state_memory * 1024;
	void	   *p;

	if (size > limit || la->used > limit - size)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("logp95 state needs more than logp95.max_state_memory (%d kB)",
						logp95_max_state_memory),
				 errdetail("The state holds %zu kB and asked for %zu kB more.",
						   (size_t) (la->used / 1024), (size_t) (size / 1024 + 1)),
				 errhint("A superuser can raise logp95.max_state_memory.")));
	p = MemoryContextAllocExtended(la->cxt, size, MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
	if (p)
		la->used += GetMemoryChunkSpace(p);
	return p;
}

/* lp_allocator.free. */
static void
logp95_mcxt_free(void *ctx, void *ptr)
{
	Logp95Alloc *la = (Logp95Alloc *) ctx;
	Size		n = GetMemoryChunkSpace(ptr);

	la->used -= n < la->used ? n : la->used;
	pfree(ptr);
}

/* See logp95.h. */
lp_allocator
logp95_allocator(MemoryContext cxt)
{
	lp_allocator a;
	Logp95Alloc *la = MemoryContextAlloc(cxt, sizeof(Logp95Alloc));

	la->cxt = cxt;
	la->used = 0;
	a.alloc = logp95_mcxt_alloc;
	a.free = logp95_mcxt_free;
	a.ctx = la;
	return a;
}

/* ---------- errors ---------- */

/* See logp95.h. */
void
logp95_check(int rc)
{
	if (rc == LP_OK)
		return;
	if (rc == LP_ECORRUPT)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("logp95_state value is corrupt")));
	switch (rc)
	{
		case LP_ENOMEM:
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("out of memory"),
					 errdetail("The logp95 aggregate state could not grow.")));
			break;
		case LP_EOVERFLOW:
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("logp95 request count is out of range for type bigint")));
			break;
		case LP_EMALFORMED_OVERFLOW:
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("logp95 malformed line count is out of range for type bigint"),
					 errdetail("The malformed lines of the states add up past 9223372036854775807.")));
			break;
		case LP_EOPTIONS:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("cannot merge logp95 states counted with different options"),
					 errdetail("The options method and ok_latency change what a state counts, and the two states were not counted with the same ones."),
					 errhint("Count the lines of both states with the same logp95_agg options.")));
			break;
		case LP_ETOOBIG:
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("logp95_state is too large"),
					 errdetail("A logp95_state holds at most 1 GB once encoded, and a state at most 2^29 routes or distinct latencies per route.")));
			break;
		default:
			/* LP_EINTERNAL and anything else: a bug, not bad data */
			elog(ERROR, "unexpected logp95 result code %d", rc);
	}
}

/* See logp95.h. */
char *
logp95_quote(const char *s, size_t len)
{
	int			cut = pg_mbcliplen(s, (int) len, LOGP95_QUOTE_MAX);

	if ((size_t) cut < len)
		return psprintf("%.*s...", cut, s);
	return pnstrdup(s, len);
}

/* See logp95.h. */
int
logp95_errdetail_line(const char *line, size_t len)
{
	return errdetail("The line was \"%s\".", logp95_quote(line, len));
}

/* ---------- lines given as bytea ---------- */

/*
 * The length of the character at s (at most len bytes) when it is valid
 * text in the database encoding, else 0.  A NUL byte is never text.
 */
static inline int
logp95_char_len(int enc, const char *s, size_t len)
{
	int			l;

	if (likely(!IS_HIGHBIT_SET(*s)))
		return *s != '\0';
	l = pg_encoding_verifymbchar(enc, s, (int) Min(len, (size_t) INT_MAX));
	return l > 0 ? l : 0;
}

/* See logp95.h. */
bool
logp95_bytes_valid(const char *s, size_t len)
{
	int			enc = GetDatabaseEncoding();
	const char *e = s + len;

	while (s < e)
	{
		int			l = logp95_char_len(enc, s, (size_t) (e - s));

		if (l == 0)
			return false;
		s += l;
	}
	return true;
}

/* See logp95.h. */
size_t
logp95_bytes_escape(const char *s, size_t len, char *out)
{
	static const char hex[] = "0123456789abcdef";
	int			enc = GetDatabaseEncoding();
	const char *e = s + len;
	char	   *o = out;

	while (s < e)
	{
		int			l = logp95_char_len(enc, s, (size_t) (e - s));

		if (l > 0)
		{
			memcpy(o, s, l);
			o += l;
			s += l;
			continue;
		}
		*o++ = '\\';
		*o++ = 'x';
		*o++ = hex[(unsigned char) *s >> 4];
		*o++ = hex[(unsigned char) *s & 15];
		s++;
	}
	return (size_t) (o - out);
}

/* See logp95.h. */
const char *
logp95_bytes_text(const char *s, size_t len, size_t *outlen)
{
	char	   *out;

	if (logp95_bytes_valid(s, len))
	{
		*outlen = len;
		return s;
	}
	if (len > (MaxAllocSize - 1) / LOGP95_ESCAPE_RATIO)
		logp95_check(LP_ETOOBIG);
	out = palloc(LOGP95_ESCAPE_RATIO * len + 1);
	*outlen = logp95_bytes_escape(s, len, out);
	out[*outlen] = '\0';
	return out;
}

/* ---------- datums and arguments ---------- */

/* See logp95.h. */
bytea *
logp95_make_datum(const uint8 *buf, size_t len)
{
	bytea	   *res;

	if (len > MaxAllocSize - VARHDRSZ)
		logp95_check(LP_ETOOBIG);
	res = (bytea *) palloc(VARHDRSZ + len);
	SET_VARSIZE(res, VARHDRSZ + len);
	memcpy(VARDATA(res), buf, len);
	return res;
}


/* See logp95.h. */
const lp_format_def *
logp95_format_named(const char *name, int len)
{
	const lp_format_def *f = lp_format_lookup(name, (size_t) len);

	if (f == NULL)
		logp95_format_unknown(name, len);
	return f;
}

/* The 22023 of a format argument that names no format. */
pg_noreturn static void
logp95_format_unknown(const char *name, int len)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("unknown log format \"%s\"", logp95_quote(name, (size_t) len)),
			 errhint("Known formats are: %s; or nginx:, apache: or json: followed by a definition.",
					 lp_format_names())));
}

/* The 22023 of a format argument that lp_format_resolve refused. */
pg_noreturn static void
logp95_format_refused(const char *arg, int len, const lp_farg_error *err)
{
	switch (err->status)
	{
		case LP_FARG_BAD_OFFSET:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid UTC offset \"%s\" in log format \"%s\"",
							err->message, logp95_quote(arg, (size_t) len)),
					 errhint("Write the offset as +HH:MM or -HH:MM, as in haproxy@+05:30.")));
			break;
		case LP_FARG_DEFINITION:
			{
				size_t		at = err->body_off + err->pos;

				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("invalid %s at position %zu: %s", err->what, err->pos + 1, err->message),
						 at < (size_t) len ?
						 errdetail("The %s reads \"%s\" from position %zu.", err->what,
								   logp95_quote(arg + at, (size_t) len - at), err->pos + 1) :
						 errdetail("The error is at the end of the %s.", err->what),
						 err->hint ? errhint("%s", err->hint) : 0));
			}
			break;
		case LP_FARG_LACKS:
		case LP_FARG_OFFSET_UNUSED:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s", err->message),
					 err->hint ? errhint("%s", err->hint) : 0));
			break;
		default:
			logp95_format_unknown(arg, len);
	}
	pg_unreachable();
}

/* Does slot sl hold argument arg[0..len) resolved for need? */
static inline bool
logp95_slot_is(const Logp95FormatSlot *sl, const char *arg, int len, unsigned need)
{
	return sl->format != NULL && sl->len == len && sl->need == need &&
		memcmp(sl->name, arg, len) == 0;
}

/* See logp95.h. */
const lp_format_def *
logp95_format_cached(Logp95FormatCache *cache, text *t, unsigned need, MemoryContext cxt)
{
	const char *arg = VARDATA_ANY(t);
	int			len = (int) VARSIZE_ANY_EXHDR(t);
	Logp95FormatSlot *sl = &cache->slots[cache->last];
	const lp_format_def *f;
	lp_farg_error err;
	int			i;

	if (likely(logp95_slot_is(sl, arg, len, need)))
		return cache->format = sl->format;
	for (i = 0; i < LOGP95_FORMAT_SLOTS; i++)
	{
		if (logp95_slot_is(&cache->slots[i], arg, len, need))
		{
			cache->last = i;
			return cache->format = cache->slots[i].format;
		}
	}
	/* a new argument: resolved into the next slot, its old content dropped */
	cache->format = NULL;
	sl = &cache->slots[cache->next];
	sl->format = NULL;
	/* room for a built format (6 kB), which a plain name does not need */
	if (sl->custom == NULL && (memchr(arg, ':', len) || memchr(arg, '@', len)))
		sl->custom = MemoryContextAlloc(cxt, sizeof(lp_custom_format));
	if (lp_format_resolve(arg, (size_t) len, need, sl->custom, &f, &err) != LP_FARG_OK)
		logp95_format_refused(arg, len, &err);
	if (sl->cap < len)
	{
		if (sl->name)
			pfree(sl->name);
		sl->cap = Max(len, 32);
		sl->name = MemoryContextAlloc(cxt, sl->cap);
	}
	memcpy(sl->name, arg, len);
	sl->len = len;
	sl->need = need;
	sl->format = f;
	cache->last = cache->next;
	cache->next = (cache->next + 1) % LOGP95_FORMAT_SLOTS;
	return cache->format = f;
}

/* See logp95.h. */
const lp_format_def *
logp95_format_arg(FunctionCallInfo fcinfo, int argno, unsigned need)
{
	if (fcinfo->flinfo->fn_extra == NULL)
		fcinfo->flinfo->fn_extra = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt,
														  sizeof(Logp95FormatCache));
	return logp95_format_cached((Logp95FormatCache *) fcinfo->flinfo->fn_extra,
								PG_GETARG_TEXT_PP(argno), need, fcinfo->flinfo->fn_mcxt);
}

/* ---------- reading a stored state ---------- */

/* See logp95.h. */
void
logp95_reader_open(bytea *st, lp_reader *r)
{
	if (lp_reader_init(r, (const uint8 *) VARDATA_ANY(st), VARSIZE_ANY_EXHDR(st)) != LP_OK)
		logp95_check(LP_ECORRUPT);
}

/* See logp95.h. */
bool
logp95_reader_next(lp_reader *r, lp_route_view *rv)
{
	int			rc = lp_reader_next(r, rv);

	if (rc < 0)
		logp95_check(LP_ECORRUPT);
	CHECK_FOR_INTERRUPTS();
	return rc == 1;
}

/* See logp95.h. */
Datum
logp95_route_rows(FunctionCallInfo fcinfo, bytea *st, logp95_row_fn fill, void *arg)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	lp_reader	r;
	lp_route_view rv;
	MemoryContext rowcxt,
				oldcxt;

	InitMaterializedSRF(fcinfo, 0);
	if (rsinfo->setDesc->natts > LOGP95_ROW_MAX)
		elog(ERROR, "logp95 result has %d columns, more than %d",
			 rsinfo->setDesc->natts, LOGP95_ROW_MAX);

	/*
	 * Whatever a row allocates (its route as text, its arrays) goes into a
	 * context reset once the row is in the tuplestore: the walk holds one
	 * row at a time, not every route's (a row of logp95_percentiles holds
	 * one value per fraction).
	 */
	rowcxt = AllocSetContextCreate(CurrentMemoryContext, "logp95 result row",
								   ALLOCSET_DEFAULT_SIZES);
	logp95_reader_open(st, &r);
	while (logp95_reader_next(&r, &rv))
	{
		Datum		values[LOGP95_ROW_MAX];
		bool		nulls[LOGP95_ROW_MAX];

		memset(nulls, 0, sizeof(nulls));
		oldcxt = MemoryContextSwitchTo(rowcxt);
		fill(&rv, values, nulls, arg);
		MemoryContextSwitchTo(oldcxt);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		MemoryContextReset(rowcxt);
	}
	MemoryContextDelete(rowcxt);
	return (Datum) 0;
}
