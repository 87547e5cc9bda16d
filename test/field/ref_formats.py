#!/usr/bin/python3
# test/field/ref_formats.py -- the independent reference of the definition
# and preset field tests (052 to 057): per route the requests, p50, p95, p99
# and max in ms, the count of malformed lines, and each line's route,
# latency and time in UTC, computed from a raw log file written by a real
# server with one of the layouts of test/field (--layout below).
#
# Written from the servers' own documentation and from the contract of
# issue 23, not from logp95's C code; the request-line rules and the CLF
# time are those of test/field/reference.py (imported), plus the issue's
# placeholder rule (a method "-", varnishncsa's "- http://localhost
# HTTP/1.0", is no request).
#
# Layouts: each is the list of fields and literal text of one server
# configuration of test/field, written out here by hand from that
# configuration and the vendor's description of each variable:
#
#   nginx_fieldorder  nginx_defs.conf.in, log_format fieldorder (nginx
#                     escapes '"', '\' and bytes outside 32..126 as \xHH in
#                     variables; $request_time in seconds with ms;
#                     $upstream_response_time a list "a, b : c" or "-")
#   nginx_fieldupstream  nginx_defs.conf.in, log_format fieldupstream (no
#                     $request_time: the latency is $upstream_response_time,
#                     "-" alone none, a list summed)
#   nginx_fieldjson   nginx_defs.conf.in, log_format fieldjson (escape=json:
#                     '"' and '\' after a backslash, bytes below 32 as \n \r
#                     \t \b \f or \u00XX, other bytes as they are)
#   apache_ms         apache2_ms.conf.in (%{ms}T: whole milliseconds; Apache
#                     escapes %r and headers as \" \\ \xhh \n ...)
#   lighttpd_us       lighttpd.conf.in (%D: microseconds)
#   varnishncsa_us    varnishncsa.format (%D: microseconds; %r rebuilt from
#                     method, URL with host, protocol)
#   caddy             Caddy 2's default JSON access log (ts: epoch seconds
#                     as a float; duration: seconds as a float; request.uri
#                     as sent; status 0: no response)
#   haproxy           option httplog's default format (HAProxy's
#                     configuration manual 8.2.3): raw, or behind an RFC 3164
#                     or RFC 5424 syslog header; latency Ta (ms); %tr without
#                     an offset (UTC); '"', '#' and bytes outside 32..126 as
#                     #XX; a message cut at 1024 bytes keeps its request to
#                     the end of the line; <BADREQ> is no request
#
# How the fields of a line are delimited (the rules of issue 23, "How a
# line is read"): literal text must be where the layout says; a plain field
# ends at the first place the literal after it follows; a quoted field at
# the first unescaped '"' that the literal after it follows; a time's blank
# and an upstream list's ", " and " : " are part of the field; the last
# field runs to the end of the line.  A line that does not fit is malformed.
#
# Routes: the request line's target (reference.py's rules: an absolute form
# counts under its path, the query cut), then the server's escaping undone;
# where that gives bytes that are not valid UTF-8 (or a NUL), the route
# keeps its logged form.  Latencies to ms, half up: seconds with a
# fraction as reference.py, microseconds as reference.py, whole ms as they
# are.  Status "-" (varnishncsa's for a piped request) or HAProxy's -1,
# Caddy's 0: no status, the line counts; any other status not 100-999:
# malformed.
#
# Only the lines PostgreSQL can load into a UTF8 database are read (valid
# UTF-8, no byte 0x01 or 0x02, not "\."): --loadable writes them, and the
# count of the others is printed as "dropped".
#
#   ref_formats.py LOG --layout L [--loadable OUT] [--routes routes.csv]
#                  [--lines lines.csv]
#
# Prints "lines N", "routes N", "requests N", "malformed N", "no_time N",
# "dropped N", "clients ADDR:N ...".  --routes: CSV route,requests,p50,p95,
# p99,max; --lines: CSV n,ts,route,ms,client (n from 1 over the loadable
# lines; ts empty for none, route and ms empty for a malformed line).
import argparse
import csv
import datetime
import decimal
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference  # noqa: E402  (route_of, latency_ms, utc_time, rank)

INT64_MAX = 2**63 - 1
MONTHS = reference.MONTHS


# ---------- fields of a line ----------

def split_fields(line, layout):
    """Match LINE against LAYOUT (a list of bytes literals and (name, kind)
    fields): a dict name -> bytes, or None when the line does not fit."""
    out = {}
    p = 0
    n = len(layout)
    for i, item in enumerate(layout):
        if isinstance(item, bytes):
            if not line.startswith(item, p):
                return None
            p += len(item)
            continue
        name, kind = item
        lit = layout[i + 1] if i + 1 < n else None
        if lit is None:
            end = len(line)
        elif kind == "quoted":
            q = p
            end = None
            while q < len(line):
                c = line[q]
                if c == 0x5C:
                    q += 2
                    continue
                if c == 0x22 and line.startswith(lit, q):
                    end = q
                    break
                q += 1
            if end is None:
                return None
        elif kind == "time":
            sp = line.find(b" ", p)
            end = line.find(lit, sp + 1) if sp >= 0 else -1
            if end < 0:
                return None
        elif kind == "list":
            q = p
            while True:
                k = line.find(lit, q)
                if k < 0:
                    return None
                if line.startswith(b", ", k - 1) or line.startswith(b" : ", k) or line.startswith(b" : ", k - 2):
                    q = k + 1
                    continue
                end = k
                break
        else:
            end = line.find(lit, p)
            if end < 0:
                return None
        out[name] = line[p:end]
        p = end
    return out if p == len(line) else None


# ---------- unescaping ----------

def unescape_x(b):
    """nginx's default escaping: \\xHH."""
    return re.sub(rb"\\x([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]), b)


BACKSLASH = {ord("b"): 8, ord("n"): 10, ord("r"): 13, ord("t"): 9, ord("v"): 11, ord("f"): 12,
             ord('"'): 0x22, ord("\\"): 0x5C, ord("/"): 0x2F}


def unescape_backslash(b):
    """Apache, lighttpd, varnishncsa: \\" \\\\ \\xhh \\n \\t ..."""
    out = bytearray()
    i = 0
    while i < len(b):
        c = b[i]
        if c == 0x5C and i + 1 < len(b):
            d = b[i + 1]
            if d in (0x78, 0x58) and re.fullmatch(rb"[0-9A-Fa-f]{2}", b[i + 2:i + 4]):
                out.append(int(b[i + 2:i + 4], 16))
                i += 4
                continue
            if d in BACKSLASH:
                out.append(BACKSLASH[d])
                i += 2
                continue
        out.append(c)
        i += 1
    return bytes(out)


def unescape_json(b):
    """nginx escape=json / JSON strings: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX."""
    try:
        s = json.loads(b'"' + b + b'"')
        return s.encode("utf-8")
    except (ValueError, UnicodeEncodeError):
        return None


def unescape_hash(b):
    """HAProxy: #XX."""
    return re.sub(rb"#([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]), b)


def decoded(route, unescape):
    """The route with the server's escaping undone, or as logged when that
    is not valid UTF-8 text."""
    d = unescape(route)
    if d is None or b"\0" in d:
        return route
    try:
        d.decode("utf-8")
    except UnicodeDecodeError:
        return route
    return d


# ---------- requests, latencies, status, times ----------

def request_route(req, unescape, truncated=False):
    """The route of a logged request line, or None (not a request, no path)."""
    sp = req.find(b" ")
    if sp > 0 and req[:sp] == b"-":
        return None  # a placeholder where the method should be
    if truncated and sp > 0 and req.find(b" ", sp + 1) < 0:
        pass  # cut before the protocol: the target runs to the end
    route = reference.route_of(req, False)
    if route is None:
        return None
    return decoded(route, unescape)


def uri_route(uri):
    """A request target alone (Caddy's request.uri), decoded already."""
    return reference.route_of(b"GET " + uri, False) if uri else None


def seconds_ms(text):
    return reference.latency_ms(text, False)


def micros_ms(text):
    return reference.latency_ms(text, True)


def whole_ms(text):
    if not re.fullmatch(rb"\d+", text):
        return None
    v = int(text)
    return v if v <= INT64_MAX else None


def decimal_seconds_ms(value):
    """A JSON number of seconds (Decimal), to ms half up."""
    if value < 0:
        return None
    ms = (value * 1000).quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP)
    return int(ms) if ms <= INT64_MAX else None


def status_ok(text, none=(b"-",)):
    """True when the status is 100-999 or one of NONE (no status)."""
    if text in none:
        return True
    return re.fullmatch(rb"[1-9]\d\d", text) is not None


def fmt_ts(dt):
    return dt.strftime("%Y-%m-%d %H:%M:%S.%f")


def clf_time(text):
    """'DD/Mon/YYYY:HH:MM:SS +HHMM' (Apache's %t with its brackets too)."""
    if text.startswith(b"[") and text.endswith(b"]"):
        text = text[1:-1]
    t = reference.utc_time(text)
    return t + ".000000" if t else None


def iso_time(text):
    m = re.fullmatch(rb"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)([+-])(\d\d):(\d\d)", text)
    if not m:
        return None
    y, mo, d, h, mi, s, sign, oh, om = m.groups()
    dt = datetime.datetime(int(y), int(mo), int(d), int(h), int(mi), int(s))
    off = datetime.timedelta(hours=int(oh), minutes=int(om))
    return fmt_ts(dt - off if sign == b"+" else dt + off)


def epoch_time(value):
    """Epoch seconds (Decimal) to UTC, microseconds rounded half up."""
    us = (value * 1000000).quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP)
    dt = datetime.datetime(1970, 1, 1) + datetime.timedelta(microseconds=int(us))
    return fmt_ts(dt)


def haproxy_time(text):
    m = re.fullmatch(rb"(\d\d)/([A-Za-z]{3})/(\d{4}):(\d\d):(\d\d):(\d\d)\.(\d{3})", text)
    if not m:
        return None
    d, mon, y, h, mi, s, ms = m.groups()
    month = MONTHS.get(mon.decode().lower())
    if month is None:
        return None
    try:
        dt = datetime.datetime(int(y), month, int(d), int(h), int(mi), int(s), int(ms) * 1000)
    except ValueError:
        return None
    return fmt_ts(dt)


# ---------- the layouts ----------
# Each returns (ts, route, ms, client); route None = malformed.

NGINX_FIELDORDER = [
    b"rt=", ("rt", "plain"), b" [", ("time", "time"), b"] ", ("status", "plain"), b' "',
    ("request", "quoted"), b'" urt=', ("urt", "list"), b" ", ("client", "plain"), b' "',
    ("ua", "quoted"), b'" ', ("bytes", "plain")]

NGINX_FIELDUPSTREAM = [
    ("client", "plain"), b" [", ("time", "time"), b'] "', ("request", "quoted"), b'" ',
    ("status", "plain"), b" ", ("urt", "list")]


def upstream_ms(f):
    """$upstream_response_time: "-" alone is no latency; a list "a, b : c"
    is summed, its "-" items counting 0 (nginx's ngx_http_upstream
    module: one time per upstream tried, ", " between servers, " : "
    between upstream groups)."""
    text = f["urt"]
    if text == b"-":
        return None
    total = 0
    for item in re.split(rb", | : ", text):
        if item == b"-":
            continue
        ms = seconds_ms(item)
        if ms is None:
            return None
        total += ms
    return total if total <= INT64_MAX else None


NGINX_FIELDJSON = [
    b'{"time":"', ("time", "plain"), b'","client":"', ("client", "quoted"), b'","request":"',
    ("request", "quoted"), b'","status":', ("status", "plain"), b',"rt":', ("rt", "plain"),
    b',"urt":"', ("urt", "list"), b'","ua":"', ("ua", "quoted"), b'"}']

APACHE_MS = [
    ("client", "plain"), b" ", ("ms", "plain"), b" ", ("status", "plain"), b" ", ("time", "time"),
    b' "', ("request", "quoted"), b'" ', ("bytes", "plain"), b' "', ("ua", "quoted"), b'" ',
    ("vhost", "plain")]

LIGHTTPD_US = [
    ("client", "plain"), b" ", ("host", "plain"), b" ", ("user", "plain"), b" ", ("time", "time"),
    b' "', ("request", "quoted"), b'" ', ("status", "plain"), b" ", ("bytes", "plain"), b' "',
    ("ua", "quoted"), b'" ', ("us", "plain")]

VARNISHNCSA_US = [
    ("client", "plain"), b" ", ("time", "time"), b' "', ("request", "quoted"), b'" ',
    ("status", "plain"), b" ", ("bytes", "plain"), b" ", ("us", "plain"), b' "', ("ua", "quoted"),
    b'"']


def by_layout(layout, time_of, latency_of, unescape):
    def parse(line):
        f = split_fields(line, layout)
        if f is None:
            return None, None, None, line.split(b" ", 1)[0]
        ts = time_of(f["time"])
        client = f.get("client", b"")
        route = request_route(f["request"], unescape)
        ms = latency_of(f)
        if route is None or ms is None or not status_ok(f["status"]):
            return ts, None, None, client
        return ts, route, ms, client
    return parse


def nginx_latency(f):
    return seconds_ms(f["rt"])


def caddy(line):
    try:
        obj = json.loads(line, parse_float=decimal.Decimal, parse_int=decimal.Decimal)
    except ValueError:
        return None, None, None, b""
    if not isinstance(obj, dict):
        return None, None, None, b""
    ts = None
    if isinstance(obj.get("ts"), decimal.Decimal):
        ts = epoch_time(obj["ts"])
    req = obj.get("request")
    client = b""
    if isinstance(req, dict) and isinstance(req.get("remote_ip"), str):
        client = req["remote_ip"].encode()
    uri = req.get("uri") if isinstance(req, dict) else None
    dur = obj.get("duration")
    status = obj.get("status")
    if not isinstance(uri, str) or not isinstance(dur, decimal.Decimal):
        return ts, None, None, client
    route = uri_route(uri.encode("utf-8", "surrogatepass"))
    ms = decimal_seconds_ms(dur)
    if status is not None and not (isinstance(status, decimal.Decimal) and (status == 0 or 100 <= status <= 999)):
        return ts, None, None, client
    if route is None or ms is None:
        return ts, None, None, client
    return ts, route, ms, client


SYSLOG_3164 = re.compile(rb"(?:<\d{1,3}>)?[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d (?:\S+ )?[^ :\[]+(?:\[\d+\])?: ")
SYSLOG_5424 = re.compile(rb"<\d{1,3}>1 \S+ \S+ \S+ \S+ \S+ (?:-|(?:\[(?:[^\]\\]|\\.)*\])+) ")
HAPROXY = re.compile(
    rb"(\S+):(\d+) \[([^\]]*)\] \S+ \S+ (-?\d+)/(-?\d+)/(-?\d+)/(-?\d+)/(\+?-?\d+) (-?\d+) (.*)\Z", re.S)


def haproxy(line):
    m = SYSLOG_5424.match(line) or SYSLOG_3164.match(line)
    if m:
        line = line[m.end():]
    m = HAPROXY.match(line)
    if not m:
        return None, None, None, b""
    client, _port, tr, _tr, _tw, _tc, _trr, ta, status, rest = m.groups()
    ts = haproxy_time(tr)
    q = rest.find(b' "')
    if q < 0:
        return ts, None, None, client
    req = rest[q + 2:]
    e = req.find(b'"')
    req = req[:e] if e >= 0 else req  # cut at 1024 bytes: to the end of the line
    route = request_route(req, unescape_hash)
    ms = whole_ms(ta)
    if route is None or ms is None or not status_ok(status, (b"-1",)):
        return ts, None, None, client
    return ts, route, ms, client


LAYOUTS = {
    "nginx_fieldorder": by_layout(NGINX_FIELDORDER, clf_time, nginx_latency, unescape_x),
    "nginx_fieldupstream": by_layout(NGINX_FIELDUPSTREAM, clf_time, upstream_ms, unescape_x),
    "nginx_fieldjson": by_layout(NGINX_FIELDJSON, iso_time, nginx_latency, unescape_json),
    "apache_ms": by_layout(APACHE_MS, clf_time, lambda f: whole_ms(f["ms"]), unescape_backslash),
    "lighttpd_us": by_layout(LIGHTTPD_US, clf_time, lambda f: micros_ms(f["us"]), unescape_backslash),
    "varnishncsa_us": by_layout(VARNISHNCSA_US, clf_time, lambda f: micros_ms(f["us"]), unescape_backslash),
    "caddy": caddy,
    "haproxy": haproxy,
}


def loadable(line):
    if b"\x01" in line or b"\x02" in line or line == b"\\.":
        return False
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("--layout", required=True, choices=sorted(LAYOUTS))
    ap.add_argument("--loadable")
    ap.add_argument("--routes")
    ap.add_argument("--lines")
    args = ap.parse_args()
    parse = LAYOUTS[args.layout]

    with open(args.log, "rb") as f:
        raw = f.read().split(b"\n")
    if raw and raw[-1] == b"":
        raw.pop()
    lines = [l for l in raw if loadable(l)]
    if args.loadable:
        with open(args.loadable, "wb") as f:
            f.write(b"".join(l + b"\n" for l in lines))

    per_route = {}
    per_line = []
    malformed = 0
    clients = {}
    for line in lines:
        body = line[:-1] if line.endswith(b"\r") else line
        ts, route, ms, client = parse(body)
        per_line.append((ts, route, ms, client))
        c = client.decode("utf-8", "replace")
        clients[c] = clients.get(c, 0) + 1
        if route is None:
            malformed += 1
        else:
            per_route.setdefault(route, []).append(ms)

    report = []
    for route in sorted(per_route):
        ms = sorted(per_route[route])
        report.append((route.decode("utf-8"), len(ms), reference.rank(ms, 50), reference.rank(ms, 95),
                       reference.rank(ms, 99), ms[-1]))
    if args.routes:
        with open(args.routes, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            for row in report:
                w.writerow(row)
    if args.lines:
        with open(args.lines, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            for n, (ts, route, ms, client) in enumerate(per_line, 1):
                w.writerow([n, ts or "", route.decode("utf-8") if route is not None else "",
                            "" if ms is None else ms, client.decode("utf-8", "replace")])

    print("lines", len(lines))
    print("routes", len(report))
    print("requests", sum(r[1] for r in report))
    print("malformed", malformed)
    print("no_time", sum(1 for p in per_line if p[0] is None))
    print("dropped", len(raw) - len(lines))
    print("clients", " ".join("%s:%d" % kv for kv in sorted(clients.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
