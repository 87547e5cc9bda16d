/* src/logp95.c -- PostgreSQL glue: module load, settings, and the helpers every glue file shares */
#include "postgres.h"

#include <limits.h>

#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "port/pg_bitutils.h"
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

/* logp95.retained_memory, in kB: the blocks a backend keeps for its next states. */
static int	logp95_retained_memory = 8 * 1024;

static void logp95_retained_assign(int newval, void *extra);

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
	DefineCustomIntVariable("logp95.retained_memory",
							"Memory a backend keeps, after a query, for the large blocks of its next logp95 states.",
							"A state's arrays and tables of a power of two from 256 bytes are taken from these kept blocks and given back to them, up to this much, instead of being returned to the system at the end of each query and touched anew by the next one (not in a hashed aggregate, whose memory PostgreSQL must see to spill).  0 keeps none.  Only superusers may change it.",
							&logp95_retained_memory,
							8 * 1024,
							0,
							MAX_KILOBYTES,
							PGC_SUSET,
							GUC_UNIT_KB,
							NULL, logp95_retained_assign, NULL);
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
	bool		retaining;		/* large blocks from the retained ones (below) */
	void	  **live;			/* the retained blocks it holds now, in cxt */
	uint32		nlive;			/* how many */
	uint32		live_cap;		/* room at live */
	MemoryContextCallback cb;	/* gives them back when cxt goes (registered
								 * with the first one) */
} Logp95Alloc;

/* ---------- retained blocks: a state's large blocks kept for the next query ---------- */

/*
 * A state grows its dense arrays, value tables and route table by
 * doubling, and at the end of the query its memory context gives all of it
 * back; glibc then returns the top of the heap to the system, and the next
 * query's state touches every page of it anew.  Where a page fault is
 * expensive (a virtual machine whose faults take 10 us and more, as on the
 * machines of docs/performance.md) that cost is a fifth of a 400,000-line
 * report.  So the blocks of a power of two from 256 bytes of a retaining
 * allocator (the running states, outside hashed aggregation) come from a
 * context of the backend's own, "logp95 retained blocks", and go back to
 * per-size free lists there instead of to the system, up to
 * logp95.retained_memory in all; past that they are freed.  aset.c keeps
 * the keeper blocks of deleted contexts for the same reason.  A block of
 * more than 8 kB of another size (a merge's or a parallel finalize's
 * copies of the states it adds up, the sum it writes and the buffers it
 * merges their pairs in) is rounded up to the next power of two when that
 * could be kept: the state's context would give it a malloc of its own,
 * faulted in anew every query.
 *
 * Each such block is a chunk of that context of 2^k bytes and a tag behind
 * them (Logp95Tag): the allocator that holds it and its place in that
 * allocator's `live` array, so that it can be given back from anywhere in
 * O(1), and all at once when the allocator's context is reset or deleted
 * (an ERROR included: logp95_retained_reset is a reset callback of that
 * context).  A block is told from the allocator's other chunks by its
 * context (GetMemoryChunkContext), and its k by its space
 * (GetMemoryChunkSpace: the size asked for and a header, less than twice
 * it) -- when the context gives it a chunk of its own.  Whether it does
 * depends on aset.c's chunk limit, which differs between PostgreSQL
 * versions: so the first chunk of each size class is checked, and a class
 * whose chunk comes back rounded up (a freelist chunk twice the size) is
 * not retained in this process (logp95_retained_class).
 */
#define LP_RETAIN_MIN_SHIFT 8		/* 256 bytes */
#define LP_RETAIN_MAX_SHIFT 30		/* 1 GB */
#define LP_RETAIN_ROUND_MIN 8192	/* larger blocks may be rounded up to 2^k */

typedef struct Logp95Tag
{
	Logp95Alloc *owner;			/* the allocator that holds the block */
	uint32		index;			/* its place in owner->live */
	uint32		check;			/* logp95_tag_check of the block */
} Logp95Tag;

/*
 * What a block's tag says of the block itself: a write past the end of a
 * block (a bug) is caught when the block is given back, instead of
 * corrupting another block's place in its allocator.
 */
static inline uint32
logp95_tag_check(const void *p, int k)
{
	return (uint32) ((uintptr_t) p >> 4) ^ (uint32) k ^ 0x9e3779b9u;
}

static MemoryContext logp95_retained_cxt;	/* made with the first block */
static void *logp95_retained_lists[LP_RETAIN_MAX_SHIFT + 1];	/* free blocks by
																 * size, linked
																 * through their
																 * first word */
static Size logp95_retained_bytes;	/* chunk space on the lists */
static int8 logp95_retained_class[LP_RETAIN_MAX_SHIFT + 1];	/* 1: blocks of 2^k
																 * are retained,
																 * -1: not (their
																 * chunks are
																 * rounded), 0:
																 * not known yet */

/* The tag of a block of 2^k bytes. */
static inline Logp95Tag *
logp95_tag(void *p, int k)
{
	return (Logp95Tag *) ((char *) p + ((Size) 1 << k));
}

/* Free blocks from the largest down until at most `limit` bytes stay on the lists. */
static void
logp95_retained_trim(Size limit)
{
	int			k;

	for (k = LP_RETAIN_MAX_SHIFT; k >= LP_RETAIN_MIN_SHIFT && logp95_retained_bytes > limit; k--)
	{
		while (logp95_retained_lists[k] != NULL && logp95_retained_bytes > limit)
		{
			void	   *p = logp95_retained_lists[k];

			logp95_retained_lists[k] = *(void **) p;
			logp95_retained_bytes -= GetMemoryChunkSpace(p);
			pfree(p);
		}
	}
}

/* Assign hook of logp95.retained_memory: keep no more than the new value. */
static void
logp95_retained_assign(int newval, void *extra)
{
	logp95_retained_trim((Size) newval * 1024);
}

/* Put block p of 2^k bytes on its free list, or free it when the lists are full. */
static void
logp95_retained_put(void *p, int k)
{
	Size		space = GetMemoryChunkSpace(p);

	if (logp95_retained_bytes + space > (Size) logp95_retained_memory * 1024)
	{
		pfree(p);
		return;
	}
	*(void **) p = logp95_retained_lists[k];
	logp95_retained_lists[k] = p;
	logp95_retained_bytes += space;
}

/*
 * Reset callback of a retaining allocator's context: every block it still
 * holds goes back (the live array itself goes with the context).
 */
static void
logp95_retained_reset(void *arg)
{
	Logp95Alloc *la = (Logp95Alloc *) arg;
	uint32		i;

	for (i = 0; i < la->nlive; i++)
	{
		void	   *p = la->live[i];

		logp95_retained_put(p, pg_leftmost_one_pos64(GetMemoryChunkSpace(p)));
	}
	la->nlive = 0;
	la->used = 0;
}

/*
 * A block of 2^k bytes for retaining allocator la: from the free list or
 * the retained context, recorded in la->live; NULL when memory runs out.
 */
static void *
logp95_retained_get(Logp95Alloc *la, int k)
{
	void	   *p;
	Logp95Tag  *tag;

	if (la->nlive == la->live_cap)
	{
		uint32		cap = la->live_cap ? la->live_cap * 2 : 16;
		void	  **live = MemoryContextAllocExtended(la->cxt, cap * sizeof(void *),
													  MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);

		if (!live)
			return NULL;
		if (la->nlive)
			memcpy(live, la->live, la->nlive * sizeof(void *));
		if (la->live)
			pfree(la->live);
		la->live = live;
		la->live_cap = cap;
		if (!la->cb.func)
		{
			la->cb.func = logp95_retained_reset;
			la->cb.arg = la;
			MemoryContextRegisterResetCallback(la->cxt, &la->cb);
		}
	}
	if (logp95_retained_lists[k] != NULL)
	{
		p = logp95_retained_lists[k];
		logp95_retained_lists[k] = *(void **) p;
		logp95_retained_bytes -= GetMemoryChunkSpace(p);
	}
	else
	{
		/*
		 * blocks of 1 kB at most, so that aset.c's chunk limit is as low as
		 * it sets one: every class from 256 bytes has chunks of its own on
		 * PostgreSQL 15 to 18
		 */
		if (logp95_retained_cxt == NULL)
			logp95_retained_cxt = AllocSetContextCreate(TopMemoryContext,
														"logp95 retained blocks",
														ALLOCSET_SMALL_MINSIZE,
														ALLOCSET_SMALL_INITSIZE,
														ALLOCSET_SMALL_INITSIZE);
		p = MemoryContextAllocExtended(logp95_retained_cxt,
									   ((Size) 1 << k) + sizeof(Logp95Tag),
									   MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
		if (!p)
			return NULL;
		/* the size class must be found again from the chunk, as the release finds it */
		if (pg_leftmost_one_pos64(GetMemoryChunkSpace(p)) != k)
		{
			pfree(p);
			logp95_retained_class[k] = -1;
			return MemoryContextAllocExtended(la->cxt, (Size) 1 << k,
											  MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
		}
		logp95_retained_class[k] = 1;
	}
	tag = logp95_tag(p, k);
	tag->owner = la;
	tag->index = la->nlive;
	tag->check = logp95_tag_check(p, k);
	la->live[la->nlive++] = p;
	return p;
}

/* Give back retained block p: off its holder's live array, onto a free list. */
static void
logp95_retained_release(void *p)
{
	int			k = pg_leftmost_one_pos64(GetMemoryChunkSpace(p));
	Logp95Tag  *tag = logp95_tag(p, k);
	Logp95Alloc *owner;
	void	   *last;
	Size		n = GetMemoryChunkSpace(p);

	if (tag->check != logp95_tag_check(p, k))
		elog(ERROR, "logp95 retained block %p of %zu bytes was overwritten past its end",
			 p, (Size) 1 << k);
	owner = tag->owner;
	Assert(owner->nlive > 0 && tag->index < owner->nlive && owner->live[tag->index] == p);
	last = owner->live[--owner->nlive];
	owner->live[tag->index] = last;
	logp95_tag(last, pg_leftmost_one_pos64(GetMemoryChunkSpace(last)))->index = tag->index;
	owner->used -= n < owner->used ? n : owner->used;
	logp95_retained_put(p, k);
}

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
	p = NULL;
	if (la->retaining && logp95_retained_memory > 0 &&
		size >= ((Size) 1 << LP_RETAIN_MIN_SHIFT) && size <= ((Size) 1 << LP_RETAIN_MAX_SHIFT))
	{
		int			k = pg_ceil_log2_64(size);
		Size		block = (Size) 1 << k;

		/*
		 * a block of a power of two, or a large one rounded up to the next
		 * (LP_RETAIN_ROUND_MIN: what the state's context would give a
		 * malloc of its own) when the rounded block could be kept and the
		 * state's limit still allows it
		 */
		if ((block == size ||
			 (size >= LP_RETAIN_ROUND_MIN && block <= (Size) logp95_retained_memory * 1024 &&
			  block <= limit && la->used <= limit - block)) &&
			logp95_retained_class[k] >= 0)
			p = logp95_retained_get(la, k);
	}
	if (p == NULL)				/* also when no retained block could be had */
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
	Size		n;

	if (logp95_retained_cxt != NULL && GetMemoryChunkContext(ptr) == logp95_retained_cxt)
	{
		logp95_retained_release(ptr);
		return;
	}
	n = GetMemoryChunkSpace(ptr);
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
	la->retaining = false;
	la->live = NULL;
	la->nlive = 0;
	la->live_cap = 0;
	la->cb.func = NULL;
	a.alloc = logp95_mcxt_alloc;
	a.free = logp95_mcxt_free;
	a.ctx = la;
	return a;
}

/* See logp95.h. */
lp_allocator
logp95_allocator_retaining(MemoryContext cxt)
{
	lp_allocator a = logp95_allocator(cxt);

	((Logp95Alloc *) a.ctx)->retaining = true;
	return a;
}

/* See logp95.h. */
bool
logp95_may_retain(FunctionCallInfo fcinfo)
{
	if (fcinfo->context && IsA(fcinfo->context, AggState))
	{
		AggStrategy s = ((AggState *) fcinfo->context)->aggstrategy;

		return s != AGG_HASHED && s != AGG_MIXED;
	}
	return true;
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
