/* src/lp_http.h -- the byte classes of an HTTP request line: method bytes, URI-scheme bytes (plain C) */
#ifndef LP_HTTP_H
#define LP_HTTP_H

/*
 * Below every parser that reads a request line, and included by
 * lp_token.h, their shared tokenizers: the classes live here apart so
 * that a unit with tokenizers of its own (lp_presets.c) takes them
 * without the rest of lp_token.h.
 */

/*
 * RFC 9110 tchar: the bytes of an HTTP method.  The one definition, for
 * every parser of a request line (lp_combined_impl.h, lp_token.c,
 * lp_presets.c, lp_json.c); a table in the header, so that each unit
 * reads it as its own constant (no load through the GOT in the module).
 */
static const unsigned char lp_tchar[256] = {
	['!'] = 1,['#'] = 1,['$'] = 1,['%'] = 1,['&'] = 1,['\''] = 1,['*'] = 1,
	['+'] = 1,['-'] = 1,['.'] = 1,['^'] = 1,['_'] = 1,['`'] = 1,['|'] = 1,['~'] = 1,
	['0'] = 1,['1'] = 1,['2'] = 1,['3'] = 1,['4'] = 1,['5'] = 1,['6'] = 1,['7'] = 1,
	['8'] = 1,['9'] = 1,
	['A'] = 1,['B'] = 1,['C'] = 1,['D'] = 1,['E'] = 1,['F'] = 1,['G'] = 1,['H'] = 1,
	['I'] = 1,['J'] = 1,['K'] = 1,['L'] = 1,['M'] = 1,['N'] = 1,['O'] = 1,['P'] = 1,
	['Q'] = 1,['R'] = 1,['S'] = 1,['T'] = 1,['U'] = 1,['V'] = 1,['W'] = 1,['X'] = 1,
	['Y'] = 1,['Z'] = 1,
	['a'] = 1,['b'] = 1,['c'] = 1,['d'] = 1,['e'] = 1,['f'] = 1,['g'] = 1,['h'] = 1,
	['i'] = 1,['j'] = 1,['k'] = 1,['l'] = 1,['m'] = 1,['n'] = 1,['o'] = 1,['p'] = 1,
	['q'] = 1,['r'] = 1,['s'] = 1,['t'] = 1,['u'] = 1,['v'] = 1,['w'] = 1,['x'] = 1,
	['y'] = 1,['z'] = 1
};

/* Is c a byte of a URI scheme after its first letter (ALPHA DIGIT + - .)? */
static inline int
lp_is_scheme(unsigned char c)
{
	return (unsigned) ((c | 0x20) - 'a') <= 25 || (unsigned) (c - '0') <= 9 ||
		c == '+' || c == '-' || c == '.';
}

#endif							/* LP_HTTP_H */
