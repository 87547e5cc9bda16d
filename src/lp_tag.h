/* src/lp_tag.h -- the encoding tag of a state's text and binary forms (plain C) */
#ifndef LP_TAG_H
#define LP_TAG_H

#include "lp_common.h"

/*
 * Routes are bytes of the database encoding.  So that a state moved into a
 * database of another encoding (pg_dump and restore, binary COPY) can be
 * converted, the external forms of a state with a non-ASCII route name the
 * encoding its routes are in:
 *
 *   text:    NAME ":" "\x" hex               e.g.  UTF8:\x0100...
 *   binary:  byte LP_TAG_BINARY, byte n (1 .. LP_TAG_NAME_MAX),
 *            n bytes NAME, then the version-1 encoding (lp_codec.h)
 *
 * NAME is 1 to LP_TAG_NAME_MAX ASCII letters, digits, '_' or '-' (a
 * PostgreSQL encoding name such as UTF8, LATIN1, SQL_ASCII).  A state whose
 * routes are all ASCII is written without a tag ("\x..." and the encoding
 * itself), as before tags existed; input takes both.  The tag lives in the
 * external forms only: a stored datum is the version-1 encoding.
 */
#define LP_TAG_BINARY 0xFE		/* first byte of the binary envelope; never a version byte */
#define LP_TAG_NAME_MAX 63		/* longest encoding name a tag holds */

/* 1 when name[0 .. len) is a well-formed tag name, else 0. */
extern int	lp_tag_name_ok(const char *name, size_t len);

/*
 * Split a text form.  Untagged (it starts with "\x", or has no ':' within
 * its first LP_TAG_NAME_MAX + 1 bytes): LP_OK with *namelen 0 and *rest 0,
 * for the caller to read as before.  Tagged: LP_OK with the name at
 * text[0 .. *namelen) and the "\x..." part at text + *rest.  A ':' after
 * something that is not a tag name: LP_ECORRUPT.
 */
extern int	lp_tag_split_text(const char *text, size_t len, size_t *namelen, size_t *rest);

/*
 * Split a binary form.  Untagged (empty, or the first byte is not
 * LP_TAG_BINARY): LP_OK with *namelen 0 and *rest 0.  Tagged: LP_OK with
 * the name at buf + 2 and the encoding at buf + *rest.  A truncated
 * envelope or a bad name: LP_ECORRUPT.
 */
extern int	lp_tag_split_binary(const uint8_t *buf, size_t len, size_t *namelen, size_t *rest);

/* Bytes the binary envelope of a name of namelen bytes takes before the encoding. */
extern size_t lp_tag_binary_len(size_t namelen);

/* Write the binary envelope (lp_tag_binary_len(namelen) bytes) for a well-formed name. */
extern void lp_tag_binary_put(uint8_t *out, const char *name, size_t namelen);

#endif							/* LP_TAG_H */
