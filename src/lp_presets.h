/* src/lp_presets.h -- parsers of the preset formats: haproxy, alb, cloudfront, envoy, traefik, iis (plain C) */
#ifndef LP_PRESETS_H
#define LP_PRESETS_H

#include "lp_format.h"

/*
 * One parser per preset, each written from its vendor's documented field
 * list (cited above each parser in lp_presets.c and in docs/formats.md).
 * Every one has the signature lp_line_fn, the one a table entry can point
 * at; each fills lp_result (route, latency in ms, status, method, time,
 * host: `has` names what was found) and returns LP_ST_OK or why the line
 * is malformed.
 *
 * Rules they share:
 *   - One trailing '\r' is dropped.  Nothing past line[len) is read.
 *   - The fields of a line are checked from left to right and the first
 *     problem is returned, except the latency's own problem (a "-1", a
 *     "-", a bad or too large number), which is returned only when every
 *     other field is right: a line with LP_ST_NO_LATENCY, LP_ST_BAD_* of
 *     the latency or a range error still carries its route, status,
 *     method, time and host in `has`.  On other errors `has` names what
 *     was found before the problem.
 *   - A status the server logs for "no response" (HAProxy's -1, ALB's
 *     and Traefik's "-", Envoy's 0, CloudFront's 000) leaves LP_HAS_STATUS
 *     unset; the line still counts.
 *   - The request line follows lp_token.c's lp_request_parse (the combined
 *     family's rules: an RFC 9110 method, one space, a target of
 *     non-blank bytes; an absolute-form target counts under its path, "/"
 *     without one; "PRI * HTTP/2.0" and a placeholder method "-" are not
 *     HTTP; "-" alone is no request), and a target "-" has no path
 *     (LP_ST_BAD_REQUEST).  A target may hold a '"' (ALB, Envoy and
 *     Traefik log it as sent): a request ends at the first '"' followed by
 *     a blank or the end of the line.
 *   - The route is the target's path, its query string cut unless
 *     LP_PARSE_KEEP_QUERY; LP_PARSE_TEMPLATES folds ids as lp_route_template
 *     does (on the logged form); the server's log escaping is undone
 *     (HAProxy "#22", CloudFront "%20"; an escape of a NUL byte stays as
 *     logged) unless LP_PARSE_LOGGED, and LP_HAS_ROUTE_HIGH says a byte
 *     >= 0x80 came out (lp_format.h: the glue's retry); LP_PARSE_HOST puts
 *     the host in front ("example.com/login").  A host is logged without
 *     its port, as nginx's $host.  A route built so lies in ctx->buf,
 *     which must then hold LP_ROUTE_BUF_SIZE(len) bytes (without one, the
 *     route stays as logged).
 *   - W3C logs (cloudfront, iis) start with '#' header lines
 *     ("#Version: 1.0", "#Fields: ..."): such a line returns
 *     LP_ST_DIRECTIVE, which callers skip like a NULL line.
 */

/* The signature of a parser (proposed for every entry of the format table). */
typedef lp_status (*lp_line_fn) (const char *line, size_t len, const lp_parse_ctx *ctx,
								 lp_result *out);

/*
 * HAProxy, `option httplog` (the default HTTP format, HAProxy 1.3 to 3.x):
 *   [syslog header] client:port [07/Nov/2026:01:00:00.123] frontend
 *   backend/server TR/Tw/Tc/Tr/Ta status bytes cookie cookie flags
 *   actconn/feconn/beconn/srv_conn/retries srv_queue/backend_queue
 *   [{request headers}] [{response headers}] "request"
 * as HAProxy writes it with `format raw`, after an RFC 3164 header
 * ("Nov  7 01:00:00 host haproxy[123]: ") or an RFC 5424 one
 * ("<134>1 2026-11-07T01:00:00.123Z host haproxy 123 - - ").  Latency: the
 * fifth timer, Ta (Tt in HAProxy 1.x, whose timers read Tq/Tw/Tc/Tr/Tt):
 * a "-1" in the four others does not matter; a '+' before it ("option
 * logasap": a lower bound) is LP_ST_NO_LATENCY.  Time: LP_TIME_CLF_MS.
 * A request without its closing quote (HAProxy cuts a message at 1024
 * bytes) is read to the end of the line and counts.
 */
extern lp_status lp_parse_haproxy(const char *line, size_t len, const lp_parse_ctx *ctx,
								  lp_result *out);

/*
 * AWS Application Load Balancer access log entries:
 *   type time elb client:port target:port request_processing_time
 *   target_processing_time response_processing_time elb_status_code
 *   target_status_code received_bytes sent_bytes "request" ...
 * Latency: the sum of the three processing times (seconds), exact, then
 * rounded half up to ms; a "-1" in any (not dispatched) is
 * LP_ST_NO_LATENCY.  Status: elb_status_code.  Host: the request's
 * authority.  Time: LP_TIME_ISO8601.
 */
extern lp_status lp_parse_alb(const char *line, size_t len, const lp_parse_ctx *ctx,
							  lp_result *out);

/*
 * Amazon CloudFront standard log file (tab-separated, W3C): date time
 * x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status
 * cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type
 * x-edge-request-id x-host-header cs-protocol cs-bytes time-taken ...
 * (19 fields read of 33).  Latency: time-taken (seconds).  Host:
 * x-host-header.  Time: LP_TIME_DATE_TIME (UTC).
 */
extern lp_status lp_parse_cloudfront(const char *line, size_t len, const lp_parse_ctx *ctx,
									 lp_result *out);

/*
 * Envoy's default access-log format:
 *   [%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%"
 *   %RESPONSE_CODE% %RESPONSE_FLAGS% %BYTES_RECEIVED% %BYTES_SENT% %DURATION%
 *   %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% "%REQ(X-FORWARDED-FOR)%"
 *   "%REQ(USER-AGENT)%" "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%"
 * Latency: %DURATION% (ms).  Host: %REQ(:AUTHORITY)%.  Time:
 * LP_TIME_ISO8601.
 */
extern lp_status lp_parse_envoy(const char *line, size_t len, const lp_parse_ctx *ctx,
								lp_result *out);

/*
 * Traefik's common log format:
 *   client - user [07/Nov/2026:01:00:00 +0000] "GET /path HTTP/1.1" status
 *   size "referer" "user agent" count "router" "server URL" <N>ms
 * Latency: the trailing <N>ms.  Time: LP_TIME_CLF.
 */
extern lp_status lp_parse_traefik(const char *line, size_t len, const lp_parse_ctx *ctx,
								  lp_result *out);

/*
 * IIS, the W3C default field set: date time s-ip cs-method cs-uri-stem
 * cs-uri-query s-port cs-username c-ip cs(User-Agent) [cs(Referer)]
 * sc-status sc-substatus sc-win32-status time-taken (IIS 8.5 and later
 * log cs(Referer), IIS 7 did not: 15 or 14 fields).  Latency: time-taken
 * (ms).  Time: LP_TIME_DATE_TIME (UTC).
 */
extern lp_status lp_parse_iis(const char *line, size_t len, const lp_parse_ctx *ctx,
							  lp_result *out);

/* Every preset and its parser, ended by a NULL name (for tests, fuzzers, benchmarks). */
typedef struct lp_preset
{
	const char *name;			/* "haproxy", ... */
	lp_line_fn	parse;			/* its parser */
	lp_time_kind time_kind;		/* how its lp_result.time reads */
	lp_unit		unit;			/* the unit it logs the latency in */
} lp_preset;

extern const lp_preset lp_presets[];

#endif							/* LP_PRESETS_H */
