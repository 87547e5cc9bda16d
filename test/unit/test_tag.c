/* test/unit/test_tag.c -- unit tests of the encoding tag of the text and binary forms (lp_tag.c) and the route walks of lp_codec.c that go with it */
#include "test_harness.h"

/* Split a NUL-terminated text form; returns the result code. */
static int
split_text(const char *s, size_t *namelen, size_t *rest)
{
	return lp_tag_split_text(s, strlen(s), namelen, rest);
}

/* Tag names, the text split and the binary envelope. */
void
test_tag(void)
{
	size_t		nl,
				rest;
	uint8_t		env[2 + LP_TAG_NAME_MAX + 4];
	char		longname[LP_TAG_NAME_MAX + 2];

	CHECK(lp_tag_name_ok("UTF8", 4), "UTF8 is a name");
	CHECK(lp_tag_name_ok("SQL_ASCII", 9), "SQL_ASCII is a name");
	CHECK(lp_tag_name_ok("iso-8859-1", 10), "aliases with '-' are names");
	CHECK(!lp_tag_name_ok("", 0), "empty name");
	CHECK(!lp_tag_name_ok("UT F8", 5), "space in a name");
	CHECK(!lp_tag_name_ok("UTF8\\x", 6), "backslash in a name");
	memset(longname, 'A', sizeof(longname));
	CHECK(lp_tag_name_ok(longname, LP_TAG_NAME_MAX), "longest name");
	CHECK(!lp_tag_name_ok(longname, LP_TAG_NAME_MAX + 1), "name too long");

	/* untagged forms are left to the hex reader, unchanged */
	CHECK_EQ_I(split_text("\\x010000", &nl, &rest), LP_OK, "untagged");
	CHECK_EQ_U(nl, 0, "untagged name");
	CHECK_EQ_U(rest, 0, "untagged rest");
	CHECK_EQ_I(split_text("", &nl, &rest), LP_OK, "empty text");
	CHECK_EQ_U(nl + rest, 0, "empty text is untagged");
	CHECK_EQ_I(split_text("abc", &nl, &rest), LP_OK, "no colon");
	CHECK_EQ_U(nl + rest, 0, "no colon is untagged");
	CHECK_EQ_I(split_text("\\x01:00", &nl, &rest), LP_OK, "colon after \\x");
	CHECK_EQ_U(nl + rest, 0, "colon after \\x is untagged");

	/* tagged */
	CHECK_EQ_I(split_text("UTF8:\\x010000", &nl, &rest), LP_OK, "tagged");
	CHECK_EQ_U(nl, 4, "tag name length");
	CHECK_EQ_U(rest, 5, "hex starts after the colon");
	CHECK_EQ_I(split_text("LATIN1:", &nl, &rest), LP_OK, "tag without hex (the hex reader refuses it)");
	CHECK_EQ_U(rest, 7, "rest at the end");
	CHECK_EQ_I(split_text(":\\x010000", &nl, &rest), LP_ECORRUPT, "empty tag");
	CHECK_EQ_I(split_text("UT F8:\\x010000", &nl, &rest), LP_ECORRUPT, "bad tag");
	memcpy(longname + LP_TAG_NAME_MAX + 1, "", 1);
	longname[LP_TAG_NAME_MAX] = ':';
	CHECK_EQ_I(split_text(longname, &nl, &rest), LP_OK, "longest tag");
	CHECK_EQ_U(nl, LP_TAG_NAME_MAX, "longest tag length");
	longname[LP_TAG_NAME_MAX] = 'A';
	longname[LP_TAG_NAME_MAX + 1] = '\0';
	CHECK_EQ_I(split_text(longname, &nl, &rest), LP_OK, "no colon within the longest name");
	CHECK_EQ_U(nl + rest, 0, "a colon past the longest name is not looked for");

	/* binary envelope */
	CHECK_EQ_U(lp_tag_binary_len(4), 6, "envelope length");
	lp_tag_binary_put(env, "UTF8", 4);
	CHECK(env[0] == LP_TAG_BINARY && env[1] == 4 && memcmp(env + 2, "UTF8", 4) == 0, "envelope bytes");
	CHECK(LP_TAG_BINARY != LP_CODEC_VERSION, "the envelope byte is not a version byte");
	env[6] = LP_CODEC_VERSION;
	CHECK_EQ_I(lp_tag_split_binary(env, 7, &nl, &rest), LP_OK, "envelope split");
	CHECK_EQ_U(nl, 4, "envelope name length");
	CHECK_EQ_U(rest, 6, "envelope rest");
	CHECK_EQ_I(lp_tag_split_binary(env, 6, &nl, &rest), LP_OK, "envelope without a state (the decoder refuses it)");
	CHECK_EQ_I(lp_tag_split_binary(env, 5, &nl, &rest), LP_ECORRUPT, "name truncated");
	CHECK_EQ_I(lp_tag_split_binary(env, 1, &nl, &rest), LP_ECORRUPT, "no name length");
	env[1] = 0;
	CHECK_EQ_I(lp_tag_split_binary(env, 7, &nl, &rest), LP_ECORRUPT, "empty name");
	env[1] = 4;
	env[3] = ' ';
	CHECK_EQ_I(lp_tag_split_binary(env, 7, &nl, &rest), LP_ECORRUPT, "bad name");
	env[0] = LP_CODEC_VERSION;
	CHECK_EQ_I(lp_tag_split_binary(env, 7, &nl, &rest), LP_OK, "untagged binary");
	CHECK_EQ_U(nl + rest, 0, "untagged binary is left to the decoder");
	CHECK_EQ_I(lp_tag_split_binary(env, 0, &nl, &rest), LP_OK, "empty binary");
	CHECK_EQ_U(nl + rest, 0, "empty binary is left to the decoder");
}

/* lp_routes_ascii and lp_decode_route (routes under another key, merged). */
void
test_codec_routes(void)
{
	lp_state   *a = lp_state_create(&g_alloc),
			   *b = lp_state_create(&g_alloc),
			   *c = lp_state_create(&g_alloc);
	uint8_t    *ea,
			   *eb,
			   *ec;
	size_t		la,
				lb,
				lc;
	lp_reader	r;
	lp_route_view rv;

	CHECK(a && b && c, "states");
	lp_state_add(a, "/a", 2, 5);
	lp_state_add(a, "/b", 2, 7);
	lp_state_add(a, "/b", 2, 9);
	ea = encode(a, &la);
	CHECK_EQ_I(lp_routes_ascii(ea, la), 1, "ASCII routes");
	lp_state_add(b, "/caf\xc3\xa9", 6, 5);
	eb = encode(b, &lb);
	CHECK_EQ_I(lp_routes_ascii(eb, lb), 0, "a UTF-8 route");
	CHECK_EQ_I(lp_routes_ascii(eb, lb - 1), LP_ECORRUPT, "truncated");
	CHECK_EQ_I(lp_routes_ascii(eb, 0), LP_ECORRUPT, "empty");
	CHECK(lp_key_ascii("/x", 2) && !lp_key_ascii("/\x80", 2) && lp_key_ascii("", 0), "lp_key_ascii");

	/* both routes of `a` under one key: counts added, values merged */
	lp_reader_init(&r, ea, la);
	lp_state_add_malformed(c, r.malformed);
	while (lp_reader_next(&r, &rv) == 1)
		CHECK_EQ_I(lp_decode_route(c, &rv, "/z", 2), LP_OK, "decode under another key");
	CHECK_EQ_U(c->nroutes, 1, "one route");
	ec = encode(c, &lc);
	lp_state_free(c);
	c = lp_state_create(&g_alloc);
	lp_state_add(c, "/z", 2, 5);
	lp_state_add(c, "/z", 2, 7);
	lp_state_add(c, "/z", 2, 9);
	{
		size_t		ld;
		uint8_t    *ed = encode(c, &ld);

		CHECK_SAME_ENC(ec, lc, ed, ld, "merged routes equal the state built directly");
		g_alloc.free(g_alloc.ctx, ed);
	}
	g_alloc.free(g_alloc.ctx, ea);
	g_alloc.free(g_alloc.ctx, eb);
	g_alloc.free(g_alloc.ctx, ec);
	lp_state_free(a);
	lp_state_free(b);
	lp_state_free(c);
}
