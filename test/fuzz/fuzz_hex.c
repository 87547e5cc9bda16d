/* test/fuzz/fuzz_hex.c -- libFuzzer harness for the text form: lp_hex_decode + validation */
#include "fuzz_common.h"

/* Arbitrary bytes as the text form of a state. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *) data;
	uint8_t    *bin = malloc(size / 2 + 1);
	size_t		binlen = 0;

	FUZZ_ASSERT(bin != NULL);
	if (lp_hex_decode(text, size, bin, &binlen) == LP_OK)
	{
		char	   *again = malloc(lp_hex_len(binlen));
		char	   *lower = malloc(size);
		size_t		i;
		test_diff	d;

		FUZZ_ASSERT(again != NULL && lower != NULL);
		FUZZ_ASSERT(size >= 2 && binlen == (size - 2) / 2 && lp_hex_len(binlen) == size);
		/* hex back is the input with its digits in lower case */
		lp_hex_encode(bin, binlen, again);
		FUZZ_ASSERT(again[0] == '\\' && again[1] == 'x');
		for (i = 0; i < size; i++)
			lower[i] = text[i] >= 'A' && text[i] <= 'F' ? (char) (text[i] - 'A' + 'a') : text[i];
		diff_init(&d);
		if (!diff_text(&d, "hex", again, size, lower, size))
			diff_abort(&d, "fuzz_hex: lp_hex_encode(lp_hex_decode(x))", "x in lower case is expected");
		free(again);
		free(lower);
		fuzz_decode(bin, binlen);
	}
	else
	{
		/* the text is refused only for a reason */
		int			ok = size >= 2 && text[0] == '\\' && text[1] == 'x' && size % 2 == 0;
		size_t		i;

		for (i = 2; ok && i < size; i++)
			if (!((text[i] >= '0' && text[i] <= '9') || (text[i] >= 'a' && text[i] <= 'f') ||
				  (text[i] >= 'A' && text[i] <= 'F')))
				ok = 0;
		FUZZ_ASSERT(!ok);
	}
	free(bin);
	return 0;
}
