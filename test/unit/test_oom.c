/* test/unit/test_oom.c -- unit tests of every unit under an allocator that fails at each allocation in turn */
#include "test_harness.h"

/* Operations run against a heap that fails at allocation `fail_at`. */
typedef enum oom_op
{
	OOM_CREATE_ADD,				/* create a state and add many lines */
	OOM_MERGE,					/* merge a prepared state into another */
	OOM_DECODE,					/* decode an encoding into a state */
	OOM_ENCODE					/* encode a prepared state */
} oom_op;

/* Run one operation; the number of failures seen, or -1 on a wrong result. */
static int
oom_run(oom_op op, test_heap *h, lp_allocator *a, const uint8_t *enc, size_t enclen,
		const char **why)
{
	lp_state   *st = NULL;
	lp_state   *src = NULL;
	int			rc = LP_OK;
	long		saved = h->fail_at;
	const char *check;

	*why = "";
	/* preparation never fails */
	h->fail_at = -1;
	if (op == OOM_MERGE || op == OOM_ENCODE)
	{
		src = gen_state(a, 0, 600, 100, 5);
		lp_state_add(src, "/long", 5, 1);	/* plus a key bigger than a block share */
		if (!src)
			return -1;
		lp_state_add_malformed(src, 4);
	}
	if (op != OOM_CREATE_ADD)
	{
		st = lp_state_create(a);
		lp_state_add(st, "/api/v1/resource1", 17, 1);
	}
	h->nalloc = 0;
	h->fail_at = saved;

	switch (op)
	{
		case OOM_CREATE_ADD:
			{
				lp_gen		g;
				char		buf[LP_GEN_MAXLINE];
				int64_t		i;

				st = lp_state_create(a);
				if (!st)
				{
					rc = LP_ENOMEM;
					break;
				}
				lp_gen_init(&g, 100, 5);
				for (i = 0; i < 600 && rc == LP_OK; i++)
				{
					lp_line		l;
					size_t		n = lp_gen_line(&g, i, buf);

					lp_parse_line(buf, n, &l);
					rc = lp_state_add(st, l.route, l.route_len, l.latency);
				}
				break;
			}
		case OOM_MERGE:
			rc = lp_state_merge(st, src);
			break;
		case OOM_DECODE:
			rc = lp_decode_into(st, enc, enclen);
			break;
		case OOM_ENCODE:
			{
				uint8_t    *out = (uint8_t *) "untouched";
				size_t		outlen = 12345;

				rc = lp_encode(src, a, 4, SIZE_MAX / 4, &out, &outlen);
				if (rc == LP_OK)
				{
					if (lp_validate(out + 4, outlen) != LP_OK)
						*why = "encoding does not validate";
					a->free(a->ctx, out);
				}
				else if (strcmp((char *) out, "untouched") != 0 || outlen != 12345)
					*why = "output changed on failure";
				break;
			}
	}
	if (rc != LP_OK && rc != LP_ENOMEM)
		*why = "not LP_ENOMEM";
	if (rc == LP_ENOMEM && h->nfailed == 0)
		*why = "LP_ENOMEM without a failed allocation";
	if (rc == LP_OK && h->nfailed > 0)
		*why = "LP_OK after a failed allocation";
	/* what is left, after a success or a failure, must still be a usable state */
	h->fail_at = -1;
	if (st && (check = lp_state_check(st)) != NULL)
		*why = check;			/* every invariant holds (lp_state_check) */
	else if (st)
	{
		uint8_t    *out;
		size_t		outlen;

		if (lp_encode(st, a, 0, SIZE_MAX / 4, &out, &outlen) != LP_OK)
			*why = "state does not encode";
		else
		{
			if (lp_validate(out, outlen) != LP_OK && !**why)
				*why = rc == LP_OK ? "state does not encode after success" :
					"state left inconsistent by the failure (an encoding that does not validate)";
			a->free(a->ctx, out);
		}
	}
	lp_state_free(st);
	lp_state_free(src);
	if (h->live != 0 && !**why)
		*why = "leak";
	return **why ? -1 : (int) h->nfailed;
}

/* Fail every allocation index in turn: each function reports LP_ENOMEM cleanly. */
void
test_oom(void)
{
	static const char *const names[] = {"create+add", "merge", "decode", "encode"};
	lp_state   *src = gen_state(&g_alloc, 0, 600, 100, 5);
	uint8_t    *enc;
	size_t		enclen;
	int			op;

	lp_state_add(src, "/long", 5, 1);
	lp_state_add_malformed(src, 4);
	enc = encode(src, &enclen);
	lp_state_free(src);
	for (op = OOM_CREATE_ADD; op <= OOM_ENCODE; op++)
	{
		int			sticky;

		for (sticky = 0; sticky <= 1; sticky++)
		{
			long		n,
						bad = 0,
						runs = 0;
			const char *why = "";

			for (n = 0;; n++)
			{
				test_heap	h;
				lp_allocator a;
				int			nf;

				heap_init(&h, &a);
				h.fail_at = n;
				h.sticky = sticky;
				nf = oom_run((oom_op) op, &h, &a, enc, enclen, &why);
				runs++;
				if (nf < 0)
				{
					if (bad++ == 0)
						CHECK(0, "%s: failing allocation %ld%s: %s", names[op], n,
							  sticky ? " and after" : "", why);
				}
				if (nf == 0)
					break;		/* the operation needed fewer than n allocations */
				if (n > 100000)
				{
					CHECK(0, "%s: no end to the allocations", names[op]);
					break;
				}
			}
			CHECK(bad == 0 && runs > 1, "%s: %ld allocation failure points%s handled",
				  names[op], runs - 1, sticky ? " (sticky)" : "");
		}
	}
	g_alloc.free(g_alloc.ctx, enc);
}

