/* test/unit/ref_escape.h -- how nginx and Apache escape a logged value: the references the unescaping tests and fuzzers compare with */
#ifndef REF_ESCAPE_H
#define REF_ESCAPE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Each writes the escaped form of s[0..n) to out (4 n bytes are enough)
 * and returns its length; written from the servers' sources, not from
 * lp_token.c:
 *   nginx, default   ngx_http_log_escape: '"', '\', bytes < 0x20 and
 *                    >= 0x7f as \xHH, upper-case hex
 *   nginx, json      ngx_escape_json: '"' and '\' after a backslash,
 *                    \n \r \t \b \f, other bytes < 0x20 as \u00XX
 *                    (upper-case hex); bytes >= 0x7f as they are
 *   Apache           ap_escape_logitem: \" \\, \b \n \r \t \v, other bytes
 *                    < 0x20 and >= 0x7f as \xhh, lower-case hex
 */
static inline size_t
ref_esc_nginx(const char *s, size_t n, char *out)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t		i,
				o = 0;

	for (i = 0; i < n; i++)
	{
		unsigned char c = (unsigned char) s[i];

		if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
		{
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		}
		else
			out[o++] = (char) c;
	}
	return o;
}

static inline size_t
ref_esc_json(const char *s, size_t n, char *out)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t		i,
				o = 0;

	for (i = 0; i < n; i++)
	{
		unsigned char c = (unsigned char) s[i];

		if (c == '"' || c == '\\')
		{
			out[o++] = '\\';
			out[o++] = (char) c;
		}
		else if (c < 0x20)
		{
			out[o++] = '\\';
			switch (c)
			{
				case '\n':
					out[o++] = 'n';
					break;
				case '\r':
					out[o++] = 'r';
					break;
				case '\t':
					out[o++] = 't';
					break;
				case '\b':
					out[o++] = 'b';
					break;
				case '\f':
					out[o++] = 'f';
					break;
				default:
					out[o++] = 'u';
					out[o++] = '0';
					out[o++] = '0';
					out[o++] = hex[c >> 4];
					out[o++] = hex[c & 15];
			}
		}
		else
			out[o++] = (char) c;
	}
	return o;
}

static inline size_t
ref_esc_apache(const char *s, size_t n, char *out)
{
	static const char hex[] = "0123456789abcdef";
	size_t		i,
				o = 0;

	for (i = 0; i < n; i++)
	{
		unsigned char c = (unsigned char) s[i];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
		{
			out[o++] = (char) c;
			continue;
		}
		out[o++] = '\\';
		switch (c)
		{
			case '\b':
				out[o++] = 'b';
				break;
			case '\n':
				out[o++] = 'n';
				break;
			case '\r':
				out[o++] = 'r';
				break;
			case '\t':
				out[o++] = 't';
				break;
			case '\v':
				out[o++] = 'v';
				break;
			case '"':
			case '\\':
				out[o++] = (char) c;
				break;
			default:
				out[o++] = 'x';
				out[o++] = hex[c >> 4];
				out[o++] = hex[c & 15];
		}
	}
	return o;
}

#endif							/* REF_ESCAPE_H */
