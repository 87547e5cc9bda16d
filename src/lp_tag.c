/* src/lp_tag.c -- the encoding tag of a state's text and binary forms (plain C) */
#include "lp_tag.h"

#include <string.h>

/* A byte a tag name may hold. */
static int
lp_tag_name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		(c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* See lp_tag.h. */
int
lp_tag_name_ok(const char *name, size_t len)
{
	size_t		i;

	if (len < 1 || len > LP_TAG_NAME_MAX)
		return 0;
	for (i = 0; i < len; i++)
		if (!lp_tag_name_char(name[i]))
			return 0;
	return 1;
}

/* See lp_tag.h. */
int
lp_tag_split_text(const char *text, size_t len, size_t *namelen, size_t *rest)
{
	const char *colon;
	size_t		n;

	*namelen = 0;
	*rest = 0;
	if (len >= 2 && text[0] == '\\' && text[1] == 'x')
		return LP_OK;
	colon = memchr(text, ':', len < LP_TAG_NAME_MAX + 1 ? len : LP_TAG_NAME_MAX + 1);
	if (colon == NULL)
		return LP_OK;
	n = (size_t) (colon - text);
	if (!lp_tag_name_ok(text, n))
		return LP_ECORRUPT;
	*namelen = n;
	*rest = n + 1;
	return LP_OK;
}

/* See lp_tag.h. */
int
lp_tag_split_binary(const uint8_t *buf, size_t len, size_t *namelen, size_t *rest)
{
	size_t		n;

	*namelen = 0;
	*rest = 0;
	if (len < 1 || buf[0] != LP_TAG_BINARY)
		return LP_OK;
	if (len < 2)
		return LP_ECORRUPT;
	n = buf[1];
	if (n > len - 2 || !lp_tag_name_ok((const char *) buf + 2, n))
		return LP_ECORRUPT;
	*namelen = n;
	*rest = 2 + n;
	return LP_OK;
}

/* See lp_tag.h. */
size_t
lp_tag_binary_len(size_t namelen)
{
	return 2 + namelen;
}

/* See lp_tag.h. */
void
lp_tag_binary_put(uint8_t *out, const char *name, size_t namelen)
{
	LP_ASSERT(lp_tag_name_ok(name, namelen));	/* its length fits the byte */
	out[0] = LP_TAG_BINARY;
	out[1] = (uint8_t) namelen;
	memcpy(out + 2, name, namelen);
}
