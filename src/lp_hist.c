/* src/lp_hist.c -- one route's exact latency histogram (plain C) */
#include "lp_hist.h"

#ifdef LP_ASSERTS
#include <stdarg.h>
#include <stdio.h>
#endif

#include "lp_hash.h"
#include "lp_simd.h"

/* Slots of a histogram's first value table (a power of two). */
#define LP_HIST_INIT		16

static int	lp_hist_grow(const lp_allocator *a, lp_hist *h);
static int	lp_hist_dense_grow(const lp_allocator *a, lp_hist *h, uint32_t cap);

/* The dense pointer of a histogram that gave its array up for good. */
static uint32_t lp_dense_off[1];

/* See lp_hist.h. */
int
lp_hist_init(const lp_allocator *a, lp_hist *h)
{
	return lp_hist_grow(a, h);
}

/* See lp_hist.h. */
void
lp_hist_release(const lp_allocator *a, lp_hist *h)
{
	if (h->slots)
		a->free(a->ctx, h->slots);
	if (h->dense && h->dense != lp_dense_off)
		a->free(a->ctx, h->dense);
}

/* Put a value known to be absent into the slot table (which has room). */
static void
lp_hist_slot_insert(lp_hist *h, int64_t value, uint64_t count)
{
	uint32_t	i = lp_hash_value(value) & h->mask;

	LP_ASSERT(count > 0);		/* a count of 0 marks an empty slot */
	LP_ASSERT(h->hused < h->mask + 1);	/* a free slot ends the probe */
	while (h->slots[i].count)
		i = (i + 1) & h->mask;
	h->slots[i].value = value;
	h->slots[i].count = count;
	h->hused++;
}

/* Rebuild a histogram's slot table with `newcap` slots (a power of two that holds every value). */
static int
lp_hist_resize(const lp_allocator *a, lp_hist *h, uint32_t newcap)
{
	uint32_t	oldcap = h->slots ? h->mask + 1 : 0;
	lp_pair    *old = h->slots;
	lp_pair    *ns;
	uint32_t	oldhused = h->hused;
	uint32_t	i,
				steps = 0;

	LP_ASSERT(newcap >= LP_HIST_INIT && newcap <= LP_MAX_CAPACITY && (newcap & (newcap - 1)) == 0);
	LP_ASSERT((uint64_t) oldhused * 4 <= (uint64_t) newcap * 3);
	ns = lp_zalloc(a, (size_t) newcap * sizeof(lp_pair));
	if (!ns)
		return LP_ENOMEM;
	h->slots = ns;
	h->mask = newcap - 1;
	h->hused = 0;

	/*
	 * An interrupt here leaves h half moved; that is harmless, because the
	 * state lives in the aggregate's memory context, which PostgreSQL drops
	 * with the failed query (an aggregate state never outlives an error in
	 * its query).
	 */
	for (i = 0; i < oldcap; i++)
	{
		LP_CHECK_INTERRUPTS(steps);
		if (old[i].count)
			lp_hist_slot_insert(h, old[i].value, old[i].count);
	}
	if (old)
		a->free(a->ctx, old);
	LP_ASSERT(h->hused == oldhused);	/* every value moved, none twice */
	return LP_OK;
}

/* Double (or create) a histogram's slot table. */
static int
lp_hist_grow(const lp_allocator *a, lp_hist *h)
{
	uint32_t	oldcap = h->slots ? h->mask + 1 : 0;

	if (oldcap >= LP_MAX_CAPACITY)
		return LP_ETOOBIG;
	return lp_hist_resize(a, h, oldcap ? oldcap * 2 : LP_HIST_INIT);
}

/*
 * Give the dense array up: a count would pass what its 32-bit slots hold
 * (2^32 - 1 of one latency in one route).  Every count moves to the slot
 * table, which holds 64-bit counts, and the histogram never makes an array
 * again.  A failure to grow the table leaves the histogram as it was.
 */
static int
lp_hist_dense_off(const lp_allocator *a, lp_hist *h)
{
	uint32_t	i,
				n = 0;
	uint32_t	used = h->used;
	int			rc;

	for (i = 0; i < h->dense_cap; i++)
		n += h->dense[i] != 0;
	while (!h->slots || (uint64_t) (h->hused + n) * 4 > (uint64_t) (h->mask + 1) * 3)
	{
		if ((rc = lp_hist_grow(a, h)) != LP_OK)
			return rc;
	}
	for (i = 0; i < h->dense_cap; i++)
		if (h->dense[i])
			lp_hist_slot_insert(h, (int64_t) i, h->dense[i]);
	if (h->dense)
		a->free(a->ctx, h->dense);
	h->dense = lp_dense_off;
	h->dense_cap = 0;
	LP_ASSERT(h->hused == used && h->used == used);	/* every value in the table now */
	return LP_OK;
}

/*
 * Widen the dense array to `cap` values and move the slot-table values
 * below `cap` into it (the table is rebuilt without them).  When one of
 * those counts is too big for a dense slot, the array is given up instead.
 */
static int
lp_hist_dense_grow(const lp_allocator *a, lp_hist *h, uint32_t cap)
{
	uint32_t	slotcap = h->mask + 1;
	uint32_t   *nd;
	lp_pair    *ns;
	lp_pair    *old = h->slots;
	uint32_t	used = h->used;
	uint64_t	total = h->total;
	uint32_t	i,
				steps = 0;

	LP_ASSERT(cap > h->dense_cap && cap >= LP_DENSE_MIN && cap <= LP_DENSE_MAX &&
			  (cap & (cap - 1)) == 0);
	LP_ASSERT(h->dense != lp_dense_off);
	/* interrupts only while nothing has changed (the move below is not resumable) */
	for (i = 0; i < slotcap; i++)
	{
		LP_CHECK_INTERRUPTS(steps);
		if (old[i].count > UINT32_MAX && (uint64_t) old[i].value < cap)
			return lp_hist_dense_off(a, h);
	}
	nd = lp_zalloc(a, (size_t) cap * sizeof(uint32_t));
	ns = nd ? lp_zalloc(a, (size_t) slotcap * sizeof(lp_pair)) : NULL;

	/* get both blocks before changing anything: a failure leaves h as it was */
	if (!ns)
	{
		if (nd)
			a->free(a->ctx, nd);
		return LP_ENOMEM;
	}
	if (h->dense)
	{
		memcpy(nd, h->dense, (size_t) h->dense_cap * sizeof(uint32_t));
		a->free(a->ctx, h->dense);
	}
	h->dense = nd;
	h->dense_cap = cap;
	h->slots = ns;
	h->hused = 0;
	for (i = 0; i < slotcap; i++)
	{
		if (!old[i].count)
			continue;
		if ((uint64_t) old[i].value < cap)
			nd[old[i].value] = (uint32_t) old[i].count;	/* checked above */
		else
			lp_hist_slot_insert(h, old[i].value, old[i].count);
	}
	a->free(a->ctx, old);
	/* the values moved, none lost, none added: `used` and `total` stand */
#ifdef LP_ASSERTS
	{
		uint32_t	n = 0;

		for (i = 0; i < cap; i++)
			n += nd[i] != 0;
		LP_ASSERT(n + h->hused == used);
	}
#endif
	LP_ASSERT(h->used == used && h->total == total);
	return LP_OK;
}

/* Add to a value that is not in the dense array (the slow path). */
static int
lp_hist_add_slow(const lp_allocator *a, lp_hist *h, int64_t value, uint64_t count)
{
	uint32_t	i,
				cap = 0;
	int			rc;

	if (value < 0)
		return LP_EINTERNAL;	/* callers refuse negative latencies first: the encoding has no room for them */

	/* the size of a dense array that would take the value, if one may */
	if ((uint64_t) value < LP_DENSE_MAX && (uint64_t) value >= h->dense_cap &&
		h->dense != lp_dense_off && count <= UINT32_MAX)
	{
		cap = h->dense_cap ? h->dense_cap : LP_DENSE_MIN;
		while (cap <= (uint64_t) value)
			cap *= 2;
		LP_ASSERT(cap <= LP_DENSE_MAX);
	}

	/*
	 * A value the array could take once widened, in a histogram that has
	 * counted enough rows to pay for it (LP_DENSE_ROWS, up to
	 * LP_DENSE_ROWS_MAX): widen it now (the table's values below the new
	 * size move into it) and count the value there.  Each row that falls
	 * past the array costs a table probe and a mispredicted branch; without
	 * this a route's first rows, before it had many distinct values, all
	 * paid it.
	 */
	if (cap && (uint64_t) value < LP_DENSE_ROWS_MAX &&
		(uint64_t) cap <= (h->total + count) * LP_DENSE_ROWS)
	{
		if ((rc = lp_hist_dense_grow(a, h, cap)) != LP_OK)
			return rc;
		if (h->dense != lp_dense_off)
			return lp_hist_add(a, h, value, count);
		cap = 0;				/* the array was given up: on to the slot table */
	}
	if (!h->slots && (rc = lp_hist_grow(a, h)) != LP_OK)
		return rc;
	i = lp_hash_value(value) & h->mask;
	for (;;)
	{
		lp_pair    *p = &h->slots[i];

		if (p->count == 0)
			break;
		if (p->value == value)
		{
			p->count += count;
			h->total += count;
			return LP_OK;
		}
		i = (i + 1) & h->mask;
	}

	/* a new value: may the dense array take it now, by the density rule? */
	if (cap && (uint64_t) cap <= (uint64_t) LP_DENSE_RATIO * (h->used + 1))
	{
		if ((rc = lp_hist_dense_grow(a, h, cap)) != LP_OK)
			return rc;
		if (h->dense != lp_dense_off)
			return lp_hist_add(a, h, value, count);
		/* the array was given up: on to the slot table */
	}

	/* no: the slot table, keeping its load factor at or below 3/4 */
	if ((uint64_t) (h->hused + 1) * 4 > (uint64_t) (h->mask + 1) * 3)
	{
		if ((rc = lp_hist_grow(a, h)) != LP_OK)
			return rc;
	}
	lp_hist_slot_insert(h, value, count);
	h->used++;
	h->total += count;
	return LP_OK;
}

/* See lp_hist.h. */
int
lp_hist_add(const lp_allocator *a, lp_hist *h, int64_t value, uint64_t count)
{
	if (count == 0)
		return LP_OK;			/* nothing to add; a zero count marks an empty slot */
	if (count > (uint64_t) INT64_MAX - h->total)
		return LP_EOVERFLOW;
	if ((uint64_t) value < h->dense_cap)
	{
		uint32_t   *d = &h->dense[value];
		int			rc;

		LP_ASSERT(h->dense != NULL && h->dense != lp_dense_off);
		if (count <= (uint64_t) (UINT32_MAX - *d))
		{
			h->used += (*d == 0);
			*d += (uint32_t) count;
			h->total += count;
			return LP_OK;
		}
		/* too big for a dense slot: every count moves to the slot table */
		if ((rc = lp_hist_dense_off(a, h)) != LP_OK)
			return rc;
	}
	return lp_hist_add_slow(a, h, value, count);
}

/* See lp_hist.h. */
int
lp_hist_reserve(const lp_allocator *a, lp_hist *h, const lp_hist_batch *b)
{
	/* the histogram will hold at least this many distinct values */
	uint64_t	used = h->used > b->n ? h->used : b->n;
	uint64_t	below = 0,
				need;
	uint32_t	cap,
				slotcap;
	int			i,
				top = -1,
				rc;

	if (!h->slots && (rc = lp_hist_grow(a, h)) != LP_OK)
		return rc;

	/* the dense array: up to the largest small value, within the density rule */
	for (i = LP_DENSE_STEPS - 1; i >= 0 && top < 0; i--)
		if (b->small[i])
			top = i;
	if (top >= 0 && h->dense != lp_dense_off)
	{
		cap = (uint32_t) LP_DENSE_MIN << top;
		while (cap > LP_DENSE_MIN && (uint64_t) cap > (uint64_t) LP_DENSE_RATIO * used)
			cap >>= 1;
		if ((uint64_t) cap <= (uint64_t) LP_DENSE_RATIO * used && cap > h->dense_cap &&
			(rc = lp_hist_dense_grow(a, h, cap)) != LP_OK)
			return rc;
	}

	/* the slot table: room for every batch value the array does not take */
	for (i = 0; i < LP_DENSE_STEPS && ((uint32_t) LP_DENSE_MIN << i) <= h->dense_cap; i++)
		below += b->small[i];
	need = (uint64_t) h->hused + (b->n - below);
	if (need > (uint64_t) LP_MAX_CAPACITY / 4 * 3)
		return LP_OK;			/* leave it to lp_hist_add to say what does not fit */
	slotcap = h->mask + 1;
	while (need * 4 > (uint64_t) slotcap * 3)
		slotcap *= 2;
	if (slotcap > h->mask + 1 && (rc = lp_hist_resize(a, h, slotcap)) != LP_OK)
		return rc;
	/* the batch's values past the array fit without growing the table */
	LP_ASSERT(need * 4 <= (uint64_t) (h->mask + 1) * 3);
	return LP_OK;
}

/* See lp_hist.h. */
void
lp_hist_batch_of(const lp_hist *h, lp_hist_batch *b)
{
	uint32_t	j,
				steps = 0;

	memset(b, 0, sizeof(*b));
	for (j = 0; j < h->dense_cap; j++)
		if (h->dense[j])
			lp_hist_batch_note(b, (int64_t) j);
	for (j = 0; h->slots && j <= h->mask; j++)
	{
		LP_CHECK_INTERRUPTS(steps);
		if (h->slots[j].count)
			lp_hist_batch_note(b, h->slots[j].value);
	}
	LP_ASSERT(b->n == h->used);
}

/* See lp_hist.h. */
int
lp_hist_merge(const lp_allocator *a, lp_hist *dst, const lp_hist *src, uint32_t *steps)
{
	uint32_t	j;
	uint64_t	total = dst->total;
	int			rc;

	LP_ASSERT(src != dst);		/* the loops would read what they add */
	if (src->total > (uint64_t) INT64_MAX - dst->total)
		return LP_EOVERFLOW;
	for (j = 0; j < src->dense_cap; j++)
	{
		uint32_t	c = src->dense[j];

		LP_CHECK_INTERRUPTS(*steps);
		if (!c)
			continue;
		if (j < dst->dense_cap && (uint64_t) dst->dense[j] + c <= UINT32_MAX)
		{
			/* the common case, inline: both counts in dense arrays */
			dst->used += (dst->dense[j] == 0);
			dst->dense[j] += c;
			dst->total += c;
		}
		else if ((rc = lp_hist_add(a, dst, (int64_t) j, c)) != LP_OK)
			return rc;
	}
	for (j = 0; src->slots && j <= src->mask; j++)
	{
		const lp_pair *p = &src->slots[j];

		LP_CHECK_INTERRUPTS(*steps);
		if (p->count && (rc = lp_hist_add(a, dst, p->value, p->count)) != LP_OK)
			return rc;
	}
	LP_ASSERT(dst->total == total + src->total);	/* every count arrived */
	return LP_OK;
}

/* See lp_hist.h. */
void
lp_hist_sorted(const lp_hist *h, lp_pair *out)
{
	uint32_t	i,
				n = 0,
				ndense,
				steps = 0;

	/*
	 * the dense values come first and in order; the table's are all larger.
	 * The array is taken eight slots at a time (dense_cap is 0 or a power
	 * of two >= LP_DENSE_MIN), and only the counts of a group are visited,
	 * by the bits of their mask: past its first few hundred milliseconds a
	 * long-tailed route's array holds none, one or two in a group of eight.
	 */
	for (i = 0; i < h->dense_cap; i += 8)
	{
		unsigned	m;

		for (m = lp_nonzero8_32(&h->dense[i]); m; m &= m - 1)
		{
			uint32_t	j = i + lp_ctz32(m);

			LP_ASSERT(n < h->used);
			out[n].value = j;
			out[n].count = h->dense[j];
			n++;
		}
	}
	ndense = n;
	for (i = 0; h->slots && i <= h->mask; i++)
	{
		LP_CHECK_INTERRUPTS(steps);
		if (h->slots[i].count)
			out[n++] = h->slots[i];
	}
	LP_ASSERT(n == h->used);	/* every distinct value, once */
	/* the table's values all lie past the array's, so sorting them sorts all */
	LP_ASSERT(ndense == 0 || n == ndense || out[ndense].value >= (int64_t) h->dense_cap);
	lp_pairs_sort_values(out + ndense, n - ndense, -1);
}

#ifdef LP_ASSERTS
/* Write a sentence to msg[0..cap) and return msg. */
static const char *
lp_hist_say(char *msg, size_t cap, const char *fmt,...) __attribute__((format(printf, 3, 4)));

static const char *
lp_hist_say(char *msg, size_t cap, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(msg, cap, fmt, ap);
	va_end(ap);
	return msg;
}

/* See lp_hist.h. */
const char *
lp_hist_check(const lp_hist *h, char *msg, size_t cap)
{
	uint64_t	total = 0,
				ndense = 0,
				nslots = 0;
	uint32_t	i;

	/* the dense array: none, given up, or a power of two in [LP_DENSE_MIN, LP_DENSE_MAX] */
	if (h->dense == NULL || h->dense == lp_dense_off)
	{
		if (h->dense_cap != 0)
			return lp_hist_say(msg, cap, "dense_cap %u without a dense array", h->dense_cap);
	}
	else if (h->dense_cap < LP_DENSE_MIN || h->dense_cap > LP_DENSE_MAX ||
			 (h->dense_cap & (h->dense_cap - 1)) != 0)
		return lp_hist_say(msg, cap, "dense_cap %u is not a power of two from %d to %d",
						   h->dense_cap, LP_DENSE_MIN, LP_DENSE_MAX);
	for (i = 0; i < h->dense_cap; i++)
	{
		ndense += h->dense[i] != 0;
		total += h->dense[i];
	}

	/* the slot table: a power of two, at most 3/4 full, every value where a probe finds it */
	if (!h->slots)
	{
		if (h->hused != 0)
			return lp_hist_say(msg, cap, "hused %u without a slot table", h->hused);
	}
	else
	{
		uint64_t	slotcap = (uint64_t) h->mask + 1;

		if ((slotcap & (slotcap - 1)) != 0 || slotcap < LP_HIST_INIT || slotcap > LP_MAX_CAPACITY)
			return lp_hist_say(msg, cap, "slot capacity %llu is not a power of two from %d to 2^30",
							   (unsigned long long) slotcap, LP_HIST_INIT);
		for (i = 0; i <= h->mask; i++)
		{
			const lp_pair *p = &h->slots[i];
			uint32_t	j;

			if (p->count == 0)
				continue;
			nslots++;
			if (p->value < 0)
				return lp_hist_say(msg, cap, "negative value %lld in slot %u",
								   (long long) p->value, i);
			if ((uint64_t) p->value < h->dense_cap)
				return lp_hist_say(msg, cap, "value %lld in slot %u belongs in the dense array of %u",
								   (long long) p->value, i, h->dense_cap);
			if (p->count > (uint64_t) INT64_MAX - total)
				return lp_hist_say(msg, cap, "the counts add up past INT64_MAX at value %lld",
								   (long long) p->value);
			total += p->count;
			for (j = lp_hash_value(p->value) & h->mask; j != i; j = (j + 1) & h->mask)
			{
				if (h->slots[j].count == 0)
					return lp_hist_say(msg, cap, "value %lld in slot %u: an empty slot %u on its probe",
									   (long long) p->value, i, j);
				if (h->slots[j].value == p->value)
					return lp_hist_say(msg, cap, "value %lld in slots %u and %u",
									   (long long) p->value, j, i);
			}
		}
		if (nslots != h->hused)
			return lp_hist_say(msg, cap, "hused %u but %llu values in the slot table",
							   h->hused, (unsigned long long) nslots);
		if (nslots * 4 > slotcap * 3)
			return lp_hist_say(msg, cap, "slot table of %llu more than 3/4 full (%llu values)",
							   (unsigned long long) slotcap, (unsigned long long) nslots);
	}

	/* used and total are what the counts say */
	if (ndense + nslots != h->used)
		return lp_hist_say(msg, cap, "used %u but %llu distinct values (%llu dense, %llu in slots)",
						   h->used, (unsigned long long) (ndense + nslots),
						   (unsigned long long) ndense, (unsigned long long) nslots);
	if (total != h->total)
		return lp_hist_say(msg, cap, "total %llu but the counts add up to %llu",
						   (unsigned long long) h->total, (unsigned long long) total);
	if (h->total > (uint64_t) INT64_MAX)
		return lp_hist_say(msg, cap, "total %llu past INT64_MAX", (unsigned long long) h->total);
	return NULL;
}
#endif
