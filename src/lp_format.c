/* src/lp_format.c -- the message of every status of the log-format parsers (plain C) */
#include "lp_format.h"

/*
 * One message per lp_status, indexed by it: the text the aggregate raises
 * in error mode and logp95_parse returns as the line's problem.  The
 * messages of the statuses 1.1 had are unchanged.
 */
const lp_status_def lp_status_defs[LP_ST_COUNT] = {
	[LP_ST_OK] = {"", LP_SARG_NONE},
	[LP_ST_TOO_FEW_FIELDS] = {"malformed log line: expected %d fields, found %d", LP_SARG_COUNTS},
	[LP_ST_BAD_LATENCY] = {"malformed log line: latency \"%s\" is not a non-negative integer", LP_SARG_BAD},
	[LP_ST_LATENCY_RANGE] = {"malformed log line: latency \"%s\" is out of range for type bigint", LP_SARG_BAD},
	[LP_ST_NO_TIME] = {"malformed log line: no [time] field after the client address", LP_SARG_NONE},
	[LP_ST_NO_REQUEST] = {"malformed log line: no quoted request after the time", LP_SARG_NONE},
	[LP_ST_BAD_REQUEST] = {"malformed log line: request \"%s\" has no path", LP_SARG_BAD},
	[LP_ST_UNTERMINATED] = {"malformed log line: a quoted field has no closing quote", LP_SARG_NONE},
	[LP_ST_TOO_FEW_TAIL_FIELDS] = {"malformed log line: expected %d fields after the request, found %d", LP_SARG_COUNTS},
	[LP_ST_BAD_SECONDS] = {"malformed log line: request time \"%s\" is not a non-negative number of seconds", LP_SARG_BAD},
	[LP_ST_BAD_MICROS] = {"malformed log line: request time \"%s\" is not a non-negative integer of microseconds", LP_SARG_BAD},
	[LP_ST_REQTIME_RANGE] = {"malformed log line: request time \"%s\" is out of range for type bigint in milliseconds", LP_SARG_BAD},
	[LP_ST_NOT_HTTP] = {"malformed log line: request \"%s\" is not an HTTP request", LP_SARG_BAD},
	[LP_ST_NO_LATENCY] = {"malformed log line: the response has no latency (\"%s\")", LP_SARG_BAD},
	[LP_ST_BAD_STATUS] = {"malformed log line: status \"%s\" is not an HTTP status", LP_SARG_BAD},
	[LP_ST_NOT_JSON] = {"malformed log line: not one JSON object (stops at \"%s\")", LP_SARG_BAD},
	[LP_ST_NO_FIELD] = {"malformed log line: no %s field", LP_SARG_BAD},
	[LP_ST_BAD_FIELD] = {"malformed log line: field \"%s\" is not as the format says", LP_SARG_BAD},
	[LP_ST_DIRECTIVE] = {"header line \"%s\" is not a log entry", LP_SARG_BAD},
};
