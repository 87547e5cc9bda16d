/* test/fuzz/fuzz_tag.c -- libFuzzer harness for the encoding tag of a state's external forms */
#include "fuzz_common.h"
#include "lp_tag.h"

/*
 * Arbitrary bytes as a tagged (or untagged) text form and as a binary
 * form: a split never reads past the input, a tag it accepts has a
 * well-formed name, rebuilding the envelope from that name gives the input
 * back, and what follows a binary envelope goes through the decoder's
 * checks like any other encoding.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *) data;
	size_t		namelen,
				rest;
	test_diff	d;

	/* text form */
	if (lp_tag_split_text(text, size, &namelen, &rest) == LP_OK)
	{
		if (namelen == 0)
			FUZZ_ASSERT(rest == 0);
		else
		{
			FUZZ_ASSERT(namelen <= LP_TAG_NAME_MAX && rest == namelen + 1 && rest <= size);
			FUZZ_ASSERT(text[namelen] == ':' && lp_tag_name_ok(text, namelen));
		}
	}
	else
	{
		/* refused only for a colon after something that is not a name */
		FUZZ_ASSERT(memchr(text, ':', size) != NULL);
		FUZZ_ASSERT(!(size >= 2 && text[0] == '\\' && text[1] == 'x'));
	}

	/* binary form */
	if (lp_tag_split_binary(data, size, &namelen, &rest) == LP_OK)
	{
		if (namelen == 0)
		{
			FUZZ_ASSERT(rest == 0 && (size == 0 || data[0] != LP_TAG_BINARY));
			fuzz_decode(data, size);
		}
		else
		{
			uint8_t    *env = malloc(lp_tag_binary_len(namelen));

			FUZZ_ASSERT(env != NULL);
			FUZZ_ASSERT(rest == lp_tag_binary_len(namelen) && rest <= size);
			FUZZ_ASSERT(lp_tag_name_ok((const char *) data + 2, namelen));
			lp_tag_binary_put(env, (const char *) data + 2, namelen);
			diff_init(&d);
			if (!diff_text(&d, "envelope", (const char *) env, rest, (const char *) data, rest))
				diff_abort(&d, "fuzz_tag: lp_tag_binary_put of the name split off", "%zu input bytes", size);
			free(env);
			fuzz_decode(data + rest, size - rest);
		}
	}
	else
		FUZZ_ASSERT(size >= 1 && data[0] == LP_TAG_BINARY);
	return 0;
}
