#!/usr/bin/python3
# test/field/reference.py -- an independent reference for logp95's 'combined'
# formats, computed from a raw log file: per route the requests, p50, p95,
# p99 and max in ms; the count of malformed lines; each line's time in UTC.
#
# Written from nginx's documented log format (log_format timed
# '$remote_addr - $remote_user [$time_local] "$request" $status
# $body_bytes_sent "$http_referer" "$http_user_agent" $request_time', which
# escapes '"', '\' and bytes outside printable ASCII as \xHH), from Apache's
# (LogFormat "%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\" %D",
# --format combined_us: mod_log_config writes '"' as \", '\' as \\ and other
# non-printable bytes as \xhh or \b \n \r \t \v \f, in %u and %r too, and %D
# as integer microseconds) and from the rules of issue 12, not from logp95's
# C code.  A line, read as bytes, its
# '\n' removed and one trailing '\r' dropped:
#
#  1. The request is the first field opened by an unescaped '"': scanning from
#     the start, a backslash escapes the byte after it; the first '"' that is
#     not escaped and starts a field (first byte of the line, or after a space
#     or tab) opens the request, and the next unescaped '"' closes it.  No such
#     field, or no closing quote: malformed.
#  2. The time is the last '[...]' before the request: the last '[' before the
#     request's opening quote, up to the first ']' after it (before the
#     quote).  None there: malformed, and no time.  So a $remote_user with
#     brackets, spaces or a fake time changes nothing.  A time is well formed
#     when it is exactly DD/Mon/YYYY:HH:MM:SS +HHMM (or -HHMM; month
#     abbreviation in any case; a real date; hour 0-23, minute and second 0-59,
#     offset at most 15:59): it is converted to UTC; otherwise the line has no
#     time (NULL), which does not make the line malformed.
#  3. The request is METHOD SP TARGET [SP ...]: METHOD is one or more RFC 9110
#     tchar (ALPHA DIGIT ! # $ % & ' * + - . ^ _ ` | ~), then one space, then
#     TARGET, a non-empty run of bytes up to the next space or tab.  Anything
#     else (TLS bytes, binary junk, a bare GARBAGE, "GET" with no target, "-")
#     is malformed, and so is the HTTP/2 preface, "PRI * HTTP/2.0".
#  4. The route is the target's path: an absolute-form target
#     (scheme "://" authority path) counts under its path, scheme and authority
#     dropped ("/" when the path is empty); 'combined' and 'combined_us' cut the
#     route at the first '?', the _query formats keep it.  Bytes are kept as
#     logged (no percent-decoding).  An empty route is malformed.
#  5. After the request's closing quote come fields, each quoted (with
#     backslash escapes) or a run of non-blank bytes; at least 5 of them (status,
#     size, referer, user agent, request time), else malformed.  The request
#     time is the last one, unquoted: seconds D+ or D+.D+ (combined formats),
#     converted to ms rounding half up on the 4th decimal (0.012 -> 12,
#     0.0005 -> 1, 12 -> 12000); or integer microseconds D+ (_us formats:
#     Apache's %D), to ms half up on the remainder of a division by 1000
#     (214499 -> 214, 214500 -> 215, 499 -> 0, 500 -> 1; leading zeros fine).
#     Anything else, more than 2^63-1 ms, or (_us) more than 2^63-1 us:
#     malformed.
#
# Apache's escaping needs no rule of its own: a backslash escapes the byte
# after it (rules 1 and 5), so \" never opens or closes a field and \\ never
# escapes the quote after it ("a\\" ends at its second '"').
#
# Status classes (issue 24, --status): the status is the first field after
# the request, when it is unquoted and exactly three digits, the first 1-9;
# its class is its first digit when it is 100-599, and "unknown" otherwise
# (no such field, 000, 999).  Malformed lines count in no class.
#
# Percentiles: for a route of n requests, pK is the latency at 0-based index
# min(floor(n*K/100), n-1) of its sorted latencies.
#
#   reference.py LOG [--format combined] [--exclude-client ADDR]
#                [--routes routes.csv] [--lines lines.csv] [--expected FILE]
#                [--status status.csv]
#
# Prints a summary ("lines N", "routes N", "requests N", "malformed N",
# "clients ADDR:N ...").  --routes writes CSV route,requests,p50,p95,p99,max;
# --status writes CSV route,requests,s1xx,s2xx,s3xx,s4xx,s5xx,unknown;
# --lines writes CSV n,ts,route,ms (one row per line of the file, n from 1;
# an empty field for no time, or no route and ms for a malformed line);
# --expected writes the human-readable regression file.  --exclude-client
# leaves out, from the report and counts (not from --lines), the lines whose
# first field is ADDR.
import argparse
import calendar
import csv
import datetime
import re
import sys

TCHAR = frozenset(b"!#$%&'*+-.^_`|~0123456789"
                  b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
BLANK = b" \t"
MONTHS = {m: i + 1 for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])}
TIME_RE = re.compile(rb"(\d\d)/([A-Za-z]{3})/(\d{4}):(\d\d):(\d\d):(\d\d) ([+-])(\d\d)(\d\d)\Z")
SCHEME_RE = re.compile(rb"[A-Za-z][A-Za-z0-9+.-]*://")
INT64_MAX = 2**63 - 1
FORMATS = ("combined", "combined_query", "combined_us", "combined_us_query")


def utc_time(text):
    """'DD/Mon/YYYY:HH:MM:SS +HHMM' -> 'YYYY-MM-DD HH:MM:SS' in UTC, or None."""
    m = TIME_RE.match(text)
    if not m:
        return None
    day, mon, year, hh, mi, ss, sign, oh, om = m.groups()
    month = MONTHS.get(mon.decode().lower())
    day, year, hh, mi, ss, oh, om = map(int, (day, year, hh, mi, ss, oh, om))
    if (month is None or year < 1 or not 1 <= day <= calendar.monthrange(year, month)[1]
            or hh > 23 or mi > 59 or ss > 59 or oh > 15 or om > 59):
        return None
    offset = datetime.timedelta(hours=oh, minutes=om)
    try:
        utc = datetime.datetime(year, month, day, hh, mi, ss) - (offset if sign == b"+" else -offset)
    except OverflowError:  # before year 1 or after 9999 in UTC
        return None
    return utc.strftime("%Y-%m-%d %H:%M:%S") if utc.year >= 1000 else "%04d-%02d-%02d %02d:%02d:%02d" % (
        utc.year, utc.month, utc.day, utc.hour, utc.minute, utc.second)


def close_quote(line, i):
    """line[i] is '"': index of the closing unescaped '"', or None."""
    i += 1
    while i < len(line):
        c = line[i]
        if c == 0x5C:  # backslash
            i += 2
        elif c == 0x22:
            return i
        else:
            i += 1
    return None


def request_open(line):
    """Index of the '"' that opens the request, or None."""
    i = 0
    while i < len(line):
        c = line[i]
        if c == 0x5C:
            i += 2
            continue
        if c == 0x22 and (i == 0 or line[i - 1] in BLANK):
            return i
        i += 1
    return None


def latency_ms(field, micros):
    if micros:
        if not re.fullmatch(rb"\d+", field):
            return None
        us = int(field)
        if us > INT64_MAX:
            return None
        return us // 1000 + (1 if us % 1000 >= 500 else 0)
    m = re.fullmatch(rb"(\d+)(?:\.(\d+))?", field)
    if not m:
        return None
    frac = (m.group(2) or b"")
    ms = int(m.group(1)) * 1000 + int((frac[:3] + b"000")[:3]) + (1 if len(frac) > 3 and frac[3] >= 0x35 else 0)
    return ms if ms <= INT64_MAX else None


def route_of(request, keep_query):
    """The route of a request, or None when it is not an HTTP request."""
    sp = request.find(b" ")
    method = request[:sp] if sp >= 0 else request
    if sp <= 0 or not all(c in TCHAR for c in method):
        return None
    rest = request[sp + 1:]
    end = 0
    while end < len(rest) and rest[end] not in BLANK:
        end += 1
    target = rest[:end]
    if not target:
        return None
    if method == b"PRI" and target == b"*" and rest[end:] == b" HTTP/2.0":
        return None
    m = SCHEME_RE.match(target)
    if m:
        after = target[m.end():]
        cut = len(after)
        for sep in (b"/", b"?"):
            k = after.find(sep)
            if k >= 0:
                cut = min(cut, k)
        target = after[cut:]
        if not target.startswith(b"/"):
            target = b"/" + target
    if not keep_query:
        q = target.find(b"?")
        if q >= 0:
            target = target[:q]
    return target or None


def parse(line, fmt):
    """(utc time or None, route or None, ms or None); route None = malformed."""
    if line.endswith(b"\r"):
        line = line[:-1]
    ts = None
    o = request_open(line)
    prefix = line[:o] if o is not None else line
    lb = prefix.rfind(b"[")
    rb = prefix.find(b"]", lb + 1) if lb >= 0 else -1
    if rb >= 0:
        ts = utc_time(prefix[lb + 1:rb])
    if o is None or rb < 0:
        return ts, None, None
    c = close_quote(line, o)
    if c is None:
        return ts, None, None
    route = route_of(line[o + 1:c], fmt.endswith("_query"))
    if route is None:
        return ts, None, None
    fields = []
    p = c + 1
    while p < len(line):
        if line[p] in BLANK:
            p += 1
            continue
        if line[p] == 0x22:
            q = close_quote(line, p)
            if q is None:
                return ts, None, None
            fields.append((True, line[p:q + 1]))
            p = q + 1
        else:
            s = p
            while p < len(line) and line[p] not in BLANK:
                p += 1
            fields.append((False, line[s:p]))
    if len(fields) < 5 or fields[-1][0]:
        return ts, None, None
    ms = latency_ms(fields[-1][1], fmt.startswith("combined_us"))
    if ms is None:
        return ts, None, None
    return ts, route, ms


def status_class(line):
    """The status class of a well-formed line: 1..5, or 0 for unknown."""
    if line.endswith(b"\r"):
        line = line[:-1]
    c = close_quote(line, request_open(line))
    rest = line[c + 1:].lstrip(b" \t")
    m = re.match(rb"([1-9][0-9][0-9])(?:[ \t]|\Z)", rest)
    if not m:
        return 0
    status = int(m.group(1))
    return status // 100 if 100 <= status <= 599 else 0


def rank(sorted_ms, k):
    n = len(sorted_ms)
    return sorted_ms[min(n * k // 100, n - 1)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("--format", default="combined", choices=FORMATS)
    ap.add_argument("--exclude-client")
    ap.add_argument("--routes")
    ap.add_argument("--lines")
    ap.add_argument("--expected")
    ap.add_argument("--status")
    args = ap.parse_args()

    with open(args.log, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    exclude = args.exclude_client.encode() + b" " if args.exclude_client else None

    per_route = {}
    per_status = {}
    per_line = []
    malformed = 0
    clients = {}
    for line in lines:
        ts, route, ms = parse(line, args.format)
        per_line.append((ts, route, ms))
        client = line.split(b" ", 1)[0].decode("utf-8", "replace")
        clients[client] = clients.get(client, 0) + 1
        if exclude is not None and line.startswith(exclude):
            continue
        if route is None:
            malformed += 1
        else:
            per_route.setdefault(route, []).append(ms)
            per_status.setdefault(route, [0] * 6)[status_class(line)] += 1

    report = []
    for route in sorted(per_route):  # byte order, as logp95_report
        ms = sorted(per_route[route])
        report.append((route.decode("utf-8"), len(ms), rank(ms, 50), rank(ms, 95),
                       rank(ms, 99), ms[-1]))

    if args.routes:
        with open(args.routes, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            for row in report:
                w.writerow(row)
    if args.status:
        with open(args.status, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            for route in sorted(per_status):
                c = per_status[route]
                w.writerow([route.decode("utf-8"), sum(c), c[1], c[2], c[3], c[4], c[5], c[0]])
    if args.lines:
        with open(args.lines, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            for n, (ts, route, ms) in enumerate(per_line, 1):
                w.writerow([n, ts or "", route.decode("utf-8") if route is not None else "",
                            "" if ms is None else ms])
    if args.expected:
        with open(args.expected, "w", encoding="utf-8") as f:
            f.write("# %s with test/field/reference.py --format %s\n" % (args.log.split("/")[-1], args.format))
            f.write("# route|requests|p50_ms|p95_ms|p99_ms|max_ms\n")
            for row in report:
                f.write("|".join(str(x) for x in row) + "\n")
            f.write("malformed|%d\n" % malformed)
            f.write("# line|utc time (empty: none)|route (empty: malformed)|ms\n")
            for n, (ts, route, ms) in enumerate(per_line, 1):
                f.write("line %d|%s|%s|%s\n" % (n, ts or "", route.decode("utf-8") if route is not None else "",
                                                "" if ms is None else ms))

    print("lines", len(lines))
    print("routes", len(report))
    print("requests", sum(r[1] for r in report))
    print("malformed", malformed)
    print("no_time", sum(1 for ts, _, _ in per_line if ts is None))
    print("clients", " ".join("%s:%d" % kv for kv in sorted(clients.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
