/* test/bench/merge_driver.c -- a 2-worker report's finalize alone, over narrow or long-tailed latencies (plain C)
 *
 *   make -C test/bench merge_driver
 *   test/bench/merge_driver long_tail 4000000 5     (distribution, lines, passes)
 *   valgrind --tool=callgrind --toggle-collect=finalize test/bench/merge_driver long_tail 400000 1
 *
 * Generates N default-format lines with lp_gen (300 routes, seed 42: the
 * benchmark's lines) and counts them into three states, as a parallel
 * sequential scan with two workers and the leader hands out blocks (every
 * third run of 4096 rows each); encodes the workers' two, as they send
 * them to the leader.  Then times what the leader's Finalize Aggregate and
 * the flattening of its result do with them (finalize(): an empty state,
 * the leader's own state merged into it, the two encodings decoded into it
 * with their checks, the result encoded), and beside it the encoding of the
 * serial state of all the lines, which a serial report also pays.  Checks
 * that the finalize's encoding is byte for byte the serial one's.  Prints
 * CPU ms (fastest of the passes) and the encodings' sizes.
 */
#include "bench_rows.h"
#include "lp_arith.h"
#include "lp_codec.h"
#include "lp_partial.h"

/*
 * What the leader does once the partial states are in (logp95_merge_combine
 * of each, then the flattening of the result), as it does it: an empty
 * state, the leader's own state encoded into it (lp_state_defer_state),
 * the workers' two encodings checked and kept (lp_state_defer_copy), the
 * result written by one walk over the three (lp_state_encode_any).  Out of
 * line, so that callgrind's --toggle-collect names it.
 */
__attribute__((noinline)) static void
finalize(lp_state *const *part, uint8_t *const *enc, const size_t *enc_len, uint8_t **out, size_t *out_len)
{
	lp_state   *f = lp_state_create(&alloc);

	if (lp_state_defer_state(f, part[0]) != LP_OK ||
		lp_state_defer_copy(f, enc[1], enc_len[1]) != LP_OK ||
		lp_state_defer_copy(f, enc[2], enc_len[2]) != LP_OK ||
		lp_state_encode_any(f, &alloc, 0, (size_t) 1 << 40, out, out_len) != LP_OK)
	{
		fprintf(stderr, "finalize failed\n");
		exit(1);
	}
	lp_state_free(f);
}

/*
 * The same as the leader did it before deferred sums (d6b4a4f and
 * earlier): the two encodings checked and decoded into the state, which
 * is then encoded.  Timed beside finalize(), for the comparison.
 */
__attribute__((noinline)) static void
finalize_decoding(lp_state *const *part, uint8_t *const *enc, const size_t *enc_len, uint8_t **out,
				  size_t *out_len)
{
	lp_state   *f = lp_state_create(&alloc);

	if (lp_state_merge(f, part[0]) != LP_OK ||
		lp_decode_into(f, enc[1], enc_len[1]) != LP_OK ||
		lp_decode_into(f, enc[2], enc_len[2]) != LP_OK ||
		lp_encode(f, &alloc, 0, (size_t) 1 << 40, out, out_len) != LP_OK)
	{
		fprintf(stderr, "finalize_decoding failed\n");
		exit(1);
	}
	lp_state_free(f);
}

int
main(int argc, char **argv)
{
	const char *dist = argc > 1 ? argv[1] : "long_tail";
	long		n = argc > 2 ? atol(argv[2]) : 400000;
	int			reps = argc > 3 ? atoi(argv[3]) : 3;
	char	   *text;
	const char **key;
	uint32_t   *klen;
	int64_t    *ms;
	int			r, k;
	lp_state   *part[3], *serial;
	uint8_t    *enc[3], *ser_enc;
	size_t		enc_len[3], ser_len;
	double		best_fin = 1e30, best_dec = 1e30, best_ser = 1e30;

	if (reps < 1 || !bench_rows(dist, n, &text, &key, &klen, &ms))
	{
		fprintf(stderr, "usage: merge_driver narrow|long_tail LINES [PASSES]\n");
		return 2;
	}
	for (k = 0; k < 3; k++)
	{
		part[k] = bench_add(key, klen, ms, n, k, 3);
		if (lp_encode(part[k], &alloc, 0, (size_t) 1 << 40, &enc[k], &enc_len[k]) != LP_OK)
			exit(1);
	}
	serial = bench_add(key, klen, ms, n, 0, 1);
	if (lp_encode(serial, &alloc, 0, (size_t) 1 << 40, &ser_enc, &ser_len) != LP_OK)
		exit(1);
	for (r = 0; r < reps; r++)
	{
		double		t0 = now_ns(), t1, t2, t3;
		uint8_t    *out;
		size_t		out_len;

		finalize(part, enc, enc_len, &out, &out_len);
		t1 = now_ns();
		if (out_len != ser_len || memcmp(out, ser_enc, ser_len) != 0)
		{
			fprintf(stderr, "finalize differs from serial\n");
			exit(1);
		}
		d_free(NULL, out);
		/* the previous way, in the same pass */
		{
			double		d0 = now_ns();

			finalize_decoding(part, enc, enc_len, &out, &out_len);
			if (now_ns() - d0 < best_dec)
				best_dec = now_ns() - d0;
			if (out_len != ser_len || memcmp(out, ser_enc, ser_len) != 0)
			{
				fprintf(stderr, "finalize_decoding differs from serial\n");
				exit(1);
			}
			d_free(NULL, out);
		}
		/* the serial report's flattening, for scale */
		t2 = now_ns();
		if (lp_encode(serial, &alloc, 0, (size_t) 1 << 40, &out, &out_len) != LP_OK)
			exit(1);
		t3 = now_ns();
		d_free(NULL, out);
		if (t1 - t0 < best_fin)
			best_fin = t1 - t0;
		if (t3 - t2 < best_ser)
			best_ser = t3 - t2;
	}
	free(text);
	printf("%s %ld rows: finalize of 3 parts %.2f ms (decoding them: %.2f ms), serial encode %.2f ms "
		   "(CPU, fastest of %d); encodings %zu+%zu+%zu -> %zu bytes\n",
		   dist, n, best_fin / 1e6, best_dec / 1e6, best_ser / 1e6, reps, enc_len[0], enc_len[1], enc_len[2],
		   ser_len);
	return 0;
}
